/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One-value SQL helpers for the analysis tests: the first column of the
 * first row as an integer (-1 for NULL, -999 for no row or an SQL error,
 * which is printed) or as text ("(null)", "(none)").  The text lives in a
 * static buffer until the next call.
 */
#ifndef SPE_TEST_DB_QUERY_H
#define SPE_TEST_DB_QUERY_H

#include <sqlite3.h>
#include <stdio.h>

static inline long long db_query_int(sqlite3 *h, const char *sql)
{
	sqlite3_stmt *st;
	long long v = -999;
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK) {
		printf("  SQL error %s: %s\n", sql, sqlite3_errmsg(h));
		return v;
	}
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_type(st, 0) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static inline const char *db_query_text(sqlite3 *h, const char *sql)
{
	static char text[256];
	sqlite3_stmt *st;
	snprintf(text, sizeof text, "(none)");
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		snprintf(text, sizeof text, "%s",
			 sqlite3_column_text(st, 0) ? (const char *)sqlite3_column_text(st, 0) : "(null)");
	sqlite3_finalize(st);
	return text;
}

#endif
