/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SQLite row sink (spe/row_sink.h): typed rows into the tables of
 * docs/schema.md, inside the transaction spe_db keeps open for the load.
 * Statements are prepared on first use.  Records go RECORD_BATCH rows per
 * INSERT statement: SQLite's per-statement cost (cursor open/close,
 * transaction checks) then counts once per batch instead of once per row.
 */
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "db_internal.h"
#include "number_text.h"
#include "rollup_feed.h"
#include "util/text.h"
#include "spe/analysis.h"
#include "spe/row_sink.h"

#define RECORD_BATCH 32

enum statement {
	ST_SOURCE,
	ST_CPU,
	ST_THREAD,
	ST_MAPPING,
	ST_SYMBOL,
	ST_INSN,
	ST_PC_LATENCY,
	ST_LOAD_STATS,
	ST_DATA_OBJECT,
	ST_NUMA_NODE,
	ST_NUMA_CPU,
	ST_NUMA_MEMORY,
	ST_TIME_CONV,
	ST_MEM_LEVEL_STAT,
	ST_LATENCY_BUCKET,
	ST_BRANCH_STAT,
	ST_PAGE_STAT,
	ST_CACHELINE_STAT,
	ST_NUMA_STAT,
	ST_PREFETCH_STAT,
	ST_RECORD,       /* generated from spe_record_columns */
	ST_RECORD_BATCH, /* the same, RECORD_BATCH rows at a time */
	N_STATEMENTS
};

