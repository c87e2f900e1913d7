// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A directory loadbench writes in (wdir.h): the file system it is on, who
 * can change the path that names it, whether a file can be written there.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "util.h"
#include "wdir.h"

#ifndef TRACEFS_MAGIC
#define TRACEFS_MAGIC		0x74726163
#endif
#ifndef BPF_FS_MAGIC
#define BPF_FS_MAGIC		0xcafe4a11
#endif
#ifndef CONFIGFS_MAGIC
#define CONFIGFS_MAGIC		0x62656570
#endif

/* File systems whose directories are kernel objects, not places for files. */
static const struct {
	unsigned long magic;
	const char *name;
} kernel_fs[] = {
	{ PROC_SUPER_MAGIC, "proc" },
	{ SYSFS_MAGIC, "sysfs" },
	{ TRACEFS_MAGIC, "tracefs" },
	{ DEBUGFS_MAGIC, "debugfs" },
	{ CGROUP_SUPER_MAGIC, "cgroup" },
	{ CGROUP2_SUPER_MAGIC, "cgroup2" },
	{ SECURITYFS_MAGIC, "securityfs" },
	{ BPF_FS_MAGIC, "bpf" },
	{ CONFIGFS_MAGIC, "configfs" },
	{ PSTOREFS_MAGIC, "pstore" },
	{ EFIVARFS_MAGIC, "efivarfs" },
	{ SELINUX_MAGIC, "selinuxfs" },
	{ DEVPTS_SUPER_MAGIC, "devpts" },
	{ BINFMTFS_MAGIC, "binfmt_misc" },
};

int lb_wdir_fs_check(const char *path, char *err, size_t len)
{
	char *p = strdup(path), *slash;
	struct statfs sf;
	int ret = 0;

	if (!p) {
		lb_seterr(err, len, "out of memory");
		return -ENOMEM;
	}
	/* The nearest existing directory on the way: where a mkdir would land. */
	while (statfs(p, &sf)) {
		if (errno != ENOENT && errno != ENOTDIR) {
			ret = -errno;
			lb_seterr(err, len, "cannot look at %s: %s", p, strerror(-ret));
			goto out;
		}
		slash = strrchr(p, '/');
		while (slash && slash > p && slash[-1] == '/')
			slash--;
		if (!slash)
			strcpy(p, ".");
		else if (slash == p)
			p[1] = '\0';
		else
			*slash = '\0';
	}
	for (size_t i = 0; i < sizeof(kernel_fs) / sizeof(kernel_fs[0]); i++) {
		if ((unsigned long)sf.f_type != kernel_fs[i].magic)
			continue;
		ret = -EINVAL;
		lb_seterr(err, len, "%s is on %s, which holds kernel objects, not files (a "
			  "directory made there is kernel state): choose a directory on a disk "
			  "or tmpfs", path, kernel_fs[i].name);
		break;
	}
out:
	free(p);
	return ret;
}

/* Whether @uid may choose where root writes: root, and the user who asked (sudo). */
static bool uid_trusted(uid_t uid)
{
	const char *sudo = getenv("SUDO_UID");
	char *end;
	unsigned long u;

	if (uid == 0 || uid == getuid())
		return true;
	if (!sudo || !*sudo)
		return false;
	errno = 0;
	u = strtoul(sudo, &end, 10);
	return !errno && !*end && u == (unsigned long)uid;
}

/*
 * Who, other than a trusted user, could change the entry @st in the
 * directory @dir: its owner, or anyone when it is writable by group or
 * others (gid 0 aside) and not sticky, or the entry's owner when sticky.
 * Returns that uid's owner as the culprit in *@who, and true when one is.
 */
static bool changeable(const struct stat *dir, const struct stat *st, uid_t *who)
{
	if (!uid_trusted(dir->st_uid)) {
		*who = dir->st_uid;
		return true;
	}
	if (!(dir->st_mode & S_IWOTH) && (!(dir->st_mode & S_IWGRP) || dir->st_gid == 0))
		return false;
	if (!(dir->st_mode & S_ISVTX)) {
		*who = (uid_t)-1;	/* anyone in its group, or anyone at all */
		return true;
	}
	if (!uid_trusted(st->st_uid)) {
		*who = st->st_uid;
		return true;
	}
	return false;
}

