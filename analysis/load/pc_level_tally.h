/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The loads of each PC of a function by memory level, counted while
 * loading: the rows of pc_level_stat (docs/schema.md), from which the
 * page's annotated functions read their instructions' levels (the query
 * levels_by_symbol) rather than grouping every load of the records.
 * Counted per (latency group with a function: a PC and its insn, memory
 * level), written a row per function (the counts of its PCs in one JSON
 * array); loads without a function are not counted (no annotation shows
 * them).
 *
 * Memory: 20 bytes per latency group (the first four levels of each PC
 * inline), and a map entry (about 40 bytes) per further (PC, level) pair;
 * while writing, 32 bytes per (PC, level) count (sorted by function).
 */
#ifndef SPE_PC_LEVEL_TALLY_H
#define SPE_PC_LEVEL_TALLY_H

#include <stdint.h>

#include "ana/latency_hist.h"
#include "spe/row_sink.h"
#include "util/hash_map.h"

#define PC_LEVEL_INLINE 4

/* A group's first PC_LEVEL_INLINE distinct levels: count 0 = unused. */
struct pc_levels {
	uint32_t loads[PC_LEVEL_INLINE];
	uint8_t level[PC_LEVEL_INLINE];
};

struct pc_level_tally {
	struct pc_levels *groups; /* by latency group */
	size_t cap;
	struct util_map more;     /* (group << 5 | level) -> uint64_t loads, past a group's inline levels */
};

/* Count a load of latency group @p group at memory level code @p level (0..31, 0 = none).  0, or -1 without memory. */
int ana_pc_level_count(struct pc_level_tally *t, uint32_t group, unsigned level);

/*
 * Write source @p source_id's rows: @p groups gives a latency group's key
 * (pc, insn_id, symbol_id << 1 | has_pc); groups without a function are left
 * out.  0 or the sink's negative code.
 */
int ana_pc_level_write(const struct pc_level_tally *t, const struct spe_row_sink *sink, int64_t source_id,
		       const struct latency_hist_map *groups);

void ana_pc_level_init(struct pc_level_tally *t);
void ana_pc_level_fini(struct pc_level_tally *t);

#endif
