/* SPDX-License-Identifier: Apache-2.0 */
/*
 * schema_doc: print the tables of spe_record's columns that docs/schema.md
 * holds: the view's, from SPE_RECORD_VIEW_COLUMNS (analysis/include/spe/
 * row_sink.h) and the facts table's event list, then the stored ones of
 * _spe_record from SPE_RECORD_COLUMNS.  The test docs-schema-record-columns
 * compares them with the doc; when a column is added, paste this output in.
 */
#include <stdio.h>
#include <string.h>

#include "spe/analysis.h"

int main(void)
{
	static const struct {
		const char *name, *doc;
	} view[] = {
#define SPE_X(name, doc) { #name, doc },
#define SPE_XC(idx, id, word, col, desc) { col, desc "; NULL when the counter was absent" },
		SPE_RECORD_VIEW_COLUMNS(SPE_X, SPE_XC)
#undef SPE_X
#undef SPE_XC
	};
	printf("| column | meaning |\n|---|---|\n");
	for (size_t c = 0; c < sizeof view / sizeof *view; c++) {
		printf("| `%s` | %s |\n", view[c].name, view[c].doc);
		if (strcmp(view[c].name, "events"))
			continue;
		printf("| one column per named event | 0/1 (NULL without EVENTS), computed from `events`:");
		const char *sep = " ";
#define SPE_X(bit, id, word, col, since, desc) printf("%s`%s`", sep, col), sep = ", ";
		SPE_EVENT_LIST(SPE_X)
#undef SPE_X
		printf(" (new rows of the facts table become new columns) |\n");
	}
	printf("\nThe table `_spe_record` stores:\n\n| column | meaning |\n|---|---|\n| `id` | row id |\n");
	for (int c = 0; c < SPE_RECORD_NCOLS; c++)
		printf("| `%s` | %s |\n", spe_record_columns[c].name, spe_record_columns[c].doc);
	return 0;
}
