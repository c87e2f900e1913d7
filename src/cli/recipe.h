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

#include "words.h"

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

/* lb_recipe_names - the recipes in @dir, ", "-separated, into @buf; returns @buf. */
char *lb_recipe_names(const char *dir, char *buf, size_t len);

/* lb_recipe_release - free what lb_recipe_load() put in @r. */
void lb_recipe_release(struct lb_recipe *r);

#endif
