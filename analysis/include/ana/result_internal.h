/* SPDX-License-Identifier: Apache-2.0 */
/* JSON pieces of result_format.c for the other printers of spe_analysis (diff, memory report), and SQLite's errors as codes. */
#ifndef SPE_RESULT_INTERNAL_H
#define SPE_RESULT_INTERNAL_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdio.h>

/* The rows of one query as a JSON array of objects keyed by column name.  0, or -spe_invalid with SQLite's message. */
int ana_result_json_array(sqlite3 *db, const char *sql, FILE *out, char *err, size_t errlen);

/*
 * The spe_* code of SQLite result @p rc of a statement spekit wrote (0 for
 * SQLITE_OK, ROW and DONE): -spe_io for the disk (SQLITE_IOERR*,
 * SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_BUSY, SQLITE_LOCKED), -spe_nomem,
 * -spe_cancelled for SQLITE_INTERRUPT (a signal or a deadline: the command
 * knows which), -spe_bad_file for the rest: a database that is corrupt, not
 * a database, or not what it says (no such table or column, a wrong type, a
 * string too big).  The reports and the exports share it.
 */
int ana_sqlite_code(int rc);

#endif
