/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Latency histograms by group: how many records of each group (a PC, a
 * function, ...) had each total latency.  The loader counts every record
 * into one of these (the pc_latency table), and the rollup that answers
 * hot_pc and hot_symbol merges them again.
 *
 * Memory grows with the distinct (group, latency) pairs, about 11 bytes
 * each, not with the records: a 16-bit latency counter bounds the pairs of
 * a group, and real programs have far fewer PCs than records.
 */
#ifndef SPE_LATENCY_HIST_H
#define SPE_LATENCY_HIST_H

#include <stddef.h>
#include <stdint.h>

#include "util/hash_map.h"

#define LATENCY_NONE (-1) /* a record without a total latency */

/*
 * One group's counts: open addressing over 64-bit slots, each
 * (count << 17 | (latency + 2)); 0 is an empty slot.
 */
struct latency_hist {
	uint64_t *slots;
	uint32_t cap, n;
};

/* A group's key: three words the caller defines (all zero is allowed). */
struct latency_key {
	uint64_t w[3];
};

struct latency_group {
	struct latency_key key;
	struct latency_hist hist;
};

/*
 * The groups: a util_map from the key to the histogram, so its entries are
 * struct latency_group, numbered in order of first appearance
 * (ana_latency_group).  A zeroed struct is an empty one.
 */
struct latency_hist_map {
	struct util_map map;
	uint64_t pairs; /* distinct (group, latency) pairs over all groups */
	/*
	 * Records counted but not yet in their histograms: (group << 17 |
	 * latency code) words, sorted and applied in bulk so each histogram is
	 * touched once per batch instead of once per record (over hundreds of
	 * thousands of PCs, a cache miss per record was a fifth of a load).
	 */
	uint64_t *pending, *sort_tmp;
	size_t n_pending;
};

/* The group number of @p key, created empty if new; -1 without memory. */
int64_t ana_latency_group_of(struct latency_hist_map *g, const struct latency_key *key);
/* Group @p n (0 .. ana_latency_hist_map_n - 1): its key and histogram. */
static inline struct latency_group *ana_latency_group(const struct latency_hist_map *g, size_t n)
{
	return (struct latency_group *)util_map_key(&g->map, n);
}
static inline uint32_t ana_latency_hist_map_n(const struct latency_hist_map *g)
{
	return (uint32_t)g->map.n;
}
/*
 * Hints for a lookup of @p key a little later, so its cache misses overlap
 * other work: _prefetch starts loading its index slot; _peek, some time
 * after, reads that slot and starts loading the group it names, whose
 * number it returns (-1 if none: the key may be new, or further along).
 */
void ana_latency_group_prefetch(const struct latency_hist_map *g, const struct latency_key *key);
int64_t ana_latency_group_peek(const struct latency_hist_map *g, const struct latency_key *key);
/*
 * LSD radix sort of @p n words by exactly their low @p bits bits (0..64;
 * stable: the rest of a word rides along, in the order it came), 11 bits a
 * pass, the last pass only the bits left; returns @p a or @p tmp, whichever
 * ends up holding the result.
 */
uint64_t *ana_radix_sort(uint64_t *a, uint64_t *tmp, size_t n, unsigned bits);
/* Count @p count records of @p latency (0..65535 or LATENCY_NONE) in group @p group. */
int ana_latency_hist_map_add(struct latency_hist_map *g, uint32_t group, int32_t latency, uint64_t count);
/* Count one record later (in bulk); call ana_latency_hist_map_settle() before reading the histograms. */
int ana_latency_hist_map_count(struct latency_hist_map *g, uint32_t group, int32_t latency);
/* Apply the pending counts.  0, or -1 without memory. */
int ana_latency_hist_map_settle(struct latency_hist_map *g);
void ana_latency_hist_map_fini(struct latency_hist_map *g);

/* Visit the non-empty slots of one histogram (unordered). */
#define LATENCY_HIST_FOREACH(h, i) for (uint32_t i = 0; i < (h)->cap; i++) if ((h)->slots[i])
static inline int32_t latency_slot_latency(uint64_t slot)
{
	return (int32_t)(slot & 0x1ffff) - 2;
}
static inline uint64_t latency_slot_count(uint64_t slot)
{
	return slot >> 17;
}

/*
 * What the hot_* views show of a group.  Percentiles are nearest-rank over
 * the timed samples: pN is the smallest latency L with at least N % of them
 * at or below L; -1 when no sample has a latency.
 */
struct latency_stats {
	uint64_t samples, timed;
	uint64_t total_latency;
	int32_t p50, p90, p99;
};

/*
 * Statistics of @p h.  @p scratch holds h->n words (the caller's buffer,
 * reused across groups); the histogram itself is not changed.
 */
void ana_latency_hist_stats(const struct latency_hist *h, uint64_t *scratch, struct latency_stats *out);

/* The slot words of @p h into @p out (room for h->n), by latency, the untimed first; returns how many. */
uint32_t ana_latency_hist_sorted(const struct latency_hist *h, uint64_t *out);

/* The same from @p n slot words sorted by latency (a repeated latency may appear twice). */
void ana_latency_stats_sorted(const uint64_t *slots, size_t n, struct latency_stats *out);
static inline uint64_t latency_slot_make(int32_t latency, uint64_t count)
{
	return count << 17 | (uint64_t)(latency + 2);
}

#endif
