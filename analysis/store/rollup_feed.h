/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The rollup's input kept in memory: the pc_histogram rows a load's
 * transaction stored, as the SQLite sink stored them.  When the transaction
 * started on a new database these rows are all of pc_histogram, so the
 * rollup at commit (latency_rollup.c) takes them from here instead of
 * reading the table back and parsing every row's JSON (docs/spe-load.1.md,
 * "The end of the load").  An append to an existing database, or a load that
 * deleted rows (--replace), reads the table, which then holds what counts.
 */
#ifndef SPE_ROLLUP_FEED_H
#define SPE_ROLLUP_FEED_H

#include <stddef.h>
#include <stdint.h>

#include "ana/latency_hist.h"
#include "spe/row_sink.h"

/* One stored pc_histogram row. */
struct rollup_feed_row {
	struct latency_key key; /* (pc or 0, insn_id or 0, has_pc): the row's group in pc_summary */
	int64_t symbol_id;      /* 0 = NULL */
	/*
	 * Its slot words (latency_slot_make): the untimed count first
	 * (LATENCY_NONE) if any, then the latencies ascending.  An allocation
	 * per row, not one growing array: the loader frees each PC's histogram
	 * as it hands the row over, and malloc gives that memory back here, so
	 * the copy costs no peak memory (one array cost 44 MB at 10 M records).
	 */
	uint64_t *slots;
	uint32_t n;
};

struct rollup_feed {
	struct rollup_feed_row *rows;
	size_t n, cap;
	int lost; /* a row could not be kept (memory) or rows were deleted: the rollup reads the table */
};

/* Keep @p row as pc_histogram stores it; without memory the feed is marked lost (the load goes on). */
void ana_rollup_feed_add(struct rollup_feed *f, const struct spe_row_pc_histogram *row);
/* Give up the feed: the rollup reads the table. */
void ana_rollup_feed_lose(struct rollup_feed *f);
void ana_rollup_feed_fini(struct rollup_feed *f);

#endif
