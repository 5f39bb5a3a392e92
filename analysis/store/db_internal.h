/* SPDX-License-Identifier: Apache-2.0 */
/* Internal helpers shared by the database, schema and loader files. */
#ifndef SPE_DB_INTERNAL_H
#define SPE_DB_INTERNAL_H

#include <sqlite3.h>
#include <stddef.h>

#include "ana/statement.h"

int spe_schema_drop_record_indexes(sqlite3 *db, char *err, size_t errlen);
/*
 * A database this spekit appends to, brought to its tables (spe/tables.h)
 * within the transaction: a table or trailing columns added since it was
 * written are created; tables whose columns differ otherwise are refused
 * (-spe_unsupported, naming the table).  0 or a negative code, the message
 * in @p err.
 */
int spe_schema_upgrade(sqlite3 *db, char *err, size_t errlen);
/* The view hot_pc (spe_schema_create_views makes it with the others): for a file spe_schema_upgrade brings to this version. */
int spe_schema_create_hot_pc_view(sqlite3 *db, char *err, size_t errlen);
/* sqlite3_exec with the message copied to @p err; returns 0 or -spe_io. */
int spe_db_exec(sqlite3 *db, const char *sql, char *err, size_t errlen);
/* Was @p db opened in APPEND mode on an existing database? */
struct spe_db;
int spe_db_is_append(const struct spe_db *db);
/* Does a file already loaded replace its earlier source (spe_db_set_replace)? */
int spe_db_replaces(const struct spe_db *db);
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
