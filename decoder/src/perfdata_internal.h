/* SPDX-License-Identifier: Apache-2.0 */
/* Internals shared by the perf.data reader files (perfdata_*.c). */
#ifndef SPE_PERFDATA_INTERNAL_H
#define SPE_PERFDATA_INTERNAL_H

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "spe/spe.h"

/* Little-endian loads from possibly unaligned bytes. */
static inline uint16_t pd_le16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static inline uint32_t pd_le32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint64_t pd_le64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/* a + b without wrapping; returns 0 on overflow. */
static inline int pd_add_ok(uint64_t a, uint64_t b, uint64_t *sum)
{
	return !__builtin_add_overflow(a, b, sum);
}

/*
 * Whether an AUXTRACE chunk at ring offset @p off continues the chunk at
 * @p prev_off of @p prev_size bytes.  perf pads each chunk's data to 8 bytes
 * and counts the padding in the size, but advances the ring offset by the
 * data alone: the next chunk starts up to 7 bytes before prev_off + prev_size,
 * and the bytes from there on were padding.
 */
static inline int pd_aux_continues(uint64_t prev_off, uint64_t prev_size, uint64_t off)
{
	uint64_t end;
	if (!pd_add_ok(prev_off, prev_size, &end))
		return 0;
	return off >= prev_off && off <= end && end - off < 8;
}

/* A TIMESTAMP value as perf time (ns): spe_perf_tsc_to_time, inline for the per-record path of the AUX layer. */
static inline uint64_t pd_tsc_to_time(const struct spe_perf_time_conv *tc, uint64_t cyc)
{
	if (tc->cap_user_time_short)
		cyc = tc->time_cycles + ((cyc - tc->time_cycles) & tc->time_mask);
	unsigned shift = tc->time_shift > 63 ? 63 : (unsigned)tc->time_shift;
	uint64_t quot = cyc >> shift, rem = cyc & ((1ull << shift) - 1);
	return tc->time_zero + quot * tc->time_mult + ((rem * tc->time_mult) >> shift);
}

#define PD_FILE_HEADER_SIZE 104
#define PD_PIPE_HEADER_SIZE 16
#define PD_EVENT_HEADER_SIZE 8
#define PD_AUXTRACE_SIZE 48
#define PD_TRACING_DATA_MIN 12   /* header + u32 size (perf writes 16: a u32 of padding) */
#define PD_ATTR_MAX 256          /* bytes of an attr we keep */
#define PD_ATTR_MIN 64           /* PERF_ATTR_SIZE_VER0 */
#define PD_SAMPLE_ID_ALL (1ull << 18)
#define PD_USE_CLOCKID (1ull << 25)
#define PD_EXCLUDE_USER (1ull << 4)   /* perf_event_attr flag bits */
#define PD_EXCLUDE_KERNEL (1ull << 5)

/*
 * Byte source: a mapping (file or caller memory) or a forward-only stream
 * read through a bounded buffer.
 */
struct pd_source {
	const uint8_t *base;   /* mapping: whole input */
	uint64_t len;
	void *map;             /* our mmap, to munmap */
	size_t map_len;
	uint64_t released;     /* mapping: pages before this offset were released (the event cursor's) */
	int keep_pages;
	int fd;
	int owns_fd;
	int streamed;
	uint8_t *buf;          /* stream window [buf_off, buf_off + fill) */
	size_t cap, max_cap, fill;
	uint64_t buf_off;
	int eof;
};

struct pd_attr {
	struct spe_perf_attr pub;
	uint64_t *ids;
};

struct pd_build_id {
	struct spe_perf_build_id pub;
	char *filename;
};

struct pd_queue {
	uint32_t idx;
	uint32_t n;
	size_t cap;
	struct spe_perf_aux_chunk *chunks;
};

struct pd_decomp;

struct spe_perf_file {
	struct spe_perf_config cfg;
	struct pd_source src;
	char *name;
	char errmsg[640];
	char errwhat[384];     /* the problem of errmsg alone (a warning rewords it) */
	uint64_t err_off;
	uint64_t fail_stream_off; /* decompressed-stream offset pd_fail adds, UINT64_MAX when reading plain records */
	char *warnings[SPE_PERF_MAX_WARNINGS];
	int err;               /* sticky error of the iterator */
	struct spe_perf_info info;
	uint64_t pos, end;     /* iterator: next event, end of data */
	struct pd_attr *attrs;
	uint32_t n_attrs;
	/* sample_id layout: identical for every attr, or routed by IDENTIFIER */
	int sid_same, sid_identifier;
	char *strings[8];      /* owned feature strings */
	struct pd_build_id *build_ids;
	uint32_t n_build_ids;
	struct spe_perf_spe_cpu *spe_cpus;
	uint32_t n_spe_cpus;
	struct pd_numa_node {       /* NUMA_TOPOLOGY and MEM_TOPOLOGY, merged by node number */
		struct spe_perf_numa_node pub;
		char *cpus;
		uint64_t *blocks;
	} *numa;
	uint32_t n_numa;
	char *scratch;         /* names of the current event */
	size_t scratch_cap;
	struct pd_queue *queues;
	uint32_t n_queues;
	int indexed;
	struct pd_decomp *decomp; /* perf record -z: perfdata_compressed.c */
	uint8_t *held;         /* streams: a record's header kept while its trailing payload is skipped */
	size_t held_cap;
};

