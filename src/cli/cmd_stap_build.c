// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadbench stap-build: the SystemTap modules of probe sets, built with
 * stap -p4 for a kernel build tree, into a directory that
 * LOADBENCH_STAP_MODULES then names (scripts/loadbench-vm builds the
 * catalog's on the host for the VM's kernel). A module already there under
 * its name (the hash of its script) is kept.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic.h"
#include "commands.h"
#include "probeset.h"
#include "stap_script.h"
#include "unavailable.h"
#include "util.h"

/*
 * A kprobe.function probe needs the kernel's symbols when stap builds it:
 * KBUILD/System.map, which Debian ships as a one-line stub (the real one is
 * in linux-image-VERSION-dbg; stap registers kprobes by name, so a copy of
 * the kernel's /proc/kallsyms serves). Returns 0, or -ENOENT with the reason
 * in @err.
 */
static int symbols_check(const char *script, const char *kbuild, char *err, size_t len)
{
	char path[512], line[256], kind[64];
	int lines = 0, fd;
	FILE *f = NULL;

	if (!kbuild || !strstr(script, "kprobe.function("))
		return 0;
	snprintf(path, sizeof(path), "%s/System.map", kbuild);
	/* Not a FIFO: stap-build would wait for a writer for ever. */
	fd = lb_open_regular(path);
	if (fd >= 0 && !(f = fdopen(fd, "r")))
		close(fd);
	while (f && lines < 2 && fgets(line, sizeof(line), f))
		lines++;
	if (f)
		fclose(f);
	if (lines >= 2)
		return 0;
	if (fd == -EINVAL)
		snprintf(kind, sizeof(kind), "not a regular file but %s", lb_file_kind(path));
	lb_unavailable_say(LB_UNAVAIL_KSYMS, err, len, "its kprobe.function probes need the "
			   "kernel's symbols at build time, and %s is %s (Debian's real one is in "
			   "linux-image-RELEASE-dbg; the names of the running kernel's "
			   "/proc/kallsyms do)", path,
			   f ? "a one-line stub" : fd == -EINVAL ? kind : "missing");
	return -ENOENT;
}

/*
 * DIR/NAME.why: why NAME was not built, for the run that looks for it there
 * (its error names it): the message, then the brief of @code (unavailable.h)
 * when it has one, which the run's warning gives. Best effort.
 */
static void why_file(const char *dir, const char *name, const char *why,
		     enum lb_unavailable code)
{
	const char *brief = lb_unavailable_brief(code);
	char path[PATH_MAX], text[1200];

	snprintf(path, sizeof(path), "%s/%s.why", dir, name);
	snprintf(text, sizeof(text), "%s\n%s%s", why, brief ? brief : "", brief ? "\n" : "");
	lb_atomic_write(path, text, strlen(text));
}

/* Builds one probe set's module into @dir unless it is there. Returns 0 or 1. */
static int build_one(const char *spec, const char *catalog, const struct lb_stap_build_opts *o,
		     const char *dir)
{
	char err[1024], name[64], ko[PATH_MAX];
	struct lb_probeset *ps = NULL;
	char *script = NULL;
	int ret;

	ret = lb_probeset_find(spec, catalog, &ps, err, sizeof(err));
	if (!ret && strcmp(ps->tracer, "systemtap")) {
		snprintf(err, sizeof(err), "probe set %s is of tracer %s, not systemtap", ps->name,
			 ps->tracer);
		ret = -EINVAL;
	}
	if (!ret)
		ret = lb_stap_script(ps, &script, err, sizeof(err));
	if (ret) {
		lb_err("%s", err);
		goto out;
	}
	lb_stap_module_name(script, name, sizeof(name));
	snprintf(ko, sizeof(ko), "%s/%s.ko", dir, name);
	if (!access(ko, F_OK)) {
		printf("%s %s (built before)\n", ko, ps->name);
		goto out;
	}
	lb_unavailable_take();	/* the codes of the messages below */
	ret = symbols_check(script, o->kbuild, err, sizeof(err));
	if (ret) {
		lb_err("probe set %s: %s", ps->name, err);
		why_file(dir, name, err, lb_unavailable_take());
		goto out;
	}
	fprintf(stderr, "loadbench: building %s's module %s with stap -p4%s%s\n", ps->name, name,
		o->kbuild ? " -r " : "", o->kbuild ? o->kbuild : "");
	ret = lb_stap_build(script, name, o, dir, err, sizeof(err));
	if (ret) {
		lb_err("%s", err);
		why_file(dir, name, err, lb_unavailable_take());
	} else {
		/* A reason given by an earlier build no longer holds. */
		snprintf(ko, sizeof(ko), "%s/%s.why", dir, name);
		unlink(ko);
		printf("%s/%s.ko %s\n", dir, name, ps->name);
	}
out:
	free(script);
	lb_probeset_free(ps);
	return ret ? 1 : 0;
}

