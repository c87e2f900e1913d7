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

/*
 * lb_kallsyms_size - the bytes from function @name to the next function
 * symbol of @ks, its size as far as kallsyms can tell, into *@size. Returns
 * 0, -ENOENT for an unknown name, or -ENODATA when the addresses are hidden
 * (not root) or it is the last one.
 */
int lb_kallsyms_size(const struct lb_kallsyms *ks, const char *name, unsigned long *size);

/*
 * lb_kallsyms_check_probe - whether a kprobe can go on @symbol+@offset:
 * the function exists (with the names it may be meant as, when not), and
 * the offset falls inside it when the addresses are readable (whether it is
 * an instruction boundary only the kernel can tell). Loads *@ks on first
 * use. @where starts the message ("FILE:LINE"), @what (may be NULL) follows
 * the symbol ("an LTTng kprobe"). Returns 0, or -errno with the message in @err.
 */
int lb_kallsyms_check_probe(struct lb_kallsyms **ks, const char *where, const char *what,
			    const char *symbol, unsigned long offset, char *err, size_t len);

/*
 * lb_kprobe_refusal - what to say after "cannot create kprobe SYMBOL: ERR"
 * when the kernel refused a kprobe at @offset with @err (-errno): an
 * offset off an instruction boundary, or a function it will not probe.
 * Returns a static string starting with " (".
 */
const char *lb_kprobe_refusal(int err, unsigned long offset);

/* lb_kallsyms_count - how many function symbols @ks holds. */
size_t lb_kallsyms_count(const struct lb_kallsyms *ks);

/* lb_kallsyms_free - free @ks; NULL is fine. */
void lb_kallsyms_free(struct lb_kallsyms *ks);

#endif
