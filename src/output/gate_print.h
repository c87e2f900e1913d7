/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The regression gate as text: lines for a CI log, a Markdown table for a pull request. */
#ifndef LB_GATE_PRINT_H
#define LB_GATE_PRINT_H

#include <stdio.h>

#include "gate.h"

/*
 * lb_gate_print_lines - one line per probe set of @g ("LABEL: NAME: worse:
 * +3.1 pp [+1.9, +4.3] (4.2% -> 7.3%), +12 ns/event [+7, +17]"), the sets
 * in one run only, and the closing "gate: ... PASS|FAIL" line, to @f;
 * @label (the candidate's directory) may be NULL. Returns nothing.
 */
void lb_gate_print_lines(const struct lb_gate *g, const char *label, FILE *f);

/* lb_gate_print_markdown - @g as a Markdown table with its verdict line, to @f. Returns nothing. */
void lb_gate_print_markdown(const struct lb_gate *g, const char *label, FILE *f);

#endif
