/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The row sink interface (spe/row_sink.h) with a sink of our own that keeps
 * rows in memory, as a ClickHouse sink or an exporter would take them:
 * the ids the sink gives at begin are the ids of the rows; records come as
 * typed rows whose columns are SPE_RECORD_COLUMNS, NULL where unknown,
 * with codes for op type, EL and memory level and no time where the source's
 * TIME_CONV gives it; commit once on success; a failing sink stops the load
 * with its message, and the load is aborted, never committed.  A sink
 * without time_conv rows gets every time in the rows.  And the SQLite table
 * _spe_record has exactly the columns of that list, the view spe_record
 * those of SPE_RECORD_VIEW_COLUMNS.
 *
 * usage: analysis_row_sink FIXTURES_DIR
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "check.h"
#include "spe/analysis.h"

static const char *fixtures;

/* ---- a sink that keeps what it is given --------------------------------------- */

#define MAX_ROWS 16

struct memory_sink {
	struct spe_row_ids give;      /* what begin reports */
	int begins, commits, aborts;
	int fail_records;             /* records() fails with -spe_io */
	struct spe_row_source source;
	char source_file[64];
	struct spe_row_mapping mappings[MAX_ROWS];
	char mapping_paths[MAX_ROWS][64];
	int n_mappings;
	struct spe_row_symbol symbols[MAX_ROWS];
	char symbol_names[MAX_ROWS][64];
	int n_symbols, n_insns, n_threads, n_cpus, n_pc_latency, n_other;
	int n_thread_comms;
	struct spe_row_thread_comm thread_comm; /* the last (its comm not kept) */
	struct spe_row_insn insns[MAX_ROWS];
	struct spe_row_time_conv time_conv;
	int n_time_convs;
	struct spe_row_record records[MAX_ROWS];
	char record_text[MAX_ROWS][SPE_RECORD_NCOLS][32];
	int n_records;
	struct spe_row_load_stats stats;
	int n_stats;
};

static int m_begin(void *ctx, struct spe_row_ids *next)
{
	struct memory_sink *m = ctx;
	m->begins++;
	*next = m->give;
	return 0;
}

static int m_sources(void *ctx, const struct spe_row_source *rows, size_t n)
{
	struct memory_sink *m = ctx;
	CHECK_INT_EQ(n, 1);
	m->source = rows[0];
	snprintf(m->source_file, sizeof m->source_file, "%s", rows[0].file);
	m->source.file = m->source_file;
	m->source.host = m->source.command_line = m->source.kind = m->source.loaded_at = NULL; /* not kept */
	return 0;
}

static int m_cpus(void *ctx, const struct spe_row_cpu *rows, size_t n)
{
	(void)rows;
	((struct memory_sink *)ctx)->n_cpus += (int)n;
	return 0;
}

static int m_threads(void *ctx, const struct spe_row_thread *rows, size_t n)
{
	(void)rows;
	((struct memory_sink *)ctx)->n_threads += (int)n;
	return 0;
}

static int m_mappings(void *ctx, const struct spe_row_mapping *rows, size_t n)
{
	struct memory_sink *m = ctx;
	for (size_t i = 0; i < n && m->n_mappings < MAX_ROWS; i++, m->n_mappings++) {
		m->mappings[m->n_mappings] = rows[i];
		snprintf(m->mapping_paths[m->n_mappings], 64, "%s", rows[i].path);
		m->mappings[m->n_mappings].path = m->mapping_paths[m->n_mappings];
		m->mappings[m->n_mappings].build_id = NULL;
	}
	return 0;
}

static int m_symbols(void *ctx, const struct spe_row_symbol *rows, size_t n)
{
	struct memory_sink *m = ctx;
	for (size_t i = 0; i < n && m->n_symbols < MAX_ROWS; i++, m->n_symbols++) {
		m->symbols[m->n_symbols] = rows[i];
		snprintf(m->symbol_names[m->n_symbols], 64, "%s", rows[i].name);
		m->symbols[m->n_symbols].name = m->symbol_names[m->n_symbols];
		m->symbols[m->n_symbols].file = NULL;
	}
	return 0;
}

