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
 * frequent tables (records, insns, symbols, data objects) are copied into
 * batches, strings included, and stored by the thread in the order they were
 * given; any other operation first waits until the thread has stored all that
 * is queued, then calls inner on the caller's thread.  Only one thread is
 * ever inside inner at a time.  A failure in the thread is returned by the
 * next operation (errmsg() says what failed); commit waits for the queue and
 * returns its outcome; abort drops what is queued.  Memory stays at a few
 * batches (ANA_ASYNC_BATCHES of ANA_ASYNC_BATCH_BYTES) whatever the load's size.
 */
int ana_async_sink_new(const struct spe_row_sink *inner, struct spe_row_sink *out, char *err, size_t errlen);

#define ANA_ASYNC_BATCHES 4
#define ANA_ASYNC_BATCH_BYTES (512u << 10)

#endif
