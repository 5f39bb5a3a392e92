/* SPDX-License-Identifier: Apache-2.0 */
/* The topdown tables beside the SPE records (docs/schema-topdown.md; design: docs/topdown-formulas.md §8). */
#include "topdown/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ana/statement.h"
#include "spe/analysis.h"

static const char schema_sql[] =
	"CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);\n"
	"CREATE TABLE IF NOT EXISTS topdown_node (\n"
	"  node TEXT PRIMARY KEY, parent TEXT, level INTEGER NOT NULL,\n"
	"  basis TEXT NOT NULL, description TEXT);\n"
	"CREATE TABLE IF NOT EXISTS topdown_run (\n"
	"  run_id INTEGER PRIMARY KEY,\n"
	"  name TEXT, workload TEXT, host TEXT,\n"
	"  isa TEXT CHECK (isa IN ('x86_64', 'aarch64')),\n"
	"  cpu TEXT, tool TEXT NOT NULL, method TEXT,\n"
	"  approx INTEGER NOT NULL DEFAULT 0,\n"
	"  slots_per_cycle INTEGER, source TEXT,\n"
	"  spe_source_id INTEGER REFERENCES source(id),\n"
	"  created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')));\n"
	"CREATE TABLE IF NOT EXISTS topdown_interval (\n"
	"  interval_id INTEGER PRIMARY KEY,\n"
	"  run_id INTEGER NOT NULL REFERENCES topdown_run(run_id) ON DELETE CASCADE,\n"
	"  t0 REAL NOT NULL, t1 REAL, scope TEXT NOT NULL,\n"
	"  slots REAL, cycles REAL);\n"
	"CREATE INDEX IF NOT EXISTS topdown_interval_run ON topdown_interval(run_id, t0);\n"
	"CREATE TABLE IF NOT EXISTS topdown_value (\n"
	"  interval_id INTEGER NOT NULL REFERENCES topdown_interval(interval_id) ON DELETE CASCADE,\n"
	"  node TEXT NOT NULL REFERENCES topdown_node(node),\n"
	"  frac REAL, basis TEXT NOT NULL, derived INTEGER NOT NULL DEFAULT 0,\n"
	"  PRIMARY KEY (interval_id, node)) WITHOUT ROWID;\n"
	"CREATE TABLE IF NOT EXISTS topdown_event (\n"
	"  interval_id INTEGER NOT NULL REFERENCES topdown_interval(interval_id) ON DELETE CASCADE,\n"
	"  name TEXT NOT NULL, value REAL,\n"
	"  PRIMARY KEY (interval_id, name)) WITHOUT ROWID;\n";

static int db_fail(sqlite3 *db, char *err, size_t errlen, const char *what)
{
	return td_failf(err, errlen, spe_io, "%s: %s", what, sqlite3_errmsg(db));
}

/*
 * Append "col" expressions for every node of @p level to @p sql, clamped to
 * [0, 1]: MIN(1, MAX(0, ...)) AS name.  Raw values outside (perf's old
 * formulas printed "191,6%" and "-99,0%", docs/topdown-formulas.md §7) stay in topdown_value.
 */
static void pivot_columns(char *sql, size_t cap, int level)
{
	for (int k = 0; k < TD_NODE_COUNT; k++) {
		if (td_node_level(k) != level)
			continue;
		size_t len = strlen(sql);
		snprintf(sql + len, cap - len,
			 ",\n  MIN(1, MAX(0, MAX(CASE v.node WHEN '%s' THEN v.frac END))) AS %s", td_node_name(k),
			 td_node_name(k));
	}
}

/*
 * topdown_l1 / topdown_l2: one row per interval, one column per node of the
 * level, clamped to [0, 1] for reports (raw values stay in topdown_value).
 */
static int create_views(sqlite3 *db, char *err, size_t errlen)
{
	for (int level = 1; level <= 2; level++) {
		char sql[4096];
		/* views are derived: made anew, so a database of an older spekit gains new node columns;
		   main's, not the TEMP one td_store_own may have put before it */
		snprintf(sql, sizeof sql,
			 "DROP VIEW IF EXISTS main.topdown_l%d;\n"
			 "CREATE VIEW main.topdown_l%d AS\n"
			 "SELECT r.run_id, r.name AS run, r.workload, r.isa, r.cpu, r.method, r.approx,\n"
			 "  i.interval_id, i.scope, i.t0, i.t1",
			 level, level);
		pivot_columns(sql, sizeof sql, level);
		size_t len = strlen(sql);
		snprintf(sql + len, sizeof sql - len,
			 "\nFROM topdown_interval i JOIN topdown_run r USING (run_id)\n"
			 "LEFT JOIN topdown_value v ON v.interval_id = i.interval_id\n"
			 "GROUP BY i.interval_id;");
		if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
			return db_fail(db, err, errlen, "creating the topdown views");
	}
	return 0;
}

