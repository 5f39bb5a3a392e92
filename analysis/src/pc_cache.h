/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Open-addressing hash from a 64-bit key to a small value: the loader's
 * memo of (address space, PC) -> mapping/symbol/insn rows, and of symbol
 * and instruction rows already inserted.  Keys are arbitrary; 0 is allowed.
 * Key, value and used flag share one entry, so a hit costs one cache miss.
 */
#ifndef SPE_PC_CACHE_H
#define SPE_PC_CACHE_H

#include <stddef.h>
#include <stdint.h>

struct pc_value {
	int64_t mapping_id, symbol_id, insn_id; /* 0 = NULL */
	uint32_t latency_group;                 /* the loader's latency_groups number */
};

struct pc_cache_entry {
	uint64_t key;
	struct pc_value value;
	uint32_t used;
};

struct pc_cache {
	struct pc_cache_entry *entries;
	size_t cap, count; /* cap is a power of two */
};

/* Pointer to the value of @p key, or NULL. */
struct pc_value *pc_cache_find(const struct pc_cache *c, uint64_t key);
/* Insert (or overwrite); returns the stored value, NULL without memory. */
struct pc_value *pc_cache_put(struct pc_cache *c, uint64_t key, struct pc_value v);
void pc_cache_free(struct pc_cache *c);
/* Hint that @p key will be looked up soon (its first probe slot). */
void pc_cache_prefetch(const struct pc_cache *c, uint64_t key);

/* Mix two words into one key. */
static inline uint64_t pc_cache_key2(uint64_t a, uint64_t b)
{
	return a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull + (a << 6) + (a >> 2));
}

#endif
