/* SPDX-License-Identifier: Apache-2.0 */
/* Preparing a statement with the message on failure, and one integer (ana/statement.h). */
#include "ana/statement.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "spe/spe.h"

const char *ana_sqlite_why(sqlite3 *db, const char *msg, char *buf, size_t n)
{
	if (!msg)
		msg = sqlite3_errmsg(db);
	int code = sqlite3_extended_errcode(db) & 0xff, sys = 0;
	if (code == SQLITE_IOERR || code == SQLITE_FULL || code == SQLITE_CANTOPEN) {
		sys = sqlite3_system_errno(db);
		/* not recorded on every path (a failed write at COMMIT): the database file's last error */
		if (sys <= 0 && sqlite3_file_control(db, "main", SQLITE_FCNTL_LAST_ERRNO, &sys) != SQLITE_OK)
			sys = 0;
	}
	if (sys > 0)
		snprintf(buf, n, "%s (%s)", msg, strerror(sys));
	else
		snprintf(buf, n, "%s", msg);
	return buf;
}

int ana_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **st, const char *what, char *err, size_t errlen)
{
	if (sqlite3_prepare_v2(db, sql, -1, st, NULL) == SQLITE_OK)
		return 0;
	sqlite3_finalize(*st);
	*st = NULL;
	char why[512];
	ana_sqlite_why(db, NULL, why, sizeof why);
	if (what)
		snprintf(err, errlen, "%s: %s", what, why);
	else
		snprintf(err, errlen, "%s", why);
	return -spe_io;
}

int64_t ana_query_int(sqlite3 *db, const char *sql, int64_t otherwise)
{
	sqlite3_stmt *st;
	int64_t v = otherwise;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return otherwise;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}
