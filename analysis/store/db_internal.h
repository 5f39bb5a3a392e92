/* SPDX-License-Identifier: Apache-2.0 */
/* Internal helpers shared by the database, schema and loader files. */
#ifndef SPE_DB_INTERNAL_H
#define SPE_DB_INTERNAL_H

#include <sqlite3.h>
#include <stddef.h>

int spe_schema_drop_record_indexes(sqlite3 *db, char *err, size_t errlen);
/* Add the columns appended within this schema version to a database written before them (--append). */
int spe_schema_add_columns(sqlite3 *db, char *err, size_t errlen);
/* sqlite3_exec with the message copied to @p err; returns 0 or -spe_io. */
int spe_db_exec(sqlite3 *db, const char *sql, char *err, size_t errlen);
/* Was @p db opened in APPEND mode on an existing database? */
struct spe_db;
int spe_db_is_append(const struct spe_db *db);
/* Does a file already loaded replace its earlier source (spe_db_set_replace)? */
int spe_db_replaces(const struct spe_db *db);
/*
 * @p msg (NULL: SQLite's message for @p db's last failure), followed by the
 * system's reason when SQLite failed on an I/O error or a full disk
 * ("disk I/O error (File too large)"), in @p buf; returns buf.
 */
const char *spe_sqlite_why(sqlite3 *db, const char *msg, char *buf, size_t n);
/* Threads the commit's rollup may use (latency_rollup.h): the load's --jobs. */
void spe_db_set_threads(struct spe_db *db, int threads);
/* The rollup's feed of the transaction (rollup_feed.h), or NULL when the rollup reads pc_histogram. */
struct rollup_feed *spe_db_rollup_feed(struct spe_db *db);

/*
 * A connection to a database this run did not create (db_trust.c): SQLite's
 * defensive settings, no triggers, no extensions; 0, or <0 with a message.
 */
int spe_db_distrust(sqlite3 *db, char *err, size_t errlen);
#endif
