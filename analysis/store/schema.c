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
#include "ana/memory_schema.h"
#include "time_conv_sql.h"
#include "util/text.h"
#include "spe/analysis.h"

/* The statistics columns of symbol_summary (latency_rollup.c fills them). */
#define LATENCY_STATS_COLUMNS                  \
	"  samples INTEGER NOT NULL,\n"        \
	"  total_latency INTEGER,\n"           \
	"  timed INTEGER NOT NULL,\n"          \
	"  p50 INTEGER,\n"                     \
	"  p90 INTEGER,\n"                     \
	"  p99 INTEGER,\n"

static const char tables_sql[] =
	"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;\n"
	"CREATE TABLE source(\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  file TEXT NOT NULL,\n"
	"  kind TEXT NOT NULL,\n"
	"  host TEXT,\n"
	"  command_line TEXT,\n"
	"  cpus INTEGER,\n"
	"  loaded_at TEXT NOT NULL,\n"
	"  digest TEXT);\n"
	"CREATE INDEX source_digest ON source(digest);\n"
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
	"  prot INTEGER,\n"
	"  build_id_status TEXT);\n"
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
	/* one row per PC and source: pc_latency (a view) expands the histogram */
	"CREATE TABLE pc_histogram(\n"
	"  source_id INTEGER NOT NULL REFERENCES source(id),\n"
	"  pc INTEGER,\n"
	"  insn_id INTEGER REFERENCES insn(id),\n"
	"  symbol_id INTEGER REFERENCES symbol(id),\n"
	"  untimed INTEGER NOT NULL,\n"
	"  histogram TEXT NOT NULL);\n"
	"CREATE VIEW pc_latency AS\n"
	"SELECT h.source_id, h.pc, h.insn_id, h.symbol_id, CAST(j.key AS INTEGER) AS total_latency, j.value AS samples\n"
	"FROM pc_histogram h, json_each(h.histogram) j\n"
	"UNION ALL\n"
	"SELECT source_id, pc, insn_id, symbol_id, NULL, untimed FROM pc_histogram WHERE untimed > 0;\n"
	/* hot_pc's rows, rendered and in its order (latency_rollup.c); pc_summary's columns are among them */
	"CREATE TABLE _hot_pc(\n"
	"  pc TEXT,\n"
	"  symbol TEXT,\n"
	"  symbol_offset INTEGER,\n"
	"  src_file TEXT,\n"
	"  src_line INTEGER,\n"
	"  mnemonic TEXT,\n"
	"  operands TEXT,\n"
	"  samples INTEGER NOT NULL,\n"
	"  total_latency INTEGER,\n"
	"  mean_latency REAL,\n"
	"  p50 INTEGER,\n"
	"  p90 INTEGER,\n"
	"  p99 INTEGER,\n"
	"  latency_share REAL,\n"
	"  pc_value INTEGER,\n"
	"  insn_id INTEGER REFERENCES insn(id),\n"
	"  timed INTEGER NOT NULL);\n"
	"CREATE VIEW pc_summary AS\n"
	"SELECT pc_value AS pc, insn_id, samples, total_latency, timed, p50, p90, p99 FROM _hot_pc;\n"
	"CREATE TABLE symbol_summary(\n"
	"  symbol_id INTEGER REFERENCES symbol(id),\n" LATENCY_STATS_COLUMNS
	/* the records without a symbol in a kernel map: one row per kernel map path, its smallest id */
	"  mapping_id INTEGER REFERENCES mapping(id));\n"
	/* the summaries of the records (record_summary.c): one source's rows each */
	"CREATE TABLE mem_level_stat(\n"
	"  source_id INTEGER NOT NULL REFERENCES source(id),\n"
	"  mem_level INTEGER REFERENCES spe_mem_level(code),\n"
	"  loads INTEGER NOT NULL,\n"
	"  timed INTEGER NOT NULL,\n"
	"  total_latency INTEGER);\n"
	"CREATE TABLE latency_bucket(\n"
	"  source_id INTEGER NOT NULL REFERENCES source(id),\n"
	"  op_class TEXT,\n"
	"  latency_lo INTEGER NOT NULL,\n"
	"  samples INTEGER NOT NULL,\n"
	"  total_latency INTEGER NOT NULL);\n"
	/* branch_mispredict's groups, in its order (branch_rollup.c) */
	"CREATE TABLE _branch_mispredict(\n"
	"  pc_value INTEGER,\n"
	"  insn_id INTEGER REFERENCES insn(id),\n"
	"  branches INTEGER NOT NULL,\n"
	"  mispredicted INTEGER,\n"
	"  mispredict_rate REAL,\n"
	"  not_taken INTEGER);\n"
	"CREATE TABLE branch_stat(\n"
	"  source_id INTEGER NOT NULL REFERENCES source(id),\n"
	"  pc INTEGER,\n"
	"  insn_id INTEGER REFERENCES insn(id),\n"
	"  branches INTEGER NOT NULL,\n"
	"  mispredicted INTEGER,\n"
	"  not_taken INTEGER);\n"
	"CREATE TABLE page_stat(\n"
	"  source_id INTEGER NOT NULL REFERENCES source(id),\n"
	"  pid INTEGER,\n"
	"  page INTEGER NOT NULL,\n"
	"  accesses INTEGER NOT NULL,\n"
	"  tlb_walks INTEGER,\n"
	"  translated INTEGER NOT NULL,\n"
	"  translation_latency INTEGER,\n"
	"  timed INTEGER NOT NULL,\n"
	"  total_latency INTEGER,\n"
	"  data_object_ids TEXT);\n"
	"CREATE TABLE numa_stat(\n"
	"  source_id INTEGER NOT NULL REFERENCES source(id),\n"
	"  cpu INTEGER NOT NULL,\n"
	"  physical INTEGER NOT NULL,\n"
	"  memory_node INTEGER,\n"
	"  data_source INTEGER,\n"
	"  loads INTEGER NOT NULL,\n"
	"  timed INTEGER NOT NULL,\n"
	"  total_latency INTEGER,\n"
	"  remote_access INTEGER);\n"
	"CREATE TABLE prefetch_stat(\n"
	"  source_id INTEGER NOT NULL REFERENCES source(id),\n"
	"  pc INTEGER,\n"
	"  insn_id INTEGER REFERENCES insn(id),\n"
	"  symbol_id INTEGER REFERENCES symbol(id),\n"
	"  data_object_id INTEGER REFERENCES data_object(id),\n"
	"  loads INTEGER NOT NULL,\n"
	"  timed INTEGER NOT NULL,\n"
	"  total_latency INTEGER,\n"
	"  late_prefetch INTEGER,\n"
	"  late_latency INTEGER,\n"
	"  recently_fetched INTEGER);\n"
	"CREATE TABLE cacheline_stat(\n"
	"  source_id INTEGER NOT NULL REFERENCES source(id),\n"
	"  pid INTEGER,\n"
	"  line INTEGER NOT NULL,\n"
	"  accesses INTEGER NOT NULL,\n"
	"  loads INTEGER,\n"
	"  stores INTEGER,\n"
	"  cpus INTEGER NOT NULL,\n"
	"  threads INTEGER NOT NULL,\n"
	"  offsets INTEGER NOT NULL,\n"
	"  snooped INTEGER,\n"
	"  hitm INTEGER,\n"
	"  peer_hits INTEGER,\n"
	"  total_latency INTEGER,\n"
	"  atomics INTEGER,\n"
	"  writes INTEGER,\n"
	"  modified_events INTEGER,\n"
	"  modified_sources INTEGER,\n"
	"  remote_hits INTEGER,\n"
	"  symbol_ids TEXT,\n"
	"  data_object_ids TEXT);\n"
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
	"  no_data_object INTEGER NOT NULL DEFAULT 0,\n"
	"  cacheline_scan INTEGER NOT NULL DEFAULT 0,\n"
	"  cut_offset INTEGER,\n"
	"  cut_bytes INTEGER NOT NULL DEFAULT 0,\n"
	"  cut TEXT);\n";

