/* SPDX-License-Identifier: Apache-2.0 */
#include "latency_summary.h"

#include <stdlib.h>
#include <string.h>

static size_t hash(const struct latency_key *k, size_t cap)
{
	uint64_t h = k->pc * 0x9e3779b97f4a7c15ull;
	h ^= (uint64_t)k->insn_id * 0xc2b2ae3d27d4eb4full + (uint64_t)(uint32_t)k->latency;
	h ^= (uint64_t)k->symbol_id << 17 ^ (uint64_t)k->has_pc;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return (size_t)h & (cap - 1);
}

static int same(const struct latency_key *a, const struct latency_key *b)
{
	return a->pc == b->pc && a->insn_id == b->insn_id && a->symbol_id == b->symbol_id &&
	       a->latency == b->latency && a->has_pc == b->has_pc;
}

static struct latency_entry *slot_for(struct latency_entry *slots, size_t cap, const struct latency_key *k)
{
	size_t i = hash(k, cap);
	while (slots[i].used && !same(&slots[i].key, k))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static int grow(struct latency_summary *s)
{
	size_t cap = s->cap ? s->cap * 2 : 4096;
	struct latency_entry *n = calloc(cap, sizeof *n);
	if (!n)
		return -1;
	for (size_t i = 0; i < s->cap; i++)
		if (s->slots[i].used)
			*slot_for(n, cap, &s->slots[i].key) = s->slots[i];
	free(s->slots);
	s->slots = n;
	s->cap = cap;
	return 0;
}

int latency_summary_add(struct latency_summary *s, const struct latency_key *key)
{
	if ((s->count + 1) * 4 > s->cap * 3 && grow(s) < 0)
		return -1;
	struct latency_entry *e = slot_for(s->slots, s->cap, key);
	if (!e->used) {
		e->used = 1;
		e->key = *key;
		e->count = 0;
		s->count++;
	}
	e->count++;
	return 0;
}

void latency_summary_free(struct latency_summary *s)
{
	free(s->slots);
	memset(s, 0, sizeof *s);
}
