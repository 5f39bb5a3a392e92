/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The asynchronous row sink (analysis/store/sink_async.h) over a sink of the
 * test's own that logs what it is given: rows arrive in the order they were
 * put, across batches and across the operations that run on the caller's
 * thread; strings and bytes are copies (the caller's buffers are overwritten
 * right after each call); records are stored on another thread; a failure
 * in the writer comes back from a later call with the inner sink's message
 * and commit is then never reached; abort drops what is queued; a call
 * bigger than a batch still arrives in order; optional operations the inner
 * sink lacks stay absent.  A stage (the loader's counting) sees every noted
 * record once, in order, one batch at a time, on the writer thread or, when
 * the writer is behind, on the caller's; its failure comes back like the
 * inner sink's.  The tables written at the end of a load (pc_latency and
 * the summaries) are queued the same way, their arrays copied.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "sink_async.h"

#define LOG_MAX 200000

struct log_sink {
	/* one entry per row: table letter and a value that identifies the row */
	char table[LOG_MAX];
	int64_t value[LOG_MAX];
	int n;
	int strings_ok;               /* every string arrived intact */
	int records_on_caller_thread; /* record batches stored on the caller's thread */
	pthread_t caller;
	int fail_after;               /* records() fails once this many records were stored (0: never) */
	unsigned slow_us;             /* records() sleeps this long per call (a writer that falls behind) */
	int commits, aborts, freed;
};

static void log_row(struct log_sink *l, char table, int64_t value)
{
	if (l->n < LOG_MAX) {
		l->table[l->n] = table;
		l->value[l->n++] = value;
	}
}

static int l_records(void *ctx, const struct spe_row_record *rows, size_t n)
{
	struct log_sink *l = ctx;
	if (pthread_equal(pthread_self(), l->caller))
		l->records_on_caller_thread++;
	if (l->slow_us)
		usleep(l->slow_us);
	for (size_t i = 0; i < n; i++) {
		if (l->fail_after && l->n >= l->fail_after)
			return -spe_io;
		log_row(l, 'r', rows[i].col[SPE_RECORD_COL_TS].i);
	}
	return 0;
}

/* The strings a row of value v was given (see put_insn): checked on arrival. */
static void expect_string(struct log_sink *l, const char *got, const char *what, int64_t v)
{
	char want[64];
	snprintf(want, sizeof want, "%s-%lld", what, (long long)v);
	if (!got || strcmp(got, want) != 0)
		l->strings_ok = 0;
}

static int l_insns(void *ctx, const struct spe_row_insn *rows, size_t n)
{
	struct log_sink *l = ctx;
	for (size_t i = 0; i < n; i++) {
		const struct spe_row_insn *r = &rows[i];
		expect_string(l, r->mnemonic, "mnem", r->id);
		expect_string(l, r->operands, "ops", r->id);
		if (r->file || r->n_bytes != 4 || !r->bytes || r->bytes[0] != (uint8_t)r->id || r->bytes[3] != 0xd5)
			l->strings_ok = 0;
		log_row(l, 'i', r->id);
	}
	return 0;
}

static int l_symbols(void *ctx, const struct spe_row_symbol *rows, size_t n)
{
	struct log_sink *l = ctx;
	for (size_t i = 0; i < n; i++) {
		expect_string(l, rows[i].name, "sym", rows[i].id);
		log_row(l, 's', rows[i].id);
	}
	return 0;
}

static int l_data_objects(void *ctx, const struct spe_row_data_object *rows, size_t n)
{
	struct log_sink *l = ctx;
	for (size_t i = 0; i < n; i++) {
		expect_string(l, rows[i].name, "obj", rows[i].id);
		expect_string(l, rows[i].type, "type", rows[i].id);
		log_row(l, 'd', rows[i].id);
	}
	return 0;
}

static int l_mappings(void *ctx, const struct spe_row_mapping *rows, size_t n)
{
	struct log_sink *l = ctx;
	if (!pthread_equal(pthread_self(), l->caller)) /* the rare operations run on the caller's thread */
		l->strings_ok = 0;
	for (size_t i = 0; i < n; i++)
		log_row(l, 'm', rows[i].id);
	return 0;
}

