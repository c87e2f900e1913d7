// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "util.h"

static void lb_vmsg(const char *what, const char *fmt, va_list ap)
{
	fprintf(stderr, "loadbench: %s: ", what);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void lb_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lb_vmsg("error", fmt, ap);
	va_end(ap);
}

void lb_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lb_vmsg("warning", fmt, ap);
	va_end(ap);
}

int lb_edit_distance(const char *a, const char *b)
{
	int la = (int)strnlen(a, 63), lb = (int)strnlen(b, 63);
	int row[64];

	for (int j = 0; j <= lb; j++)
		row[j] = j;
	for (int i = 1; i <= la; i++) {
		int diag = row[0];

		row[0] = i;
		for (int j = 1; j <= lb; j++) {
			int up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

size_t lb_str_char(const char *s, bool *unsafe)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	*unsafe = false;
	if (!u[0])
		return 0;
	if (u[0] < 0x80) {
		*unsafe = u[0] < 0x20 || u[0] == 0x7f;
		return 1;
	}
	/* Well-formed UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing past U+10FFFF. */
	if (u[0] >= 0xc2 && u[0] <= 0xdf)
		n = 2;
	else if (u[0] >= 0xe0 && u[0] <= 0xef)
		n = 3;
	else if (u[0] >= 0xf0 && u[0] <= 0xf4)
		n = 4;
	else
		n = 0;
	if (u[0] == 0xe0)
		lo = 0xa0;
	else if (u[0] == 0xed)
		hi = 0x9f;
	else if (u[0] == 0xf0)
		lo = 0x90;
	else if (u[0] == 0xf4)
		hi = 0x8f;
	for (i = 1; i < n; i++) {
		if (u[i] < (i == 1 ? lo : 0x80) || u[i] > (i == 1 ? hi : 0xbf)) {
			n = 0;
			break;
		}
	}
	if (!n) {
		*unsafe = true;
		return 1;
	}
	/* U+0080 to U+009F: the C1 controls, CSI (U+009B) among them. */
	*unsafe = u[0] == 0xc2 && u[1] <= 0x9f;
	/* The bidirectional controls U+061C, U+200E-F, U+202A-E, U+2066-9: they reorder text. */
	*unsafe |= (u[0] == 0xd8 && u[1] == 0x9c) ||
		   (u[0] == 0xe2 && u[1] == 0x80 && (u[2] == 0x8e || u[2] == 0x8f ||
						     (u[2] >= 0xaa && u[2] <= 0xae))) ||
		   (u[0] == 0xe2 && u[1] == 0x81 && u[2] >= 0xa6 && u[2] <= 0xa9);
	return n;
}

/*
 * What lb_str_put_safe() writes for the character at @s, in @out (NUL-terminated):
 * "\xNN" per byte of an unsafe one (a bidirectional control has 3) is 16 bytes at most.
 * Returns the bytes of @s it took.
 */
static size_t lb_str_safe_next(const char *s, char out[17])
{
	bool unsafe;
	size_t n = lb_str_char(s, &unsafe), i;

	if (unsafe) {
		for (i = 0; i < n; i++)
			snprintf(out + 4 * i, 5, "\\x%02x", (unsigned char)s[i]);
	} else if (*s == '\\') {
		strcpy(out, "\\\\");
	} else {
		memcpy(out, s, n);
		out[n] = '\0';
	}
	return n;
}

void lb_str_put_safe(FILE *f, const char *s)
{
	char out[17];

	while (s && *s) {
		s += lb_str_safe_next(s, out);
		fputs(out, f);
	}
}

size_t lb_str_safe_len(const char *s)
{
	size_t len = 0;
	char out[17];

	while (s && *s) {
		s += lb_str_safe_next(s, out);
		len += strlen(out);
	}
	return len;
}

const char *lb_str_safe(const char *s, char *buf, size_t len)
{
	size_t used = 0, n;
	char out[17];

	if (!len)
		return buf;
	buf[0] = '\0';
	while (s && *s) {
		s += lb_str_safe_next(s, out);
		n = strlen(out);
		if (used + n >= len)
			break;
		memcpy(buf + used, out, n + 1);
		used += n;
	}
	return buf;
}

const char *lb_str_short(const char *s, char *buf, size_t len)
{
	size_t used = 0, keep, n;
	char out[17], tail[40];

	if (lb_str_safe_len(s) <= LB_STR_SHORT)
		return lb_str_safe(s, buf, len);
	n = (size_t)snprintf(tail, sizeof(tail), "... (%zu bytes)", strlen(s));
	if (len <= n + 1)
		return lb_str_safe(s, buf, len);
	keep = LB_STR_SHORT - n < len - n - 1 ? LB_STR_SHORT - n : len - n - 1;
	while (*s) {
		s += lb_str_safe_next(s, out);
		n = strlen(out);
		if (used + n > keep)
			break;
		memcpy(buf + used, out, n);
		used += n;
	}
	memcpy(buf + used, tail, strlen(tail) + 1);
	return buf;
}

void lb_seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *lb_datadir(const char *sub, char *buf, size_t len)
{
	const char *env = getenv("LOADBENCH_DATADIR");
	char exe[PATH_MAX], *slash;
	ssize_t n;

	if (env && *env) {
		snprintf(buf, len, "%s/%s", env, sub);
		return buf;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			/*
			 * Installed as PREFIX/bin/loadbench: use PREFIX/share/loadbench,
			 * found relative to the binary so that a DESTDIR staging or a
			 * moved prefix still finds its own data.
			 */
			slash = strrchr(exe, '/');
			if (slash && !strcmp(slash, "/bin")) {
				snprintf(buf, len, "%.*s/share/%s/%s", (int)(slash - exe), exe,
					 PACKAGE, sub);
				if (is_dir(buf))
					return buf;
			}
		}
	}
	/* A binary elsewhere (the build tree) uses the source tree's data. */
	snprintf(buf, len, "%s/%s", LB_SRCDIR, sub);
	if (is_dir(buf))
		return buf;
	snprintf(buf, len, "%s/%s", LB_PKGDATADIR, sub);
	return buf;
}

double lb_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

bool lb_sleep_until(double t, volatile const int *stop)
{
	struct timespec ts;

	/*
	 * In slices of at most 50 ms: a signal that lands between the test of
	 * *@stop and the sleep would otherwise go unseen until @t.
	 */
	while (!(stop && *stop)) {
		double until = lb_now() + 0.05;
		int ret;

		if (until > t)
			until = t;
		ts.tv_sec = (time_t)until;
		ts.tv_nsec = (long)((until - (double)ts.tv_sec) * 1e9);
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		ret = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		if (ret && ret != EINTR)
			return lb_now() >= t;
		if (!ret && until >= t)
			return true;
	}
	return false;
}

int lb_mkdir_p(const char *path)
{
	char tmp[PATH_MAX];
	size_t len = strlen(path);
	char *p;

	if (len == 0 || len >= sizeof(tmp))
		return -ENAMETOOLONG;
	memcpy(tmp, path, len + 1);
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0755) && errno != EEXIST)
		return -errno;
	return is_dir(tmp) ? 0 : -ENOTDIR;
}

