/* SPDX-License-Identifier: Apache-2.0 */
/* SQLite's errors as spe_* codes, and the reports' read transaction (report_sqlite.h). */
#include <stdio.h>
#include <string.h>

#include "report_sqlite.h"
#include "ana/result_internal.h"
#include "spe/spe.h"

int report_sqlite_code(int rc)
{
	return ana_sqlite_code(rc);
}

int report_sqlite_true(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int yes = sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
		  sqlite3_column_int(st, 0) == 1;
	sqlite3_finalize(st);
	return yes;
}

int report_sqlite_fail(sqlite3 *db, int rc, const char *what, char *err, size_t errlen)
{
	if (err && errlen && !err[0]) {
		int base = rc & 0xff;
		const char *file = db ? sqlite3_db_filename(db, "main") : NULL;
		if ((base == SQLITE_BUSY || base == SQLITE_LOCKED) && file && *file)
			snprintf(err, errlen, "%s: %s: %s (another process is writing it)", what, file,
				 sqlite3_errmsg(db));
		else if (base == SQLITE_NOMEM)
			snprintf(err, errlen, "%s: out of memory", what);
		else
			snprintf(err, errlen, "%s: %s", what, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
	}
	int code = report_sqlite_code(rc);
	return code ? code : -spe_bad_file;
}

int report_sqlite_finish(sqlite3 *db, sqlite3_stmt *st, const char *what, char *err, size_t errlen)
{
	int rc = sqlite3_finalize(st);
	return rc == SQLITE_OK ? 0 : report_sqlite_fail(db, rc, what, err, errlen);
}

int report_sqlite_numeric(sqlite3_stmt *st, int col, const char *what, char *err, size_t errlen)
{
	int t = sqlite3_column_type(st, col);
	if (t == SQLITE_INTEGER || t == SQLITE_FLOAT || t == SQLITE_NULL)
		return 0;
	if (err && errlen && !err[0])
		snprintf(err, errlen, "%s: column %d (%s) holds %s where a number is expected: the database is not "
			 "as spe-load writes it", what, col + 1, sqlite3_column_name(st, col) ? sqlite3_column_name(st, col) : "?",
			 t == SQLITE_BLOB ? "a blob" : "text");
	return -spe_bad_file;
}

int report_snapshot_begin(sqlite3 *db, char *err, size_t errlen)
{
	if (!db || !sqlite3_get_autocommit(db))
		return 0; /* the caller's transaction */
	int rc = sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return report_sqlite_fail(db, rc, "beginning the read transaction", err, errlen);
	return 1;
}

void report_snapshot_end(sqlite3 *db, int begun)
{
	if (begun == 1 && !sqlite3_get_autocommit(db))
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
}
