/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Workload recipes: a named command for --workload exec, one file each in
 * workloads/ (NAME.workload): "description", "command" (split on blanks;
 * no shell, no quoting), "metric" (optional, as --metric), "package" (the
 * Debian package that provides it, for the message when it is missing).
 */
#ifndef LB_RECIPE_H
#define LB_RECIPE_H

#include <stddef.h>

struct lb_recipe {
	char *name;
	char *description;
	char **argv;	/* the command, NULL-terminated */
	char *metric;	/* NULL = none */
	char *package;	/* NULL = none */
};

/*
 * lb_recipe_load - the recipe @name from @dir (DIR/NAME.workload) into @r.
 * Returns 0, -ENOENT when there is none (nothing said), or -EINVAL/-ENOMEM
 * with one line naming the file, the line and the fix in @err.
 */
int lb_recipe_load(const char *dir, const char *name, struct lb_recipe *r, char *err, size_t len);

/* lb_recipe_names - the recipes in @dir, ", "-separated, into @buf; returns @buf. */
char *lb_recipe_names(const char *dir, char *buf, size_t len);

/* lb_recipe_release - free what lb_recipe_load() put in @r. */
void lb_recipe_release(struct lb_recipe *r);

#endif