static int m_insns(void *ctx, const struct spe_row_insn *rows, size_t n)
{
	struct memory_sink *m = ctx;
	for (size_t i = 0; i < n && m->n_insns < MAX_ROWS; i++, m->n_insns++) {
		m->insns[m->n_insns] = rows[i];
		m->insns[m->n_insns].bytes = NULL; /* pointers live only through the call */
		m->insns[m->n_insns].mnemonic = m->insns[m->n_insns].operands = m->insns[m->n_insns].file = NULL;
		m->insns[m->n_insns].inline_function = NULL;
	}
	return 0;
}

static int m_time_convs(void *ctx, const struct spe_row_time_conv *rows, size_t n)
{
	struct memory_sink *m = ctx;
	m->time_conv = rows[0];
	m->n_time_convs += (int)n;
	return 0;
}

static int m_records(void *ctx, const struct spe_row_record *rows, size_t n)
{
	struct memory_sink *m = ctx;
	if (m->fail_records)
		return -spe_io;
	for (size_t i = 0; i < n && m->n_records < MAX_ROWS; i++, m->n_records++) {
		struct spe_row_record *r = &m->records[m->n_records];
		*r = rows[i];
		/* strings live only through the call: keep copies */
		for (int c = 0; c < SPE_RECORD_NCOLS; c++)
			if (spe_record_columns[c].kind == SPE_KIND_TEXT && (r->present >> c & 1)) {
				snprintf(m->record_text[m->n_records][c], 32, "%s", r->col[c].s);
				r->col[c].s = m->record_text[m->n_records][c];
			}
	}
	return 0;
}

/* Tables this test's loads leave empty (no data mappings, no NUMA layout): counted, so a stray row shows. */
static int m_data_objects(void *ctx, const struct spe_row_data_object *rows, size_t n)
{
	(void)rows;
	((struct memory_sink *)ctx)->n_other += (int)n;
	return 0;
}

static int m_numa_nodes(void *ctx, const struct spe_row_numa_node *rows, size_t n)
{
	(void)rows;
	((struct memory_sink *)ctx)->n_other += (int)n;
	return 0;
}

static int m_numa_cpus(void *ctx, const struct spe_row_numa_cpu *rows, size_t n)
{
	(void)rows;
	((struct memory_sink *)ctx)->n_other += (int)n;
	return 0;
}

static int m_numa_memory(void *ctx, const struct spe_row_numa_memory *rows, size_t n)
{
	(void)rows;
	((struct memory_sink *)ctx)->n_other += (int)n;
	return 0;
}

static int m_pc_histogram(void *ctx, const struct spe_row_pc_histogram *rows, size_t n)
{
	(void)rows;
	((struct memory_sink *)ctx)->n_pc_latency += (int)n;
	return 0;
}

static int m_thread_comms(void *ctx, const struct spe_row_thread_comm *rows, size_t n)
{
	struct memory_sink *m = ctx;
	m->thread_comm = rows[n - 1];
	m->thread_comm.comm = NULL;
	m->n_thread_comms += (int)n;
	return 0;
}

static int m_load_stats(void *ctx, const struct spe_row_load_stats *rows, size_t n)
{
	struct memory_sink *m = ctx;
	m->stats = rows[0];
	m->n_stats += (int)n;
	return 0;
}

static int m_commit(void *ctx)
{
	((struct memory_sink *)ctx)->commits++;
	return 0;
}

static void m_abort(void *ctx)
{
	((struct memory_sink *)ctx)->aborts++;
}

static const char *m_errmsg(void *ctx)
{
	return ((struct memory_sink *)ctx)->fail_records ? "the store is full" : "";
}

/* The rows of each table to its function above; a table the sink does not take is a failure. */
static int m_rows(void *ctx, enum spe_table table, const void *rows, size_t n)
{
	switch (table) {
	case SPE_TABLE_SOURCE:
		return m_sources(ctx, rows, n);
	case SPE_TABLE_CPU:
		return m_cpus(ctx, rows, n);
	case SPE_TABLE_THREAD:
		return m_threads(ctx, rows, n);
	case SPE_TABLE_THREAD_COMM:
		return m_thread_comms(ctx, rows, n);
	case SPE_TABLE_MAPPING:
		return m_mappings(ctx, rows, n);
	case SPE_TABLE_SYMBOL:
		return m_symbols(ctx, rows, n);
	case SPE_TABLE_INSN:
		return m_insns(ctx, rows, n);
	case SPE_TABLE_RECORD:
		return m_records(ctx, rows, n);
	case SPE_TABLE_DATA_OBJECT:
		return m_data_objects(ctx, rows, n);
	case SPE_TABLE_NUMA_NODE:
		return m_numa_nodes(ctx, rows, n);
	case SPE_TABLE_NUMA_CPU:
		return m_numa_cpus(ctx, rows, n);
	case SPE_TABLE_NUMA_MEMORY:
		return m_numa_memory(ctx, rows, n);
	case SPE_TABLE_PC_HISTOGRAM:
		return m_pc_histogram(ctx, rows, n);
	case SPE_TABLE_LOAD_STATS:
		return m_load_stats(ctx, rows, n);
	case SPE_TABLE_TIME_CONV:
		return m_time_convs(ctx, rows, n);
	default:
		CHECK(!"rows of a table the sink does not take");
		return -spe_invalid;
	}
}

