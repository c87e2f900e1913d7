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
#include <unistd.h>

#include "recipe.h"
#include "words.h"
#include "util.h"

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

/* Returns 0, -ENOENT, or -errno with @err (lb_open_regular() refuses a FIFO). */
int lb_recipe_load(const char *dir, const char *name, struct lb_recipe *r, char *err, size_t len)
{
	char path[4096], line[1024], *key, *val, *end;
	int lineno = 0, ret = 0, fd;
	FILE *f;

	memset(r, 0, sizeof(*r));
	if (!lb_recipe_name_ok(name))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/%s.workload", dir, name);
	fd = lb_open_regular(path);
	if (fd == -ENOENT)
		return -ENOENT;
	if (fd == -EINVAL || fd == -EISDIR) {
		snprintf(err, len, "%s is not a regular file (%s): make it a recipe's text file, or "
			 "remove it", path, lb_file_kind(path));
		return -EINVAL;
	}
	if (fd < 0) {
		snprintf(err, len, "%s: cannot read: %s", path, strerror(-fd));
		return fd;
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
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
		if (!strcmp(key, "command") || !strcmp(key, "server")) {
			char ***words = *key == 'c' ? &r->argv : &r->server_argv;

			if (*words) {
				snprintf(err, len, "%s:%d: a second '%s': give one", path, lineno, key);
				ret = -EINVAL;
			} else if ((ret = lb_words_split(val, dir, words)) == -EINVAL) {
				snprintf(err, len, "%s:%d: the %s has an unclosed ' or more than %d "
					 "words", path, lineno, key, LB_WORDS_MAX);
			}
			if (ret > 0)
				ret = 0;
			continue;
		}
		if (!strcmp(key, "description"))
			slot = &r->description;
		else if (!strcmp(key, "metric"))
			slot = &r->metric;
		else if (!strcmp(key, "package"))
			slot = &r->package;
		else if (!strcmp(key, "ready"))
			slot = &r->ready;
		if (!slot) {
			snprintf(err, len, "%s:%d: unknown key '%.40s': use description, command, metric, "
				 "server, ready or package", path, lineno, key);
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
	if (!ret && !r->server_argv != !r->ready) {
		snprintf(err, len, "%s: '%s' without '%s': a server needs a readiness test (ready "
			 "tcp:PORT or ready line:REGEX) and ready a server", path,
			 r->ready ? "ready" : "server", r->ready ? "server" : "ready");
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
	free(r->ready);
	lb_words_free(r->argv);
	lb_words_free(r->server_argv);
	memset(r, 0, sizeof(*r));
}
