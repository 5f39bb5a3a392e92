/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: preparing an SQLite statement with the message on failure, and
 * reading one integer, the one way every library of the tree does them
 * (statement.c).
 */
#ifndef SPE_ANA_STATEMENT_H
#define SPE_ANA_STATEMENT_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

/*
 * Prepare @p sql on @p db into *@p st.  0, or -spe_io with "@p what:
 * SQLite's message" in @p err (and the system's reason after an I/O error or
 * a full disk: "disk I/O error (No space left on device)"), *@p st NULL.
 * @p what names what was being read or written ("reading instructions",
 * "symbol_summary"); NULL: SQLite's message alone.
 */
int ana_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **st, const char *what, char *err, size_t errlen);

/* The integer of a one-row, one-column query, or @p otherwise when it does not prepare or gives no row. */
int64_t ana_query_int(sqlite3 *db, const char *sql, int64_t otherwise);

/*
 * @p msg (NULL: SQLite's message for @p db's last failure), followed by the
 * system's reason when SQLite failed on an I/O error or a full disk
 * ("disk I/O error (File too large)"), in @p buf; returns buf.
 */
const char *ana_sqlite_why(sqlite3 *db, const char *msg, char *buf, size_t n);

#endif
