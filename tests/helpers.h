/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Test helpers, as in liburing's test/helpers.h: every test program exits
 * with one of these codes; automake reads 77 as a skip and 99 as a hard error.
 */
#ifndef LB_TEST_HELPERS_H
#define LB_TEST_HELPERS_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <sys/types.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define T_EXIT_PASS 0
#define T_EXIT_FAIL 1
#define T_EXIT_SKIP 77
#define T_EXIT_ERROR 99

/* Counts failed checks; a test returns t_exit() at the end. */
static int t_failures;

#define T_CHECK(cond)                                                                   \
	do {                                                                            \
		if (!(cond)) {                                                          \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			t_failures++;                                                   \
		}                                                                       \
	} while (0)

#define T_CHECK_NEAR(a, b, eps)                                                         \
	do {                                                                            \
		double _a = (a), _b = (b);                                              \
		if (!(fabs(_a - _b) <= (eps))) {                                        \
			fprintf(stderr, "%s:%d: %s = %.10g, expected %.10g (+-%g)\n",     \
				__FILE__, __LINE__, #a, _a, _b, (double)(eps));          \
			t_failures++;                                                   \
		}                                                                       \
	} while (0)

#define T_CHECK_STR(a, b)                                                               \
	do {                                                                            \
		const char *_a = (a), *_b = (b);                                        \
		if (!_a || !_b || strcmp(_a, _b)) {                                     \
			fprintf(stderr, "%s:%d: %s = \"%s\", expected \"%s\"\n", __FILE__,  \
				__LINE__, #a, _a ? _a : "(null)", _b ? _b : "(null)");      \
			t_failures++;                                                   \
		}                                                                       \
	} while (0)

/* t_read_all - the whole file, NUL-terminated, malloc'd (NULL on error); *@lenp = size. */
static inline char *t_read_all(const char *path, size_t *lenp)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0;
	long size;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)size + 1);
		if (buf) {
			len = fread(buf, 1, (size_t)size, f);
			buf[len] = '\0';
		}
	}
	fclose(f);
	if (lenp)
		*lenp = len;
	return buf;
}

/* t_remove_dir - remove @dir and the files in it (tests make flat temporary directories). */
static inline void t_remove_dir(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	char path[4096];

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (unlink(path))
			fprintf(stderr, "cannot remove %s: %s\n", path, strerror(errno));
	}
	closedir(d);
	if (rmdir(dir))
		fprintf(stderr, "cannot remove %s: %s\n", dir, strerror(errno));
}

static inline int t_exit(void)
{
	if (t_failures) {
		fprintf(stderr, "%d check(s) failed\n", t_failures);
		return T_EXIT_FAIL;
	}
	return T_EXIT_PASS;
}

/* t_tracer_pid - the "TracerPid:" of @pid, -1 when unreadable. */
static inline int t_tracer_pid(pid_t pid)
{
	char path[64], line[256];
	int tracer = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "TracerPid: %d", &tracer) == 1)
			break;
	fclose(f);
	return tracer;
}

#ifdef LB_PLOT_H
/*
 * With plot.h included first: the figures as loadbench makes them in @dir
 * (templates in @tdir): lb_plot_open(), lb_plot_write() of @res, or with
 * @n > 0 lb_plot_write_compare() of the @n results @cmp labelled @labels
 * with @common, then lb_plot_render() when @render, lb_plot_close().
 * Returns the first error, its message in @err.
 */
static inline int t_figures(const struct lb_results *res, const struct lb_results *const *cmp,
			    const char *const *labels, size_t n, const char *common,
			    const char *dir, const char *tdir, int render, char *err,
			    size_t errlen)
{
	struct lb_plot *plot;
	int ret, cret;

	ret = lb_plot_open(dir, &plot, err, errlen);
	if (ret)
		return ret;
	if (n)
		ret = lb_plot_write_compare(plot, cmp, labels, n, common, tdir, err, errlen);
	else
		ret = lb_plot_write(plot, res, tdir, err, errlen);
	if (!ret && render)
		ret = lb_plot_render(plot, err, errlen);
	cret = lb_plot_close(plot, ret ? NULL : err, ret ? 0 : errlen);
	return ret ? ret : cret;
}

/* t_plot_write - t_figures() of @res, not rendered. */
static inline int t_plot_write(const struct lb_results *res, const char *dir, const char *tdir,
			       char *err, size_t errlen)
{
	return t_figures(res, NULL, NULL, 0, NULL, dir, tdir, 0, err, errlen);
}
#endif

#endif
