/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cacheline_sharing's line counts (analysis/load/line_share.c) against the
 * view's definition computed the slow way (every access kept, grouped by
 * (pid, line) at the end): random accesses over few lines, most read
 * before their first write so the spill's read-back and its merge with the
 * counts after the first write are what decide the rows; more accesses than
 * one spill batch so the spill file is used; those to a page nothing wrote
 * yet go straight to the spill, as record_summary.c sends them.  Then the fallbacks: a budget
 * of written lines too small, and a spill that cannot be written (TMPDIR
 * names no directory): no rows, the source marked for the view's scan.
 * And the value pool behind both: whole 64-bit ids, first-seen order.
 * The same comparison on numbers of accesses across the powers of two up to
 * 2^14 + 1 (the pending batch of 256 and the spill batch of 8192 included).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "line_share.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(uint32_t n)
{
	return (uint32_t)(check_xorshift(&rng) % n);
}

#define N_ACCESSES 60000 /* several spill batches */
#define N_KEYS 600

/* A random access: 3 processes' 200 lines, reads mostly, a write now and then. */
static struct line_access random_access(void)
{
	struct line_access a = { 0 };
	a.pid = (int32_t)rnd(3) - 1; /* -1: no process */
	a.data_va = UINT64_C(0xffff800000000000) + (uint64_t)rnd(200) * 64 + rnd(64);
	if (rnd(4) == 0)
		a.data_va = (uint64_t)rnd(200) * 64 + 0x400000 + rnd(64); /* user addresses too */
	a.tid = rnd(5) == 0 ? -1 : (int32_t)(100 + rnd(4));
	a.cpu = (uint16_t)rnd(4);
	a.symbol = rnd(6);
	a.object = rnd(3) ? 0 : rnd(4);
	for (unsigned i = 0; i < LS_N; i++)
		if (rnd(5))
			a.sums |= LA_KNOWN(i) | (i < LS_TOTAL_LATENCY && rnd(3) == 0 ? LA_VALUE(i) : 0);
	a.sums &= ~LA_VALUE(LS_WRITES);
	if (rnd(150) == 0)
		a.sums |= LA_KNOWN(LS_WRITES) | LA_VALUE(LS_WRITES);
	a.latency = (uint16_t)rnd(65536);
	return a;
}

/* The rows the sink got. */
static struct spe_row_cacheline_stat got[N_KEYS];
static int64_t got_ids[N_KEYS][2][16];
static size_t n_got;

static int take_row(void *ctx, const struct spe_row_cacheline_stat *rows, size_t n)
{
	(void)ctx;
	for (size_t i = 0; i < n && n_got < N_KEYS; i++, n_got++) {
		got[n_got] = rows[i];
		CHECK(rows[i].n_symbols <= 16 && rows[i].n_data_objects <= 16);
		memcpy(got_ids[n_got][0], rows[i].symbol_ids, rows[i].n_symbols * sizeof(int64_t));
		memcpy(got_ids[n_got][1], rows[i].data_object_ids, rows[i].n_data_objects * sizeof(int64_t));
	}
	return 0;
}

static const struct spe_row_sink sink = { .size = sizeof sink, .cacheline_stats = take_row };

/* Distinct values in first-seen order. */
struct set {
	int64_t v[16];
	size_t n;
};

static void set_add(struct set *s, int64_t v)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i] == v)
			return;
	s->v[s->n++] = v;
}

/* The view's GROUP BY of one (pid, line) over @p a[0..n), by its definition. */
static void brute_force(const struct line_access *a, size_t n, int32_t pid, int64_t line,
			struct spe_row_cacheline_stat *row, struct set *symbols, struct set *objects)
{
	struct set cpus = { .n = 0 }, tids = { .n = 0 };
	int64_t sum[LS_N];
	int known[LS_N] = { 0 };
	uint64_t offsets = 0;
	memset(sum, 0, sizeof sum);
	memset(row, 0, sizeof *row);
	for (size_t i = 0; i < n; i++) {
		if (a[i].pid != pid || (int64_t)a[i].data_va >> 6 != line)
			continue;
		row->accesses++;
		for (unsigned s = 0; s < LS_N; s++)
			if (a[i].sums & LA_KNOWN(s)) {
				known[s] = 1;
				sum[s] += s == LS_TOTAL_LATENCY ? a[i].latency : (a[i].sums & LA_VALUE(s) ? 1 : 0);
			}
		offsets |= UINT64_C(1) << (a[i].data_va & 63);
		set_add(&cpus, a[i].cpu);
		if (a[i].tid >= 0)
			set_add(&tids, a[i].tid);
		if (a[i].symbol)
			set_add(symbols, a[i].symbol);
		if (a[i].object)
			set_add(objects, a[i].object);
	}
	int64_t *dst[LS_N] = { &row->loads,	      &row->stores,	      &row->snooped, &row->hitm,
			       &row->peer_hits,	      &row->atomics,	      &row->writes,  &row->modified_events,
			       &row->modified_sources, &row->remote_hits, &row->total_latency };
	for (unsigned s = 0; s < LS_N; s++)
		*dst[s] = known[s] ? sum[s] : -1;
	row->pid = pid;
	row->line = (uint64_t)line;
	row->cpus = (uint32_t)cpus.n;
	row->threads = (uint32_t)tids.n;
	row->offsets = (uint32_t)__builtin_popcountll(offsets);
}

