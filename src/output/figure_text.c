// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The gnuplot text every figure writes: numbers and names in .dat columns,
 * single-quoted strings and comment lines in .gp headers, the wrapped footer
 * and the opening comment of a script. Whatever comes from results.json is
 * made inert here: no quote, newline or control character reaches gnuplot.
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figure.h"
#include "format.h"
#include "util.h"

/* A number for a .dat column: "NaN" is the missing value (set datafile missing). */
void lb_fig_put_num(FILE *f, int decimals, double v)
{
	if (isfinite(v))
		fprintf(f, "%.*f", decimals, v);
	else
		fputs("NaN", f);
}

/*
 * One character of a double-quoted data string. gnuplot ends the string at
 * the first " whatever comes before it, then reads its backslash escapes
 * (\\, \n, octal \042): " and \ go as octal escapes, and so does an octal
 * digit right after one, which gnuplot would read as more of the number.
 * *@state: whether the last character written was an escape.
 */
static void put_name_char(FILE *f, const char *c, size_t n, void *state)
{
	bool *escaped = state;

	*escaped = *c == '"' || *c == '\\' || (*escaped && *c >= '0' && *c <= '7');
	if (*escaped)
		fprintf(f, "\\%03o", (unsigned char)*c);
	else
		fwrite(c, 1, n, f);
}

/*
 * A name as a double-quoted gnuplot data string that reads back as it is
 * (" and \ escaped), without control characters (C0, DEL, C1) or bytes that
 * are not UTF-8 (lb_str_char()): a newline would end the row, and the
 * figure's text is no place for them.
 */
void lb_fig_put_name(FILE *f, const char *s)
{
	bool escaped = false;

	fputc('"', f);
	lb_fmt_put_each(f, s, put_name_char, &escaped);
	fputc('"', f);
}

/* One character of a single-quoted gnuplot string: '' for '. */
static void put_gp_char(FILE *f, const char *c, size_t n, void *state)
{
	if (*c == '\'')
		fputc('\'', f);
	fwrite(c, 1, n, f);
}

/*
 * @s as a single-quoted gnuplot string: '' for ', control characters and
 * non-UTF-8 dropped as in lb_fig_put_name(). Inside single quotes gnuplot
 * substitutes nothing (no `command`, no @macro, no backslash escape), and
 * without a newline the string cannot end the command it is in.
 */
void lb_fig_put_string(FILE *f, const char *s)
{
	fputc('\'', f);
	lb_fmt_put_each(f, s, put_gp_char, NULL);
	fputc('\'', f);
}

/*
 * @s in a comment line of a script or data file: escaped (lb_str_put_safe()),
 * since a newline in it would end the comment and start a gnuplot command.
 */
void lb_fig_put_comment(FILE *f, const char *s)
{
	lb_str_put_safe(f, s);
}

/*
 * Append @text to the gnuplot string expression on @f, wrapped at spaces to
 * lines of LB_FIG_FOOTER_WIDTH characters ('a' . "\n" . 'b'); @lines counts the
 * lines written so far. Past @max lines the text is cut with
 * "... (in full in results.json)". Returns the new line count.
 */
int lb_fig_put_wrapped(FILE *f, const char *text, int lines, int max)
{
	static const char more[] = " ... (in full in results.json)";
	const char *p = text;
	char line[LB_FIG_FOOTER_WIDTH + 1];

	while (*p) {
		size_t n = strlen(p), cut = n;

		if (lines >= max)
			return lines;
		if (n > LB_FIG_FOOTER_WIDTH) {
			cut = LB_FIG_FOOTER_WIDTH;
			while (cut > LB_FIG_FOOTER_WIDTH / 2 && p[cut] != ' ')
				cut--;
			if (p[cut] != ' ')
				cut = LB_FIG_FOOTER_WIDTH;
		}
		if (lines + 1 == max && cut < n) {
			cut = LB_FIG_FOOTER_WIDTH - (sizeof(more) - 1);
			while (cut > LB_FIG_FOOTER_WIDTH / 2 && p[cut] != ' ')
				cut--;
			snprintf(line, sizeof(line), "%.*s%s", (int)cut, p, more);
			cut = n;
		} else {
			snprintf(line, sizeof(line), "%.*s", (int)cut, p);
		}
		fputs(lines ? " . \"\\n\" . " : "", f);
		lb_fig_put_string(f, line);
		lines++;
		p += cut;
		while (*p == ' ')
			p++;
	}
	return lines;
}

void lb_fig_put_intro(FILE *f, const char *name, const char *what, const char *version)
{
	/* The version is the results file's: a newline in it would start a gnuplot command. */
	fprintf(f, "# %s.gp: %s, written by loadbench ", name, what);
	lb_fig_put_comment(f, lb_fmt_or_unknown(version));
	fprintf(f, ".\n# Render it in this directory with: gnuplot %s.gp (it reads %s.dat\n"
		"# and writes %s.png, %s.svg and %s.pdf). The header sets the texts; the rest\n"
		"# is the template plots/%s.gp.\n\n", name, name, name, name, name, name);
}

void lb_fig_put_caption_stream(FILE *m, char **text, FILE *f, bool tex)
{
	if (!fclose(m)) {
		if (tex)
			lb_fmt_put_tex(f, *text);
		else
			lb_fmt_put_text(f, *text);
	}
	free(*text);
	*text = NULL;
}
