/* SPDX-License-Identifier: Apache-2.0 */
/* Disjoint address ranges in sorted blocks (range_set.h). */
#include "range_set.h"

#include <stdlib.h>
#include <string.h>

#include "spe/spe.h"
#include "util/grow.h"

void ana_range_set_init(struct range_set *s)
{
	memset(s, 0, sizeof *s);
}

void ana_range_set_fini(struct range_set *s)
{
	for (size_t i = 0; i < s->n_blocks; i++)
		free(s->blocks[i]);
	free(s->blocks);
	ana_range_set_init(s);
}

/* The last block whose first range starts at or below @p addr (0 when none does). */
static size_t block_of(const struct range_set *s, uint64_t addr)
{
	size_t lo = 0, hi = s->n_blocks;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->blocks[mid]->items[0].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : 0;
}

/* Room for one more block pointer at @p at. */
static int open_block_slot(struct range_set *s, size_t at)
{
	struct range_block **b = util_grow(s->blocks, &s->cap_blocks, s->n_blocks + 1, sizeof *b);
	if (!b)
		return -spe_nomem;
	s->blocks = b;
	memmove(&b[at + 1], &b[at], (s->n_blocks - at) * sizeof *b);
	s->n_blocks++;
	return 0;
}

int ana_range_set_insert(struct range_set *s, struct range_item it)
{
	if (!s->n_blocks) {
		struct range_block *b = malloc(sizeof *b);
		if (!b || open_block_slot(s, 0) < 0) {
			free(b);
			return -spe_nomem;
		}
		b->n = 0;
		s->blocks[0] = b;
	}
	size_t bi = block_of(s, it.start);
	struct range_block *b = s->blocks[bi];
	if (b->n == RANGE_SET_BLOCK) { /* split in halves, then insert into the one it belongs to */
		struct range_block *nb = malloc(sizeof *nb);
		if (!nb || open_block_slot(s, bi + 1) < 0) {
			free(nb);
			return -spe_nomem;
		}
		nb->n = RANGE_SET_BLOCK / 2;
		memcpy(nb->items, b->items + RANGE_SET_BLOCK / 2, nb->n * sizeof *nb->items);
		b->n = RANGE_SET_BLOCK / 2;
		s->blocks[bi + 1] = nb;
		if (it.start >= nb->items[0].start)
			b = nb;
	}
	uint32_t i = b->n;
	while (i && b->items[i - 1].start > it.start)
		i--;
	memmove(&b->items[i + 1], &b->items[i], (b->n - i) * sizeof *b->items);
	b->items[i] = it;
	b->n++;
	s->n++;
	return 0;
}

long ana_range_set_take(struct range_set *s, uint64_t start, uint64_t end, struct range_item **out, size_t *cap)
{
	size_t taken = 0;
	if (!s->n_blocks || start >= end)
		return 0;
	size_t bi = block_of(s, start);
	uint32_t i = 0;
	/* the first range ending above start: ends rise with starts, the ranges being disjoint */
	while (bi < s->n_blocks) {
		const struct range_block *b = s->blocks[bi];
		for (i = 0; i < b->n && b->items[i].end <= start; i++)
			;
		if (i < b->n)
			break;
		bi++;
	}
	while (bi < s->n_blocks) {
		struct range_block *b = s->blocks[bi];
		uint32_t j = i;
		while (j < b->n && b->items[j].start < end)
			j++;
		int stopped = j < b->n; /* the range at j starts at or past end */
		if (j > i) {
			struct range_item *o = util_grow(*out, cap, taken + (j - i), sizeof *o);
			if (!o)
				return -spe_nomem;
			*out = o;
			memcpy(o + taken, b->items + i, (j - i) * sizeof *o);
			taken += j - i;
			memmove(b->items + i, b->items + j, (b->n - j) * sizeof *b->items);
			b->n -= j - i;
			s->n -= j - i;
		}
		if (!b->n) {
			free(b);
			memmove(&s->blocks[bi], &s->blocks[bi + 1], (s->n_blocks - bi - 1) * sizeof *s->blocks);
			s->n_blocks--;
		} else {
			bi++;
		}
		if (stopped)
			break;
		i = 0;
	}
	return (long)taken;
}
