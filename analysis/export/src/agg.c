/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The exporters' aggregation table: open addressing over fixed-size keys
 * (compared byte for byte) with a fixed-size value after each key.  Memory
 * is proportional to the distinct keys, never to the records scanned.
 */
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"

/* Keys are whole 64-bit words (export_agg_init's rule): mix word by word. */
static uint64_t hash_words(const uint64_t *w, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull;
	for (size_t i = 0; i < n; i++) {
		h ^= w[i];
		h *= 0xbf58476d1ce4e5b9ull;
		h ^= h >> 31;
	}
	h ^= h >> 29;
	h *= 0x94d049bb133111ebull;
	h ^= h >> 32;
	return h ? h : 1; /* 0 marks an empty slot */
}

void export_agg_init(struct agg *a, size_t key_size, size_t val_size)
{
	memset(a, 0, sizeof *a);
	a->key_size = key_size;
	a->val_size = val_size;
	a->slot_size = (8 + key_size + val_size + 7) & ~(size_t)7;
}

void export_agg_fini(struct agg *a)
{
	free(a->slots);
	a->slots = NULL;
	a->cap = a->n = 0;
}

static uint64_t *slot_hash(const struct agg *a, size_t i)
{
	return (uint64_t *)(a->slots + i * a->slot_size);
}

static int grow(struct agg *a)
{
	size_t cap = a->cap ? 2 * a->cap : 4096;
	unsigned char *slots = calloc(cap, a->slot_size);
	if (!slots)
		return -1;
	for (size_t i = 0; i < a->cap; i++) {
		uint64_t *h = slot_hash(a, i);
		if (!*h)
			continue;
		size_t j = *h & (cap - 1);
		while (*(uint64_t *)(slots + j * a->slot_size))
			j = (j + 1) & (cap - 1);
		memcpy(slots + j * a->slot_size, h, a->slot_size);
	}
	free(a->slots);
	a->slots = slots;
	a->cap = cap;
	return 0;
}

void *export_agg_upsert(struct agg *a, const void *key)
{
	if (4 * (a->n + 1) > 3 * a->cap && grow(a) < 0)
		return NULL;
	uint64_t h = hash_words(key, a->key_size / 8);
	for (size_t j = h & (a->cap - 1);; j = (j + 1) & (a->cap - 1)) {
		uint64_t *s = slot_hash(a, j);
		unsigned char *k = (unsigned char *)(s + 1);
		if (!*s) {
			*s = h;
			memcpy(k, key, a->key_size);
			a->n++;
			return k + a->key_size;
		}
		if (*s == h && !memcmp(k, key, a->key_size))
			return k + a->key_size;
	}
}

const void **export_agg_keys(const struct agg *a)
{
	const void **keys = malloc((a->n + 1) * sizeof *keys);
	if (!keys)
		return NULL;
	size_t n = 0;
	for (size_t i = 0; i < a->cap; i++) {
		uint64_t *s = slot_hash(a, i);
		if (*s)
			keys[n++] = s + 1;
	}
	return keys;
}
