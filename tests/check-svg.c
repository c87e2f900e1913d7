// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check-svg FILE.svg [NAME...]: the text of a figure as a reader sees it.
 * check-svg --texts FILE.svg: print each text element's text, one a line.
 * Every text element gnuplot's svg terminal wrote (a <g transform=
 * "translate(X,Y) rotate(A)" font-size="S" text-anchor="..."> holding a
 * <text>) gets a box: S high over its baseline, its characters' widths
 * (DejaVu Sans, the font the figures name, at S, per character class) wide,
 * turned by A about its anchor. Fails (exit 1, each fault a line) when two
 * boxes overlap, when a box leaves the viewBox, or when a NAME is not the
 * whole text of some element or a part of one. Exit 2: not an SVG of
 * gnuplot's. The estimate errs wide (a box is the widest the text can be in
 * that font), so text that passes does not touch.
 */
#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TEXTS	4096
#define SLACK		0.5	/* px two boxes may share before it counts as overlap */

struct text {
	double x, y, angle, size;
	char anchor;		/* 's'tart, 'm'iddle, 'e'nd */
	char *s;
	double corners[4][2];	/* the box, turned */
	int line;
};

static struct text texts[MAX_TEXTS];
static int ntexts, faults;

/* The width of @c in DejaVu Sans, in em (slightly rounded up). */
static double char_em(unsigned char c)
{
	if (c >= 0x80)
		return 0.35;	/* a UTF-8 byte: a character is 2-3 of them, ~0.7-1.0 em */
	if (strchr("il.,:;'|!", c))
		return 0.32;
	if (strchr("fjrtI()[]{} -/\\`", c))
		return 0.42;
	if (strchr("mwMW%@", c))
		return 0.98;
	if (isupper(c) || strchr("&#~+=<>_^*\"?", c))
		return 0.76;
	return 0.64;
}

/* Decode &lt; &gt; &amp; &quot; &apos; and &#N; in place. */
static void unescape(char *s)
{
	char *w = s;

	while (*s) {
		if (*s == '&') {
			char *semi = strchr(s, ';');

			if (semi && semi - s < 10) {
				if (!strncmp(s, "&lt;", 4))
					*w++ = '<';
				else if (!strncmp(s, "&gt;", 4))
					*w++ = '>';
				else if (!strncmp(s, "&amp;", 5))
					*w++ = '&';
				else if (!strncmp(s, "&quot;", 6))
					*w++ = '"';
				else if (!strncmp(s, "&apos;", 6))
					*w++ = '\'';
				else
					*w++ = '?';
				s = semi + 1;
				continue;
			}
		}
		*w++ = *s++;
	}
	*w = '\0';
}

/* The text between <text> and </text> on @p, tags (tspan) dropped; malloc'd. */
static char *text_of(const char *p)
{
	const char *end = strstr(p, "</text>");
	char *out, *w;
	bool tag = false;

	if (!end)
		return NULL;
	out = malloc((size_t)(end - p) + 1);
	if (!out)
		return NULL;
	for (w = out; p < end; p++) {
		if (*p == '<')
			tag = true;
		else if (*p == '>')
			tag = false;
		else if (!tag && *p != '\n' && *p != '\t')
			*w++ = *p;
	}
	*w = '\0';
	unescape(out);
	return out;
}

static void box(struct text *t)
{
	double w = 0, h = t->size, x0, a = t->angle * M_PI / 180;
	/* DejaVu Sans: ascenders and capitals to 0.76 em, descenders to 0.24 em. */
	const double ys[2] = { -0.76 * h, 0.24 * h };

	for (const char *c = t->s; *c; c++)
		w += char_em((unsigned char)*c) * t->size;
	x0 = t->anchor == 'm' ? -w / 2 : t->anchor == 'e' ? -w : 0;
	for (int i = 0; i < 4; i++) {
		double bx = x0 + (i == 1 || i == 2 ? w : 0), by = ys[i >= 2];

		t->corners[i][0] = t->x + bx * cos(a) - by * sin(a);
		t->corners[i][1] = t->y + bx * sin(a) + by * cos(a);
	}
}

