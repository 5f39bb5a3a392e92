/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The ClickHouse schema (docs/scaling-out.md, "Table layout"): the tables of
 * docs/schema.md with ClickHouse types, where the rows live, and the views.
 * Their columns come from the tables' descriptions (spe/tables.h): a column
 * has the ClickHouse type its SQLite type gives (ch_type), but for the few
 * kept as the tables were first made (ch_types, ch_extra_columns).
 *
 * Every per-capture table is stored as `_name` and read through a view
 * `name` that shows only committed captures (the source view's ids): a
 * capture becomes visible when its source row is inserted, last.  One
 * server: `_name` is a MergeTree table.  A cluster: `_name_shard` is the
 * MergeTree table on every server and `_name` a Distributed table over
 * them, sharded by intHash64(source_id) -- every row carries its capture's
 * source id, so one capture's rows are on one shard and a load writes to
 * one shard.  The facts tables and the views are on every server, so any
 * of them answers queries.
 *
 * Sort keys (MergeTree ORDER BY, which is also the sparse primary index)
 * start with source_id: a capture's rows are contiguous, so reading or
 * filtering one capture reads its range only.  Then the column the views
 * group or join on, so equal values sit together and compress.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch_internal.h"
#include "util/grow.h"
#include "ana/memory_schema.h"
#include "util/text.h"

#define SPE_CH_APPLICATION "spekit"
/*
 * The version of ClickHouse's own tables beside the schema version they
 * share with SQLite (meta key clickhouse_version): 2 added the summaries
 * (mem_level_stat ... function_latency), 3 mapping.build_id_status, 4
 * load_stats.no_pid, kernel_no_symbol and out_of_order, 5 load_stats'
 * span (timed_records, first_time ... last_ts), 6 load_stats.pages_unlisted
 * and unlisted_page_records.  A database of an older version is read as it
 * is, and refused for loading.
 */
#define SPE_CH_VERSION 6

/*
 * ClickHouse's types where they are not what the SQLite type gives
 * (ch_type), as the tables were first made.
 */
static const struct {
	const char *table, *column, *type;
} ch_types[] = {
	/* the capture's identity: always there (the sink computes it for a source row without) */
	{ "source", "digest", "String" },
	/* Nullable as _spe_record's cpu: the views join _cpu_context on it */
	{ "numa_stat", "cpu", "Nullable(Int64)" },
	{ "meta", "value", "String" },
};

/*
 * Columns of repeated names: few distinct values over many rows (an op class
 * per record, a source file or mnemonic per instruction, a path per map),
 * declared LowCardinality where the server has it (ch_repeated_name_type).
 * Not the names that are mostly distinct (symbol.name, data_object.name,
 * function_stat.name, insn.operands): a dictionary as large as the column
 * costs more than it saves.
 */
static const struct {
	const char *table, *column;
} repeated_names[] = {
	{ "spe_record", "op_class" }, { "spe_record", "op" },	  { "spe_record", "mem_level" },
	{ "insn", "mnemonic" },	      { "insn", "file" },	  { "insn", "inline_function" },
	{ "symbol", "file" },	      { "mapping", "path" },	  { "mapping", "build_id_status" },
	{ "thread", "comm" },	      { "data_object", "type" },  { "data_object", "file" },
	{ "thread_comm", "comm" },
	{ "latency_bucket", "op_class" }, { "function_stat", "path" }, { "function_stat", "file" },
};

/* ClickHouse's own columns of the described tables, after the column named. */
static const struct {
	enum ch_table_id table;
	const char *after;
	struct ch_column column;
} ch_extra_columns[] = {
	/* the dimension tables' rows carry their capture's id: the sort key, and the shard */
	{ CHT_SYMBOL, "id", { "source_id", "Int64", CH_FROM_SOURCE_ID, 0 } },
	{ CHT_INSN, "id", { "source_id", "Int64", CH_FROM_SOURCE_ID, 0 } },
	/* the commit time: the source view keeps each digest's latest commit */
	{ CHT_SOURCE, "digest", { "committed_ns", "UInt64", CH_FROM_SINK, 0 } },
};

/* pc_histogram's rows as pc_latency's: one per (PC, latency), NULL for the untimed records (ch_sink.c). */
static const struct ch_column pc_latency_cols[] = {
	{ "source_id", "Int64", 0, 0 },		{ "pc", "Nullable(Int64)", 0, 1 },
	{ "insn_id", "Nullable(Int64)", 0, 1 },	{ "symbol_id", "Nullable(Int64)", 0, 1 },
	{ "total_latency", "Nullable(Int64)", 0, 1 }, { "samples", "Int64", 0, 0 },
};

/*
 * ClickHouse's own summaries for hot_symbol (ch_functions.c): function_stat,
 * one function's statistics in one capture, and function_latency, its
 * latency histogram there (read only to merge a function's captures).
 * symbol_id: the function's smallest symbol id in the capture, NULL for the
 * records without a symbol, -M for those of them in a kernel map (M: the
 * capture's smallest id of a map of that path: ch_functions.c); name, path,
 * file, line: that symbol's (hot_symbol shows them), the kernel map's path.
 */
static const struct ch_column function_stat_cols[] = {
	{ "source_id", "Int64", 0, 0 },	     { "symbol_id", "Nullable(Int64)", 0, 1 }, { "name", "Nullable(String)", 0, 1 },
	{ "path", "Nullable(String)", 0, 1 }, { "file", "Nullable(String)", 0, 1 },	{ "line", "Nullable(Int64)", 0, 1 },
	{ "samples", "Int64", 0, 0 },	     { "total_latency", "Nullable(Int64)", 0, 1 }, { "timed", "Int64", 0, 0 },
	{ "p50", "Nullable(Int64)", 0, 1 },   { "p90", "Nullable(Int64)", 0, 1 },	{ "p99", "Nullable(Int64)", 0, 1 },
};
static const struct ch_column function_latency_cols[] = {
	{ "source_id", "Int64", 0, 0 },
	{ "symbol_id", "Nullable(Int64)", 0, 1 },
	{ "total_latency", "Nullable(Int64)", 0, 1 },
	{ "samples", "Int64", 0, 0 },
};

/*
 * _spe_record: the columns of the spe_record view (SPE_RECORD_VIEW_COLUMNS,
 * without the event columns), stored wide.  SQLite keeps narrow rows and a
 * view that joins codes and instructions; a column store reads only the
 * columns a query names and compresses repeated text to little, so the
 * ClickHouse sink widens each row once (ch_sink.c) and the views read it
 * without joins.
 */
static const char *const record_names[] = {
#define SPE_X(name, doc) #name,
#define SPE_XC(idx, id, word, col, desc) col,
	SPE_RECORD_VIEW_COLUMNS(SPE_X, SPE_XC)
#undef SPE_X
#undef SPE_XC
};
#define RECORD_NCOLS ((int)(sizeof record_names / sizeof *record_names))

#define COLS(a) .cols = a, .ncols = (int)(sizeof a / sizeof a[0])

struct ch_table {
	const char *name;            /* the view users query; stored as "_" name */
	const struct ch_column *cols;
	int ncols;
	const char *order_by;        /* MergeTree's ORDER BY; NULL: ClickHouse has no such table */
	const char *shown;           /* the view's columns when not all: the SQLite table's (source_id only where it has it) */
	char storage[40];            /* "_" name */
	char *insert;                /* "INSERT INTO _name(columns) FORMAT RowBinary", NULL without memory */
};

/*
 * Sort keys (spe/tables.h has each table's) start with source_id; a capture
 * by id: the source view's argMax reads them all, they are few; the
 * dimension tables are joined by id, which starts with the capture's key;
 * hot_pc and hot_symbol group pc_latency by PC; the summaries have few rows
 * a capture, read whole or by capture.
 */
static struct ch_table tables[CHT_COUNT];
/* The columns of the described tables: their own (by ch_type), and ClickHouse's extra ones. */
static struct ch_column described_cols[SPE_TABLE_COUNT][72];
static struct ch_column record_cols[RECORD_NCOLS];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

/* A column's ClickHouse type, from its kind and SQLite type. */
static const char *ch_type(const char *table, const struct spe_column *c)
{
	for (size_t i = 0; i < sizeof ch_types / sizeof *ch_types; i++)
		if (!strcmp(ch_types[i].table, table) && !strcmp(ch_types[i].column, c->name))
			return ch_types[i].type;
	if (c->kind == SPE_KIND_IDS)
		return "Array(Int64)";
	int not_null = strstr(c->sql, "NOT NULL") || strstr(c->sql, "PRIMARY KEY");
	if (!strncmp(c->sql, "TEXT", 4) || !strncmp(c->sql, "BLOB", 4))
		return not_null ? "String" : "Nullable(String)";
	if (!strncmp(c->sql, "REAL", 4))
		return not_null ? "Float64" : "Nullable(Float64)";
	return not_null ? "Int64" : "Nullable(Int64)";
}

/* Table @p t's columns from its description (@p ti), ClickHouse's own inserted. */
static int described_columns(enum ch_table_id t, const struct spe_table_info *ti, struct ch_column *out)
{
	int n = 0;
	for (int c = 0; c < ti->n_columns; c++) {
		if (!ti->columns[c].sql)
			continue;
		const char *type = ch_type(ti->name, &ti->columns[c]);
		out[n++] = (struct ch_column){ ti->columns[c].name, type, c, !strncmp(type, "Nullable(", 9) };
		for (size_t i = 0; i < sizeof ch_extra_columns / sizeof *ch_extra_columns; i++)
			if (ch_extra_columns[i].table == t && !strcmp(ch_extra_columns[i].after, ti->columns[c].name))
				out[n++] = ch_extra_columns[i].column;
	}
	return n;
}

static void build_tables(void)
{
	for (int t = 0; t < SPE_TABLE_RECORD; t++) {
		const struct spe_table_info *ti = spe_table_info((enum spe_table)t);
		if (ti->flags & SPE_TABLE_SQLITE_ONLY)
			continue;
		tables[t] = (struct ch_table){ .name = ti->name,
					       .cols = described_cols[t],
					       .ncols = described_columns(t, ti, described_cols[t]),
					       .order_by = ti->ch_order_by };
	}
	tables[CHT_SOURCE].shown = "id, file, kind, host, command_line, cpus, loaded_at, digest";
	tables[CHT_SYMBOL].shown = "id, mapping_id, name, start, size, file, line";
	tables[CHT_INSN].shown = "id, mapping_id, pc, symbol_id, lower(hex(bytes)) AS bytes, mnemonic, operands, file, line, "
				 "inline_function";
	tables[CHT_PC_LATENCY] = (struct ch_table){ .name = "pc_latency", COLS(pc_latency_cols),
						    .order_by = spe_table_info(SPE_TABLE_PC_HISTOGRAM)->ch_order_by };
	tables[CHT_FUNCTION_STAT] = (struct ch_table){ .name = "function_stat", COLS(function_stat_cols),
						       .order_by = "(source_id, assumeNotNull(symbol_id))" };
	tables[CHT_FUNCTION_LATENCY] = (struct ch_table){ .name = "function_latency", COLS(function_latency_cols),
							  .order_by = "(source_id, assumeNotNull(symbol_id))" };
	for (int c = 0; c < RECORD_NCOLS; c++) {
		const char *n = record_names[c];
		const char *type = !strcmp(n, "id") || !strcmp(n, "source_id") ? "Int64"
				   : !strcmp(n, "op_class") || !strcmp(n, "op") || !strcmp(n, "mem_level") ? "Nullable(String)"
				   : "Nullable(Int64)";
		record_cols[c] = (struct ch_column){ n, type, 0, type[0] == 'N' };
	}
	tables[CHT_RECORD] = (struct ch_table){ .name = "spe_record", .cols = record_cols, .ncols = RECORD_NCOLS,
						.order_by = spe_table_info(SPE_TABLE_RECORD)->ch_order_by };
	for (int t = 0; t < CHT_COUNT; t++) {
		struct ch_table *ct = &tables[t];
		if (!ct->order_by)
			continue;
		snprintf(ct->storage, sizeof ct->storage, "_%s", ct->name);
		struct util_text sql = { 0 };
		util_text_appendf(&sql, "INSERT INTO %s(", ct->storage);
		for (int c = 0; c < ct->ncols; c++)
			util_text_appendf(&sql, "%s\"%s\"", c ? ", " : "", ct->cols[c].name);
		util_text_append(&sql, ") FORMAT RowBinary");
		if (util_text_ok(&sql))
			ct->insert = sql.buf;
		else
			util_text_fini(&sql);
	}
}

static const struct ch_table *table(enum ch_table_id t)
{
	pthread_once(&tables_once, build_tables);
	return &tables[t];
}

int ch_table_exists(enum ch_table_id t)
{
	return table(t)->order_by != NULL;
}

const struct ch_column *ch_table_columns(enum ch_table_id t, int *n)
{
	*n = table(t)->ncols;
	return table(t)->cols;
}

const char *ch_table_name(enum ch_table_id t)
{
	return table(t)->storage;
}

const char *ch_insert_sql(enum ch_table_id t)
{
	return table(t)->insert;
}

/* ---- DDL ------------------------------------------------------------------ */

/*
 * The store's tables ClickHouse has too (spe/tables.h, SPE_STORE_TABLES with
 * a sort key): the facts tables (docs/schema.md, Memory) and meta, not per
 * capture, the same on every server.
 */
static int create_store_tables(struct spe_ch *ch)
{
	int n, rc = 0;
	const struct spe_table_info *store = spe_store_tables(&n);
	for (int i = 0; i < n && rc == 0; i++) {
		if (!store[i].ch_order_by)
			continue;
		struct util_text s = { 0 };
		util_text_appendf(&s, "CREATE TABLE IF NOT EXISTS %s(", store[i].name);
		for (int c = 0; c < store[i].n_columns; c++)
			util_text_appendf(&s, "%s%s %s", c ? ", " : "", store[i].columns[c].name,
					  ch_type(store[i].name, &store[i].columns[c]));
		util_text_appendf(&s, ") ENGINE = MergeTree ORDER BY %s", store[i].ch_order_by);
		rc = util_text_ok(&s) ? ch_exec(ch, s.buf) : ch_fail(ch, -spe_nomem, "out of memory");
		util_text_fini(&s);
	}
	return rc;
}

/* Table @p t's columns in the DDL of the server of @p ch (its release picks the repeated names' type). */
static int append_columns(struct spe_ch *ch, struct util_text *s, enum ch_table_id t)
{
	int n, rc = 0;
	const struct ch_column *cols = ch_table_columns(t, &n);
	util_text_append(s, "(");
	for (int c = 0; c < n && rc == 0; c++) {
		char type[80];
		snprintf(type, sizeof type, "%s", cols[c].type);
		for (size_t i = 0; i < sizeof repeated_names / sizeof *repeated_names && rc == 0; i++)
			if (!strcmp(repeated_names[i].table, table(t)->name) && !strcmp(repeated_names[i].column, cols[c].name))
				rc = ch_repeated_name_type(ch, cols[c].type, type, sizeof type);
		util_text_appendf(s, "%s\"%s\" %s", c ? ", " : "", cols[c].name, type);
	}
	util_text_append(s, ")");
	return rc;
}

/* The storage of table @p t on one server: MergeTree (one server), or a shard's MergeTree and the Distributed table. */
static int create_storage(struct spe_ch *ch, enum ch_table_id t)
{
	struct util_text s = { 0 };
	const char *key_col = t == CHT_SOURCE ? "id" : "source_id";
	util_text_appendf(&s, "CREATE TABLE IF NOT EXISTS %s%s", ch_table_name(t), ch->cluster ? "_shard" : "");
	int rc = append_columns(ch, &s, t);
	util_text_appendf(&s, " ENGINE = MergeTree ORDER BY %s", table(t)->order_by);
	if (rc < 0 || !util_text_ok(&s)) {
		util_text_fini(&s);
		return rc < 0 ? rc : ch_fail(ch, -spe_nomem, "out of memory");
	}
	rc = ch_exec(ch, s.buf);
	util_text_fini(&s);
	if (rc == 0 && ch->cluster) {
		s = (struct util_text){ 0 };
		util_text_appendf(&s, "CREATE TABLE IF NOT EXISTS %s AS %s_shard ENGINE = Distributed(%s, %s, %s_shard, intHash64(%s))",
			    ch_table_name(t), ch_table_name(t), ch->cluster, ch->database, ch_table_name(t), key_col);
		rc = util_text_ok(&s) ? ch_exec(ch, s.buf) : ch_fail(ch, -spe_nomem, "out of memory");
		util_text_fini(&s);
	}
	return rc;
}

void ch_table_view_sql(struct util_text *s, enum ch_table_id t, const char *set)
{
	util_text_append(s, "SELECT ");
	if (table(t)->shown) {
		util_text_append(s, table(t)->shown);
	} else {
		int n;
		const struct ch_column *cols = ch_table_columns(t, &n);
		for (int c = 0; c < n; c++)
			util_text_appendf(s, "%s\"%s\"", c ? ", " : "", cols[c].name);
	}
	if (t == CHT_SOURCE) /* a capture loaded twice (a race, or --replace) counts once: its latest commit */
		util_text_appendf(s, " FROM %s WHERE id GLOBAL IN (SELECT argMax(id, committed_ns) FROM %s GROUP BY digest)%s%s",
			    ch_table_name(t), ch_table_name(t), set ? " AND id GLOBAL IN " : "", set ? set : "");
	else
		util_text_appendf(s, " FROM %s WHERE source_id GLOBAL IN %s", ch_table_name(t), set ? set : "(SELECT id FROM source)");
}

int ch_table_by_name(const char *name)
{
	for (int t = 0; t < CHT_COUNT; t++)
		if (t != CHT_RECORD && ch_table_exists((enum ch_table_id)t) && !strcmp(table((enum ch_table_id)t)->name, name))
			return t;
	return -1;
}

/* The view of table @p t: its committed captures' rows. */
static int create_table_view(struct spe_ch *ch, enum ch_table_id t)
{
	if (t == CHT_RECORD || !ch_table_exists(t))
		return 0; /* spe_record is one of the views of ch_views.c (its event columns) */
	struct util_text s = { 0 };
	util_text_appendf(&s, "CREATE VIEW IF NOT EXISTS %s AS ", table(t)->name);
	ch_table_view_sql(&s, t, NULL);
	if (!util_text_ok(&s)) {
		util_text_fini(&s);
		return ch_fail(ch, -spe_nomem, "out of memory");
	}
	int rc = ch_exec(ch, s.buf);
	util_text_fini(&s);
	return rc;
}

/* Run each statement; a failure names the statement (its first line). */
static int exec_list(struct spe_ch *ch, char **list)
{
	int rc = 0;
	for (size_t i = 0; list[i] && rc == 0; i++)
		if ((rc = ch_exec(ch, list[i])) < 0) {
			char why[sizeof ch->err];
			snprintf(why, sizeof why, "%s", ch->err);
			ch_fail(ch, rc, "%.*s: %s", (int)strcspn(list[i], "\n"), list[i], why);
		}
	return rc;
}

/* The facts rows, once (facts.h through memory_schema.c, the SQL SQLite reads too). */
static int fill_facts(struct spe_ch *ch)
{
	long long n;
	int rc = ch_select_int(ch, "SELECT count() FROM spe_part_fact", &n);
	if (rc < 0 || n > 0)
		return rc;
	struct util_text t = { 0 };
	ana_memory_schema_fact_rows(&t);
	char **list = util_text_ok(&t) ? ch_split_statements(t.buf) : NULL;
	util_text_fini(&t);
	if (!list)
		return ch_fail(ch, -spe_nomem, "out of memory");
	rc = exec_list(ch, list);
	ch_free_list(list);
	return rc;
}

/* "single" or "cluster NAME": the layout the meta table records. */
static void layout_text(const struct spe_ch *ch, char *out, size_t size)
{
	if (ch->cluster)
		snprintf(out, size, "cluster %s", ch->cluster);
	else
		snprintf(out, size, "single");
}

/* Phase 1 on one server: the database, the storage tables and the facts tables. */
static int create_tables(struct spe_ch *ch)
{
	char sql[256];
	snprintf(sql, sizeof sql, "CREATE DATABASE IF NOT EXISTS %s", ch->database);
	int rc = ch_exec_server(ch, sql);
	for (int t = 0; t < CHT_COUNT && rc == 0; t++)
		if (ch_table_exists((enum ch_table_id)t))
			rc = create_storage(ch, (enum ch_table_id)t);
	if (rc == 0)
		rc = create_store_tables(ch);
	return rc == 0 ? fill_facts(ch) : rc;
}

/*
 * Phase 2, once every server has its tables (a view's scalar subqueries run
 * when it is created, across the shards): the views, then meta, so a schema
 * is complete once meta says so.
 */
static int create_views(struct spe_ch *ch)
{
	int rc = 0;
	for (int t = 0; t < CHT_COUNT && rc == 0; t++)
		rc = create_table_view(ch, (enum ch_table_id)t);
	if (rc == 0) {
		char **views = ch_view_statements();
		rc = views ? exec_list(ch, views) : ch_fail(ch, -spe_nomem, "out of memory");
		ch_free_list(views);
	}
	long long n;
	if (rc == 0 && (rc = ch_select_int(ch, "SELECT count() FROM meta WHERE key = 'schema_version'", &n)) == 0 && !n) {
		char sql[256], layout[128];
		layout_text(ch, layout, sizeof layout);
		snprintf(sql, sizeof sql,
			 "INSERT INTO meta VALUES ('schema_version', '%d'), ('application', '" SPE_CH_APPLICATION "'),"
			 " ('layout', '%s'), ('clickhouse_version', '%d')",
			 SPE_DB_SCHEMA_VERSION, layout, SPE_CH_VERSION);
		rc = ch_exec(ch, sql);
	}
	return rc;
}

/*
 * A phase on every server of the cluster, reached at its HTTP endpoint
 * (ch_cluster_endpoints), then on the one the URL names.
 */
static int on_every_server(struct spe_ch *ch, const struct ch_endpoint *servers, size_t n, int (*phase)(struct spe_ch *))
{
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		const struct ch_endpoint *e = &servers[i];
		struct spe_ch *shard;
		if ((rc = ch_open_host(ch, e->address, e->port, &shard)) < 0)
			return ch_fail(ch, rc, "out of memory");
		if ((rc = phase(shard)) < 0)
			ch_fail(ch, rc, "creating the tables on server %s of cluster %s (%s, HTTP port %s%s): %s%s", e->name,
				ch->cluster, e->address, e->port, e->given ? ", from --cluster-http" : ", the URL's", shard->err,
				rc == -spe_unavailable && !e->given
					? " (servers answering HTTP on another port than the URL's: --cluster-http=HOST:PORT,... "
					  "or :PORT for all)"
					: "");
		spe_ch_close(shard);
	}
	return rc < 0 ? rc : phase(ch);
}

