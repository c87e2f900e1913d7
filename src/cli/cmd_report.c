// SPDX-License-Identifier: GPL-2.0-or-later
/* loadbench report [--format F] DIR: the summary of a results directory (or a --sweep's). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "report.h"
#include "results.h"
#include "sweep.h"
#include "util.h"

/*
 * A sweep's directory (sweep.json, no results.json): its report. Returns
 * the exit status, or -ENOENT when @dir holds no sweep.json (nothing said).
 */
static int report_sweep(const char *dir, enum lb_report_format fmt)
{
	struct lb_sweep *s = NULL;
	char err[512] = "";
	int ret;

	ret = lb_sweep_dir_read(dir, &s, err, sizeof(err));
	if (ret == -ENOENT && !err[0])
		return -ENOENT;
	if (ret) {
		lb_err("%s", err);
		return 1;
	}
	ret = lb_report_print_sweep(s, fmt, stdout);
	lb_sweep_free(s);
	if (ret || fflush(stdout)) {
		lb_err("cannot write the report: %s", strerror(EIO));
		return 1;
	}
	return 0;
}

int lb_cmd_report(int argc, char **argv)
{
	/* --help is main.c's, from its commands table. */
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	enum lb_report_format fmt = LB_REPORT_MARKDOWN;
	struct lb_results *res = NULL;
	int opt, ret;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "f:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (lb_report_format_parse(optarg, &fmt)) {
				char q[LB_STR_SHORT_BUF];

				lb_err("--format '%s': expected markdown, latex, text or lines",
				       lb_str_short(optarg, q, sizeof(q)));
				return 2;
			}
			break;
		default:
			fprintf(stderr, "Try 'loadbench report --help'.\n");
			return 2;
		}
	}
	if (argc - optind != 1) {
		lb_err("usage: loadbench report [--format markdown|latex|text|lines] DIR "
		       "(a results directory)");
		return 2;
	}
	ret = report_sweep(argv[optind], fmt);
	if (ret != -ENOENT)
		return ret;
	if (lb_report_read(argv[optind], &res))
		return 1;
	ret = lb_report_print(res, fmt, stdout);
	lb_results_free(res);
	if (ret || fflush(stdout)) {
		lb_err("cannot write the report: %s", strerror(EIO));
		return 1;
	}
	return 0;
}
