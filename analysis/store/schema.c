/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The tables of a spekit database (docs/schema.md), made from their
 * descriptions (spe/tables.h; the record table's counter columns come from
 * SPE_COUNTER_LIST) and the spe_record view's event columns from
 * SPE_EVENT_LIST, so the facts table stays the one place that names them;
 * and the check of an existing database's columns against them.
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

/*
 * The CREATE TABLE of table @p ti (spe/tables.h): its stored columns, the
 * PRIMARY KEY of a WITHOUT ROWID table.  _spe_record's id is its rowid.
 */
static void append_create_table(struct util_text *t, const struct spe_table_info *ti)
{
	util_text_appendf(t, "CREATE TABLE %s(", ti->name);
	const char *sep = "\n  ";
	if (ti == spe_table_info(SPE_TABLE_RECORD)) {
		util_text_append(t, "\n  id INTEGER PRIMARY KEY");
		sep = ",\n  ";
	}
	for (int c = 0; c < ti->n_columns; c++)
		if (ti->columns[c].sql) {
			util_text_appendf(t, "%s%s %s", sep, ti->columns[c].name, ti->columns[c].sql);
			sep = ",\n  ";
		}
	if (ti->key)
		util_text_appendf(t, ",\n  PRIMARY KEY(%s)", ti->key);
	util_text_append(t, ti->key || (ti->flags & SPE_TABLE_WITHOUT_ROWID) ? ") WITHOUT ROWID;\n" : ");\n");
}

/* Every table of spe/tables.h. */
static void append_tables(struct util_text *t)
{
	int n;
	const struct spe_table_info *store = spe_store_tables(&n);
	for (int i = 0; i < n; i++)
		append_create_table(t, &store[i]);
	for (int i = 0; i < SPE_TABLE_COUNT; i++)
		append_create_table(t, spe_table_info((enum spe_table)i));
	util_text_append(t, "CREATE INDEX source_digest ON source(digest);\n");
}

/* The views that stand for a table: pc_latency expands pc_histogram; pc_summary reads _hot_pc. */
static const char table_views_sql[] =
	"CREATE VIEW pc_latency AS\n"
	"SELECT h.source_id, h.pc, h.insn_id, h.symbol_id, CAST(j.key AS INTEGER) AS total_latency, j.value AS samples\n"
	"FROM pc_histogram h, json_each(h.histogram) j\n"
	"UNION ALL\n"
	"SELECT source_id, pc, insn_id, symbol_id, NULL, untimed FROM pc_histogram WHERE untimed > 0;\n";
static const char pc_summary_sql[] =
	"CREATE VIEW pc_summary AS\n"
	"SELECT coalesce(h.pc_value, i.pc) AS pc, h.insn_id, h.samples, h.total_latency, h.timed, h.p50, h.p90, h.p99\n"
	"FROM _hot_pc h LEFT JOIN insn i ON i.id = h.insn_id;\n";

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
 * The rows of the code tables the spe_record view joins with, generated
 * from libspe's facts (decoder/include/spe/facts.h): spe_op_code, every
 * op-type class and payload with its op_class and perf text, and
 * spe_mem_level, every memory level.  Their `code` is what
 * _spe_record.codes holds (SPE_CODES_*).
 */