/* The end tables' loggers (below). */
static int l_pc_histogram(void *ctx, const struct spe_row_pc_histogram *rows, size_t n);
static int l_page_stats(void *ctx, const struct spe_row_page_stat *rows, size_t n);
static int l_cacheline_stats(void *ctx, const struct spe_row_cacheline_stat *rows, size_t n);
static int l_latency_buckets(void *ctx, const struct spe_row_latency_bucket *rows, size_t n);
static int l_plain(void *ctx, enum spe_table table, const void *rows, size_t n);

/* Each table's rows to its logger. */
static int l_rows(void *ctx, enum spe_table table, const void *rows, size_t n)
{
	switch (table) {
	case SPE_TABLE_RECORD:
		return l_records(ctx, rows, n);
	case SPE_TABLE_INSN:
		return l_insns(ctx, rows, n);
	case SPE_TABLE_SYMBOL:
		return l_symbols(ctx, rows, n);
	case SPE_TABLE_DATA_OBJECT:
		return l_data_objects(ctx, rows, n);
	case SPE_TABLE_MAPPING:
		return l_mappings(ctx, rows, n);
	case SPE_TABLE_PC_HISTOGRAM:
		return l_pc_histogram(ctx, rows, n);
	case SPE_TABLE_PAGE_STAT:
		return l_page_stats(ctx, rows, n);
	case SPE_TABLE_CACHELINE_STAT:
		return l_cacheline_stats(ctx, rows, n);
	case SPE_TABLE_LATENCY_BUCKET:
		return l_latency_buckets(ctx, rows, n);
	default:
		return l_plain(ctx, table, rows, n);
	}
}

static int l_begin(void *ctx, struct spe_row_ids *next)
{
	(void)ctx;
	memset(next, 0, sizeof *next);
	return 0;
}

static int l_commit(void *ctx)
{
	((struct log_sink *)ctx)->commits++;
	return 0;
}

static void l_abort(void *ctx)
{
	((struct log_sink *)ctx)->aborts++;
}

static const char *l_errmsg(void *ctx)
{
	(void)ctx;
	return "disk full (the test's sink)";
}

static void l_free(void *ctx)
{
	((struct log_sink *)ctx)->freed++;
}

/* What a stage saw: each record's ts and note (3 * ts) are checked against the next expected. */
struct stage_log {
	pthread_t caller;
	int64_t next;          /* the ts expected next */
	int bad;               /* a record out of order, twice, or with the wrong note */
	int on_caller, on_writer; /* calls on each thread */
	int inside, overlapped; /* a call while another was under way */
	int64_t fail_at;       /* fail (-spe_nomem) at the record of this ts (-1: never) */
};

static int stage_records(void *ctx, const struct spe_row_record *rows, const void *notes, size_t n)
{
	struct stage_log *g = ctx;
	if (__atomic_exchange_n(&g->inside, 1, __ATOMIC_ACQ_REL))
		__atomic_store_n(&g->overlapped, 1, __ATOMIC_RELAXED);
	if (pthread_equal(pthread_self(), g->caller))
		g->on_caller++;
	else
		g->on_writer++;
	const int64_t *note = notes;
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		int64_t ts = rows[i].col[SPE_RECORD_COL_TS].i;
		if (ts == g->fail_at)
			rc = -spe_nomem;
		else if (ts != g->next++ || note[i] != 3 * ts)
			g->bad = 1;
	}
	__atomic_store_n(&g->inside, 0, __ATOMIC_RELEASE);
	return rc;
}

/* @p n records whose ts are first, first + 1, ..., noted for the stage with 3 * ts. */
static int put_noted(struct spe_row_sink *s, int64_t first, size_t n)
{
	struct spe_row_record *rows = calloc(n, sizeof *rows);
	int64_t *notes = calloc(n, sizeof *notes);
	for (size_t i = 0; i < n; i++) {
		rows[i].present = 1ull << SPE_RECORD_COL_TS;
		rows[i].col[SPE_RECORD_COL_TS].i = first + (int64_t)i;
		notes[i] = 3 * (first + (int64_t)i);
	}
	int rc = ana_async_sink_records_noted(s->ctx, rows, notes, n);
	memset(rows, 0xee, n * sizeof *rows);
	memset(notes, 0xee, n * sizeof *notes);
	free(rows);
	free(notes);
	return rc;
}

