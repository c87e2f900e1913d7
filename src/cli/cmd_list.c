// SPDX-License-Identifier: GPL-2.0-or-later
/* loadbench list: the probe-set catalog, and whether each set runs here and why not. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "probeset.h"
#include "tracer.h"
#include "util.h"

int lb_cmd_list(int argc, char **argv)
{
	char catalog[PATH_MAX], err[1024];
	char **names = NULL;
	int n, w = 16;

	if (argc > 1) {
		char q[LB_STR_SHORT_BUF];

		lb_err("unexpected argument '%s': loadbench list takes none (it lists the whole "
		       "catalog)", lb_str_short(argv[1], q, sizeof(q)));
		return 2;
	}
	lb_datadir("probesets", catalog, sizeof(catalog));
	n = lb_catalog_names(catalog, &names);
	if (n < 0) {
		lb_err("cannot read the probe-set catalog %s: %s", catalog, strerror(-n));
		return 1;
	}
	printf("Probe sets in %s:\n\n", catalog);
	for (int i = 0; i < n; i++)
		if ((int)strlen(names[i]) > w)
			w = (int)strlen(names[i]);
	for (int i = 0; i < n; i++) {
		struct lb_probeset *ps = NULL;
		struct lb_tracer *t = NULL;
		const char *why;
		int ret;

		ret = lb_probeset_find(names[i], catalog, &ps, err, sizeof(err));
		if (!ret)
			ret = lb_tracer_create(ps, NULL, &t, NULL, err, sizeof(err));
		printf("%-*s %-11s %s%s\n", w, names[i], ps ? ps->tracer : "?",
		       ps && ps->description ? ps->description : "",
		       ps && !ps->default_run ? " (named only: not in the default run)" : "");
		/* lb_tracer_create() says "probe set NAME cannot run here: WHY": print WHY. */
		why = ret ? strstr(err, "cannot run here: ") : NULL;
		why = why ? why + strlen("cannot run here: ") : err;
		printf("%-*s %-11s %s%s\n", w, "", "", ret ? "cannot run here: " : "runs here",
		       ret ? why : "");
		lb_tracer_destroy(t);
		lb_probeset_free(ps);
	}
	lb_catalog_names_free(names);
	return 0;
}
