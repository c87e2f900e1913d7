// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the probe-set parser (make fuzz). Any input must
 * give either a probe set or an error message naming the file and line
 * ("fuzz.probeset:N: ..."), never a crash, a leak or undefined behaviour.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probeset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lb_probeset *ps = NULL;
	char err[512];
	char *text;

	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	err[0] = '\0';
	if (lb_probeset_parse(text, "fuzz.probeset", &ps, err, sizeof(err)) == 0) {
		/* Success must mean a usable probe set: probes, or a command tracer's tool. */
		if (!ps || !ps->tracer || (!ps->nprobes && !ps->start))
			abort();
		lb_probeset_free(ps);
	} else if (strncmp(err, "fuzz.probeset:", 14) || !isdigit((unsigned char)err[14])) {
		abort();		/* every failure says why, and where */
	}
	free(text);
	return 0;
}
