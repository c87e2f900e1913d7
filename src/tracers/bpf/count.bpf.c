// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bpf tracers' program: count every event it is attached to in a per-CPU
 * counter, and nothing else (no context read, no output). What it measures
 * is the cost of running a BPF program on a tracepoint, the floor of every
 * eBPF tool's per-event cost.
 *
 *   lb_count      a tracepoint program (tracer bpf), attached with a perf
 *                 event per tracefs tracepoint, as bpftrace's tracepoint:
 *                 probes are
 *   lb_count_raw  the same body as a raw tracepoint program (tracer
 *                 bpf-raw), attached to the kernel tracepoint directly
 *   lb_count_kprobe, lb_count_kretprobe
 *                 the same body as a kprobe program (kprobe and kretprobe
 *                 lines of a bpf probe set), attached to a kernel function's
 *                 entry or return through a perf kprobe event
 *   lb_count_usdt the same body as a USDT program (usdt lines), attached by
 *                 libbpf to every place of a marker of the workload server
 *                 (a uprobe with the marker's semaphore as its reference
 *                 counter); usdt.bpf.h brings the maps libbpf's USDT
 *                 support needs, created only for a set with usdt lines
 *
 * Built with clang -target bpf at build time and embedded into loadbench.
 */
#include <stdbool.h>	/* usdt.bpf.h uses bool */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/usdt.bpf.h>

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} lb_counts SEC(".maps");

static __always_inline int count(void)
{
	__u32 key = 0;
	__u64 *n = bpf_map_lookup_elem(&lb_counts, &key);

	/* Per CPU, and a program never nests on its CPU: a plain add is exact. */
	if (n)
		*n += 1;
	return 0;
}

SEC("tracepoint")
int lb_count(void *ctx)
{
	return count();
}

SEC("raw_tracepoint")
int lb_count_raw(void *ctx)
{
	return count();
}

SEC("kprobe")
int lb_count_kprobe(void *ctx)
{
	return count();
}

SEC("kretprobe")
int lb_count_kretprobe(void *ctx)
{
	return count();
}

SEC("usdt")
int lb_count_usdt(struct pt_regs *ctx)
{
	return count();
}

char LICENSE[] SEC("license") = "GPL";
