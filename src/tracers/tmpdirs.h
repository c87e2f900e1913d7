/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The directories a tracer makes in $TMPDIR with mkdtemp, named after the
 * run (OWNER SUFFIX.XXXXXX: the lttng tracer's trace directories
 * loadbench_<pid>.XXXXXX, the systemtap tracer's loadbench_<pid>_stap.XXXXXX),
 * found again after the run died: loadbench cleanup removes those that are
 * root's alone, as mkdtemp made them, and leaves any other alone.
 */
#ifndef LB_TMPDIRS_H
#define LB_TMPDIRS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "leftover.h"

/*
 * lb_tmpdir_owner - whether @base is such a directory's name, OWNER @suffix
 * ("" for none) then '.' and mkdtemp's 6 characters; its OWNER into @owner.
 */
bool lb_tmpdir_owner(const char *base, const char *suffix, char *owner, size_t len);

/*
 * lb_tmpdir_remove - the dead run @pid's directory @base in @dirfd (@where
 * names @dirfd, @kind the directory: "LTTng trace directory"): removed when
 * @remove and it is root's alone, as mkdtemp made it, and reported. Returns
 * false when it is not: another directory is reported as another's
 * ("directory PATH", not as a @kind), anything else (a file) not at all.
 */
bool lb_tmpdir_remove(struct lb_owners *o, pid_t pid, int dirfd, const char *base,
		      const char *where, const char *kind, bool remove,
		      lb_cleanup_report_fn report, void *arg);

/*
 * lb_tmpdirs_cleanup - every directory OWNER @suffix.XXXXXX in $TMPDIR (/tmp
 * when unset or relative) whose OWNER is a dead run's in @o, through
 * lb_tmpdir_remove(). A name no lock proves dead is reported as left alone
 * only on a directory as mkdtemp makes them for root; what else bears such
 * a name is not loadbench's. Returns how many of them were loadbench's.
 */
int lb_tmpdirs_cleanup(struct lb_owners *o, const char *suffix, const char *kind, bool remove,
		       lb_cleanup_report_fn report, void *arg);

#endif
