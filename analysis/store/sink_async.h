/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A row sink (spe/row_sink.h) that hands another sink's work to a thread of
 * its own: the loader fills batches while the thread stores the previous
 * ones (spe-load --jobs=2; docs/architecture.md, "Threads").
 */
#ifndef SPE_SINK_ASYNC_H
#define SPE_SINK_ASYNC_H

#include <stddef.h>

#include "spe/row_sink.h"

/*
 * Wrap @p inner in *out and start the writer thread.  *out owns @p inner
 * from then on: out->free stops the thread and frees inner.  Rows of the
 * frequent tables (records, and the tables spe/tables.h marks
 * SPE_TABLE_QUEUED: insns, symbols, data objects, and those written at the
 * end of a load, pc_histogram and the summaries) are copied into batches,
 * the strings and arrays they point to included (as the tables' descriptions
 * say where they are), and stored by the thread in the order they were
 * given; the rows of any other table, and any other operation, first wait
 * until the thread has stored all that is queued, then call inner on the
 * caller's thread.  Only one thread is ever inside inner at a time.  A failure in the thread is returned by the
 * next operation (errmsg() says what failed); commit waits for the queue and
 * returns its outcome; abort drops what is queued.  Memory stays at a few
 * batches (ANA_ASYNC_BATCHES of ANA_ASYNC_BATCH_BYTES) whatever the load's size.
 */
int ana_async_sink_new(const struct spe_row_sink *inner, struct spe_row_sink *out, char *err, size_t errlen);

/*
 * Work on the queued records besides storing them: the loader's counting
 * (record_tally.h), so the two threads share a load's CPU.  Each record
 * given through ana_async_sink_records_noted() carries @p note_size bytes of
 * notes (what the stage needs beside the row); records() gets the rows and
 * their notes, every noted record once and in the order given, one call at
 * a time, on the writer thread or, while the writer is behind (every batch
 * queued), on the caller's thread inside the call that queues (and on the
 * caller's for a batch too big to queue).  It returns 0 or a negative spe
 * code, which fails the sink as inner's failures do.  The stage's state is
 * shared by the threads through the sink's mutex, and is the caller's alone
 * again once ana_async_sink_sync() (or any operation that waits for the
 * queue) returns.
 */
struct ana_async_stage {
	void *ctx;
	size_t note_size;
	int (*records)(void *ctx, const struct spe_row_record *rows, const void *notes, size_t n);
};

/* ana_async_sink_new with @p stage (NULL: none) run on every noted batch of records. */
int ana_async_sink_new_staged(const struct spe_row_sink *inner, const struct ana_async_stage *stage,
			      struct spe_row_sink *out, char *err, size_t errlen);
/* out->rows of records with the stage's notes (n of stage->note_size bytes); @p ctx is out->ctx. */
int ana_async_sink_records_noted(void *ctx, const struct spe_row_record *rows, const void *notes, size_t n);
/* Wait until the thread has stored (and staged) all that is queued; its failure, if any.  @p ctx is out->ctx. */
int ana_async_sink_sync(void *ctx);

#define ANA_ASYNC_BATCHES 4
#define ANA_ASYNC_BATCH_BYTES (512u << 10)

#endif