static int same_ids(const int64_t *a, const struct set *b, size_t n)
{
	return n == b->n && !memcmp(a, b->v, n * sizeof *a);
}

/*
 * @p n random accesses counted as record_summary.c counts them, settled
 * (ana_line_share_finish) and written, against the view's definition;
 * @p busy: enough of them that the spill file and the read-back must have
 * been used (else any size, 0 included).
 */
static void accesses_match_the_view(size_t n_accesses, int busy)
{
	struct line_access *a = malloc((n_accesses + 1) * sizeof *a);
	CHECK(a != NULL);
	if (!a)
		return;
	struct line_share s;
	memset(&s, 0, sizeof s);
	/* as record_summary.c counts them: straight to the spill while nothing wrote to the (pid, 4 KiB page) */
	struct page_key {
		int32_t pid;
		int64_t page;
	} written[64];
	size_t n_written = 0, direct = 0;
	for (size_t i = 0; i < n_accesses; i++) {
		a[i] = random_access();
		size_t k = 0;
		while (k < n_written && !(written[k].pid == a[i].pid && written[k].page == (int64_t)a[i].data_va >> 12))
			k++;
		if (k == n_written && !(a[i].sums & LA_VALUE(LS_WRITES))) {
			CHECK_INT_EQ(ana_line_share_unwritten(&s, &a[i]), 0);
			direct++;
			continue;
		}
		if (k == n_written && n_written < 64)
			written[n_written++] = (struct page_key){ a[i].pid, (int64_t)a[i].data_va >> 12 };
		CHECK_INT_EQ(ana_line_share_count(&s, &a[i], 1000), 0);
	}
	if (busy) {
		CHECK(direct > 1000);
		CHECK(s.spill != NULL); /* the file was used */
	}
	CHECK_INT_EQ(ana_line_share_finish(&s), 0);
	CHECK_INT_EQ(s.dropped, 0);
	n_got = 0;
	CHECK_INT_EQ(ana_line_share_write(&s, &sink, 7), 0);
	/* every (pid, line) of the view: written, two CPUs or threads */
	size_t want = 0, merged = 0;
	for (int32_t pid = -1; pid <= 1; pid++)
		for (int k = 0; k < 400; k++) {
			int64_t line = k < 200 ? ((int64_t)UINT64_C(0xffff800000000000) >> 6) + (int64_t)k
					       : (0x400000 >> 6) + (int64_t)(k - 200);
			struct spe_row_cacheline_stat ref;
			struct set symbols = { .n = 0 }, objects = { .n = 0 };
			brute_force(a, n_accesses, pid, line, &ref, &symbols, &objects);
			if (ref.writes <= 0 || (ref.cpus < 2 && ref.threads < 2))
				continue;
			want++;
			size_t i = 0;
			while (i < n_got && !(got[i].pid == pid && got[i].line == (uint64_t)line))
				i++;
			CHECK(i < n_got);
			if (i == n_got)
				continue;
			const struct spe_row_cacheline_stat *g = &got[i];
			CHECK_INT_EQ(g->source_id, 7);
			CHECK_INT_EQ(g->accesses, ref.accesses);
			CHECK_INT_EQ(g->loads, ref.loads);
			CHECK_INT_EQ(g->stores, ref.stores);
			CHECK_INT_EQ(g->snooped, ref.snooped);
			CHECK_INT_EQ(g->hitm, ref.hitm);
			CHECK_INT_EQ(g->peer_hits, ref.peer_hits);
			CHECK_INT_EQ(g->atomics, ref.atomics);
			CHECK_INT_EQ(g->writes, ref.writes);
			CHECK_INT_EQ(g->modified_events, ref.modified_events);
			CHECK_INT_EQ(g->modified_sources, ref.modified_sources);
			CHECK_INT_EQ(g->remote_hits, ref.remote_hits);
			CHECK_INT_EQ(g->total_latency, ref.total_latency);
			CHECK_INT_EQ(g->cpus, ref.cpus);
			CHECK_INT_EQ(g->threads, ref.threads);
			CHECK_INT_EQ(g->offsets, ref.offsets);
			CHECK(same_ids(got_ids[i][0], &symbols, g->n_symbols));
			CHECK(same_ids(got_ids[i][1], &objects, g->n_data_objects));
		}
	for (size_t n = 0; n < s.before.cap; n++)
		merged += s.before.lines[n].accesses > 0; /* read back from the spill */
	CHECK_INT_EQ(n_got, want);
	if (busy) {
		CHECK(want > 100);   /* not vacuous: many lines shown, */
		CHECK(merged > 100); /* many with accesses before their first write */
	}
	ana_line_share_free(&s);
	free(a);
}

