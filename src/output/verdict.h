/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The per-set lines that every format prints the same way: what a set's
 * kprobes were ("lttng+kprobe: 11 kprobes: 11 ftrace-based"), the time
 * inside its BPF programs when their statistics were read, and the verdict
 * on a set that adds kprobes to the tracer it builds on
 * (lb_results_verdict()), one line a debate can quote.
 */
#ifndef LB_OUTPUT_VERDICT_H
#define LB_OUTPUT_VERDICT_H

#include <stddef.h>
#include <stdio.h>

struct lb_probeset_result;
struct lb_results;
struct lb_verdict;

/*
 * The label a line about emulated timings (QEMU TCG) ends with, as the
 * figures' footer says it.
 */
#define LB_EMULATED_LABEL " (emulated: timings are not real)"

/* Which per-set lines lb_notes_print() prints. */
enum lb_note {
	LB_NOTE_KPROBES,	/* "NAME: DESCRIPTION" of each set that says anything of kprobes */
	LB_NOTE_VERDICT,	/* lb_verdict_line() of each set with a verdict */
	LB_NOTE_BPF,		/* "NAME: N runs of its BPF programs, X ns inside them per run
				 * ..., beside Y ns per event from the slowdown" */
};

/* How a format prints the lines: @head before the first, @pre and @post around each. */
struct lb_note_style {
	void (*put)(FILE *f, const char *s);	/* writes a line escaped for the format */
	const char *head;
	const char *pre;
	const char *post;
};

/*
 * lb_verdict_line - @v of probe set @name beside @base as one line without
 * a newline, malloc'd: "lttng+kprobe: a kprobe per traced event (11
 * kprobes: 11 ftrace-based; +21.2 events/op) slows lttng by a further 8.6%
 * [2.2, 42.2], on top of lttng's 32.6% [8.3, 41.6]: 1.18x [1.05, 1.9] the
 * tracer's impact (REFERENCE)", then LB_EMULATED_LABEL when emulated. The
 * names are not escaped. Returns NULL when memory runs out.
 */
char *lb_verdict_line(const struct lb_verdict *v);

/*
 * lb_note_print - the line of kind @which about @psr, if it has one, on @f
 * in @st's style (without the head). Returns 1 when printed, 0 when it has
 * none, or -ENOMEM.
 */
int lb_note_print(const struct lb_results *res, const struct lb_probeset_result *psr,
		  enum lb_note which, FILE *f, const struct lb_note_style *st);

/*
 * lb_notes_print - the lines of kind @which of each probe set of @res on
 * @f in @st's style, the head before the first. Returns how many were
 * printed, or -ENOMEM.
 */
int lb_notes_print(const struct lb_results *res, enum lb_note which, FILE *f,
		   const struct lb_note_style *st);

#endif
