/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The records of each data object, counted while loading: the rows of
 * data_object_stat and data_object_level (docs/schema.md), from which the
 * reports answer hot_data_object without grouping the records (the view
 * itself still does: analysis/store/memory_schema.c).  A data object is one
 * source's (data_object.source_id), so a source's rows are its objects'
 * whole counts, and p99 is exact: each object keeps the count of every
 * total latency it saw (latency_hist.h), and the nearest-rank p99 is read
 * from those at the end, as the view computes it from the records.
 *
 * Memory: per data object with records, a map entry, 304 bytes of counts
 * and about 11 bytes per distinct latency (at most 65,536 of them: the
 * counter is 16 bits), never per record.
 */
#ifndef SPE_OBJECT_TALLY_H
#define SPE_OBJECT_TALLY_H

#include <stdint.h>

#include "ana/latency_hist.h"
#include "spe/row_sink.h"
#include "spe/spe.h"

#define OBJECT_TALLY_LEVELS 32 /* spe_mem_level codes (0 = none: not counted) */

struct object_count {
	uint64_t samples, typed, loads, stores, evented, tlb_walks;
	uint64_t levels[OBJECT_TALLY_LEVELS]; /* loads by memory level code */
};

struct object_tally {
	struct latency_hist_map objects; /* key (data object id, 0, 0): its timed records' latencies */
	struct object_count *counts;     /* by the object's number in `objects` */
	size_t cap;
	int64_t last_id;                 /* the last object and its number: records come in runs */
	uint32_t last_n;
};

/* A record's op class (enum spe_op_class) + 1 by its `codes` column's op type; 0 without one. */
extern uint8_t ana_op_class_table[1024]; /* by op type, filled by ana_object_tally_init() */
static inline unsigned ana_op_class_of(uint64_t codes)
{
	return (codes & SPE_CODES_HAS_OP) ? ana_op_class_table[codes & SPE_CODES_OP_RAW_MASK] : 0;
}

/*
 * Count a record whose data address is in data object @p object_id (not 0),
 * @p codes its `codes` column.  0, or -1 without memory.
 */
int ana_object_tally_count(struct object_tally *t, int64_t object_id, uint64_t codes, const struct spe_record *rec);

/* Write source @p source_id's rows.  0 or the sink's negative code (-spe_nomem without memory). */
int ana_object_tally_write(const struct object_tally *t, const struct spe_row_sink *sink, int64_t source_id);

void ana_object_tally_init(struct object_tally *t);
void ana_object_tally_fini(struct object_tally *t);

#endif
