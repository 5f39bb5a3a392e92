/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: what every report does with SQLite the same way -- one read
 * transaction around a whole report, and SQLite's errors turned into
 * spe_* codes with the name of what was being read.
 */
#ifndef SPE_REPORT_SQLITE_H
#define SPE_REPORT_SQLITE_H

#include <sqlite3.h>
#include <stddef.h>

/*
 * The spe_* code of SQLite result @p rc (a failed prepare or step):
 * -spe_io for the disk (SQLITE_IOERR*, SQLITE_FULL, SQLITE_CANTOPEN,
 * SQLITE_BUSY, SQLITE_LOCKED), -spe_nomem for memory (SQLITE_NOMEM),
 * -spe_cancelled for SQLITE_INTERRUPT (a signal or --timeout: the command
 * knows which), -spe_bad_file for the rest: a database that is corrupt,
 * not a database, or not what it says (no such table or column, a wrong
 * type, a string too big).
 */
int report_sqlite_code(int rc);

/*
 * 1 when @p sql prepares (every table it names exists), gives a row and
 * that row's first column is 1; else 0.  How a report asks whether the
 * loads stored a summary for every source (a database made, or a source
 * loaded, before the table has none).
 */
int report_sqlite_true(sqlite3 *db, const char *sql);

/*
 * Record the failure of @p what (the query's name) on @p db with result
 * @p rc: "@p what: SQLite's message" in @p err (when it is empty);
 * returns report_sqlite_code(@p rc).  "database is locked" says which file.
 */
int report_sqlite_fail(sqlite3 *db, int rc, const char *what, char *err, size_t errlen);

/*
 * Finalize @p st: 0, or the error of its last step as report_sqlite_fail
 * gives it (sqlite3_finalize returns the error of a step that failed).
 */
int report_sqlite_finish(sqlite3 *db, sqlite3_stmt *st, const char *what, char *err, size_t errlen);

/*
 * A column the report computes with must hold a number (or NULL): a string
 * or a blob there is a database that lies about its contents, and reading
 * it as 0 would print a wrong report.  0, or -spe_bad_file with "@p what:
 * column N holds text where a number is expected" in @p err.
 */
int report_sqlite_numeric(sqlite3_stmt *st, int col, const char *what, char *err, size_t errlen);

/*
 * One state of the database for a whole report: a read transaction begun
 * unless the caller has one open (then left alone).  SQLite takes its
 * shared lock at the first read and keeps it to the end, so an append
 * committed meanwhile is not half seen (the summary's count from before,
 * the sections from after).  1 when begun (end with report_snapshot_end),
 * 0 when the caller's transaction is used, negative on failure.
 */
int report_snapshot_begin(sqlite3 *db, char *err, size_t errlen);
/* End what report_snapshot_begin began (@p begun 1); nothing was written, so it rolls back. */
void report_snapshot_end(sqlite3 *db, int begun);

#endif
