/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Formatting shared by the output layer's reports, tables and figures:
 * numbers with grouped thousands, a string or its stand-in, the lost and
 * overwritten events of a summary, and the walk over a foreign string that
 * drops what no quoted string or table cell may hold.
 */
#ifndef LB_FORMAT_H
#define LB_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct lb_summary;

/* lb_fmt_or_unknown - @s, or "unknown" when it is NULL or empty. Returns one of them. */
const char *lb_fmt_or_unknown(const char *s);

/*
 * lb_fmt_grouped - @v rounded to an integer with @sep between groups of
 * three digits ("88,100" with ","; "88{,}100" for LaTeX) in @buf; "n/a"
 * when not finite or 1e18 or more, "?" when @buf is too short. Returns @buf.
 */
const char *lb_fmt_grouped(double v, const char *sep, char *buf, size_t len);

/*
 * lb_fmt_count - @n with @sep between groups of three digits, exactly (no
 * rounding through a double), "?" when @buf is too short. Returns @buf.
 */
const char *lb_fmt_count(uint64_t n, const char *sep, char *buf, size_t len);

/*
 * lb_fmt_lost - @s's lost events with their share of the events recorded:
 * the count grouped by @sep ("" for none), @word after it, then the share
 * in parentheses ("-" without events): "1,772,788 lost (61.0%)" with ","
 * and " lost", "1772788 (61.0%)" with "" and "". Returns @buf.
 */
const char *lb_fmt_lost(const struct lb_summary *s, const char *sep, const char *word, char *buf,
			size_t len);

/*
 * lb_fmt_lost_cell - the lost-events cell of a table: "0", the count, or
 * the count with its share when events were recorded ("1772788 (61.0%)").
 * Returns @buf.
 */
const char *lb_fmt_lost_cell(const struct lb_summary *s, char *buf, size_t len);

/*
 * lb_fmt_overwritten_cell - the overwritten-events cell of a table: "0", or
 * the share of the events recorded and then overwritten ("99.7%"). Returns @buf.
 */
const char *lb_fmt_overwritten_cell(const struct lb_summary *s, char *buf, size_t len);

/*
 * lb_fmt_put_each - pass each character of @s (NULL: none) to @put, which
 * writes it on @f escaped as its format wants (@n bytes at @c; @state is
 * the caller's, for a format whose escape depends on what came before).
 * An unsafe character (lb_str_char(): a control, a bidirectional control,
 * a byte that is not UTF-8) is passed as the text the terminal's messages
 * show for it (lb_str_safe(): "\xe2\x80\xae" for U+202E), a character at
 * a time: it is seen, and neither a terminal nor a renderer acts on it.
 * Every string of a results file reaches a report or a figure through
 * here. Returns nothing.
 */
void lb_fmt_put_each(FILE *f, const char *s,
		     void (*put)(FILE *f, const char *c, size_t n, void *state), void *state);

/* lb_fmt_put_text - @s as plain text, unsafe characters shown as lb_fmt_put_each() does. */
void lb_fmt_put_text(FILE *f, const char *s);

/*
 * lb_fmt_put_md - @s as Markdown text that is only text, in a table cell, a
 * list item or a quote: < > & as entities (no HTML), and \ ` * _ [ ] ( ) #
 * | ! ~ backslash-escaped (no emphasis, code, link, image, heading, cell
 * break or strike-through); unsafe characters as lb_fmt_put_each() shows
 * them. Returns nothing.
 */
void lb_fmt_put_md(FILE *f, const char *s);

/*
 * lb_fmt_put_tex - @s as LaTeX text: \ ~ ^ spelled out, & % $ # _ { }
 * backslash-escaped; unsafe characters as lb_fmt_put_each() shows them.
 * Returns nothing.
 */
void lb_fmt_put_tex(FILE *f, const char *s);

#endif
