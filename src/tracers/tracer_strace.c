// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The strace tracer: ptrace(2) syscall tracing of the workload's processes,
 * what `strace -f -p PID' does, without printing. It is the heaviest
 * per-process mechanism: every syscall entry and exit stops the traced
 * thread, wakes the tracer, and waits for it to resume the thread.
 *
 * attach forks a helper process (a sibling of the workload, so that the
 * workload's exit statuses stay with loadbench, their real parent), which
 * PTRACE_SEIZEs every thread of every workload process (following clones and
 * forks, like strace -f), resumes each with PTRACE_SYSCALL, and counts the
 * syscall stops in a shared counter. Events = syscall-entry + syscall-exit
 * stops, counted exactly; nothing is lost or overwritten. disarm tells the
 * helper to PTRACE_INTERRUPT and PTRACE_DETACH every thread (the workload
 * keeps running untraced) and reaps it; if it does not finish in time it is
 * killed, and the kernel detaches its tracees. A helper whose loadbench dies
 * is killed too (PR_SET_PDEATHSIG).
 *
 * --method alternate: disable is disarm's detach (the helper goes, the shared
 * counter stays), enable forks a new helper on the processes attach was given.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tracer.h"
#include "unavailable.h"
#include "util.h"

#define YAMA_SCOPE_PATH "/proc/sys/kernel/yama/ptrace_scope"
#define STRACE_MAX_TASKS 256		/* threads the helper traces at most */
#define STRACE_READY_MS 5000		/* attach waits this long for the helper */
#define STRACE_DETACH_MS 3000		/* disarm waits this long before killing it */
#define STRACE_BUSY_MS 1000		/* a thread another tracer holds is tried this long */

/* Shared with the helper (MAP_SHARED): what snapshot reads. */
struct strace_shared {
	_Atomic uint64_t stops;		/* syscall-entry and -exit stops */
	/*
	 * For the error when the helper is late: what it was doing, the stop
	 * signals it took, the threads it still waited for and one of them.
	 */
	_Atomic int phase;		/* enum helper_phase */
	_Atomic int signals;
	_Atomic int waiting;
	_Atomic int waiting_tid;
};

enum helper_phase {
	PHASE_START,		/* not yet seizing */
	PHASE_SEIZE,		/* seizing the threads */
	PHASE_TRACE,		/* tracing: waiting for stops */
	PHASE_INTERRUPT,	/* asking every tracee for a stop */
	PHASE_DETACH_STOPPED,	/* detaching the tracees already stopped */
	PHASE_DETACH_WAIT,	/* waiting for the others' stops */
	PHASE_EXIT,		/* every tracee detached: exiting */
};

static const char *const helper_phase_name[] = {
	"starting", "seizing the threads", "tracing", "interrupting the tracees",
	"detaching the stopped tracees", "waiting for the tracees' stops", "exiting",
};

/* The helper's first message on the pipe: 0 = every thread is traced. */
struct strace_ready {
	int ret;			/* 0 or -errno */
	char msg[240];
};

struct strace {
	struct strace_shared *sh;
	pid_t helper;			/* 0 = none */
	pid_t *pids;			/* the workload's processes from attach, for enable */
	int npids;
};

/* The Yama ptrace_scope (0 classic .. 3 no attach), -1 without Yama. */
static int yama_scope(void)
{
	char *text = NULL;
	int scope;

	if (lb_read_file(YAMA_SCOPE_PATH, 64, &text, NULL))
		return -1;
	scope = atoi(text);
	free(text);
	return scope;
}

/* Whether PTRACE_SEIZE works here at all (seccomp, containers): try it on a child. */
static int try_seize(char *why, size_t len)
{
	pid_t child;
	int ret = 0;

	child = fork();
	if (child < 0) {
		ret = -errno;
		snprintf(why, len, "cannot fork to test ptrace: %s", strerror(-ret));
		return ret;
	}
	if (!child) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			pause();
	}
	if (ptrace(PTRACE_SEIZE, child, NULL, NULL) < 0) {
		ret = -errno;
		lb_unavailable_say(LB_UNAVAIL_PTRACE, why, len, "ptrace(PTRACE_SEIZE) fails here "
				   "(%s): blocked by seccomp, a container or an LSM",
				   strerror(-ret));
	}
	kill(child, SIGKILL);
	while (waitpid(child, NULL, __WALL) < 0 && errno == EINTR)
		;
	return ret;
}

static int strace_available(char *why, size_t len)
{
	int scope = yama_scope();

	if (scope >= 3) {
		lb_unavailable_say(LB_UNAVAIL_PTRACE, why, len, "ptrace attach is disabled "
				   "(kernel.yama.ptrace_scope = 3, which only a reboot undoes)");
		return -EPERM;
	}
	if (geteuid() != 0 && scope >= 1) {
		lb_unavailable_say(LB_UNAVAIL_ROOT, why, len, "needs root: kernel.yama.ptrace_scope "
				   "= %d lets others trace only their descendants (run loadbench "
				   "with sudo)", scope);
		return -EPERM;
	}
	return try_seize(why, len);
}

static void strace_destroy(void *priv)
{
	struct strace *s = priv;

	if (!s)
		return;
	if (s->sh)
		munmap(s->sh, sizeof(*s->sh));
	free(s->pids);
	free(s);
}

static int strace_create(const struct lb_probeset *ps, const struct lb_tracer_opts *opts,
			 void **priv, char *err, size_t len)
{
	struct strace *s;

	(void)opts;	/* no buffer: every stop is counted as it happens */
	for (size_t i = 0; i < ps->nprobes; i++) {
		const struct lb_probe *p = &ps->probes[i];

		if (p->kind != LB_PROBE_SYSCALL || strcmp(p->event, "all")) {
			snprintf(err, len, "%s:%d: the strace tracer stops at every syscall of the "
				 "workload: expected only 'syscall all'", ps->path, p->line);
			return -EOPNOTSUPP;
		}
	}
	if (ps->scope != LB_SCOPE_WORKLOAD) {
		snprintf(err, len, "%s:%d: the strace tracer traces the workload's processes, not "
			 "the system: add 'scope workload'", ps->path, ps->tracer_line);
		return -EOPNOTSUPP;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->sh = mmap(NULL, sizeof(*s->sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		     -1, 0);
	if (s->sh == MAP_FAILED) {
		s->sh = NULL;
		strace_destroy(s);
		return -ENOMEM;
	}
	*priv = s;
	return 0;
}

static int strace_arm(void *priv, char *err, size_t len)
{
	struct strace *s = priv;

	(void)err;
	(void)len;
	atomic_store(&s->sh->stops, 0);
	return 0;
}

/* ---- the helper process ---------------------------------------------------------------- */

static volatile sig_atomic_t helper_stop;
static struct strace_shared *helper_sh;	/* the helper's: its signal handler counts there */

static void helper_on_signal(int sig)
{
	(void)sig;
	helper_stop = 1;
	if (helper_sh)
		atomic_fetch_add_explicit(&helper_sh->signals, 1, memory_order_relaxed);
}

static void helper_phase(struct strace_shared *sh, enum helper_phase p)
{
	atomic_store_explicit(&sh->phase, p, memory_order_relaxed);
}

struct task {
	pid_t tid;
	bool started;		/* its first stop was seen and it runs under PTRACE_SYSCALL */
};

struct helper {
	struct task tasks[STRACE_MAX_TASKS];
	int ntasks;
	int nstarted;
	int ready_fd;		/* -1 once the ready message is written */
	struct strace_shared *sh;
};

static struct task *task_find(struct helper *h, pid_t tid)
{
	for (int i = 0; i < h->ntasks; i++)
		if (h->tasks[i].tid == tid)
			return &h->tasks[i];
	return NULL;
}

static void task_remove(struct helper *h, pid_t tid)
{
	struct task *t = task_find(h, tid);

	if (!t)
		return;
	if (t->started)
		h->nstarted--;
	*t = h->tasks[--h->ntasks];
}

/* Publishes how many threads the helper waits for (first stops, detaches), and one of them. */
static void helper_waiting(struct helper *h, int n, pid_t tid)
{
	atomic_store_explicit(&h->sh->waiting, n, memory_order_relaxed);
	atomic_store_explicit(&h->sh->waiting_tid, (int)tid, memory_order_relaxed);
}

/*
 * /proc/@tid/@file into @buf, NUL-terminated: its length, or 0. With open
 * and read only: the helper is a fork of a threaded process.
 */
static size_t proc_text(pid_t tid, const char *file, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)tid, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return (size_t)n;
}

/* The state letter of thread @tid in /proc/TID/stat ('t': a ptrace stop), or 0. */
static char task_state(pid_t tid)
{
	char buf[512], *p;

	if (!proc_text(tid, "stat", buf, sizeof(buf)))
		return 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/* The TracerPid of thread @tid (0: none), or -1 when it cannot be read (gone). */
static pid_t task_tracer(pid_t tid)
{
	static const char key[] = "\nTracerPid:";
	char buf[2048], *p;
	long v = 0;

	if (!proc_text(tid, "status", buf, sizeof(buf)))
		return -1;
	p = strstr(buf, key);
	if (!p)
		return -1;
	for (p += sizeof(key) - 1; *p == ' ' || *p == '\t'; p++)
		;
	for (; *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (*p - '0');
	return (pid_t)v;
}

static void helper_ready(struct helper *h, int ret, const char *msg)
{
	struct strace_ready r = { .ret = ret };

	if (h->ready_fd < 0)
		return;
	snprintf(r.msg, sizeof(r.msg), "%s", msg);
	if (write(h->ready_fd, &r, sizeof(r)) != sizeof(r))
		helper_stop = 1;	/* loadbench is not listening: give up */
	close(h->ready_fd);
	h->ready_fd = -1;
}

/*
 * Seize thread @tid and ask it for a first stop. Where the kernel refuses
 * (EPERM: traced already, or exiting), /proc says why: a thread that exited
 * meanwhile (gone, or a zombie) has nothing to trace; one this helper traces
 * already (a clone or fork of a tracee, auto-attached) is counted and makes
 * its first stop by itself; one another tracer holds is tried again for
 * STRACE_BUSY_MS (a debugger's or a sanitizer's brief attach), then named.
 * Returns 0 or -errno with @msg.
 */
static int helper_seize_one(struct helper *h, pid_t tid, long opts, char *msg, size_t len)
{
	const struct timespec pause = { .tv_nsec = 10 * 1000000L };
	pid_t tracer = 0;
	char st, comm[64] = "";
	int ret;

	for (int waited = 0;; waited += 10) {
		if (ptrace(PTRACE_SEIZE, tid, NULL, (void *)opts) == 0) {
			h->tasks[h->ntasks++] = (struct task){ .tid = tid };
			ptrace(PTRACE_INTERRUPT, tid, NULL, NULL);
			return 0;
		}
		ret = -errno;
		if (ret == -ESRCH)
			return 0;		/* exited since it was listed */
		if (ret != -EPERM)
			break;
		st = task_state(tid);
		tracer = task_tracer(tid);
		if (!st || st == 'Z' || st == 'X' || tracer < 0)
			return 0;		/* exiting: nothing to trace */
		if (tracer == getpid()) {
			h->tasks[h->ntasks++] = (struct task){ .tid = tid };
			return 0;
		}
		if (waited >= STRACE_BUSY_MS)
			break;
		nanosleep(&pause, NULL);
	}
	if (ret == -EPERM && tracer > 0) {
		size_t n = proc_text(tracer, "comm", comm, sizeof(comm));

		if (n && comm[n - 1] == '\n')
			comm[n - 1] = '\0';
		snprintf(msg, len, "workload thread %d is traced by another process, %d (%s), "
			 "for over %d ms: a workload can have one tracer (detach the debugger or "
			 "strace that holds it)", (int)tid, (int)tracer, comm[0] ? comm : "?",
			 STRACE_BUSY_MS);
		return ret;
	}
	snprintf(msg, len, "ptrace(PTRACE_SEIZE) of workload thread %d: %s%s", (int)tid,
		 strerror(-ret), ret == -EPERM ?
		 " (needs root or CAP_SYS_PTRACE; see kernel.yama.ptrace_scope)" : "");
	return ret;
}

/* Seize every thread of @pid and ask each for a first stop. */
static int helper_seize(struct helper *h, pid_t pid, char *msg, size_t len)
{
	const long opts = PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK |
			  PTRACE_O_TRACEVFORK;
	pid_t tids[STRACE_MAX_TASKS];
	int n = lb_proc_tids(pid, tids, STRACE_MAX_TASKS);

	if (n < 0) {
		snprintf(msg, len, "cannot list the threads of workload process %d: %s", (int)pid,
			 n == -E2BIG ? "more than the helper traces" : strerror(-n));
		return n;
	}
	for (int i = 0; i < n; i++) {
		pid_t tid = tids[i];

		if (task_find(h, tid))
			continue;
		if (h->ntasks == STRACE_MAX_TASKS) {
			snprintf(msg, len, "the workload has more than %d threads", STRACE_MAX_TASKS);
			return -E2BIG;
		}
		int ret = helper_seize_one(h, tid, opts, msg, len);

		if (ret)
			return ret;
	}
	return 0;
}

static void helper_stopped(struct helper *h, pid_t tid, int status)
{
	int sig = WSTOPSIG(status), event = status >> 16;
	struct task *t = task_find(h, tid);

	if (!t) {
		/* A clone or fork of a tracee, auto-attached: trace it too. */
		if (h->ntasks == STRACE_MAX_TASKS) {
			ptrace(PTRACE_DETACH, tid, NULL, NULL);
			return;
		}
		t = &h->tasks[h->ntasks++];
		*t = (struct task){ .tid = tid };
	}
	if (sig == (SIGTRAP | 0x80)) {
		atomic_fetch_add_explicit(&h->sh->stops, 1, memory_order_relaxed);
		ptrace(PTRACE_SYSCALL, tid, NULL, NULL);
		return;
	}
	if (event == PTRACE_EVENT_STOP) {
		if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU) {
			ptrace(PTRACE_LISTEN, tid, NULL, NULL);	/* group-stop: stay stopped */
			return;
		}
		if (!t->started) {
			t->started = true;
			h->nstarted++;
			/*
			 * Until every thread is seized, each stays in its
			 * first stop: resumed, the busy ones stop again at
			 * every syscall and win waitpid(-1) against the
			 * ones not seen yet (48 processes were not all
			 * seized in 5 s). helper_resume_all() starts them.
			 */
			if (h->ready_fd >= 0)
				return;
		}
		ptrace(PTRACE_SYSCALL, tid, NULL, NULL);
		return;
	}
	if (event) {		/* PTRACE_EVENT_CLONE, _FORK, _VFORK */
		ptrace(PTRACE_SYSCALL, tid, NULL, NULL);
		return;
	}
	/* A signal for the tracee: deliver it. */
	ptrace(PTRACE_SYSCALL, tid, NULL, (void *)(long)sig);
}

/* Every thread seized: let them all run, under PTRACE_SYSCALL. */
static void helper_resume_all(struct helper *h)
{
	for (int i = 0; i < h->ntasks; i++)
		ptrace(PTRACE_SYSCALL, h->tasks[i].tid, NULL, NULL);
}

/* Detach @tid at the stop waitpid reported (@status); it is not ours any more. */
static void helper_detach_reported(struct helper *h, pid_t tid, int status)
{
	if (WIFSTOPPED(status)) {
		int sig = WSTOPSIG(status), event = status >> 16;
		/* A pending signal goes to the tracee; trap stops carry none. */
		long deliver = sig == (SIGTRAP | 0x80) || event ? 0 : sig;

		ptrace(PTRACE_DETACH, tid, NULL, (void *)deliver);
	}
	/* Detached, exited or killed. */
	task_remove(h, tid);
}

/*
 * A tracee in a stop already reported (held in its first stop while the
 * others were seized, or in a group-stop) makes no new report for
 * PTRACE_INTERRUPT: without this, detach_all would wait for it until
 * loadbench killed the helper. A stop still to be reported is taken first
 * (its signal must reach the tracee); one that moves on meanwhile makes
 * PTRACE_DETACH fail and reports later.
 */
static void helper_detach_stopped(struct helper *h)
{
	int i = 0, status;
	pid_t tid, r;

	while (i < h->ntasks) {
		tid = h->tasks[i].tid;
		if (task_state(tid) != 't') {
			i++;
			continue;
		}
		r = waitpid(tid, &status, WNOHANG | __WALL);
		if (r == tid)
			helper_detach_reported(h, tid, status);	/* [i] is another now */
		else if (r == 0 && !ptrace(PTRACE_DETACH, tid, NULL, NULL))
			task_remove(h, tid);
		else
			i++;
	}
}

/* Interrupt every tracee and detach each at its next stop; returns when none is left. */
static void helper_detach_all(struct helper *h)
{
	int status;
	pid_t tid;

	helper_phase(h->sh, PHASE_INTERRUPT);
	for (int i = 0; i < h->ntasks; i++)
		ptrace(PTRACE_INTERRUPT, h->tasks[i].tid, NULL, NULL);
	helper_phase(h->sh, PHASE_DETACH_STOPPED);
	helper_detach_stopped(h);
	while (h->ntasks > 0) {
		helper_phase(h->sh, PHASE_DETACH_WAIT);
		helper_waiting(h, h->ntasks, h->tasks[0].tid);
		tid = waitpid(-1, &status, __WALL);
		if (tid < 0) {
			if (errno != EINTR)
				break;	/* ECHILD: nothing is traced any more */
			/* loadbench's repeated SIGUSR1: look again for tracees stopped without a report. */
			helper_phase(h->sh, PHASE_DETACH_STOPPED);
			helper_detach_stopped(h);
			continue;
		}
		helper_detach_reported(h, tid, status);
	}
	helper_waiting(h, 0, 0);
	helper_phase(h->sh, PHASE_EXIT);
}

static void __attribute__((noreturn)) helper_main(struct strace_shared *sh, int ready_fd,
						  const pid_t *pids, int n, pid_t parent)
{
	static struct helper h;
	struct sigaction sa;
	sigset_t none;
	char msg[240];
	int ret = 0, status;
	pid_t tid;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(1);
	helper_sh = sh;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_IGN;	/* the terminal's ^C is loadbench's to handle */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
	sa.sa_handler = helper_on_signal;	/* no SA_RESTART: it interrupts waitpid */
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	h.sh = sh;
	h.ready_fd = ready_fd;
	helper_phase(sh, PHASE_SEIZE);
	for (int i = 0; i < n && !ret; i++)
		ret = helper_seize(&h, pids[i], msg, sizeof(msg));
	if (h.ntasks)
		helper_waiting(&h, h.ntasks, h.tasks[0].tid);
	if (ret) {
		helper_ready(&h, ret, msg);
		helper_detach_all(&h);
		_exit(1);
	}
	helper_phase(sh, PHASE_TRACE);
	while (h.ntasks > 0 && !helper_stop) {
		tid = waitpid(-1, &status, __WALL);
		if (tid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (WIFEXITED(status) || WIFSIGNALED(status))
			task_remove(&h, tid);
		else if (WIFSTOPPED(status))
			helper_stopped(&h, tid, status);
		/* Ready once every thread sits in its first stop: then all run, under PTRACE_SYSCALL. */
		if (h.ready_fd >= 0 && h.nstarted == h.ntasks) {
			helper_resume_all(&h);
			helper_ready(&h, 0, "");
			helper_waiting(&h, 0, 0);
		} else if (h.ready_fd >= 0) {
			for (int i = 0; i < h.ntasks; i++)
				if (!h.tasks[i].started) {
					helper_waiting(&h, h.ntasks - h.nstarted, h.tasks[i].tid);
					break;
				}
		}
	}
	if (h.ready_fd >= 0)
		helper_ready(&h, -ESRCH, "the workload's processes exited before they were traced");
	helper_detach_all(&h);
	_exit(0);
}

/* ---- loadbench's side ------------------------------------------------------------------ */

/*
 * What the late helper was doing, into @buf: "; it was PHASE after N stop
 * signals (state S, in WCHAN), waiting for M threads, among them T in state
 * S'" (its state and wchan from /proc: where a blocked helper sleeps).
 */
static void waiting_say(const struct strace *s, char *buf, size_t len)
{
	int n = atomic_load(&s->sh->waiting), phase = atomic_load(&s->sh->phase);
	int sigs = atomic_load(&s->sh->signals);
	pid_t tid = atomic_load(&s->sh->waiting_tid);
	char st = tid > 0 ? task_state(tid) : 0, hst = task_state(s->helper), path[64];
	char *wchan = NULL;
	size_t wn = 0, at;

	snprintf(path, sizeof(path), "/proc/%d/wchan", (int)s->helper);
	if (lb_read_file(path, 64, &wchan, &wn))
		wchan = NULL;
	at = (size_t)snprintf(buf, len, "; it was %s after %d stop signal%s (state %c, in %s)",
			      phase >= 0 && phase <= PHASE_EXIT ? helper_phase_name[phase] : "?",
			      sigs, sigs == 1 ? "" : "s", hst ? hst : '?',
			      wchan && wchan[0] && strcmp(wchan, "0") ? wchan : "no wait");
	free(wchan);
	if (at >= len)
		return;
	if (n <= 0 || tid <= 0)
		snprintf(buf + at, len - at, ", waiting for no thread");
	else
		snprintf(buf + at, len - at, ", waiting for %d thread%s, among them %d, %s%c%s", n,
			 n == 1 ? "" : "s", (int)tid, st ? "in state " : "gone", st ? st : ' ',
			 st == 't' ? " (a ptrace stop)" : "");
}

/* Fork the helper on the workload's saved pids; returns once it traces every thread. */
static int helper_start(struct strace *s, char *err, size_t len)
{
	struct strace_ready r = { .ret = 0 };
	pid_t parent = getpid();
	struct pollfd pfd;
	int fds[2], ret;
	ssize_t got;

	if (pipe2(fds, O_CLOEXEC) < 0) {
		ret = -errno;
		snprintf(err, len, "strace: cannot create a pipe: %s", strerror(-ret));
		return ret;
	}
	atomic_store(&s->sh->phase, PHASE_START);
	atomic_store(&s->sh->signals, 0);
	atomic_store(&s->sh->waiting, 0);
	atomic_store(&s->sh->waiting_tid, 0);
	s->helper = fork();
	if (s->helper < 0) {
		ret = -errno;
		s->helper = 0;
		close(fds[0]);
		close(fds[1]);
		snprintf(err, len, "strace: cannot fork the tracing process: %s", strerror(-ret));
		return ret;
	}
	if (!s->helper) {
		close(fds[0]);
		helper_main(s->sh, fds[1], s->pids, s->npids, parent);
	}
	close(fds[1]);
	pfd = (struct pollfd){ .fd = fds[0], .events = POLLIN };
	ret = poll(&pfd, 1, STRACE_READY_MS);
	if (ret < 0)
		ret = -errno;	/* EINTR: an interrupt, the run stops */
	got = ret > 0 ? read(fds[0], &r, sizeof(r)) : -1;
	close(fds[0]);
	if (ret < 0) {
		snprintf(err, len, "strace: waiting for the tracing process: %s", strerror(-ret));
		return ret;
	}
	if (ret == 0) {
		char wait[256];

		waiting_say(s, wait, sizeof(wait));
		snprintf(err, len, "strace: the workload's threads were not all traced within %d ms%s",
			 STRACE_READY_MS, wait);
		return -ETIMEDOUT;
	}
	if (got != (ssize_t)sizeof(r)) {
		snprintf(err, len, "strace: the tracing process failed before it traced the "
			 "workload");
		return -EIO;
	}
	if (r.ret) {
		r.msg[sizeof(r.msg) - 1] = '\0';
		snprintf(err, len, "strace: %s", r.msg);
		return r.ret;
	}
	return 0;
}

/*
 * Tell the helper to detach every thread and exit, and reap it; killed (the
 * kernel detaches its tracees) when it has not detached them all within
 * STRACE_DETACH_MS, which is said with what it was doing then. Once it says it
 * detached every one (PHASE_EXIT), its exit is only waited for: tearing down
 * the address space fork gave it can take seconds on a loaded machine
 * (seen: over 3 s in unlink_anon_vmas, a sanitizer build's helper under
 * test-switch's 48 processes), and nothing is traced any more meanwhile.
 * Returns 0, or -ETIMEDOUT when it had to be killed.
 */
static int helper_stop_wait(struct strace *s)
{
	/* Polled every ms: a switch waits for the helper's exit, not for a coarser tick. */
	const struct timespec tick = { .tv_nsec = 1000 * 1000 };
	int status = 0, ret = 0;
	pid_t r = 0;

	if (!s->helper)
		return 0;
	/* Repeated: a signal that lands just before the helper's waitpid is not lost. */
	for (int ms = 0; ms < STRACE_DETACH_MS; ms++) {
		if (atomic_load(&s->sh->phase) == PHASE_EXIT) {
			/* Every tracee detached: only its exit is left, which ends on its own. */
			while ((r = waitpid(s->helper, &status, 0)) < 0 && errno == EINTR)
				;
			break;
		}
		kill(s->helper, SIGUSR1);
		r = waitpid(s->helper, &status, WNOHANG);
		if (r == s->helper || (r < 0 && errno != EINTR))
			break;
		nanosleep(&tick, NULL);
	}
	if (r != s->helper && r >= 0) {
		char why[256];

		waiting_say(s, why, sizeof(why));
		lb_warn("strace: the tracing process did not detach the workload within %d ms "
			"and was killed (the kernel detached it)%s", STRACE_DETACH_MS, why);
		/* The kernel detaches the tracees of a dead tracer. */
		kill(s->helper, SIGKILL);
		while (waitpid(s->helper, &status, 0) < 0 && errno == EINTR)
			;
		ret = -ETIMEDOUT;
	}
	s->helper = 0;
	return ret;
}

static int strace_attach(void *priv, const pid_t *pids, int n, char *err, size_t len)
{
	struct strace *s = priv;

	if (n < 1) {
		snprintf(err, len, "strace: the workload has no process to trace");
		return -ESRCH;
	}
	/* Kept for enable, which seizes the same processes again. */
	free(s->pids);
	s->pids = malloc((size_t)n * sizeof(*s->pids));
	if (!s->pids) {
		s->npids = 0;
		return -ENOMEM;
	}
	memcpy(s->pids, pids, (size_t)n * sizeof(*s->pids));
	s->npids = n;
	return helper_start(s, err, len);
}

/*
 * --method alternate, off: the helper detaches every thread and exits, as at
 * disarm, so no workload thread is traced (TracerPid 0: its syscalls take
 * no ptrace stop). The shared stop counter stays: counts are cumulative.
 * Cost: a signal, one PTRACE_INTERRUPT and detach per thread, a reap: about
 * 1 ms for udp-rr's two processes, 4 to 15 ms for 48 (2-CPU machine).
 */
static int strace_disable(void *priv, char *err, size_t len)
{
	struct strace *s = priv;

	/*
	 * Killed, the helper's tracees are detached by the kernel: off all
	 * the same, so the run goes on. Rare: on a loaded machine the
	 * detach took 2.8 s once (48 processes), and over 3 s once (2);
	 * at least some of those were the helper's exit, which no longer
	 * counts (helper_stop_wait).
	 */
	helper_stop_wait(s);	/* said when it had to be killed */
	return 0;
}

/*
 * On again: a new helper seizes the processes attach was given, as attach
 * did (threads wait in their first stop until all are seized; then all run).
 * Cost: a fork and a seize per thread: about 1.5 ms for two processes, 25 ms
 * for 48, well inside STRACE_READY_MS.
 */
static int strace_enable(void *priv, char *err, size_t len)
{
	struct strace *s = priv;
	int ret;

	if (s->helper)
		return 0;
	if (!s->npids) {
		snprintf(err, len, "strace: switched on before attach: no process to trace");
		return -ESRCH;
	}
	ret = helper_start(s, err, len);
	if (ret)
		helper_stop_wait(s);	/* a failed switch leaves it off, not half on */
	return ret;
}

static int strace_snapshot(void *priv, struct lb_tracer_counts *c)
{
	struct strace *s = priv;

	c->events = atomic_load(&s->sh->stops);
	return 0;
}

static int strace_disarm(void *priv)
{
	struct strace *s = priv;
	int ret = helper_stop_wait(s);

	free(s->pids);
	s->pids = NULL;
	s->npids = 0;
	return ret;
}

/* The helper process that does the tracing, while there is one (not while off). */
static int strace_cpu_clocks(void *priv, clockid_t *clk, int max)
{
	struct strace *s = priv;

	int ret;

	if (s->helper <= 0 || max < 1)
		return 0;
	ret = clock_getcpuclockid(s->helper, clk);
	return ret ? -ret : 1;
}

const struct lb_tracer_ops lb_tracer_strace = {
	.name = "strace",
	.available = strace_available,
	.create = strace_create,
	.arm = strace_arm,
	.attach = strace_attach,
	.snapshot = strace_snapshot,
	.enable = strace_enable,
	.disable = strace_disable,
	.cpu_clocks = strace_cpu_clocks,
	.disarm = strace_disarm,
	.destroy = strace_destroy,
};
