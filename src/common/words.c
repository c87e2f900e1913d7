// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Command lines as words (words.h): split without a shell, and their
 * {KEY}s replaced.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "words.h"

/* Frees a NULL-terminated word list. */
void lb_words_free(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* Returns the number of words, or -EINVAL (see recipe.h) or -ENOMEM. */
int lb_words_split(const char *s, const char *recipe_dir, char ***out)
{
	static const char key[] = "{recipe}";
	char **v = calloc(LB_WORDS_MAX + 1, sizeof(*v)), *w;
	size_t n = 0, cap = strlen(s) + 1 + (recipe_dir ? strlen(recipe_dir) * strlen(s) : 0);
	int ret = 0;

	*out = NULL;
	if (!v)
		return -ENOMEM;
	while (!ret) {
		size_t off = 0;
		bool quoted = false;

		s += strspn(s, " \t");
		if (!*s)
			break;
		if (n == LB_WORDS_MAX || !(w = malloc(cap))) {
			ret = n == LB_WORDS_MAX ? -EINVAL : -ENOMEM;
			break;
		}
		v[n++] = w;
		/* A word: up to a blank outside quotes; '...' is taken as it is. */
		while (*s && (quoted || (*s != ' ' && *s != '\t'))) {
			if (*s == '\'') {
				quoted = !quoted;
				s++;
			} else if (recipe_dir && !quoted && !strncmp(s, key, sizeof(key) - 1)) {
				memcpy(w + off, recipe_dir, strlen(recipe_dir));
				off += strlen(recipe_dir);
				s += sizeof(key) - 1;
			} else {
				w[off++] = *s++;
			}
		}
		w[off] = '\0';
		if (quoted)
			ret = -EINVAL;
	}
	if (!ret && !n)
		ret = -EINVAL;
	if (ret) {
		lb_words_free(v);
		return ret;
	}
	*out = v;
	return (int)n;
}

/* Returns how many words changed, or -ENOMEM (the words are then as they were). */
int lb_words_subst(char **argv, const char *key, const char *val)
{
	size_t lk = strlen(key), lv = strlen(val);
	int n = 0;

	for (size_t i = 0; argv && argv[i]; i++) {
		size_t count = 0, len = strlen(argv[i]);
		char *p, *w, *o;

		for (p = strstr(argv[i], key); p; p = strstr(p + lk, key))
			count++;
		if (!count)
			continue;
		w = malloc(len - count * lk + count * lv + 1);
		if (!w)
			return -ENOMEM;
		o = w;
		for (const char *s = argv[i]; *s;) {
			if (!strncmp(s, key, lk)) {
				memcpy(o, val, lv);
				o += lv;
				s += lk;
			} else {
				*o++ = *s++;
			}
		}
		*o = '\0';
		free(argv[i]);
		argv[i] = w;
		n++;
	}
	return n;
}
