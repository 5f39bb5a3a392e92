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

#define TD_SCHEMA_VERSION 1

/** Open (creating if needed) @p path read-write and create the topdown schema. */
int td_store_open(const char *path, sqlite3 **db, struct td_diag *diag);

/** Create the topdown tables and views in @p db if missing. */
int td_store_init(sqlite3 *db, struct td_diag *diag);

/**
 * Insert @p run with its intervals, values and events in one transaction.
 * @p run_id receives the new run's id (may be NULL).
 */
int td_store_run(sqlite3 *db, const struct td_run *run, int64_t *run_id, struct td_diag *diag);

#endif
