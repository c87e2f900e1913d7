// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The systemtap tracer: the probe set as a SystemTap script (stap_script.c),
 * its module loaded by staprun for each armed run, counts read from the
 * module's procfs file at every snapshot.
 *
 * The module: LOADBENCH_STAP_MODULES=DIR names a directory of modules built
 * beforehand (scripts/loadbench-vm builds the catalog's on the host for the
 * VM's kernel: `loadbench stap-build'); DIR/NAME.ko must be root's alone.
 * Without it, the first arm builds the module with stap -p4 for the running
 * kernel, in a directory of its own made then ($TMPDIR/loadbench_<pid>_stap.XXXXXX,
 * removed at destroy), which takes a minute or more (not at create:
 * `loadbench list' creates every set to say whether it runs).
 *
 * arm starts `staprun -R MODULE' (a child that PR_SET_PDEATHSIG ends when
 * loadbench dies: staprun then unloads the module): -R loads it as
 * NAME_<staprun's pid>, and its first line of output says that name once
 * the probes are registered. disarm sends SIGTERM (staprun unloads the
 * module and exits), SIGKILL after 30 s and then delete_module(2) itself.
 * cleanup removes a loadbench_stap_* module whose staprun is gone, and a
 * dead run's directory loadbench_<pid>_stap.XXXXXX (tmpdirs.h). staprun
 * runs in a mount namespace of its own (the debugfs it mounts goes with it),
 * and it sets debug.kprobes-optimization to 0: arm holds that setting at 0
 * (kprobe_opt.h) and disarm lets go, which gives the value back.
 *
 * Events = the handler's hits + SystemTap's skipped probes (events whose
 * handler did not run: reentrancy, a busy lock); lost = the skipped ones.
 *
 * No switching (--method alternate measures with runs when a systemtap set
 * is named): the script's probes have a condition (the module's `on' file)
 * but SystemTap 4.8 arms and disarms on the fly only kprobes, timers and
 * uprobes; a tracepoint probe whose condition is false stays registered and
 * its handler returns at once (the generated C only flips cond_enabled),
 * which is paused, not off.
 *
 * scope workload: the handler counts a task whose thread-group id is in a
 * map that attach fills (the module's `pids' file) and a fork tracepoint
 * probe extends to the children of those processes, as ftrace's event-fork.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kallsyms.h"
#include "kprobe_opt.h"
#include "leftover.h"
#include "owner.h"
#include "safefs.h"
#include "stap_script.h"
#include "tmpdirs.h"
#include "tracefs_util.h"
#include "tracer.h"
#include "unavailable.h"
#include "util.h"

#define LB_STAP_READY_TIMEOUT_S	120	/* module load and probe registration; TCG is slow */
#define LB_STAP_EXIT_TIMEOUT_S	30	/* staprun unloading the module after SIGTERM */

struct stap {
	const struct lb_probeset *ps;
	char *script;
	char name[64];			/* the module as built: loadbench_stap_<hash> */
	char ko[PATH_MAX];		/* its file */
	char dir[PATH_MAX - 128];	/* our directory (module built here, staprun's log); or "" */
	char log[PATH_MAX];		/* staprun's output, in dir */
	char staprun[PATH_MAX];		/* the program */
	pid_t child;			/* staprun, while armed; 0 */
	char loaded[64];		/* the module as loaded: NAME_<staprun's pid> */
	bool pid_scope;
	bool build;			/* the module is still to be built (stap -p4, at arm) */
	int runs;			/* arms so far: one log file each */
	bool opt_held;			/* kprobes-optimization held at 0 while staprun runs */
};

