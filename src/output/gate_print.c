// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The regression gate (src/results/gate.h) as text: one line per probe set
 * (a CI log), or a Markdown table fit for a pull-request comment.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "format.h"
#include "gate.h"
#include "gate_print.h"

/* "+3.1" / "-0.4" / "?" into @buf. */
static const char *lb_signed(double v, int prec, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "?");
	else if (fabs(v) < 0.5 * pow(10, -prec)) /* no "-0.0" */
		snprintf(buf, len, "%+.*f", prec, 0.0);
	else
		snprintf(buf, len, "%+.*f", prec, v);
	return buf;
}

/* "+3.1 pp [+1.9, +4.3]" (a change with its CI) into @buf; @unit "pp" or "ns/event". */
static const char *lb_change(double d, const double ci[2], int prec, const char *unit, char *buf,
			     size_t len)
{
	const char *sp = unit[0] ? " " : "";
	char a[40], b[40], c[40];

	if (isnan(ci[0]) || isnan(ci[1]))
		snprintf(buf, len, "%s%s%s [no CI]", lb_signed(d, prec, a, sizeof(a)), sp, unit);
	else
		snprintf(buf, len, "%s%s%s [%s, %s]", lb_signed(d, prec, a, sizeof(a)), sp, unit,
			 lb_signed(ci[0], prec, b, sizeof(b)), lb_signed(ci[1], prec, c, sizeof(c)));
	return buf;
}

/* Why an inconclusive row could not be told, and what would tell it, into @buf. */
static const char *lb_gate_why(const struct lb_gate_row *r, double fail_above, char *buf,
			       size_t len)
{
	if (r->verdict != LB_GATE_INCONCLUSIVE)
		snprintf(buf, len, "%s", "");
	else if (isnan(r->diff_ci95[0]))
		snprintf(buf, len, "a run has fewer than 2 %s, no CI: measure longer",
			 r->base_n < 2 && r->cand_n < 2 ? "units or rounds each" : "units or rounds");
	else
		snprintf(buf, len, "CI +-%.2f pp, too wide to tell at +-%g pp: +-%.2f pp would "
			 "tell (--precision %.2f for both runs)",
			 (r->diff_ci95[1] - r->diff_ci95[0]) / 2, fail_above, r->needed_half_pp,
			 r->needed_precision);
	return buf;
}

/* The closing line: the counts and PASS or FAIL. */
static void lb_gate_total(const struct lb_gate *g, FILE *f)
{
	fprintf(f, "gate: %zu worse, %zu better, %zu unchanged, %zu inconclusive at --fail-above "
		"%g pp: %s\n", g->nworse, g->nbetter, g->nunchanged, g->ninconclusive,
		g->fail_above, g->nworse ? "FAIL" : "PASS");
}

void lb_gate_print_lines(const struct lb_gate *g, const char *label, FILE *f)
{
	char d[128], n[128], why[256];

	for (size_t i = 0; i < g->nrows; i++) {
		const struct lb_gate_row *r = &g->rows[i];

		fputs(label ? label : "", f);
		fputs(label ? ": " : "", f);
		lb_fmt_put_text(f, r->name);
		fprintf(f, ": %s: %s (%.1f%% -> %.1f%%)", lb_gate_verdict_name(r->verdict),
			lb_change(r->diff_pp, r->diff_ci95, 1, "pp", d, sizeof(d)), r->base_pct,
			r->cand_pct);
		if (!isnan(r->diff_ns))
			fprintf(f, ", %s", lb_change(r->diff_ns, r->diff_ns_ci95, 0, "ns/event", n,
						     sizeof(n)));
		lb_gate_why(r, g->fail_above, why, sizeof(why));
		fprintf(f, "%s%s\n", why[0] ? ": " : "", why);
	}
	for (size_t i = 0; i < g->nonly_base; i++) {
		fputs(label ? label : "", f);
		fputs(label ? ": " : "", f);
		lb_fmt_put_text(f, g->only_base[i]);
		fputs(": not in the candidate run\n", f);
	}
	for (size_t i = 0; i < g->nonly_cand; i++) {
		fputs(label ? label : "", f);
		fputs(label ? ": " : "", f);
		lb_fmt_put_text(f, g->only_cand[i]);
		fputs(": not in the baseline run\n", f);
	}
	lb_gate_total(g, f);
}

void lb_gate_print_markdown(const struct lb_gate *g, const char *label, FILE *f)
{
	static const char *const mark[] = {
		[LB_GATE_UNCHANGED] = "unchanged",
		[LB_GATE_BETTER] = "better",
		[LB_GATE_WORSE] = "**worse**",
		[LB_GATE_INCONCLUSIVE] = "inconclusive",
	};
	char d[128], n[128], why[256];

	fputs("### Tracing overhead", f);
	if (label) {
		fputs(": ", f);
		lb_fmt_put_md(f, label);
	}
	fprintf(f, "\n\n%s: %zu worse, %zu better, %zu unchanged, %zu inconclusive "
		"(threshold ±%g pp)\n\n", g->nworse ? "**FAIL**" : "PASS", g->nworse, g->nbetter,
		g->nunchanged, g->ninconclusive, g->fail_above);
	fputs("| probe set | baseline % | candidate % | change, pp [95% CI] | "
	      "ns/event change [95% CI] | verdict |\n|---|--:|--:|--:|--:|---|\n", f);
	for (size_t i = 0; i < g->nrows; i++) {
		const struct lb_gate_row *r = &g->rows[i];

		fputs("| ", f);
		lb_fmt_put_md(f, r->name);
		fprintf(f, " | %.1f | %.1f | %s | %s | %s", r->base_pct, r->cand_pct,
			lb_change(r->diff_pp, r->diff_ci95, 1, "", d, sizeof(d)),
			isnan(r->diff_ns) ? "-" :
					    lb_change(r->diff_ns, r->diff_ns_ci95, 0, "", n, sizeof(n)),
			mark[r->verdict]);
		lb_gate_why(r, g->fail_above, why, sizeof(why));
		if (why[0]) {
			fputs(": ", f);
			lb_fmt_put_md(f, why);
		}
		fputs(" |\n", f);
	}
	for (size_t i = 0; i < g->nonly_base; i++) {
		fputs("| ", f);
		lb_fmt_put_md(f, g->only_base[i]);
		fputs(" | | | | | not in the candidate run |\n", f);
	}
	for (size_t i = 0; i < g->nonly_cand; i++) {
		fputs("| ", f);
		lb_fmt_put_md(f, g->only_cand[i]);
		fputs(" | | | | | not in the baseline run |\n", f);
	}
	fputs("\nChange: candidate's slowdown minus the baseline's. ", f);
	lb_fmt_put_md(f, g->bootstrap);
	fprintf(f, ". Worse (better): the CI above (below) 0 and the change beyond ±%g pp; "
		"unchanged: the CI inside ±%g pp.\n", g->fail_above, g->fail_above);
}