static const char *const statement_sql[ST_RECORD] = {
	[ST_SOURCE] = "INSERT INTO source(id, file, kind, host, command_line, cpus, loaded_at, digest)"
		      " VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
	[ST_CPU] = "INSERT INTO cpu(source_id, cpu, midr, part, spe_version) VALUES(?, ?, ?, ?, ?)",
	[ST_THREAD] = "INSERT OR REPLACE INTO thread(source_id, tid, pid, comm) VALUES(?, ?, ?, ?)",
	[ST_MAPPING] = "INSERT INTO mapping(id, source_id, pid, path, build_id, start, end, pgoff, time, prot,"
		       " build_id_status) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[ST_SYMBOL] = "INSERT INTO symbol(id, mapping_id, name, start, size, file, line) VALUES(?, ?, ?, ?, ?, ?, ?)",
	[ST_INSN] = "INSERT INTO insn(id, mapping_id, pc, symbol_id, bytes, mnemonic, operands, file, line,"
		    " inline_function) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[ST_PC_LATENCY] = "INSERT INTO pc_histogram(source_id, pc, insn_id, symbol_id, untimed, histogram)"
			  " VALUES(?, ?, ?, ?, ?, ?)",
	[ST_LOAD_STATS] = "INSERT INTO load_stats(source_id, records, bad_bytes, skipped_bytes, partial_records,"
			  " unknown_packets, lost_aux, no_mapping, no_symbol, no_time, no_data_object, cacheline_scan,"
			  " cut_offset, cut_bytes, cut) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[ST_DATA_OBJECT] = "INSERT INTO data_object(id, source_id, pid, kind, name, mapping_id, start, size, type, file,"
			   " line) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[ST_NUMA_NODE] = "INSERT OR REPLACE INTO numa_node(source_id, node, cpus, mem_total_kb, mem_free_kb)"
			 " VALUES(?, ?, ?, ?, ?)",
	[ST_NUMA_CPU] = "INSERT OR REPLACE INTO numa_cpu(source_id, cpu, node) VALUES(?, ?, ?)",
	[ST_NUMA_MEMORY] = "INSERT INTO numa_memory(source_id, node, start, end) VALUES(?, ?, ?, ?)",
	[ST_TIME_CONV] = "INSERT OR REPLACE INTO time_conv(source_id, time_shift, time_mult, time_zero, time_cycles,"
			 " time_mask, cap_user_time_short) VALUES(?, ?, ?, ?, ?, ?, ?)",
	[ST_MEM_LEVEL_STAT] = "INSERT INTO mem_level_stat(source_id, mem_level, loads, timed, total_latency)"
			      " VALUES(?, ?, ?, ?, ?)",
	[ST_LATENCY_BUCKET] = "INSERT INTO latency_bucket(source_id, op_class, latency_lo, samples, total_latency)"
			      " VALUES(?, ?, ?, ?, ?)",
	[ST_BRANCH_STAT] = "INSERT INTO branch_stat(source_id, pc, insn_id, branches, mispredicted, not_taken)"
			   " VALUES(?, ?, ?, ?, ?, ?)",
	[ST_PAGE_STAT] = "INSERT INTO page_stat(source_id, pid, page, accesses, tlb_walks, translated,"
			 " translation_latency, timed, total_latency, data_object_ids) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[ST_NUMA_STAT] = "INSERT INTO numa_stat(source_id, cpu, physical, memory_node, data_source, loads, timed,"
			 " total_latency, remote_access) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[ST_PREFETCH_STAT] = "INSERT INTO prefetch_stat(source_id, pc, insn_id, symbol_id, data_object_id, loads, timed,"
			     " total_latency, late_prefetch, late_latency, recently_fetched)"
			     " VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[ST_CACHELINE_STAT] = "INSERT INTO cacheline_stat(source_id, pid, line, accesses, loads, stores, cpus, threads,"
			      " offsets, snooped, hitm, peer_hits, total_latency, atomics, writes, modified_events,"
			      " modified_sources, remote_hits, symbol_ids, data_object_ids)"
			      " VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
};

static const char *const statement_name[N_STATEMENTS] = {
	"source",      "cpu",       "thread",   "mapping",     "symbol",  "insn",    "pc_latency",
	"load_stats",  "data_object", "numa_node", "numa_cpu", "numa_memory", "time_conv", "mem_level_stat", "latency_bucket", "branch_stat",
	"page_stat",   "cacheline_stat", "numa_stat", "prefetch_stat", "records",   "records",
};

struct sqlite_sink {
	sqlite3 *sql;
	int replace;     /* spe_db_set_replace: a file already loaded replaces its source */
	struct rollup_feed *feed; /* the pc_histogram rows for the rollup, on a new database (else NULL) */
	sqlite3_stmt *st[N_STATEMENTS];
	char *text;      /* a pc_histogram row's JSON, reused */
	size_t text_cap;
	/*
	 * What ST_RECORD_BATCH's parameters hold, row by row (all NULL when it
	 * is new).  sqlite3_reset keeps the bindings, so a value equal to the
	 * one already there is not bound again: most columns repeat from row
	 * to row (source, CPU, thread, NULLs), and binding was a tenth of the
	 * inserts' time.
	 */
	struct spe_row_record batch_bound[RECORD_BATCH];
	char err[512];
};

static int fail(struct sqlite_sink *s, const char *what)
{
	char why[400];
	snprintf(s->err, sizeof s->err, "%s: %s", what, spe_sqlite_why(s->sql, NULL, why, sizeof why));
	return -spe_io;
}

/* "INSERT INTO _spe_record(columns) VALUES(?, ...)" with @p rows value tuples. */
static char *record_insert_sql(int rows)
{
	struct util_text t = { 0 };
	util_text_append(&t, "INSERT INTO _spe_record(");
	for (int c = 0; c < SPE_RECORD_NCOLS; c++)
		util_text_appendf(&t, "%s%s", c ? ", " : "", spe_record_columns[c].name);
	util_text_append(&t, ") VALUES");
	for (int r = 0; r < rows; r++) {
		util_text_append(&t, r ? ",(" : "(");
		for (int c = 0; c < SPE_RECORD_NCOLS; c++)
			util_text_append(&t, c ? ",?" : "?");
		util_text_append(&t, ")");
	}
	if (!util_text_ok(&t)) {
		util_text_free(&t);
		return NULL;
	}
	return t.buf;
}

/* Statement @p which, prepared on first use; NULL with the message set. */
static sqlite3_stmt *statement(struct sqlite_sink *s, enum statement which)
{
	if (s->st[which])
		return s->st[which];
	char *generated = NULL;
	const char *sql = which < ST_RECORD ? statement_sql[which]
					    : (generated = record_insert_sql(which == ST_RECORD ? 1 : RECORD_BATCH));
	if (!sql) {
		snprintf(s->err, sizeof s->err, "out of memory");
		return NULL;
	}
	if (sqlite3_prepare_v2(s->sql, sql, -1, &s->st[which], NULL) != SQLITE_OK)
		fail(s, statement_name[which]);
	free(generated);
	return s->st[which];
}

/* Step a bound statement and make it ready for the next row. */
static int step(struct sqlite_sink *s, sqlite3_stmt *st, enum statement which)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : fail(s, statement_name[which]);
}

static void bind_text(sqlite3_stmt *st, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC); /* rows live through the call */
}

static void bind_int(sqlite3_stmt *st, int i, int is_set, int64_t v)
{
	if (is_set)
		sqlite3_bind_int64(st, i, v);
}

/* ---- the operations -------------------------------------------------------- */

/* The next id of a table: one past the largest, as INTEGER PRIMARY KEY would give. */
static int next_id(struct sqlite_sink *s, const char *table, int64_t *id)
{
	char q[96];
	snprintf(q, sizeof q, "SELECT coalesce(max(id), 0) + 1 FROM %s", table);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->sql, q, -1, &st, NULL) != SQLITE_OK)
		return fail(s, table);
	int rc = sqlite3_step(st) == SQLITE_ROW ? 0 : fail(s, table);
	*id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc;
}

