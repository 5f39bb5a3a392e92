/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The ClickHouse schema (docs/scaling-out.md, "Table layout"): the tables of
 * docs/schema.md with ClickHouse types, where the rows live, and the views.
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
 * (mem_level_stat ... function_latency), 3 mapping.build_id_status.  A
 * database of an older version is read as it is, and refused for loading.
 */
#define SPE_CH_VERSION 3

static const struct ch_column source_cols[] = {
	{ "id", "Int64" },
	{ "file", "String" },
	{ "kind", "String" },
	{ "host", "Nullable(String)" },
	{ "command_line", "Nullable(String)" },
	{ "cpus", "Nullable(Int64)" },
	{ "loaded_at", "String" },
	/* the capture's identity (a reload is refused or replaces it; SQLite's source has it too), */
	{ "digest", "String" },
	/* ClickHouse only: the commit time */
	{ "committed_ns", "UInt64" },
};
static const struct ch_column cpu_cols[] = {
	{ "source_id", "Int64" }, { "cpu", "Int64" }, { "midr", "Nullable(Int64)" },
	{ "part", "Nullable(String)" }, { "spe_version", "Nullable(String)" },
};
static const struct ch_column thread_cols[] = {
	{ "source_id", "Int64" }, { "tid", "Int64" }, { "pid", "Nullable(Int64)" }, { "comm", "Nullable(String)" },
};
static const struct ch_column mapping_cols[] = {
	{ "id", "Int64" },     { "source_id", "Int64" },          { "pid", "Nullable(Int64)" },
	{ "path", "String" },  { "build_id", "Nullable(String)" }, { "start", "Int64" },
	{ "end", "Int64" },    { "pgoff", "Int64" },              { "time", "Nullable(Int64)" },
	{ "prot", "Nullable(Int64)" }, { "build_id_status", "Nullable(String)" },
};
static const struct ch_column symbol_cols[] = {
	{ "id", "Int64" },   { "source_id", "Int64" },        { "mapping_id", "Nullable(Int64)" },
	{ "name", "String" }, { "start", "Int64" },            { "size", "Nullable(Int64)" },
	{ "file", "Nullable(String)" }, { "line", "Nullable(Int64)" },
};
static const struct ch_column insn_cols[] = {
	{ "id", "Int64" },
	{ "source_id", "Int64" },
	{ "mapping_id", "Nullable(Int64)" },
	{ "pc", "Int64" },
	{ "symbol_id", "Nullable(Int64)" },
	{ "bytes", "Nullable(String)" },
	{ "mnemonic", "Nullable(String)" },
	{ "operands", "Nullable(String)" },
	{ "file", "Nullable(String)" },
	{ "line", "Nullable(Int64)" },
	{ "inline_function", "Nullable(String)" },
};
static const struct ch_column pc_latency_cols[] = {
	{ "source_id", "Int64" },        { "pc", "Nullable(Int64)" },           { "insn_id", "Nullable(Int64)" },
	{ "symbol_id", "Nullable(Int64)" }, { "total_latency", "Nullable(Int64)" }, { "samples", "Int64" },
};
static const struct ch_column load_stats_cols[] = {
	{ "source_id", "Int64" },     { "records", "Int64" },  { "bad_bytes", "Int64" },  { "skipped_bytes", "Int64" },
	{ "partial_records", "Int64" }, { "unknown_packets", "Int64" }, { "lost_aux", "Int64" }, { "no_mapping", "Int64" },
	{ "no_symbol", "Int64" },     { "no_time", "Int64" },  { "no_data_object", "Int64" },
	{ "cacheline_scan", "Int64" }, { "cut_offset", "Nullable(Int64)" }, { "cut_bytes", "Int64" },
	{ "cut", "Nullable(String)" },
};
static const struct ch_column data_object_cols[] = {
	{ "id", "Int64" },
	{ "source_id", "Int64" },
	{ "pid", "Nullable(Int64)" },
	{ "kind", "Int64" },
	{ "name", "String" },
	{ "mapping_id", "Nullable(Int64)" },
	{ "start", "Nullable(Int64)" },
	{ "size", "Nullable(Int64)" },
	{ "type", "Nullable(String)" },
	{ "file", "Nullable(String)" },
	{ "line", "Nullable(Int64)" },
};
static const struct ch_column numa_node_cols[] = {
	{ "source_id", "Int64" }, { "node", "Int64" }, { "cpus", "Nullable(String)" },
	{ "mem_total_kb", "Nullable(Int64)" }, { "mem_free_kb", "Nullable(Int64)" },
};
static const struct ch_column numa_cpu_cols[] = {
	{ "source_id", "Int64" }, { "cpu", "Int64" }, { "node", "Int64" },
};
static const struct ch_column numa_memory_cols[] = {
	{ "source_id", "Int64" }, { "node", "Int64" }, { "start", "Int64" }, { "end", "Int64" },
};
/* The summaries only the memory views read (data_page reads page_stat too, with its columns of schema 5). */
static const struct ch_column numa_stat_cols[] = {
	/* cpu Nullable as _spe_record's: the views join _cpu_context on it */
	{ "source_id", "Int64" },	       { "cpu", "Nullable(Int64)" },	 { "physical", "Int64" },
	{ "memory_node", "Nullable(Int64)" }, { "data_source", "Nullable(Int64)" }, { "loads", "Int64" },
	{ "timed", "Int64" },		       { "total_latency", "Nullable(Int64)" }, { "remote_access", "Nullable(Int64)" },
};
static const struct ch_column prefetch_stat_cols[] = {
	{ "source_id", "Int64" },	   { "pc", "Nullable(Int64)" },	      { "insn_id", "Nullable(Int64)" },
	{ "symbol_id", "Nullable(Int64)" }, { "data_object_id", "Nullable(Int64)" }, { "loads", "Int64" },
	{ "timed", "Int64" },		   { "total_latency", "Nullable(Int64)" }, { "late_prefetch", "Nullable(Int64)" },
	{ "late_latency", "Nullable(Int64)" }, { "recently_fetched", "Nullable(Int64)" },
};

