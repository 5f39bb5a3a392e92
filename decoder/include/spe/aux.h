/* SPDX-License-Identifier: Apache-2.0 */
/*
 * AUX stream layer: between the perf.data reader (perfdata.h) and the record
 * decoder (record.h), as libipt layers packet → query → instruction.
 *
 * One decoder over an open perf.data (file or pipe) or raw input yields
 * records with their queue, CPU, tid, perf time and file offset.  It owns
 * the rules every command follows (docs/aux-api.md):
 *
 *  - queues: one record decoder per AUXTRACE idx;
 *  - joins: a chunk that starts where its queue's previous chunk ended
 *    continues it (a record, and a packet, may span the two); any other
 *    chunk is a gap: the record cut by it is ended (partial) first;
 *  - CPUs: an AUXTRACE cpu field is -1 (per-thread) or below both
 *    SPE_AUX_MAX_CPUS and the file's HEADER_NRCPUS; anything else is bad
 *    data (-spe_bad_file);
 *  - Arm SPE only: an AUXTRACE_INFO of another kind, or a perf.data with
 *    neither an arm_spe AUXTRACE_INFO nor AUX data, is -spe_bad_file;
 *  - statistics: one struct for the decoders and the AUX stream.
 */
#ifndef SPE_AUX_H
#define SPE_AUX_H

#include <stddef.h>
#include <stdint.h>

#include "spe/spe.h"