/* The summaries it leaves out: a sink that computes its views itself. */
#define SUMMARIES                                                                                            \
	(SPE_TABLE_BIT(MEM_LEVEL_STAT) | SPE_TABLE_BIT(LATENCY_BUCKET) | SPE_TABLE_BIT(BRANCH_STAT) |          \
	 SPE_TABLE_BIT(PAGE_STAT) | SPE_TABLE_BIT(NUMA_STAT) | SPE_TABLE_BIT(PREFETCH_STAT) |                  \
	 SPE_TABLE_BIT(CACHELINE_STAT) | SPE_TABLE_BIT(PAGE_REGION_STAT) | SPE_TABLE_BIT(LEVEL_LATENCY_BUCKET) |  \
	 SPE_TABLE_BIT(DATA_OBJECT_STAT) | SPE_TABLE_BIT(DATA_OBJECT_LEVEL) | SPE_TABLE_BIT(PC_LEVEL_STAT))

static struct spe_row_sink sink_of(struct memory_sink *m)
{
	return (struct spe_row_sink){ .ctx = m,
				      .tables = SPE_TABLES_ALL & ~SUMMARIES,
				      .begin = m_begin,
				      .rows = m_rows,
				      .commit = m_commit,
				      .abort = m_abort,
				      .errmsg = m_errmsg };
}

/* ---- records ----------------------------------------------------------------- */

static struct spe_record kernel_load(void)
{
	struct spe_record r = { 0 };
	r.has = SPE_HAS_PC | SPE_HAS_OP_TYPE | SPE_HAS_DATA_SOURCE | SPE_HAS_TOTAL_LATENCY | SPE_HAS_TIMESTAMP;
	r.pc.addr = 0xffff800008010840ull; /* do_page_fault + 0x40 */
	r.pc.el = 1;
	r.op_raw_class = 1; /* LD GP-REG */
	r.op_raw = 0x00;
	spe_op_decode(r.op_raw_class, r.op_raw, &r.op_class, &r.op_flags, &r.sve_evl);
	r.data_source = 0; /* L1D on Neoverse N1 */
	r.total_latency = 12;
	r.timestamp = 5000;
	return r;
}

static struct spe_record user_branch(void)
{
	struct spe_record r = { 0 };
	r.has = SPE_HAS_PC | SPE_HAS_CONTEXT;
	r.pc.addr = 0x401000;
	r.context = 77; /* tid 77, of pid 7 (COMM) */
	return r;
}

static struct spe_record no_pc(void)
{
	struct spe_record r = { 0 };
	r.has = SPE_HAS_EVENTS;
	r.events = 1u << SPE_EV_RETIRED;
	return r;
}

static int is_set(const struct spe_row_record *r, enum spe_record_column c)
{
	return (int)(r->present >> c & 1);
}

static struct spe_loader *start(struct memory_sink *m, struct spe_row_sink *sink)
{
	/* the loader keeps the option strings it is given until it is freed (spe_load_opts): static, not this frame's */
	static char ks[512];
	char err[256];
	snprintf(ks, sizeof ks, "%s/kallsyms/arm64-small.kallsyms", fixtures);
	struct spe_source_info src = { .file = "in-memory", .kind = "raw", .nr_cpus = 1 };
	struct spe_load_opts opts = { .kallsyms = ks };
	*sink = sink_of(m);
	struct spe_loader *ld = NULL;
	CHECK_INT_EQ(spe_loader_new_sink(sink, &src, &opts, &ld, err, sizeof err), 0);
	return ld;
}

