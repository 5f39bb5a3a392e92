/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The distinct values of many small sets (a cache line's CPUs, threads,
 * functions and data objects; a page's data objects): each set keeps its
 * first value of a kind in place and the others in a run of its own in
 * one shared array, in the order they came, so checking a value is one
 * scan of adjacent words, not a walk over scattered nodes (a cache miss
 * each: 3 % of a 10 M-record load).  A run that fills moves to the end
 * with twice the room; most sets have one value of a kind and no run.
 */
#ifndef SPE_VALUE_POOL_H
#define SPE_VALUE_POOL_H

#include <stddef.h>
#include <stdint.h>

/* What a value is: a set's run holds values of every kind. */
enum value_kind { VALUE_CPU, VALUE_TID, VALUE_SYMBOL, VALUE_OBJECT };

/* A value of a run, or a run's head (value: its room, kind: the values it holds). */
struct pool_entry {
	int64_t value;
	uint32_t kind; /* enum value_kind */
	uint32_t unused;
};

struct value_pool {
	struct pool_entry *entries; /* runs: a head, then its values; [0] unused */
	size_t n, cap;
};

/*
 * Add @p value of @p kind to a set if it is not there: its
 * first value of the kind is *@p first (@p seen: it has one), the others
 * are in its run *@p run (0: none yet).  1 if it was new, 0 if not, -1
 * without memory.
 */
int ana_value_pool_add(struct value_pool *p, uint32_t *run, unsigned kind, int64_t value, int seen, int64_t *first);

/*
 * A set's values of @p kind (its first @p first if @p seen, the others in
 * run @p run) into @p out, in first-seen order; their number.  @p out has
 * room for the set's values and one.
 */
size_t ana_value_pool_list(const struct value_pool *p, uint32_t run, unsigned kind, int seen, int64_t first,
			   int64_t *out);

/* The most values a set of @p p has beyond its firsts. */
size_t ana_value_pool_widest(const struct value_pool *p);

void ana_value_pool_fini(struct value_pool *p);

#endif
