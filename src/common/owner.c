// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "owner.h"

#define LB_OWNER_PREFIX "loadbench_"
#define LB_OWNER_SUFFIX ".lock"
#define LB_OWNER_CLAIM_WAIT_MS 2000	/* a cleanup may hold a dead run's lock briefly */

/* This process's claim (a watchdog inherits it). */
static int own_dirfd = -1, own_fd = -1;
static pid_t own_pid;

/* Parses a decimal without sign or leading zero; the end into *@end. */
static bool parse_decimal(const char *s, long *v, const char **end)
{
	char *e;

	if (*s < '0' || *s > '9' || (*s == '0' && s[1] >= '0' && s[1] <= '9'))
		return false;
	errno = 0;
	*v = strtol(s, &e, 10);
	if (errno)
		return false;
	*end = e;
	return true;
}

const char *lb_owner_name(char *buf, size_t len, pid_t pid, int n)
{
	if (!pid)
		pid = getpid();
	if (n)
		snprintf(buf, len, LB_OWNER_PREFIX "%d_%d", (int)pid, n);
	else
		snprintf(buf, len, LB_OWNER_PREFIX "%d", (int)pid);
	return buf;
}

bool lb_owner_parse(const char *name, pid_t *pid)
{
	const char *p = name, *end;
	long v, n;

	if (strncmp(p, LB_OWNER_PREFIX, strlen(LB_OWNER_PREFIX)))
		return false;
	p += strlen(LB_OWNER_PREFIX);
	if (!parse_decimal(p, &v, &end) || v <= 0 || v > INT_MAX)
		return false;
	if (*end == '_' && (!parse_decimal(end + 1, &n, &end) || n > INT_MAX))
		return false;
	if (*end)
		return false;
	if (pid)
		*pid = (pid_t)v;
	return true;
}

static void lock_name(pid_t pid, char *buf, size_t len)
{
	snprintf(buf, len, LB_OWNER_PREFIX "%d" LB_OWNER_SUFFIX, (int)pid);
}

