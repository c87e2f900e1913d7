// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rendering every figure with gnuplot: from the fixture results.json, the
 * figures of a results directory (slowdown, throughput, cost) and of a
 * comparison are written and rendered; every PNG, SVG and PDF must be
 * there and non-empty, each SVG well-formed XML (checked here, no
 * libxml2). Exits 77 (skip) when gnuplot is not installed. No root needed.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "plot.h"
#include "results.h"

#ifndef LB_SRCDIR
#define LB_SRCDIR "."
#endif

#define FIXTURE LB_SRCDIR "/tests/fixtures/results.json"
#define MAX_DEPTH 256

static bool name_char(char c)
{
	return c && !strchr(" \t\r\n/>=\"'<", c);
}

/* Skip past @end from @p; NULL when it never comes. */
static const char *skip_past(const char *p, const char *end)
{
	const char *q = strstr(p, end);

	return q ? q + strlen(end) : NULL;
}

/*
 * Whether @s is well-formed XML in the sense that matters for an SVG: one
 * root element, every start tag closed by the matching end tag, attributes
 * quoted, comments, CDATA, processing instructions and the DOCTYPE closed.
 * Writes the reason to @why otherwise.
 */
static bool xml_well_formed(const char *s, char *why, size_t len)
{
	const char *stack[MAX_DEPTH];
	size_t stack_len[MAX_DEPTH];
	int depth = 0, roots = 0;
	const char *p = s;

	while ((p = strchr(p, '<'))) {
		const char *name;
		size_t n;

		if (!strncmp(p, "<?", 2)) {
			p = skip_past(p, "?>");
		} else if (!strncmp(p, "<!--", 4)) {
			p = skip_past(p + 4, "-->");
		} else if (!strncmp(p, "<![CDATA[", 9)) {
			p = skip_past(p, "]]>");
		} else if (!strncmp(p, "<!DOCTYPE", 9)) {
			const char *gt = strchr(p, '>'), *br = strchr(p, '[');

			p = br && gt && br < gt ? skip_past(br, "]>") : (gt ? gt + 1 : NULL);
		} else if (p[1] == '/') {
			name = p + 2;
			for (n = 0; name_char(name[n]); n++)
				;
			if (!depth || stack_len[depth - 1] != n || strncmp(stack[depth - 1], name, n)) {
				snprintf(why, len, "end tag </%.*s> does not close <%.*s>", (int)n, name,
					 depth ? (int)stack_len[depth - 1] : 0,
					 depth ? stack[depth - 1] : "");
				return false;
			}
			depth--;
			p = strchr(name + n, '>');
			if (p)
				p++;
		} else {
			name = p + 1;
			for (n = 0; name_char(name[n]); n++)
				;
			if (!n) {
				snprintf(why, len, "a '<' that starts no tag");
				return false;
			}
			if (!depth && roots++) {
				snprintf(why, len, "a second root element <%.*s>", (int)n, name);
				return false;
			}
			p = name + n;
			/* Attributes: name="value" or name='value'. */
			for (;;) {
				p += strspn(p, " \t\r\n");
				if (*p == '>' || !strncmp(p, "/>", 2))
					break;
				while (name_char(*p))
					p++;
				p += strspn(p, " \t\r\n");
				if (*p != '=') {
					snprintf(why, len, "an attribute without a value in <%.*s>",
						 (int)n, name);
					return false;
				}
				p += 1 + strspn(p + 1, " \t\r\n");
				if (*p != '"' && *p != '\'') {
					snprintf(why, len, "an unquoted attribute in <%.*s>", (int)n,
						 name);
					return false;
				}
				p = strchr(p + 1, *p);
				if (!p)
					break;
				p++;
			}
			if (!p || !*p) {
				snprintf(why, len, "the file ends inside <%.*s>", (int)n, name);
				return false;
			}
			if (*p == '>') {
				if (depth == MAX_DEPTH) {
					snprintf(why, len, "nested too deep");
					return false;
				}
				stack[depth] = name;
				stack_len[depth++] = n;
				p++;
			} else {
				p += 2;
			}
		}
		if (!p) {
			snprintf(why, len, "an unclosed comment, CDATA section or declaration");
			return false;
		}
	}
	if (depth) {
		snprintf(why, len, "<%.*s> is never closed", (int)stack_len[depth - 1],
			 stack[depth - 1]);
		return false;
	}
	if (!roots) {
		snprintf(why, len, "no root element");
		return false;
	}
	return true;
}

