/* SPDX-License-Identifier: Apache-2.0 */
/* Settings rows of meta (spe/settings.h). */
#include "spe/settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spe/spe.h"

static int sql_fail(sqlite3 *db, int rc, const char *what, const char *key, char *err, size_t errlen)
{
	if (err && errlen)
		snprintf(err, errlen, "%s %s: %s", what, key, sqlite3_errmsg(db));
	rc &= 0xff;
	return rc == SQLITE_NOMEM ? -spe_nomem : rc == SQLITE_IOERR || rc == SQLITE_FULL || rc == SQLITE_BUSY ? -spe_io
										   : -spe_bad_file;
}

int spe_setting_set(sqlite3 *db, const char *key, const char *value, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	const char *sql = value ? "INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)" : "DELETE FROM meta WHERE key = ?1";
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return sql_fail(db, rc, "writing the setting", key, err, errlen);
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (value)
		sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(db, rc, "writing the setting", key, err, errlen);
}

int spe_setting_get(sqlite3 *db, const char *key, char **value, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	*value = NULL;
	int rc = sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = ?1", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return sql_fail(db, rc, "reading the setting", key, err, errlen);
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	int ret = 0;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *t = sqlite3_column_text(st, 0);
		if (t && !(*value = strdup((const char *)t)))
			ret = sql_fail(db, SQLITE_NOMEM, "reading the setting", key, err, errlen);
	} else if (rc != SQLITE_DONE) {
		ret = sql_fail(db, rc, "reading the setting", key, err, errlen);
	}
	sqlite3_finalize(st);
	return ret;
}
