/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's own word on how each kprobe went in: debugfs kprobes/list,
 * one line per registered kprobe,
 *
 *   ffffffff81a01990  k  __dev_queue_xmit+0x0    [FTRACE]
 *   ffffffff81a3c5a5  k  schedule+0x5    [DISABLED]
 *   ffffffff81a12340  r  consume_skb+0x0    [OPTIMIZED]
 *
 * ("k" a kprobe, "r" a kretprobe; a module's name may follow the symbol).
 * [FTRACE]: an ftrace callback at the fentry site; [OPTIMIZED]: a jump;
 * neither: a breakpoint. Read where debugfs is mounted; where it is not, in
 * a child with a mount namespace of its own, so the host's mounts never
 * change.
 */
#ifndef LB_KPROBE_LIST_H
#define LB_KPROBE_LIST_H

#include <stdbool.h>
#include <stddef.h>

enum lb_kprobe_seen {
	LB_SEEN_UNKNOWN = 0,	/* not read, or not in the list */
	LB_SEEN_BREAKPOINT,
	LB_SEEN_FTRACE,
	LB_SEEN_OPTIMIZED,
	LB_SEEN_DISABLED,	/* [DISABLED] or [GONE] */
};

/*
 * lb_kprobe_list_read - the text of kprobes/list into *@text (free it),
 * *@source "debugfs" or "debugfs, private mount". Returns 0, or -errno
 * with the reason in @err (no debugfs, no kprobes, not root).
 */
int lb_kprobe_list_read(char **text, const char **source, char *err, size_t len);

/*
 * lb_kprobe_list_find - what @text (a kprobes/list) says of the kprobe
 * (@ret: kretprobe) at @symbol+@offset. An entry kprobe (@offset 0) also
 * matches the same symbol at a small offset: the kernel moves one past an
 * endbr64 (IBT) to the fentry site. Returns LB_SEEN_UNKNOWN when not listed.
 */
enum lb_kprobe_seen lb_kprobe_list_find(const char *text, const char *symbol,
					unsigned long offset, bool ret);

/*
 * lb_kprobe_list_entries - what @text lists at @symbol, for a message when
 * a probe is not there: "k schedule+0x0 [FTRACE]; r schedule+0x0" into @buf.
 * Returns how many entries.
 */
size_t lb_kprobe_list_entries(const char *text, const char *symbol, char *buf, size_t len);

/* lb_kprobe_seen_name - "breakpoint", "ftrace", "optimized", "disabled" or "unknown". */
const char *lb_kprobe_seen_name(enum lb_kprobe_seen s);

#endif
