/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The hash map of the tree: keys of whole 64-bit words to fixed-size values,
 * entries in the order they were added (so an entry has a number: 0, 1, ...,
 * and a table of rows keyed by it keeps the order of first sight), and the
 * one mixing function (util_hash_words) every table hashes with.
 *
 * Layout: open addressing (linear probing) over 64-bit slots, each the key
 * hash's high 32 bits << 32 | entry number + 1 (0: empty); the entries, key
 * then value, in one growing array.  A probe compares tags before touching
 * an entry; a lookup is one slot and, on a hit, one entry.  Slots of large
 * maps are on huge pages (util/table_alloc.h).  For a loop that knows its
 * keys ahead: util_map_prefetch() starts loading a key's slot,
 * util_map_peek() (later) reads it and starts loading the entry it names.
 *
 *   struct util_map m;
 *   util_map_init(&m, sizeof(struct key), sizeof(struct value));
 *   struct value *v = util_map_put(&m, &key);   (zeroed when new; NULL: no memory)
 *   ... util_map_get(&m, &key) ... util_map_fini(&m);
 *
 * A value pointer is valid until the next put (the entries may move).
 */
#ifndef SPE_UTIL_HASH_MAP_H
#define SPE_UTIL_HASH_MAP_H

#include <stddef.h>
#include <stdint.h>

/* The mixing function: a 64-bit hash of @p n words (SplitMix64's finalizer over a word-wise combination). */
static inline uint64_t util_hash_mix(uint64_t h)
{
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebull;
	return h ^ h >> 31;
}

static inline uint64_t util_hash_words(const uint64_t *w, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull * (n + 1);
	for (size_t i = 0; i < n; i++)
		h = util_hash_mix(h ^ w[i]);
	return h;
}

static inline uint64_t util_hash64(uint64_t x)
{
	return util_hash_words(&x, 1);
}

struct util_map {
	uint64_t *slots;         /* tag << 32 | number + 1; 0 = empty */
	size_t cap;              /* slots: 0 or a power of two */
	unsigned char *entries;  /* n entries of entry_size bytes: key, then value */
	size_t n, entries_cap;
	uint32_t key_words;      /* the key's 64-bit words */
	uint32_t entry_size;     /* key and value, rounded up to 8 bytes */
};

/* An empty map of @p key_size-byte keys (a multiple of 8, padding zeroed by the caller) to @p value_size-byte values. */
void util_map_init(struct util_map *m, size_t key_size, size_t value_size);
void util_map_fini(struct util_map *m);

/* @p key's hash, for the calls below that take one. */
static inline uint64_t util_map_hash(const struct util_map *m, const void *key)
{
	return util_hash_words((const uint64_t *)key, m->key_words);
}

/* Entry @p number's key and value. */
static inline void *util_map_key(const struct util_map *m, size_t number)
{
	return m->entries + number * m->entry_size;
}
static inline void *util_map_value(const struct util_map *m, size_t number)
{
	return m->entries + number * m->entry_size + (size_t)m->key_words * 8;
}

/* The number of @p key (hash @p hash), or -1. */
int64_t util_map_find(const struct util_map *m, const void *key, uint64_t hash);
/* The number of @p key, added (its value zeroed; *@p added = 1 if @p added) when new; -1 without memory. */
int64_t util_map_add(struct util_map *m, const void *key, uint64_t hash, int *added);

/* The value of @p key, or NULL. */
void *util_map_get(const struct util_map *m, const void *key);
/* The value of @p key, added zeroed when new; NULL without memory. */
void *util_map_put(struct util_map *m, const void *key);

/* Start loading the slot of hash @p hash. */
static inline void util_map_prefetch(const struct util_map *m, uint64_t hash)
{
	if (m->cap)
		__builtin_prefetch(&m->slots[hash & (m->cap - 1)]);
}
/*
 * Read the slots of hash @p hash and start loading the entry whose tag
 * matches: its number (the key's, unless two keys share the tag), or -1
 * (the key is not there).
 */
int64_t util_map_peek(const struct util_map *m, uint64_t hash);

#endif
