// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the results reader (make fuzz): results.json files
 * are shared and read back by `loadbench plot` and friends. Any input must
 * load or fail with a message. One input in eight (by size, so a crash
 * replays) is also summarized: the 10,000-resample bootstrap would otherwise
 * slow the fuzzer down a hundredfold. Writing is left out for its fsync.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];

static void remove_input(void)
{
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lb_results *res = NULL;
	char err[512];
	FILE *f;

	if (!path[0]) {
		snprintf(path, sizeof(path), "/tmp/lb-fuzz-results-%d.json", (int)getpid());
		atexit(remove_input);
	}
	f = fopen(path, "w");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	err[0] = '\0';
	if (lb_results_read_json(path, &res, err, sizeof(err)) == 0) {
		if (size % 8 == 0)
			lb_results_summarize(res);
		lb_results_free(res);
	} else if (!err[0]) {
		abort();	/* every failure says why */
	}
	return 0;
}
