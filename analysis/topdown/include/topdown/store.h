/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Topdown tables in the SPE database (docs/schema-topdown.md):
 * topdown_run, topdown_interval, topdown_value, topdown_event, topdown_node
 * and the views topdown_l1, topdown_l2.  Created with CREATE ... IF NOT
 * EXISTS beside the analysis tables; the schema version is the row
 * meta('topdown_schema_version').
 */
#ifndef TOPDOWN_STORE_H
#define TOPDOWN_STORE_H

#include <sqlite3.h>
#include <stdint.h>

#include "topdown/error.h"
#include "topdown/run.h"

#define TD_SCHEMA_VERSION 2

/*
 * Open the database with spe_db_open() (analysis.h): it checks the spekit
 * application_id and schema version, and a new file gets the whole spekit
 * schema, so spe-load --append accepts it later.
 */

/**
 * -spe_bad_input when @p db holds topdown tables of another
 * topdown_schema_version, else 0 (also when it has none).
 */
int td_store_check(sqlite3 *db, char *err, size_t errlen);

/**
 * Make the topdown tables and views of @p schema ("main", or an attached
 * database's name) of a database this run did not create its own, as
 * spe_db_own_views does spekit's (analysis/store/db_trust.c): on "main" a
 * view that differs from td_store_init's (topdown_l1, topdown_l2) is
 * shadowed by a TEMP view of this build's; elsewhere it is refused; a table
 * of this build's that is something else in the file (a view) is refused,
 * -spe_bad_file naming it.  Nothing to do (0) when @p schema holds no
 * topdown object.  Call it after spe_db_open, before reading or writing
 * topdown rows.
 */
int td_store_own(sqlite3 *db, const char *schema, char *err, size_t errlen);

/**
 * Create the topdown tables and views in @p db if missing (after
 * td_store_check).  Runs in a savepoint: inside or outside a transaction.
 */
int td_store_init(sqlite3 *db, char *err, size_t errlen);

/**
 * Insert @p run with its intervals, values and events in one savepoint.
 * @p run_id receives the new run's id (may be NULL).
 */
int td_store_run(sqlite3 *db, const struct td_run *run, int64_t *run_id, char *err, size_t errlen);

#endif
