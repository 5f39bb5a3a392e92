/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The loader's counting of the records into the summaries
 * (record_summary.h).  It works from the record rows the sink stores and a
 * small note per row, not from the decoded records, so it can run where the
 * rows go: on the writer thread with --jobs=2 (sink_async.h, the stage),
 * after the loader has decoded and resolved them; inline with --jobs=1.
 * Both count the same rows in the same order, so their tables are the same.
 * (The latency histograms stay the loading thread's: with them too, the
 * writer thread was the busier one; docs/spe-load.1.md has the figures.)
 */
#ifndef SPE_RECORD_TALLY_H
#define SPE_RECORD_TALLY_H

#include <stddef.h>
#include <stdint.h>

#include "ana/latency_hist.h"
#include "object_tally.h"
#include "pc_level_tally.h"
#include "record_summary.h"
#include "spe/row_sink.h"

/* What the counting needs of a record beside its row (resolution's results). */
struct tally_note {
	uint32_t group;    /* its latency group: its number in the loader's latency_hist_map */
	uint32_t midr;     /* its CPU's MIDR when it was loaded */
	int64_t symbol_id; /* its function (through its insn), 0 = none */
};

struct record_tally {
	struct record_summary summary;
	struct object_tally objects; /* the records of each data object (object_tally.h) */
	struct pc_level_tally pc_levels; /* the loads of each PC by memory level (pc_level_tally.h) */
};

/* Count @p n rows with their notes.  0, or -spe_nomem. */
int ana_record_tally(struct record_tally *t, const struct spe_row_record *rows, const struct tally_note *notes,
		     size_t n);
/* The same as a stage of the asynchronous sink (struct ana_async_stage): @p ctx is the tally. */
int ana_record_tally_stage(void *ctx, const struct spe_row_record *rows, const void *notes, size_t n);
/* Apply the counts kept for later (before reading them).  0, or -spe_nomem. */
int ana_record_tally_settle(struct record_tally *t);
void ana_record_tally_init(struct record_tally *t);
void ana_record_tally_fini(struct record_tally *t);

#endif
