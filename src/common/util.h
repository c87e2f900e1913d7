/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Small helpers shared by loadbench's parts: messages, data directories,
 * time.
 */
#ifndef LB_UTIL_H
#define LB_UTIL_H

#include <stdbool.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* lb_err - print "loadbench: error: MESSAGE" on stderr (one line). */
void lb_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* lb_warn - print "loadbench: warning: MESSAGE" on stderr (one line). */
void lb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * lb_datadir - the directory holding loadbench's data subdirectory @sub
 * ("probesets" or "plots"): $LOADBENCH_DATADIR/@sub when set; PREFIX/share/
 * loadbench/@sub when the binary is PREFIX/bin/loadbench; the source tree's
 * @sub for a binary in the build tree; else the configured pkgdatadir.
 * Writes it to @buf and returns @buf.
 */
const char *lb_datadir(const char *sub, char *buf, size_t len);

/* lb_now - CLOCK_MONOTONIC in seconds. */
double lb_now(void);

/*
 * lb_sleep_until - sleep until monotonic time @t or until *@stop becomes
 * true (a signal interrupts the sleep). Returns true when @t was reached.
 */
bool lb_sleep_until(double t, volatile const int *stop);

/*
 * lb_mkdir_p - create @path and its parents (mode 0755). Returns 0 (also
 * when it exists as a directory) or -errno.
 */
int lb_mkdir_p(const char *path);

/* lb_dir_is_empty - 1 when @path is an empty directory, 0 when not empty, -errno on error. */
int lb_dir_is_empty(const char *path);

/*
 * lb_open_regular - open @path to read it (close-on-exec, never as a
 * controlling terminal) when it is a regular file. A FIFO or a device is
 * opened without blocking and refused: open() and read() of a FIFO nobody
 * writes to would wait for ever, signals notwithstanding. Returns the
 * descriptor (blocking again), or -errno: -EISDIR for a directory, -EINVAL
 * for any other file that is not a regular one (lb_file_kind() names it),
 * or open's error.
 */
int lb_open_regular(const char *path);

/*
 * lb_file_kind - what @path is, for the message that refuses it: "a FIFO",
 * "a character device", "a block device", "a socket", "a directory", "a
 * regular file", or "gone" when it cannot be looked at.
 */
const char *lb_file_kind(const char *path);

/*
 * lb_read_small - read a small file (a /proc file: its first @len - 1
 * bytes) at @path, relative to @dirfd (AT_FDCWD: as open), into @buf,
 * NUL-terminated. Returns the bytes read, 0 for an empty file, or -errno.
 */
ssize_t lb_read_small(int dirfd, const char *path, char *buf, size_t len);

/*
 * lb_read_file - read all of @path (at most @max bytes) into a malloc'd,
 * NUL-terminated *@buf; *@lenp (if not NULL) gets the byte count, which
 * counts any NUL bytes in the file. Opened with lb_open_regular(). Returns 0
 * or -errno: -EFBIG over @max, -EISDIR for a directory, -EINVAL for a FIFO,
 * a device or a socket, -ENOMEM, or open/read's error.
 */
int lb_read_file(const char *path, size_t max, char **buf, size_t *lenp);

/*
 * lb_proc_tids - the threads of process @pid (/proc/PID/task) into @tids.
 * Returns how many (at most @max; -E2BIG when there are more), or -errno.
 */
int lb_proc_tids(pid_t pid, pid_t *tids, int max);

/* lb_edit_distance - Levenshtein distance of two names (each cut at 63 bytes), for "similar:". */
int lb_edit_distance(const char *a, const char *b);

/*
 * Strings from a results.json are someone else's: printed raw, an escape
 * sequence in a probe-set name could retitle, clear or reprogram the
 * terminal of whoever reads the report. These tell such characters apart
 * and print them as text.
 *
 * lb_str_char - the length in bytes of the character at @s (0 at its end),
 * and in *@unsafe whether a terminal could act on it: a C0 control (tab and
 * newline included), DEL, a C1 control (U+0080 to U+009F), a bidirectional
 * control (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069: a
 * RIGHT-TO-LEFT OVERRIDE shows the text after it backwards), or a byte that
 * does not start a well-formed UTF-8 character (8-bit C1 controls among
 * them; its length is then 1). Other UTF-8 is safe.
 */
size_t lb_str_char(const char *s, bool *unsafe);

/*
 * lb_str_put_safe - write @s on @f with each byte of an unsafe character
 * (lb_str_char()) as \xNN and a backslash as \\, so that what is shown is
 * exactly what the string holds; NULL writes nothing.
 */
void lb_str_put_safe(FILE *f, const char *s);

/* lb_str_or - @s, or @dflt when @s is NULL or empty ("?", "-", "unknown"). Returns one of them. */
static inline const char *lb_str_or(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

/* lb_str_safe_len - the number of bytes lb_str_put_safe() writes for @s. */
size_t lb_str_safe_len(const char *s);

/*
 * lb_str_safe - @s as lb_str_put_safe() writes it, in @buf, cut at a
 * character when it does not fit (for messages). Returns @buf.
 */
const char *lb_str_safe(const char *s, char *buf, size_t len);

/* The most bytes of a user's string lb_str_short() quotes, and a buffer that holds its result. */
#define LB_STR_SHORT 80
#define LB_STR_SHORT_BUF (LB_STR_SHORT + 32)

/*
 * lb_str_short - @s as lb_str_safe() writes it, for a message that quotes
 * what a user gave (an argument, a path): when that is longer than
 * LB_STR_SHORT bytes, its start, "..." and its length ("aaaa... (3000
 * bytes)"), so that the reason and the fix after it are never what a
 * message buffer cuts. @len: LB_STR_SHORT_BUF or more to get all of that.
 * Returns @buf.
 */
const char *lb_str_short(const char *s, char *buf, size_t len);

/* lb_seterr - format a message into @err (nothing when @err is NULL or @errlen 0). */
void lb_seterr(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * lb_cpus_format - the CPUs in @set (@setsize bytes, as CPU_ALLOC_SIZE) as
 * "0-3,6", or "none", into @buf. Returns @buf.
 */
const char *lb_cpus_format(const cpu_set_t *set, size_t setsize, char *buf, size_t len);

#endif
