/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the topdown importers: every format parser on the same bytes (the
 * detector picks one; the others are forced), with and without a CPU so
 * the raw-count formulas run too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "topdown/import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	static const char *const cpus[] = { NULL, "skylake", "westmere", "neoverse-n2", "neoverse-v3", "neoverse-n1" };
	for (int fmt = TD_FMT_UNKNOWN; fmt <= TD_FMT_RAW; fmt++) {
		struct td_run run;
		struct td_diag diag;
		struct td_import_opts opts = { .cpu = cpus[(size + (size_t)fmt) % 6], .format = (enum td_format)fmt };
		td_run_init(&run);
		td_import_text(text, size, &opts, &run, &diag);
		td_run_free(&run);
	}
	free(text);
	return 0;
}
