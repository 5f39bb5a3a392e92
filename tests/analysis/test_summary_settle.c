/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The deferred counting of the load (analysis/load/latency_hist.c,
 * record_summary.c) against naive references, on random inputs (fixed
 * seeds, tests/lib/check.h's xorshift):
 *
 * - ana_radix_sort: a stable sort by exactly the low `bits` bits (every
 *   width 0..64), the rest of a word riding along, against qsort by
 *   (key, position);
 * - ana_latency_hist_map_settle: each group's histogram against the sorted
 *   (group, latency) pairs counted the slow way;
 * - the summaries' settle step (ana_record_summary_count, then _settle and
 *   _write): the prefetch_stat rows (the loads kept for later by PC group,
 *   the others by (group, data object)), branch_stat, mem_level_stat and
 *   latency_bucket rows against sums taken record by record.
 *
 * Sizes cross the powers of two (0, 1, 2^k - 1, 2^k, 2^k + 1 for k up to
 * 17): the number of words sorted, of records, of groups (which sets the
 * sort's width and the arrays' growth from 16), and the pending buffers'
 * limits (2^16 loads, 2^20 latencies); every combination of a load's
 * latency (none, even, odd, 0, 65535), events, recently-fetched and
 * late-prefetch bits and data object comes up.
 *
 * reported_capture is issue 30's case: a group's load with latency 0 (a
 * pending word with bit 32 set) sorted after a higher group's untimed one
 * when the sort took 33 bits, so the array was sized from the wrong group.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ana/latency_hist.h"
#include "record_summary.h"
#include "spe/row_sink.h"
#include "spe/spe.h"

static uint64_t rng = 0x853c49e6748fea9bull;
static uint32_t rnd(uint32_t n)
{
	return (uint32_t)(check_xorshift(&rng) % n);
}

/* 0, 1, then 2^k - 1, 2^k, 2^k + 1 for k = 1..17 (2 appears twice: harmless). */
static size_t boundary_sizes(size_t *out)
{
	size_t n = 0;
	out[n++] = 0;
	out[n++] = 1;
	for (unsigned k = 1; k <= 17; k++) {
		out[n++] = ((size_t)1 << k) - 1;
		out[n++] = (size_t)1 << k;
		out[n++] = ((size_t)1 << k) + 1;
	}
	return n;
}

/* ---- the radix sort ---- */

struct keyed {
	uint64_t key;
	size_t at;
};

static int by_key_then_position(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->at > y->at) - (x->at < y->at);
}