static int sink_begin(void *ctx, struct spe_row_ids *next)
{
	struct sqlite_sink *s = ctx;
	int rc = next_id(s, "source", &next->source);
	if (rc == 0)
		rc = next_id(s, "mapping", &next->mapping);
	if (rc == 0)
		rc = next_id(s, "symbol", &next->symbol);
	if (rc == 0)
		rc = next_id(s, "insn", &next->insn);
	if (rc == 0)
		rc = next_id(s, "data_object", &next->data_object);
	return rc;
}

/*
 * One operation per table: prepare, then bind and step each row.  BIND_ROWS
 * holds the loop every table shares; the rest is the bindings of row r
 * (statement st).
 */
#define BIND_ROWS(s, which, rows, n, ...)                             \
	do {                                                          \
		sqlite3_stmt *st = statement(s, which);               \
		if (!st)                                              \
			return -spe_io;                               \
		for (size_t k = 0; k < (n); k++) {                    \
			const __typeof__(*(rows)) *r = &(rows)[k];    \
			__VA_ARGS__                                   \
			int rc_ = step(s, st, which);                 \
			if (rc_ < 0)                                  \
				return rc_;                           \
		}                                                     \
		return 0;                                             \
	} while (0)

/*
 * Every row of source @p id: the tables with a source_id column (whichever
 * the schema has, so tables added later go too), the symbols and
 * instructions of its mappings, then the source.  The summaries over all
 * sources (pc_summary, symbol_summary) are refilled at the end of the load.
 */
static int delete_source(struct sqlite_sink *s, int64_t id)
{
	if (s->feed) /* its pc_histogram rows go: the rollup reads what stays */
		ana_rollup_feed_lose(s->feed);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->sql,
			       "SELECT m.name FROM sqlite_schema m JOIN pragma_table_info(m.name) c"
			       " WHERE m.type = 'table' AND c.name = 'source_id' ORDER BY m.name",
			       -1, &st, NULL) != SQLITE_OK)
		return fail(s, "source");
	struct util_text t = { 0 };
	util_text_appendf(&t,
			  "DELETE FROM insn WHERE mapping_id IN (SELECT id FROM mapping WHERE source_id = %lld);\n"
			  "DELETE FROM symbol WHERE mapping_id IN (SELECT id FROM mapping WHERE source_id = %lld);\n",
			  (long long)id, (long long)id);
	while (sqlite3_step(st) == SQLITE_ROW)
		util_text_appendf(&t, "DELETE FROM \"%s\" WHERE source_id = %lld;\n", sqlite3_column_text(st, 0),
				  (long long)id);
	sqlite3_finalize(st);
	util_text_appendf(&t, "DELETE FROM source WHERE id = %lld;\n", (long long)id);
	int rc = util_text_ok(&t) ? spe_db_exec(s->sql, t.buf, s->err, sizeof s->err) : -spe_nomem;
	if (rc == -spe_nomem)
		snprintf(s->err, sizeof s->err, "out of memory");
	util_text_free(&t);
	return rc;
}

/*
 * A file already in the database (the same digest: size and hash) would
 * count its records twice: refused, naming the earlier source, or (replace)
 * that source is deleted first.  Within the load's transaction, so a
 * failure afterwards leaves the earlier source in place.
 */
static int check_loaded(struct sqlite_sink *s, const struct spe_row_source *r)
{
	if (!r->digest)
		return 0;
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->sql, "SELECT id, file, loaded_at FROM source WHERE digest = ? ORDER BY id", -1, &st,
			       NULL) != SQLITE_OK)
		return fail(s, "source");
	sqlite3_bind_text(st, 1, r->digest, -1, SQLITE_STATIC);
	int64_t *ids = NULL;
	size_t n = 0;
	int rc = 0;
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		if (!s->replace) {
			snprintf(s->err, sizeof s->err,
				 "%s is already loaded as source %lld (file %s, loaded %s; the same size and content); "
				 "--replace loads it again in its place",
				 r->file, (long long)id, (const char *)sqlite3_column_text(st, 1),
				 (const char *)sqlite3_column_text(st, 2));
			rc = -spe_bad_file;
			break;
		}
		int64_t *grown = realloc(ids, (n + 1) * sizeof *ids); /* deleted once the query is done */
		if (!grown) {
			snprintf(s->err, sizeof s->err, "out of memory");
			rc = -spe_nomem;
			break;
		}
		ids = grown;
		ids[n++] = id;
	}
	sqlite3_finalize(st);
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = delete_source(s, ids[i]);
	free(ids);
	return rc;
}