static int stap_available(char *why, size_t len)
{
	char path[PATH_MAX];
	struct utsname u;

	if (access("/proc/modules", F_OK)) {
		lb_unavailable_say(LB_UNAVAIL_MODULES, why, len, "kernel without module support "
				   "(CONFIG_MODULES unset): SystemTap's modules cannot load here; "
				   "use scripts/loadbench-vm");
		return -ENODEV;
	}
	if (geteuid() != 0) {
		lb_unavailable_say(LB_UNAVAIL_ROOT, why, len, "needs root: staprun loads a kernel "
				   "module (run loadbench with sudo)");
		return -EPERM;
	}
	if (!lb_stap_find_program("staprun", path, sizeof(path))) {
		lb_unavailable_say(LB_UNAVAIL_STAPRUN, why, len, "staprun not found: SystemTap's "
				   "runtime loads the probe set's module (apt-get install "
				   "systemtap-runtime)");
		return -ENOENT;
	}
	if (getenv(LB_STAP_MODULES_ENV))
		return 0;
	if (!lb_stap_find_program("stap", path, sizeof(path))) {
		lb_unavailable_say(LB_UNAVAIL_STAP, why, len, "stap not found: SystemTap's translator "
				   "builds the probe set's module (apt-get install systemtap), or "
				   "set %s to a directory of modules built for this kernel "
				   "(loadbench stap-build)", LB_STAP_MODULES_ENV);
		return -ENOENT;
	}
	uname(&u);
	snprintf(path, sizeof(path), "/lib/modules/%s/build/Makefile", u.release);
	if (access(path, F_OK)) {
		lb_unavailable_say(LB_UNAVAIL_KBUILD, why, len, "no build tree for this kernel "
				   "(/lib/modules/%s/build): stap compiles against it (apt-get "
				   "install linux-headers-%s)", u.release, u.release);
		return -ENOENT;
	}
	return 0;
}

/* Every kprobe's symbol in /proc/kallsyms: staprun would only warn about a missing one. */
static int check_probes(const struct lb_probeset *ps, char *err, size_t len)
{
	struct lb_tracefs_event *evs = NULL;
	struct lb_kallsyms *ks = NULL;
	char where[PATH_MAX + 16];
	size_t nevs = 0;
	int ret;

	ret = lb_tracefs_tracepoints_resolve(ps, ps->tracer, &evs, &nevs, err, len);
	lb_tracefs_events_free(evs, nevs);
	for (size_t i = 0; i < ps->nprobes && !ret; i++) {
		const struct lb_probe *p = &ps->probes[i];

		if (p->kind != LB_PROBE_KPROBE && p->kind != LB_PROBE_KRETPROBE)
			continue;
		snprintf(where, sizeof(where), "%s:%d", ps->path, p->line);
		ret = lb_kallsyms_check_probe(&ks, where, p->kind == LB_PROBE_KPROBE ?
					      "a SystemTap kprobe" : "a SystemTap kretprobe",
					      p->event, p->offset, err, len);
	}
	lb_kallsyms_free(ks);
	return ret;
}

/* Our directory, $TMPDIR/loadbench_<pid>_stap.XXXXXX (mode 0700). Returns 0 or -errno. */
static int make_dir(struct stap *s, char *err, size_t len)
{
	const char *tmp = getenv("TMPDIR");
	char owner[64];

	lb_owner_name(owner, sizeof(owner), 0, 0);
	if ((size_t)snprintf(s->dir, sizeof(s->dir), "%s/%s_stap.XXXXXX",
			     tmp && tmp[0] == '/' ? tmp : "/tmp", owner) >= sizeof(s->dir)) {
		snprintf(err, len, "$TMPDIR is too long for SystemTap's files: set TMPDIR to a "
			 "shorter directory");
		s->dir[0] = '\0';
		return -ENAMETOOLONG;
	}
	if (!mkdtemp(s->dir)) {
		int ret = -errno;

		snprintf(err, len, "cannot create a directory for SystemTap's files (%s): %s",
			 s->dir, strerror(errno));
		s->dir[0] = '\0';
		return ret;
	}
	return 0;
}

static void stap_free(struct stap *s)
{
	if (!s)
		return;
	if (s->dir[0])
		lb_rmtree_at(AT_FDCWD, s->dir);
	free(s->script);
	free(s);
}

