/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A set of disjoint address ranges [start, end), each with a 32-bit value,
 * kept in address order: the live JIT code maps of a process
 * (processes.c), where each new piece of code cuts the pieces it overlaps.
 * Sorted blocks of RANGE_SET_BLOCK ranges: finding, inserting and taking
 * out a range cost O(log n + RANGE_SET_BLOCK) whatever the order the
 * ranges come in (a sorted array would move half of it for each insert:
 * 100,000 code loads of a JIT in address order backwards).
 */
#ifndef SPE_RANGE_SET_H
#define SPE_RANGE_SET_H

#include <stddef.h>
#include <stdint.h>

#define RANGE_SET_BLOCK 64

struct range_item {
	uint64_t start, end;
	uint32_t value;
};

struct range_block {
	uint32_t n;
	struct range_item items[RANGE_SET_BLOCK];
};

struct range_set {
	struct range_block **blocks;
	size_t n_blocks, cap_blocks;
	size_t n;
};

void ana_range_set_init(struct range_set *s);
void ana_range_set_fini(struct range_set *s);
/* Add @p it, which overlaps no range of the set.  0 or -spe_nomem. */
int ana_range_set_insert(struct range_set *s, struct range_item it);
/*
 * Take the ranges overlapping [@p start, @p end) out of the set, in address
 * order, into *@p out (grown as needed; *@p cap its room).  Their count, or
 * -spe_nomem (the set is then unchanged beyond the ranges already taken).
 */
long ana_range_set_take(struct range_set *s, uint64_t start, uint64_t end, struct range_item **out, size_t *cap);

#endif