static uint64_t low_mask(unsigned bits)
{
	return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

/* A word for a sort of @p bits bits: random, from a few (duplicates), an extreme, or a key with random bits above. */
static uint64_t sort_word(unsigned bits, const uint64_t *few)
{
	uint64_t r = check_xorshift(&rng), mask = low_mask(bits);
	switch (rnd(6)) {
	case 0:
		return few[rnd(5)];
	case 1: {
		static const uint64_t extremes[] = { 0, UINT64_MAX, 1, UINT64_C(1) << 63, UINT64_C(1) << 32,
						     UINT32_MAX };
		uint64_t e = extremes[rnd(6)];
		return rnd(2) ? e : (e & mask) | (rnd(2) ? ~mask : 0);
	}
	case 2: /* the key's top bit and the bit above it vary: what a sort one digit too wide orders by */
		return (few[rnd(5)] & mask & ~(UINT64_C(1) << (bits ? bits - 1 : 0))) |
		       (uint64_t)rnd(2) << (bits ? bits - 1 : 0) | (bits < 64 ? (uint64_t)rnd(2) << bits : 0);
	case 3:
		return r & mask;
	default:
		return r;
	}
}

/* Sort @p n random words by @p bits bits both ways; 1 if they agree word for word. */
static int sort_agrees(size_t n, unsigned bits, uint64_t *a, uint64_t *tmp, uint64_t *want, struct keyed *k)
{
	uint64_t few[5];
	for (int i = 0; i < 5; i++)
		few[i] = check_xorshift(&rng);
	uint64_t mask = low_mask(bits);
	for (size_t i = 0; i < n; i++) {
		a[i] = sort_word(bits, few);
		k[i] = (struct keyed){ a[i] & mask, i };
	}
	qsort(k, n, sizeof *k, by_key_then_position);
	for (size_t i = 0; i < n; i++)
		want[i] = a[k[i].at];
	const uint64_t *got = ana_radix_sort(a, tmp, n, bits);
	if (got != a && got != tmp)
		return 0;
	return n == 0 || !memcmp(got, want, n * sizeof *want);
}

TEST(radix_sort_is_a_stable_sort_by_exactly_its_bits)
{
	size_t sizes[64], n_sizes = boundary_sizes(sizes), most = (1u << 17) + 1;
	uint64_t *a = malloc(most * sizeof *a), *tmp = malloc(most * sizeof *tmp), *want = malloc(most * sizeof *want);
	struct keyed *k = malloc(most * sizeof *k);
	CHECK(a && tmp && want && k);
	if (!a || !tmp || !want || !k)
		return;
	/* every width on the small sizes, the digit edges and the callers' widths on all */
	static const unsigned wide[] = { 1, 10, 11, 12, 17, 21, 22, 23, 32, 33, 34, 44, 49, 55, 63, 64 };
	int bad = 0, sorts = 0;
	for (size_t s = 0; s < n_sizes; s++) {
		int all = sizes[s] <= 1025;
		for (unsigned i = 0; i < (all ? 65u : sizeof wide / sizeof *wide); i++) {
			unsigned bits = all ? i : wide[i];
			sorts++;
			if (!sort_agrees(sizes[s], bits, a, tmp, want, k) && bad++ < 5)
				printf("  %zu words by %u bits: not a stable sort by those bits\n", sizes[s], bits);
		}
	}
	CHECK_INT_EQ(bad, 0);
	CHECK(sorts > 2000);
	free(a);
	free(tmp);
	free(want);
	free(k);
}

/* ---- the latency histograms' settle ---- */

struct pair {
	uint32_t group;
	int32_t latency;
};

static int by_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return (x->latency > y->latency) - (x->latency < y->latency);
}

static int32_t random_latency(void)
{
	static const int32_t edges[] = { LATENCY_NONE, 0, 1, 2, 65534, 65535 };
	return rnd(3) ? (int32_t)rnd(65536) : edges[rnd(6)];
}

/* @p records (group, latency) pairs over @p groups groups through the deferred counting; 1 if every histogram is right. */
static int latency_settle_agrees(uint32_t groups, size_t records)
{
	struct latency_hist_map g = { 0 };
	for (uint32_t i = 0; i < groups; i++) {
		struct latency_key key = { { i, 0, 1 } };
		if (ana_latency_group_of(&g, &key) != i)
			return 0;
	}
	struct pair *p = malloc((records + 1) * sizeof *p);
	if (!p)
		return 0;
	int ok = 1;
	for (size_t i = 0; i < records && ok; i++) {
		/* the last group often: the widest word of the sort */
		p[i].group = groups ? (rnd(4) ? rnd(groups) : groups - 1) : 0;
		p[i].latency = random_latency();
		ok = ana_latency_hist_map_count(&g, p[i].group, p[i].latency) == 0;
	}
	ok = ok && ana_latency_hist_map_settle(&g) == 0 && g.n_pending == 0;
	qsort(p, records, sizeof *p, by_pair);
	/* each group's slots by latency (the untimed first) are the runs of the sorted pairs */
	uint64_t *slots = malloc(65538 * sizeof *slots), pairs = 0;
	size_t at = 0;
	for (uint32_t grp = 0; grp < groups && ok && slots; grp++) {
		uint32_t n = ana_latency_hist_sorted(&ana_latency_group(&g, grp)->hist, slots);
		for (uint32_t s = 0; s < n && ok; s++) {
			size_t run = 0;
			while (at + run < records && p[at + run].group == grp && p[at + run].latency == p[at].latency)
				run++;
			ok = run > 0 && latency_slot_latency(slots[s]) == p[at].latency &&
			     latency_slot_count(slots[s]) == run;
			at += run;
			pairs++;
		}
		ok = ok && (at == records || p[at].group != grp); /* no pair left out of the group */
	}
	ok = ok && slots && at == records && g.pairs == pairs;
	free(slots);
	free(p);
	ana_latency_hist_map_fini(&g);
	return ok;
}