/* Load the three records of the tests below into @p m. */
static void load_three(struct memory_sink *m, struct spe_row_sink *sink)
{
	struct spe_loader *ld = start(m, sink);
	spe_loader_cpu(ld, 0, 0x410fd0c0);
	struct spe_perf_time_conv tc = { .time_mult = 3, .time_zero = 100 };
	spe_loader_time_conv(ld, &tc);
	CHECK_INT_EQ(spe_loader_comm(ld, 7, 77, "app", UINT64_MAX), 0);
	CHECK_INT_EQ(spe_loader_mmap(ld, 7, 0x400000, 0x10000, 0, "/app", NULL, UINT64_MAX), 0);
	struct spe_record r1 = kernel_load(), r2 = user_branch(), r3 = no_pc();
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r1), 0);
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r2), 0);
	CHECK_INT_EQ(spe_loader_record(ld, 0, 5, 6, &r3), 0);
	CHECK_INT_EQ(m->n_records, 0); /* batched until the end or a full batch */
	struct spe_load_counts k;
	CHECK_INT_EQ(spe_loader_finish(ld, &k), 0);
	spe_loader_free(ld);
}

TEST(rows_come_typed_with_the_sinks_ids)
{
	struct memory_sink m = { .give = { .source = 7, .mapping = 100, .symbol = 200, .insn = 300, .data_object = 400 } };
	struct spe_row_sink sink;
	load_three(&m, &sink);

	CHECK_INT_EQ(m.begins, 1);
	CHECK_INT_EQ(m.commits, 1);
	CHECK_INT_EQ(m.aborts, 0);
	CHECK_INT_EQ(m.source.id, 7);
	CHECK_STR_EQ(m.source.file, "in-memory");
	/* the user mapping took the first mapping id, the kernel's (made by the kernel PC) the next */
	CHECK_INT_EQ(m.n_mappings, 2);
	CHECK_INT_EQ(m.mappings[0].id, 100);
	CHECK_STR_EQ(m.mappings[0].path, "/app");
	CHECK_INT_EQ(m.mappings[0].source_id, 7);
	CHECK_INT_EQ(m.mappings[1].id, 101);
	CHECK_STR_EQ(m.mappings[1].path, "[kernel.kallsyms]");
	CHECK_INT_EQ(m.mappings[1].pid, -1);
	CHECK_INT_EQ(m.n_symbols, 1);
	CHECK_INT_EQ(m.symbols[0].id, 200);
	CHECK_INT_EQ(m.symbols[0].mapping_id, 101);
	CHECK_STR_EQ(m.symbols[0].name, "do_page_fault");
	/* every PC in a mapping has an insn row, which names its mapping and symbol; no symbolizer, no bytes */
	CHECK_INT_EQ(m.n_insns, 2);
	CHECK_INT_EQ(m.insns[0].id, 300);
	CHECK_INT_EQ(m.insns[0].mapping_id, 101);
	CHECK_INT_EQ(m.insns[0].symbol_id, 200);
	CHECK_U64_EQ(m.insns[0].pc, 0xffff800008010840ull);
	CHECK_INT_EQ(m.insns[0].n_bytes, 0);
	CHECK_INT_EQ(m.insns[1].id, 301);
	CHECK_INT_EQ(m.insns[1].mapping_id, 100);
	CHECK_INT_EQ(m.insns[1].symbol_id, 0);
	/* the TIME_CONV in force at the first record */
	CHECK_INT_EQ(m.n_time_convs, 1);
	CHECK_INT_EQ(m.time_conv.source_id, 7);
	CHECK_INT_EQ(m.time_conv.time_mult, 3);
	CHECK_INT_EQ(m.time_conv.time_zero, 100);

	CHECK_INT_EQ(m.n_records, 3);
	const struct spe_row_record *a = &m.records[0], *b = &m.records[1], *c = &m.records[2];
	CHECK_INT_EQ(a->col[SPE_RECORD_COL_SOURCE_ID].i, 7);
	CHECK(!is_set(a, SPE_RECORD_COL_PC)); /* insn 300 holds it */
	int64_t codes = a->col[SPE_RECORD_COL_CODES].i;
	CHECK_INT_EQ(codes & (SPE_CODES_HAS_OP | SPE_CODES_OP_RAW_MASK), SPE_CODES_HAS_OP | 0x100); /* LD GP-REG */
	CHECK_INT_EQ(codes >> SPE_CODES_EL_SHIFT & 3, 1);
	CHECK_INT_EQ(codes >> SPE_CODES_MEM_LEVEL_SHIFT & 31, SPE_MEM_LEVEL_L1D + 1);
	CHECK_INT_EQ(codes & (SPE_CODES_NO_TIME | SPE_CODES_CONTEXT_IS_TID), 0);
	CHECK_INT_EQ(a->col[SPE_RECORD_COL_COUNTER_TOTAL].i, 12);
	CHECK(!is_set(a, SPE_RECORD_COL_COUNTER_ISSUE));
	CHECK_INT_EQ(a->col[SPE_RECORD_COL_TS].i, 5000);
	CHECK(!is_set(a, SPE_RECORD_COL_TIME)); /* 100 + 3 * 5000: the view computes it */
	CHECK_INT_EQ(a->col[SPE_RECORD_COL_INSN_ID].i, 300);
	CHECK(!is_set(a, SPE_RECORD_COL_PID) && !is_set(a, SPE_RECORD_COL_TID)); /* no CONTEXT, switch or AUXTRACE tid */
	/* CONTEXT 77 names the thread, COMM its process; the PC is in /app */
	CHECK_INT_EQ(b->col[SPE_RECORD_COL_TID].i, 77);
	CHECK_INT_EQ(b->col[SPE_RECORD_COL_PID].i, 7);
	CHECK_INT_EQ(b->col[SPE_RECORD_COL_INSN_ID].i, 301);
	CHECK(!is_set(b, SPE_RECORD_COL_CONTEXT)); /* equal to tid: a code bit says so */
	CHECK(b->col[SPE_RECORD_COL_CODES].i & SPE_CODES_CONTEXT_IS_TID);
	CHECK(b->col[SPE_RECORD_COL_CODES].i & SPE_CODES_NO_TIME);
	CHECK(!(b->col[SPE_RECORD_COL_CODES].i & SPE_CODES_HAS_OP));
	CHECK(!is_set(b, SPE_RECORD_COL_TS) && !is_set(b, SPE_RECORD_COL_TIME));
	CHECK(!is_set(b, SPE_RECORD_COL_PC));
	/* no PC: only what it had, and the AUXTRACE's pid/tid */
	CHECK(!is_set(c, SPE_RECORD_COL_PC) && !is_set(c, SPE_RECORD_COL_INSN_ID));
	CHECK_INT_EQ(c->col[SPE_RECORD_COL_EVENTS].i, 1 << SPE_EV_RETIRED);
	CHECK_INT_EQ(c->col[SPE_RECORD_COL_PID].i, 5);
	CHECK_INT_EQ(c->col[SPE_RECORD_COL_TID].i, 6);

	CHECK_INT_EQ(m.n_stats, 1);
	CHECK_INT_EQ(m.stats.source_id, 7);
	CHECK_INT_EQ(m.stats.records, 3);
	CHECK_INT_EQ(m.stats.no_symbol, 1); /* the /app PC: mapped, no symbolizer */
	CHECK_INT_EQ(m.n_cpus, 1);
	CHECK_INT_EQ(m.n_threads, 2); /* 77 (COMM), and 6 first seen in the third record */
	CHECK_INT_EQ(m.n_thread_comms, 1); /* 77's one name: 6 had none */
	CHECK_INT_EQ(m.thread_comm.tid, 77);
	CHECK_INT_EQ(m.thread_comm.source_id, 7);
	CHECK_INT_EQ((long long)m.thread_comm.time, 0); /* a COMM without a time: from the start */
	CHECK(m.n_pc_latency >= 3);
	CHECK_INT_EQ(m.n_other, 0);
	CHECK(!is_set(a, SPE_RECORD_COL_DATA_OBJECT_ID));
}