static int sink_sources(void *ctx, const struct spe_row_source *rows, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		int rc = check_loaded(ctx, &rows[k]);
		if (rc < 0)
			return rc;
	}
	BIND_ROWS(ctx, ST_SOURCE, rows, n, {
		sqlite3_bind_int64(st, 1, r->id);
		bind_text(st, 2, r->file);
		bind_text(st, 3, r->kind);
		bind_text(st, 4, r->host);
		bind_text(st, 5, r->command_line);
		bind_int(st, 6, r->cpus >= 0, r->cpus);
		bind_text(st, 7, r->loaded_at);
		bind_text(st, 8, r->digest);
	});
}

static int sink_cpus(void *ctx, const struct spe_row_cpu *rows, size_t n)
{
	BIND_ROWS(ctx, ST_CPU, rows, n, {
		sqlite3_bind_int64(st, 1, r->source_id);
		sqlite3_bind_int(st, 2, r->cpu);
		bind_int(st, 3, r->midr != 0, r->midr);
		bind_text(st, 4, r->part);
		bind_text(st, 5, r->spe_version);
	});
}

static int sink_threads(void *ctx, const struct spe_row_thread *rows, size_t n)
{
	BIND_ROWS(ctx, ST_THREAD, rows, n, {
		sqlite3_bind_int64(st, 1, r->source_id);
		sqlite3_bind_int(st, 2, r->tid);
		bind_int(st, 3, r->pid >= 0, r->pid);
		bind_text(st, 4, r->comm);
	});
}

static int sink_mappings(void *ctx, const struct spe_row_mapping *rows, size_t n)
{
	BIND_ROWS(ctx, ST_MAPPING, rows, n, {
		sqlite3_bind_int64(st, 1, r->id);
		sqlite3_bind_int64(st, 2, r->source_id);
		bind_int(st, 3, r->pid >= 0, r->pid);
		bind_text(st, 4, r->path);
		bind_text(st, 5, r->build_id);
		sqlite3_bind_int64(st, 6, (int64_t)r->start);
		sqlite3_bind_int64(st, 7, (int64_t)r->end);
		sqlite3_bind_int64(st, 8, (int64_t)r->pgoff);
		bind_int(st, 9, r->time != SPE_ROW_NO_TIME, (int64_t)r->time);
		bind_int(st, 10, r->prot >= 0, r->prot);
		bind_text(st, 11, r->build_id_status);
	});
}

static int sink_data_objects(void *ctx, const struct spe_row_data_object *rows, size_t n)
{
	BIND_ROWS(ctx, ST_DATA_OBJECT, rows, n, {
		sqlite3_bind_int64(st, 1, r->id);
		sqlite3_bind_int64(st, 2, r->source_id);
		bind_int(st, 3, r->pid >= 0, r->pid);
		sqlite3_bind_int(st, 4, r->kind);
		bind_text(st, 5, r->name);
		bind_int(st, 6, r->mapping_id != 0, r->mapping_id);
		sqlite3_bind_int64(st, 7, (int64_t)r->start);
		bind_int(st, 8, r->size != 0, (int64_t)r->size);
		bind_text(st, 9, r->type);
		bind_text(st, 10, r->file);
		bind_int(st, 11, r->line != 0, r->line);
	});
}

static int sink_numa_nodes(void *ctx, const struct spe_row_numa_node *rows, size_t n)
{
	BIND_ROWS(ctx, ST_NUMA_NODE, rows, n, {
		sqlite3_bind_int64(st, 1, r->source_id);
		sqlite3_bind_int64(st, 2, r->node);
		bind_text(st, 3, r->cpus);
		bind_int(st, 4, r->mem_total_kb != 0, (int64_t)r->mem_total_kb);
		bind_int(st, 5, r->mem_free_kb != 0, (int64_t)r->mem_free_kb);
	});
}