TEST(latency_settle_matches_naive_counts)
{
	size_t sizes[64], n_sizes = boundary_sizes(sizes);
	int bad = 0;
	/* groups across the powers of two (the sort's width is 17 + their bit length), records likewise */
	for (size_t s = 0; s < n_sizes; s++) {
		uint32_t groups = sizes[s] ? (uint32_t)sizes[s] : 1;
		size_t records = sizes[(s * 7 + 3) % n_sizes];
		if (!latency_settle_agrees(groups, records) && bad++ < 5)
			printf("  %u groups, %zu records: a histogram differs\n", groups, records);
		if (!latency_settle_agrees(groups, sizes[s]) && bad++ < 5)
			printf("  %u groups, %zu records: a histogram differs\n", groups, sizes[s]);
	}
	/* across the pending buffer's limit (2^20 words: a settle in the middle) */
	for (size_t records = ((size_t)1 << 20) - 1; records <= ((size_t)1 << 20) + 1; records++)
		if (!latency_settle_agrees(70000, records) && bad++ < 5)
			printf("  70000 groups, %zu records: a histogram differs\n", records);
	CHECK_INT_EQ(bad, 0);
}

/* ---- the summaries' settle ---- */

#define MIDR_N1 0x410fd0c0u /* Neoverse N1: names a late-prefetch event bit (facts.h) */

/* A raw op type (`codes` bits 0-9) of class @p cls, not atomic; the first spe_op_decode gives. */
static unsigned op_raw_of(unsigned cls)
{
	for (unsigned raw = 0; raw < 1024; raw++) {
		uint8_t c;
		uint32_t flags;
		uint16_t evl;
		spe_op_decode((uint8_t)(raw >> 8), (uint8_t)raw, &c, &flags, &evl);
		if (c == cls && !(flags & SPE_OPF(ATOMIC)))
			return raw;
	}
	return 0;
}

/* A summary's rows, as sums taken one record at a time (the reference) or as the sink got them. */
struct pf_sum {
	uint64_t loads, timed, total_latency, late_known, late, late_timed, late_latency, evented, fetched;
};
struct br_sum {
	uint64_t branches, evented, mispredicted, not_taken;
};
struct lv_sum {
	uint64_t loads, timed, total_latency;
};
struct bk_sum {
	uint64_t samples, total_latency;
};

#define OBJECTS 3 /* data objects 0 (none), 1, 2 */

struct sums {
	struct pf_sum *pf;     /* [group * OBJECTS + object] */
	struct br_sum *br;     /* [group] */
	struct lv_sum lv[SUMMARY_LEVELS];
	struct bk_sum bk[4][SUMMARY_BUCKETS]; /* no op, load, store, branch */
	size_t rows;           /* rows the sink got */
	int bad_row;           /* a row the reference has no place for, or twice */
	uint32_t groups;
};

static unsigned bucket_index(const char *op_class)
{
	return !op_class ? 0 : !strcmp(op_class, "load") ? 1 : !strcmp(op_class, "store") ? 2 : 3;
}

static unsigned bucket_of_latency(uint32_t latency)
{
	unsigned b = 0;
	while (latency >> b)
		b++;
	return b; /* 0, then k + 1 for [2^k, 2^(k+1)) */
}

