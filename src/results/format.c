// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Numbers as text: doubles in the shortest form that reads back to the same
 * double (results.json, the CSV files), and shares in percent that stay
 * readable however small.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "results.h"
#include "results_int.h"

/* The shortest of %.15g, %.16g, %.17g that reads back as @d. @d is finite. */
void lb_format_double(char *buf, size_t len, double d)
{
	int prec;

	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			return;
	}
	snprintf(buf, len, "%.17g", d);
}

const char *lb_results_share(uint64_t part, uint64_t whole, char *buf, size_t len)
{
	double pct = whole ? 100.0 * (double)part / (double)whole : NAN;
	int decimals = 1;

	if (!isfinite(pct)) {
		snprintf(buf, len, "-");
		return buf;
	}
	/* 99.96% is not "100.0%" while anything was kept, nor 0.04% "0.0%". */
	if (pct > 0 && pct < 0.1)
		decimals = (int)ceil(-log10(pct)) + 1;
	else if (pct > 99.9 && pct < 100)
		decimals = (int)ceil(-log10(100 - pct));
	if (decimals > 12)
		decimals = 12;
	snprintf(buf, len, "%.*f%%", decimals, pct);
	return buf;
}
