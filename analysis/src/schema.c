/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The tables of a spekit database (docs/schema.md).  The record table's
 * columns come from SPE_RECORD_COLUMNS (spe/row_sink.h: its counter columns
 * from SPE_COUNTER_LIST) and the view's event columns from SPE_EVENT_LIST,
 * so the facts table stays the one place that names them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "db_internal.h"
#include "memory_schema.h"
#include "util/text.h"
#include "spe/analysis.h"

/* The statistics columns of pc_summary and symbol_summary (latency_rollup.c fills them). */
#define LATENCY_STATS_COLUMNS                  \
	"  samples INTEGER NOT NULL,\n"        \
	"  total_latency INTEGER,\n"           \
	"  timed INTEGER NOT NULL,\n"          \
	"  p50 INTEGER,\n"                     \
	"  p90 INTEGER,\n"                     \
	"  p99 INTEGER);\n"

static const char tables_sql[] =
	"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;\n"
	"CREATE TABLE source(\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  file TEXT NOT NULL,\n"
	"  kind TEXT NOT NULL,\n"
	"  host TEXT,\n"
	"  command_line TEXT,\n"
	"  cpus INTEGER,\n"
	"  loaded_at TEXT NOT NULL);\n"
	"CREATE TABLE cpu(\n"
	"  source_id INTEGER NOT NULL REFERENCES source(id),\n"
	"  cpu INTEGER NOT NULL,\n"
	"  midr INTEGER,\n"
	"  part TEXT,\n"
	"  spe_version TEXT,\n"
	"  PRIMARY KEY(source_id, cpu)) WITHOUT ROWID;\n"
	"CREATE TABLE thread(\n"
	"  source_id INTEGER NOT NULL REFERENCES source(id),\n"
	"  tid INTEGER NOT NULL,\n"
	"  pid INTEGER,\n"
	"  comm TEXT,\n"
	"  PRIMARY KEY(source_id, tid)) WITHOUT ROWID;\n"
	"CREATE TABLE mapping(\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  source_id INTEGER NOT NULL REFERENCES source(id),\n"
	"  pid INTEGER,\n"
	"  path TEXT NOT NULL,\n"
	"  build_id TEXT,\n"
	"  start INTEGER NOT NULL,\n"
	"  end INTEGER NOT NULL,\n"
	"  pgoff INTEGER NOT NULL,\n"
	"  time INTEGER,\n"
	"  prot INTEGER);\n"
	"CREATE TABLE symbol(\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  mapping_id INTEGER REFERENCES mapping(id),\n"
	"  name TEXT NOT NULL,\n"
	"  start INTEGER NOT NULL,\n"
	"  size INTEGER,\n"
	"  file TEXT,\n"
	"  line INTEGER);\n"
	"CREATE TABLE insn(\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  mapping_id INTEGER REFERENCES mapping(id),\n"
	"  pc INTEGER NOT NULL,\n"
	"  symbol_id INTEGER REFERENCES symbol(id),\n"
	"  bytes BLOB,\n"
	"  mnemonic TEXT,\n"
	"  operands TEXT,\n"
	"  file TEXT,\n"
	"  line INTEGER,\n"
	"  inline_function TEXT);\n"
	"CREATE TABLE pc_latency(\n"
	"  source_id INTEGER NOT NULL REFERENCES source(id),\n"
	"  pc INTEGER,\n"
	"  insn_id INTEGER REFERENCES insn(id),\n"
	"  symbol_id INTEGER REFERENCES symbol(id),\n"
	"  total_latency INTEGER,\n"
	"  samples INTEGER NOT NULL);\n"
	"CREATE TABLE pc_summary(\n"
	"  pc INTEGER,\n"
	"  insn_id INTEGER REFERENCES insn(id),\n" LATENCY_STATS_COLUMNS
	"CREATE TABLE symbol_summary(\n"
	"  symbol_id INTEGER REFERENCES symbol(id),\n" LATENCY_STATS_COLUMNS
	"CREATE TABLE load_stats(\n"
	"  source_id INTEGER PRIMARY KEY REFERENCES source(id),\n"
	"  records INTEGER NOT NULL,\n"
	"  bad_bytes INTEGER NOT NULL,\n"
	"  skipped_bytes INTEGER NOT NULL,\n"
	"  partial_records INTEGER NOT NULL,\n"
	"  unknown_packets INTEGER NOT NULL,\n"
	"  lost_aux INTEGER NOT NULL,\n"
	"  no_mapping INTEGER NOT NULL,\n"
	"  no_symbol INTEGER NOT NULL,\n"
	"  no_time INTEGER NOT NULL,\n"
	"  no_data_object INTEGER NOT NULL DEFAULT 0);\n";

/*
 * spe_record is a view over _spe_record: the event columns are computed from
 * `events` when read.  (As VIRTUAL generated columns of the table they cost
 * SQLite more per INSERT than the rest of the row together.)  Both come from
 * SPE_RECORD_COLUMNS (spe/row_sink.h), the event columns from SPE_EVENT_LIST.
 */