static int sink_numa_cpus(void *ctx, const struct spe_row_numa_cpu *rows, size_t n)
{
	BIND_ROWS(ctx, ST_NUMA_CPU, rows, n, {
		sqlite3_bind_int64(st, 1, r->source_id);
		sqlite3_bind_int64(st, 2, r->cpu);
		sqlite3_bind_int64(st, 3, r->node);
	});
}

static int sink_numa_memory(void *ctx, const struct spe_row_numa_memory *rows, size_t n)
{
	BIND_ROWS(ctx, ST_NUMA_MEMORY, rows, n, {
		sqlite3_bind_int64(st, 1, r->source_id);
		sqlite3_bind_int64(st, 2, r->node);
		sqlite3_bind_int64(st, 3, (int64_t)r->start);
		sqlite3_bind_int64(st, 4, (int64_t)r->end);
	});
}

static int sink_symbols(void *ctx, const struct spe_row_symbol *rows, size_t n)
{
	BIND_ROWS(ctx, ST_SYMBOL, rows, n, {
		sqlite3_bind_int64(st, 1, r->id);
		bind_int(st, 2, r->mapping_id != 0, r->mapping_id);
		bind_text(st, 3, r->name);
		sqlite3_bind_int64(st, 4, (int64_t)r->start);
		bind_int(st, 5, r->size != 0, (int64_t)r->size);
		bind_text(st, 6, r->file);
		bind_int(st, 7, r->line != 0, r->line);
	});
}

static int sink_insns(void *ctx, const struct spe_row_insn *rows, size_t n)
{
	BIND_ROWS(ctx, ST_INSN, rows, n, {
		sqlite3_bind_int64(st, 1, r->id);
		bind_int(st, 2, r->mapping_id != 0, r->mapping_id);
		sqlite3_bind_int64(st, 3, (int64_t)r->pc);
		bind_int(st, 4, r->symbol_id != 0, r->symbol_id);
		if (r->bytes)
			sqlite3_bind_blob(st, 5, r->bytes, (int)r->n_bytes, SQLITE_STATIC);
		bind_text(st, 6, r->mnemonic);
		bind_text(st, 7, r->operands);
		bind_text(st, 8, r->file);
		bind_int(st, 9, r->line != 0, r->line);
		bind_text(st, 10, r->inline_function);
	});
}

/* A histogram as pc_histogram stores it: the JSON object {"latency":samples,...}. */
static const char *histogram_json(struct sqlite_sink *s, const struct spe_row_pc_latency *r)
{
	size_t need = 3 + r->n * 30; /* ,"65535":18446744073709551615 and the NUL the last number writes */
	if (need > s->text_cap) {
		char *t = realloc(s->text, need);
		if (!t)
			return NULL;
		s->text = t;
		s->text_cap = need;
	}
	char *p = s->text;
	*p++ = '{';
	/* not sprintf: a 10 M-record gen_bench load writes 3.2 M pairs, each a format string parsed again */
	for (size_t i = 0; i < r->n; i++) {
		if (i)
			*p++ = ',';
		*p++ = '"';
		p += ana_int64_text(p, r->latency[i]);
		*p++ = '"';
		*p++ = ':';
		p += ana_uint64_text(p, r->samples[i]);
	}
	*p++ = '}';
	*p = 0;
	return s->text;
}

static int sink_pc_latency(void *ctx, const struct spe_row_pc_latency *rows, size_t n)
{
	struct sqlite_sink *s = ctx;
	sqlite3_stmt *st = statement(s, ST_PC_LATENCY);
	if (!st)
		return -spe_io;
	for (size_t k = 0; k < n; k++) {
		const struct spe_row_pc_latency *r = &rows[k];
		if (!histogram_json(s, r)) {
			snprintf(s->err, sizeof s->err, "out of memory");
			return -spe_nomem;
		}
		sqlite3_bind_int64(st, 1, r->source_id);
		bind_int(st, 2, r->has_pc, (int64_t)r->pc);
		bind_int(st, 3, r->insn_id != 0, r->insn_id);
		bind_int(st, 4, r->symbol_id != 0, r->symbol_id);
		sqlite3_bind_int64(st, 5, (int64_t)r->untimed);
		sqlite3_bind_text(st, 6, s->text, -1, SQLITE_STATIC);
		int rc = step(s, st, ST_PC_LATENCY);
		if (rc < 0)
			return rc;
		if (s->feed)
			ana_rollup_feed_add(s->feed, r);
	}
	return 0;
}

