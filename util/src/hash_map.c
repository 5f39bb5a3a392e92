/* SPDX-License-Identifier: Apache-2.0 */
/* The hash map (util/hash_map.h). */
#include "util/hash_map.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "util/table_alloc.h"

#define TAG(h) ((h) & ~(uint64_t)UINT32_MAX)
#define MAX_ENTRIES (UINT32_MAX - 1) /* a slot holds number + 1 in 32 bits */

void util_map_init(struct util_map *m, size_t key_size, size_t value_size)
{
	memset(m, 0, sizeof *m);
	m->key_words = (uint32_t)(key_size / 8);
	m->entry_size = (uint32_t)((key_size + value_size + 7) & ~(size_t)7);
}

void util_map_fini(struct util_map *m)
{
	free(m->slots);
	free(m->entries);
	uint32_t key_words = m->key_words, entry_size = m->entry_size;
	memset(m, 0, sizeof *m);
	m->key_words = key_words; /* still usable, empty */
	m->entry_size = entry_size;
}

static int same_key(const struct util_map *m, size_t number, const uint64_t *key)
{
	const uint64_t *k = util_map_key(m, number);
	for (uint32_t i = 0; i < m->key_words; i++)
		if (k[i] != key[i])
			return 0;
	return 1;
}

int64_t util_map_find(const struct util_map *m, const void *key, uint64_t hash)
{
	if (!m->cap)
		return -1;
	for (size_t i = hash & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		uint64_t s = m->slots[i];
		if (!s)
			return -1;
		if (TAG(s) == TAG(hash) && same_key(m, (uint32_t)s - 1, key))
			return (uint32_t)s - 1;
	}
}

int64_t util_map_peek(const struct util_map *m, uint64_t hash)
{
	if (!m->cap)
		return -1;
	/* the slots from the key's own on, as a lookup walks them (a key is often a slot or two along) */
	for (size_t i = hash & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		uint64_t s = m->slots[i];
		if (!s)
			return -1;
		if (TAG(s) == TAG(hash)) {
			__builtin_prefetch(util_map_key(m, (uint32_t)s - 1));
			return (uint32_t)s - 1;
		}
	}
}

static void put_slot(uint64_t *slots, size_t cap, uint64_t hash, size_t number)
{
	size_t i = hash & (cap - 1);
	while (slots[i])
		i = (i + 1) & (cap - 1);
	slots[i] = TAG(hash) | (number + 1);
}

/* Twice the slots (at most 3/4 full), every entry placed again. */
static int grow_slots(struct util_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	uint64_t *slots = util_table_calloc(cap, sizeof *slots);
	if (!slots)
		return -1;
	for (size_t n = 0; n < m->n; n++)
		put_slot(slots, cap, util_map_hash(m, util_map_key(m, n)), n);
	free(m->slots);
	m->slots = slots;
	m->cap = cap;
	return 0;
}

int64_t util_map_add(struct util_map *m, const void *key, uint64_t hash, int *added)
{
	int64_t found = util_map_find(m, key, hash);
	if (added)
		*added = found < 0;
	if (found >= 0)
		return found;
	if (m->n >= MAX_ENTRIES || ((m->n + 1) * 4 > m->cap * 3 && grow_slots(m) < 0))
		return -1;
	unsigned char *e = util_grow(m->entries, &m->entries_cap, m->n + 1, m->entry_size);
	if (!e)
		return -1;
	m->entries = e;
	unsigned char *entry = util_map_key(m, m->n);
	memcpy(entry, key, (size_t)m->key_words * 8);
	memset(entry + (size_t)m->key_words * 8, 0, m->entry_size - (size_t)m->key_words * 8);
	put_slot(m->slots, m->cap, hash, m->n);
	return (int64_t)m->n++;
}

void *util_map_get(const struct util_map *m, const void *key)
{
	int64_t n = util_map_find(m, key, util_map_hash(m, key));
	return n < 0 ? NULL : util_map_value(m, (size_t)n);
}

void *util_map_put(struct util_map *m, const void *key)
{
	int64_t n = util_map_add(m, key, util_map_hash(m, key), NULL);
	return n < 0 ? NULL : util_map_value(m, (size_t)n);
}