TEST(random_accesses_match_the_view)
{
	accesses_match_the_view(N_ACCESSES, 1);
}

/*
 * Numbers of accesses across the powers of two, through the pending
 * batch (LINE_PENDING, 256) and the spill's (SPILL_BATCH, 8192) edges.
 */
TEST(sizes_across_the_batches_match_the_view)
{
	for (unsigned k = 0; k <= 14; k++)
		for (size_t n = ((size_t)1 << k) - 1; n <= ((size_t)1 << k) + 1; n++)
			accesses_match_the_view(n, 0);
}

/* Count random accesses with @p budget written lines: none kept, no rows. */
static void no_rows(size_t budget)
{
	struct line_share s;
	memset(&s, 0, sizeof s);
	for (size_t i = 0; i < N_ACCESSES; i++) {
		struct line_access a = random_access();
		CHECK_INT_EQ(ana_line_share_count(&s, &a, budget), 0);
	}
	CHECK_INT_EQ(ana_line_share_finish(&s), 0);
	CHECK_INT_EQ(s.dropped, 1);
	n_got = 0;
	CHECK_INT_EQ(ana_line_share_write(&s, &sink, 1), 0);
	CHECK_INT_EQ(n_got, 0);
	ana_line_share_free(&s);
}

TEST(over_the_budget_no_rows)
{
	no_rows(10);
}

TEST(spill_unwritable_no_rows)
{
	setenv("TMPDIR", "/nonexistent/spekit-test", 1);
	no_rows(1000);
	unsetenv("TMPDIR");
}

/* The value pool keeps any 64-bit id (ClickHouse's are past 2^62) and a set's first-seen order across its runs' moves. */
TEST(value_pool_whole_ids_in_order)
{
	struct value_pool p = { 0 };
	uint32_t run[2] = { 0, 0 };
	int64_t first[2] = { 0, 0 }, want[2][40], out[41];
	size_t n[2] = { 0, 0 };
	for (int i = 0; i < 80; i++) {
		int set = i % 2;
		int64_t id = INT64_MAX - (int64_t)rnd(30); /* repeats too */
		int rc = ana_value_pool_add(&p, &run[set], VALUE_OBJECT, id, n[set] > 0, &first[set]);
		size_t k = 0;
		while (k < n[set] && want[set][k] != id)
			k++;
		CHECK_INT_EQ(rc, k == n[set]);
		if (k == n[set])
			want[set][n[set]++] = id;
		int64_t other = 1; /* the same number as another kind: in the same run, listed apart */
		CHECK_INT_EQ(ana_value_pool_add(&p, &run[set], VALUE_SYMBOL, id, 1, &other), rc);
	}
	for (int set = 0; set < 2; set++) {
		CHECK(n[set] > 8); /* the run moved at least twice */
		CHECK(ana_value_pool_widest(&p) + 1 >= 2 * n[set]);
		CHECK_INT_EQ(ana_value_pool_list(&p, run[set], VALUE_OBJECT, 1, first[set], out), n[set]);
		CHECK(!memcmp(out, want[set], n[set] * sizeof *out));
		CHECK_INT_EQ(ana_value_pool_list(&p, run[set], VALUE_CPU, 0, 0, out), 0);
	}
	ana_value_pool_free(&p);
}

int main(void)
{
	RUN(random_accesses_match_the_view);
	RUN(sizes_across_the_batches_match_the_view);
	RUN(over_the_budget_no_rows);
	RUN(spill_unwritable_no_rows);
	RUN(value_pool_whole_ids_in_order);
	return check_summary();
}
