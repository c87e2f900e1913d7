/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's function symbols from /proc/kallsyms (or a file in its
 * format), to check a kprobe's symbol before anything is created and to name
 * what the kernel calls it instead (NAME.constprop.0, NAME.isra.0, __NAME).
 */
#ifndef LB_KALLSYMS_H
#define LB_KALLSYMS_H

#include <stdbool.h>
#include <stddef.h>

#define LB_KALLSYMS_PATH "/proc/kallsyms"

struct lb_kallsyms;

/*
 * lb_kallsyms_load - read the text (function) symbols of @path, a file in
 * /proc/kallsyms's "ADDRESS TYPE NAME [MODULE]" format (NULL: /proc/kallsyms).
 * Returns 0 and sets *@out, or -errno.
 */
int lb_kallsyms_load(const char *path, struct lb_kallsyms **out);

/* lb_kallsyms_has - whether @ks has a function named exactly @name. */
bool lb_kallsyms_has(const struct lb_kallsyms *ks, const char *name);

/*
 * lb_kallsyms_near - the functions of @ks that @name is probably meant to be
 * (compiler clones NAME.constprop.0, NAME.isra.0, NAME.cold; __NAME, _NAME;
 * NAME without its clone suffix or leading underscores), ", "-joined into
 * @buf (empty when none). Returns how many were written.
 */
int lb_kallsyms_near(const struct lb_kallsyms *ks, const char *name, char *buf, size_t len);

/* lb_kallsyms_count - how many function symbols @ks holds. */
size_t lb_kallsyms_count(const struct lb_kallsyms *ks);

/* lb_kallsyms_free - free @ks; NULL is fine. */
void lb_kallsyms_free(struct lb_kallsyms *ks);

#endif