int lb_dir_is_empty(const char *path)
{
	struct dirent *de;
	int empty = 1;
	DIR *d;

	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			empty = 0;
			break;
		}
	}
	closedir(d);
	return empty;
}

int lb_open_regular(const char *path)
{
	struct stat st;
	int fd, flags, ret;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		goto out;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
		ret = -errno;
		goto out;
	}
	return fd;
out:
	close(fd);
	return ret;
}

const char *lb_file_kind(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return "gone";
	if (S_ISFIFO(st.st_mode))
		return "a FIFO";
	if (S_ISCHR(st.st_mode))
		return "a character device";
	if (S_ISBLK(st.st_mode))
		return "a block device";
	if (S_ISSOCK(st.st_mode))
		return "a socket";
	if (S_ISDIR(st.st_mode))
		return "a directory";
	return "a regular file";
}

ssize_t lb_read_small(int dirfd, const char *path, char *buf, size_t len)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (!len)
		return -EINVAL;
	buf[0] = '\0';
	if (fd < 0)
		return -errno;
	r = read(fd, buf, len - 1);
	if (r < 0)
		r = -errno;
	close(fd);
	if (r >= 0)
		buf[r] = '\0';
	return r;
}

int lb_read_file(const char *path, size_t max, char **buf, size_t *lenp)
{
	size_t len = 0, cap;
	char *data = NULL, *p;
	int fd, ret;
	ssize_t n;

	*buf = NULL;
	fd = lb_open_regular(path);
	if (fd < 0)
		return fd;
	/* Read up to one byte past @max to tell "at the limit" from "over it". */
	cap = max < 4096 ? max + 1 : 4096;
	data = malloc(cap + 1);
	if (!data) {
		ret = -ENOMEM;
		goto out;
	}
	for (;;) {
		if (len == cap) {
			if (cap == max + 1)
				break;
			cap = cap > (max + 1) / 2 ? max + 1 : cap * 2;
			p = realloc(data, cap + 1);
			if (!p) {
				ret = -ENOMEM;
				goto out;
			}
			data = p;
		}
		n = read(fd, data + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (len > max) {
		ret = -EFBIG;
		goto out;
	}
	data[len] = '\0';
	*buf = data;
	if (lenp)
		*lenp = len;
	data = NULL;
	ret = 0;
out:
	free(data);
	close(fd);
	return ret;
}

int lb_proc_tids(pid_t pid, pid_t *tids, int max)
{
	struct dirent *de;
	char dir[64];
	int n = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		pid_t tid = (pid_t)atoi(de->d_name);

		if (tid <= 0)
			continue;
		if (n == max) {
			n = -E2BIG;
			break;
		}
		tids[n++] = tid;
	}
	closedir(d);
	return n;
}

const char *lb_cpus_format(const cpu_set_t *set, size_t setsize, char *buf, size_t len)
{
	int ncpu = (int)(setsize * 8), cpu, first = -1;
	size_t off = 0;

	buf[0] = '\0';
	for (cpu = 0; cpu <= ncpu; cpu++) {
		bool in = cpu < ncpu && CPU_ISSET_S(cpu, setsize, set);

		if (in && first < 0)
			first = cpu;
		if (in || first < 0)
			continue;
		if (off < len)
			off += snprintf(buf + off, len - off, "%s%d", off ? "," : "", first);
		if (cpu - 1 > first && off < len)
			off += snprintf(buf + off, len - off, "-%d", cpu - 1);
		first = -1;
	}
	if (!buf[0])
		snprintf(buf, len, "none");
	return buf;
}