static int take_prefetch(void *ctx, const struct spe_row_prefetch_stat *rows, size_t n)
{
	struct sums *s = ctx;
	for (size_t i = 0; i < n; i++, s->rows++) {
		const struct spe_row_prefetch_stat *r = &rows[i];
		if (r->pc >= s->groups || r->data_object_id < 0 || r->data_object_id >= OBJECTS) {
			s->bad_row = 1;
			continue;
		}
		struct pf_sum *p = &s->pf[r->pc * OBJECTS + (uint64_t)r->data_object_id];
		if (p->loads || !r->loads) {
			s->bad_row = 1;
			continue;
		}
		*p = (struct pf_sum){ r->loads,
				      r->timed,
				      r->total_latency,
				      (uint64_t)r->has_late,
				      r->late_prefetch,
				      (uint64_t)r->has_late_latency,
				      r->late_latency,
				      (uint64_t)r->has_events,
				      r->recently_fetched };
	}
	return 0;
}

static int take_branches(void *ctx, const struct spe_row_branch_stat *rows, size_t n)
{
	struct sums *s = ctx;
	for (size_t i = 0; i < n; i++, s->rows++) {
		const struct spe_row_branch_stat *r = &rows[i];
		if (r->pc >= s->groups || s->br[r->pc].branches || !r->branches) {
			s->bad_row = 1;
			continue;
		}
		s->br[r->pc] = (struct br_sum){ r->branches, (uint64_t)r->has_events, r->mispredicted, r->not_taken };
	}
	return 0;
}

static int take_levels(void *ctx, const struct spe_row_mem_level_stat *rows, size_t n)
{
	struct sums *s = ctx;
	for (size_t i = 0; i < n; i++, s->rows++) {
		if (rows[i].mem_level < 0 || rows[i].mem_level >= SUMMARY_LEVELS || s->lv[rows[i].mem_level].loads) {
			s->bad_row = 1;
			continue;
		}
		s->lv[rows[i].mem_level] = (struct lv_sum){ rows[i].loads, rows[i].timed, rows[i].total_latency };
	}
	return 0;
}

static int take_buckets(void *ctx, const struct spe_row_latency_bucket *rows, size_t n)
{
	struct sums *s = ctx;
	for (size_t i = 0; i < n; i++, s->rows++) {
		unsigned b = bucket_of_latency((uint32_t)rows[i].latency_lo);
		if (b >= SUMMARY_BUCKETS || s->bk[bucket_index(rows[i].op_class)][b].samples) {
			s->bad_row = 1;
			continue;
		}
		s->bk[bucket_index(rows[i].op_class)][b] = (struct bk_sum){ rows[i].samples, rows[i].total_latency };
	}
	return 0;
}

/* The sink's one entry point: the summaries' rows, each table to its check. */
static int take_rows(void *ctx, enum spe_table table, const void *rows, size_t n)
{
	switch (table) {
	case SPE_TABLE_MEM_LEVEL_STAT: return take_levels(ctx, rows, n);
	case SPE_TABLE_LATENCY_BUCKET: return take_buckets(ctx, rows, n);
	case SPE_TABLE_BRANCH_STAT: return take_branches(ctx, rows, n);
	case SPE_TABLE_PREFETCH_STAT: return take_prefetch(ctx, rows, n);
	default: return 0;
	}
}

/* Row counts of the reference: the rows the summary must write. */
static size_t reference_rows(const struct sums *want)
{
	size_t rows = 0;
	for (size_t i = 0; i < (size_t)want->groups * OBJECTS; i++)
		rows += want->pf[i].loads > 0;
	for (size_t g = 0; g < want->groups; g++)
		rows += want->br[g].branches > 0;
	for (int l = 0; l < SUMMARY_LEVELS; l++)
		rows += want->lv[l].loads > 0;
	for (int c = 0; c < 4; c++)
		for (int b = 0; b < SUMMARY_BUCKETS; b++)
			rows += want->bk[c][b].samples > 0;
	return rows;
}