#ifdef __cplusplus
extern "C" {
#endif

struct spe_perf_file;
struct spe_perf_event;
struct spe_raw_input;
struct spe_record;
struct spe_aux_decoder;

/*
 * The most CPUs an AUXTRACE cpu field may number (ids 0 .. 4095): the
 * largest NR_CPUS arm64 kernels are built with (arch/arm64/Kconfig).
 */
#define SPE_AUX_MAX_CPUS 4096

/* item.time when the record has no TIMESTAMP or the input no TIME_CONV. */
#define SPE_AUX_NO_TIME UINT64_MAX
/* item.file_offset when the byte's place in the file is not known. */
#define SPE_AUX_NO_OFFSET UINT64_MAX

enum spe_aux_order {
	/*
	 * Every perf event first (returned as SPE_AUX_EVENT items when asked
	 * for), then each queue whole, in idx order, its chunks sorted by ring
	 * offset.  A record's sideband is then all known before it.  Mapped
	 * files only (-spe_unsupported on a pipe).
	 */
	SPE_AUX_ORDER_QUEUE = 0,
	/* Chunks as they come in the file, events between them; works on pipes. */
	SPE_AUX_ORDER_FILE,
};

enum spe_aux_join {
	/* a packet cut by the end of a chunk is completed by a contiguous next chunk */
	SPE_AUX_JOIN_CONTIGUOUS = 0,
	/* as perf: the bytes of a cut packet are decoded on their own (raw windows still join) */
	SPE_AUX_JOIN_NEVER,
};

enum spe_aux_item_type {
	SPE_AUX_RECORD = 1, /* item.record, with queue, cpu, tid, midr, offset, file_offset, time */
	SPE_AUX_EVENT = 2,  /* item.event: a perf event as read (config.items & SPE_AUX_WANT_EVENTS) */
	SPE_AUX_CHUNK = 3,  /* item.data/size: AUX bytes about to be decoded (config.items & SPE_AUX_WANT_CHUNKS) */
};
#define SPE_AUX_WANT_EVENTS (1u << SPE_AUX_EVENT)
#define SPE_AUX_WANT_CHUNKS (1u << SPE_AUX_CHUNK)

/* item.chunk_flags */
enum spe_aux_chunk_flag {
	SPE_AUX_CHUNK_FIRST = 1u << 0, /* the first chunk of its queue */
	SPE_AUX_CHUNK_JOINED = 1u << 1, /* continues the previous chunk of its queue */
	SPE_AUX_CHUNK_GAP = 1u << 2,   /* does not: the queue's record in progress was ended */
};

/* A decode error, with where it happened (config.on_error). */
struct spe_aux_error {
	uint32_t queue;
	int32_t cpu;
	uint64_t offset;      /* stream offset of the bad byte */
	uint64_t file_offset; /* its file offset, SPE_AUX_NO_OFFSET if unknown */
	int code;             /* negative spe_* code */
	const char *reason;
};

struct spe_aux_config {
	size_t size;                  /* use SPE_OPTS */
	/* The input, borrowed (it must outlive the decoder): an open perf.data, or raw input. */
	struct spe_perf_file *perf;
	struct spe_raw_input *raw;
	int32_t raw_cpu;              /* the cpu reported for raw input: -1 (unknown) or a CPU number */
	enum spe_aux_order order;
	enum spe_aux_join join;
	uint32_t items;               /* SPE_AUX_WANT_*: items to return besides records */
	int emit_partial;             /* as struct spe_rec_config */
	/* Called once per decode error; may be NULL.  Errors are counted either way. */
	void (*on_error)(void *ctx, const struct spe_aux_error *err);
	void *ctx;
};

/* What spe_aux_next() returns.  Pointers are valid until the next call. */
struct spe_aux_item {
	uint32_t type;                /* enum spe_aux_item_type */
	/* records and chunks */
	uint32_t queue;               /* AUXTRACE idx (0 for raw input) */
	int32_t cpu;                  /* AUXTRACE cpu: -1 in per-thread mode or unknown */
	int32_t tid;                  /* AUXTRACE tid: -1 in per-CPU mode */
	uint32_t midr;                /* of the CPU that wrote the bytes (spe_perf_midr), 0 = unknown */
	uint32_t chunk_flags;         /* chunks: SPE_AUX_CHUNK_* */
	uint64_t offset;              /* stream (AUX ring) offset of the record's first byte, or of data[0] */
	uint64_t file_offset;         /* file offset of that byte, SPE_AUX_NO_OFFSET if unknown */
	uint64_t time;                /* records: TIMESTAMP as perf time (TIME_CONV), else SPE_AUX_NO_TIME */
	const struct spe_record *record;     /* SPE_AUX_RECORD */
	const struct spe_perf_event *event;  /* SPE_AUX_EVENT */
	const uint8_t *data;                 /* SPE_AUX_CHUNK */
	uint64_t size;
};

/* Record decoders summed over queues, and the AUX stream.  Filled up to the size passed. */
struct spe_aux_stats {
	/* the record decoders (struct spe_rec_stats), summed */
	uint64_t records, bad_bytes, skipped_bytes, partial_records, unknown_packets, dropped_extras;
	uint64_t queues;        /* queues seen */
	uint64_t chunks, bytes; /* AUXTRACE chunks (raw: windows) decoded, and their bytes */
	uint64_t gaps;          /* chunks that did not start where their queue's previous one ended */
	/* PERF_RECORD_AUX, and those with the truncated / partial / collision flag, read so far */
	uint64_t aux_records, aux_truncated, aux_partial, aux_collision;
	uint64_t lost;          /* events the kernel counted lost in PERF_RECORD_LOST */
	/*
	 * The file ends before its data (spe_perf_info.cut): 1, with the offset
	 * of the first record not whole and the bytes missing.  Every whole SPE
	 * record before the cut (an AUXTRACE record's data up to it included) is
	 * returned first; then spe_aux_next() returns -spe_truncated, with
	 * spe_aux_errmsg() naming file, offset and what was cut.  A cut before
	 * any SPE data fails at once, with cut 0.
	 */
	uint64_t cut, cut_offset, cut_bytes;
};

/*
 * A decoder over config->perf or config->raw (exactly one).  NULL without
 * memory, or with -spe_invalid-worthy config (no input, both, raw_cpu out
 * of range).
 */
SPE_API struct spe_aux_decoder *spe_aux_alloc_decoder(const struct spe_aux_config *config);
SPE_API void spe_aux_free_decoder(struct spe_aux_decoder *aux);

/*
 * The next item: returns its type (> 0) with @p item filled up to @p size,
 * -spe_eos at the end, or a negative error (sticky; spe_aux_errmsg() names
 * the file, the offset and the problem).  -spe_bad_file for bad data the
 * rules above refuse, or the reader's code for a broken perf.data.
 */
SPE_API int spe_aux_next(struct spe_aux_decoder *aux, struct spe_aux_item *item, size_t size);

SPE_API void spe_aux_get_stats(const struct spe_aux_decoder *aux, struct spe_aux_stats *stats, size_t size);

/* "NAME: offset 0xOFF: problem" for the last error, "" if none. */
SPE_API const char *spe_aux_errmsg(const struct spe_aux_decoder *aux);

#ifdef __cplusplus
}
#endif

#endif /* SPE_AUX_H */
