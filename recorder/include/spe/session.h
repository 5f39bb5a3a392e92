/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A recording session: the per-CPU rings and the loop body that drains them
 * into an output.  Live recording and replay both call spe_session_drain();
 * only where the rings come from differs (the kernel's mmap, or
 * spe/ring_sim.h).
 */
#ifndef SPE_SESSION_H
#define SPE_SESSION_H

#include "spe/ring.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where drained data goes (the perf.data writer, or a test's capture). */
struct spe_session_sink {
	void *ctx;
	/* A kernel record from a data ring, trailer in the session's sample_type. */
	int (*kernel_event)(void *ctx, const struct perf_event_header *ev);
	/* AUX bytes of one drain: one AUXTRACE record. */
	int (*auxtrace)(void *ctx, const void *data, uint64_t size, uint64_t offset, uint32_t idx, int32_t tid,
			int32_t cpu);
};

struct spe_session_cpu {
	uint32_t cpu;        /* CPU number written to AUXTRACE */
	uint32_t idx;        /* AUXTRACE idx: position in the CPU list */
	int32_t tid;         /* -1: per-CPU buffer */
	struct spe_ring *ring;
	int spe_fd;          /* live: the arm_spe event, re-enabled after a truncation; -1 otherwise */
	uint64_t truncated;  /* AUX records with the T flag on this CPU */
};

struct spe_session_stats {
	uint64_t kernel_events;     /* records copied from the data rings */
	uint64_t aux_records;       /* PERF_RECORD_AUX seen */
	uint64_t aux_truncated;     /* ... with PERF_AUX_FLAG_TRUNCATED */
	uint64_t aux_partial;       /* ... with PERF_AUX_FLAG_PARTIAL */
	uint64_t aux_collision;     /* ... with PERF_AUX_FLAG_COLLISION */
	uint64_t auxtrace_records;  /* AUXTRACE records written */
	uint64_t aux_bytes;         /* SPE bytes written */
	uint64_t lost_events;       /* sum of PERF_RECORD_LOST counts (data ring overflow) */
	uint64_t drains;            /* spe_session_drain() calls */
};

struct spe_session {
	struct spe_session_sink sink;
	size_t n_cpus;
	struct spe_session_cpu *cpus;
	struct spe_session_stats stats;
	/* Called after a drain that saw a truncated AUX record on @p cpu (live: re-enable). */
	void (*on_truncated)(struct spe_session *s, struct spe_session_cpu *cpu);
	uint8_t *scratch;    /* joins the two pieces of a wrapped AUX drain */
	size_t scratch_size;
	uint64_t reference;  /* AUXTRACE reference: a counter */
};

/*
 * One pass over every CPU: copy the data ring's records to the sink (noting
 * AUX flags and LOST counts), then the new AUX bytes as one AUXTRACE record.
 * Data before AUX: the kernel publishes aux_head before the AUX record, so
 * every AUX record read here describes bytes already in the area.
 * Returns the number of records plus AUX bytes moved (0 = idle), or the
 * first negative error (the sink's, or -spe_bad_file for a corrupt ring).
 */
int64_t spe_session_drain(struct spe_session *s);

void spe_session_fini(struct spe_session *s);

#ifdef __cplusplus
}
#endif

#endif /* SPE_SESSION_H */