static int sink_load_stats(void *ctx, const struct spe_row_load_stats *rows, size_t n)
{
	BIND_ROWS(ctx, ST_LOAD_STATS, rows, n, {
		const uint64_t v[] = { r->records,  r->bad_bytes,  r->skipped_bytes, r->partial_records, r->unknown_packets,
				       r->lost_aux, r->no_mapping, r->no_symbol,     r->no_time,         r->no_data_object };
		sqlite3_bind_int64(st, 1, r->source_id);
		for (int i = 0; i < (int)(sizeof v / sizeof *v); i++)
			sqlite3_bind_int64(st, i + 2, (int64_t)v[i]);
		sqlite3_bind_int(st, 12, r->cacheline_scan);
		bind_int(st, 13, r->cut, (int64_t)r->cut_offset);
		sqlite3_bind_int64(st, 14, (int64_t)r->cut_bytes);
		bind_text(st, 15, r->cut ? r->cut_what : NULL);
	});
}

static int sink_time_convs(void *ctx, const struct spe_row_time_conv *rows, size_t n)
{
	BIND_ROWS(ctx, ST_TIME_CONV, rows, n, {
		sqlite3_bind_int64(st, 1, r->source_id);
		sqlite3_bind_int64(st, 2, (int64_t)r->time_shift);
		sqlite3_bind_int64(st, 3, (int64_t)r->time_mult);
		sqlite3_bind_int64(st, 4, (int64_t)r->time_zero);
		sqlite3_bind_int64(st, 5, (int64_t)r->time_cycles);
		sqlite3_bind_int64(st, 6, (int64_t)r->time_mask);
		sqlite3_bind_int(st, 7, r->cap_user_time_short);
	});
}

static int sink_mem_level_stats(void *ctx, const struct spe_row_mem_level_stat *rows, size_t n)
{
	BIND_ROWS(ctx, ST_MEM_LEVEL_STAT, rows, n, {
		sqlite3_bind_int64(st, 1, r->source_id);
		bind_int(st, 2, r->mem_level != 0, r->mem_level);
		sqlite3_bind_int64(st, 3, (int64_t)r->loads);
		sqlite3_bind_int64(st, 4, (int64_t)r->timed);
		bind_int(st, 5, r->timed != 0, (int64_t)r->total_latency);
	});
}

static int sink_latency_buckets(void *ctx, const struct spe_row_latency_bucket *rows, size_t n)
{
	BIND_ROWS(ctx, ST_LATENCY_BUCKET, rows, n, {
		sqlite3_bind_int64(st, 1, r->source_id);
		bind_text(st, 2, r->op_class);
		sqlite3_bind_int64(st, 3, r->latency_lo);
		sqlite3_bind_int64(st, 4, (int64_t)r->samples);
		sqlite3_bind_int64(st, 5, (int64_t)r->total_latency);
	});
}

static int sink_branch_stats(void *ctx, const struct spe_row_branch_stat *rows, size_t n)
{
	BIND_ROWS(ctx, ST_BRANCH_STAT, rows, n, {
		sqlite3_bind_int64(st, 1, r->source_id);
		bind_int(st, 2, r->has_pc, (int64_t)r->pc);
		bind_int(st, 3, r->insn_id != 0, r->insn_id);
		sqlite3_bind_int64(st, 4, (int64_t)r->branches);
		bind_int(st, 5, r->has_events, (int64_t)r->mispredicted);
		bind_int(st, 6, r->has_events, (int64_t)r->not_taken);
	});
}

/* Bind @p n ids as a JSON array ("[3,5]"; NULL when none) to parameter @p i. */
static int bind_id_list(sqlite3_stmt *st, int i, const int64_t *ids, size_t n)
{
	if (!n)
		return sqlite3_bind_null(st, i) == SQLITE_OK ? 0 : -1;
	char *text = malloc(n * 21 + 3), *p = text;
	if (!text)
		return -1;
	for (size_t k = 0; k < n; k++)
		p += sprintf(p, "%c%lld", k ? ',' : '[', (long long)ids[k]);
	strcpy(p, "]");
	return sqlite3_bind_text(st, i, text, -1, free) == SQLITE_OK ? 0 : -1;
}

