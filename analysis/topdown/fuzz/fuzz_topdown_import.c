/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the topdown importers: every format parser on the same bytes (the
 * detector picks one; the others are forced), cut into runs at perf's
 * headers and pasted prompts, with and without a CPU so the raw-count
 * formulas run too.
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
	for (int fmt = TD_FMT_UNKNOWN; fmt <= TD_FMT_LAST; fmt++) {
		struct td_import_result res;
		struct td_diag diag;
		struct td_import_opts opts = { .cpu = cpus[(size + (size_t)fmt) % 6], .format = (enum td_format)fmt };
		td_import_result_init(&res);
		td_import_runs(text, size, &opts, &res, &diag);
		td_import_result_fini(&res);
	}
	free(text);
	return 0;
}
