/* SPDX-License-Identifier: Apache-2.0 */
/* Record layer: packets grouped into SPE records. */
#ifndef SPE_RECORD_H
#define SPE_RECORD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum spe_op_flag_bit {
#define SPE_X(id, word, desc) SPE_OPF_BIT_##id,
	SPE_OP_FLAG_LIST(SPE_X)
#undef SPE_X
	SPE_OPF_BIT_COUNT
};
#define SPE_OPF(id) (1u << SPE_OPF_BIT_##id)

enum spe_op_class {
#define SPE_X(id, name) SPE_OP_CLASS_##id,
	SPE_OP_CLASS_LIST(SPE_X)
#undef SPE_X
};

/* Which fields of a record were present in the trace. */
enum spe_record_has {
	SPE_HAS_PC = 1u << 0,
	SPE_HAS_BRANCH_TARGET = 1u << 1,
	SPE_HAS_DATA_VA = 1u << 2,
	SPE_HAS_DATA_PA = 1u << 3,
	SPE_HAS_PREV_BRANCH_TARGET = 1u << 4,
	SPE_HAS_TIMESTAMP = 1u << 5,
	SPE_HAS_EVENTS = 1u << 6,
	SPE_HAS_TOTAL_LATENCY = 1u << 7,
	SPE_HAS_ISSUE_LATENCY = 1u << 8,
	SPE_HAS_TRANSLATION_LATENCY = 1u << 9,
	SPE_HAS_CONTEXT = 1u << 10,
	SPE_HAS_OP_TYPE = 1u << 11,
	SPE_HAS_DATA_SOURCE = 1u << 12,
	SPE_HAS_END = 1u << 13, /* closed by an END packet (else by a TIMESTAMP) */
	SPE_HAS_PARTIAL = 1u << 14, /* cut by a decode error or the end of data (config.emit_partial) */
};

/* An instruction address with its exception level and security bits. */
struct spe_ip {
	uint64_t addr; /* canonicalised as perf does (kernel addresses sign-filled) */
	uint8_t el;    /* 0..3 */
	uint8_t ns;    /* non-secure */
	uint8_t nse;   /* FEAT_RME NSE bit */
};

/* Room per record for counters and addresses of unnamed indices; more are counted in dropped_extras. */
#define SPE_REC_MAX_EXTRA 8

struct spe_record {
	uint64_t offset;      /* stream offset of the record's first packet */
	uint32_t has;         /* SPE_HAS_* */
	uint32_t op_flags;    /* SPE_OPF(...) */
	struct spe_ip pc, branch_target, prev_branch_target;
	uint64_t data_va;     /* tag byte removed, sign-filled when bits 55:52 are all ones */
	uint8_t data_va_tag;  /* top byte of the VA packet */
	uint8_t data_pa_ns, data_pa_ch, data_pa_pat;
	uint64_t data_pa;     /* bits 55:0 */
	uint64_t timestamp;
	uint64_t events;      /* raw EVENTS payload: bit n = event n (IMPDEF kept) */
	uint16_t total_latency, issue_latency, translation_latency;
	uint8_t op_class;     /* enum spe_op_class */
	uint8_t op_raw_class; /* op-type header bits 1:0 */
	uint8_t op_raw;       /* op-type payload */
	uint8_t context_index; /* 0 = EL1, 1 = EL2 */
	uint32_t context;
	uint16_t sve_evl;     /* SVE EVLEN or SME ETS in bits, 0 = n/a; saturates at 65535 */
	uint64_t data_source;
	/* counters and addresses of indices not named in the facts table */
	uint8_t n_extra_counters, n_extra_addresses, n_unknown_packets;
	struct { uint8_t index; uint16_t value; } extra_counters[SPE_REC_MAX_EXTRA];
	struct { uint8_t index; uint64_t value; } extra_addresses[SPE_REC_MAX_EXTRA];
};

/* Opaque streaming record decoder. */
struct spe_rec_decoder;

struct spe_rec_config {
	size_t size;    /* sizeof(struct spe_rec_config); use SPE_OPTS */
	uint32_t midr;  /* CPU that produced the trace, 0 = unknown */
	/* Called once per decode error (bad header, cut packet); may be NULL. */
	void (*on_error)(void *ctx, uint64_t offset, int err, const char *reason);
	void *ctx;
	/*
	 * 0: drop records cut by an error or by the end of data (counted in
	 * partial_records).  A bad byte cuts a record in two: the head before
	 * it, and the tail after it up to and including the next END or
	 * TIMESTAMP.  1: return these pieces too, with SPE_HAS_PARTIAL set, as
	 * perf does when it synthesizes samples from a damaged record.
	 */
	int emit_partial;
};

struct spe_rec_stats {
	uint64_t records;       /* complete records returned (never a broken record's tail) */
	uint64_t bad_bytes;     /* bytes that were not a valid packet */
	uint64_t skipped_bytes; /* bad bytes + bytes of dropped partial records */
	uint64_t partial_records; /* heads and tails cut by an error, records cut by the end of data */
	uint64_t unknown_packets; /* packets of an index or class facts.h does not name, or SPE_PKT_UNKNOWN */
	/* counters and addresses of unnamed indices past SPE_REC_MAX_EXTRA in a record: not kept */
	uint64_t dropped_extras;
};

SPE_API struct spe_rec_decoder *spe_rec_alloc_decoder(const struct spe_rec_config *config);
SPE_API void spe_rec_free_decoder(struct spe_rec_decoder *dec);