static void check_xml_checker(void)
{
	char why[256];

	T_CHECK(xml_well_formed("<?xml version=\"1.0\"?>\n<!DOCTYPE svg [ <!ENTITY a 'b'> ]>\n"
				"<svg a=\"1\" b='2'><!-- <x> --><g><path d=\"M0\"/></g>"
				"<![CDATA[ <y> ]]></svg>\n", why, sizeof(why)));
	T_CHECK(!xml_well_formed("<svg><g></svg>", why, sizeof(why)));
	T_CHECK(!xml_well_formed("<svg a=1></svg>", why, sizeof(why)));
	T_CHECK(!xml_well_formed("<svg></svg><svg></svg>", why, sizeof(why)));
	T_CHECK(!xml_well_formed("<svg><g>", why, sizeof(why)));
	T_CHECK(!xml_well_formed("<svg><!-- </svg>", why, sizeof(why)));
}

/* NAME.png, .svg and .pdf in @dir: there, non-empty, the right kind of file. */
static void check_outputs(const char *dir, const char *name)
{
	char path[4096], why[256] = "";
	size_t len = 0;
	char *data;

	snprintf(path, sizeof(path), "%s/%s.png", dir, name);
	data = t_read_all(path, &len);
	T_CHECK(data && len > 1000 && !memcmp(data, "\x89PNG\r\n\x1a\n", 8));
	free(data);

	snprintf(path, sizeof(path), "%s/%s.svg", dir, name);
	data = t_read_all(path, &len);
	T_CHECK(data && len > 1000 && strstr(data, "<svg"));
	if (data && !xml_well_formed(data, why, sizeof(why))) {
		fprintf(stderr, "%s is not well-formed XML: %s\n", path, why);
		t_failures++;
	}
	free(data);

	/* The PDF needs gnuplot's cairo terminal (gnuplot-nox has it); else it is skipped. */
	snprintf(path, sizeof(path), "%s/%s.pdf", dir, name);
	data = t_read_all(path, &len);
	if (data)
		T_CHECK(len > 500 && !memcmp(data, "%PDF", 4));
	else
		printf("%s: no PDF (gnuplot without pdfcairo?)\n", path);
	free(data);
}

int main(void)
{
	static const char *const figures[] = { "slowdown", "throughput", "cost" };
	const char *labels[2] = { "one", "two: 6.1" };
	char dir[] = "/tmp/test-render.XXXXXX", cmp[] = "/tmp/test-render-cmp.XXXXXX";
	struct lb_results *res = NULL, *res2 = NULL;
	const struct lb_results *both[2];
	char err[512] = "";
	size_t i;
	int ret;

	check_xml_checker();
	ret = lb_results_read_json(FIXTURE, &res, err, sizeof(err));
	if (!ret)
		ret = lb_results_read_json(FIXTURE, &res2, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "cannot read %s: %s\n", FIXTURE, err);
		return T_EXIT_ERROR;
	}
	if (!mkdtemp(dir) || !mkdtemp(cmp)) {
		perror("mkdtemp");
		return T_EXIT_ERROR;
	}
	T_CHECK(lb_plot_write(res, dir, LB_SRCDIR "/plots", err, sizeof(err)) == 0);
	ret = lb_plot_render(dir, err, sizeof(err));
	if (ret == -ENOENT) {
		printf("gnuplot is not installed: nothing to render (%s)\n", err);
		t_remove_dir(dir);
		t_remove_dir(cmp);
		lb_results_free(res);
		lb_results_free(res2);
		return t_failures ? T_EXIT_FAIL : T_EXIT_SKIP;
	}
	T_CHECK(ret == 0);
	if (ret)
		fprintf(stderr, "lb_plot_render: %s\n", err);
	for (i = 0; i < sizeof(figures) / sizeof(figures[0]); i++)
		check_outputs(dir, figures[i]);

	/* A comparison where the second results lack a probe set. */
	free(res2->host.kernel_release);
	res2->host.kernel_release = strdup("6.1.0-13-amd64");
	res2->nprobesets--;
	both[0] = res;
	both[1] = res2;
	T_CHECK(lb_plot_write_compare(both, labels, 2, cmp, LB_SRCDIR "/plots", err,
				      sizeof(err)) == 0);
	res2->nprobesets++;
	ret = lb_plot_render(cmp, err, sizeof(err));
	T_CHECK(ret == 0);
	if (ret)
		fprintf(stderr, "lb_plot_render (compare): %s\n", err);
	check_outputs(cmp, "compare");

	/* A results directory without probe sets still renders every figure. */
	res->nprobesets = 0;
	T_CHECK(lb_plot_write(res, dir, LB_SRCDIR "/plots", err, sizeof(err)) == 0);
	ret = lb_plot_render(dir, err, sizeof(err));
	T_CHECK(ret == 0);
	if (ret)
		fprintf(stderr, "lb_plot_render with no probe sets: %s\n", err);
	res->nprobesets = res2->nprobesets;

	t_remove_dir(dir);
	t_remove_dir(cmp);
	lb_results_free(res);
	lb_results_free(res2);
	return t_exit();
}
