// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The lttng tracer in a loadbench built without liblttng-ctl (or without
 * libbabeltrace2, which reads its trace back): it stays in the tracer table,
 * so `loadbench list' and an lttng probe set say why it cannot run and how
 * to get it.
 */
#include <errno.h>
#include <stdio.h>

#include "lttng.h"
#include "tracer.h"
#include "unavailable.h"

static int lttng_none_available(char *why, size_t len)
{
	lb_unavailable_say(LB_UNAVAIL_LTTNG_CTL, why, len, "built without liblttng-ctl (apt-get "
			   "install liblttng-ctl-dev libbabeltrace2-dev and rebuild)");
	return -EOPNOTSUPP;
}

static int lttng_none_create(const struct lb_probeset *ps, const struct lb_tracer_opts *opts,
			     void **priv, char *err, size_t len)
{
	return lttng_none_available(err, len);
}

static int lttng_none_arm(void *priv, char *err, size_t len)
{
	return lttng_none_available(err, len);
}

static int lttng_none_snapshot(void *priv, struct lb_tracer_counts *c)
{
	return -EOPNOTSUPP;
}

static int lttng_none_disarm(void *priv)
{
	return 0;
}

static void lttng_none_destroy(void *priv)
{
}

const struct lb_tracer_ops lb_tracer_lttng = {
	.name = "lttng",
	.available = lttng_none_available,
	.create = lttng_none_create,
	.arm = lttng_none_arm,
	.snapshot = lttng_none_snapshot,
	.disarm = lttng_none_disarm,
	.destroy = lttng_none_destroy,
};

const struct lb_tracer_ops lb_tracer_lttng_ust = {
	.name = "lttng-ust",
	.available = lttng_none_available,
	.create = lttng_none_create,
	.arm = lttng_none_arm,
	.snapshot = lttng_none_snapshot,
	.disarm = lttng_none_disarm,
	.destroy = lttng_none_destroy,
};