/*
 * Walk the absolute, link-free @canon from "/" and check that no component
 * can be changed by an untrusted user (changeable()). Returns 0, -EPERM with
 * the culprit in @err (@what names the path checked for the user), or -errno.
 */
static int path_trusted(const char *canon, const char *what, char *err, size_t len)
{
	char *copy = strdup(canon), *save = NULL, *c;
	struct stat dir, st;
	int fd, next, ret = 0;
	char at[PATH_MAX] = "";
	uid_t who;

	if (!copy)
		return -ENOMEM;
	fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &dir)) {
		ret = -errno;
		goto out;
	}
	for (c = strtok_r(copy, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (fstatat(fd, c, &st, AT_SYMLINK_NOFOLLOW)) {
			ret = -errno;
			goto out;
		}
		if (changeable(&dir, &st, &who)) {
			ret = -EPERM;
			if (who == (uid_t)-1)
				lb_seterr(err, len, "%s/ may be written by others (mode %03o), who "
					  "could swap %s for a link while root writes there: "
					  "choose a directory only root can change", at[0] ? at : "",
					  (unsigned int)(dir.st_mode & 07777), what);
			else
				lb_seterr(err, len, "%s/ lets uid %u change %s (swap it for a link "
					  "while root writes there): choose a directory only root "
					  "can change", at[0] ? at : "", (unsigned int)who, what);
			goto out;
		}
		snprintf(at + strlen(at), sizeof(at) - strlen(at), "/%s", c);
		if (!S_ISDIR(st.st_mode))
			break;	/* the last component (a link, when checking one) */
		next = openat(fd, c, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 || fstat(next, &dir)) {
			ret = -errno;
			if (next >= 0)
				close(next);
			goto out;
		}
		close(fd);
		fd = next;
	}
out:
	if (fd >= 0)
		close(fd);
	free(copy);
	return ret;
}

/*
 * For root: no one but root (or the sudo user) can change which directory
 * @path names: the directories above it, and those holding each symbolic
 * link met on the way. Returns 0, or -errno with @err.
 */
static int root_path_trusted(const char *path, char *err, size_t len)
{
	char canon[PATH_MAX], parent[PATH_MAX], *prefix = strdup(path);
	struct stat st;
	int ret;

	if (!prefix)
		return -ENOMEM;
	if (!realpath(path, canon)) {
		ret = -errno;
		lb_seterr(err, len, "cannot resolve %s: %s", path, strerror(-ret));
		goto out;
	}
	ret = path_trusted(canon, path, err, len);
	/* Each link on the way: the directory holding it decides where it points. */
	for (size_t i = 1; !ret && prefix[i - 1]; i++) {
		char *slash, save = prefix[i];

		if (save != '/' && save != '\0')
			continue;
		prefix[i] = '\0';
		if (!lstat(prefix, &st) && S_ISLNK(st.st_mode)) {
			slash = strrchr(prefix, '/');
			if (slash == prefix)
				snprintf(parent, sizeof(parent), "/");
			else if (slash)
				snprintf(parent, sizeof(parent), "%.*s", (int)(slash - prefix),
					 prefix);
			else
				snprintf(parent, sizeof(parent), ".");
			if (!realpath(parent, canon)) {
				ret = -errno;
				lb_seterr(err, len, "cannot resolve %s: %s", parent, strerror(-ret));
			} else if (strlen(canon) + strlen(slash ? slash : prefix) + 2 < sizeof(canon)) {
				snprintf(canon + strlen(canon), sizeof(canon) - strlen(canon), "%s%s",
					 strcmp(canon, "/") ? "/" : "", slash ? slash + 1 : prefix);
				ret = path_trusted(canon, path, err, len);
			} else {
				ret = -ENAMETOOLONG;
				lb_seterr(err, len, "%s: %s", path, strerror(-ret));
			}
		}
		prefix[i] = save;
	}
out:
	free(prefix);
	return ret;
}

