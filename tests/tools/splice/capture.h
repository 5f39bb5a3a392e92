/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The input of spe-splice: a perf.data that `perf record` wrote (file or
 * pipe format), read whole into memory.  Its top-level records are kept as
 * byte ranges to be copied verbatim; the sideband inside them (COMM, FORK,
 * EXIT, MMAP, MMAP2, SWITCH, SWITCH_CPU_WIDE), including what perf -z
 * compressed into PERF_RECORD_COMPRESSED records, is decoded into events
 * with their sample_id times.  Layouts: include/uapi/linux/perf_event.h and
 * tools/perf/util/header.c (file header, attrs, features), util/session.c
 * (record framing, COMPRESSED), util/zstd.c (one zstd stream across all
 * COMPRESSED records of a file).
 */
#ifndef SPLICE_CAPTURE_H
#define SPLICE_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

enum {
	CAP_MMAP = 1,
	CAP_COMM = 3,
	CAP_EXIT = 4,
	CAP_FORK = 7,
	CAP_SAMPLE = 9,
	CAP_MMAP2 = 10,
	CAP_AUX = 11,
	CAP_ITRACE_START = 12,
	CAP_SWITCH = 14,
	CAP_SWITCH_CPU_WIDE = 15,
	CAP_USER_START = 64,
	CAP_HEADER_ATTR = 64,
	CAP_HEADER_EVENT_TYPE = 65,
	CAP_HEADER_TRACING_DATA = 66,
	CAP_HEADER_BUILD_ID = 67,
	CAP_FINISHED_ROUND = 68,
	CAP_AUXTRACE_INFO = 70,
	CAP_AUXTRACE = 71,
	CAP_TIME_CONV = 79,
	CAP_HEADER_FEATURE = 80,
	CAP_COMPRESSED = 81,
	CAP_COMPRESSED2 = 83,
};

/* perf_event_attr.sample_type bits */
enum {
	CAP_S_IP = 1u << 0,
	CAP_S_TID = 1u << 1,
	CAP_S_TIME = 1u << 2,
	CAP_S_ADDR = 1u << 3,
	CAP_S_ID = 1u << 6,
	CAP_S_CPU = 1u << 7,
	CAP_S_STREAM_ID = 1u << 9,
	CAP_S_DATA_SRC = 1u << 15,
	CAP_S_IDENTIFIER = 1u << 16,
	CAP_S_PHYS_ADDR = 1u << 19,
};

/* header features (bit numbers) */
enum {
	CAP_F_BUILD_ID = 2,
	CAP_F_ARCH = 6,
	CAP_F_NRCPUS = 7,
	CAP_F_CPUDESC = 8,
	CAP_F_CPUID = 9,
	CAP_F_EVENT_DESC = 12,
	CAP_F_PMU_MAPPINGS = 16,
	CAP_F_AUXTRACE = 18,
	CAP_F_COMPRESSED = 27,
	CAP_F_MAX = 256,
};

#define CAP_MAX_ATTRS 64

struct cap_attr {
	const uint8_t *raw; /* the perf_event_attr bytes as stored */
	uint32_t raw_size;
	uint32_t type;
	uint64_t config, sample_type, read_format, flags;
	const uint8_t *ids; /* n_ids little-endian u64 */
	uint32_t n_ids;
	uint32_t pipe_record; /* pipe: index of its HEADER_ATTR record */
};

/* A top-level record of the input, in input order. */
struct cap_record {
	uint64_t offset;     /* of its header, from the start of the input */
	const uint8_t *bytes;
	uint64_t len;        /* header.size, plus the payload of TRACING_DATA and AUXTRACE */
	uint32_t type;
	uint16_t misc;
	uint64_t max_time;   /* largest sample time of the kernel records it holds or completes; 0 none */
};

/* A decoded sideband record. */
struct cap_event {
	uint32_t type;
	uint16_t misc;
	uint32_t record;     /* index of the top-level record that holds (or completes) it */
	int inner;           /* it came out of a COMPRESSED record */
	uint64_t time;
	int has_time;
	uint32_t cpu;
	int has_cpu;
	uint32_t sid_pid, sid_tid;
	int has_tid;
	union {
		struct { uint32_t pid, tid; int exec; char name[32]; } comm;
		struct { uint32_t pid, ppid, tid, ptid; } task;
		struct {
			uint32_t pid, tid;
			uint64_t start, len, pgoff;
			uint32_t prot;   /* 0 for MMAP (type 1): executable unless misc says data */
			int kernel;      /* cpumode kernel (misc & 7 == 1) */
			int data;        /* not executable */
			uint8_t build_id[20], build_id_size;
			char *filename;  /* owned */
		} mmap;
		struct { int out; uint32_t next_prev_pid, next_prev_tid; int cpu_wide; } sw;
	} u;
};

struct cap_time_conv {
	uint64_t shift, mult, zero, cycles, mask;
	uint8_t cap_zero, cap_short;
};

struct capture {
	const char *name;
	uint8_t *buf;         /* the whole input */
	size_t size;
	int pipe;
	/* file mode */
	uint64_t attr_size, data_offset, data_size;
	uint64_t features[4];
	struct { const uint8_t *data; uint64_t size; } feat[CAP_F_MAX];
	/* pipe mode: index of the HEADER_FEATURE record of each feature, or UINT32_MAX */
	uint32_t feat_record[CAP_F_MAX];
	struct cap_attr attrs[CAP_MAX_ATTRS];
	uint32_t n_attrs;
	int identifier;       /* every attr has PERF_SAMPLE_IDENTIFIER */
	int allow_aux;        /* AUXTRACE records are accepted (cap_parse_output) */
	struct cap_record *records;
	uint32_t n_records;
	struct cap_event *events;
	uint32_t n_events, events_cap;
	uint64_t n_compressed, compressed_in, compressed_out;
	uint64_t max_id;      /* largest sample id of the attrs */
	int has_time_conv;
	struct cap_time_conv time_conv;
	uint64_t min_time, max_time; /* of the decoded events */
};

/*
 * Read @p path ("-" = stdin) whole and decode it.  0, or -1 with
 * "NAME: offset 0xOFF: problem" in @p err; *status is the exit status to use
 * (65 bad data, 66 cannot open, 74 read error, 69 a record type perf 6.1 cannot read).
 */
int cap_read(struct capture *c, const char *path, char *err, size_t errlen, int *status);
/* The same on a buffer the capture takes over (malloc'd; freed by cap_free). */
int cap_parse(struct capture *c, uint8_t *buf, size_t size, const char *name, char *err, size_t errlen,
	      int *status);
/* The same, accepting AUXTRACE_INFO and AUXTRACE records (to read spe-splice's own output back). */
int cap_parse_output(struct capture *c, uint8_t *buf, size_t size, const char *name, char *err, size_t errlen,
		     int *status);
void cap_free(struct capture *c);

/* Little-endian reads (the only byte order perf.data files here have). */
static inline uint64_t cap_u64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}
static inline uint32_t cap_u32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint16_t cap_u16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

#endif