static int stap_create(const struct lb_probeset *ps, const struct lb_tracer_opts *opts,
		       void **priv, char *err, size_t len)
{
	const char *mods = getenv(LB_STAP_MODULES_ENV);
	struct stap *s;
	int ret;

	(void)opts;	/* no buffer: the handlers count, nothing is recorded */
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->ps = ps;
	s->pid_scope = ps->scope == LB_SCOPE_WORKLOAD;
	lb_stap_find_program("staprun", s->staprun, sizeof(s->staprun));
	ret = lb_stap_script(ps, &s->script, err, len);
	if (ret)
		goto err;
	lb_stap_module_name(s->script, s->name, sizeof(s->name));
	ret = check_probes(ps, err, len);
	if (ret)
		goto err;
	if (mods) {
		snprintf(s->ko, sizeof(s->ko), "%s/%s.ko", mods, s->name);
		if (access(s->ko, F_OK)) {
			char why[PATH_MAX], *text = NULL, *brief;
			enum lb_unavailable code;
			size_t n = 0;

			/*
			 * stap-build says there why it could not build it: the
			 * message, then the brief of its code (unavailable.h).
			 */
			snprintf(why, sizeof(why), "%s/%s.why", mods, s->name);
			if (!lb_read_file(why, 2048, &text, &n) && n) {
				brief = text + strcspn(text, "\n");
				if (*brief)
					*brief++ = '\0';
				brief[strcspn(brief, "\n")] = '\0';
				code = lb_unavailable_find(brief);
				if (code == LB_UNAVAIL_OTHER)
					code = LB_UNAVAIL_STAP_MODULE;
				lb_unavailable_say(code, err, len,
						   "probe set %s cannot run here: its SystemTap "
						   "module was not built: %s", ps->name, text);
			} else {
				snprintf(err, len, "probe set %s: no module %s.ko in %s=%s (its "
					 "script changed, or it is not a catalog set: build it with "
					 "loadbench stap-build)", ps->name, s->name,
					 LB_STAP_MODULES_ENV, mods);
			}
			free(text);
			ret = -ENOENT;
			goto err;
		}
		ret = lb_stap_module_check(s->ko, err, len);
		if (ret)
			goto err;
	} else {
		/* Built at the first arm: `loadbench list' creates every set. */
		s->build = true;
	}
	*priv = s;
	return 0;
err:
	stap_free(s);
	return ret;
}

/* The child: output to the log, ended with loadbench, staprun -R MODULE. */
static void __attribute__((noreturn)) staprun_child(const struct stap *s, pid_t parent)
{
	if (lb_stap_child_stdio(s->log, 0600) < 0)
		_exit(126);
	/* SIGTERM: staprun stops the script and unloads the module. */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() != parent)
		_exit(125);
	/*
	 * staprun mounts debugfs when it is not mounted and leaves it: in a mount
	 * namespace of its own, that mount goes with it. The module's procfs files
	 * are the kernel's, seen from every namespace.
	 */
	if (unshare(CLONE_NEWNS) < 0 || mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		_exit(124);
	execl(s->staprun, "staprun", "-R", s->ko, (char *)NULL);
	fprintf(stderr, "loadbench: cannot run %s: %s\n", s->staprun, strerror(errno));
	_exit(127);
}

/* The last non-empty line of staprun's log into @buf (for messages). */
static const char *log_tail(const struct stap *s, char *buf, size_t len)
{
	char *text = NULL, *end, *line;
	size_t n = 0;

	snprintf(buf, len, "(no output)");
	if (lb_read_file(s->log, 1 << 20, &text, &n) || !n) {
		free(text);
		return buf;
	}
	end = text + n;
	while (end > text && isspace((unsigned char)end[-1]))
		end--;
	*end = '\0';
	line = strrchr(text, '\n');
	snprintf(buf, len, "%s", line ? line + 1 : text);
	free(text);
	return buf;
}

/* Reads the ready line from the log: the loaded module's name into s->loaded. */
static bool ready_line(struct stap *s)
{
	char *text = NULL, *p;
	size_t n = 0;
	bool found = false;

	if (lb_read_file(s->log, 1 << 20, &text, &n) || !n) {
		free(text);
		return false;
	}
	p = strstr(text, LB_STAP_READY " ");
	if (p) {
		p += strlen(LB_STAP_READY " ");
		size_t w = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_");

		if (w && w < sizeof(s->loaded) && p[w] == '\n') {
			snprintf(s->loaded, sizeof(s->loaded), "%.*s", (int)w, p);
			found = true;
		}
	}
	free(text);
	return found;
}

/* Whether the loaded module's counts file exists yet. */
static bool counts_there(const struct stap *s)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s/counts", LB_STAP_PROCFS, s->loaded);
	return !access(path, R_OK);
}

/* Writes @text into the loaded module's procfs file @file. Returns 0 or -errno. */
static int proc_write(const struct stap *s, const char *file, const char *text)
{
	char path[PATH_MAX];
	ssize_t w;
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s/%s", LB_STAP_PROCFS, s->loaded, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	w = write(fd, text, strlen(text));
	if (w < 0)
		ret = -errno;
	else if ((size_t)w != strlen(text))
		ret = -EIO;
	close(fd);
	return ret;
}

/* Removes the module @name (a dead staprun's): delete_module(2). Returns 0 or -errno. */
static int module_delete(const char *name)
{
	if (syscall(SYS_delete_module, name, O_NONBLOCK) < 0)
		return errno == ENOENT ? 0 : -errno;
	return 0;
}

