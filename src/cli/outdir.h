/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The results directory of a run: its default name, and the rules it must
 * pass before anything is measured (never silently overwritten, never a link
 * or another user's directory that others may write in).
 */
#ifndef LB_OUTDIR_H
#define LB_OUTDIR_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * lb_outdir_default - loadbench-@kind-DATE-TIME (local time; @kind "results"
 * for a run, "compare") in @buf. Returns @buf.
 */
const char *lb_outdir_default(const char *kind, char *buf, size_t len);

/*
 * lb_outdir_prepare - make @dir (@what: "results directory", "output
 * directory") ready for a command's files: refused when it
 * exists and is not empty without @force, when it cannot be created, or
 * when it is a link or another user's directory that others may write in.
 * *@made says whether it was created here (also when it is then refused),
 * so that a run that measures nothing can remove it again. Returns 0, or
 * -errno after saying why in one line (not said when @stop is set and *@stop
 * is: a signal cut the creation short).
 */
int lb_outdir_prepare(const char *dir, const char *what, bool force, bool *made,
		      volatile sig_atomic_t *stop);

#endif
