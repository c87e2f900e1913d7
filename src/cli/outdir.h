/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The results directory of a run (or a compare's output directory): its
 * default name, the rules it must pass before anything is measured (never
 * silently overwritten; on a file system that holds files; writable, tried
 * with a probe file; never a link, another user's directory that others may
 * write in, or for root a path someone else can change), and the descriptor
 * every file then goes through. A directory made here and left empty goes
 * again.
 */
#ifndef LB_OUTDIR_H
#define LB_OUTDIR_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

struct lb_outdir;

/*
 * lb_outdir_default - loadbench-@kind-DATE-TIME (local time; @kind "results"
 * for a run, "compare") in @buf. Returns @buf.
 */
const char *lb_outdir_default(const char *kind, char *buf, size_t len);

/*
 * lb_outdir_open - make @dir (@what: "results directory", "output
 * directory") ready for a command's files and open it (*@out): refused when
 * it is on a file system of kernel objects (checked before anything is
 * made there), exists and is not empty without @force, cannot be created,
 * cannot be written (a probe file), or is not safe to write in
 * (lb_wdir_open()). A directory made here and then refused is removed
 * again. Returns 0, or -errno after saying why in one line (not said when
 * @stop is set and *@stop is: a signal cut the creation short).
 */
int lb_outdir_open(const char *dir, const char *what, bool force, volatile sig_atomic_t *stop,
		   struct lb_outdir **out);

/*
 * lb_outdir_fallback - a fresh directory for results that could not be
 * written where asked: /var/tmp/loadbench-results-DATE-TIME.XXXXXX (or in
 * /tmp), made here, mode 0755. Returns 0 and sets *@out, or -errno (said).
 */
int lb_outdir_fallback(struct lb_outdir **out);

/*
 * lb_outdir_moved - whether @od's path no longer names the directory opened
 * (moved, removed or replaced since): the files went into that directory,
 * wherever it is now. Returns true when so.
 */
bool lb_outdir_moved(const struct lb_outdir *od);

/* lb_outdir_fd - the directory's descriptor, for openat() and renameat(). */
int lb_outdir_fd(const struct lb_outdir *od);

/* lb_outdir_path - the directory as given, for messages and {output}. */
const char *lb_outdir_path(const struct lb_outdir *od);

/*
 * lb_outdir_close - close @od (NULL is fine). With @remove, a directory made
 * by lb_outdir_open() is removed again after the files @files in it
 * (NULL-terminated, may be NULL), if its name still names it and nothing
 * else is in it. Returns 0, 1 when a directory to remove was kept (not
 * empty, or moved), or -errno.
 */
int lb_outdir_close(struct lb_outdir *od, bool remove, const char *const *files);

#endif