int lb_wdir_open(const char *path, char *err, size_t len)
{
	char *dir = strdup(path);
	size_t n;
	struct stat st;
	int fd = -1, ret;

	if (!dir) {
		lb_seterr(err, len, "out of memory");
		return -ENOMEM;
	}
	/* O_NOFOLLOW applies to the last component only: "link/" and "link/." would follow. */
	n = strlen(dir);
	for (;;) {
		if (n > 1 && dir[n - 1] == '/')
			n--;
		else if (n > 2 && dir[n - 1] == '.' && dir[n - 2] == '/')
			n -= 2;
		else
			break;
		dir[n] = '\0';
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		if (!lstat(dir, &st) && S_ISLNK(st.st_mode)) {
			ret = -ELOOP;
			lb_seterr(err, len, "%s is a symbolic link, and loadbench does not write "
				  "through one (whoever can change it would choose where the files "
				  "go): give the directory it points to instead", path);
		} else {
			lb_seterr(err, len, "cannot open the directory %s: %s", path,
				  strerror(-ret));
		}
		goto err;
	}
	if (fstat(fd, &st)) {
		ret = -errno;
		lb_seterr(err, len, "cannot open the directory %s: %s", path, strerror(-ret));
		goto err;
	}
	if (st.st_uid != getuid() && st.st_uid != 0 && (st.st_mode & (S_IWGRP | S_IWOTH))) {
		ret = -EPERM;
		lb_seterr(err, len, "%s belongs to uid %u and others may write in it (mode "
			  "%03o), so they could swap the files loadbench writes there: make it "
			  "writable by its owner only (chmod go-w %s) or run loadbench as uid %u",
			  path, (unsigned int)st.st_uid, (unsigned int)(st.st_mode & 07777), path,
			  (unsigned int)st.st_uid);
		goto err;
	}
	if (geteuid() == 0) {
		struct stat named;

		ret = root_path_trusted(dir, err, len);
		if (!ret && (stat(dir, &named) || named.st_dev != st.st_dev ||
			     named.st_ino != st.st_ino)) {
			ret = -EAGAIN;
			lb_seterr(err, len, "%s changed while loadbench opened it: someone is "
				  "moving it; choose a directory only root can change", path);
		}
		if (ret) {
			if (ret == -ENOMEM)
				lb_seterr(err, len, "out of memory");
			goto err;
		}
	}
	free(dir);
	return fd;
err:
	if (fd >= 0)
		close(fd);
	free(dir);
	return ret;
}

int lb_wdir_probe(int dirfd, const char *path, char *err, size_t len)
{
	static const char zeros[4096];
	char name[48];
	uint64_t rnd = 0;
	int fd, ret = 0;

	if (getrandom(&rnd, sizeof(rnd), 0) != sizeof(rnd))
		rnd ^= (uint64_t)getpid() << 20 ^ (uint64_t)time(NULL);
	snprintf(name, sizeof(name), ".loadbench-probe-%016llx", (unsigned long long)rnd);
	fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = -errno;
		lb_seterr(err, len, "cannot write in %s: %s", path, strerror(-ret));
		return ret;
	}
	for (int i = 0; i < 16 && !ret; i++) {
		ssize_t n = write(fd, zeros, sizeof(zeros));

		if (n < 0 && errno != EINTR)
			ret = -errno;
		else if (n >= 0 && n != (ssize_t)sizeof(zeros))
			ret = -ENOSPC;	/* a short write: the file system is full */
	}
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	unlinkat(dirfd, name, 0);
	if (ret)
		lb_seterr(err, len, "cannot write in %s: %s", path, strerror(-ret));
	return ret;
}

int lb_wdir_rmdir(int parentfd, const char *name, int dirfd, const char *const *files)
{
	struct stat ours, named;

	if (fstat(dirfd, &ours) || fstatat(parentfd, name, &named, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (ours.st_dev != named.st_dev || ours.st_ino != named.st_ino)
		return -ESTALE;
	for (size_t i = 0; files && files[i]; i++)
		unlinkat(dirfd, files[i], 0);
	return unlinkat(parentfd, name, AT_REMOVEDIR) ? -errno : 0;
}
