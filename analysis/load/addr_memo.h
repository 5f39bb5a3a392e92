/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The per-record memos of the loader: (address space, address) -> what it
 * resolved to, for the PC of every record (resolve.c: mapping, symbol,
 * instruction, latency group, JIT or not, the span of time it holds for) and the data page of
 * every data address (data_attrib.c: its data object, for a span of time).  Open addressing with the key and the
 * value in the slot itself, so a lookup is one cache miss, and the loader
 * starts that miss a few records ahead (addr_memo_prefetch).
 *
 * Why not util_map (util/hash_map.h), the tree's hash map: its slots name
 * entries kept in order in an array of their own, two dependent misses a
 * lookup; for these two memos, looked up once per record, that cost 6 % of a
 * load's CPU (1M gen_bench records, --jobs=1, medians of 5 interleaved
 * runs: 2.00 s against 1.89 s) even with the slot and the entry prefetched
 * in two steps.  The slot's position comes from util_map's mixing function.
 */
#ifndef SPE_ADDR_MEMO_H
#define SPE_ADDR_MEMO_H

#include <stddef.h>
#include <stdint.h>

/* What a PC resolved to. */
struct pc_value {
	int64_t mapping_id, symbol_id, insn_id; /* 0 = NULL */
	uint64_t from, to;                      /* the span of perf time the answer holds for (processes.h) */
	uint32_t changes;                       /* ... while its space's change count is this (ana_procs_changes) */
	uint32_t latency_group : 31;            /* its number in the loader's latency_hist_map, PC_NO_GROUP until set */
	uint32_t jit : 1;                       /* in JIT code (anonymous executable memory, a jitdump's code) */
};
/* No group yet; a group numbered this or more is not memoized (loader.c). */
#define PC_NO_GROUP ((UINT32_C(1) << 31) - 1)

/* An id that holds over a span of perf time [from, to). */
struct addr_timed_id {
	int64_t id;
	uint64_t from, to;
	uint32_t changes; /* ... while its space's change count is this (ana_procs_changes) */
};

struct addr_memo_entry {
	uint64_t space; /* the address space (a pid, or the kernel's) with bit 63 flipped: 0 marks an empty slot */
	uint64_t addr;
	union {
		struct pc_value pc; /* the PC memo */
		int64_t id;                 /* a memo of one id */
		struct addr_timed_id timed; /* the page memo: an id for a span of time */
	} value;
};

/* An entry is one cache line (the tables are 2 MiB-aligned: util/table_alloc.h). */
_Static_assert(sizeof(struct addr_memo_entry) == 64, "a memo's entry is one cache line");

/* The most slots a memo grows to (64 MB of entries); past 3/4 of them it is emptied (addr_memo.c). */
#ifndef ADDR_MEMO_MAX_SLOTS
#define ADDR_MEMO_MAX_SLOTS ((size_t)1 << 20)
#endif

struct addr_memo {
	struct addr_memo_entry *entries;
	size_t cap, count; /* cap is a power of two */
	size_t emptied;    /* times it filled at ADDR_MEMO_MAX_SLOTS and was emptied */
};

/* The value of (@p space, @p addr) (any int @p space: a pid, -1, a negative tag), or NULL. */
struct pc_value *ana_addr_memo_find(const struct addr_memo *m, int64_t space, uint64_t addr);
/* Insert (or overwrite); the stored value, NULL without memory. */
struct pc_value *ana_addr_memo_put(struct addr_memo *m, int64_t space, uint64_t addr, struct pc_value v);
/* The same for memos of one id: a pointer to the id, or NULL; 0, or -1 without memory. */
int64_t *ana_addr_memo_find_id(const struct addr_memo *m, int64_t space, uint64_t addr);
int ana_addr_memo_put_id(struct addr_memo *m, int64_t space, uint64_t addr, int64_t id);
/* The same for ids that hold for a time: a pointer to the value, or NULL; the stored value, NULL without memory. */
struct addr_timed_id *ana_addr_memo_find_timed(const struct addr_memo *m, int64_t space, uint64_t addr);
struct addr_timed_id *ana_addr_memo_put_timed(struct addr_memo *m, int64_t space, uint64_t addr, struct addr_timed_id v);
/* Start loading the slot (@p space, @p addr) will be looked up in. */
void ana_addr_memo_prefetch(const struct addr_memo *m, int64_t space, uint64_t addr);
void ana_addr_memo_fini(struct addr_memo *m);

#endif