/* The tables the first tests' inner sink takes (no summaries, no time_conv). */
#define FEW_TABLES                                                                                           \
	(SPE_TABLE_BIT(MAPPING) | SPE_TABLE_BIT(SYMBOL) | SPE_TABLE_BIT(INSN) | SPE_TABLE_BIT(RECORD) |         \
	 SPE_TABLE_BIT(DATA_OBJECT))

/* The inner sink and its async wrapper. */
static void start(struct log_sink *l, struct spe_row_sink *async)
{
	memset(l, 0, sizeof *l);
	l->strings_ok = 1;
	l->caller = pthread_self();
	struct spe_row_sink inner = { .ctx = l,
				      .tables = FEW_TABLES,
				      .begin = l_begin,
				      .rows = l_rows,
				      .commit = l_commit,
				      .abort = l_abort,
				      .errmsg = l_errmsg,
				      .free = l_free };
	char err[128];
	CHECK_INT_EQ(ana_async_sink_new(&inner, async, err, sizeof err), 0);
}

/* Rows whose strings live in a buffer the caller overwrites right after the call. */
static int put_insn(struct spe_row_sink *s, int64_t id)
{
	char mnem[32], ops[32];
	uint8_t bytes[4] = { (uint8_t)id, 0, 0, 0xd5 };
	snprintf(mnem, sizeof mnem, "mnem-%lld", (long long)id);
	snprintf(ops, sizeof ops, "ops-%lld", (long long)id);
	struct spe_row_insn row = { .id = id, .pc = 0x400000 + 4 * (uint64_t)id, .bytes = bytes, .n_bytes = 4,
				    .mnemonic = mnem, .operands = ops };
	int rc = spe_sink_rows(s, &row, 1);
	memset(mnem, 'x', sizeof mnem - 1);
	memset(ops, 'x', sizeof ops - 1);
	memset(bytes, 0xee, sizeof bytes);
	return rc;
}

static int put_symbol(struct spe_row_sink *s, int64_t id)
{
	char name[32];
	snprintf(name, sizeof name, "sym-%lld", (long long)id);
	struct spe_row_symbol row = { .id = id, .name = name };
	int rc = spe_sink_rows(s, &row, 1);
	memset(name, 'x', sizeof name - 1);
	return rc;
}

static int put_object(struct spe_row_sink *s, int64_t id)
{
	char name[32], type[32];
	snprintf(name, sizeof name, "obj-%lld", (long long)id);
	snprintf(type, sizeof type, "type-%lld", (long long)id);
	struct spe_row_data_object row = { .id = id, .name = name, .type = type };
	int rc = spe_sink_rows(s, &row, 1);
	memset(name, 'x', sizeof name - 1);
	memset(type, 'x', sizeof type - 1);
	return rc;
}

/* @p n records whose ts are first, first + 1, ... */
static int put_records(struct spe_row_sink *s, int64_t first, size_t n)
{
	struct spe_row_record *rows = calloc(n, sizeof *rows);
	for (size_t i = 0; i < n; i++) {
		rows[i].present = 1ull << SPE_RECORD_COL_TS;
		rows[i].col[SPE_RECORD_COL_TS].i = first + (int64_t)i;
	}
	int rc = s->rows(s->ctx, SPE_TABLE_RECORD, rows, n);
	memset(rows, 0xee, n * sizeof *rows);
	free(rows);
	return rc;
}

