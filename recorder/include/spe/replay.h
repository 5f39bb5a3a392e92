/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Replay: feed SPE bytes from raw files through simulated per-CPU rings
 * (spe/ring_sim.h) and drain them with the live path's spe_session_drain()
 * into a sink, after synthesizing the manifest's sideband as kernel records.
 */
#ifndef SPE_REPLAY_H
#define SPE_REPLAY_H

#include <signal.h>

#include "spe/replay_manifest.h"
#include "spe/session.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SPE_REPLAY_DEFAULT_AUX_SIZE (4u << 20)    /* perf record's default for root */
#define SPE_REPLAY_DEFAULT_DATA_SIZE (512u << 10)

struct spe_replay_config {
	uint64_t aux_size;      /* AUX area per CPU, power of two; 0 = 4 MiB */
	uint64_t burst;         /* bytes the hardware writes between two wakeups; 0 = aux_size / 2 */
	uint64_t data_size;     /* data ring per CPU, power of two; 0 = 512 KiB */
	uint64_t sample_type;   /* trailer layout of the synthesized kernel records */
	uint64_t sample_id;     /* the id in their trailers */
	/* Polled between drains; when it becomes non-zero the replay stops early (signals). */
	const volatile sig_atomic_t *stop; /* set from a signal handler */
};

struct spe_replay_stats {
	uint64_t input_bytes;   /* SPE bytes in the aux files */
	uint64_t aux_written;   /* bytes that went through the rings */
	uint64_t aux_dropped;   /* bytes dropped by truncation (exact) */
	uint64_t records_dropped; /* kernel records dropped by a full data ring */
	int stopped;            /* stopped early by *stop */
};

/*
 * Check @p cfg as spe_replay_run() would, before anything is created:
 * 0, or -spe_invalid with the reason in @p err.
 */
int spe_replay_check_config(const struct spe_replay_config *cfg, char *err, size_t errsize);

/*
 * Run a replay.  Returns 0, or a negative error with a message in @p err:
 * -spe_io / -spe_invalid (an aux file cannot be read, bad sizes) or the
 * sink's error.
 */
int spe_replay_run(const struct spe_replay_manifest *m, const struct spe_replay_config *cfg,
		   const struct spe_session_sink *sink, struct spe_session_stats *session_stats,
		   struct spe_replay_stats *stats, char *err, size_t errsize);

/*
 * Record boundaries: the offsets (relative to @p from) just after each
 * TIMESTAMP or END packet in bytes[from, from + limit) -- where the hardware
 * may stop writing.  Writes at most @p cap entries; returns how many.
 */
size_t spe_replay_record_ends(const uint8_t *bytes, uint64_t len, uint64_t from, uint64_t limit, uint64_t *cuts,
			      size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* SPE_REPLAY_H */