/*
 * The summaries of each capture, as the SQLite sink stores them
 * (docs/schema.md, "Summaries"), plus two of ClickHouse's own for
 * hot_symbol (ch_summary.c): function_stat, one function's statistics in
 * one capture, and function_latency, its latency histogram there (read only
 * to merge a function's captures).
 */
static const struct ch_column mem_level_stat_cols[] = {
	{ "source_id", "Int64" }, { "mem_level", "Nullable(Int64)" }, { "loads", "Int64" },
	{ "timed", "Int64" },     { "total_latency", "Nullable(Int64)" },
};
static const struct ch_column latency_bucket_cols[] = {
	{ "source_id", "Int64" }, { "op_class", "Nullable(String)" }, { "latency_lo", "Int64" },
	{ "samples", "Int64" },   { "total_latency", "Int64" },
};
static const struct ch_column branch_stat_cols[] = {
	{ "source_id", "Int64" }, { "pc", "Nullable(Int64)" },	       { "insn_id", "Nullable(Int64)" },
	{ "branches", "Int64" },  { "mispredicted", "Nullable(Int64)" }, { "not_taken", "Nullable(Int64)" },
};
static const struct ch_column page_stat_cols[] = {
	{ "source_id", "Int64" }, { "pid", "Nullable(Int64)" },	     { "page", "Int64" },
	{ "accesses", "Int64" },  { "tlb_walks", "Nullable(Int64)" }, { "translated", "Int64" },
	{ "translation_latency", "Nullable(Int64)" }, { "timed", "Int64" }, { "total_latency", "Nullable(Int64)" },
	{ "data_object_ids", "Array(Int64)" },
};
static const struct ch_column cacheline_stat_cols[] = {
	{ "source_id", "Int64" },
	{ "pid", "Nullable(Int64)" },
	{ "line", "Int64" },
	{ "accesses", "Int64" },
	{ "loads", "Nullable(Int64)" },
	{ "stores", "Nullable(Int64)" },
	{ "cpus", "Int64" },
	{ "threads", "Int64" },
	{ "offsets", "Int64" },
	{ "snooped", "Nullable(Int64)" },
	{ "hitm", "Nullable(Int64)" },
	{ "peer_hits", "Nullable(Int64)" },
	{ "total_latency", "Nullable(Int64)" },
	{ "atomics", "Nullable(Int64)" },
	{ "writes", "Nullable(Int64)" },
	{ "modified_events", "Nullable(Int64)" },
	{ "modified_sources", "Nullable(Int64)" },
	{ "remote_hits", "Nullable(Int64)" },
	{ "symbol_ids", "Array(Int64)" },
	{ "data_object_ids", "Array(Int64)" },
};
/*
 * symbol_id: the function's smallest symbol id in the capture, NULL for the
 * records without a symbol, -M for those of them in a kernel map (M: the
 * capture's smallest id of a map of that path: ch_functions.c); name, path,
 * file, line: that symbol's (hot_symbol shows them), the kernel map's path.
 */
