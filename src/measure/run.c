// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The orchestrator: lb_measure_run() measures by alternation (alternate.c)
 * or in fresh runs (rounds.c), then leaves nothing armed.
 */
#include <stdio.h>
#include <unistd.h>

#include "measure_int.h"
#include "results.h"
#include "run.h"
#include "tracer.h"
#include "util.h"

int lb_measure_run(const struct lb_measure *b, struct lb_results *res, char *err, size_t len)
{
	int nruns = b->repeat * ((int)res->nprobesets + 1);
	struct lb_progress p = {
		.on = b->progress && isatty(STDERR_FILENO),
		.repeat = b->repeat,
		.nruns = nruns,
		.started = lb_now(),
		.total = nruns * (b->warmup + b->duration + 0.05),
	};
	int ret;

	res->complete = false;
	ret = b->alternate ? lb_measure_alternate(b, res, &p, err, len) : lb_measure_rounds(b, res, &p, err, len);
	/* Whatever failed, nothing stays armed once the orchestrator returns. */
	lb_tracer_disarm_all();
	/* Clear the line, so that what follows starts in column 0. */
	if (p.on)
		fputs("\r\033[K", stderr);
	if (!ret)
		res->complete = true;
	return ret;
}