/* Whether the convex quadrilaterals @a and @b overlap by more than SLACK (separating axes). */
static bool overlap(const double a[4][2], const double b[4][2])
{
	const double (*polys[2])[2] = { a, b };

	for (int p = 0; p < 2; p++) {
		for (int i = 0; i < 4; i++) {
			const double *p1 = polys[p][i], *p2 = polys[p][(i + 1) % 4];
			double nx = p2[1] - p1[1], ny = p1[0] - p2[0], len = hypot(nx, ny);
			double amin = INFINITY, amax = -INFINITY, bmin = INFINITY, bmax = -INFINITY;

			if (len == 0)
				continue;
			nx /= len;
			ny /= len;
			for (int k = 0; k < 4; k++) {
				double pa = a[k][0] * nx + a[k][1] * ny;
				double pb = b[k][0] * nx + b[k][1] * ny;

				amin = fmin(amin, pa);
				amax = fmax(amax, pa);
				bmin = fmin(bmin, pb);
				bmax = fmax(bmax, pb);
			}
			if (amax <= bmin + SLACK || bmax <= amin + SLACK)
				return false;
		}
	}
	return true;
}


int main(int argc, char **argv)
{
	double vb[4] = { 0, 0, 0, 0 };
	char line[65536];
	struct text *cur = NULL;
	int lineno = 0;
	bool svg = false;
	FILE *f;

	bool list = argc > 1 && !strcmp(argv[1], "--texts");

	if (list) {
		argv++;
		argc--;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: check-svg FILE.svg [NAME...] | check-svg --texts FILE.svg\n");
		return 2;
	}
	f = fopen(argv[1], "r");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		char *p;

		lineno++;
		if ((p = strstr(line, "viewBox=\"")) &&
		    sscanf(p, "viewBox=\"%lf %lf %lf %lf\"", &vb[0], &vb[1], &vb[2], &vb[3]) == 4)
			svg = true;
		/* <g transform="translate(X,Y)[ rotate(A)]" ... font-size="S" ... text-anchor="A"> */
		p = strstr(line, "<g transform=\"translate(");
		if (p && strstr(p, "font-size=\"")) {
			struct text t = { .anchor = 's', .line = lineno };
			char *r = strstr(p, "rotate("), *fs = strstr(p, "font-size=\"");
			char *an = strstr(p, "text-anchor=\"");

			if (sscanf(p, "<g transform=\"translate(%lf,%lf)", &t.x, &t.y) != 2)
				continue;
			if (r && r < fs)
				sscanf(r, "rotate(%lf)", &t.angle);
			sscanf(fs, "font-size=\"%lf\"", &t.size);
			if (an)
				t.anchor = an[13] == 'm' ? 'm' : an[13] == 'e' ? 'e' : 's';
			if (ntexts == MAX_TEXTS) {
				fprintf(stderr, "%s: more than %d texts\n", argv[1], MAX_TEXTS);
				return 2;
			}
			texts[ntexts] = t;
			cur = &texts[ntexts++];
		}
		p = strstr(line, "<text");
		if (p && cur && !cur->s) {
			cur->s = text_of(strchr(p, '>') + 1);
			if (!cur->s || !*cur->s) {	/* an empty label: nothing to see */
				free(cur->s);
				ntexts--;
			} else {
				box(cur);
			}
			cur = NULL;
		}
	}
	fclose(f);
	if (!svg) {
		fprintf(stderr, "%s: no viewBox: not an SVG of gnuplot's\n", argv[1]);
		return 2;
	}
	if (list) {
		for (int i = 0; i < ntexts; i++)
			puts(texts[i].s);
		return 0;
	}
	for (int i = 0; i < ntexts; i++) {
		for (int k = 0; k < 4; k++) {
			double x = texts[i].corners[k][0], y = texts[i].corners[k][1];

			if (x < vb[0] - SLACK || y < vb[1] - SLACK || x > vb[0] + vb[2] + SLACK ||
			    y > vb[1] + vb[3] + SLACK) {
				printf("%s: '%s' (line %d) leaves the canvas\n", argv[1], texts[i].s,
				       texts[i].line);
				faults++;
				break;
			}
		}
		for (int j = i + 1; j < ntexts; j++) {
			if (!overlap(texts[i].corners, texts[j].corners))
				continue;
			printf("%s: '%s' (line %d) overprints '%s' (line %d)\n", argv[1],
			       texts[i].s, texts[i].line, texts[j].s, texts[j].line);
			faults++;
		}
	}
	for (int a = 2; a < argc; a++) {
		bool found = false;

		for (int i = 0; i < ntexts && !found; i++)
			found = strstr(texts[i].s, argv[a]) != NULL;
		if (!found) {
			printf("%s: the name '%s' is not drawn\n", argv[1], argv[a]);
			faults++;
		}
	}
	printf("%s: %d texts, %d faults\n", argv[1], ntexts, faults);
	return faults ? 1 : 0;
}
