// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * debug.kprobes-optimization held for the probe sets that ask for it, and
 * given back (kprobe_opt.h says how the runs share it).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic.h"
#include "kprobe_opt.h"
#include "owner.h"
#include "util.h"

#define LB_KPROBE_OPT_STATE LB_OWNER_DIR "/kprobes-optimization"
#define LB_KPROBE_OPT_LOCK "kprobes-optimization"
#define LB_KPROBE_OPT_MAX_HOLDERS 64

struct holder {
	char name[32];		/* loadbench_<pid> */
	int value;
};

/* The state file: the value before the first holder, and the holders. */
struct opt_state {
	int saved;
	struct holder h[LB_KPROBE_OPT_MAX_HOLDERS];
	int n;
};

/* This process's holds: how many, of which value; whether the kernel has no setting. */
static int held_count, held_value, held_before;
static bool held_absent;

/* The sysctl's value, or -errno (-ENOENT: no CONFIG_OPTPROBES). */
static int sysctl_read(void)
{
	char buf[16];
	ssize_t n;
	int fd = open(LB_KPROBE_OPT_SYSCTL, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -EIO;
	buf[n] = '\0';
	if ((buf[0] != '0' && buf[0] != '1') || (buf[1] && buf[1] != '\n'))
		return -EIO;
	return buf[0] - '0';
}

static int sysctl_write(int value, char *err, size_t len)
{
	int fd = open(LB_KPROBE_OPT_SYSCTL, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0 || write(fd, value ? "1\n" : "0\n", 2) != 2)
		ret = errno ? -errno : -EIO;
	if (fd >= 0)
		close(fd);
	if (ret)
		snprintf(err, len, "cannot write %d to %s: %s", value, LB_KPROBE_OPT_SYSCTL,
			 strerror(-ret));
	return ret;
}

/* Read the state file into @st; -ENOENT when there is none, -EBADMSG when it is not ours. */
static int state_read(struct opt_state *st)
{
	char *text = NULL, *line, *next;
	size_t n;
	int ret = lb_read_file(LB_KPROBE_OPT_STATE, 4096, &text, &n);

	memset(st, 0, sizeof(*st));
	st->saved = -1;
	if (ret)
		return ret;
	for (line = text; line && *line; line = next) {
		char name[32];
		int value;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (sscanf(line, "saved %d", &value) == 1 && (value == 0 || value == 1)) {
			st->saved = value;
		} else if (sscanf(line, "%31s %d", name, &value) == 2 && lb_owner_parse(name, NULL) &&
			   (value == 0 || value == 1) && st->n < LB_KPROBE_OPT_MAX_HOLDERS) {
			snprintf(st->h[st->n].name, sizeof(st->h[st->n].name), "%s", name);
			st->h[st->n++].value = value;
		} else {
			ret = -EBADMSG;
			break;
		}
	}
	free(text);
	if (!ret && st->saved < 0)
		ret = -EBADMSG;
	return ret;
}

/* Write @st, or remove the file when no one holds the setting. */
static int state_write(const struct opt_state *st)
{
	char buf[64 + LB_KPROBE_OPT_MAX_HOLDERS * 48];
	size_t off;

	if (!st->n)
		return unlink(LB_KPROBE_OPT_STATE) && errno != ENOENT ? -errno : 0;
	off = (size_t)snprintf(buf, sizeof(buf), "saved %d\n", st->saved);
	for (int i = 0; i < st->n; i++)
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s %d\n", st->h[i].name,
					st->h[i].value);
	return lb_atomic_write(LB_KPROBE_OPT_STATE, buf, off);
}

static void state_drop(struct opt_state *st, int i)
{
	memmove(&st->h[i], &st->h[i + 1], (size_t)(st->n - i - 1) * sizeof(st->h[0]));
	st->n--;
}

/*
 * Drop the holders @o proves dead, and this process's; *@other gets a live
 * one's index (-1: none). @o may be NULL (nothing proven dead).
 */
static void state_prune(struct opt_state *st, struct lb_owners *o, int *other)
{
	*other = -1;
	for (int i = 0; i < st->n;) {
		enum lb_owner_verdict v = o ? lb_owners_judge(o, st->h[i].name, NULL) :
					      LB_OWNER_UNPROVEN;
		char self[32];

		lb_owner_name(self, sizeof(self), 0, 0);
		if (v == LB_OWNER_DEAD || v == LB_OWNER_SELF || !strcmp(st->h[i].name, self)) {
			state_drop(st, i);
			continue;
		}
		if (*other < 0)
			*other = i;
		i++;
	}
}

static const char *state_problem(int ret)
{
	return ret == -EBADMSG ? "it is not what loadbench writes: remove it if no loadbench "
				 "runs, and set debug.kprobes-optimization by hand" : strerror(-ret);
}

