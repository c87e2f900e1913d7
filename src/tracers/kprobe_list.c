// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * debugfs kprobes/list: read (in a private mount namespace when debugfs is
 * not mounted) and matched against a probe set's kprobes.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kprobe_list.h"
#include "util.h"

#define LB_KPROBE_LIST_MAX (4u << 20)	/* ~60 bytes a kprobe: 70,000 of them */
#define LB_DEBUGFS_DEFAULT "/sys/kernel/debug"
/* An IBT kernel's entry kprobe sits past endbr64 (4 bytes); nothing else moves it. */
#define LB_ENTRY_SLACK 4

const char *lb_kprobe_seen_name(enum lb_kprobe_seen s)
{
	switch (s) {
	case LB_SEEN_BREAKPOINT:
		return "breakpoint";
	case LB_SEEN_FTRACE:
		return "ftrace";
	case LB_SEEN_OPTIMIZED:
		return "optimized";
	case LB_SEEN_DISABLED:
		return "disabled";
	default:
		return "unknown";
	}
}

/* Where debugfs is mounted (the first), into @dir; false when nowhere. */
static bool debugfs_mounted(char *dir, size_t len)
{
	FILE *f = setmntent("/proc/self/mounts", "re");
	struct mntent *m;
	bool found = false;

	if (!f)
		return false;
	while (!found && (m = getmntent(f))) {
		if (!strcmp(m->mnt_type, "debugfs")) {
			snprintf(dir, len, "%s", m->mnt_dir);
			found = true;
		}
	}
	endmntent(f);
	return found;
}

/*
 * In a child: a mount namespace of its own (mounts private, so nothing
 * propagates back), debugfs mounted on its usual place there, the list
 * copied to @out. Returns the child's exit status: 0, or an errno.
 */