/* Whether the file open at @fd is still the one named @name in @dirfd. */
static bool still_linked(int dirfd, const char *name, int fd)
{
	struct stat a, b;

	return !fstat(fd, &a) && !fstatat(dirfd, name, &b, AT_SYMLINK_NOFOLLOW) &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* A lock file as loadbench makes them: a regular file of root's, mode 0600. */
static bool lock_file_ok(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_uid == 0 && !(st.st_mode & 077);
}

/*
 * Opens the lock file @name in @dirfd with @flags (O_CREAT: mode 0600) and
 * checks it is loadbench's. Returns the descriptor or -errno (-EPERM for
 * another's file) with a reason in @err.
 */
static int open_lock(int dirfd, const char *name, int flags, char *err, size_t len)
{
	int fd = openat(dirfd, name, flags | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0600);

	if (fd < 0) {
		int ret = -errno;

		snprintf(err, len, "cannot open the lock %s/%s: %s", LB_OWNER_DIR, name,
			 strerror(-ret));
		return ret;
	}
	if (!lock_file_ok(fd)) {
		snprintf(err, len, "refusing the lock %s/%s: not a regular file of root's with "
			 "mode 0600; someone else made it: remove it", LB_OWNER_DIR, name);
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* Opens LB_OWNER_DIR, creating it; refuses one that is not root's alone. */
static int open_dir(bool create, char *err, size_t len)
{
	struct stat st;
	int fd;

	if (create && mkdir(LB_OWNER_DIR, 0700) && errno != EEXIST) {
		int ret = -errno;

		snprintf(err, len, "cannot create %s for the run lock: %s (loadbench needs a "
			 "writable /run, as on any systemd or Debian system)", LB_OWNER_DIR,
			 strerror(-ret));
		return ret;
	}
	fd = open(LB_OWNER_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		int ret = -errno;

		snprintf(err, len, "cannot open %s for the run lock: %s%s", LB_OWNER_DIR,
			 strerror(-ret), ret == -ELOOP || ret == -ENOTDIR ?
			 " (it is not a directory: remove it; loadbench makes its own)" : "");
		return ret;
	}
	if (fstat(fd, &st) || st.st_uid != 0 || (st.st_mode & 077)) {
		snprintf(err, len, "refusing %s: it is not a directory of root's that only root "
			 "may enter (mode 0700); someone else made it: remove it, and loadbench "
			 "makes its own", LB_OWNER_DIR);
		close(fd);
		return -EPERM;
	}
	return fd;
}

int lb_owner_claim(bool *earlier, char *err, size_t len)
{
	struct timespec step = { .tv_nsec = 20 * 1000 * 1000 };
	int dirfd, fd = -1, ret, waited = 0;
	char name[64];
	bool created;

	*earlier = false;
	if (geteuid() != 0 || own_fd >= 0)
		return 0;
	dirfd = open_dir(true, err, len);
	if (dirfd < 0)
		return dirfd;
	lock_name(getpid(), name, sizeof(name));
	for (;;) {
		fd = open_lock(dirfd, name, O_CREAT | O_EXCL, err, len);
		created = fd >= 0;
		if (fd == -EEXIST)
			fd = open_lock(dirfd, name, 0, err, len);
		if (fd == -ENOENT)
			continue;	/* a cleanup removed it between the two opens */
		if (fd < 0) {
			ret = fd;
			fd = -1;
			goto fail;
		}
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			ret = -errno;
			if (ret == -EWOULDBLOCK && waited < LB_OWNER_CLAIM_WAIT_MS) {
				close(fd);
				fd = -1;
				nanosleep(&step, NULL);
				waited += 20;
				continue;
			}
			if (ret == -EWOULDBLOCK) {
				snprintf(err, len, "another live loadbench holds the name loadbench_%d "
					 "(%s/%s is locked): a run with this pid in another pid "
					 "namespace; start this one with another pid, or after that "
					 "run ends", (int)getpid(), LB_OWNER_DIR, name);
				ret = -EBUSY;
			} else {
				snprintf(err, len, "cannot lock the run lock %s/%s: %s", LB_OWNER_DIR,
					 name, strerror(-ret));
			}
			goto fail;
		}
		if (still_linked(dirfd, name, fd))
			break;
		close(fd);	/* removed by the cleanup that held it: start again */
		fd = -1;
	}
	*earlier = !created;
	if (!ftruncate(fd, 0))
		dprintf(fd, "%d\n", (int)getpid());
	own_dirfd = dirfd;
	own_fd = fd;
	own_pid = getpid();
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	close(dirfd);
	return ret;
}

void lb_owner_release(bool keep_file)
{
	char name[64];

	if (own_fd < 0)
		return;
	lock_name(own_pid, name, sizeof(name));
	if (!keep_file && still_linked(own_dirfd, name, own_fd))
		unlinkat(own_dirfd, name, 0);
	close(own_fd);
	close(own_dirfd);
	own_fd = own_dirfd = -1;
}

int lb_owner_mutex(const char *name, char *err, size_t len)
{
	struct timespec step = { .tv_nsec = 10 * 1000 * 1000 };
	int dirfd, fd, ret;
	char file[64];

	dirfd = open_dir(true, err, len);
	if (dirfd < 0)
		return dirfd;
	snprintf(file, sizeof(file), "%s.lock", name);
	fd = open_lock(dirfd, file, O_CREAT, err, len);
	close(dirfd);
	if (fd < 0)
		return fd;
	/*
	 * A POSIX record lock, not flock(): it belongs to this process alone,
	 * so the workload processes forked while it is held do not keep it.
	 */
	for (int i = 0; fcntl(fd, F_SETLK, &(struct flock){ .l_type = F_WRLCK,
							   .l_whence = SEEK_SET }); i++) {
		if ((errno != EAGAIN && errno != EACCES) || i == 1000) {
			ret = errno == EAGAIN || errno == EACCES ? -ETIMEDOUT : -errno;
			snprintf(err, len, "cannot lock %s/%s: %s", LB_OWNER_DIR, file,
				 ret == -ETIMEDOUT ? "another run held it for 10 s" : strerror(-ret));
			close(fd);
			return ret;
		}
		nanosleep(&step, NULL);
	}
	return fd;
}

int lb_owner_dir_open(char *err, size_t len)
{
	return open_dir(true, err, len);
}

bool lb_owner_live(int dirfd, pid_t pid)
{
	char name[64], proc[32];
	int fd, held;

	if (pid == getpid())
		return true;
	lock_name(pid, name, sizeof(name));
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	held = lock_file_ok(fd) && flock(fd, LOCK_SH | LOCK_NB) && errno == EWOULDBLOCK;
	close(fd);	/* drops the shared lock if it was taken */
	/* A dead run's lock is held a moment by a cleanup's scan: its pid is gone. */
	snprintf(proc, sizeof(proc), "/proc/%d", (int)pid);
	return held && !access(proc, F_OK);
}

bool lb_owner_holds_fd(int fd)
{
	return fd >= 0 && (fd == own_fd || fd == own_dirfd);
}

struct dead_run {
	pid_t pid;
	int fd;		/* the lock, held; -1 for lb_owners_of() */
	bool failed;
};

struct lb_owners {
	int dirfd;	/* LB_OWNER_DIR, or -1 when there is none */
	bool scanned;
	size_t n, cap;
	struct dead_run *dead;
};

static int add_dead(struct lb_owners *o, pid_t pid, int fd)
{
	if (o->n == o->cap) {
		size_t cap = o->cap ? 2 * o->cap : 16;
		struct dead_run *d = realloc(o->dead, cap * sizeof(*d));

		if (!d)
			return -ENOMEM;
		o->dead = d;
		o->cap = cap;
	}
	o->dead[o->n++] = (struct dead_run){ .pid = pid, .fd = fd };
	return 0;
}

/* Locks the lock file @name when its run is dead; returns the fd or -1. */
static int lock_dead(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return -1;
	if (!lock_file_ok(fd) || flock(fd, LOCK_EX | LOCK_NB) || !still_linked(dirfd, name, fd)) {
		close(fd);
		return -1;
	}
	return fd;
}

int lb_owners_scan(struct lb_owners **out)
{
	struct lb_owners *o = calloc(1, sizeof(*o));
	char err[256], base[64];
	struct dirent *de;
	DIR *d;
	int fd;

	*out = NULL;
	if (!o)
		return -ENOMEM;
	o->scanned = true;
	o->dirfd = open_dir(false, err, sizeof(err));
	if (o->dirfd < 0) {
		o->dirfd = -1;
		*out = o;
		return 0;	/* no locks at all: nothing is provably dead */
	}
	fd = dup(o->dirfd);
	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		*out = o;
		return 0;
	}
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name), sl = strlen(LB_OWNER_SUFFIX);
		pid_t pid;
		int lock;

		if (l <= sl || l - sl >= sizeof(base) || strcmp(de->d_name + l - sl, LB_OWNER_SUFFIX))
			continue;
		snprintf(base, sizeof(base), "%.*s", (int)(l - sl), de->d_name);
		if (!lb_owner_parse(base, &pid) || strchr(base + strlen(LB_OWNER_PREFIX), '_') ||
		    pid == getpid())
			continue;
		lock = lock_dead(o->dirfd, de->d_name);
		if (lock >= 0 && add_dead(o, pid, lock)) {
			close(lock);
			closedir(d);
			lb_owners_free(o, false);
			return -ENOMEM;
		}
	}
	closedir(d);
	*out = o;
	return 0;
}

