// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The SystemTap scripts loadbench makes from probe sets (no root, no stap):
 *  - the catalog's four systemtap sets give the probe points their files
 *    name, one counting handler, the ready
 *    line and the procfs files; the pid-scoped one its map, fork probe and
 *    pids file, the others none of that;
 *  - module names: the prefix and 16 hex digits, the same for the same
 *    script, different for another, short enough for staprun -R's suffix;
 *  - refusals: a kprobe at an offset, a uprobe, an LTTng-style tracepoint
 *    name, a probe set name that could end the script's comment line;
 *  - lb_stap_module_check refuses a module others may write.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "probeset.h"
#include "stap_script.h"

static const char *catalog = LB_SRCDIR "/probesets";

/* How many times @needle occurs in @hay. */
static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* The script of catalog set @name (NULL on failure, reported). */
static char *catalog_script(const char *name)
{
	struct lb_probeset *ps = NULL;
	char err[1024], *script = NULL;

	if (lb_probeset_find(name, catalog, &ps, err, sizeof(err)) ||
	    lb_stap_script(ps, &script, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", name, err);
		t_failures++;
	}
	lb_probeset_free(ps);
	return script;
}

/* lb_stap_script() of @text (parsed as @path): its return, the script freed. */
static int script_of(const char *text, const char *path, char *err, size_t len)
{
	struct lb_probeset *ps = NULL;
	char *script = NULL;
	int ret = lb_probeset_parse(text, path, &ps, err, len);

	if (ret) {
		fprintf(stderr, "parse %s: %s\n", path, err);
		return 1000;
	}
	ret = lb_stap_script(ps, &script, err, len);
	free(script);
	lb_probeset_free(ps);
	return ret;
}

/*
 * A parsed set changed past what the parser allows: no probes, or (@name) a
 * name with a newline that would end the script's comment. Returns
 * lb_stap_script()'s return.
 */
static int mangled(bool name, char *err, size_t len)
{
	struct lb_probeset *ps = NULL;
	char *script = NULL;
	size_t n;
	int ret;

	if (lb_probeset_parse("tracer systemtap\nsyscall all\n", "/x/m.probeset", &ps, err, len))
		return 1000;
	if (name) {
		free(ps->name);
		ps->name = strdup("m\nprobe begin { exit() }");
	}
	n = ps->nprobes;
	if (!name)
		ps->nprobes = 0;
	ret = ps->name ? lb_stap_script(ps, &script, err, len) : -ENOMEM;
	ps->nprobes = n;	/* freed whole */
	free(script);
	lb_probeset_free(ps);
	return ret;
}

static void test_catalog(void)
{
	char *stap = catalog_script("stap"), *kp = catalog_script("stap+kprobe");
	char *sys = catalog_script("stap-syscalls"), *pid = catalog_script("stap-syscalls-pid");

	if (!stap || !kp || !sys || !pid)
		goto out;
	/* ftrace's 18 tracepoints, every point conditional, one counting handler. */
	T_CHECK(count(stap, "kernel.trace(\"") == 18);
	T_CHECK(count(stap, "kernel.trace(\"net:netif_receive_skb\")") == 1);
	T_CHECK(count(stap, "kernel.trace(\"sched:sched_switch\")") == 1);
	T_CHECK(count(stap, "lb_hits <<< 1") == 1);
	T_CHECK(count(stap, "kprobe.function") == 0);
	T_CHECK(count(stap, "lb_pids") == 0);
	T_CHECK(count(stap, "printf(\"" LB_STAP_READY " %s\\n\", module_name())") == 1);
	T_CHECK(count(stap, "procfs(\"counts\").read") == 1);
	T_CHECK(count(stap, "atomic_read(skipped_count())") == 1);
	/* + the 11 kprobes at function entries. */
	T_CHECK(count(kp, "kernel.trace(\"") == 18);
	T_CHECK(count(kp, "kprobe.function(\"") == 11);
	T_CHECK(count(kp, "kprobe.function(\"x64_sys_call\")") == 1);
	T_CHECK(count(kp, ".return") == 0);
	/* Every syscall: raw_syscalls' two tracepoints. */
	T_CHECK(count(sys, "kernel.trace(\"raw_syscalls:sys_enter\")") == 1);
	T_CHECK(count(sys, "kernel.trace(\"raw_syscalls:sys_exit\")") == 1);
	T_CHECK(count(sys, "lb_pids") == 0);
	/* The workload's processes: the map, the filter, the fork probe, the pids file. */
	T_CHECK(count(pid, "global lb_pids[") == 1);
	T_CHECK(count(pid, "if (pid() in lb_pids)\n\t\tlb_hits <<< 1") == 1);
	T_CHECK(count(pid, "kernel.trace(\"sched:sched_process_fork\")") == 1);
	T_CHECK(count(pid, "lb_pids[$child->tgid] = 1") == 1);
	T_CHECK(count(pid, "procfs(\"pids\").write") == 1);
out:
	free(stap);
	free(kp);
	free(sys);
	free(pid);
}

static void test_names(void)
{
	char a[64], b[64], c[64];
	char *stap = catalog_script("stap"), *sys = catalog_script("stap-syscalls");

	if (!stap || !sys)
		goto out;
	lb_stap_module_name(stap, a, sizeof(a));
	lb_stap_module_name(stap, b, sizeof(b));
	lb_stap_module_name(sys, c, sizeof(c));
	T_CHECK(!strncmp(a, LB_STAP_MODULE_PREFIX, strlen(LB_STAP_MODULE_PREFIX)));
	T_CHECK(strlen(a) == strlen(LB_STAP_MODULE_PREFIX) + 16);
	T_CHECK(strspn(a + strlen(LB_STAP_MODULE_PREFIX), "0123456789abcdef") == 16);
	T_CHECK(!strcmp(a, b));
	T_CHECK(strcmp(a, c));
	/* staprun -R appends _<pid>: the kernel's module names hold 55 characters. */
	T_CHECK(strlen(a) + 8 <= 55);
out:
	free(stap);
	free(sys);
}

static void test_refusals(void)
{
	char err[1024];

	T_CHECK(script_of("tracer systemtap\nkprobe schedule+5\n", "/x/off.probeset", err,
			  sizeof(err)) == -EOPNOTSUPP);
	T_CHECK(strstr(err, "/x/off.probeset:2:") && strstr(err, "entry or return only"));
	T_CHECK(script_of("tracer systemtap\nuprobe lb_server_request\n", "/x/u.probeset", err,
			  sizeof(err)) == -EOPNOTSUPP);
	T_CHECK(strstr(err, "/x/u.probeset:2:"));
	T_CHECK(script_of("tracer systemtap\ntracepoint net_if_rx\n", "/x/l.probeset", err,
			  sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "SYSTEM:EVENT"));
	/* What the parser already refuses, refused again (the script must stay ours). */
	T_CHECK(mangled(false, err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "needs at least one"));
	T_CHECK(mangled(true, err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "name is"));
	/* A kretprobe and one named syscall are taken. */
	T_CHECK(script_of("tracer systemtap\nkretprobe schedule\nsyscall getppid\n",
			  "/x/ok.probeset", err, sizeof(err)) == 0);
}

static void test_module_check(void)
{
	char dir[] = "/tmp/test-stap-XXXXXX", path[PATH_MAX], err[512];
	int fd;

	if (!mkdtemp(dir)) {
		T_CHECK(!"mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/m.ko", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	T_CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	if (geteuid() == 0)
		T_CHECK(lb_stap_module_check(path, err, sizeof(err)) == 0);
	else
		T_CHECK(lb_stap_module_check(path, err, sizeof(err)) == -EPERM);
	chmod(path, 0666);
	T_CHECK(lb_stap_module_check(path, err, sizeof(err)) == -EPERM);
	T_CHECK(strstr(err, "not loaded"));
	chmod(path, 0644);
	chmod(dir, 0777);
	T_CHECK(lb_stap_module_check(path, err, sizeof(err)) == -EPERM);
	snprintf(path, sizeof(path), "%s/missing.ko", dir);
	T_CHECK(lb_stap_module_check(path, err, sizeof(err)) == -ENOENT);
	snprintf(path, sizeof(path), "%s/m.ko", dir);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	test_catalog();
	test_names();
	test_refusals();
	test_module_check();
	return t_failures ? T_EXIT_FAIL : T_EXIT_PASS;
}