TEST(rows_arrive_in_order_with_their_strings)
{
	struct log_sink l;
	struct spe_row_sink s;
	start(&l, &s);
	CHECK(s.tables == FEW_TABLES); /* the inner sink's */
	struct spe_row_ids ids;
	CHECK_INT_EQ(s.begin(s.ctx, &ids), 0);
	/* the expected log, built as the rows are put */
	static char table[LOG_MAX];
	static int64_t value[LOG_MAX];
	int n = 0;
	int64_t ts = 0;
	for (int64_t round = 1; round <= 300; round++) {
		CHECK_INT_EQ(put_records(&s, ts, 256), 0);
		for (int i = 0; i < 256; i++)
			table[n] = 'r', value[n++] = ts++;
		CHECK_INT_EQ(put_insn(&s, round), 0);
		table[n] = 'i', value[n++] = round;
		CHECK_INT_EQ(put_symbol(&s, round), 0);
		table[n] = 's', value[n++] = round;
		CHECK_INT_EQ(put_object(&s, round), 0);
		table[n] = 'd', value[n++] = round;
		if (round % 100 == 0) { /* an operation that waits for the queue, then runs here */
			struct spe_row_mapping m = { .id = round };
			CHECK_INT_EQ(spe_sink_rows(&s, &m, 1), 0);
			table[n] = 'm', value[n++] = round;
		}
	}
	/* more records in one call than a batch holds: stored in order all the same */
	size_t big = ANA_ASYNC_BATCH_BYTES / sizeof(struct spe_row_record) + 10;
	CHECK_INT_EQ(put_records(&s, ts, big), 0);
	for (size_t i = 0; i < big; i++)
		table[n] = 'r', value[n++] = ts++;
	CHECK_INT_EQ(put_records(&s, ts, 3), 0);
	for (int i = 0; i < 3; i++)
		table[n] = 'r', value[n++] = ts++;
	CHECK_INT_EQ(s.commit(s.ctx), 0);
	CHECK_INT_EQ(l.commits, 1);
	CHECK_INT_EQ(l.n, n);
	int first_bad = -1;
	for (int i = 0; i < n && i < l.n && first_bad < 0; i++)
		if (l.table[i] != table[i] || l.value[i] != value[i])
			first_bad = i;
	CHECK_INT_EQ(first_bad, -1);
	CHECK(l.strings_ok);
	/* the queued record batches were stored by the writer thread; only the oversized call ran here */
	CHECK_INT_EQ(l.records_on_caller_thread, 1);
	s.free(s.ctx);
	CHECK_INT_EQ(l.freed, 1);
	CHECK_INT_EQ(l.aborts, 0);
}

TEST(writer_failure_comes_back)
{
	struct log_sink l;
	struct spe_row_sink s;
	start(&l, &s);
	l.fail_after = 1000;
	int rc = 0, calls = 0;
	/* the failure is seen when a batch is handed over: within the ring's worth of rows */
	size_t ring_rows = ANA_ASYNC_BATCHES * (ANA_ASYNC_BATCH_BYTES / sizeof(struct spe_row_record));
	while (rc == 0 && (size_t)calls * 256 < 4 * ring_rows) {
		rc = put_records(&s, (int64_t)calls * 256, 256);
		calls++;
	}
	CHECK_INT_EQ(rc, -spe_io);
	CHECK(strstr(s.errmsg(s.ctx), "disk full (the test's sink)") != NULL);
	/* every later operation fails the same way, and commit never reaches the inner sink */
	CHECK_INT_EQ(put_insn(&s, 1), -spe_io);
	struct spe_row_mapping m = { .id = 1 };
	CHECK_INT_EQ(spe_sink_rows(&s, &m, 1), -spe_io);
	CHECK_INT_EQ(s.commit(s.ctx), -spe_io);
	CHECK_INT_EQ(l.commits, 0);
	CHECK_INT_EQ(l.n, 1000); /* nothing stored after the failure */
	s.abort(s.ctx);
	CHECK_INT_EQ(l.aborts, 1);
	s.free(s.ctx);
	CHECK_INT_EQ(l.freed, 1);
}

TEST(abort_drops_the_queue)
{
	struct log_sink l;
	struct spe_row_sink s;
	start(&l, &s);
	for (int i = 0; i < 100; i++)
		CHECK_INT_EQ(put_records(&s, i * 256, 256), 0);
	s.abort(s.ctx);
	CHECK_INT_EQ(l.aborts, 1);
	CHECK_INT_EQ(l.commits, 0);
	CHECK(l.n <= 100 * 256);
	int stored = l.n;
	s.free(s.ctx); /* joins the thread: nothing more is stored */
	CHECK_INT_EQ(l.n, stored);
	CHECK_INT_EQ(l.freed, 1);
}

/* Freed mid-load without commit or abort (a caller's error path): the thread is joined, nothing leaks. */
TEST(free_mid_load)
{
	struct log_sink l;
	struct spe_row_sink s;
	start(&l, &s);
	for (int i = 0; i < 50; i++)
		CHECK_INT_EQ(put_records(&s, i * 256, 256), 0);
	s.free(s.ctx);
	CHECK_INT_EQ(l.freed, 1);
	CHECK_INT_EQ(l.commits, 0);
}