/* The reference's sums for one record (class 0 none, 1 load, 2 store, 3 branch). */
static void reference_count(struct sums *want, unsigned cls, const struct spe_record *rec, uint32_t group,
			    int64_t object, uint32_t midr, unsigned level)
{
	int timed = !!(rec->has & SPE_HAS_TOTAL_LATENCY), evented = !!(rec->has & SPE_HAS_EVENTS);
	uint64_t lat = timed ? rec->total_latency : 0;
	if (timed) {
		struct bk_sum *k = &want->bk[cls][bucket_of_latency(rec->total_latency)];
		k->samples++;
		k->total_latency += lat;
	}
	if (cls == 1) {
		struct lv_sum *l = &want->lv[level];
		l->loads++;
		l->timed += (uint64_t)timed;
		l->total_latency += lat;
		struct pf_sum *p = &want->pf[(size_t)group * OBJECTS + (size_t)object];
		p->loads++;
		p->timed += (uint64_t)timed;
		p->total_latency += lat;
		p->evented |= (uint64_t)evented; /* has_events */
		p->fetched += evented && (rec->events >> SPE_EV_RECENTLY_FETCHED & 1);
		if (evented && midr == MIDR_N1) {
			p->late_known = 1; /* has_late */
			if (rec->events >> 12 & 1) { /* N1's LATE-PREFETCH (facts.h) */
				p->late++;
				p->late_timed |= (uint64_t)timed; /* has_late_latency */
				p->late_latency += lat;
			}
		}
	}
	if (cls == 3) {
		struct br_sum *b = &want->br[group];
		b->branches++;
		b->evented |= (uint64_t)evented;
		b->mispredicted += evented && (rec->events >> SPE_EV_MISPREDICTED & 1);
		b->not_taken += evented && (rec->events >> SPE_EV_NOT_TAKEN & 1);
	}
}

/*
 * @p records random records (loads mostly) over @p groups latency groups
 * counted, settled and written; 1 if every row is the reference's.  With
 * @p scripted, the records are issue 30's instead (see reported_capture).
 */