int lb_owners_of(pid_t pid, struct lb_owners **out)
{
	struct lb_owners *o = calloc(1, sizeof(*o));

	*out = NULL;
	if (!o)
		return -ENOMEM;
	o->dirfd = -1;
	if (add_dead(o, pid, -1)) {
		free(o);
		return -ENOMEM;
	}
	*out = o;
	return 0;
}

static struct dead_run *find_dead(struct lb_owners *o, pid_t pid)
{
	for (size_t i = 0; i < o->n; i++)
		if (o->dead[i].pid == pid)
			return &o->dead[i];
	return NULL;
}

enum lb_owner_verdict lb_owners_judge(struct lb_owners *o, const char *name, pid_t *pidp)
{
	struct stat st;
	char lock[64];
	pid_t pid;

	if (!lb_owner_parse(name, &pid))
		return LB_OWNER_NOT_OURS;
	if (pidp)
		*pidp = pid;
	if (find_dead(o, pid))
		return LB_OWNER_DEAD;
	if (!o->scanned)
		return LB_OWNER_NOT_OURS;
	if (pid == getpid())
		return LB_OWNER_SELF;
	lock_name(pid, lock, sizeof(lock));
	if (o->dirfd >= 0 && !fstatat(o->dirfd, lock, &st, AT_SYMLINK_NOFOLLOW))
		return LB_OWNER_LIVE;
	return LB_OWNER_UNPROVEN;
}

void lb_owners_failed(struct lb_owners *o, pid_t pid)
{
	struct dead_run *d = o ? find_dead(o, pid) : NULL;

	if (d)
		d->failed = true;
}

void lb_owners_free(struct lb_owners *o, bool retire)
{
	char name[64];

	if (!o)
		return;
	for (size_t i = 0; i < o->n; i++) {
		struct dead_run *d = &o->dead[i];

		if (d->fd < 0)
			continue;
		lock_name(d->pid, name, sizeof(name));
		if (retire && !d->failed && still_linked(o->dirfd, name, d->fd))
			unlinkat(o->dirfd, name, 0);
		close(d->fd);
	}
	if (o->dirfd >= 0)
		close(o->dirfd);
	free(o->dead);
	free(o);
}