/*
 * Give the decoder the next chunk of one stream.  @p offset is the stream
 * offset of buf[0].  A record may span chunks; a packet cut at the end of a
 * chunk is treated as perf does (its bytes are bad) unless the chunk is
 * followed by spe_rec_feed() of the contiguous bytes with @p join = 1.
 * The buffer must stay valid until spe_rec_next() returns -spe_eos.
 */
SPE_API int spe_rec_feed(struct spe_rec_decoder *dec, const uint8_t *buf, size_t len, uint64_t offset,
			 int join);

/*
 * Decode the next record into @p rec (@p size = sizeof *rec).  Returns 0 with
 * a record, -spe_eos when the fed bytes are used up.  *rec is scratch space
 * while a record is assembled and is overwritten whole (unused entries of the
 * extra arrays are zero); read it only after a return of 0.  Errors are reported
 * through config.on_error and counted; they do not stop decoding.
 */
SPE_API int spe_rec_next(struct spe_rec_decoder *dec, struct spe_record *rec, size_t size);

/* Drop any partial record (end of a stream).  Counted in partial_records. */
SPE_API void spe_rec_flush(struct spe_rec_decoder *dec);

SPE_API void spe_rec_get_stats(const struct spe_rec_decoder *dec, struct spe_rec_stats *stats, size_t size);

/* Decode an op-type packet into class and flags (used by the record decoder). */
SPE_API void spe_op_decode(uint8_t raw_class, uint8_t payload, uint8_t *op_class, uint32_t *op_flags,
			   uint16_t *sve_evl);

/*
 * "LD GP-REG", "B COND" ... the op text of the newest perf ("" without an
 * op-type packet), NUL-terminated and truncated to @p size.  Returns the
 * full length (as snprintf does; buf may be NULL with size 0), or -spe_invalid.
 */
SPE_API int spe_record_op_text(const struct spe_record *rec, char *buf, size_t size);

/* Names from the facts table; NULL for values not in it. */
SPE_API const char *spe_op_class_name(unsigned op_class);
SPE_API const char *spe_event_column(unsigned bit);
SPE_API const char *spe_event_dump_word(unsigned bit);
/* The name @p midr's part gives IMPLEMENTATION DEFINED event @p bit (e.g. N1 bit 12 → "LATE-PREFETCH"). */
SPE_API const char *spe_impdef_event_name(uint32_t midr, unsigned bit);
/* Its column name ("late_prefetch"), as spe_event_column gives for architected bits. */
SPE_API const char *spe_impdef_event_column(uint32_t midr, unsigned bit);
SPE_API const char *spe_counter_column(unsigned index);
SPE_API const char *spe_address_column(unsigned index);
SPE_API const char *spe_op_flag_word(unsigned flag_bit);

/* CPU facts: look up by MIDR (implementer + part). NULL/-1 when unknown. */
struct spe_cpu_info {
	uint32_t implementer, part;
	const char *name;        /* "neoverse-n1" */
	const char *spe_version; /* "1.1" */
	int ds_map;              /* enum spe_ds_map */
};
enum spe_ds_map { SPE_DS_MAP_NONE = 0, SPE_DS_MAP_COMMON, SPE_DS_MAP_AMPEREONE, SPE_DS_MAP_HISI_HIP };
enum spe_mem_level {
	SPE_MEM_LEVEL_UNKNOWN = -1,
#define SPE_X(id, name, peer, desc) SPE_MEM_LEVEL_##id,
	SPE_MEM_LEVEL_LIST(SPE_X)
#undef SPE_X
};
SPE_API const struct spe_cpu_info *spe_cpu_lookup(uint32_t midr);
SPE_API const struct spe_cpu_info *spe_cpu_by_name(const char *name);
/* Memory level of a load's data-source code on @p midr; SPE_MEM_LEVEL_UNKNOWN if unmapped. */
SPE_API int spe_mem_level(uint32_t midr, uint64_t data_source, int *modified);
SPE_API const char *spe_mem_level_name(int level);
/* 1 if @p level is on another socket or chip (SPE_MEM_LEVEL_REMOTE_LIST), else 0. */
SPE_API int spe_mem_level_is_remote(int level);
/* 1 if @p level is another core's, cluster's or socket's cache (the list's peer column), else 0. */
SPE_API int spe_mem_level_is_peer(int level);
/* One data-source code of a part's map (SPE_DATA_SOURCE_LIST). */
struct spe_ds_entry {
	uint8_t code;
	int level;    /* enum spe_mem_level */
	int modified; /* the line was modified where it came from */
};
/* The codes of @p cpu's data-source map, in list order, up to @p cap; returns how many the map has. */
SPE_API size_t spe_cpu_data_sources(const struct spe_cpu_info *cpu, struct spe_ds_entry *out, size_t cap);
/* The IMPDEF event bit @p midr's part names @p column ("late_prefetch"), or -1. */
SPE_API int spe_impdef_event_bit(uint32_t midr, const char *column);
/*
 * Does part @p cpu record event @p bit?  1 when its SPE version is at least
 * the version the event list names for the bit, 0 when older, -1 when the
 * part's version or the bit's is unknown (IMPDEF bits: spe_impdef_event_column).
 */
SPE_API int spe_cpu_has_event(const struct spe_cpu_info *cpu, unsigned bit);

#ifdef __cplusplus
}
#endif

#endif /* SPE_RECORD_H */
