/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Open-addressing hash from a 64-bit key to a small value: the PC memo of
 * resolution ((address space, PC) -> mapping/symbol/insn rows), and maps to
 * one id (tid -> thread, (mapping, start) -> symbol row).  Keys are
 * arbitrary; 0 is allowed.  Key, value and used flag share one entry, so a
 * hit costs one cache miss.
 */
#ifndef SPE_PC_CACHE_H
#define SPE_PC_CACHE_H

#include <stddef.h>
#include <stdint.h>

/* What a PC resolved to. */
struct pc_value {
	int64_t mapping_id, symbol_id, insn_id; /* 0 = NULL */
	uint32_t latency_group;                 /* the loader's latency_groups number, PC_NO_GROUP until set */
	uint32_t jit;                           /* in JIT code (anonymous executable memory, a jitdump's code) */
	uint64_t from, to;                      /* the span of perf time the answer holds for (processes.h) */
};
#define PC_NO_GROUP UINT32_MAX

/* A value that holds over a span of perf time [from, to). */
struct pc_timed_id {
	int64_t id;
	uint64_t from, to;
};

struct pc_cache_entry {
	uint64_t key;
	union {
		struct pc_value pc;       /* the PC memo */
		int64_t id;               /* maps to one id */
		struct pc_timed_id timed; /* maps to an id that holds for a time */
	} value;
	uint32_t used;
};

struct pc_cache {
	struct pc_cache_entry *entries;
	size_t cap, count; /* cap is a power of two */
};

/* Pointer to the value of @p key, or NULL. */
struct pc_value *ana_pc_cache_find(const struct pc_cache *c, uint64_t key);
/* Insert (or overwrite); returns the stored value, NULL without memory. */
struct pc_value *ana_pc_cache_put(struct pc_cache *c, uint64_t key, struct pc_value v);
/* The same for maps to one id: pointer to the id of @p key, or NULL. */
int64_t *ana_pc_cache_find_id(const struct pc_cache *c, uint64_t key);
/* Insert (or overwrite) an id; 0, or -1 without memory. */
int ana_pc_cache_put_id(struct pc_cache *c, uint64_t key, int64_t id);
/* The same for timed ids: pointer to the value of @p key, or NULL; insert (or overwrite) one, NULL without memory. */
struct pc_timed_id *ana_pc_cache_find_timed(const struct pc_cache *c, uint64_t key);
struct pc_timed_id *ana_pc_cache_put_timed(struct pc_cache *c, uint64_t key, struct pc_timed_id v);
void ana_pc_cache_free(struct pc_cache *c);
/* Hint that @p key will be looked up soon (its first probe slot). */
void ana_pc_cache_prefetch(const struct pc_cache *c, uint64_t key);

/* Mix two words into one key. */
static inline uint64_t pc_cache_key2(uint64_t a, uint64_t b)
{
	return a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull + (a << 6) + (a >> 2));
}

#endif