/* A records-only inner sink (records() sleeping @p slow_us per call) wrapped with stage @p g. */
static void start_staged(struct log_sink *l, struct stage_log *g, unsigned slow_us, struct spe_row_sink *async)
{
	memset(l, 0, sizeof *l);
	l->strings_ok = 1;
	l->caller = pthread_self();
	l->slow_us = slow_us;
	struct spe_row_sink inner = { .ctx = l,
				      .tables = SPE_TABLE_BIT(RECORD),
				      .begin = l_begin,
				      .rows = l_rows,
				      .commit = l_commit,
				      .abort = l_abort,
				      .errmsg = l_errmsg,
				      .free = l_free };
	struct ana_async_stage stage = { .ctx = g, .note_size = sizeof(int64_t), .records = stage_records };
	char err[128];
	CHECK_INT_EQ(ana_async_sink_new_staged(&inner, &stage, async, err, sizeof err), 0);
}

/* The stage, with a writer slow enough that the caller finds the ring full and takes some batches' stage. */
TEST(stage_sees_every_record_once_in_order)
{
	struct log_sink l;
	struct stage_log g = { .caller = pthread_self(), .fail_at = -1 };
	struct spe_row_sink s;
	start_staged(&l, &g, 2000, &s); /* 2 ms per call: far slower than the caller, even under qemu-user */
	int64_t ts = 0;
	for (int round = 0; round < 150; round++, ts += 256)
		CHECK_INT_EQ(put_noted(&s, ts, 256), 0);
	/* more than a batch in one call: stored and staged on the caller's thread, still in order */
	size_t big = ANA_ASYNC_BATCH_BYTES / sizeof(struct spe_row_record) + 10;
	CHECK_INT_EQ(put_noted(&s, ts, big), 0);
	ts += (int64_t)big;
	CHECK_INT_EQ(put_noted(&s, ts, 5), 0);
	ts += 5;
	CHECK_INT_EQ(ana_async_sink_sync(s.ctx), 0);
	/* after the sync, the stage's state is the caller's: every record seen */
	CHECK_INT_EQ(g.next, ts);
	CHECK_INT_EQ(g.bad, 0);
	CHECK_INT_EQ(g.overlapped, 0);
	CHECK(g.on_writer > 0);
	CHECK(g.on_caller > 1); /* the oversized call, and batches taken while the ring was full */
	CHECK_INT_EQ(l.n, (int)ts); /* and stored */
	CHECK_INT_EQ(s.commit(s.ctx), 0);
	s.free(s.ctx);
	CHECK_INT_EQ(l.freed, 1);
}

/* The stage's failure comes back from a later call, and commit never reaches the inner sink. */
TEST(stage_failure_comes_back)
{
	struct log_sink l;
	struct stage_log g = { .caller = pthread_self(), .fail_at = 5000 };
	struct spe_row_sink s;
	start_staged(&l, &g, 0, &s);
	int rc = 0;
	for (int round = 0; rc == 0 && round < 200; round++)
		rc = put_noted(&s, (int64_t)round * 256, 256);
	if (rc == 0)
		rc = ana_async_sink_sync(s.ctx);
	CHECK_INT_EQ(rc, -spe_nomem);
	CHECK(strcmp(s.errmsg(s.ctx), spe_errstr(-spe_nomem)) == 0); /* not the inner sink's message */
	CHECK_INT_EQ(g.next, 5000);
	CHECK_INT_EQ(s.commit(s.ctx), -spe_nomem);
	CHECK_INT_EQ(l.commits, 0);
	s.abort(s.ctx);
	s.free(s.ctx);
	CHECK_INT_EQ(l.freed, 1);
}

/*
 * The tables written at the end of a load are queued too: each row's arrays
 * (pc_latency's histogram, the summaries' id lists) and strings are copies,
 * whatever the caller does with its buffers after the call; the rows reach
 * the inner sink in order, on the writer thread, around an operation that
 * runs on the caller's; a histogram bigger than a batch goes through on the
 * caller's thread, in its place.  Each row's value v is its source_id, and
 * its arrays hold v, v + 1, ... (see end_array).
 */
static int end_rows_on_caller; /* end-table rows stored on the caller's thread */
static int end_arrays_ok = 1;

static void note_end_row(struct log_sink *l, char table, int64_t v)
{
	if (pthread_equal(pthread_self(), l->caller))
		end_rows_on_caller++;
	log_row(l, table, v);
}

