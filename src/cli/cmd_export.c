// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * 'loadbench export --format FORMAT [-o FILE] [--force] [--origin NAME]
 * [--build-id ID] [--baseline DIR [--fail-above PP]] DIR': the numbers of a
 * results directory in a format a CI system reads (src/output/export.h), on
 * standard output or into FILE. FILE is written whole or not at all: under a
 * temporary name in its directory, then moved into place; an existing FILE
 * is replaced only with --force, and a symbolic link at FILE never.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "commands.h"
#include "export.h"
#include "gate.h"
#include "options.h"
#include "report.h"
#include "results.h"
#include "util.h"
#include "wdir.h"

/*
 * Move @tmp to @name in @dirfd: replacing what is there with @force, else
 * only when nothing is (RENAME_NOREPLACE; a link(2) where the file system
 * has no such rename). Returns 0 or -errno (-EEXIST: something is there).
 */
static int export_move(int dirfd, const char *tmp, const char *name, bool force)
{
	if (force)
		return renameat(dirfd, tmp, dirfd, name) ? -errno : 0;
	if (!renameat2(dirfd, tmp, dirfd, name, RENAME_NOREPLACE))
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -errno;
	if (linkat(dirfd, tmp, dirfd, name, 0))
		return -errno;
	unlinkat(dirfd, tmp, 0);
	return 0;
}

/*
 * Write the @len bytes at @data to the file @path (-o): refused on a file
 * system of kernel objects, in a directory lb_wdir_open() refuses, over a
 * symbolic link or anything but a regular file, and over a regular file
 * without @force. Returns 0, or -errno after one line saying why.
 */
static int export_write_file(const char *path, const char *data, size_t len, bool force)
{
	char *dcopy = strdup(path), *bcopy = strdup(path), *dir, *base;
	char tmp[64], err[1024], q[LB_STR_SHORT_BUF];
	uint64_t rnd = 0;
	struct stat st;
	int dirfd = -1, ret;

	lb_str_short(path, q, sizeof(q));
	if (!dcopy || !bcopy) {
		lb_err("out of memory");
		ret = -ENOMEM;
		goto out;
	}
	dir = dirname(dcopy);
	base = basename(bcopy);
	if (path[strlen(path) - 1] == '/' || !strcmp(base, ".") || !strcmp(base, "..")) {
		lb_err("-o %s names a directory: give the path of a file (or - for standard "
		       "output)", q);
		ret = -EISDIR;
		goto out;
	}
	ret = lb_wdir_fs_check(dir, err, sizeof(err));
	if (ret) {
		lb_err("-o %s refused: %s", q, err);
		goto out;
	}
	dirfd = lb_wdir_open(dir, err, sizeof(err));
	if (dirfd < 0) {
		ret = dirfd;
		lb_err("-o %s refused: %s", q, err);
		goto out;
	}
	if (!fstatat(dirfd, base, &st, AT_SYMLINK_NOFOLLOW)) {
		ret = -EEXIST;
		if (S_ISLNK(st.st_mode)) {
			ret = -ELOOP;
			lb_err("-o %s is a symbolic link, and loadbench neither writes through one "
			       "nor replaces it (whoever can change it would choose the file): "
			       "remove it, or give another path", q);
		} else if (!S_ISREG(st.st_mode)) {
			lb_err("-o %s is %s, not a file: give the path of a file (or - for "
			       "standard output)", q, S_ISDIR(st.st_mode) ? "a directory" :
			       lb_file_kind(path));
		} else if (!force) {
			lb_err("-o %s exists: give another path, or add --force to replace it", q);
		} else {
			ret = 0;
		}
		if (ret)
			goto out;
	} else if (errno != ENOENT) {
		ret = -errno;
		lb_err("cannot look at %s: %s", q, strerror(-ret));
		goto out;
	}
	/* A name of its own, short whatever FILE's is: lb_atomic_write_at() adds to it. */
	if (getrandom(&rnd, sizeof(rnd), 0) != sizeof(rnd))
		rnd ^= (uint64_t)getpid() << 32 ^ (uint64_t)(uintptr_t)&rnd;
	snprintf(tmp, sizeof(tmp), ".loadbench-export-%016" PRIx64, rnd);
	ret = lb_atomic_write_at(dirfd, tmp, data, len);
	if (ret) {
		lb_err("cannot write %s: %s", q, strerror(-ret));
		goto out;
	}
	ret = export_move(dirfd, tmp, base, force);
	if (ret) {
		unlinkat(dirfd, tmp, 0);
		if (ret == -EEXIST)
			lb_err("-o %s appeared while loadbench wrote it: give another path, or add "
			       "--force to replace it", q);
		else
			lb_err("cannot write %s: %s", q, strerror(-ret));
		goto out;
	}
	lb_atomic_sync_dir(dirfd);
out:
	if (dirfd >= 0)
		close(dirfd);
	free(dcopy);
	free(bcopy);
	return ret;
}

/*
 * The gate of @res against the results directory @base_dir at @fail_above,
 * into @g: refused when the two were not measured alike, unless @force.
 * Returns 0, or -errno after one line saying why.
 */
static int export_gate(const char *base_dir, const char *dir, const struct lb_results *res,
		       double fail_above, bool force, struct lb_results **base, struct lb_gate *g)
{
	char why[1024], q[LB_STR_SHORT_BUF], q2[LB_STR_SHORT_BUF];
	int ret;

	ret = lb_report_read(base_dir, base);
	if (ret)
		return ret;
	if (lb_gate_mismatch(*base, res, why, sizeof(why))) {
		lb_str_short(base_dir, q, sizeof(q));
		lb_str_short(dir, q2, sizeof(q2));
		if (!force) {
			lb_err("%s and %s were not measured alike (%s): their slowdowns do not "
			       "compare; add --force to gate them anyway", q, q2, why);
			return -EINVAL;
		}
		lb_warn("%s and %s were not measured alike (%s): gated as asked (--force)", q, q2,
			why);
	}
	ret = lb_gate_compare(*base, res, fail_above, g);
	if (ret)
		lb_err("%s", ret == -ENOMEM ? "out of memory" : strerror(-ret));
	return ret;
}