/* A sink that does not take time_conv rows gets every time in the rows. */
TEST(sink_without_time_convs_gets_times)
{
	struct memory_sink m = { .give = { 1, 1, 1, 1, 1 } };
	struct spe_row_sink sink;
	m.give.source = 1;
	struct spe_loader *ld;
	char ks[512], err[256];
	snprintf(ks, sizeof ks, "%s/kallsyms/arm64-small.kallsyms", fixtures);
	struct spe_source_info src = { .file = "old", .kind = "raw", .nr_cpus = 1 };
	struct spe_load_opts opts = { .kallsyms = ks };
	sink = sink_of(&m);
	sink.tables &= ~SPE_TABLE_BIT(TIME_CONV);
	CHECK_INT_EQ(spe_loader_new_sink(&sink, &src, &opts, &ld, err, sizeof err), 0);
	struct spe_perf_time_conv tc = { .time_mult = 3, .time_zero = 100 };
	spe_loader_time_conv(ld, &tc);
	struct spe_record r = kernel_load();
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	CHECK_INT_EQ(spe_loader_finish(ld, NULL), 0);
	spe_loader_free(ld);
	CHECK_INT_EQ(m.n_time_convs, 0);
	CHECK_INT_EQ(m.n_records, 1);
	CHECK_INT_EQ(m.records[0].col[SPE_RECORD_COL_TIME].i, 15100);
}

