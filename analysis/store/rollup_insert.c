/* SPDX-License-Identifier: Apache-2.0 */
#include "rollup_insert.h"

#include "number_text.h"
#include "util/text.h"

static sqlite3_stmt *prepare(sqlite3 *db, const char *into, int ncols, int rows)
{
	struct util_text t = { 0 };
	util_text_appendf(&t, "INSERT INTO %s VALUES", into);
	for (int k = 0; k < rows; k++)
		for (int c = 0; c < ncols; c++)
			util_text_append(&t, c == 0 ? (k ? ",(?" : "(?") : c == ncols - 1 ? ",?)" : ",?");
	sqlite3_stmt *st = NULL;
	if (util_text_ok(&t) && sqlite3_prepare_v2(db, t.buf, -1, &st, NULL) != SQLITE_OK)
		st = NULL;
	util_text_fini(&t);
	return st;
}

int ana_rollup_insert(sqlite3 *db, const char *into, int ncols, size_t n,
		      int (*bind)(void *ctx, sqlite3_stmt *st, int first, size_t k), void *ctx)
{
	sqlite3_stmt *batch = n >= ROLLUP_BATCH ? prepare(db, into, ncols, ROLLUP_BATCH) : NULL;
	sqlite3_stmt *one = prepare(db, into, ncols, 1);
	int rc = one && (batch || n < ROLLUP_BATCH) ? 0 : -1;
	for (size_t k = 0; k < n && rc == 0;) {
		sqlite3_stmt *st = n - k >= ROLLUP_BATCH ? batch : one;
		int rows = st == batch ? ROLLUP_BATCH : 1;
		for (int j = 0; j < rows && rc == 0; j++, k++)
			if (bind(ctx, st, 1 + j * ncols, k) != SQLITE_OK)
				rc = -1;
		if (rc == 0 && sqlite3_step(st) != SQLITE_DONE)
			rc = -1;
		sqlite3_reset(st);
	}
	sqlite3_finalize(batch);
	sqlite3_finalize(one);
	return rc;
}

void ana_bind_int_or_null(sqlite3_stmt *st, int i, int has, int64_t v)
{
	if (has)
		sqlite3_bind_int64(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

void ana_bind_offset(sqlite3_stmt *st, int i, int64_t pc, int64_t start)
{
	int64_t d;
	if (__builtin_sub_overflow(pc, start, &d))
		sqlite3_bind_double(st, i, (double)pc - (double)start);
	else
		sqlite3_bind_int64(st, i, d);
}

int ana_bind_rounded(sqlite3 *db, sqlite3_stmt **round, sqlite3_stmt *st, int i, char *text, uint64_t num,
		     uint64_t den, int places, double ratio)
{
	size_t n = ana_ratio_round_text(text, num, den, places);
	if (n)
		return sqlite3_bind_text(st, i, text, (int)n, SQLITE_STATIC);
	if (!*round && sqlite3_prepare_v2(db, "SELECT round(?1, ?2)", -1, round, NULL) != SQLITE_OK)
		return SQLITE_ERROR;
	sqlite3_bind_double(*round, 1, ratio);
	sqlite3_bind_int(*round, 2, places);
	int rc = sqlite3_step(*round) == SQLITE_ROW ? sqlite3_bind_double(st, i, sqlite3_column_double(*round, 0))
						     : SQLITE_ERROR;
	sqlite3_reset(*round);
	return rc;
}
