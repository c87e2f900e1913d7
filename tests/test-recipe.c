// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Workload recipes (src/cli/recipe.c), without root: the catalog's own
 * recipes parse; a recipe's command is split on blanks, its metric kept;
 * missing, unknown, repeated and empty keys and bad names are refused in
 * one line naming the file and the line; the names are listed in order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "recipe.h"

static char dir[] = "/tmp/lb-test-recipe.XXXXXX";

static void put(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.workload", dir, name);
	f = fopen(path, "w");
	T_CHECK(f && fputs(text, f) >= 0 && fclose(f) == 0);
}

/* Loading @name fails with @want and a one-line message containing @needle. */
static void bad(const char *name, int want, const char *needle)
{
	struct lb_recipe r;
	char err[512] = "";
	int ret = lb_recipe_load(dir, name, &r, err, sizeof(err));

	if (ret != want || (needle && (!strstr(err, needle) || strchr(err, '\n')))) {
		fprintf(stderr, "recipe %s: got %d \"%s\", want %d \"%s\"\n", name, ret, err, want,
			needle ? needle : "");
		t_failures++;
	}
	T_CHECK(!r.argv && !r.name);
}

int main(void)
{
	struct lb_recipe r;
	char err[512], names[256];

	/* The catalog's recipes. */
	T_CHECK(lb_recipe_load(LB_SRCDIR "/workloads", "hackbench", &r, err, sizeof(err)) == 0);
	T_CHECK(r.argv && !strcmp(r.argv[0], "hackbench") && !r.metric &&
		!strcmp(r.package, "rt-tests") && r.description);
	lb_recipe_release(&r);
	T_CHECK(lb_recipe_load(LB_SRCDIR "/workloads", "stress-ng-cpu", &r, err, sizeof(err)) == 0);
	T_CHECK(r.argv && !strcmp(r.argv[0], "stress-ng") && r.metric && strchr(r.metric, '('));
	lb_recipe_release(&r);
	T_CHECK(lb_recipe_load(LB_SRCDIR "/workloads", "redis", &r, err, sizeof(err)) == 0);
	T_CHECK(r.server_argv && !strcmp(r.server_argv[0], "redis-server") &&
		!strcmp(r.server_argv[1], LB_SRCDIR "/workloads/redis.conf") &&
		!strcmp(r.server_argv[3], "{output}") && r.ready && !strcmp(r.ready, "tcp:16379"));
	lb_recipe_release(&r);
	/* nginx: -g's quoted word whole, {output} left for the run, {recipe} filled. */
	T_CHECK(lb_recipe_load(LB_SRCDIR "/workloads", "nginx", &r, err, sizeof(err)) == 0);
	T_CHECK(r.server_argv && !strcmp(r.server_argv[2], LB_SRCDIR "/workloads/") &&
		!strcmp(r.server_argv[6], "daemon off; pid {output}/nginx.pid;") &&
		!r.server_argv[7] && r.metric && !strcmp(r.package, "nginx-light wrk"));
	lb_recipe_release(&r);
	/* python-calls: an absolute command, its script from {recipe}. */
	T_CHECK(lb_recipe_load(LB_SRCDIR "/workloads", "python-calls", &r, err, sizeof(err)) == 0);
	T_CHECK(r.argv && !strcmp(r.argv[0], "/usr/bin/python3.11") &&
		!strcmp(r.argv[3], LB_SRCDIR "/workloads/python-calls.py") && !r.metric &&
		!strcmp(r.package, "python3.11"));
	lb_recipe_release(&r);
	T_CHECK(!strcmp(lb_recipe_names(LB_SRCDIR "/workloads", names, sizeof(names)),
			"hackbench, nginx, python-calls, redis, stress-ng-cpu"));

	/* Words: blanks split, '...' keeps blanks and empty words, {recipe} outside quotes. */
	{
		char **v = NULL;

		T_CHECK(lb_words_split("  a 'b c'  '' d'e'f {recipe}/x '{recipe}'", "/R", &v) == 6);
		T_CHECK(v && !strcmp(v[0], "a") && !strcmp(v[1], "b c") && !strcmp(v[2], "") &&
			!strcmp(v[3], "def") && !strcmp(v[4], "/R/x") && !strcmp(v[5], "{recipe}") &&
			!v[6]);
		lb_words_free(v);
		T_CHECK(lb_words_split("sh -c 'echo ready; exec cat'", NULL, &v) == 3);
		T_CHECK(v && !strcmp(v[2], "echo ready; exec cat"));
		lb_words_free(v);
		T_CHECK(lb_words_split("a 'unclosed", NULL, &v) == -EINVAL && !v);
		T_CHECK(lb_words_split(" \t ", NULL, &v) == -EINVAL && !v);
		/* {KEY} replaced everywhere, quoted or not, as often as it is there. */
		T_CHECK(lb_words_split("perf -p {pids} '/pid == {pid} || {pid}/' {pid}x", NULL, &v) == 5);
		T_CHECK(lb_words_subst(v, "{pids}", "12,13") == 1);
		T_CHECK(lb_words_subst(v, "{pid}", "12") == 2);
		T_CHECK(v && !strcmp(v[1], "-p") && !strcmp(v[2], "12,13") &&
			!strcmp(v[3], "/pid == 12 || 12/") && !strcmp(v[4], "12x") && !v[5]);
		T_CHECK(lb_words_subst(v, "{nothing}", "x") == 0);
		lb_words_free(v);
	}

	if (!mkdtemp(dir))
		return T_EXIT_ERROR;
	put("ok", "# a comment\n\ndescription  two words  \ncommand   a  -b\tc d\nmetric x ([0-9]+) y\n");
	T_CHECK(lb_recipe_load(dir, "ok", &r, err, sizeof(err)) == 0);
	T_CHECK(r.argv && !strcmp(r.argv[0], "a") && !strcmp(r.argv[1], "-b") &&
		!strcmp(r.argv[2], "c") && !strcmp(r.argv[3], "d") && !r.argv[4]);
	T_CHECK(r.description && !strcmp(r.description, "two words"));
	T_CHECK(r.metric && !strcmp(r.metric, "x ([0-9]+) y") && !r.package);
	lb_recipe_release(&r);

	put("nocmd", "description nothing to run\n");
	bad("nocmd", -EINVAL, "nocmd.workload: no 'command' line: add one");
	put("unknown", "command true\nshell sh -c\n");
	bad("unknown", -EINVAL, "unknown.workload:2: unknown key 'shell': use description, command");
	put("twice", "command true\ncommand false\n");
	bad("twice", -EINVAL, "twice.workload:2: a second 'command'");
	put("srv", "command true\nserver sleep 1\n");
	bad("srv", -EINVAL, "srv.workload: 'server' without 'ready'");
	put("rdy", "command true\nready tcp:1\n");
	bad("rdy", -EINVAL, "rdy.workload: 'ready' without 'server'");
	put("empty", "command\n");
	bad("empty", -EINVAL, "empty.workload:1: 'command' has no value");
	bad("absent", -ENOENT, NULL);
	bad("../ok", -ENOENT, NULL);
	bad("", -ENOENT, NULL);
	T_CHECK(!strcmp(lb_recipe_names(dir, names, sizeof(names)),
			"empty, nocmd, ok, rdy, srv, twice, unknown"));
	for (const char *n = "empty\0nocmd\0ok\0rdy\0srv\0twice\0unknown\0"; *n;
	     n += strlen(n) + 1) {
		char p[256];

		snprintf(p, sizeof(p), "%s/%s.workload", dir, n);
		unlink(p);
	}
	T_CHECK(rmdir(dir) == 0);
	return t_exit();
}