TEST(failing_sink_aborts_with_its_message)
{
	struct memory_sink m = { .give = { 1, 1, 1, 1, 1 }, .fail_records = 1 };
	struct spe_row_sink sink;
	struct spe_loader *ld = start(&m, &sink);
	struct spe_record r = no_pc();
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	CHECK_INT_EQ(spe_loader_finish(ld, NULL), -spe_io);
	CHECK_STR_EQ(spe_loader_error(ld), "records: the store is full");
	spe_loader_free(ld);
	CHECK_INT_EQ(m.commits, 0);
	CHECK_INT_EQ(m.aborts, 1);
}

TEST(sqlite_table_has_the_listed_columns)
{
	char err[256];
	struct spe_db *db;
	CHECK_INT_EQ(spe_db_open_memory(&db, err, sizeof err), 0);
	sqlite3_stmt *st;
	CHECK_INT_EQ(sqlite3_prepare_v2(spe_db_sqlite(db), "SELECT name, type FROM pragma_table_info('_spe_record') ORDER BY cid",
					-1, &st, NULL),
		     SQLITE_OK);
	int i = -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0), *type = (const char *)sqlite3_column_text(st, 1);
		if (i < 0) {
			CHECK_STR_EQ(name, "id");
		} else if (i < SPE_RECORD_NCOLS) {
			CHECK_STR_EQ(name, spe_record_columns[i].name);
			CHECK_STR_EQ(type, spe_record_columns[i].kind == SPE_KIND_TEXT ? "TEXT" : "INTEGER");
		}
		i++;
	}
	CHECK_INT_EQ(i, SPE_RECORD_NCOLS);
	sqlite3_finalize(st);
	/* the view: SPE_RECORD_VIEW_COLUMNS, the event columns after events */
	static const char *const view[] = {
#define SPE_X(name, doc) #name,
#define SPE_XC(idx, id, word, col, desc) col,
		SPE_RECORD_VIEW_COLUMNS(SPE_X, SPE_XC)
#undef SPE_X
#undef SPE_XC
	};
	CHECK_INT_EQ(sqlite3_prepare_v2(spe_db_sqlite(db), "SELECT name FROM pragma_table_info('spe_record') ORDER BY cid",
					-1, &st, NULL),
		     SQLITE_OK);
	size_t v = 0;
	static const char *const event_columns[] = {
#define SPE_X(bit, id, word, col, since, desc) col,
		SPE_EVENT_LIST(SPE_X)
#undef SPE_X
	};
	size_t events_seen = 0, n_events = sizeof event_columns / sizeof *event_columns;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		if (events_seen > 0 && events_seen <= n_events) {
			CHECK_STR_EQ(name, event_columns[events_seen - 1]);
			events_seen++;
			continue;
		}
		CHECK(v < sizeof view / sizeof *view);
		if (v < sizeof view / sizeof *view)
			CHECK_STR_EQ(name, view[v]);
		if (!strcmp(name, "events"))
			events_seen = 1;
		v++;
	}
	CHECK_INT_EQ(v, sizeof view / sizeof *view);
	sqlite3_finalize(st);
	/* names are unique (the view and the inserts name them) */
	for (int a = 0; a < SPE_RECORD_NCOLS; a++)
		for (int b = a + 1; b < SPE_RECORD_NCOLS; b++)
			CHECK(strcmp(spe_record_columns[a].name, spe_record_columns[b].name) != 0);
	spe_db_close(db);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: analysis_row_sink FIXTURES_DIR\n");
		return 2;
	}
	fixtures = argv[1];
	RUN(rows_come_typed_with_the_sinks_ids);
	RUN(sink_without_time_convs_gets_times);
	RUN(failing_sink_aborts_with_its_message);
	RUN(sqlite_table_has_the_listed_columns);
	return check_summary();
}
