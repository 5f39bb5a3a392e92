/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cacheline_sharing's lines, counted while loading: the cacheline_stat rows.
 *
 * The view shows only the (process, 64-byte line) pairs some store or
 * atomic wrote and two CPUs or threads touched.  Most lines a capture
 * touches are only ever read (gen_bench's 10 M records: 2.2 M lines, 131,000
 * of them written), so counts live in memory for the written lines only,
 * from their first write on; an access to a line not written so far is
 * appended (32 bytes) to a spill file in the temporary directory.  At the
 * end the spill is read back once: the accesses of the lines written after
 * all are counted apart and come before their counts from the first write
 * (sums added, distinct values in first-seen order); the others are
 * dropped.  The rows are the view's GROUP BY over the records, exactly.
 *
 * Memory grows with the written lines (about 150 bytes each, and 16 per
 * distinct CPU, thread, function or data object beyond a line's first),
 * the spill with the accesses to lines not yet written.  Past the budget
 * (more written lines than it allows, more accesses spilled than
 * LINE_SPILL_MAX, a spill that cannot be written or read back, ids of a
 * kind 2^31 apart) the source's lines are dropped: load_stats.cacheline_scan says
 * so, and the view computes that source's rows from its records.
 */
#ifndef SPE_LINE_SHARE_H
#define SPE_LINE_SHARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spe/row_sink.h"
#include "util/hash_map.h"
#include "value_pool.h"

#define LINE_PENDING 256 /* accesses counted together (line_share.c, count_pending) */

/* The most accesses spilled (32 bytes each: 8 GiB); past it the view scans the records. */
#define LINE_SPILL_MAX (UINT64_C(1) << 28)

/* The sums of cacheline_sharing whose expression may be NULL (struct line_count). */
enum line_sum {
	LS_LOADS,
	LS_STORES,
	LS_SNOOPED,
	LS_HITM,
	LS_PEER_HITS,
	LS_ATOMICS,
	LS_WRITES,
	LS_MODIFIED_EVENTS,
	LS_MODIFIED_SOURCES,
	LS_REMOTE_HITS,
	LS_TOTAL_LATENCY, /* known only: the sum is total_latency */
	LS_N
};

/* struct line_access's sums: sum i's value for the access, and whether it has one (SQL's NULL otherwise). */
#define LA_VALUE(i) (UINT32_C(1) << (i))
#define LA_KNOWN(i) (UINT32_C(1) << (16 + (i)))

/* One record's access to a line, as the view counts it (and as the spill holds it). */
struct line_access {
	uint64_t data_va;
	int32_t pid, tid;        /* -1 = unknown */
	uint32_t symbol, object; /* ids as ana_line_share_id gives them, 0 = none */
	uint32_t sums;           /* LA_VALUE, LA_KNOWN of each enum line_sum */
	uint16_t latency;        /* total latency (LA_KNOWN(LS_TOTAL_LATENCY)) */
	uint16_t cpu;
};

/*
 * The columns of one line (docs/schema.md, cacheline_stat) over some of its
 * accesses.  Its first CPU, thread, function and data object are kept here;
 * the others it sees go to a value pool.
 */
struct line_count {
	uint32_t accesses;
	uint32_t sum[LS_TOTAL_LATENCY]; /* the non-NULL values' sum */
	uint16_t known;                 /* bit i: some access gave sum i a value (SQL's sum is NULL otherwise) */
	uint16_t cpus;                  /* distinct CPUs (at most SPE_AUX_MAX_CPUS) */
	uint32_t threads;               /* distinct threads */
	int32_t cpu0, tid0;             /* the first CPU and thread (valid when cpus, threads > 0) */
	int64_t symbol0, object0;       /* the first function and data object, 0 = none yet */
	uint32_t more;                  /* its run of further distinct values (value_pool.h); 0 = none */
	uint64_t total_latency;
	uint64_t offsets;               /* bit i: an access at byte i of the line */
};

/* Counts of lines by number, with their further values. */
struct line_counts {
	struct line_count *lines;
	size_t cap;
	struct value_pool values;
};

/* A written line: its key in lines (util_map). */
struct line_key {
	int64_t line; /* data_va >> 6, as SQL shifts the signed column */
	int64_t pid;
};

struct line_share {
	struct util_map lines;     /* the written lines (struct line_key), numbered in order of their first write */
	uint64_t *filter;          /* a Bloom filter of the written lines: 4 bits a slot of lines (line_share.c) */
	size_t filter_cap;         /* the slots it was made for */
	struct line_counts after;  /* each written line from its first write on */
	struct line_counts before; /* its accesses before that, read back from the spill (the end) */
	struct line_access pending[LINE_PENDING]; /* accesses not yet counted */
	size_t n_pending;
	size_t budget;             /* the most written lines kept */
	struct line_access *buf;   /* accesses not yet in the spill file */
	size_t n_buf;
	FILE *spill;               /* an unlinked temporary file, opened when the buffer first fills */
	uint64_t spilled;          /* accesses in it */
	int64_t id_base[2];        /* a symbol's and a data object's id: this + the access's 32 bits (0: as they are) */
	unsigned id_based;         /* bit kind: id_base[kind] is set */
	int dropped;               /* past the budget: no rows */
	int finished;              /* the spill was read back */
};

enum line_id_kind { LINE_ID_SYMBOL, LINE_ID_OBJECT };

/*
 * The 32 bits an access holds for id @p id of @p kind (0: none): its
 * distance from the first id of the kind seen, plus 2^31 (one load's ids
 * are close together; ClickHouse's start far past 2^32).  0, or -1 when
 * it is out of reach (the caller then drops the lines).
 */
int ana_line_share_id(struct line_share *s, enum line_id_kind kind, int64_t id, uint32_t *out);

/*
 * Count an access; @p budget: the most written lines kept.  0, or -1
 * without memory (a spill that fails drops the lines instead).
 */
int ana_line_share_count(struct line_share *s, const struct line_access *a, size_t budget);

/*
 * Count an access that does not write to a line of a page nothing wrote
 * to so far (the caller knows): it goes to the spill without a look-up.
 * The page's accesses after its first write must go through
 * ana_line_share_count, so a line's spilled accesses keep their order.
 * 0, or -1 without memory.
 */
int ana_line_share_unwritten(struct line_share *s, const struct line_access *a);

/* At the end: read the spill back into the written lines' counts (or drop them).  0, or -1 without memory. */
int ana_line_share_finish(struct line_share *s);

/* The cacheline_stat rows of source @p source_id (none if dropped): 0 or the sink's negative code. */
int ana_line_share_write(const struct line_share *s, const struct spe_row_sink *sink, int64_t source_id);

void ana_line_share_init(struct line_share *s);
void ana_line_share_fini(struct line_share *s);

#endif