static void check_end_array(const int64_t *got, size_t n, int64_t v)
{
	for (size_t i = 0; i < n; i++)
		if (!got || got[i] != v + (int64_t)i)
			end_arrays_ok = 0;
}

static int l_pc_histogram(void *ctx, const struct spe_row_pc_histogram *rows, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		const struct spe_row_pc_histogram *r = &rows[k];
		for (size_t i = 0; i < r->n; i++)
			if (r->latency[i] != (int32_t)((r->source_id + (int64_t)i) & 0xffff) ||
			    r->samples[i] != (uint64_t)(r->source_id + (int64_t)i))
				end_arrays_ok = 0;
		note_end_row(ctx, 'h', r->source_id);
	}
	return 0;
}

static int l_page_stats(void *ctx, const struct spe_row_page_stat *rows, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		check_end_array(rows[k].data_object_ids, rows[k].n_data_object_ids, rows[k].source_id);
		note_end_row(ctx, 'p', rows[k].source_id);
	}
	return 0;
}

static int l_cacheline_stats(void *ctx, const struct spe_row_cacheline_stat *rows, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		check_end_array(rows[k].symbol_ids, rows[k].n_symbol_ids, rows[k].source_id);
		check_end_array(rows[k].data_object_ids, rows[k].n_data_object_ids, rows[k].source_id + 1000);
		note_end_row(ctx, 'c', rows[k].source_id);
	}
	return 0;
}

static int l_latency_buckets(void *ctx, const struct spe_row_latency_bucket *rows, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		char want[32];
		snprintf(want, sizeof want, "class-%lld", (long long)rows[k].source_id);
		if (!rows[k].op_class || strcmp(rows[k].op_class, want) != 0)
			end_arrays_ok = 0;
		note_end_row(ctx, 'b', rows[k].source_id);
	}
	return 0;
}

/* The summaries without arrays: each row's source_id (their first column), logged under a letter of its table. */
static int l_plain(void *ctx, enum spe_table table, const void *rows, size_t n)
{
	const struct spe_table_info *ti = spe_table_info(table);
	char letter = table == SPE_TABLE_MEM_LEVEL_STAT ? 'l'
		      : table == SPE_TABLE_BRANCH_STAT	 ? 'j'
		      : table == SPE_TABLE_NUMA_STAT	 ? 'n'
		      : table == SPE_TABLE_PREFETCH_STAT ? 'f'
							 : '?';
	for (size_t k = 0; k < n; k++)
		note_end_row(ctx, letter, spe_column_int(&ti->columns[0], (const char *)rows + k * ti->row_size));
	return 0;
}

/* Fill @p a with v, v + 1, ... (n of them). */
static void end_array(int64_t *a, size_t n, int64_t v)
{
	for (size_t i = 0; i < n; i++)
		a[i] = v + (int64_t)i;
}

/* A pc_latency row of value v with @p n pairs, its arrays overwritten after the call. */
static int put_histogram(struct spe_row_sink *s, int64_t v, size_t n)
{
	int32_t *lat = malloc((n + 1) * sizeof *lat);
	uint64_t *samples = malloc((n + 1) * sizeof *samples);
	for (size_t i = 0; i < n; i++) {
		lat[i] = (int32_t)((v + (int64_t)i) & 0xffff);
		samples[i] = (uint64_t)(v + (int64_t)i);
	}
	struct spe_row_pc_histogram row = { .source_id = v, .n = n, .latency = lat, .samples = samples };
	int rc = spe_sink_rows(s, &row, 1);
	memset(lat, 0xee, (n + 1) * sizeof *lat);
	memset(samples, 0xee, (n + 1) * sizeof *samples);
	free(lat);
	free(samples);
	return rc;
}

