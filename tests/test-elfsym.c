// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ELF reader of uprobes and USDT markers (src/tracers/elfsym.h) on the
 * built loadbench executable ($top_builddir/src/loadbench): a server
 * function's file offset and the near names of a missing one; each USDT
 * marker of the server at its two places (udp-rr's and tcp-rr's), both
 * with the marker's one semaphore, and an unknown marker named with the ones
 * there are; a file that is not ELF refused. That the offsets are the right
 * ones is what tests/test-switch and measure-probes.sh see live (2 events
 * per operation; the semaphores raised and lowered). No root needed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elfsym.h"
#include "helpers.h"

#ifndef LB_SRCDIR
#define LB_SRCDIR "."
#endif

int main(void)
{
	const char *top = getenv("top_builddir");
	struct lb_usdt_site rq[4], rp[4];
	char exe[4096], near[256];
	uint64_t off = 0;
	int n;

	snprintf(exe, sizeof(exe), "%s/src/loadbench", top ? top : ".");
	T_CHECK(lb_elf_func_offset(exe, "lb_server_request", &off, near, sizeof(near)) == 0);
	T_CHECK(off > 0);
	T_CHECK(lb_elf_func_offset(exe, "lb_server_reqest", &off, near, sizeof(near)) == -ENOENT);
	T_CHECK(strstr(near, "lb_server_request") != NULL);
	T_CHECK(lb_elf_func_offset(LB_SRCDIR "/probesets/ftrace.probeset", "x", &off, near,
				   sizeof(near)) == -ENOEXEC);
	T_CHECK(lb_elf_usdt(LB_SRCDIR "/probesets/ftrace.probeset", "loadbench", "request", rq, 4,
			    near, sizeof(near)) == -ENOEXEC);
#ifdef HAVE_SDT
	n = lb_elf_usdt(exe, "loadbench", "request", rq, 4, near, sizeof(near));
	T_CHECK(n == 2);
	if (n == 2) {
		T_CHECK(rq[0].offset && rq[1].offset && rq[0].offset != rq[1].offset);
		T_CHECK(rq[0].sem_offset && rq[0].sem_offset == rq[1].sem_offset);
	}
	n = lb_elf_usdt(exe, "loadbench", "reply", rp, 4, near, sizeof(near));
	T_CHECK(n == 2);
	if (n == 2) {
		T_CHECK(rp[0].sem_offset && rp[0].sem_offset == rp[1].sem_offset);
		T_CHECK(rp[0].sem_offset != rq[0].sem_offset);
	}
	/* Asked for one place of two: the count says two, one written. */
	T_CHECK(lb_elf_usdt(exe, "loadbench", "reply", rp, 1, near, sizeof(near)) == 2);
	n = lb_elf_usdt(exe, "loadbench", "respond", rq, 4, near, sizeof(near));
	T_CHECK(n == -ENOENT);
	T_CHECK(strstr(near, "loadbench:request") && strstr(near, "loadbench:reply"));
	printf("usdt: request at 0x%llx and 0x%llx, semaphore 0x%llx; near: %s\n",
	       (unsigned long long)rq[0].offset, (unsigned long long)rq[1].offset,
	       (unsigned long long)rq[0].sem_offset, near);
#else
	n = lb_elf_usdt(exe, "loadbench", "request", rq, 4, near, sizeof(near));
	T_CHECK(n == -ENOENT);
	printf("built without sys/sdt.h: no markers, as configure said\n");
#endif
	return t_exit();
}