static int sink_page_stats(void *ctx, const struct spe_row_page_stat *rows, size_t n)
{
	BIND_ROWS(ctx, ST_PAGE_STAT, rows, n, {
		sqlite3_bind_int64(st, 1, r->source_id);
		bind_int(st, 2, r->pid >= 0, r->pid);
		sqlite3_bind_int64(st, 3, (int64_t)r->page);
		sqlite3_bind_int64(st, 4, (int64_t)r->accesses);
		bind_int(st, 5, r->has_events, (int64_t)r->tlb_walks);
		sqlite3_bind_int64(st, 6, (int64_t)r->translated);
		bind_int(st, 7, r->translated != 0, (int64_t)r->translation_latency);
		sqlite3_bind_int64(st, 8, (int64_t)r->timed);
		bind_int(st, 9, r->timed != 0, (int64_t)r->total_latency);
		if (bind_id_list(st, 10, r->data_object_ids, r->n_data_objects) < 0) {
			snprintf(((struct sqlite_sink *)ctx)->err, sizeof ((struct sqlite_sink *)ctx)->err, "out of memory");
			return -spe_nomem;
		}
	});
}

static int sink_numa_stats(void *ctx, const struct spe_row_numa_stat *rows, size_t n)
{
	BIND_ROWS(ctx, ST_NUMA_STAT, rows, n, {
		sqlite3_bind_int64(st, 1, r->source_id);
		sqlite3_bind_int64(st, 2, r->cpu);
		sqlite3_bind_int(st, 3, r->physical);
		bind_int(st, 4, r->memory_node >= 0, r->memory_node);
		bind_int(st, 5, r->has_data_source, (int64_t)r->data_source);
		sqlite3_bind_int64(st, 6, (int64_t)r->loads);
		sqlite3_bind_int64(st, 7, (int64_t)r->timed);
		bind_int(st, 8, r->timed != 0, (int64_t)r->total_latency);
		bind_int(st, 9, r->has_events, (int64_t)r->remote_access);
	});
}

static int sink_prefetch_stats(void *ctx, const struct spe_row_prefetch_stat *rows, size_t n)
{
	BIND_ROWS(ctx, ST_PREFETCH_STAT, rows, n, {
		sqlite3_bind_int64(st, 1, r->source_id);
		bind_int(st, 2, r->has_pc, (int64_t)r->pc);
		bind_int(st, 3, r->insn_id != 0, r->insn_id);
		bind_int(st, 4, r->symbol_id != 0, r->symbol_id);
		bind_int(st, 5, r->data_object_id != 0, r->data_object_id);
		sqlite3_bind_int64(st, 6, (int64_t)r->loads);
		sqlite3_bind_int64(st, 7, (int64_t)r->timed);
		bind_int(st, 8, r->timed != 0, (int64_t)r->total_latency);
		bind_int(st, 9, r->has_late, (int64_t)r->late_prefetch);
		bind_int(st, 10, r->has_late_latency, (int64_t)r->late_latency);
		bind_int(st, 11, r->has_events, (int64_t)r->recently_fetched);
	});
}

static int sink_cacheline_stats(void *ctx, const struct spe_row_cacheline_stat *rows, size_t n)
{
	BIND_ROWS(ctx, ST_CACHELINE_STAT, rows, n, {
		const int64_t sums[] = { r->snooped, r->hitm,		 r->peer_hits,	      r->total_latency, r->atomics,
					 r->writes,  r->modified_events, r->modified_sources, r->remote_hits };
		sqlite3_bind_int64(st, 1, r->source_id);
		bind_int(st, 2, r->pid >= 0, r->pid);
		sqlite3_bind_int64(st, 3, (int64_t)r->line);
		sqlite3_bind_int64(st, 4, (int64_t)r->accesses);
		bind_int(st, 5, r->loads >= 0, r->loads);
		bind_int(st, 6, r->stores >= 0, r->stores);
		sqlite3_bind_int64(st, 7, r->cpus);
		sqlite3_bind_int64(st, 8, r->threads);
		sqlite3_bind_int64(st, 9, r->offsets);
		for (int i = 0; i < (int)(sizeof sums / sizeof *sums); i++)
			bind_int(st, 10 + i, sums[i] >= 0, sums[i]);
		if (bind_id_list(st, 19, r->symbol_ids, r->n_symbols) < 0 ||
		    bind_id_list(st, 20, r->data_object_ids, r->n_data_objects) < 0) {
			snprintf(((struct sqlite_sink *)ctx)->err, sizeof ((struct sqlite_sink *)ctx)->err, "out of memory");
			return -spe_nomem;
		}
	});
}

/* Bind record @p r to parameters first .. first + SPE_RECORD_NCOLS - 1. */
static void bind_record(sqlite3_stmt *st, int first, const struct spe_row_record *r)
{
	for (int c = 0; c < SPE_RECORD_NCOLS; c++) {
		if (!(r->present >> c & 1))
			sqlite3_bind_null(st, first + c);
		else if (spe_record_columns[c].type == SPE_COLUMN_TEXT)
			sqlite3_bind_text(st, first + c, r->col[c].s, -1, SQLITE_STATIC);
		else
			sqlite3_bind_int64(st, first + c, r->col[c].i);
	}
}

