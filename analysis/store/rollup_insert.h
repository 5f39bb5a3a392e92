/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writing the rows the rollups at the end of a load store for the per-PC
 * views (_hot_pc, _branch_mispredict): inserts of many rows a statement,
 * and values computed as the views' SQL would compute them -- round(),
 * pc - start -- so that reading a stored row shows what the view's
 * definition over the summaries shows.
 */
#ifndef SPE_ROLLUP_INSERT_H
#define SPE_ROLLUP_INSERT_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

/*
 * Rows per INSERT: a statement per row spent a third of its time opening
 * and closing the table.  Keep what a row binds by reference this long.
 */
#define ROLLUP_BATCH 64

/*
 * Insert @p n rows into @p into ("table(column, ...)", @p ncols columns),
 * ROLLUP_BATCH rows a statement: bind(ctx, st, first, k) binds row k at
 * parameters first..first + ncols - 1 of st and returns SQLITE_OK or an
 * SQLite error.  0, or -1 with the error in sqlite3_errmsg(db).
 */
int ana_rollup_insert(sqlite3 *db, const char *into, int ncols, size_t n,
		      int (*bind)(void *ctx, sqlite3_stmt *st, int first, size_t k), void *ctx);

/* Bind @p v, or NULL unless @p has. */
void ana_bind_int_or_null(sqlite3_stmt *st, int i, int has, int64_t v);

/* Bind pc - start as SQLite subtracts: an integer, or a float past the 64-bit range. */
void ana_bind_offset(sqlite3_stmt *st, int i, int64_t pc, int64_t start);

/*
 * Bind round(num / den, places) as a REAL: as the text SQLite's round()
 * writes (in @p text, NUMBER_TEXT_MAX bytes kept until the step), which the
 * column's REAL affinity reads as round() reads it; for a quotient too near
 * a half, from SQLite's round() of @p ratio (num / den as the view's SQL
 * computes it) through *@p round, prepared on first use (the caller
 * finalizes it).  SQLITE_OK or an SQLite error code.
 */
int ana_bind_rounded(sqlite3 *db, sqlite3_stmt **round, sqlite3_stmt *st, int i, char *text, uint64_t num,
		     uint64_t den, int places, double ratio);

#endif