static int summary_agrees(uint32_t groups, size_t records, int scripted)
{
	struct record_summary *s = calloc(1, sizeof *s);
	struct latency_hist_map lg = { 0 };
	struct sums want = { .groups = groups }, got = { .groups = groups };
	want.pf = calloc((size_t)groups * OBJECTS, sizeof *want.pf);
	got.pf = calloc((size_t)groups * OBJECTS, sizeof *got.pf);
	want.br = calloc(groups, sizeof *want.br);
	got.br = calloc(groups, sizeof *got.br);
	int ok = s && want.pf && got.pf && want.br && got.br;
	if (s)
		ana_record_summary_init(s);
	/* group g's key: pc g (the rows give it back), insn 0, has_pc */
	for (uint32_t g = 0; g < groups && ok; g++) {
		struct latency_key key = { { g, 0, 1 } };
		ok = ana_latency_group_of(&lg, &key) == g;
	}
	const unsigned op_raw[4] = { 0, op_raw_of(SPE_OP_CLASS_LOAD), op_raw_of(SPE_OP_CLASS_STORE),
				     op_raw_of(SPE_OP_CLASS_BRANCH) };
	for (size_t i = 0; i < records && ok; i++) {
		struct spe_record rec;
		memset(&rec, 0, sizeof rec);
		unsigned cls = rnd(8) < 5 ? 1 : rnd(4);
		uint32_t group = rnd(4) ? rnd(groups) : groups - 1;
		int64_t object = rnd(5) ? 0 : 1 + (int64_t)rnd(OBJECTS - 1);
		uint32_t midr = rnd(2) ? MIDR_N1 : 0;
		/* the flags cycle through every combination; the latency and events are random beside */
		unsigned combo = (unsigned)i;
		if (combo & 1) {
			rec.has |= SPE_HAS_TOTAL_LATENCY;
			rec.total_latency = (uint16_t)(combo & 2 ? random_latency() | 1 : random_latency() & ~1);
		}
		if (combo & 4) {
			rec.has |= SPE_HAS_EVENTS;
			rec.events = check_xorshift(&rng);
		}
		if (scripted) { /* issue 30: group 0's load of latency 0, then a higher group's untimed load */
			cls = 1;
			object = 0;
			midr = 0;
			group = i % 2 ? groups - 1 : 0;
			rec.has = i % 2 ? 0 : SPE_HAS_TOTAL_LATENCY;
			rec.total_latency = 0;
		}
		unsigned level = rnd(SUMMARY_LEVELS);
		uint64_t codes = (uint64_t)level << SPE_CODES_MEM_LEVEL_SHIFT;
		if (cls)
			codes |= SPE_CODES_HAS_OP | op_raw[cls];
		struct record_where w = { .cpu = 0, .pid = -1, .tid = -1, .midr = midr, .object_id = object };
		ok = ana_record_summary_count(s, &rec, codes, group, &w) == 0;
		reference_count(&want, cls, &rec, group, object, midr, level);
	}
	const struct spe_row_sink sink = { .ctx = &got,
					   .tables = 1u << SPE_TABLE_MEM_LEVEL_STAT | 1u << SPE_TABLE_LATENCY_BUCKET |
						     1u << SPE_TABLE_BRANCH_STAT | 1u << SPE_TABLE_PREFETCH_STAT,
					   .rows = take_rows };
	ok = ok && ana_record_summary_settle(s) == 0 && ana_record_summary_write(s, &sink, 1, &lg) == 0;
	ok = ok && !got.bad_row && got.rows == reference_rows(&want);
	ok = ok && !memcmp(got.pf, want.pf, (size_t)groups * OBJECTS * sizeof *got.pf);
	ok = ok && !memcmp(got.br, want.br, groups * sizeof *got.br);
	ok = ok && !memcmp(got.lv, want.lv, sizeof got.lv) && !memcmp(got.bk, want.bk, sizeof got.bk);
	if (s)
		ana_record_summary_fini(s);
	free(s);
	ana_latency_hist_map_fini(&lg);
	free(want.pf);
	free(got.pf);
	free(want.br);
	free(got.br);
	return ok;
}

TEST(summary_settle_matches_naive_sums)
{
	size_t sizes[64], n_sizes = boundary_sizes(sizes);
	int bad = 0;
	for (size_t s = 0; s < n_sizes; s++) {
		uint32_t groups = sizes[s] ? (uint32_t)sizes[s] : 1;
		/* records across the powers of two too, and across the pending loads' limit (2^16) */
		size_t records[2] = { sizes[(s * 7 + 3) % n_sizes], sizes[s] };
		for (int r = 0; r < 2; r++)
			if (!summary_agrees(groups, records[r], 0) && bad++ < 5)
				printf("  %u groups, %zu records: the summaries' rows differ\n", groups, records[r]);
	}
	for (size_t records = 3 * ((size_t)1 << 16) - 1; records <= 3 * ((size_t)1 << 16) + 1; records++)
		if (!summary_agrees(33, records, 0) && bad++ < 5)
			printf("  33 groups, %zu records: the summaries' rows differ\n", records);
	CHECK_INT_EQ(bad, 0);
}

/* Issue 30: a capture whose prefetch array was sized from the wrong group (an overflow under ASan). */
TEST(reported_capture)
{
	CHECK(summary_agrees(101, 480, 1));
	CHECK(summary_agrees(17, 2, 1));
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0); /* what failed is printed before a sanitizer stops the run */
	RUN(reported_capture);
	RUN(radix_sort_is_a_stable_sort_by_exactly_its_bits);
	RUN(latency_settle_matches_naive_counts);
	RUN(summary_settle_matches_naive_sums);
	return check_summary();
}
