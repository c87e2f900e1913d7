// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit test (no root): the exact loadbench_<pid> names the run locks own,
 * and the removal of a tree that never follows a link (safefs.h) and never
 * takes another user's directory for loadbench's.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <sys/stat.h>

#include "helpers.h"
#include "owner.h"
#include "safefs.h"

static void test_parse(void)
{
	pid_t pid = 0;

	T_CHECK(lb_owner_parse("loadbench_123", &pid) && pid == 123);
	T_CHECK(lb_owner_parse("loadbench_7_2", &pid) && pid == 7);
	T_CHECK(lb_owner_parse("loadbench_1_0", &pid) && pid == 1);
	/* Anything else is somebody else's name, however close. */
	T_CHECK(!lb_owner_parse("loadbench_2024.backup", NULL));
	T_CHECK(!lb_owner_parse("loadbench_123x", NULL));
	T_CHECK(!lb_owner_parse("loadbench_123_", NULL));
	T_CHECK(!lb_owner_parse("loadbench_123_4_5", NULL));
	T_CHECK(!lb_owner_parse("loadbench_123/evt", NULL));
	T_CHECK(!lb_owner_parse("loadbench_0123", NULL));
	T_CHECK(!lb_owner_parse("loadbench_12_03", NULL));
	T_CHECK(!lb_owner_parse("loadbench_0", NULL));
	T_CHECK(!lb_owner_parse("loadbench_-5", NULL));
	T_CHECK(!lb_owner_parse("loadbench_+5", NULL));
	T_CHECK(!lb_owner_parse("loadbench_ 5", NULL));
	T_CHECK(!lb_owner_parse("loadbench_", NULL));
	T_CHECK(!lb_owner_parse("loadbench_99999999999", NULL));
	T_CHECK(!lb_owner_parse("loadbench_5_99999999999", NULL));
	T_CHECK(!lb_owner_parse("xloadbench_5", NULL));
	T_CHECK(!lb_owner_parse("", NULL));
	/* What the writer makes, the parser reads back: the name is written in one place. */
	char name[64];

	T_CHECK(!strcmp(lb_owner_name(name, sizeof(name), 4242, 0), "loadbench_4242"));
	T_CHECK(lb_owner_parse(name, &pid) && pid == 4242);
	T_CHECK(!strcmp(lb_owner_name(name, sizeof(name), 4242, 3), "loadbench_4242_3"));
	T_CHECK(lb_owner_parse(name, &pid) && pid == 4242);
	T_CHECK(lb_owner_parse(lb_owner_name(name, sizeof(name), 0, 1), &pid) && pid == getpid());
}

static void test_judge(void)
{
	struct lb_owners *o;
	pid_t pid;

	/* lb_owners_of: the names of that pid alone, taken as dead. */
	T_CHECK(lb_owners_of(4242, &o) == 0);
	T_CHECK(lb_owners_judge(o, "loadbench_4242", &pid) == LB_OWNER_DEAD && pid == 4242);
	T_CHECK(lb_owners_judge(o, "loadbench_4242_3", NULL) == LB_OWNER_DEAD);
	T_CHECK(lb_owners_judge(o, "loadbench_4243", NULL) == LB_OWNER_NOT_OURS);
	T_CHECK(lb_owners_judge(o, "loadbench_4242.lock", NULL) == LB_OWNER_NOT_OURS);
	T_CHECK(lb_owners_judge(o, "othertool_4242", NULL) == LB_OWNER_NOT_OURS);
	lb_owners_free(o, false);
}

static int mkfile(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		return -1;
	(void)!write(fd, "x\n", 2);
	close(fd);
	return 0;
}

static void test_rmtree(void)
{
	char top[] = "/tmp/lb-test-owner.XXXXXX", p[PATH_MAX], victim[PATH_MAX];
	struct stat st;
	int fd;

	if (!mkdtemp(top)) {
		T_CHECK(!"mkdtemp");
		return;
	}
	snprintf(victim, sizeof(victim), "%s/victim", top);
	T_CHECK(mkdir(victim, 0755) == 0);
	snprintf(p, sizeof(p), "%s/victim/keep", top);
	T_CHECK(mkfile(p) == 0);

	/* A tree with links to the victim's directory and file, at several depths. */
	snprintf(p, sizeof(p), "%s/tree", top);
	T_CHECK(mkdir(p, 0700) == 0);
	snprintf(p, sizeof(p), "%s/tree/a", top);
	T_CHECK(mkdir(p, 0700) == 0);
	snprintf(p, sizeof(p), "%s/tree/a/b", top);
	T_CHECK(mkdir(p, 0700) == 0);
	snprintf(p, sizeof(p), "%s/tree/a/b/file", top);
	T_CHECK(mkfile(p) == 0);
	snprintf(p, sizeof(p), "%s/tree/a/dirlink", top);
	T_CHECK(symlink(victim, p) == 0);
	snprintf(p, sizeof(p), "%s/victim/keep", top);
	{
		char l[PATH_MAX];

		snprintf(l, sizeof(l), "%s/tree/a/b/filelink", top);
		T_CHECK(symlink(p, l) == 0);
	}
	fd = open(top, O_RDONLY | O_DIRECTORY);
	T_CHECK(fd >= 0);
	T_CHECK(lb_dir_private_at(fd, "tree", geteuid()) == 1);
	T_CHECK(lb_dir_private_at(fd, "victim", geteuid()) == 0);	/* mode 0755 */
	T_CHECK(lb_dir_private_at(fd, "tree", geteuid() + 1) == 0);	/* another user's */
	T_CHECK(lb_dir_private_at(fd, "missing", geteuid()) == -ENOENT);
	T_CHECK(lb_rmtree_at(fd, "tree") == 0);
	T_CHECK(fstatat(fd, "tree", &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT);
	snprintf(p, sizeof(p), "%s/victim/keep", top);
	T_CHECK(stat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 2);
	T_CHECK(lb_rmtree_at(fd, "tree") == 0);	/* gone already: nothing to do */

	/* A link given as the top is removed itself, not followed. */
	T_CHECK(symlinkat(victim, fd, "toplink") == 0);
	T_CHECK(lb_rmtree_at(fd, "toplink") == 0);
	T_CHECK(fstatat(fd, "toplink", &st, AT_SYMLINK_NOFOLLOW) < 0);
	T_CHECK(stat(p, &st) == 0);

	/* A tree deeper than the limit is refused, not recursed into without end. */
	snprintf(p, sizeof(p), "%s/deep", top);
	T_CHECK(mkdir(p, 0700) == 0);
	for (int i = 0; i < 70; i++) {
		size_t n = strlen(p);

		if (n + 3 >= sizeof(p))
			break;
		strcat(p, "/d");
		T_CHECK(mkdir(p, 0700) == 0);
	}
	T_CHECK(lb_rmtree_at(fd, "deep") == -ELOOP);
	close(fd);

	/* Tidy up: the deep chain from the bottom, then the victim. */
	for (char *slash; strcmp(p, top) && (slash = strrchr(p, '/')); *slash = '\0')
		T_CHECK(rmdir(p) == 0);
	snprintf(p, sizeof(p), "%s/victim", top);
	t_remove_dir(p);
	T_CHECK(rmdir(top) == 0);
}

int main(void)
{
	test_parse();
	test_judge();
	test_rmtree();
	return t_exit();
}