TEST(end_tables_arrive_in_order_with_their_arrays)
{
	struct log_sink l;
	memset(&l, 0, sizeof l);
	l.strings_ok = 1;
	l.caller = pthread_self();
	struct spe_row_sink inner = { .ctx = &l,
				      .tables = SPE_TABLES_ALL,
				      .begin = l_begin,
				      .rows = l_rows,
				      .commit = l_commit,
				      .abort = l_abort,
				      .errmsg = l_errmsg,
				      .free = l_free },
			   s;
	char err[128];
	CHECK_INT_EQ(ana_async_sink_new(&inner, &s, err, sizeof err), 0);
	static char table[LOG_MAX];
	static int64_t value[LOG_MAX];
	int n = 0;
	int64_t ids[8];
	for (int64_t v = 1; v <= 20000; v++) {
		switch (v % 8) {
		case 0:
			CHECK_INT_EQ(put_histogram(&s, v, (size_t)(v % 37)), 0);
			table[n] = 'h';
			break;
		case 1: {
			end_array(ids, 5, v);
			struct spe_row_page_stat row = { .source_id = v, .n_data_object_ids = 5, .data_object_ids = ids };
			CHECK_INT_EQ(spe_sink_rows(&s, &row, 1), 0);
			table[n] = 'p';
			break;
		}
		case 2: {
			int64_t objects[3];
			end_array(ids, 7, v);
			end_array(objects, 3, v + 1000);
			struct spe_row_cacheline_stat row = { .source_id = v,
							      .n_symbol_ids = 7,
							      .symbol_ids = ids,
							      .n_data_object_ids = v % 3 ? 3 : 0,
							      .data_object_ids = v % 3 ? objects : NULL };
			CHECK_INT_EQ(spe_sink_rows(&s, &row, 1), 0);
			memset(objects, 0xee, sizeof objects);
			table[n] = 'c';
			break;
		}
		case 3: {
			char name[32];
			snprintf(name, sizeof name, "class-%lld", (long long)v);
			struct spe_row_latency_bucket row = { .source_id = v, .op_class = name };
			CHECK_INT_EQ(spe_sink_rows(&s, &row, 1), 0);
			memset(name, 'x', sizeof name - 1);
			table[n] = 'b';
			break;
		}
		case 4: {
			struct spe_row_mem_level_stat row = { .source_id = v };
			CHECK_INT_EQ(spe_sink_rows(&s, &row, 1), 0);
			table[n] = 'l';
			break;
		}
		case 5: {
			struct spe_row_branch_stat row = { .source_id = v };
			CHECK_INT_EQ(spe_sink_rows(&s, &row, 1), 0);
			table[n] = 'j';
			break;
		}
		case 6: {
			struct spe_row_numa_stat row = { .source_id = v };
			CHECK_INT_EQ(spe_sink_rows(&s, &row, 1), 0);
			table[n] = 'n';
			break;
		}
		default: {
			struct spe_row_prefetch_stat row = { .source_id = v };
			CHECK_INT_EQ(spe_sink_rows(&s, &row, 1), 0);
			table[n] = 'f';
			break;
		}
		}
		memset(ids, 0xee, sizeof ids);
		value[n++] = v;
		if (v == 10000) { /* an operation that waits for the queue, then runs here */
			struct spe_row_mapping m = { .id = v };
			CHECK_INT_EQ(spe_sink_rows(&s, &m, 1), 0);
			table[n] = 'm', value[n++] = v;
		}
	}
	/* a histogram bigger than a batch: stored in its place, by the caller's thread */
	size_t wide = ANA_ASYNC_BATCH_BYTES / (sizeof(int32_t) + sizeof(uint64_t)) + 10;
	CHECK_INT_EQ(put_histogram(&s, 30000, wide), 0);
	table[n] = 'h', value[n++] = 30000;
	CHECK_INT_EQ(put_histogram(&s, 30001, 2), 0);
	table[n] = 'h', value[n++] = 30001;
	CHECK_INT_EQ(s.commit(s.ctx), 0);
	CHECK_INT_EQ(l.commits, 1);
	CHECK_INT_EQ(l.n, n);
	int first_bad = -1;
	for (int i = 0; i < n && i < l.n && first_bad < 0; i++)
		if (l.table[i] != table[i] || l.value[i] != value[i])
			first_bad = i;
	CHECK_INT_EQ(first_bad, -1);
	CHECK(end_arrays_ok);
	CHECK(l.strings_ok); /* the mapping ran on the caller's thread */
	CHECK_INT_EQ(end_rows_on_caller, 1); /* only the oversized histogram */
	s.free(s.ctx);
	CHECK_INT_EQ(l.freed, 1);
}

int main(void)
{
	RUN(rows_arrive_in_order_with_their_strings);
	RUN(writer_failure_comes_back);
	RUN(abort_drops_the_queue);
	RUN(free_mid_load);
	RUN(stage_sees_every_record_once_in_order);
	RUN(stage_failure_comes_back);
	RUN(end_tables_arrive_in_order_with_their_arrays);
	return check_summary();
}