int lb_kprobe_opt_hold(int value, int *before, char *err, size_t len)
{
	struct lb_owners *o = NULL;
	struct opt_state st;
	int lock = -1, cur, other, ret;

	if (held_count) {
		if (value != held_value) {
			snprintf(err, len, "two probe sets of this run ask for kprobe-optimization %s "
				 "and %s at once: measure them in separate runs",
				 held_value ? "on" : "off", value ? "on" : "off");
			return -EBUSY;
		}
		held_count++;
		*before = held_before;
		return 0;
	}
	cur = sysctl_read();
	if (cur == -ENOENT) {
		/* No CONFIG_OPTPROBES: no kprobe is ever optimized. */
		if (value) {
			snprintf(err, len, "kprobe-optimization on: this kernel has no %s "
				 "(CONFIG_OPTPROBES unset), so its kprobes are never optimized; "
				 "remove the line", LB_KPROBE_OPT_SYSCTL);
			return -EOPNOTSUPP;
		}
		held_absent = true;
		held_count = 1;
		held_value = value;
		*before = held_before = -1;
		return 0;
	}
	if (cur < 0) {
		snprintf(err, len, "cannot read %s: %s", LB_KPROBE_OPT_SYSCTL, strerror(-cur));
		return cur;
	}
	lock = lb_owner_mutex(LB_KPROBE_OPT_LOCK, err, len);
	if (lock < 0)
		return lock;
	/* Again under the lock: another run may have changed it meanwhile. */
	cur = sysctl_read();
	if (cur < 0) {
		ret = cur;
		snprintf(err, len, "cannot read %s: %s", LB_KPROBE_OPT_SYSCTL, strerror(-cur));
		goto out;
	}
	ret = state_read(&st);
	if (ret == -ENOENT) {
		st.saved = cur;
		ret = 0;
	}
	if (ret) {
		snprintf(err, len, "cannot use %s: %s", LB_KPROBE_OPT_STATE, state_problem(ret));
		goto out;
	}
	ret = lb_owners_scan(&o);
	if (ret)
		goto out;
	state_prune(&st, o, &other);
	if (other >= 0 && st.h[other].value != value) {
		snprintf(err, len, "another loadbench run (%s) holds debug.kprobes-optimization at "
			 "%d while it measures; this probe set needs %d: run it after that one",
			 st.h[other].name, st.h[other].value, value);
		ret = -EBUSY;
		goto out;
	}
	if (st.n >= LB_KPROBE_OPT_MAX_HOLDERS) {
		snprintf(err, len, "%d loadbench runs hold debug.kprobes-optimization already",
			 st.n);
		ret = -EBUSY;
		goto out;
	}
	lb_owner_name(st.h[st.n].name, sizeof(st.h[st.n].name), 0, 0);
	st.h[st.n++].value = value;
	/* On disk first: what to give back is known before the kernel's value changes. */
	ret = state_write(&st);
	if (ret) {
		snprintf(err, len, "cannot write %s: %s", LB_KPROBE_OPT_STATE, strerror(-ret));
		goto out;
	}
	if (cur != value) {
		ret = sysctl_write(value, err, len);
		if (ret) {
			st.n--;
			state_write(&st);
			goto out;
		}
	}
	held_count = 1;
	held_value = value;
	held_absent = false;
	*before = held_before = st.saved;
out:
	lb_owners_free(o, false);
	close(lock);
	return ret;
}

int lb_kprobe_opt_release(char *err, size_t len)
{
	struct lb_owners *o = NULL;
	struct opt_state st;
	int lock, other, ret;

	if (!held_count || --held_count)
		return 0;
	if (held_absent) {
		held_absent = false;
		return 0;
	}
	lock = lb_owner_mutex(LB_KPROBE_OPT_LOCK, err, len);
	if (lock < 0)
		return lock;
	ret = state_read(&st);
	if (ret) {
		snprintf(err, len, "cannot read %s to give debug.kprobes-optimization back: %s",
			 LB_KPROBE_OPT_STATE, ret == -ENOENT ? "it is gone" : state_problem(ret));
		goto out;
	}
	ret = lb_owners_scan(&o);
	if (ret)
		goto out;
	state_prune(&st, o, &other);
	/* The last holder gives the value back; the file goes once the kernel has it. */
	if (!st.n) {
		ret = sysctl_write(st.saved, err, len);
		if (ret)
			goto out;
	}
	ret = state_write(&st);
	if (ret)
		snprintf(err, len, "cannot update %s: %s", LB_KPROBE_OPT_STATE, strerror(-ret));
out:
	lb_owners_free(o, false);
	close(lock);
	return ret;
}

int lb_kprobe_opt_cleanup(struct lb_owners *o, bool remove, lb_cleanup_report_fn report,
			  void *arg)
{
	char what[160], err[256];
	struct opt_state st;
	int lock, found = 0, ret;
	pid_t pid;

	if (access(LB_KPROBE_OPT_STATE, F_OK))
		return 0;
	lock = lb_owner_mutex(LB_KPROBE_OPT_LOCK, err, sizeof(err));
	if (lock < 0)
		return 0;
	if (state_read(&st))
		goto out;
	for (int i = 0; i < st.n;) {
		if (lb_owners_judge(o, st.h[i].name, &pid) != LB_OWNER_DEAD) {
			i++;
			continue;
		}
		found++;
		snprintf(what, sizeof(what), "debug.kprobes-optimization held at %d by %s (it was "
			 "%d before)", st.h[i].value, st.h[i].name, st.saved);
		if (!remove) {
			if (report)
				report(what, 0, arg);
			i++;
			continue;
		}
		state_drop(&st, i);
		ret = 0;
		if (!st.n)
			ret = sysctl_write(st.saved, err, sizeof(err));
		if (!ret && (ret = state_write(&st)))
			st.n++;	/* the file still names it: kept for the next cleanup */
		if (ret)
			lb_owners_failed(o, pid);
		if (report)
			report(what, ret, arg);
		if (ret)
			break;
	}
out:
	close(lock);
	return found;
}
