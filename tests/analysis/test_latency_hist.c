/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The latency histograms behind pc_latency, hot_pc and hot_symbol
 * (analysis/load/latency_hist.c): counts, totals and nearest-rank
 * percentiles checked against a brute-force sort of every sample, on random
 * groups (fixed seed) and on the edges: no timed sample, one sample,
 * latencies 0 and 65535, the same latency split over several slots; and
 * the deferred counting the loader uses (ana_latency_hist_map_count, settled in
 * bulk), across its buffer's capacity.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ana/latency_hist.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint32_t rnd(uint32_t n)
{
	return (uint32_t)(check_xorshift(&rng) % n);
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* The definition in docs/schema.md, computed the slow way. */
static void brute_force(int32_t *lat, size_t n, struct latency_stats *out)
{
	memset(out, 0, sizeof *out);
	out->p50 = out->p90 = out->p99 = -1;
	size_t timed = 0;
	for (size_t i = 0; i < n; i++) {
		out->samples++;
		if (lat[i] != LATENCY_NONE) {
			lat[timed++] = lat[i];
			out->total_latency += (uint64_t)lat[i];
		}
	}
	out->timed = timed;
	if (!timed)
		return;
	qsort(lat, timed, sizeof *lat, cmp_i32);
	const unsigned pct[3] = { 50, 90, 99 };
	int32_t *dst[3] = { &out->p50, &out->p90, &out->p99 };
	for (int p = 0; p < 3; p++) {
		size_t rank = (timed * pct[p] + 99) / 100; /* smallest k with k * 100 >= timed * N */
		*dst[p] = lat[rank - 1];
	}
}

static int same_stats(const struct latency_stats *a, const struct latency_stats *b)
{
	return a->samples == b->samples && a->timed == b->timed && a->total_latency == b->total_latency &&
	       a->p50 == b->p50 && a->p90 == b->p90 && a->p99 == b->p99;
}

static void print_stats(const char *what, const struct latency_stats *s)
{
	printf("  %s: samples %llu timed %llu total %llu p50 %d p90 %d p99 %d\n", what,
	       (unsigned long long)s->samples, (unsigned long long)s->timed, (unsigned long long)s->total_latency,
	       s->p50, s->p90, s->p99);
}

TEST(random_groups_match_brute_force)
{
	enum { GROUPS = 3000, MAX_SAMPLES = 700 };
	struct latency_hist_map g = { 0 };
	int32_t *values[GROUPS];
	size_t counts[GROUPS];
	for (int k = 0; k < GROUPS; k++) {
		struct latency_key key = { { (uint64_t)k * 4 + 0xaaaa0000ull, (uint64_t)k % 7, (uint64_t)k << 1 | 1 } };
		CHECK_INT_EQ(ana_latency_group_of(&g, &key), k);
		counts[k] = 1 + rnd(MAX_SAMPLES);
		values[k] = malloc(counts[k] * sizeof *values[k]);
		/* a narrow group, a wide one, one with NULL latencies, and the extremes */
		uint32_t span = k % 3 == 0 ? 4 : k % 3 == 1 ? 400 : 65536;
		for (size_t i = 0; i < counts[k]; i++) {
			int32_t lat = rnd(10) == 0 && k % 5 == 0 ? LATENCY_NONE : (int32_t)rnd(span);
			values[k][i] = lat;
			/* half the groups through the loader's deferred path */
			if (k % 2)
				CHECK_INT_EQ(ana_latency_hist_map_add(&g, (uint32_t)k, lat, 1), 0);
			else
				CHECK_INT_EQ(ana_latency_hist_map_count(&g, (uint32_t)k, lat), 0);
		}
	}
	CHECK_INT_EQ(ana_latency_hist_map_settle(&g), 0);
	CHECK_INT_EQ(g.n_pending, 0);
	CHECK_INT_EQ(ana_latency_hist_map_n(&g), GROUPS);
	/* a key seen before maps to its group */
	struct latency_key again = { { 17 * 4 + 0xaaaa0000ull, 17 % 7, 17 << 1 | 1 } };
	CHECK_INT_EQ(ana_latency_group_of(&g, &again), 17);
	uint64_t pairs = 0;
	uint64_t *scratch = malloc((MAX_SAMPLES + 1) * sizeof *scratch);
	int bad = 0;
	for (int k = 0; k < GROUPS; k++) {
		struct latency_stats want, got;
		pairs += ana_latency_group(&g, k)->hist.n;
		ana_latency_hist_stats(&ana_latency_group(&g, k)->hist, scratch, &got);
		brute_force(values[k], counts[k], &want);
		if (!same_stats(&want, &got) && bad++ < 3) {
			printf("  group %d\n", k);
			print_stats("want", &want);
			print_stats("got", &got);
		}
		free(values[k]);
	}
	CHECK_INT_EQ(bad, 0);
	CHECK_INT_EQ(g.pairs, pairs);
	free(scratch);
	ana_latency_hist_map_fini(&g);
}

TEST(edges)
{
	struct latency_hist_map g = { 0 };
	struct latency_key k0 = { { 0, 0, 0 } }, k1 = { { 1, 0, 0 } }, k2 = { { 2, 0, 0 } };
	CHECK_INT_EQ(ana_latency_group_of(&g, &k0), 0);
	CHECK_INT_EQ(ana_latency_group_of(&g, &k1), 1);
	CHECK_INT_EQ(ana_latency_group_of(&g, &k2), 2);
	/* only records without a latency: no percentiles, no total */
	CHECK_INT_EQ(ana_latency_hist_map_add(&g, 0, LATENCY_NONE, 5), 0);
	/* one sample at each extreme of the 16-bit counter, weighted */
	CHECK_INT_EQ(ana_latency_hist_map_add(&g, 1, 0, 1), 0);
	CHECK_INT_EQ(ana_latency_hist_map_add(&g, 1, 65535, 3), 0);
	CHECK_INT_EQ(ana_latency_hist_map_add(&g, 2, 42, 1), 0);
	uint64_t scratch[4];
	struct latency_stats s;
	ana_latency_hist_stats(&ana_latency_group(&g, 0)->hist, scratch, &s);
	CHECK_INT_EQ(s.samples, 5);
	CHECK_INT_EQ(s.timed, 0);
	CHECK_INT_EQ(s.total_latency, 0);
	CHECK_INT_EQ(s.p50, -1);
	CHECK_INT_EQ(s.p99, -1);
	ana_latency_hist_stats(&ana_latency_group(&g, 1)->hist, scratch, &s);
	CHECK_INT_EQ(s.samples, 4);
	CHECK_INT_EQ(s.total_latency, 3 * 65535);
	CHECK_INT_EQ(s.p50, 65535); /* 1 of 4 at 0 is 25 %, short of 50 % */
	CHECK_INT_EQ(s.p99, 65535);
	ana_latency_hist_stats(&ana_latency_group(&g, 2)->hist, scratch, &s);
	CHECK_INT_EQ(s.p50, 42);
	CHECK_INT_EQ(s.p90, 42);
	CHECK_INT_EQ(g.pairs, 4);
	ana_latency_hist_map_fini(&g);
}

/* The PC rollup feeds rows of several sources in latency order, repeats adjacent. */
TEST(sorted_with_repeats_equals_merged)
{
	uint64_t split[] = { latency_slot_make(LATENCY_NONE, 2), latency_slot_make(3, 1), latency_slot_make(3, 4),
			     latency_slot_make(9, 2), latency_slot_make(9, 1), latency_slot_make(100, 2) };
	uint64_t merged[] = { latency_slot_make(LATENCY_NONE, 2), latency_slot_make(3, 5), latency_slot_make(9, 3),
			      latency_slot_make(100, 2) };
	struct latency_stats a, b;
	ana_latency_stats_sorted(split, 6, &a);
	ana_latency_stats_sorted(merged, 4, &b);
	CHECK(same_stats(&a, &b));
	CHECK_INT_EQ(a.samples, 12);
	CHECK_INT_EQ(a.timed, 10);
	CHECK_INT_EQ(a.total_latency, 3 * 5 + 9 * 3 + 100 * 2);
	CHECK_INT_EQ(a.p50, 3);  /* 5 of 10 */
	CHECK_INT_EQ(a.p90, 100); /* 8 of 10 at 9 or below */
}

/* More records than the pending buffer holds: settled along the way and at the end. */
TEST(deferred_counts_across_the_buffer)
{
	struct latency_hist_map g = { 0 };
	enum { N = 2500000 };
	for (uint64_t k = 0; k < 3; k++) {
		struct latency_key key = { { k, 0, 0 } };
		CHECK_INT_EQ(ana_latency_group_of(&g, &key), (int64_t)k);
	}
	uint64_t total0 = 0;
	for (uint32_t i = 0; i < N; i++) {
		if (i % 3 == 0)
			total0 += i % 1000;
		if (ana_latency_hist_map_count(&g, i % 3, i % 3 == 2 ? LATENCY_NONE : (int32_t)(i % 1000)) < 0)
			break;
	}
	CHECK(g.n_pending < N);
	CHECK_INT_EQ(ana_latency_hist_map_settle(&g), 0);
	uint64_t *scratch = malloc(1001 * sizeof *scratch);
	struct latency_stats s;
	ana_latency_hist_stats(&ana_latency_group(&g, 0)->hist, scratch, &s);
	CHECK_INT_EQ(s.samples, (N + 2) / 3);
	CHECK_INT_EQ(s.total_latency, total0);
	CHECK_INT_EQ(ana_latency_group(&g, 0)->hist.n, 1000); /* 3m mod 1000 takes every value */
	ana_latency_hist_stats(&ana_latency_group(&g, 2)->hist, scratch, &s);
	CHECK_INT_EQ(s.samples, N / 3);
	CHECK_INT_EQ(s.timed, 0);
	CHECK_INT_EQ(ana_latency_group(&g, 2)->hist.n, 1);
	free(scratch);
	ana_latency_hist_map_fini(&g);
}

int main(void)
{
	RUN(random_groups_match_brute_force);
	RUN(edges);
	RUN(sorted_with_repeats_equals_merged);
	RUN(deferred_counts_across_the_buffer);
	return check_summary();
}
