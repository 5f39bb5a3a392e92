/* SPDX-License-Identifier: Apache-2.0 */
#include "ana/latency_hist.h"
#include "util/grow.h"
#include "util/table_alloc.h"

#include <stdlib.h>
#include <string.h>

#define LAT_BITS 17
#define LAT_MASK ((UINT64_C(1) << LAT_BITS) - 1)
#define COUNT_MAX (UINT64_MAX >> LAT_BITS)

/* A group is its key, then its histogram: util_map's entry of the key, its value after. */
_Static_assert(sizeof(struct latency_group) == sizeof(struct latency_key) + sizeof(struct latency_hist) &&
		       offsetof(struct latency_group, hist) == sizeof(struct latency_key),
	       "struct latency_group is not a util_map entry of its key and histogram");

int64_t ana_latency_group_of(struct latency_hist_map *g, const struct latency_key *key)
{
	if (!g->map.entry_size) /* a zeroed struct */
		util_map_init(&g->map, sizeof(struct latency_key), sizeof(struct latency_hist));
	return util_map_add(&g->map, key, util_map_hash(&g->map, key), NULL);
}

void ana_latency_group_prefetch(const struct latency_hist_map *g, const struct latency_key *key)
{
	util_map_prefetch(&g->map, util_hash_words(key->w, 3));
}

int64_t ana_latency_group_peek(const struct latency_hist_map *g, const struct latency_key *key)
{
	return util_map_peek(&g->map, util_hash_words(key->w, 3));
}

/*
 * A histogram's slot of a latency code: not a util_map -- a histogram is a
 * few packed words (count << 17 | latency + 2, no key beside them) and there
 * are hundreds of thousands of them, 3.2 M (PC, latency) pairs at 10 M
 * gen_bench records: a map per histogram would take an entry and a slot for
 * each pair, about three times the memory.  Hashed with the tree's mixing
 * function.
 */
static uint32_t lat_slot(uint64_t lat_code, uint32_t cap)
{
	return (uint32_t)util_hash_mix(lat_code) & (cap - 1);
}

/* Insert a slot known to be absent (growing). */
static void put_new(uint64_t *slots, uint32_t cap, uint64_t slot)
{
	uint32_t i = lat_slot(slot & LAT_MASK, cap);
	while (slots[i])
		i = (i + 1) & (cap - 1);
	slots[i] = slot;
}

static int grow_hist(struct latency_hist *h)
{
	uint32_t cap = h->cap ? h->cap * 2 : 4;
	uint64_t *slots = calloc(cap, sizeof *slots);
	if (!slots)
		return -1;
	for (uint32_t i = 0; i < h->cap; i++)
		if (h->slots[i])
			put_new(slots, cap, h->slots[i]);
	free(h->slots);
	h->slots = slots;
	h->cap = cap;
	return 0;
}

int ana_latency_hist_map_add(struct latency_hist_map *g, uint32_t group, int32_t latency, uint64_t count)
{
	struct latency_hist *h = &ana_latency_group(g, group)->hist;
	uint64_t code = (uint64_t)(latency + 2) & LAT_MASK;
	if (h->cap) {
		for (uint32_t i = lat_slot(code, h->cap); h->slots[i]; i = (i + 1) & (h->cap - 1)) {
			if ((h->slots[i] & LAT_MASK) == code) {
				uint64_t c = (h->slots[i] >> LAT_BITS) + count;
				h->slots[i] = (c > COUNT_MAX ? COUNT_MAX : c) << LAT_BITS | code;
				return 0;
			}
		}
	}
	if ((h->n + 1) * 4 > h->cap * 3 && grow_hist(h) < 0)
		return -1;
	put_new(h->slots, h->cap, (count > COUNT_MAX ? COUNT_MAX : count) << LAT_BITS | code);
	h->n++;
	g->pairs++;
	return 0;
}

#define PENDING_MAX (1u << 20) /* 8 MB of pending words, twice (the sort's buffer) */

int ana_latency_hist_map_count(struct latency_hist_map *g, uint32_t group, int32_t latency)
{
	if (!g->sort_tmp) { /* both buffers, or neither: the sort needs the second */
		if (!g->pending && !(g->pending = malloc(PENDING_MAX * sizeof *g->pending)))
			return -1;
		if (!(g->sort_tmp = malloc(PENDING_MAX * sizeof *g->sort_tmp)))
			return -1;
	}
	g->pending[g->n_pending++] = (uint64_t)group << LAT_BITS | ((uint64_t)(latency + 2) & LAT_MASK);
	return g->n_pending == PENDING_MAX ? ana_latency_hist_map_settle(g) : 0;
}

