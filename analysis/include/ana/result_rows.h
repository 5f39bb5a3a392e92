/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A query result as the printers of result_format.c read it, whatever ran
 * the query: SQLite here, ClickHouse in analysis/clickhouse.  The same
 * values print the same text from either.
 */
#ifndef SPE_RESULT_ROWS_H
#define SPE_RESULT_ROWS_H

#include <stdio.h>

#include "spe/analysis.h"

enum result_type { RESULT_NULL, RESULT_INT, RESULT_FLOAT, RESULT_TEXT, RESULT_BLOB };

struct result_rows {
	void *ctx;
	int ncols;
	const char *(*name)(void *ctx, int col);
	/* 1 with a row, 0 at the end, negative on an error (the source keeps its message) */
	int (*next)(void *ctx);
	enum result_type (*type)(void *ctx, int col);
	/*
	 * The cell as text, malloc'd (NULL for SQL NULL): integers in decimal,
	 * floats as SQLite prints them ("%!.15g": 2.5, 3.0), blobs in hex.
	 */
	char *(*text)(void *ctx, int col);
	/*
	 * Optional, for the streaming printers: the cell's type in *type and,
	 * unless it is NULL, its text as text() would give it, borrowed (valid
	 * until the next call) and of length *len; @p scratch (NUMBER_TEXT_MAX
	 * bytes) may hold it.  NULL for a non-NULL cell sends the printer to
	 * text().  Without the copies, printing all 200,000 rows of hot_pc as
	 * CSV takes a third less time.
	 */
	const char *(*peek)(void *ctx, int col, char *scratch, size_t *len, enum result_type *type);
};

/*
 * Print every row of @p r as a table, CSV or JSON lines.  Tables after the
 * first (*@p sets counts them) are preceded by a blank line.  Returns 0,
 * -spe_nomem, or the negative value next() returned (a table prints
 * nothing of a result that failed part way).
 */
int ana_result_rows_print(const struct result_rows *r, enum spe_result_format fmt, FILE *out, int *sets);

/* The rows of @p r as a JSON array of objects keyed by column name. */
int ana_result_rows_json_array(const struct result_rows *r, FILE *out);

#endif
