// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Formatting shared by the output layer (see format.h): what reports,
 * tables and figures each wrote for themselves before.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "results.h"
#include "util.h"

const char *lb_fmt_or_unknown(const char *s)
{
	return lb_str_or(s, "unknown");
}

/* The decimal @digits, after a '-' when @neg, with @sep between groups of three, in @buf. */
static const char *group(const char *digits, bool neg, const char *sep, char *buf, size_t len)
{
	size_t n = strlen(digits), slen = strlen(sep), i, o = 0;

	if (len < n * (slen + 1) + 2) {
		snprintf(buf, len, "?");
		return buf;
	}
	if (neg)
		buf[o++] = '-';
	for (i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0) {
			memcpy(buf + o, sep, slen);
			o += slen;
		}
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

const char *lb_fmt_grouped(double v, const char *sep, char *buf, size_t len)
{
	char digits[32];

	if (!isfinite(v) || fabs(v) >= 1e18) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	snprintf(digits, sizeof(digits), "%.0f", fabs(v));
	return group(digits, v <= -0.5, sep, buf, len);
}

const char *lb_fmt_count(uint64_t n, const char *sep, char *buf, size_t len)
{
	char digits[32];

	snprintf(digits, sizeof(digits), "%" PRIu64, n);
	return group(digits, false, sep, buf, len);
}

const char *lb_fmt_lost(const struct lb_summary *s, const char *sep, const char *word, char *buf,
			size_t len)
{
	char n[64], pct[32];

	snprintf(buf, len, "%s%s (%s)", lb_fmt_count(s->lost_events, sep, n, sizeof(n)), word,
		 lb_results_share(s->lost_events, s->events, pct, sizeof(pct)));
	return buf;
}

const char *lb_fmt_lost_cell(const struct lb_summary *s, char *buf, size_t len)
{
	if (s->lost_events && s->events)
		return lb_fmt_lost(s, "", "", buf, len);
	snprintf(buf, len, "%" PRIu64, s->lost_events);
	return buf;
}

const char *lb_fmt_overwritten_cell(const struct lb_summary *s, char *buf, size_t len)
{
	if (s->overwritten_events && s->events)
		return lb_results_share(s->overwritten_events, s->events, buf, len);
	snprintf(buf, len, "0");
	return buf;
}

void lb_fmt_put_each(FILE *f, const char *s,
		     void (*put)(FILE *f, const char *c, size_t n, void *state), void *state)
{
	char one[8], shown[40];
	bool unsafe;
	size_t n;

	for (; s && (n = lb_str_char(s, &unsafe)); s += n) {
		if (!unsafe) {
			put(f, s, n, state);
			continue;
		}
		/* One character, 4 bytes at most: "\xNN" each. */
		memcpy(one, s, n);
		one[n] = '\0';
		for (const char *p = lb_str_safe(one, shown, sizeof(shown)); *p; p++)
			put(f, p, 1, state);
	}
}

/* One character of plain text. */
static void text_char(FILE *f, const char *c, size_t n, void *state)
{
	(void)state;
	fwrite(c, 1, n, f);
}

void lb_fmt_put_text(FILE *f, const char *s)
{
	lb_fmt_put_each(f, s, text_char, NULL);
}

/* One character of Markdown text. */
static void md_char(FILE *f, const char *c, size_t n, void *state)
{
	if (*c == '<')
		fputs("&lt;", f);
	else if (*c == '>')
		fputs("&gt;", f);
	else if (*c == '&')
		fputs("&amp;", f);
	else if (n == 1 && strchr("\\`*_[]()#|!~", *c))
		fprintf(f, "\\%c", *c);
	else
		fwrite(c, 1, n, f);
}

void lb_fmt_put_md(FILE *f, const char *s)
{
	lb_fmt_put_each(f, s, md_char, NULL);
}

/* One character of LaTeX text. */
static void tex_char(FILE *f, const char *c, size_t n, void *state)
{
	if (n > 1) {
		fwrite(c, 1, n, f);
		return;
	}
	switch (*c) {
	case '\\':
		fputs("\\textbackslash{}", f);
		break;
	case '~':
		fputs("\\textasciitilde{}", f);
		break;
	case '^':
		fputs("\\textasciicircum{}", f);
		break;
	case '&': case '%': case '$': case '#': case '_': case '{': case '}':
		fputc('\\', f);
		fputc(*c, f);
		break;
	default:
		fputc(*c, f);
	}
}

void lb_fmt_put_tex(FILE *f, const char *s)
{
	lb_fmt_put_each(f, s, tex_char, NULL);
}
