/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Workload recipes: a named command for --workload exec, one file each in
 * workloads/ (NAME.workload): "description", "command" (words split on
 * blanks, '...' quoting a word as it is, {recipe} for the recipes'
 * directory; no shell), "metric" (optional, as --metric), "server" and
 * "ready" (optional, as --server and --ready), "package" (the Debian
 * package that provides it, for the message when it is missing).
 */
#ifndef LB_RECIPE_H
#define LB_RECIPE_H

#include <stddef.h>

struct lb_recipe {
	char *name;
	char *description;
	char **argv;	/* the command, NULL-terminated */
	char *metric;	/* NULL = none */
	char **server_argv; /* the server, NULL-terminated; NULL = none */
	char *ready;	/* with a server: tcp:PORT or line:REGEX */
	char *package;	/* NULL = none */
};

/*
 * lb_recipe_load - the recipe @name from @dir (DIR/NAME.workload) into @r.
 * Returns 0, -ENOENT when there is none (nothing said), or -errno with one
 * line naming the file (its line) and the fix in @err: -EINVAL for a bad
 * line or a file that is not a regular one (a FIFO), -ENOMEM, or open's error.
 */
int lb_recipe_load(const char *dir, const char *name, struct lb_recipe *r, char *err, size_t len);

/*
 * lb_words_split - the words of @s into *@argv (allocated, NULL-terminated):
 * split on blanks; '...' keeps what it quotes as it is (blanks, an empty
 * word); "{recipe}" outside quotes becomes @recipe_dir (NULL: left as it
 * is). No shell: nothing else is special. Returns the number of words, or
 * -EINVAL (none, an unclosed quote, more than 64) or -ENOMEM.
 */
int lb_words_split(const char *s, const char *recipe_dir, char ***argv);

/* lb_words_free - free what lb_words_split() made; NULL is fine. */
void lb_words_free(char **argv);

/* lb_recipe_names - the recipes in @dir, ", "-separated, into @buf; returns @buf. */
char *lb_recipe_names(const char *dir, char *buf, size_t len);

/* lb_recipe_release - free what lb_recipe_load() put in @r. */
void lb_recipe_release(struct lb_recipe *r);

#endif