static const struct ch_column function_stat_cols[] = {
	{ "source_id", "Int64" },	  { "symbol_id", "Nullable(Int64)" }, { "name", "Nullable(String)" },
	{ "path", "Nullable(String)" }, { "file", "Nullable(String)" },	   { "line", "Nullable(Int64)" },
	{ "samples", "Int64" },	  { "total_latency", "Nullable(Int64)" }, { "timed", "Int64" },
	{ "p50", "Nullable(Int64)" },	  { "p90", "Nullable(Int64)" },	   { "p99", "Nullable(Int64)" },
};
static const struct ch_column function_latency_cols[] = {
	{ "source_id", "Int64" },
	{ "symbol_id", "Nullable(Int64)" },
	{ "total_latency", "Nullable(Int64)" },
	{ "samples", "Int64" },
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
static struct ch_column record_cols[RECORD_NCOLS];

#define COLS(a) a, (int)(sizeof a / sizeof a[0])

struct ch_table {
	const char *name;            /* the view users query; stored as "_" name */
	const struct ch_column *cols;
	int ncols;
	const char *order_by;
	const char *shown;           /* the view's columns when not all: the SQLite table's (source_id only where it has it) */
};

static struct ch_table tables[CHT_COUNT] = {
	/* a capture by id: the source view's argMax reads them all, they are few */
	[CHT_SOURCE] = { "source", COLS(source_cols), "id", "id, file, kind, host, command_line, cpus, loaded_at, digest" },
	[CHT_CPU] = { "cpu", COLS(cpu_cols), "(source_id, cpu)", NULL },
	[CHT_THREAD] = { "thread", COLS(thread_cols), "(source_id, tid)", NULL },
	/* the dimension tables: joined by id, which starts with the capture's key */
	[CHT_MAPPING] = { "mapping", COLS(mapping_cols), "(source_id, id)", NULL },
	[CHT_SYMBOL] = { "symbol", COLS(symbol_cols), "(source_id, id)", "id, mapping_id, name, start, size, file, line" },
	[CHT_INSN] = { "insn", COLS(insn_cols), "(source_id, id)",
		       "id, mapping_id, pc, symbol_id, lower(hex(bytes)) AS bytes, mnemonic, operands, file, line, "
		       "inline_function" },
	/* hot_pc and hot_symbol group it by PC */
	[CHT_PC_LATENCY] = { "pc_latency", COLS(pc_latency_cols), "(source_id, assumeNotNull(pc))", NULL },
	[CHT_LOAD_STATS] = { "load_stats", COLS(load_stats_cols), "source_id", NULL },
	[CHT_DATA_OBJECT] = { "data_object", COLS(data_object_cols), "(source_id, id)", NULL },
	[CHT_NUMA_NODE] = { "numa_node", COLS(numa_node_cols), "(source_id, node)", NULL },
	[CHT_NUMA_CPU] = { "numa_cpu", COLS(numa_cpu_cols), "(source_id, cpu)", NULL },
	[CHT_NUMA_MEMORY] = { "numa_memory", COLS(numa_memory_cols), "(source_id, start)", NULL },
	/* the summaries: few rows a capture, read whole or by capture */
	[CHT_MEM_LEVEL_STAT] = { "mem_level_stat", COLS(mem_level_stat_cols), "source_id", NULL },
	[CHT_LATENCY_BUCKET] = { "latency_bucket", COLS(latency_bucket_cols), "(source_id, latency_lo)", NULL },
	[CHT_BRANCH_STAT] = { "branch_stat", COLS(branch_stat_cols), "(source_id, assumeNotNull(pc))", NULL },
	[CHT_PAGE_STAT] = { "page_stat", COLS(page_stat_cols), "(source_id, page)", NULL },
	[CHT_CACHELINE_STAT] = { "cacheline_stat", COLS(cacheline_stat_cols), "(source_id, line)", NULL },
	[CHT_FUNCTION_STAT] = { "function_stat", COLS(function_stat_cols), "(source_id, assumeNotNull(symbol_id))", NULL },
	[CHT_FUNCTION_LATENCY] = { "function_latency", COLS(function_latency_cols), "(source_id, assumeNotNull(symbol_id))", NULL },
	[CHT_NUMA_STAT] = { "numa_stat", COLS(numa_stat_cols), "source_id", NULL },
	[CHT_PREFETCH_STAT] = { "prefetch_stat", COLS(prefetch_stat_cols), "(source_id, assumeNotNull(pc))", NULL },
	/*
	 * The records by capture then PC: the PC column sorted compresses to
	 * little, and the views that group by PC (branch_mispredict, prefetch)
	 * or read one function's PC range find them together.
	 */
	[CHT_RECORD] = { "spe_record", record_cols, RECORD_NCOLS, "(source_id, assumeNotNull(pc))", NULL },
};

static void record_columns(void)
{
	if (record_cols[0].name)
		return;
	for (int c = RECORD_NCOLS - 1; c >= 0; c--) { /* [0] last: it says the list is filled */
		const char *n = record_names[c];
		const char *type = !strcmp(n, "id") || !strcmp(n, "source_id") ? "Int64"
				   : !strcmp(n, "op_class") || !strcmp(n, "op") || !strcmp(n, "mem_level") ? "Nullable(String)"
				   : "Nullable(Int64)";
		record_cols[c] = (struct ch_column){ n, type };
	}
}

const struct ch_column *ch_table_columns(enum ch_table_id t, int *n)
{
	record_columns();
	*n = tables[t].ncols;
	return tables[t].cols;
}

const char *ch_table_name(enum ch_table_id t)
{
	static char names[CHT_COUNT][32];
	if (!names[t][0])
		snprintf(names[t], sizeof names[t], "_%s", tables[t].name);
	return names[t];
}

const char *ch_insert_sql(enum ch_table_id t)
{
	static char *sql[CHT_COUNT];
	if (sql[t])
		return sql[t];
	int n;
	const struct ch_column *cols = ch_table_columns(t, &n);
	struct util_text s = { 0 };
	util_text_appendf(&s, "INSERT INTO %s(", ch_table_name(t));
	for (int c = 0; c < n; c++)
		util_text_appendf(&s, "%s\"%s\"", c ? ", " : "", cols[c].name);
	util_text_append(&s, ") FORMAT RowBinary");
	if (!util_text_ok(&s)) {
		util_text_free(&s);
		return NULL;
	}
	return sql[t] = s.buf;
}

/* ---- DDL ------------------------------------------------------------------ */

/* The facts tables (docs/schema.md, Memory): not per capture, the same on every server. */
static const char *const facts_sql[] = {
	"CREATE TABLE IF NOT EXISTS spe_part_fact(part String, spe_version Nullable(String),"
	" coherence_events Nullable(Int64), late_prefetch_bit Nullable(Int64)) ENGINE = MergeTree ORDER BY part",
	"CREATE TABLE IF NOT EXISTS spe_data_source_fact(part String, code Int64, mem_level String, peer Int64,"
	" modified Int64, remote Int64) ENGINE = MergeTree ORDER BY (part, code)",
	"CREATE TABLE IF NOT EXISTS data_object_kind(id Int64, name String, description Nullable(String))"
	" ENGINE = MergeTree ORDER BY id",
	"CREATE TABLE IF NOT EXISTS meta(key String, value String) ENGINE = MergeTree ORDER BY key",
	NULL
};

static void append_columns(struct util_text *s, enum ch_table_id t)
{
	int n;
	const struct ch_column *cols = ch_table_columns(t, &n);
	util_text_append(s, "(");
	for (int c = 0; c < n; c++)
		util_text_appendf(s, "%s\"%s\" %s", c ? ", " : "", cols[c].name, cols[c].type);
	util_text_append(s, ")");
}

/* The storage of table @p t on one server: MergeTree (one server), or a shard's MergeTree and the Distributed table. */
static int create_storage(struct spe_ch *ch, enum ch_table_id t)
{
	struct util_text s = { 0 };
	const char *key_col = t == CHT_SOURCE ? "id" : "source_id";
	util_text_appendf(&s, "CREATE TABLE IF NOT EXISTS %s%s", ch_table_name(t), ch->cluster ? "_shard" : "");
	append_columns(&s, t);
	util_text_appendf(&s, " ENGINE = MergeTree ORDER BY %s", tables[t].order_by);
	if (!util_text_ok(&s)) {
		util_text_free(&s);
		return ch_fail(ch, -spe_nomem, "out of memory");
	}
	int rc = ch_exec(ch, s.buf);
	util_text_free(&s);
	if (rc == 0 && ch->cluster) {
		s = (struct util_text){ 0 };
		util_text_appendf(&s, "CREATE TABLE IF NOT EXISTS %s AS %s_shard ENGINE = Distributed(%s, %s, %s_shard, intHash64(%s))",
			    ch_table_name(t), ch_table_name(t), ch->cluster, ch->database, ch_table_name(t), key_col);
		rc = util_text_ok(&s) ? ch_exec(ch, s.buf) : ch_fail(ch, -spe_nomem, "out of memory");
		util_text_free(&s);
	}
	return rc;
}

void ch_table_view_sql(struct util_text *s, enum ch_table_id t, const char *set)
{
	util_text_append(s, "SELECT ");
	if (tables[t].shown) {
		util_text_append(s, tables[t].shown);
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
		if (t != CHT_RECORD && !strcmp(tables[t].name, name))
			return t;
	return -1;
}

/* The view of table @p t: its committed captures' rows. */
static int create_table_view(struct spe_ch *ch, enum ch_table_id t)
{
	if (t == CHT_RECORD)
		return 0; /* spe_record is one of the views of ch_views.c (its event columns) */
	struct util_text s = { 0 };
	util_text_appendf(&s, "CREATE VIEW IF NOT EXISTS %s AS ", tables[t].name);
	ch_table_view_sql(&s, t, NULL);
	if (!util_text_ok(&s)) {
		util_text_free(&s);
		return ch_fail(ch, -spe_nomem, "out of memory");
	}
	int rc = ch_exec(ch, s.buf);
	util_text_free(&s);
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
	util_text_free(&t);
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
		rc = create_storage(ch, (enum ch_table_id)t);
	for (int i = 0; facts_sql[i] && rc == 0; i++)
		rc = ch_exec(ch, facts_sql[i]);
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
	if (atoi(version) != SPE_DB_SCHEMA_VERSION)
		return ch_fail(ch, -spe_unsupported,
			       "%s holds schema version %s; this spekit reads and writes version %d: load into another "
			       "database (?database=NAME)",
			       ch->name, version, SPE_DB_SCHEMA_VERSION);
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