/* @p s as an SQL string literal (quotes doubled). */
static void append_literal(struct util_text *t, const char *s)
{
	char *q = sqlite3_mprintf("%Q", s);
	if (!q) {
		t->failed = 1;
		return;
	}
	util_text_append(t, q);
	sqlite3_free(q);
}

/*
 * The code tables the spe_record view joins with, generated from libspe's
 * facts (decoder/include/spe/facts.h): spe_op_code, every op-type class and
 * payload with its op_class and perf text, and spe_mem_level, every memory
 * level.  Their `code` is what _spe_record.codes holds (SPE_CODES_*).
 */
static void append_code_tables(struct util_text *t)
{
	util_text_append(t, "CREATE TABLE spe_op_code(\n"
		      "  code INTEGER PRIMARY KEY,\n"
		      "  op_raw INTEGER NOT NULL,\n"
		      "  op_class TEXT NOT NULL,\n"
		      "  op TEXT NOT NULL);\n"
		      "CREATE TABLE spe_mem_level(\n"
		      "  code INTEGER PRIMARY KEY,\n"
		      "  name TEXT NOT NULL,\n"
		      "  peer INTEGER NOT NULL,\n"
		      "  remote INTEGER NOT NULL,\n"
		      "  description TEXT NOT NULL);\n"
		      "CREATE TABLE time_conv(\n"
		      "  source_id INTEGER PRIMARY KEY REFERENCES source(id),\n"
		      "  time_shift INTEGER NOT NULL,\n"
		      "  time_mult INTEGER NOT NULL,\n"
		      "  time_zero INTEGER NOT NULL,\n"
		      "  time_cycles INTEGER NOT NULL,\n"
		      "  time_mask INTEGER NOT NULL,\n"
		      "  cap_user_time_short INTEGER NOT NULL);\n");
	const char *sep = "INSERT INTO spe_op_code VALUES";
	for (unsigned cls = 0; cls < 4; cls++)
		for (unsigned payload = 0; payload < 256; payload++) {
			struct spe_record rec = { .has = SPE_HAS_OP_TYPE,
						  .op_raw_class = (uint8_t)cls,
						  .op_raw = (uint8_t)payload };
			uint8_t op_class;
			uint32_t flags;
			uint16_t evl;
			char text[64];
			spe_op_decode((uint8_t)cls, (uint8_t)payload, &op_class, &flags, &evl);
			spe_record_op_text(&rec, text, sizeof text);
			unsigned raw = cls << 8 | payload;
			util_text_appendf(t, "%s(%u, %u, ", sep, SPE_CODES_HAS_OP | raw, raw);
			append_literal(t, spe_op_class_name(op_class));
			util_text_append(t, ", ");
			append_literal(t, text);
			util_text_append(t, ")");
			sep = ",";
		}
	util_text_append(t, ";\nINSERT INTO spe_mem_level VALUES");
	sep = "";
#define SPE_X(id, name, peer, desc)                                                                       \
	util_text_appendf(t, "%s(%d, '%s', %d, %d, ", sep, SPE_MEM_LEVEL_##id + 1, name, peer,                       \
		    spe_mem_level_is_remote(SPE_MEM_LEVEL_##id));                                                   \
	append_literal(t, desc);                                                                            \
	util_text_append(t, ")");                                                                                     \
	sep = ",";
	SPE_MEM_LEVEL_LIST(SPE_X)
#undef SPE_X
	util_text_append(t, ";\n");
}

/*
 * _spe_record holds SPE_RECORD_COLUMNS: codes, and only what cannot be
 * derived (every column costs each INSERT and each row's bytes).  The view
 * spe_record has SPE_RECORD_VIEW_COLUMNS: the event columns computed from
 * `events`, op_class and op from spe_op_code, mem_level from spe_mem_level,
 * time from ts and the source's time_conv, pc, mapping_id and symbol_id
 * from insn.  A join whose columns a query does not use costs nothing: SQLite
 * drops a LEFT JOIN on a unique key that nothing reads.
 */
static void append_view_column(struct util_text *t, const char *name)
{
	if (!strcmp(name, "time")) {
		util_text_appendf(t, "CASE WHEN r.codes & %u THEN NULL ELSE coalesce(r.time, ", SPE_CODES_NO_TIME);
		ana_time_conv_sql_expr(t, "r.ts", "tc");
		util_text_append(t, ") END AS time");
	} else if (!strcmp(name, "pc"))
		util_text_append(t, "coalesce(r.pc, i.pc) AS pc");
	else if (!strcmp(name, "el"))
		util_text_appendf(t, "CASE WHEN r.pc IS NOT NULL OR r.insn_id IS NOT NULL THEN (r.codes >> %d) & 3 END AS el",
			    SPE_CODES_EL_SHIFT);
	else if (!strcmp(name, "op_class") || !strcmp(name, "op"))
		util_text_appendf(t, "oc.%s", name);
	else if (!strcmp(name, "op_raw"))
		util_text_appendf(t, "CASE WHEN r.codes & %u THEN r.codes & %u END AS op_raw", SPE_CODES_HAS_OP,
			    SPE_CODES_OP_RAW_MASK);
	else if (!strcmp(name, "mem_level"))
		util_text_append(t, "ml.name AS mem_level");
	else if (!strcmp(name, "context"))
		util_text_appendf(t, "CASE WHEN r.codes & %u THEN r.tid ELSE r.context END AS context", SPE_CODES_CONTEXT_IS_TID);
	else if (!strcmp(name, "mapping_id") || !strcmp(name, "symbol_id"))
		util_text_appendf(t, "i.%s", name);
	else
		util_text_appendf(t, "r.%s", name);
}

static int append_record_table(struct util_text *t)
{
	append_code_tables(t);
	util_text_append(t, "CREATE TABLE _spe_record(\n  id INTEGER PRIMARY KEY");
	for (int c = 0; c < SPE_RECORD_NCOLS; c++)
		util_text_appendf(t, ",\n  %s %s", spe_record_columns[c].name, spe_record_columns[c].sql);
	util_text_append(t, ");\n");

	static const char *const view_columns[] = {
#define SPE_X(name, doc) #name,
#define SPE_XC(idx, id, word, col, desc) col,
		SPE_RECORD_VIEW_COLUMNS(SPE_X, SPE_XC)
#undef SPE_X
#undef SPE_XC
	};
	util_text_append(t, "CREATE VIEW spe_record AS SELECT");
	for (size_t c = 0; c < sizeof view_columns / sizeof *view_columns; c++) {
		util_text_append(t, c ? ",\n  " : "\n  ");
		append_view_column(t, view_columns[c]);
		if (!strcmp(view_columns[c], "events")) {
#define SPE_X(bit, id, word, col, since, desc) util_text_appendf(t, ",\n  (r.events >> %d) & 1 AS %s", bit, col);
			SPE_EVENT_LIST(SPE_X)
#undef SPE_X
		}
	}
	util_text_appendf(t,
		    "\nFROM _spe_record r\n"
		    "LEFT JOIN time_conv tc ON tc.source_id = r.source_id\n"
		    "LEFT JOIN spe_op_code oc ON oc.code = r.codes & %u\n"
		    "LEFT JOIN spe_mem_level ml ON ml.code = (r.codes >> %d) & 31\n"
		    "LEFT JOIN insn i ON i.id = r.insn_id;\n",
		    SPE_CODES_HAS_OP | SPE_CODES_OP_RAW_MASK, SPE_CODES_MEM_LEVEL_SHIFT);
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
 * either: the rollup (latency_rollup.c) reads it in any order.  Nor has insn
 * one on (mapping_id, pc): with hundreds of thousands of sampled PCs it cost
 * every load 0.1-0.15 s, and its one reader, the exporters, reads insn's ids
 * into memory instead (analysis/export/src/code_loc.c); rows are found by id.
 */
static const char indexes_sql[] =
	"CREATE INDEX IF NOT EXISTS symbol_mapping ON symbol(mapping_id, start);\n"
	/* hot_symbol's order, so LIMIT N reads N rows (_hot_pc's rows are in hot_pc's) */
	"CREATE INDEX IF NOT EXISTS symbol_summary_hot ON symbol_summary(total_latency DESC, samples DESC);\n";

/* Dropped at the start of an append and rebuilt at its end (after the rollup refills the summaries). */
static const char drop_indexes_sql[] = "DROP INDEX IF EXISTS symbol_summary_hot;\n";

int spe_schema_create_indexes(sqlite3 *db, char *err, size_t errlen)
{
	return exec(db, indexes_sql, err, errlen);
}

int spe_schema_drop_record_indexes(sqlite3 *db, char *err, size_t errlen)
{
	return exec(db, drop_indexes_sql, err, errlen);
}

/* Columns appended within the schema version: (table, column, type), for databases written before. */
static const char *const added_columns[][3] = {
	{ "mapping", "build_id_status", "TEXT" },
	{ "symbol_summary", "mapping_id", "INTEGER REFERENCES mapping(id)" },
};

int spe_schema_add_columns(sqlite3 *db, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof added_columns / sizeof added_columns[0]; i++) {
		char sql[256];
		sqlite3_stmt *st;
		snprintf(sql, sizeof sql, "SELECT count(*) FROM pragma_table_info('%s') WHERE name = '%s'",
			 added_columns[i][0], added_columns[i][1]);
		if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
			snprintf(err, errlen, "%s", sqlite3_errmsg(db));
			return -spe_io;
		}
		int have = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
		sqlite3_finalize(st);
		if (have)
			continue;
		snprintf(sql, sizeof sql, "ALTER TABLE %s ADD COLUMN %s %s", added_columns[i][0], added_columns[i][1],
			 added_columns[i][2]);
		int rc = exec(db, sql, err, errlen);
		if (rc < 0)
			return rc;
	}
	return 0;
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