static int fill_nodes(sqlite3 *db, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	if (ana_prepare(db, "INSERT OR IGNORE INTO topdown_node VALUES (?, ?, ?, ?, ?)", &st, "preparing topdown_node", err,
			errlen) < 0)
		return -spe_io;
	for (int k = 0; k < TD_NODE_COUNT; k++) {
		sqlite3_bind_text(st, 1, td_node_name(k), -1, SQLITE_STATIC);
		if (td_node_parent(k) == TD_NONE)
			sqlite3_bind_null(st, 2);
		else
			sqlite3_bind_text(st, 2, td_node_name(td_node_parent(k)), -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 3, td_node_level(k));
		sqlite3_bind_text(st, 4, td_node_basis(k), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, td_node_description(k), -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE) {
			sqlite3_finalize(st);
			return db_fail(db, err, errlen, "filling topdown_node");
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return 0;
}

/* The topdown schema version written in @p db, 0 when it has no topdown tables; -1 on error. */
static int stored_version(sqlite3 *db)
{
	sqlite3_stmt *st;
	int v = 0;
	if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = 'topdown_schema_version'", -1, &st, NULL) !=
	    SQLITE_OK)
		return 0; /* no meta table: no topdown tables either */
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

int td_store_check(sqlite3 *db, char *err, size_t errlen)
{
	int v = stored_version(db);
	if (v != 0 && v != TD_SCHEMA_VERSION)
		return td_failf(err, errlen, spe_bad_input,
			       "topdown tables of schema version %d are not supported (this spekit reads version %d); "
			       "import the runs into a new database",
			       v, TD_SCHEMA_VERSION);
	return 0;
}

/* Does @p schema of @p db hold any topdown object (table, view, index, trigger)? -1 on error. */
static int has_topdown(sqlite3 *db, const char *schema)
{
	char *sql = sqlite3_mprintf("SELECT EXISTS (SELECT 1 FROM \"%w\".sqlite_schema"
				    " WHERE name LIKE 'topdown\\_%%' ESCAPE '\\')",
				    schema);
	sqlite3_stmt *st = NULL;
	int found = -1;
	if (sql && sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		found = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_free(sql);
	return found;
}

int td_store_own(sqlite3 *db, const char *schema, char *err, size_t errlen)
{
	int found = has_topdown(db, schema);
	if (found < 0)
		return db_fail(db, err, errlen, "reading the schema");
	/* the definitions are td_store_init's own, run in a private database (analysis/store/db_trust.c) */
	return found ? spe_db_own_schema(db, schema, td_store_init, NULL, err, errlen) : 0;
}

/*
 * Savepoints, not BEGIN: the caller may already hold a transaction (spe_db_open
 * runs an append inside one), and a savepoint nests in it or starts its own.
 */
static int release(sqlite3 *db, int rc, char *err, size_t errlen, const char *what)
{
	if (rc < 0) {
		sqlite3_exec(db, "ROLLBACK TO td_store; RELEASE td_store", NULL, NULL, NULL);
		return rc;
	}
	if (sqlite3_exec(db, "RELEASE td_store", NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(db, err, errlen, what);
	return 0;
}

int td_store_init(sqlite3 *db, char *err, size_t errlen)
{
	if (!db)
		return -spe_invalid;
	int rc = td_store_check(db, err, errlen);
	if (rc < 0)
		return rc;
	if (sqlite3_exec(db, "SAVEPOINT td_store", NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(db, err, errlen, "starting the schema transaction");
	if (sqlite3_exec(db, schema_sql, NULL, NULL, NULL) != SQLITE_OK)
		rc = db_fail(db, err, errlen, "creating the topdown tables");
	if (rc == 0 && (rc = create_views(db, err, errlen)) == 0 && (rc = fill_nodes(db, err, errlen)) == 0) {
		char sql[128];
		snprintf(sql, sizeof sql, "INSERT OR REPLACE INTO meta VALUES ('topdown_schema_version', '%d')",
			 TD_SCHEMA_VERSION);
		if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
			rc = db_fail(db, err, errlen, "writing the schema version");
	}
	return release(db, rc, err, errlen, "committing the schema");
}

static void bind_text_or_null(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static void bind_positive_or_null(sqlite3_stmt *st, int i, double v)
{
	if (v > 0)
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

int td_store_run(sqlite3 *db, const struct td_run *run, int64_t *run_id, char *err, size_t errlen)
{
	sqlite3_stmt *st_run = NULL, *st_iv = NULL, *st_val = NULL, *st_ev = NULL;
	int rc = 0;
	if (!db || !run || !run->tool)
		return -spe_invalid;
	if (sqlite3_exec(db, "SAVEPOINT td_store", NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(db, err, errlen, "starting the insert");
	const char *what = "preparing the topdown inserts";
	if ((rc = ana_prepare(db,
			      "INSERT INTO topdown_run (name, workload, host, isa, cpu, tool, method, approx,"
			      " slots_per_cycle, source, spe_source_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			      &st_run, what, err, errlen)) < 0 ||
	    (rc = ana_prepare(db,
			      "INSERT INTO topdown_interval (run_id, t0, t1, scope, slots, cycles) VALUES (?, ?, ?, ?, ?, ?)",
			      &st_iv, what, err, errlen)) < 0 ||
	    (rc = ana_prepare(db, "INSERT OR REPLACE INTO topdown_value VALUES (?, ?, ?, ?, ?)", &st_val, what, err,
			      errlen)) < 0 ||
	    (rc = ana_prepare(db, "INSERT OR REPLACE INTO topdown_event VALUES (?, ?, ?)", &st_ev, what, err, errlen)) < 0)
		goto out;
	bind_text_or_null(st_run, 1, run->name);
	bind_text_or_null(st_run, 2, run->workload);
	bind_text_or_null(st_run, 3, run->host);
	bind_text_or_null(st_run, 4, run->isa);
	bind_text_or_null(st_run, 5, run->cpu);
	bind_text_or_null(st_run, 6, run->tool);
	bind_text_or_null(st_run, 7, run->method);
	sqlite3_bind_int(st_run, 8, run->approx);
	if (run->slots_per_cycle)
		sqlite3_bind_int(st_run, 9, run->slots_per_cycle);
	else
		sqlite3_bind_null(st_run, 9);
	bind_text_or_null(st_run, 10, run->source);
	if (run->spe_source_id > 0)
		sqlite3_bind_int64(st_run, 11, run->spe_source_id);
	else
		sqlite3_bind_null(st_run, 11);
	if (sqlite3_step(st_run) != SQLITE_DONE) {
		rc = db_fail(db, err, errlen, "inserting the run");
		goto out;
	}
	int64_t rid = sqlite3_last_insert_rowid(db);

	for (size_t i = 0; i < run->n_iv; i++) {
		const struct td_interval *iv = &run->iv[i];
		sqlite3_reset(st_iv);
		sqlite3_bind_int64(st_iv, 1, rid);
		sqlite3_bind_double(st_iv, 2, iv->t0);
		if (iv->t1 >= 0)
			sqlite3_bind_double(st_iv, 3, iv->t1);
		else
			sqlite3_bind_null(st_iv, 3);
		sqlite3_bind_text(st_iv, 4, iv->scope, -1, SQLITE_STATIC);
		bind_positive_or_null(st_iv, 5, iv->slots);
		bind_positive_or_null(st_iv, 6, iv->cycles);
		if (sqlite3_step(st_iv) != SQLITE_DONE) {
			rc = db_fail(db, err, errlen, "inserting an interval");
			goto out;
		}
		int64_t iid = sqlite3_last_insert_rowid(db);
		for (int k = 0; k < TD_NODE_COUNT; k++) {
			if (!iv->values.set[k])
				continue;
			sqlite3_reset(st_val);
			sqlite3_bind_int64(st_val, 1, iid);
			sqlite3_bind_text(st_val, 2, td_node_name(k), -1, SQLITE_STATIC);
			if (iv->values.frac[k] == iv->values.frac[k]) /* NaN ("nan", "none") stays NULL */
				sqlite3_bind_double(st_val, 3, iv->values.frac[k]);
			else
				sqlite3_bind_null(st_val, 3);
			sqlite3_bind_text(st_val, 4, td_node_basis(k), -1, SQLITE_STATIC);
			sqlite3_bind_int(st_val, 5, iv->values.derived[k]);
			if (sqlite3_step(st_val) != SQLITE_DONE) {
				rc = db_fail(db, err, errlen, "inserting a value");
				goto out;
			}
		}
		for (size_t e = 0; e < iv->n_events; e++) {
			sqlite3_reset(st_ev);
			sqlite3_bind_int64(st_ev, 1, iid);
			sqlite3_bind_text(st_ev, 2, iv->events[e].name, -1, SQLITE_STATIC);
			if (iv->events[e].counted)
				sqlite3_bind_double(st_ev, 3, iv->events[e].value);
			else
				sqlite3_bind_null(st_ev, 3);
			if (sqlite3_step(st_ev) != SQLITE_DONE) {
				rc = db_fail(db, err, errlen, "inserting an event");
				goto out;
			}
		}
	}
	if (run_id)
		*run_id = rid;
out:
	sqlite3_finalize(st_run);
	sqlite3_finalize(st_iv);
	sqlite3_finalize(st_val);
	sqlite3_finalize(st_ev);
	return release(db, rc, err, errlen, "committing the run");
}
