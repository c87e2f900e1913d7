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
#include "unavailable.h"
#include "util.h"

/* The longest first clause a brief keeps. */
#define LB_BRIEF_MAX 40

const char *lb_skipped_brief(enum lb_unavailable why, const char *reason, char *buf, size_t len)
{
	static const char *const seps[] = { ": ", " (", "; ", ", " };
	const char *s = reason, *p;
	size_t n;

	if (lb_unavailable_brief(why)) {
		snprintf(buf, len, "%s", lb_unavailable_brief(why));
		return buf;
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

char *lb_skipped_line(const struct lb_plan_entry *const *entry, int n)
{
	char (*why)[64] = calloc((size_t)n + 1, sizeof(*why));
	bool *said = calloc((size_t)n + 1, sizeof(*said));
	char *line = NULL;
	size_t size = 0;
	FILE *f = NULL;

	if (!why || !said)
		goto out;
	for (int i = 0; i < n; i++)
		if (entry[i]->skipped)
			lb_skipped_brief(entry[i]->why, entry[i]->skipped, why[i], sizeof(why[i]));
	/* The sets of one code (and brief) together, the codes in the order they come. */
	f = open_memstream(&line, &size);
	for (int i = 0, groups = 0; f && i < n; i++) {
		const struct lb_plan_entry *e = entry[i];
		int named = 0;

		if (!e->skipped || said[i])
			continue;
		fputs(groups++ ? "; " : "", f);
		for (int j = i; j < n; j++) {
			const struct lb_plan_entry *o = entry[j];

			if (!o->skipped || said[j] || o->why != e->why || strcmp(why[j], why[i]))
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
out:
	free(why);
	free(said);
	return line;
}

void lb_skipped_warn(const struct lb_plan *plan)
{
	const struct lb_plan_entry *entry[LB_MAX_PROBESETS];
	int n = lb_plan_count(plan), nskipped = lb_plan_skipped(plan);
	char *line;

	if (!nskipped)
		return;
	for (int i = 0; i < n; i++)
		entry[i] = lb_plan_entry(plan, i);
	line = lb_skipped_line(entry, n);
	lb_warn("skipping %d probe set%s that cannot run here%s%s (see loadbench list)", nskipped,
		nskipped == 1 ? "" : "s", line ? ": " : "", line ? line : "");
	free(line);
}
