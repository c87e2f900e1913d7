// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The figure of a sweep (--sweep): sweep.dat (per probe set, one block:
 * each value's events per operation, added time per operation and
 * slowdown, with their CIs) and the header of sweep.gp, which holds each
 * set's name and fitted line.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "figure.h"
#include "plot.h"
#include "sweep.h"

static int write_sweep_dat(const void *arg, FILE *f)
{
	const struct lb_sweep *s = arg;

	fputs("# loadbench: a sweep of ", f);
	lb_fig_put_comment(f, s->key);
	fputs(", read by sweep.gp\n"
	      "# One block per probe set, separated by two blank lines. value: the swept\n"
	      "# parameter's; epo: events per operation; added_us [lo, hi]: the time its probes\n"
	      "# add to an operation (from the slowdown and its 95% CI); slowdown_pct [lo, hi].\n"
	      "# name\tvalue\tepo\tadded_us\tadded_lo_us\tadded_hi_us\tslowdown_pct\tslowdown_lo"
	      "\tslowdown_hi\n", f);
	for (size_t k = 0; k < s->nsets; k++) {
		const struct lb_sweep_set *set = &s->sets[k];

		if (k)
			fputs("\n\n", f);
		for (size_t i = 0; i < set->npoints; i++) {
			const struct lb_sweep_point *p = &set->points[i];

			lb_fig_put_name(f, set->name);
			fprintf(f, "\t%d\t", p->value);
			lb_fig_put_num(f, 4, p->events_per_op);
			fputc('\t', f);
			lb_fig_put_num(f, 4, p->added_ns / 1e3);
			fputc('\t', f);
			lb_fig_put_num(f, 4, p->added_ns_ci95[0] / 1e3);
			fputc('\t', f);
			lb_fig_put_num(f, 4, p->added_ns_ci95[1] / 1e3);
			fputc('\t', f);
			lb_fig_put_num(f, 3, p->slowdown_pct);
			fputc('\t', f);
			lb_fig_put_num(f, 3, p->slowdown_ci95[0]);
			fputc('\t', f);
			lb_fig_put_num(f, 3, p->slowdown_ci95[1]);
			fputc('\n', f);
		}
	}
	return 0;
}

static void write_sweep_header(const void *arg, FILE *f)
{
	const struct lb_sweep *s = arg;
	char title[160];

	lb_fig_put_intro(f, "sweep", "a sweep's added time per operation and slowdowns",
			 PACKAGE_VERSION);
	snprintf(title, sizeof(title), "What each event costs, from a sweep of %s", s->key);
	fputs("title = ", f);
	lb_fig_put_string(f, title);
	fputs("\nkey_name = ", f);
	lb_fig_put_string(f, s->key);
	fprintf(f, "\nnsets = %zu\narray set_name[%zu]\narray slope[%zu]\narray icpt[%zu]\n",
		s->nsets, s->nsets ? s->nsets : 1, s->nsets ? s->nsets : 1,
		s->nsets ? s->nsets : 1);
	for (size_t k = 0; k < s->nsets; k++) {
		const struct lb_linfit *l = &s->sets[k].fit;
		char line[256];

		fprintf(f, "set_name[%zu] = ", k + 1);
		if (isfinite(l->slope))
			snprintf(line, sizeof(line), "%s: %.1f ns per event", s->sets[k].name,
				 l->slope);
		else
			snprintf(line, sizeof(line), "%s: no line", s->sets[k].name);
		lb_fig_put_string(f, line);
		fprintf(f, "\nslope[%zu] = ", k + 1);
		lb_fig_put_num(f, 6, l->slope / 1e3);
		fprintf(f, "\nicpt[%zu] = ", k + 1);
		lb_fig_put_num(f, 6, l->intercept / 1e3);
		fputc('\n', f);
	}
}

static const struct lb_figure lb_figure_sweep = {
	.name = "sweep",
	.write_dat = write_sweep_dat,
	.write_header = write_sweep_header,
	.wide = true,
};

int lb_plot_write_sweep(struct lb_plot *plot, const struct lb_sweep *s, const char *template_dir,
			char *err, size_t errlen)
{
	return lb_plot_write_figure(plot, &lb_figure_sweep, s, template_dir, err, errlen);
}
