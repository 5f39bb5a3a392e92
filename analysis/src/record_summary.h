/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Summaries of the records, counted while loading, for the views that
 * would otherwise scan spe_record (docs/schema.md, "Summaries"):
 * mem_level_summary, latency_histogram, branch_mispredict and tlb_hotspot.
 * Each row is one source's, so an --append adds rows and the views add them
 * up.  Memory: fixed arrays for the levels and buckets, 40 bytes per
 * branch PC group and 80 per (process, 4 KiB data page).
 */
#ifndef SPE_RECORD_SUMMARY_H
#define SPE_RECORD_SUMMARY_H

#include <stdint.h>

#include "latency_hist.h"
#include "spe/row_sink.h"
#include "spe/spe.h"

#define SUMMARY_LEVELS 32       /* spe_mem_level codes (0 = none) */
#define SUMMARY_OP_CLASSES 8    /* enum spe_op_class + 1 (0 = no op type) */
#define SUMMARY_BUCKETS 33      /* latency 0, then [2^k, 2^(k+1)) for k = 0..31 */

struct level_count {
	uint64_t loads, timed, total_latency;
};

struct bucket_count {
	uint64_t samples, total_latency;
};

struct branch_count {
	uint64_t branches, evented, mispredicted, not_taken;
};

struct page_count {
	uint64_t accesses, evented, tlb_walks, translated, translation_latency;
};

struct record_summary {
	struct level_count levels[SUMMARY_LEVELS];
	struct bucket_count buckets[SUMMARY_OP_CLASSES][SUMMARY_BUCKETS];
	struct branch_count *branches; /* by the loader's latency group (a PC and its insn) */
	size_t branch_cap;
	struct latency_groups page_index; /* (pid + 1, page) -> number */
	struct page_count *pages;
	size_t page_cap;
};

/*
 * Count a record: @p codes its `codes` column, @p group its latency group
 * (its PC and insn, or the group of records without a PC), @p pid -1 when
 * unknown.  0, or -1 without memory.
 */
int record_summary_count(struct record_summary *s, const struct spe_record *rec, uint64_t codes, uint32_t group,
			 int pid);

/*
 * Write the rows of source @p source_id; @p group_pc gives a latency group's
 * (pc, insn_id, has_pc).  Returns 0 or the sink's negative code.
 */
int record_summary_write(const struct record_summary *s, const struct spe_row_sink *sink, int64_t source_id,
			 const struct latency_groups *groups);

void record_summary_free(struct record_summary *s);

#endif
