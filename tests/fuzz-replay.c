// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * make check's side of the fuzzers: feeds every file of the directories in
 * LB_FUZZ_DIRS (the regression cases, one per crash a fuzzer ever found, and
 * the seed corpus) to a harness's LLVMFuzzerTestOneInput(), built with the
 * ordinary compiler (and with ASan/UBSan under --enable-sanitizers). A harness
 * aborts on a wrong answer; a crash fails the test. No clang needed.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "helpers.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Replays every regular file below @dir; returns how many, or -1 when @dir cannot be read. */
static int replay_dir(const char *dir)
{
	struct dirent *de;
	int n = 0;
	DIR *d;

	d = opendir(dir);
	if (!d) {
		fprintf(stderr, "fuzz-replay: cannot read %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		char path[4096];
		struct stat st;
		size_t len;
		char *data;
		int sub;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			sub = replay_dir(path);
			n += sub > 0 ? sub : 0;
			continue;
		}
		if (!S_ISREG(st.st_mode) || lb_read_file(path, 1 << 20, &data, &len))
			continue;
		LLVMFuzzerTestOneInput((const uint8_t *)data, len);
		free(data);
		n++;
	}
	closedir(d);
	return n;
}

int main(void)
{
	char dirs[] = LB_FUZZ_DIRS;
	int total = 0;

	for (char *save = NULL, *dir = strtok_r(dirs, ":", &save); dir;
	     dir = strtok_r(NULL, ":", &save)) {
		int n = replay_dir(dir);

		if (n < 0)
			return T_EXIT_ERROR;
		printf("fuzz-replay: %d input(s) of %s handled\n", n, dir);
		total += n;
	}
	if (!total) {
		fprintf(stderr, "fuzz-replay: no inputs found in %s\n", LB_FUZZ_DIRS);
		return T_EXIT_FAIL;
	}
	return T_EXIT_PASS;
}