/*
 * 1 when the database has spekit's meta table, 0 when not; the version and
 * layout in @p version/@p layout, ClickHouse's own version in @p ch_version
 * (0: older than the key).
 */
static int read_meta(struct spe_ch *ch, char *version, char *layout, size_t size, int *ch_version)
{
	char sql[256];
	long long n;
	snprintf(sql, sizeof sql, "SELECT count() FROM system.tables WHERE database = '%s' AND name = 'meta'",
		 ch->database);
	int rc = ch_select_int_server(ch, sql, &n);
	if (rc < 0 || n == 0)
		return rc;
	*version = *layout = 0;
	*ch_version = 0;
	if ((rc = ch_select(ch, "SELECT key, value FROM meta FORMAT TabSeparated")) < 0)
		return rc;
	for (char *save = NULL, *line = strtok_r(ch->resp.p, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *tab = strchr(line, '\t');
		if (!tab)
			continue;
		*tab = 0;
		if (!strcmp(line, "schema_version"))
			snprintf(version, size, "%s", tab + 1);
		else if (!strcmp(line, "layout"))
			snprintf(layout, size, "%s", tab + 1);
		else if (!strcmp(line, "clickhouse_version"))
			*ch_version = atoi(tab + 1);
	}
	return 1;
}

/* @p check_layout: for a load (the layout and ClickHouse's own version must match too). */
static int check_meta(struct spe_ch *ch, const char *version, const char *layout, int ch_version, int check_layout)
{
	char want[128];
	layout_text(ch, want, sizeof want);
	/* version 8 changed no ClickHouse table (only SQLite's _hot_pc): 7 is read and loaded into alike */
	if (atoi(version) < SPE_DB_SCHEMA_VERSION_OLDEST || atoi(version) > SPE_DB_SCHEMA_VERSION)
		return ch_fail(ch, -spe_unsupported,
			       "%s holds schema version %s; this spekit reads and writes versions %d to %d: load into "
			       "another database (?database=NAME)",
			       ch->name, version, SPE_DB_SCHEMA_VERSION_OLDEST, SPE_DB_SCHEMA_VERSION);
	if (check_layout && strcmp(layout, want))
		return ch_fail(ch, -spe_unsupported, "%s was made for layout '%s', not '%s'%s", ch->name, layout, want,
			       strncmp(layout, "cluster ", 8) ? "" : ": give --cluster as when it was made");
	if (check_layout && ch_version < SPE_CH_VERSION)
		return ch_fail(ch, -spe_unsupported,
			       "%s was made by an earlier spekit, without tables or columns this one writes: load into "
			       "another database (?database=NAME)",
			       ch->name);
	return 0;
}

int spe_ch_schema_create(struct spe_ch *ch)
{
	char version[64], layout[128];
	int ch_version;
	struct ch_endpoint *servers = NULL;
	size_t n = 0;
	int rc = 0;
	/* --cluster-http is checked against the cluster whether or not the tables are there yet */
	if (ch->cluster && ch->cluster_http && (rc = ch_cluster_endpoints(ch, &servers, &n)) < 0)
		return rc;
	rc = read_meta(ch, version, layout, sizeof version, &ch_version);
	if (rc < 0 || (rc == 1 && *version)) { /* else a creation that stopped part way: carry on (IF NOT EXISTS) */
		ch_endpoints_free(servers, n);
		return rc < 0 ? rc : check_meta(ch, version, layout, ch_version, 1);
	}
	if (ch->cluster && !servers && (rc = ch_cluster_endpoints(ch, &servers, &n)) < 0)
		return rc;
	rc = on_every_server(ch, servers, n, create_tables);
	if (rc == 0)
		rc = on_every_server(ch, servers, n, create_views);
	ch_endpoints_free(servers, n);
	return rc;
}

int spe_ch_schema_check(struct spe_ch *ch)
{
	char version[64], layout[128];
	int ch_version;
	int rc = read_meta(ch, version, layout, sizeof version, &ch_version);
	if (rc < 0)
		return rc;
	if (rc == 0 || !*version)
		return ch_fail(ch, -spe_unsupported, "%s holds no%s spekit tables (spe-load --clickhouse=URL makes them)",
			       ch->name, rc ? " complete" : "");
	return check_meta(ch, version, layout, ch_version, 0);
}

void ch_free_list(char **list)
{
	if (!list)
		return;
	for (size_t i = 0; list[i]; i++)
		free(list[i]);
	free(list);
}
