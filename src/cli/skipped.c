// SPDX-License-Identifier: GPL-2.0-or-later
/* The one line that says which probe sets a run skips, and why in a few words. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "probeset.h"
#include "run.h"
#include "skipped.h"
#include "util.h"

/*
 * What the tracers' messages say (tracer.h's available() and create()), in
 * a few words; the first that a reason contains wins. A reason none of them
 * names is cut to its first clause.
 */
static const struct {
	const char *says, *brief;
} briefs[] = {
	{ "needs root", "needs root" },
	{ "needs kprobes", "no kprobes" },
	{ "needs uprobes", "no uprobes" },
	{ "lttng-modules", "no lttng-modules" },
	{ "lttng-sessiond reachable", "no lttng-sessiond" },
	{ "without liblttng-ctl", "no liblttng-ctl" },
	{ "babeltrace", "no babeltrace2 ctf plugin" },
	{ "SystemTap's modules cannot load", "no loadable modules" },
	{ "staprun not found", "no staprun" },
	{ "stap not found", "no stap" },
	{ "no build tree for this kernel", "no kernel headers" },
	{ "need the kernel's symbols at build time", "no kernel symbols to build stap kprobes" },
	{ "SystemTap module was not built", "stap module not built" },
	{ "without libbpf", "no libbpf" },
	{ "refuses to load a BPF", "BPF refused" },
	{ "has no perf events", "no perf events" },
	{ "perf_event_open(2) fails", "perf_event_open fails" },
	{ "ptrace", "ptrace blocked" },
	{ "tracefs is not mounted", "no tracefs" },
	{ "unknown tracepoint", "unknown tracepoint" },
};

/* The longest first clause a brief keeps. */
#define LB_BRIEF_MAX 40

const char *lb_skipped_brief(const char *reason, char *buf, size_t len)
{
	static const char *const seps[] = { ": ", " (", "; ", ", " };
	const char *s = reason, *p;
	size_t n;

	for (size_t i = 0; i < sizeof(briefs) / sizeof(briefs[0]); i++) {
		if (strstr(reason, briefs[i].says)) {
			snprintf(buf, len, "%s", briefs[i].brief);
			return buf;
		}
	}
	/* Past "probe set NAME cannot run here: ", or a "PATH:LINE: " in front. */
	p = strstr(s, "cannot run here: ");
	if (p) {
		s = p + strlen("cannot run here: ");
	} else if ((p = strstr(s, ": ")) && p > s && isdigit((unsigned char)p[-1])) {
		const char *d = p - 1;

		while (d > s && isdigit((unsigned char)d[-1]))
			d--;
		if (d > s && d[-1] == ':')
			s = p + 2;
	}
	n = strlen(s);
	for (size_t i = 0; i < sizeof(seps) / sizeof(seps[0]); i++) {
		p = strstr(s, seps[i]);
		if (p && (size_t)(p - s) < n)
			n = (size_t)(p - s);
	}
	if (n > LB_BRIEF_MAX) {
		/* At a word's end. */
		size_t cut = LB_BRIEF_MAX;

		while (cut > 0 && s[cut] != ' ')
			cut--;
		n = cut ? cut : LB_BRIEF_MAX;
	}
	snprintf(buf, len, "%.*s", (int)n, s);
	return buf;
}

void lb_skipped_warn(const struct lb_plan *plan)
{
	int n = lb_plan_count(plan), nskipped = lb_plan_skipped(plan);
	char why[LB_MAX_PROBESETS][64];
	bool said[LB_MAX_PROBESETS] = { false };
	char *line = NULL;
	size_t size = 0;
	FILE *f;

	if (!nskipped)
		return;
	for (int i = 0; i < n; i++) {
		const struct lb_plan_entry *e = lb_plan_entry(plan, i);

		if (e->skipped)
			lb_skipped_brief(e->skipped, why[i], sizeof(why[i]));
	}
	/* The sets of one reason together, the reasons in the order they come. */
	f = open_memstream(&line, &size);
	for (int i = 0, groups = 0; f && i < n; i++) {
		const struct lb_plan_entry *e = lb_plan_entry(plan, i);
		int named = 0;

		if (!e->skipped || said[i])
			continue;
		fputs(groups++ ? "; " : "", f);
		for (int j = i; j < n; j++) {
			const struct lb_plan_entry *o = lb_plan_entry(plan, j);

			if (!o->skipped || said[j] || strcmp(why[j], why[i]))
				continue;
			fprintf(f, "%s%s", named++ ? ", " : "", o->set->name);
			said[j] = true;
		}
		fprintf(f, " (%s)", why[i]);
	}
	if (f && fclose(f)) {
		free(line);
		line = NULL;
	}
	lb_warn("skipping %d probe set%s that cannot run here%s%s (see loadbench list)", nskipped,
		nskipped == 1 ? "" : "s", line ? ": " : "", line ? line : "");
	free(line);
}