/* bind_record for parameters that hold @p was: only the values that differ; @p was becomes @p r. */
static void bind_record_changes(sqlite3_stmt *st, int first, const struct spe_row_record *r, struct spe_row_record *was)
{
	uint64_t changed = r->present ^ was->present;
	for (int c = 0; c < SPE_RECORD_NCOLS; c++) {
		if (!(r->present >> c & 1)) {
			if (changed >> c & 1)
				sqlite3_bind_null(st, first + c);
		} else if (spe_record_columns[c].type == SPE_COLUMN_TEXT) {
			sqlite3_bind_text(st, first + c, r->col[c].s, -1, SQLITE_STATIC); /* the pointer is the call's */
		} else if ((changed >> c & 1) || r->col[c].i != was->col[c].i) {
			sqlite3_bind_int64(st, first + c, r->col[c].i);
			was->col[c].i = r->col[c].i;
		}
	}
	was->present = r->present;
}

static int sink_records(void *ctx, const struct spe_row_record *rows, size_t n)
{
	struct sqlite_sink *s = ctx;
	size_t k = 0;
	/* whole batches in one statement each, the rest one by one */
	while (n - k >= RECORD_BATCH) {
		sqlite3_stmt *st = statement(s, ST_RECORD_BATCH);
		if (!st)
			return -spe_io;
		for (int r = 0; r < RECORD_BATCH; r++)
			bind_record_changes(st, 1 + r * SPE_RECORD_NCOLS, &rows[k + (size_t)r], &s->batch_bound[r]);
		int rc = sqlite3_step(st);
		sqlite3_reset(st);
		if (rc != SQLITE_DONE)
			return fail(s, "inserting records");
		k += RECORD_BATCH;
	}
	for (; k < n; k++) {
		sqlite3_stmt *st = statement(s, ST_RECORD);
		if (!st)
			return -spe_io;
		bind_record(st, 1, &rows[k]);
		int rc = sqlite3_step(st);
		sqlite3_reset(st);
		if (rc != SQLITE_DONE)
			return fail(s, "inserting records");
	}
	return 0;
}

/* Rows are stored as they come: nothing is buffered, so the source is complete (the commit is spe_db's). */
static int sink_commit(void *ctx)
{
	(void)ctx;
	return 0;
}

/* Nothing buffered; what was stored is undone by spe_db's rollback. */
static void sink_abort(void *ctx)
{
	(void)ctx;
}

static const char *sink_errmsg(void *ctx)
{
	return ((struct sqlite_sink *)ctx)->err;
}

static void sink_free(void *ctx)
{
	struct sqlite_sink *s = ctx;
	if (!s)
		return;
	for (int i = 0; i < N_STATEMENTS; i++)
		sqlite3_finalize(s->st[i]);
	free(s->text);
	free(s);
}

int spe_sqlite_sink_new(struct spe_db *db, struct spe_row_sink *out, char *err, size_t errlen)
{
	struct sqlite_sink *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -spe_nomem;
	}
	s->sql = spe_db_sqlite(db);
	s->replace = spe_db_replaces(db);
	s->feed = spe_db_rollup_feed(db);
	*out = (struct spe_row_sink){ .size = sizeof *out,
				      .ctx = s,
				      .begin = sink_begin,
				      .sources = sink_sources,
				      .cpus = sink_cpus,
				      .threads = sink_threads,
				      .mappings = sink_mappings,
				      .symbols = sink_symbols,
				      .insns = sink_insns,
				      .records = sink_records,
				      .data_objects = sink_data_objects,
				      .numa_nodes = sink_numa_nodes,
				      .numa_cpus = sink_numa_cpus,
				      .numa_memory = sink_numa_memory,
				      .pc_latency = sink_pc_latency,
				      .load_stats = sink_load_stats,
				      .commit = sink_commit,
				      .abort = sink_abort,
				      .errmsg = sink_errmsg,
				      .free = sink_free,
				      .time_convs = sink_time_convs,
				      .mem_level_stats = sink_mem_level_stats,
				      .latency_buckets = sink_latency_buckets,
				      .branch_stats = sink_branch_stats,
				      .page_stats = sink_page_stats,
				      .cacheline_stats = sink_cacheline_stats,
				      .numa_stats = sink_numa_stats,
				      .prefetch_stats = sink_prefetch_stats };
	return 0;
}