/* Lets go of the kprobes-optimization hold arm took. Returns 0 or -errno (said). */
static int release_opt(struct stap *s)
{
	char err[512];
	int ret;

	if (!s->opt_held)
		return 0;
	s->opt_held = false;
	ret = lb_kprobe_opt_release(err, sizeof(err));
	if (ret)
		lb_warn("%s", err);
	return ret;
}

static int stap_disarm(void *priv)
{
	struct stap *s = priv;
	char tail[512];
	int status = 0, ret = 0, e;
	pid_t w = 0;

	if (s->child) {
		kill(s->child, SIGTERM);
		for (int i = 0; i < LB_STAP_EXIT_TIMEOUT_S * 10; i++) {
			w = waitpid(s->child, &status, WNOHANG);
			if (w == s->child || (w < 0 && errno != EINTR))
				break;
			usleep(100 * 1000);
		}
		if (w != s->child) {
			kill(s->child, SIGKILL);
			waitpid(s->child, &status, 0);
			ret = -ETIMEDOUT;
		}
		s->child = 0;
	}
	/* Also when staprun ended on its own during the run: its module must be gone. */
	if (s->loaded[0]) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "/sys/module/%s", s->loaded);
		if (!access(path, F_OK)) {
			e = module_delete(s->loaded);
			if (e) {
				lb_warn("SystemTap module %s is still loaded and cannot be removed "
					"(%s): remove it with staprun -d %s", s->loaded, strerror(-e),
					s->loaded);
				ret = e;
			}
		}
	}
	if (!ret && WIFEXITED(status) && WEXITSTATUS(status) && s->loaded[0])
		lb_warn("staprun for probe set %s exited with status %d: %s", s->ps->name,
			WEXITSTATUS(status), log_tail(s, tail, sizeof(tail)));
	s->loaded[0] = '\0';
	e = release_opt(s);
	return ret ? ret : e;
}

static int stap_arm(void *priv, char *err, size_t len)
{
	struct stap *s = priv;
	char tail[512];
	pid_t parent = getpid();
	int status, ret, before;

	s->loaded[0] = '\0';
	/*
	 * Our directory, made at the first arm, not at create: a run creates its
	 * tracers before it claims its pid, and finding a directory that bears
	 * that pid then makes it refuse to start (a dead run's, it must assume).
	 */
	if (!s->dir[0]) {
		ret = make_dir(s, err, len);
		if (ret)
			return ret;
	}
	if (s->build) {
		snprintf(s->ko, sizeof(s->ko), "%s/%s.ko", s->dir, s->name);
		ret = lb_stap_build(s->script, s->name, NULL, s->dir, err, len);
		if (ret)
			return ret;
		s->build = false;
	}
	/*
	 * staprun writes 0 to debug.kprobes-optimization and leaves it: held at 0
	 * here, the shared hold gives the value back after (kprobe_opt.h).
	 */
	ret = lb_kprobe_opt_hold(0, &before, err, len);
	if (ret)
		return ret;
	s->opt_held = true;
	snprintf(s->log, sizeof(s->log), "%s/staprun-%d.log", s->dir, ++s->runs);
	s->child = fork();
	if (s->child < 0) {
		ret = -errno;
		s->child = 0;
		snprintf(err, len, "cannot fork staprun: %s", strerror(-ret));
		stap_disarm(s);
		return ret;
	}
	if (!s->child)
		staprun_child(s, parent);
	for (int i = 0; i < LB_STAP_READY_TIMEOUT_S * 20; i++) {
		/*
		 * The begin probe runs first, before the module registers its
		 * tracepoints and kprobes and, last, creates its procfs files
		 * (systemtap_module_init, stap 4.8): ready when the counts file is
		 * there. Reading it earlier failed once under TCG.
		 */
		if ((s->loaded[0] || ready_line(s)) && counts_there(s))
			return 0;
		if (waitpid(s->child, &status, WNOHANG) == s->child) {
			s->child = 0;
			snprintf(err, len, "staprun could not load probe set %s's module %s: %s",
				 s->ps->name, s->name, log_tail(s, tail, sizeof(tail)));
			stap_disarm(s);
			return -EIO;
		}
		usleep(50 * 1000);
	}
	snprintf(err, len, "staprun did not start probe set %s's module within %d s: %s",
		 s->ps->name, LB_STAP_READY_TIMEOUT_S, log_tail(s, tail, sizeof(tail)));
	stap_disarm(s);
	return -ETIMEDOUT;
}

