// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "results.h"
#include "sysinfo.h"
#include "util.h"

#define LB_VM_ACCEL_MAX	256	/* bytes of LOADBENCH_VM_ACCEL kept */

/* The value of the first "@key : value" line of /proc/cpuinfo, malloc'd, or NULL. */
static char *cpuinfo_value(const char *cpuinfo, const char *key)
{
	size_t klen = strlen(key);
	const char *p = cpuinfo;

	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t llen = eol ? (size_t)(eol - p) : strlen(p);

		if (llen > klen && !strncmp(p, key, klen) && (p[klen] == ' ' || p[klen] == '\t' ||
							      p[klen] == ':')) {
			const char *v = memchr(p, ':', llen);

			if (v) {
				v++;
				while (*v == ' ' || *v == '\t')
					v++;
				return strndup(v, llen - (size_t)(v - p));
			}
		}
		p = eol ? eol + 1 : NULL;
	}
	return NULL;
}

/*
 * Under a hypervisor, CPUID leaf 0x40000000 names it: "KVMKVMKVM" (KVM and
 * Firecracker), "TCGTCGTCGTCG" (QEMU without acceleration: timings are
 * emulated), "Microsoft Hv", "VMwareVMware", "XenVMMXenVMM".
 */
static char *virtualization(const char *cpuinfo)
{
	char *flags = cpuinfo_value(cpuinfo, "flags");
	bool hv = flags && strstr(flags, " hypervisor");
	char *ret;

	free(flags);
	if (!hv)
		return strdup("none");
#if defined(__x86_64__) || defined(__i386__)
	{
		unsigned int eax, regs[3];
		char sig[13];

		__cpuid(0x40000000, eax, regs[0], regs[1], regs[2]);
		memcpy(sig, regs, 12);
		sig[12] = '\0';
		if (!strcmp(sig, "KVMKVMKVM"))
			return strdup("kvm");
		if (!strcmp(sig, "TCGTCGTCGTCG"))
			return strdup("qemu-tcg");
		if (!strcmp(sig, "Microsoft Hv"))
			return strdup("hyper-v");
		if (!strcmp(sig, "VMwareVMware"))
			return strdup("vmware");
		if (!strcmp(sig, "XenVMMXenVMM"))
			return strdup("xen");
		if (sig[0] && asprintf(&ret, "vm (%s)", sig) >= 0)
			return ret;
	}
#endif
	ret = strdup("vm");
	return ret;
}

int lb_sysinfo_read(struct lb_host *host)
{
	const char *accel = getenv("LOADBENCH_VM_ACCEL");
	struct utsname u;
	char *cpuinfo;

	if (uname(&u) == 0) {
		host->kernel_release = strdup(u.release);
		host->kernel_version = strdup(u.version);
		host->machine = strdup(u.machine);
	}
	if (lb_read_file("/proc/cpuinfo", 16 << 20, &cpuinfo, NULL) == 0) {
		host->cpu_model = cpuinfo_value(cpuinfo, "model name");
		host->virtualization = virtualization(cpuinfo);
		free(cpuinfo);
	}
	if (!host->cpu_model)
		host->cpu_model = strdup("unknown");
	if (!host->virtualization)
		host->virtualization = strdup("unknown");
	host->ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	/* Set by scripts/loadbench-vm's /init: which accelerator QEMU ran and why. */
	if (accel && *accel) {
		char *p = strndup(accel, LB_VM_ACCEL_MAX);

		if (!p)
			return -ENOMEM;
		host->vm_accelerator = p;
		for (; *p; p++)	/* one printable line: it goes into every summary's host line */
			if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
				*p = '?';
	}
	if (!host->kernel_release || !host->kernel_version || !host->machine ||
	    !host->cpu_model || !host->virtualization)
		return -ENOMEM;
	return 0;
}
