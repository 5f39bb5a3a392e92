/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the loads could not know, said under the record count: records of
 * processes nobody named (no CONTEXT packet and no switch record), outside
 * every mapping, without a function, and kernel records without a symbol,
 * each only when there are some (load_stats; a count the loads that wrote
 * the database did not keep is NULL and left out, never shown as 0).
 */
#include <stdio.h>

#include "ana/statement.h"
#include "report_sqlite.h"
#include "text_internal.h"

static const struct {
	const char *column, *json, *text;
} unknowns[] = {
	{ "no_pid", "no_pid", "records of unknown processes (no CONTEXT packet, no switch record)" },
	{ "no_mapping", "no_mapping", "records outside every mapping" },
	{ "no_symbol", "no_symbol", "records without a function (no binary, or no symbol there)" },
	{ "kernel_no_symbol", "kernel_no_symbol", "kernel records without a function (give --kallsyms)" },
};
enum { N_UNKNOWNS = sizeof unknowns / sizeof unknowns[0] };

int report_text_unknowns(sqlite3 *db, FILE *out, int json, char *err, size_t errlen)
{
	const char *what = "reading what the loads could not know (load_stats)";
	sqlite3_stmt *st;
	if (ana_prepare(db,
			"SELECT sum(no_pid), sum(no_mapping), sum(no_symbol), sum(kernel_no_symbol) FROM load_stats", &st,
			what, err, errlen) < 0)
		return report_prepare_code(db);
	long long n[N_UNKNOWNS];
	int known[N_UNKNOWNS] = { 0 };
	if (sqlite3_step(st) == SQLITE_ROW)
		for (int i = 0; i < N_UNKNOWNS; i++) {
			known[i] = sqlite3_column_type(st, i) != SQLITE_NULL;
			n[i] = sqlite3_column_int64(st, i);
		}
	int rc = report_sqlite_finish(db, st, what, err, errlen);
	if (rc < 0)
		return rc;
	if (json) {
		fprintf(out, "\"unknown\": {");
		for (int i = 0; i < N_UNKNOWNS; i++) {
			fprintf(out, "%s\"%s\": ", i ? ", " : "", unknowns[i].json);
			if (known[i])
				fprintf(out, "%lld", n[i]);
			else
				fprintf(out, "null");
		}
		fprintf(out, "}");
		return 0;
	}
	int said = 0;
	for (int i = 0; i < N_UNKNOWNS; i++)
		if (known[i] && n[i] > 0)
			fprintf(out, "%s%lld %s", said++ ? ", " : "Not known: ", n[i], unknowns[i].text);
	if (said)
		fprintf(out, "\n\n");
	return 0;
}