static int private_read(int out)
{
	char buf[8192];
	ssize_t n;
	int fd;

	if (unshare(CLONE_NEWNS))
		return errno;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return errno;
	if (mount("debugfs", LB_DEBUGFS_DEFAULT, "debugfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  NULL))
		return errno;
	fd = open(LB_DEBUGFS_DEFAULT "/kprobes/list", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(out, buf + off, (size_t)(n - off));

			if (w <= 0)
				return EPIPE;
			off += w;
		}
	}
	return n < 0 ? errno : 0;
}

/* kprobes/list read by a child in a mount namespace of its own. */
static int read_private(char **text, char *err, size_t len)
{
	size_t used = 0, cap = 65536;
	char *buf = malloc(cap);
	int fds[2], status, ret = 0;
	pid_t pid;

	if (!buf)
		return -ENOMEM;
	if (pipe2(fds, O_CLOEXEC)) {
		free(buf);
		return -errno;
	}
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		close(fds[0]);
		close(fds[1]);
		goto out;
	}
	if (!pid) {
		close(fds[0]);
		_exit(private_read(fds[1]));
	}
	close(fds[1]);
	for (;;) {
		ssize_t n;

		if (used + 1 >= cap) {
			char *grown = cap < LB_KPROBE_LIST_MAX ? realloc(buf, cap * 2) : NULL;

			if (!grown) {
				ret = cap < LB_KPROBE_LIST_MAX ? -ENOMEM : -EFBIG;
				break;
			}
			buf = grown;
			cap *= 2;
		}
		n = read(fds[0], buf + used, cap - used - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		used += (size_t)n;
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!ret && (!WIFEXITED(status) || WEXITSTATUS(status)))
		ret = WIFEXITED(status) ? -WEXITSTATUS(status) : -EIO;
	if (ret)
		snprintf(err, len, "debugfs is not mounted, and mounting it in a private mount "
			 "namespace to read kprobes/list failed: %s", strerror(-ret));
out:
	if (ret) {
		free(buf);
		return ret;
	}
	buf[used] = '\0';
	*text = buf;
	return 0;
}

int lb_kprobe_list_read(char **text, const char **source, char *err, size_t len)
{
	char dir[4096], path[4200];
	size_t n;
	int ret;

	*text = NULL;
	if (!debugfs_mounted(dir, sizeof(dir))) {
		*source = "debugfs, private mount";
		return read_private(text, err, len);
	}
	*source = "debugfs";
	snprintf(path, sizeof(path), "%s/kprobes/list", dir);
	ret = lb_read_file(path, LB_KPROBE_LIST_MAX, text, &n);
	if (ret)
		snprintf(err, len, "cannot read %s: %s%s", path, strerror(-ret),
			 ret == -ENOENT ? " (a kernel without kprobes)" : "");
	return ret;
}

enum lb_kprobe_seen lb_kprobe_list_find(const char *text, const char *symbol,
					unsigned long offset, bool ret)
{
	enum lb_kprobe_seen near = LB_SEEN_UNKNOWN;
	size_t slen = strlen(symbol);

	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n'), *p = line;
		char type, flags[128] = "";
		unsigned long off;
		size_t llen = end ? (size_t)(end - line) : strlen(line);
		int used = 0;

		/* ADDRESS  TYPE  SYMBOL+0xOFFSET  [MODULE] [FLAGS] */
		while (p < line + llen && *p != ' ')
			p++;
		while (p < line + llen && *p == ' ')
			p++;
		type = p < line + llen ? *p++ : 0;
		while (p < line + llen && *p == ' ')
			p++;
		if ((type == 'r') == ret && (type == 'k' || type == 'r') &&
		    (size_t)(line + llen - p) > slen + 3 && !strncmp(p, symbol, slen) &&
		    !strncmp(p + slen, "+0x", 3) &&
		    sscanf(p + slen + 3, "%lx%n", &off, &used) == 1) {
			const char *f = memchr(p, '[', llen - (size_t)(p - line));
			enum lb_kprobe_seen seen;

			if (f)
				snprintf(flags, sizeof(flags), "%.*s", (int)(line + llen - f), f);
			if (strstr(flags, "[DISABLED]") || strstr(flags, "[GONE]"))
				seen = LB_SEEN_DISABLED;
			else if (strstr(flags, "[FTRACE]"))
				seen = LB_SEEN_FTRACE;
			else if (strstr(flags, "[OPTIMIZED]"))
				seen = LB_SEEN_OPTIMIZED;
			else
				seen = LB_SEEN_BREAKPOINT;
			if (off == offset)
				return seen;
			if (!offset && off <= LB_ENTRY_SLACK && near == LB_SEEN_UNKNOWN)
				near = seen;
		}
		line = end ? end + 1 : NULL;
	}
	return near;
}

size_t lb_kprobe_list_entries(const char *text, const char *symbol, char *buf, size_t len)
{
	size_t slen = strlen(symbol), used = 0, n = 0;

	if (len)
		buf[0] = '\0';
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n'), *p;
		size_t llen = end ? (size_t)(end - line) : strlen(line);

		/* "SYMBOL+0x" after the address and the type, as lb_kprobe_list_find() reads it. */
		for (p = line; p + slen + 3 <= line + llen; p++) {
			if (p > line && p[-1] == ' ' && !strncmp(p, symbol, slen) &&
			    !strncmp(p + slen, "+0x", 3))
				break;
		}
		if (p + slen + 3 <= line + llen && used + 2 < len) {
			const char *q = p, *e = line + llen;

			while (q > line && q[-1] == ' ')
				q--;
			while (e > p && (e[-1] == ' ' || e[-1] == '\r'))
				e--;
			/* "k schedule+0x0 [FTRACE]": the type, the place, the flags. */
			used += (size_t)snprintf(buf + used, len - used, "%s%c %.*s", n ? "; " : "",
						 q > line ? q[-1] : '?', (int)(e - p), p);
			if (used >= len)
				used = len - 1;
			n++;
		}
		line = end ? end + 1 : NULL;
	}
	/* Runs of blanks in the kernel's columns, one space each. */
	for (size_t i = 0, j = 0; len && i <= used; i++)
		if (!(buf[i] == ' ' && j && buf[j - 1] == ' '))
			buf[j++] = buf[i];
	return n;
}
