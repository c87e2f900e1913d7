/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SystemTap scripts and modules for probe sets of tracer systemtap.
 *
 * A probe set becomes a script from one fixed template: its probes (kernel
 * tracepoints, kprobes and kretprobes, every syscall through the
 * raw_syscalls tracepoints) share one handler that adds 1 to a statistics
 * aggregate (per CPU). Nothing in a script comes from user text but names
 * checked to be [A-Za-z0-9_] words (and '.' in kernel symbols).
 * A script's module is named after the hash of its text and build options,
 * "loadbench_stap_<16 hex digits>", so that a module built once (on the host,
 * for the VM's kernel) is found again by the same name; staprun -R loads it
 * as NAME_<staprun's pid>.
 *
 * The module's procfs files, /proc/systemtap/MODULE/:
 *   counts  read: "HITS SKIPPED\n", both cumulative since load (SKIPPED:
 *           SystemTap's skipped probes, events the handler did not run for)
 *   pids    write a pid (scope workload): that process and the processes it
 *           forks from then on are counted
 * and its first output line is "loadbench-stap-ready MODULE".
 */
#ifndef LB_STAP_SCRIPT_H
#define LB_STAP_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "probeset.h"

#define LB_STAP_READY		"loadbench-stap-ready"
#define LB_STAP_MODULE_PREFIX	"loadbench_stap_"
#define LB_STAP_PROCFS		"/proc/systemtap"
#define LB_STAP_MODULES_ENV	"LOADBENCH_STAP_MODULES"

/*
 * lb_stap_script - the SystemTap script of probe set @ps. Returns 0 and a
 * malloc'd text in *@out, or -errno with "PATH:LINE: problem" in @err
 * (-EOPNOTSUPP for a probe SystemTap cannot place without debuginfo).
 */
int lb_stap_script(const struct lb_probeset *ps, char **out, char *err, size_t len);

/*
 * lb_stap_module_name - the module name of @script built with
 * lb_stap_build(): LB_STAP_MODULE_PREFIX and 16 hex digits of a hash of the
 * script and the build options, into @buf (32 bytes are enough). Returns @buf.
 */
const char *lb_stap_module_name(const char *script, char *buf, size_t len);

/* How lb_stap_build() runs stap; every field may be NULL. */
struct lb_stap_build_opts {
	const char *kbuild;		/* stap -r: a kernel build tree; NULL: the running kernel's */
	const char *runtime;		/* stap -R: SystemTap's runtime sources, e.g. a patched copy */
	const char *const *defines;	/* NAME=VALUE, each a stap -D; NULL-terminated */
};

/*
 * lb_stap_build - compile @script into DIR/@name.ko with stap -p4 (guru
 * mode: the skipped-probe count is read from C; no overload limit: a busy
 * workload must not have the script stopped), as @o says (NULL: for the
 * running kernel). @o's runtime and defines are fixes for a kernel the stap
 * version does not know, not part of the module's name. stap's output goes
 * to DIR/@name.log, its cache to DIR/.systemtap. Takes up to 10 minutes.
 * Returns 0, or -errno with the reason (and the log to read) in @err.
 */
int lb_stap_build(const char *script, const char *name, const struct lb_stap_build_opts *o,
		  const char *dir, char *err, size_t len);

/*
 * lb_stap_module_check - whether @path is a module loadbench may load: a
 * regular file of root's that no one else may write, in a directory of
 * root's that no one else may write. Returns 0, or -errno with the reason
 * in @err.
 */
int lb_stap_module_check(const char *path, char *err, size_t len);

/*
 * lb_stap_child_stdio - in a child about to exec stap or staprun: stdout and
 * stderr to the new file @log (made with @mode; not through a link), stdin
 * from /dev/null. Returns 0, or -1 when @log cannot be made.
 */
int lb_stap_child_stdio(const char *log, mode_t mode);

/*
 * lb_stap_find_program - @prog's path in $PATH (and /usr/sbin, /sbin) into
 * @buf. Returns true when found and executable.
 */
bool lb_stap_find_program(const char *prog, char *buf, size_t len);

#endif