static void append_code_rows(struct util_text *t)
{
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

static int append_record_view(struct util_text *t)
{
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
	append_tables(&t);
	util_text_append(&t, table_views_sql);
	util_text_append(&t, pc_summary_sql);
	ana_memory_schema_fact_rows(&t);
	append_code_rows(&t);
	append_record_view(&t);
	util_text_appendf(&t,
			"INSERT INTO meta VALUES('schema_version', '%d'), ('application', 'spekit');\n"
			"PRAGMA user_version = %d;\nPRAGMA application_id = %d;\n",
			SPE_DB_SCHEMA_VERSION, SPE_DB_SCHEMA_VERSION, SPE_DB_APPLICATION_ID);
	if (!util_text_ok(&t)) {
		util_text_fini(&t);
		snprintf(err, errlen, "out of memory");
		return -spe_nomem;
	}
	int rc = exec(db, t.buf, err, errlen);
	util_text_fini(&t);
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

int spe_schema_check(sqlite3 *db, char *err, size_t errlen)
{
	int64_t n = ana_query_int(db, "SELECT count(*) FROM sqlite_schema", -1);
	if (n < 0) {
		snprintf(err, errlen, "not an SQLite database: %s", sqlite3_errmsg(db));
		return -spe_bad_file;
	}
	if (n == 0)
		return 0;
	long app = (long)ana_query_int(db, "PRAGMA application_id", -1);
	long ver = (long)ana_query_int(db, "PRAGMA user_version", -1);
	if (app != SPE_DB_APPLICATION_ID) {
		snprintf(err, errlen, "not a spekit database (application_id %ld)", app);
		return -spe_bad_file;
	}
	if (ver < SPE_DB_SCHEMA_VERSION_OLDEST || ver > SPE_DB_SCHEMA_VERSION) {
		snprintf(err, errlen,
			 "database schema version %ld is not supported (this spekit reads versions %d to %d); "
			 "reload the traces into a new database",
			 ver, SPE_DB_SCHEMA_VERSION_OLDEST, SPE_DB_SCHEMA_VERSION);
		return -spe_unsupported;
	}
	return 1;
}

/* The stored column names of table @p name in @p db, in order; 0 when it has no such table, -1 on error. */
static int db_columns(sqlite3 *db, const char *name, struct util_text *names, int *n)
{
	sqlite3_stmt *st;
	*n = 0;
	if (sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info(?1) ORDER BY cid", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		util_text_appendf(names, "%s%s", (*n)++ ? ", " : "", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? *n > 0 : -1;
}

/*
 * Table @p ti in a database this spekit appends to: what it lacks of the
 * description is added (the table, or the columns appended to it since,
 * within this schema version); a table the load rebuilds (SPE_TABLE_REBUILT)
 * whose columns differ is made anew; any other difference is refused.
 */
static int upgrade_table(sqlite3 *db, const struct spe_table_info *ti, char *err, size_t errlen)
{
	struct util_text have = { 0 }, want = { 0 }, sql = { 0 };
	int n;
	int rc = db_columns(db, ti->name, &have, &n);
	if (rc == 0)
		append_create_table(&sql, ti);
	int is_record = ti == spe_table_info(SPE_TABLE_RECORD), k = is_record; /* _spe_record's id comes first */
	if (is_record)
		util_text_append(&want, "id");
	for (int c = 0; c < ti->n_columns; c++) {
		const struct spe_column *col = &ti->columns[c];
		if (!col->sql)
			continue;
		util_text_appendf(&want, "%s%s", k ? ", " : "", col->name);
		if (rc > 0 && ++k > n)
			util_text_appendf(&sql, "ALTER TABLE %s ADD COLUMN %s %s;\n", ti->name, col->name, col->sql);
	}
	if (rc < 0) {
		snprintf(err, errlen, "reading the columns of %s: %s", ti->name, sqlite3_errmsg(db));
		rc = -spe_io;
	} else if (have.failed || want.failed || sql.failed) {
		snprintf(err, errlen, "out of memory");
		rc = -spe_nomem;
	} else if (rc > 0 && (ti->flags & SPE_TABLE_REBUILT) && strcmp(have.buf, want.buf) != 0) {
		/* the load empties it and fills it again: made anew with this build's columns */
		util_text_fini(&sql);
		util_text_appendf(&sql, "DROP TABLE %s;\n", ti->name);
		append_create_table(&sql, ti);
		if (sql.failed) {
			snprintf(err, errlen, "out of memory");
			rc = -spe_nomem;
		} else {
			rc = exec(db, sql.buf, err, errlen);
		}
	} else if (rc > 0 && (n > k || strncmp(want.buf, have.buf, strlen(have.buf)) != 0 ||
			      (want.buf[strlen(have.buf)] != 0 && want.buf[strlen(have.buf)] != ','))) {
		snprintf(err, errlen,
			 "table %s has the columns (%s), not the first of this spekit's (%s): not a database this "
			 "spekit can add to; load into a new one",
			 ti->name, have.buf, want.buf);
		rc = -spe_unsupported;
	} else {
		rc = sql.buf && *sql.buf ? exec(db, sql.buf, err, errlen) : 0;
	}
	util_text_fini(&have);
	util_text_fini(&want);
	util_text_fini(&sql);
	return rc;
}

int spe_schema_upgrade(sqlite3 *db, char *err, size_t errlen)
{
	int n, rc = 0;
	const struct spe_table_info *store = spe_store_tables(&n);
	for (int i = 0; i < n && rc == 0; i++)
		rc = upgrade_table(db, &store[i], err, errlen);
	for (int i = 0; i < SPE_TABLE_COUNT && rc == 0; i++)
		rc = upgrade_table(db, spe_table_info((enum spe_table)i), err, errlen);
	/*
	 * An older version's file, its tables now this version's (spe_schema_check
	 * read it): the file's own views of _hot_pc become this version's too, for
	 * whoever reads them without spekit (spekit's own connections shadow a
	 * file's views that differ with TEMP ones: db_trust.c).
	 */
	if (rc == 0 && ana_query_int(db, "PRAGMA user_version", -1) != SPE_DB_SCHEMA_VERSION) {
		char sql[160];
		snprintf(sql, sizeof sql,
			 "UPDATE meta SET value = '%d' WHERE key = 'schema_version'; PRAGMA user_version = %d;",
			 SPE_DB_SCHEMA_VERSION, SPE_DB_SCHEMA_VERSION);
		rc = exec(db, "DROP VIEW IF EXISTS main.hot_pc; DROP VIEW IF EXISTS main.pc_summary;", err, errlen);
		if (rc == 0)
			rc = exec(db, pc_summary_sql, err, errlen);
		if (rc == 0)
			rc = spe_schema_create_hot_pc_view(db, err, errlen);
		if (rc == 0)
			rc = exec(db, sql, err, errlen);
	}
	return rc;
}