/* Record an error "name: offset 0x..: fmt" and return @p code (negative). */
int pd_fail(struct spe_perf_file *f, int code, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Keep a warning "name: offset 0x..: fmt" (spe_perf_warning); -spe_nomem only when it cannot be kept. */
int pd_warn(struct spe_perf_file *f, uint64_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Source: perfdata_source.c */
int pd_source_map_fd(struct pd_source *s, int fd, uint64_t len);
void pd_source_mem(struct pd_source *s, const void *buf, size_t len);
void pd_source_stream(struct pd_source *s, int fd, size_t max_cap);
void pd_source_fini(struct pd_source *s);
/*
 * Point *out at bytes [off, off + len).  Returns 0, -spe_truncated (input
 * ends first), -spe_nomem (stream buffer limit), -spe_io.  Streams only go
 * forward: bytes before @p off may be dropped.
 */
int pd_source_get(struct pd_source *s, uint64_t off, uint64_t len, const uint8_t **out);
/*
 * Mapping: let the kernel drop the pages before @p off (no-op for
 * streams/memory), all but those of the 2 MB block of @p off (faults at the
 * cursor may map them), in steps of 4 MB; *mark is the cursor's watermark.
 */
void pd_source_release_behind(struct pd_source *s, uint64_t *mark, uint64_t off);
/* pd_source_release_behind() with the event cursor's watermark. */
void pd_source_release(struct pd_source *s, uint64_t off);
/*
 * Mapping: let the kernel drop every page a read of [off, off + len) may
 * have mapped: the 2 MB blocks it touches, neighbours' bytes included (AUX
 * chunks read out of file order; what is needed again is refaulted).
 */
void pd_source_release_range(struct pd_source *s, uint64_t off, uint64_t len);

/* Features and attrs: perfdata_features.c */
int pd_parse_feature(struct spe_perf_file *f, unsigned bit, const uint8_t *p, uint64_t size, uint64_t off);
/*
 * Every feature section is optional to decode SPE: one that does not parse
 * is skipped, with a warning, and nothing of it is kept.  Returns 0, or
 * -spe_nomem.
 */
int pd_parse_optional_feature(struct spe_perf_file *f, unsigned bit, const uint8_t *p, uint64_t size,
			      uint64_t off);
/* "NUMA_TOPOLOGY (14)", or "33" for a bit without a name, into @p buf. */
const char *pd_feature_label(unsigned bit, char *buf, size_t len);
int pd_add_attr(struct spe_perf_file *f, const uint8_t *attr, uint64_t attr_bytes, const uint8_t *ids,
		uint64_t n_ids, uint64_t off);
void pd_update_sid_layout(struct spe_perf_file *f);
/* Check a perf header string (u32 length, NUL-padded bytes): *@p used = its bytes. */
int pd_string_size(struct spe_perf_file *f, const uint8_t *p, uint64_t size, uint64_t off, uint64_t *used);
/* A perf header string into *@p out; *@p used = bytes consumed. */
int pd_read_string(struct spe_perf_file *f, const uint8_t *p, uint64_t size, uint64_t off, char **out,
		   uint64_t *used);
/* NUMA_TOPOLOGY and MEM_TOPOLOGY: perfdata_numa.c */
int pd_parse_numa_topology(struct spe_perf_file *f, const uint8_t *p, uint64_t size, uint64_t off);
int pd_parse_mem_topology(struct spe_perf_file *f, const uint8_t *p, uint64_t size, uint64_t off);
void pd_free_numa(struct spe_perf_file *f);
int pd_parse_auxtrace_info(struct spe_perf_file *f, const uint8_t *p, uint32_t size, uint64_t off,
			   struct spe_perf_auxtrace_info *out);

/* Events: perfdata_events.c */
int pd_parse_event(struct spe_perf_file *f, const uint8_t *p, uint32_t size, uint64_t off,
		   struct spe_perf_event *ev);

/*
 * perf record -z: perfdata_compressed.c.  One zstd stream runs through all
 * of a file's COMPRESSED/COMPRESSED2 records; pd_decomp_begin hands it the
 * zstd bytes of the next one (copied), pd_decomp_next returns the records
 * they complete: 1 with @p ev parsed, 0 once the bytes are used up (an
 * incomplete record waits for the next compressed record), or an error.
 */
int pd_decomp_begin(struct spe_perf_file *f, uint64_t off, const uint8_t *zstd_bytes, size_t n);
int pd_decomp_next(struct spe_perf_file *f, struct spe_perf_event *ev);
/* At the end of the data: -spe_truncated (info.cut set) if a decompressed record is incomplete, else 0. */
int pd_decomp_finish(struct spe_perf_file *f);
void pd_decomp_free(struct spe_perf_file *f);

#endif
