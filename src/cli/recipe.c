// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Workload recipes (recipe.h): workloads/NAME.workload, parsed line by line.
 */
#include <ctype.h>
#include <stdbool.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recipe.h"

#define LB_RECIPE_MAX_ARGS 64
#define LB_RECIPE_MAX_BYTES 16384

/* Whether @name may name a recipe: [a-z0-9][a-z0-9+_-]*, as a probe set's name. */
static bool lb_recipe_name_ok(const char *name)
{
	if (!*name || !isalnum((unsigned char)*name) || strlen(name) > 64)
		return false;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("+_-", *p))
			return false;
	return true;
}

/* The command's words, split on blanks, into r->argv. Returns 0, -EINVAL or -ENOMEM. */
static int lb_recipe_split(struct lb_recipe *r, char *s)
{
	char *save = NULL, *w;
	size_t n = 0;

	r->argv = calloc(LB_RECIPE_MAX_ARGS + 1, sizeof(*r->argv));
	if (!r->argv)
		return -ENOMEM;
	for (w = strtok_r(s, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (n == LB_RECIPE_MAX_ARGS)
			return -EINVAL;
		if (!(r->argv[n++] = strdup(w)))
			return -ENOMEM;
	}
	return n ? 0 : -EINVAL;
}

/* Returns 0, -ENOENT, or -EINVAL/-ENOMEM with @err. */
int lb_recipe_load(const char *dir, const char *name, struct lb_recipe *r, char *err, size_t len)
{
	char path[4096], line[1024], *key, *val, *end;
	int lineno = 0, ret = 0;
	FILE *f;

	memset(r, 0, sizeof(*r));
	if (!lb_recipe_name_ok(name))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/%s.workload", dir, name);
	f = fopen(path, "re");
	if (!f)
		return -ENOENT;
	if (!(r->name = strdup(name)))
		ret = -ENOMEM;
	while (!ret && fgets(line, sizeof(line), f)) {
		char **slot = NULL;

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, len, "%s:%d: line too long: keep it under %zu characters", path,
				 lineno, sizeof(line) - 1);
			ret = -EINVAL;
			break;
		}
		line[strcspn(line, "\r\n")] = '\0';
		key = line + strspn(line, " \t");
		if (!*key || *key == '#')
			continue;
		val = key + strcspn(key, " \t");
		if (*val)
			*val++ = '\0';
		val += strspn(val, " \t");
		for (end = val + strlen(val); end > val && isspace((unsigned char)end[-1]);)
			*--end = '\0';
		if (!*val) {
			snprintf(err, len, "%s:%d: '%s' has no value", path, lineno, key);
			ret = -EINVAL;
			break;
		}
		if (!strcmp(key, "command")) {
			if (r->argv) {
				snprintf(err, len, "%s:%d: a second 'command': give one", path, lineno);
				ret = -EINVAL;
			} else if ((ret = lb_recipe_split(r, val)) == -EINVAL) {
				snprintf(err, len, "%s:%d: the command has more than %d words", path,
					 lineno, LB_RECIPE_MAX_ARGS);
			}
			continue;
		}
		if (!strcmp(key, "description"))
			slot = &r->description;
		else if (!strcmp(key, "metric"))
			slot = &r->metric;
		else if (!strcmp(key, "package"))
			slot = &r->package;
		if (!slot) {
			snprintf(err, len, "%s:%d: unknown key '%.40s': use description, command, metric "
				 "or package", path, lineno, key);
			ret = -EINVAL;
		} else if (*slot) {
			snprintf(err, len, "%s:%d: a second '%s'", path, lineno, key);
			ret = -EINVAL;
		} else if (!(*slot = strdup(val))) {
			ret = -ENOMEM;
		}
	}
	if (!ret && ferror(f)) {
		snprintf(err, len, "%s: read error", path);
		ret = -EIO;
	}
	if (!ret && !r->argv) {
		snprintf(err, len, "%s: no 'command' line: add one", path);
		ret = -EINVAL;
	}
	if (ret == -ENOMEM)
		snprintf(err, len, "out of memory");
	fclose(f);
	if (ret)
		lb_recipe_release(r);
	return ret;
}

static int lb_recipe_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *lb_recipe_names(const char *dir, char *buf, size_t len)
{
	char *names[128];
	size_t n = 0, off = 0;
	struct dirent *e;
	DIR *d = opendir(dir);

	if (len)
		buf[0] = '\0';
	if (!d)
		return buf;
	while ((e = readdir(d)) && n < 128) {
		size_t l = strlen(e->d_name);

		if (l > 9 && !strcmp(e->d_name + l - 9, ".workload") &&
		    (names[n] = strndup(e->d_name, l - 9)))
			n++;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), lb_recipe_cmp);
	for (size_t i = 0; i < n; i++) {
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "", names[i]);
		free(names[i]);
	}
	return buf;
}

void lb_recipe_release(struct lb_recipe *r)
{
	free(r->name);
	free(r->description);
	free(r->metric);
	free(r->package);
	if (r->argv) {
		for (size_t i = 0; r->argv[i]; i++)
			free(r->argv[i]);
		free(r->argv);
	}
	memset(r, 0, sizeof(*r));
}