uint64_t *ana_radix_sort(uint64_t *a, uint64_t *tmp, size_t n, unsigned bits)
{
	enum { DIGIT = 11, BUCKETS = 1 << DIGIT };
	size_t count[BUCKETS];
	if (bits > 64)
		bits = 64;
	for (unsigned shift = 0; shift < bits; shift += DIGIT) {
		/*
		 * The last digit holds only the bits left: a full one would
		 * order by the bits above the key too (3 digits reach bit 32
		 * of a 32-bit key), which are not the key.
		 */
		uint64_t mask = bits - shift < DIGIT ? (UINT64_C(1) << (bits - shift)) - 1 : BUCKETS - 1;
		unsigned digits = (unsigned)mask + 1;
		memset(count, 0, digits * sizeof *count);
		for (size_t i = 0; i < n; i++)
			count[(a[i] >> shift) & mask]++;
		size_t sum = 0;
		for (unsigned d = 0; d < digits; d++) {
			size_t c = count[d];
			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[count[(a[i] >> shift) & mask]++] = a[i];
		uint64_t *swap = a;
		a = tmp;
		tmp = swap;
	}
	return a;
}

int ana_latency_hist_map_settle(struct latency_hist_map *g)
{
	size_t n = g->n_pending;
	if (!n)
		return 0;
	unsigned bits = LAT_BITS;
	while (bits < 64 && (uint64_t)g->map.n >> (bits - LAT_BITS))
		bits++;
	uint64_t *sorted = ana_radix_sort(g->pending, g->sort_tmp, n, bits);
	/* equal words are adjacent: one add per (group, latency) run */
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && sorted[j] == sorted[i])
			j++;
		if (ana_latency_hist_map_add(g, (uint32_t)(sorted[i] >> LAT_BITS), latency_slot_latency(sorted[i]), j - i) < 0)
			return -1; /* out of memory: the load fails, the counts are lost with it */
		i = j;
	}
	g->n_pending = 0;
	return 0;
}

void ana_latency_hist_map_fini(struct latency_hist_map *g)
{
	free(g->pending);
	free(g->sort_tmp);
	for (uint32_t n = 0; n < ana_latency_hist_map_n(g); n++)
		free(ana_latency_group(g, n)->hist.slots);
	util_map_fini(&g->map);
	memset(g, 0, sizeof *g);
}

static int by_latency(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a & LAT_MASK, y = *(const uint64_t *)b & LAT_MASK;
	return (x > y) - (x < y);
}

void ana_latency_stats_sorted(const uint64_t *slots, size_t n, struct latency_stats *out)
{
	memset(out, 0, sizeof *out);
	out->p50 = out->p90 = out->p99 = -1;
	for (size_t i = 0; i < n; i++) {
		uint64_t count = latency_slot_count(slots[i]);
		int32_t lat = latency_slot_latency(slots[i]);
		out->samples += count;
		if (lat == LATENCY_NONE)
			continue;
		out->timed += count;
		out->total_latency += count * (uint64_t)lat;
	}
	/* nearest rank: the first latency whose running count reaches N % */
	static const unsigned pct[3] = { 50, 90, 99 };
	int32_t *dst[3] = { &out->p50, &out->p90, &out->p99 };
	uint64_t below = 0;
	unsigned next = 0;
	for (size_t i = 0; i < n && next < 3; i++) {
		if (latency_slot_latency(slots[i]) == LATENCY_NONE)
			continue;
		below += latency_slot_count(slots[i]);
		while (next < 3 && below * 100 >= out->timed * pct[next])
			*dst[next++] = latency_slot_latency(slots[i]);
	}
}

uint32_t ana_latency_hist_sorted(const struct latency_hist *h, uint64_t *out)
{
	uint32_t n = 0;
	LATENCY_HIST_FOREACH(h, i)
	out[n++] = h->slots[i];
	/* most histograms have a dozen slots: an insertion sort beats qsort's calls through a pointer */
	if (n > 32) {
		qsort(out, n, sizeof *out, by_latency);
		return n;
	}
	for (uint32_t i = 1; i < n; i++) {
		uint64_t v = out[i];
		uint32_t j = i;
		for (; j > 0 && (out[j - 1] & LAT_MASK) > (v & LAT_MASK); j--)
			out[j] = out[j - 1];
		out[j] = v;
	}
	return n;
}

void ana_latency_hist_stats(const struct latency_hist *h, uint64_t *scratch, struct latency_stats *out)
{
	ana_latency_stats_sorted(scratch, ana_latency_hist_sorted(h, scratch), out);
}
