/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The distinct values of many small sets (a cache line's CPUs, threads,
 * functions and data objects; a page's data objects): each set keeps its
 * first value of a kind in place and the others in one list threaded
 * through a shared array, 16 bytes a value.  Most sets have one value of a
 * kind, so most take no room here.
 */
#ifndef SPE_VALUE_POOL_H
#define SPE_VALUE_POOL_H

#include <stddef.h>
#include <stdint.h>

/* What a value is: a set's list holds values of every kind. */
enum value_kind { VALUE_CPU, VALUE_TID, VALUE_SYMBOL, VALUE_OBJECT };

/* A further distinct value of a set. */
struct pool_value {
	int64_t value;
	uint32_t next; /* the next in the set's list, 0 = none */
	uint32_t kind; /* enum value_kind */
};

struct value_pool {
	struct pool_value *values; /* [0] unused: 0 ends a list */
	size_t n, cap;
};

/*
 * Add @p value of @p kind to a set if it is not there: its first value of
 * the kind is *@p first (@p seen: it has one), the others are in the list
 * whose head is *@p more (newest first).  1 if it was new, 0 if not, -1
 * without memory.
 */
int ana_value_pool_add(struct value_pool *p, uint32_t *more, unsigned kind, int64_t value, int seen, int64_t *first);

/*
 * A set's values of @p kind (its first @p first if @p seen, the others in
 * the list from @p more) into @p out, in first-seen order; their number.
 * @p out has room for the pool's values and one.
 */
size_t ana_value_pool_list(const struct value_pool *p, uint32_t more, unsigned kind, int seen, int64_t first,
			   int64_t *out);

void ana_value_pool_free(struct value_pool *p);

#endif