int lb_cmd_stap_build(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "kbuild", required_argument, NULL, 'r' },
		{ "output", required_argument, NULL, 'o' },
		{ "define", required_argument, NULL, 'D' },
		{ "runtime", required_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 },	/* --help is main.c's, from its commands table */
	};
	const char *dir = NULL, *defines[9] = { NULL };
	struct lb_stap_build_opts o = { .defines = defines };
	int ndefines = 0;
	char catalog[PATH_MAX], err[1024];
	char **names = NULL;
	int c, n, failed = 0, built = 0;

	while ((c = getopt_long(argc, argv, "r:R:o:D:", opts, NULL)) != -1) {
		switch (c) {
		case 'D':
			if (ndefines == 8 || !strchr(optarg, '=') ||
			    strspn(optarg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				   "0123456789_=") != strlen(optarg)) {
				lb_err("stap-build: -D takes NAME=VALUE of [A-Za-z0-9_], 8 at most "
				       "('%s')", optarg);
				return 2;
			}
			defines[ndefines++] = optarg;
			break;
		case 'r':
			o.kbuild = optarg;
			break;
		case 'R':
			o.runtime = optarg;
			break;
		case 'o':
			dir = optarg;
			break;
		default:
			fprintf(stderr, "Try 'loadbench stap-build --help'.\n");
			return 2;
		}
	}
	if (!dir) {
		lb_err("stap-build: -o DIR is required (where the modules go)");
		return 2;
	}
	if (o.kbuild && access(o.kbuild, F_OK)) {
		lb_err("stap-build: no kernel build tree %s: give -r the headers' directory "
		       "(/lib/modules/RELEASE/build)", o.kbuild);
		return 2;
	}
	if (o.runtime && access(o.runtime, F_OK)) {
		lb_err("stap-build: no SystemTap runtime %s (-R)", o.runtime);
		return 2;
	}
	n = lb_mkdir_p(dir);
	if (n) {
		lb_err("stap-build: cannot create %s: %s", dir, strerror(-n));
		return 1;
	}
	lb_datadir("probesets", catalog, sizeof(catalog));
	if (optind < argc) {
		for (int i = optind; i < argc; i++)
			failed |= build_one(argv[i], catalog, &o, dir);
		return failed;
	}
	n = lb_catalog_names(catalog, &names);
	if (n < 0) {
		lb_err("cannot read the probe-set catalog %s: %s", catalog, strerror(-n));
		return 1;
	}
	for (int i = 0; i < n; i++) {
		struct lb_probeset *ps = NULL;
		bool stap;

		if (lb_probeset_find(names[i], catalog, &ps, err, sizeof(err)))
			continue;
		stap = !strcmp(ps->tracer, "systemtap");
		lb_probeset_free(ps);
		if (!stap)
			continue;
		failed |= build_one(names[i], catalog, &o, dir);
		built++;
	}
	lb_catalog_names_free(names);
	if (!built) {
		lb_err("stap-build: the catalog %s has no probe set of tracer systemtap", catalog);
		return 1;
	}
	return failed;
}