static int append_record_table(struct util_text *t)
{
	util_text_append(t, "CREATE TABLE _spe_record(\n  id INTEGER PRIMARY KEY");
	for (int c = 0; c < SPE_RECORD_NCOLS; c++)
		util_text_appendf(t, ",\n  %s %s", spe_record_columns[c].name, spe_record_columns[c].sql);
	util_text_append(t, ");\n");

	util_text_append(t, "CREATE VIEW spe_record AS SELECT\n  id");
	for (int c = 0; c < SPE_RECORD_NCOLS; c++) {
		util_text_appendf(t, ",\n  %s", spe_record_columns[c].name);
		if (c == SPE_RECORD_COL_EVENTS) {
#define SPE_X(bit, id, word, col, since, desc) util_text_appendf(t, ",\n  (events >> %d) & 1 AS %s", bit, col);
			SPE_EVENT_LIST(SPE_X)
#undef SPE_X
		}
	}
	util_text_append(t, "\nFROM _spe_record;\n");
	return util_text_ok(t);
}

static int exec(sqlite3 *db, const char *sql, char *err, size_t errlen)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(err, errlen, "%s", msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return -spe_io;
	}
	return 0;
}

int spe_schema_create(sqlite3 *db, char *err, size_t errlen)
{
	struct util_text t = { 0 };
	util_text_append(&t, tables_sql);
	ana_memory_schema_tables(&t);
	append_record_table(&t);
	util_text_appendf(&t,
			"INSERT INTO meta VALUES('schema_version', '%d'), ('application', 'spekit');\n"
			"PRAGMA user_version = %d;\nPRAGMA application_id = %d;\n",
			SPE_DB_SCHEMA_VERSION, SPE_DB_SCHEMA_VERSION, SPE_DB_APPLICATION_ID);
	if (!util_text_ok(&t)) {
		util_text_free(&t);
		snprintf(err, errlen, "out of memory");
		return -spe_nomem;
	}
	int rc = exec(db, t.buf, err, errlen);
	util_text_free(&t);
	if (rc == 0)
		rc = spe_schema_create_views(db, err, errlen);
	return rc;
}

/*
 * Indexes, built after the bulk insert.  spe_record has none: the hot_*
 * views read the summaries, and an index over tens of millions of rows
 * would cost more load time than the scans it saves.  pc_latency has none
 * either: the rollup (latency_rollup.c) reads it in any order.
 */
static const char indexes_sql[] =
	"CREATE INDEX IF NOT EXISTS symbol_mapping ON symbol(mapping_id, start);\n"
	"CREATE INDEX IF NOT EXISTS insn_mapping_pc ON insn(mapping_id, pc);\n"
	/* hot_pc's and hot_symbol's order, so LIMIT N reads N rows */
	"CREATE INDEX IF NOT EXISTS pc_summary_hot ON pc_summary(total_latency DESC, samples DESC);\n"
	"CREATE INDEX IF NOT EXISTS symbol_summary_hot ON symbol_summary(total_latency DESC, samples DESC);\n";

/* Dropped at the start of an append and rebuilt at its end (after the rollup refills the summaries). */
static const char drop_indexes_sql[] = "DROP INDEX IF EXISTS pc_summary_hot;\n"
				       "DROP INDEX IF EXISTS symbol_summary_hot;\n";

int spe_schema_create_indexes(sqlite3 *db, char *err, size_t errlen)
{
	return exec(db, indexes_sql, err, errlen);
}

int spe_schema_drop_record_indexes(sqlite3 *db, char *err, size_t errlen)
{
	return exec(db, drop_indexes_sql, err, errlen);
}

static int count_tables(sqlite3 *db)
{
	sqlite3_stmt *st;
	int n = -1;
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_schema", -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

static long pragma_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	long v = -1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

int spe_schema_check(sqlite3 *db, char *err, size_t errlen)
{
	int n = count_tables(db);
	if (n < 0) {
		snprintf(err, errlen, "not an SQLite database: %s", sqlite3_errmsg(db));
		return -spe_bad_file;
	}
	if (n == 0)
		return 0;
	long app = pragma_int(db, "PRAGMA application_id");
	long ver = pragma_int(db, "PRAGMA user_version");
	if (app != SPE_DB_APPLICATION_ID) {
		snprintf(err, errlen, "not a spekit database (application_id %ld)", app);
		return -spe_bad_file;
	}
	if (ver != SPE_DB_SCHEMA_VERSION) {
		snprintf(err, errlen,
			 "database schema version %ld is not supported (this spekit reads version %d); "
			 "reload the traces into a new database",
			 ver, SPE_DB_SCHEMA_VERSION);
		return -spe_unsupported;
	}
	return 1;
}
