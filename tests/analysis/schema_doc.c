/* SPDX-License-Identifier: Apache-2.0 */
/*
 * schema_doc: print the table of spe_record's columns that docs/schema.md
 * holds, from SPE_RECORD_COLUMNS (analysis/include/spe/row_sink.h) and the
 * facts table's event list.  The test docs-schema-record-columns compares
 * the two; when a column is added, paste this output into the doc.
 */
#include <stdio.h>

#include "spe/analysis.h"

int main(void)
{
	printf("| column | meaning |\n|---|---|\n| `id` | row id |\n");
	for (int c = 0; c < SPE_RECORD_NCOLS; c++) {
		printf("| `%s` | %s |\n", spe_record_columns[c].name, spe_record_columns[c].doc);
		if (c != SPE_RECORD_COL_EVENTS)
			continue;
		printf("| one column per named event | 0/1 (NULL without EVENTS), computed from `events`:");
		const char *sep = " ";
#define SPE_X(bit, id, word, col, since, desc) printf("%s`%s`", sep, col), sep = ", ";
		SPE_EVENT_LIST(SPE_X)
#undef SPE_X
		printf(" (new rows of the facts table become new columns) |\n");
	}
	return 0;
}
