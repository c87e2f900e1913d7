/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the results record about the machine they were measured on. */
#ifndef LB_SYSINFO_H
#define LB_SYSINFO_H

struct lb_host;

/*
 * lb_sysinfo_read - fill @host (strings malloc'd; freed with the results)
 * from uname(2), /proc/cpuinfo, the CPUID hypervisor leaf and
 * $LOADBENCH_VM_ACCEL (the VM runner's accelerator). Returns 0 or -ENOMEM.
 */
int lb_sysinfo_read(struct lb_host *host);

#endif
