// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bpf tracers in a loadbench built without libbpf: they stay in the
 * tracer table, so `loadbench list' and a bpf probe set say why they cannot
 * run and how to get them.
 */
#include <errno.h>
#include <stdio.h>

#include "tracer.h"
#include "unavailable.h"

static int bpf_none_available(char *why, size_t len)
{
	lb_unavailable_say(LB_UNAVAIL_LIBBPF, why, len, "loadbench was built without libbpf: "
			   "apt-get install libbpf-dev clang, then rerun scripts/bootstrap");
	return -EOPNOTSUPP;
}

static int bpf_none_create(const struct lb_probeset *ps, const struct lb_tracer_opts *opts,
			   void **priv, char *err, size_t len)
{
	return bpf_none_available(err, len);
}

static int bpf_none_arm(void *priv, char *err, size_t len)
{
	return bpf_none_available(err, len);
}

static int bpf_none_snapshot(void *priv, struct lb_tracer_counts *c)
{
	return -EOPNOTSUPP;
}

static int bpf_none_disarm(void *priv)
{
	return 0;
}

static void bpf_none_destroy(void *priv)
{
}

const struct lb_tracer_ops lb_tracer_bpf = {
	.name = "bpf",
	.available = bpf_none_available,
	.create = bpf_none_create,
	.arm = bpf_none_arm,
	.snapshot = bpf_none_snapshot,
	.disarm = bpf_none_disarm,
	.destroy = bpf_none_destroy,
};

const struct lb_tracer_ops lb_tracer_bpf_raw = {
	.name = "bpf-raw",
	.available = bpf_none_available,
	.create = bpf_none_create,
	.arm = bpf_none_arm,
	.snapshot = bpf_none_snapshot,
	.disarm = bpf_none_disarm,
	.destroy = bpf_none_destroy,
};