/* What lb_export_print() returned, in one line. */
static void export_say(int ret, const char *dir, enum lb_export_format fmt)
{
	char q[LB_STR_SHORT_BUF];

	lb_str_short(dir, q, sizeof(q));
	if (ret == -ENODATA)
		lb_err("%s has no probe set measured in a complete run: %s keeps complete "
		       "measurements only (an interrupted or failed run has none): export a "
		       "complete run", q, lb_export_format_name(fmt));
	else if (ret == -ENOMEM)
		lb_err("out of memory");
	else
		lb_err("cannot export %s as %s: %s", q, lb_export_format_name(fmt), strerror(-ret));
}

int lb_cmd_export(int argc, char **argv)
{
	/* --help is main.c's, from its commands table. */
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'F' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "fail-above", required_argument, NULL, 'a' },
		{ "origin", required_argument, NULL, 'O' },
		{ "build-id", required_argument, NULL, 'B' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *baseline = NULL, *origin = NULL, *build_id = NULL, *dir;
	struct lb_results *res = NULL, *base = NULL;
	enum lb_export_format fmt = LB_EXPORT_KCIDB;
	double fail_above = LB_GATE_FAIL_ABOVE;
	bool have_fmt = false, force = false, fail_above_given = false, gated = false;
	char q[LB_STR_SHORT_BUF], *data = NULL;
	struct lb_gate g;
	size_t len = 0;
	int opt, ret, status = 1;
	FILE *f;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "f:o:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (lb_export_format_parse(optarg, &fmt)) {
				lb_err("--format '%s': expected kcidb, benchmark-action, lava "
				       "or junit", lb_str_short(optarg, q, sizeof(q)));
				return 2;
			}
			have_fmt = true;
			break;
		case 'o':
			out = optarg;
			break;
		case 'F':
			force = true;
			break;
		case 'b':
			baseline = optarg;
			break;
		case 'a':
			if (lb_options_double("fail-above", optarg, 0.01, 100, &fail_above))
				return 2;
			fail_above_given = true;
			break;
		case 'O':
			if (!lb_export_origin_valid(optarg)) {
				lb_err("--origin '%s': expected a KCIDB origin, lowercase letters, "
				       "digits and _ (your CI system's name in KCIDB)",
				       lb_str_short(optarg, q, sizeof(q)));
				return 2;
			}
			origin = optarg;
			break;
		case 'B':
			build_id = optarg;
			break;
		default:
			fprintf(stderr, "Try 'loadbench export --help'.\n");
			return 2;
		}
	}
	if (!have_fmt) {
		lb_err("export needs --format kcidb, benchmark-action, lava or junit: loadbench "
		       "export --format FORMAT DIR");
		return 2;
	}
	if (fail_above_given && !baseline) {
		lb_err("--fail-above is the gate's, against a baseline: add --baseline DIR, or "
		       "drop --fail-above");
		return 2;
	}
	if (baseline && fmt != LB_EXPORT_JUNIT) {
		lb_err("--baseline is for --format junit (its verdicts are the failures): drop "
		       "--baseline, or use 'loadbench compare --baseline' for the gate");
		return 2;
	}
	if ((origin || build_id) && fmt != LB_EXPORT_KCIDB) {
		lb_err("%s is for --format kcidb: drop it", origin ? "--origin" : "--build-id");
		return 2;
	}
	if (build_id && !lb_export_id_valid(build_id)) {
		lb_err("--build-id '%s': expected a KCIDB build id, ORIGIN:ID with ORIGIN "
		       "lowercase letters, digits and _, and no control characters",
		       lb_str_short(build_id, q, sizeof(q)));
		return 2;
	}
	if (out && !*out) {
		lb_err("-o is an empty path: give a file's path, or - for standard output");
		return 2;
	}
	if (force && (!out || !strcmp(out, "-")) && !baseline) {
		lb_err("--force replaces an existing -o FILE: add -o FILE, or drop --force");
		return 2;
	}
	if (argc - optind != 1) {
		lb_err("usage: loadbench export --format FORMAT [-o FILE] DIR (one results "
		       "directory; see loadbench export --help)");
		return 2;
	}
	dir = argv[optind];

	if (lb_report_read(dir, &res))
		goto out;
	if (baseline) {
		if (export_gate(baseline, dir, res, fail_above, force, &base, &g))
			goto out;
		gated = true;
	}
	f = open_memstream(&data, &len);
	if (!f) {
		lb_err("out of memory");
		goto out;
	}
	ret = lb_export_print(res, fmt, origin, build_id, gated ? &g : NULL, f);
	if (fclose(f) && !ret)
		ret = -ENOMEM;
	if (ret) {
		export_say(ret, dir, fmt);
		goto out;
	}
	if (!out || !strcmp(out, "-")) {
		if (fwrite(data, 1, len, stdout) != len || fflush(stdout)) {
			lb_err("cannot write to standard output: %s",
			       strerror(errno ? errno : EIO));
			goto out;
		}
	} else if (export_write_file(out, data, len, force)) {
		goto out;
	}
	status = 0;
out:
	if (gated)
		lb_gate_release(&g);
	lb_results_free(base);
	lb_results_free(res);
	free(data);
	return status;
}
