/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz what spe_clickhouse reads that it did not write: a server's answer
 * (TabSeparatedWithNamesAndTypes: names, types, escaped rows, \N) printed in
 * each format, and the user's SQL, split into statements and rewritten for
 * a --host/--source scope.  The first byte picks which; the rest is the
 * input.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	char *text = malloc(size); /* NUL-terminated copy of the input after the first byte */
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = 0;
	FILE *out = fopen("/dev/null", "w");
	if (data[0] & 1) {
		char **list = ch_split_statements(text);
		for (size_t i = 0; list && list[i]; i++) {
			char *scoped = NULL, why[256];
			ch_scoped_sql(list[i], "(SELECT id FROM source WHERE host = 'h')", "spe", &scoped, why, sizeof why);
			free(scoped);
		}
		ch_free_list(list);
	} else if (out) {
		static const enum spe_result_format fmts[] = { SPE_FORMAT_TABLE, SPE_FORMAT_CSV, SPE_FORMAT_JSON };
		char *copy = malloc(size);
		for (size_t f = 0; copy && f < 3; f++) {
			memcpy(copy, data + 1, size - 1); /* parsed in place: a fresh copy each time */
			copy[size - 1] = 0;
			ch_answer_print(copy, size - 1, fmts[f], out);
		}
		free(copy);
	}
	if (out)
		fclose(out);
	free(text);
	return 0;
}
