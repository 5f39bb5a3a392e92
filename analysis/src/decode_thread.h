/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe-load --jobs: a thread that decodes a perf.data's AUX queues (in the
 * same order as the single-threaded load, so row ids do not change) and
 * hands the records over in batches to the thread that writes SQLite.
 */
#ifndef SPE_DECODE_THREAD_H
#define SPE_DECODE_THREAD_H

#include "spe/spe.h"

struct decoded_record {
	int cpu, tid;
	struct spe_record rec;
};

struct decode_thread;

/* Start decoding @p f (spe_perf_index_aux already done).  0 or a negative code. */
int decode_thread_start(struct spe_perf_file *f, struct decode_thread **out);
/* The next batch: its record count (> 0), 0 at the end, or a negative code.  Valid until the next call. */
int decode_thread_next(struct decode_thread *t, const struct decoded_record **recs);
/* Decoder statistics summed over CPUs; complete once decode_thread_next() returned 0. */
void decode_thread_stats(const struct decode_thread *t, struct spe_rec_stats *sum);
/* Stop (if still running), join and free.  Accepts NULL. */
void decode_thread_free(struct decode_thread *t);

#endif