static int stap_attach(void *priv, const pid_t *pids, int n, char *err, size_t len)
{
	struct stap *s = priv;
	char text[32];

	if (!s->pid_scope)
		return 0;
	for (int i = 0; i < n; i++) {
		int ret;

		snprintf(text, sizeof(text), "%d\n", (int)pids[i]);
		ret = proc_write(s, "pids", text);
		if (ret) {
			snprintf(err, len, "cannot give SystemTap module %s the workload's pid %d "
				 "(%s/%s/pids): %s", s->loaded, (int)pids[i], LB_STAP_PROCFS,
				 s->loaded, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

static int stap_snapshot(void *priv, struct lb_tracer_counts *c)
{
	struct stap *s = priv;
	unsigned long long hits, skipped;
	char path[PATH_MAX], *text = NULL;
	size_t n = 0;
	int ret;

	snprintf(path, sizeof(path), "%s/%s/counts", LB_STAP_PROCFS, s->loaded);
	ret = lb_read_file(path, 4096, &text, &n);
	if (ret) {
		char tail[512];
		int status;

		/* The script ended on its own (an error, SystemTap's limits): say why. */
		if (s->child && waitpid(s->child, &status, WNOHANG) == s->child) {
			s->child = 0;
			lb_warn("staprun for probe set %s ended during the run: %s", s->ps->name,
				log_tail(s, tail, sizeof(tail)));
			return -EPIPE;
		}
		return ret;
	}
	if (sscanf(text, "%llu %llu", &hits, &skipped) != 2) {
		free(text);
		return -EIO;
	}
	free(text);
	*c = (struct lb_tracer_counts){ .events = hits + skipped, .lost = skipped };
	return 0;
}

static int stap_cpu_clocks(void *priv, clockid_t *clk, int max)
{
	struct stap *s = priv;

	if (!s->child || max < 1)
		return 0;
	/* staprun execs stapio: one process, its reader threads included. */
	return clock_getcpuclockid(s->child, &clk[0]) ? 0 : 1;
}

static void stap_destroy(void *priv)
{
	struct stap *s = priv;

	if (!s)
		return;
	stap_disarm(s);
	stap_free(s);
}

/* Whether process @pid runs staprun or stapio (the one that holds a module). */
static bool is_stapio(pid_t pid)
{
	char path[64], *comm = NULL;
	size_t n = 0;
	bool yes;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if (lb_read_file(path, 64, &comm, &n))
		return false;
	yes = !strncmp(comm, "stapio", 6) || !strncmp(comm, "staprun", 7);
	free(comm);
	return yes;
}

/*
 * Modules loadbench_stap_<hash>_<pid> whose staprun (pid) is gone: a run
 * killed with its staprun (SIGKILL of both). A module still in use (its
 * stapio alive in another pid namespace) cannot be removed: the kernel
 * refuses, and it is reported. Then the directories of dead runs that
 * built their module on the spot.
 */
static int stap_cleanup(struct lb_owners *o, bool remove, lb_cleanup_report_fn report, void *arg)
{
	char what[320];
	struct dirent *de;
	int found = 0;
	DIR *d;

	if (geteuid() != 0)
		return 0;
	d = opendir("/sys/module");
	if (!d)
		return lb_tmpdirs_cleanup(o, "_stap", "SystemTap directory", remove, report, arg);
	while ((de = readdir(d))) {
		const char *name = de->d_name, *us;
		char *end;
		long pid;

		if (strncmp(name, LB_STAP_MODULE_PREFIX, strlen(LB_STAP_MODULE_PREFIX)))
			continue;
		us = strrchr(name, '_');
		if (!us || us - name != (long)strlen(LB_STAP_MODULE_PREFIX) + 16)
			continue;
		pid = strtol(us + 1, &end, 10);
		if (*end || pid <= 0 || is_stapio((pid_t)pid))
			continue;
		snprintf(what, sizeof(what), "SystemTap module %s", name);
		found++;
		if (report)
			report(what, remove ? module_delete(name) : 0, arg);
	}
	closedir(d);
	return found + lb_tmpdirs_cleanup(o, "_stap", "SystemTap directory", remove, report, arg);
}

const struct lb_tracer_ops lb_tracer_stap = {
	.name = "systemtap",
	.available = stap_available,
	.create = stap_create,
	.arm = stap_arm,
	.attach = stap_attach,
	.snapshot = stap_snapshot,
	.cpu_clocks = stap_cpu_clocks,
	.disarm = stap_disarm,
	.destroy = stap_destroy,
	.cleanup = stap_cleanup,
};
