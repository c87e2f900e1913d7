/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's BPF run-time statistics (kernel.bpf_stats_enabled): how many
 * times each BPF program ran and the nanoseconds it spent running, for
 * programs loadbench did not load itself (a command tracer's bpftrace) as
 * for its own. Turned on through a BPF_ENABLE_STATS descriptor: on while any
 * such descriptor is open, so a crashed run leaves nothing on.
 */
#ifndef LB_BPF_STATS_H
#define LB_BPF_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* lb_bpf_stats_built - whether this build can read the statistics (libbpf). */
bool lb_bpf_stats_built(void);

/*
 * lb_bpf_stats_enable - turn the statistics on for as long as the returned
 * descriptor is open. Returns it, or -errno with the reason in @err
 * (-EOPNOTSUPP: built without libbpf).
 */
int lb_bpf_stats_enable(char *err, size_t len);

/*
 * lb_bpf_progs_held - the IDs of the BPF programs that the processes @pids
 * hold a program or link descriptor of (a tool's process tree:
 * lb_command_tree()), into @ids (each once, at most @max). Returns how many.
 */
int lb_bpf_progs_held(const pid_t *pids, int n, uint32_t *ids, int max);

/*
 * lb_bpf_prog_stats - program @id's runs and nanoseconds spent running
 * since it was loaded (counted only while the statistics are on). Returns
 * 0, -ENOENT when no such program is loaded any more, or -errno.
 */
int lb_bpf_prog_stats(uint32_t id, uint64_t *run_cnt, uint64_t *run_ns);

#endif
