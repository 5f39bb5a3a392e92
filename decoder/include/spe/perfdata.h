/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perf.data and raw-aux input layer, and the perf.data writer.
 *
 * Reader: an opaque handle (struct spe_perf_file) opened on a path, an fd
 * (file or pipe) or a memory buffer.  Files are mmapped; pipes are streamed
 * through a bounded buffer; nothing is read whole into memory.  Events come
 * out of spe_perf_next() in file order, typed, each with its file offset.
 * Errors are data: spe_perf_errmsg() gives "NAME: offset 0x...: problem".
 *
 * Raw input: a file of bare SPE bytes (no perf framing) with the MIDR given
 * by the caller, handed out in windows.
 *
 * Writer: appends events to an fd and writes the header and feature
 * sections at close; see docs/perfdata-api.md.
 *
 * The PERF_RECORD_* numbers and byte layouts are perf's ABI
 * (include/uapi/linux/perf_event.h and tools/perf/util/event.h).
 */
#ifndef SPE_PERFDATA_H
#define SPE_PERFDATA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct spe_rec_decoder;

/* perf record types the reader understands (perf ABI numbers). */
enum spe_perf_record_type {
	SPE_PERF_RECORD_MMAP = 1,
	SPE_PERF_RECORD_LOST = 2,
	SPE_PERF_RECORD_COMM = 3,
	SPE_PERF_RECORD_EXIT = 4,
	SPE_PERF_RECORD_FORK = 7,
	SPE_PERF_RECORD_SAMPLE = 9,
	SPE_PERF_RECORD_MMAP2 = 10,
	SPE_PERF_RECORD_AUX = 11,
	SPE_PERF_RECORD_ITRACE_START = 12,
	SPE_PERF_RECORD_LOST_SAMPLES = 13,
	SPE_PERF_RECORD_SWITCH = 14,
	SPE_PERF_RECORD_SWITCH_CPU_WIDE = 15,
	SPE_PERF_RECORD_KSYMBOL = 17,   /* kernel code appearing or going: BPF programs, trampolines, OOL */
	SPE_PERF_RECORD_BPF_EVENT = 18, /* a BPF program loaded or unloaded */
	SPE_PERF_RECORD_USER_START = 64, /* records below come from the kernel */
	SPE_PERF_RECORD_HEADER_ATTR = 64,
	SPE_PERF_RECORD_HEADER_EVENT_TYPE = 65,
	SPE_PERF_RECORD_HEADER_TRACING_DATA = 66, /* followed by u32 size bytes not in header.size */
	SPE_PERF_RECORD_HEADER_BUILD_ID = 67,
	SPE_PERF_RECORD_FINISHED_ROUND = 68,
	SPE_PERF_RECORD_ID_INDEX = 69,
	SPE_PERF_RECORD_AUXTRACE_INFO = 70,
	SPE_PERF_RECORD_AUXTRACE = 71,
	SPE_PERF_RECORD_AUXTRACE_ERROR = 72,
	SPE_PERF_RECORD_TIME_CONV = 79,
	SPE_PERF_RECORD_HEADER_FEATURE = 80,
	SPE_PERF_RECORD_COMPRESSED = 81,  /* zstd bytes (perf record -z, perf 5.x-6.x) */
	SPE_PERF_RECORD_FINISHED_INIT = 82,
	SPE_PERF_RECORD_COMPRESSED2 = 83, /* u64 data_size, zstd bytes, zero padding (perf 7.x) */
};

/* perf_event_attr.sample_type bits used by the sample_id trailer and the writer. */
enum spe_perf_sample_bit {
	SPE_PERF_SAMPLE_IP = 1u << 0,
	SPE_PERF_SAMPLE_TID = 1u << 1,
	SPE_PERF_SAMPLE_TIME = 1u << 2,
	SPE_PERF_SAMPLE_ADDR = 1u << 3,
	SPE_PERF_SAMPLE_ID = 1u << 6,
	SPE_PERF_SAMPLE_CPU = 1u << 7,
	SPE_PERF_SAMPLE_STREAM_ID = 1u << 9,
	SPE_PERF_SAMPLE_DATA_SRC = 1u << 15,
	SPE_PERF_SAMPLE_IDENTIFIER = 1u << 16,
	SPE_PERF_SAMPLE_PHYS_ADDR = 1u << 19,
};

/* Feature-section bits of the perf.data header (perf ABI numbers). */
enum spe_perf_feature {
	SPE_PERF_FEAT_BUILD_ID = 2,
	SPE_PERF_FEAT_HOSTNAME = 3,
	SPE_PERF_FEAT_OSRELEASE = 4,
	SPE_PERF_FEAT_VERSION = 5,
	SPE_PERF_FEAT_ARCH = 6,
	SPE_PERF_FEAT_NRCPUS = 7,
	SPE_PERF_FEAT_CPUDESC = 8,
	SPE_PERF_FEAT_CPUID = 9,
	SPE_PERF_FEAT_CMDLINE = 11,
	SPE_PERF_FEAT_NUMA_TOPOLOGY = 14,
	SPE_PERF_FEAT_AUXTRACE = 18,
	SPE_PERF_FEAT_MEM_TOPOLOGY = 22,
	SPE_PERF_FEAT_COMPRESSED = 27,    /* comp_ver, comp_type, comp_level, comp_ratio, comp_mmap_len (u32) */
	SPE_PERF_FEAT_COUNT = 256,
};

/* AUX record flags (PERF_AUX_FLAG_*). */
enum spe_perf_aux_flag {
	SPE_PERF_AUX_TRUNCATED = 0x1,
	SPE_PERF_AUX_OVERWRITE = 0x2,
	SPE_PERF_AUX_PARTIAL = 0x4,
	SPE_PERF_AUX_COLLISION = 0x8,
};

/* AUXTRACE_INFO kind of Arm SPE (PERF_AUXTRACE_ARM_SPE). */
#define SPE_PERF_AUXTRACE_ARM_SPE 4

/* header.misc bits the reader decodes. */
#define SPE_PERF_MISC_COMM_EXEC (1u << 13)
#define SPE_PERF_MISC_SWITCH_OUT (1u << 13)
#define SPE_PERF_MISC_SWITCH_OUT_PREEMPT (1u << 14)
#define SPE_PERF_MISC_MMAP_BUILD_ID (1u << 14)
#define SPE_PERF_MISC_MMAP_DATA (1u << 13)  /* MMAP/MMAP2 of a mapping without PROT_EXEC */
#define SPE_PERF_MISC_FORK_EXEC (1u << 13)  /* FORK that perf synthesized from /proc (its maps come as MMAPs) */
#define SPE_PERF_MISC_CPUMODE_MASK 7u       /* misc & 7: the record's CPU mode */
#define SPE_PERF_MISC_KERNEL 1u             /* cpumodes of the host's and a guest's kernel */
#define SPE_PERF_MISC_GUEST_KERNEL 4u

/* ------------------------------------------------------------------ */
/* Reader                                                              */
/* ------------------------------------------------------------------ */

struct spe_perf_file;

struct spe_perf_config {
	size_t size;          /* sizeof(struct spe_perf_config); use SPE_OPTS */
	/*
	 * Largest single event (header + inline AUXTRACE data) accepted when
	 * streaming from a pipe; 0 = 256 MiB.  Files are mmapped and not limited.
	 */
	size_t max_stream_event;
	/* Keep the mmapped pages behind the cursor resident (default: released). */
	int keep_pages;
};

/* One perf_event_attr of the file, up to config4 (attr.size 144). */
struct spe_perf_attr {
	uint32_t type;
	uint32_t size;            /* attr.size as written in the file */
	uint64_t config;
	uint64_t sample_period;
	uint64_t sample_type;     /* SPE_PERF_SAMPLE_* */
	uint64_t read_format;
	uint64_t flags;           /* the bit-field word at offset 40 */
	uint64_t config1, config2, config3, config4;
	uint32_t aux_watermark;
	uint32_t aux_sample_size;
	int sample_id_all;        /* flags bit 18 */
	uint32_t n_ids;
	const uint64_t *ids;      /* owned by the handle */
};

/* The sample_id trailer of a kernel record (parsed per the attr's sample_type). */
enum spe_perf_sid_has {
	SPE_PERF_SID_TID = 1u << 0,
	SPE_PERF_SID_TIME = 1u << 1,
	SPE_PERF_SID_ID = 1u << 2,
	SPE_PERF_SID_STREAM_ID = 1u << 3,
	SPE_PERF_SID_CPU = 1u << 4,
};
struct spe_perf_sample_id {
	uint32_t has; /* SPE_PERF_SID_* */
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu;
};

struct spe_perf_time_conv {
	uint64_t time_shift;
	uint64_t time_mult;
	uint64_t time_zero;
	uint64_t time_cycles;     /* 56-byte form only */
	uint64_t time_mask;
	uint8_t cap_user_time_zero;
	uint8_t cap_user_time_short;
	uint8_t long_form;        /* record had the 56-byte layout */
};

/* Convert a TIMESTAMP packet value to perf time (ns), as perf_event_mmap_page documents. */
SPE_API uint64_t spe_perf_tsc_to_time(const struct spe_perf_time_conv *tc, uint64_t cyc);

/* Per-CPU SPE metadata of an AUXTRACE_INFO v2 record. */
struct spe_perf_spe_cpu {
	uint64_t cpu;
	uint64_t midr;
	uint64_t pmu_type;     /* UINT64_MAX: this CPU has no SPE */
	uint64_t min_interval; /* 0 = unknown */
	uint64_t event_filter; /* 0 = unknown (v6.18+ files only) */
	uint64_t n_params;
};

struct spe_perf_auxtrace_info {
	uint32_t kind;          /* SPE_PERF_AUXTRACE_ARM_SPE for SPE */
	uint32_t version;       /* 1 or 2 (SPE); 0 for other kinds */
	uint64_t pmu_type;
	uint64_t per_cpu_mmaps; /* v1 priv[1] */
	uint32_t n_cpus;        /* v2: entries available via spe_perf_spe_cpu() */
	uint32_t n_priv;        /* u64 words after the kind */
};

struct spe_perf_auxtrace {
	uint64_t size;        /* bytes of trace data (including perf's zero padding) */
	uint64_t offset;      /* position in the AUX ring */
	uint64_t reference;
	uint32_t idx;         /* queue */
	int32_t tid;          /* -1 in per-CPU mode */
	int32_t cpu;          /* -1 in per-thread mode */
	uint64_t data_offset; /* file offset of the data (streams: running offset) */
	const uint8_t *data;  /* valid until the next spe_perf_next() */
	uint64_t cut;         /* data bytes the end of the file cut off (size counts those present), else 0 */
};

struct spe_perf_aux {
	uint64_t aux_offset;
	uint64_t aux_size;
	uint64_t flags;       /* SPE_PERF_AUX_* */
};

struct spe_perf_mmap {          /* MMAP and MMAP2 */
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	uint32_t maj, min;            /* MMAP2 without build id */
	uint64_t ino, ino_generation;
	uint32_t prot, flags;         /* MMAP2 */
	uint8_t build_id_size;        /* MMAP2 with SPE_PERF_MISC_MMAP_BUILD_ID */
	uint8_t build_id[20];
	const char *filename;         /* NUL-terminated, valid until next call */
};

struct spe_perf_comm {
	uint32_t pid, tid;
	int exec;                     /* SPE_PERF_MISC_COMM_EXEC */
	const char *comm;             /* NUL-terminated, valid until next call */
};

struct spe_perf_task {           /* FORK and EXIT */
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct spe_perf_switch {         /* SWITCH and SWITCH_CPU_WIDE */
	int out;                      /* switched out (else in) */
	int preempt;
	uint32_t next_prev_pid, next_prev_tid; /* CPU_WIDE only */
};

struct spe_perf_lost {
	uint64_t id;                  /* LOST only */
	uint64_t lost;
};

struct spe_perf_itrace_start {
	uint32_t pid, tid;
};

/* KSYMBOL (include/uapi/linux/perf_event.h, PERF_RECORD_KSYMBOL) */
#define SPE_PERF_KSYMBOL_TYPE_BPF 1      /* a JITed BPF program, trampoline or dispatcher */
#define SPE_PERF_KSYMBOL_TYPE_OOL 2      /* out-of-line code (kprobe and ftrace slots) */
#define SPE_PERF_KSYMBOL_UNREGISTER 1u   /* flags: the code is gone */
struct spe_perf_ksymbol {
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type;           /* SPE_PERF_KSYMBOL_TYPE_*, 0 unknown */
	uint16_t flags;               /* SPE_PERF_KSYMBOL_UNREGISTER */
	const char *name;             /* NUL-terminated, valid until next call */
};

/* BPF_EVENT (PERF_RECORD_BPF_EVENT) */
#define SPE_PERF_BPF_PROG_LOAD 1
#define SPE_PERF_BPF_PROG_UNLOAD 2
struct spe_perf_bpf_event {
	uint16_t type;                /* SPE_PERF_BPF_PROG_*, 0 unknown */
	uint16_t flags;
	uint32_t id;                  /* the program's id */
	uint8_t tag[8];
};

struct spe_perf_event {
	uint32_t type;                /* enum spe_perf_record_type or any other number */
	uint16_t misc;
	uint16_t header_size;         /* header.size */
	uint64_t file_offset;         /* offset of the record header */
	uint64_t total_size;          /* header.size, plus the data for AUXTRACE */
	const uint8_t *raw;           /* the header.size bytes, valid until next call */
	int attr_index;               /* attr of a kernel record, -1 if unknown */
	struct spe_perf_sample_id sid;
	union {
		struct spe_perf_auxtrace auxtrace;
		struct spe_perf_auxtrace_info auxtrace_info;
		struct spe_perf_aux aux;
		struct spe_perf_mmap mmap;
		struct spe_perf_comm comm;
		struct spe_perf_task task;
		struct spe_perf_switch sw;
		struct spe_perf_lost lost;
		struct spe_perf_itrace_start itrace_start;
		struct spe_perf_ksymbol ksymbol;
		struct spe_perf_bpf_event bpf_event;
		struct spe_perf_time_conv time_conv;
		struct { uint64_t feature; } header_feature; /* pipe mode: parsed into the info */
		struct { uint32_t size; } tracing_data; /* HEADER_TRACING_DATA: bytes after the record, skipped */
	} u;
	/*
	 * Decoded from perf record -z's compressed data (COMPRESSED or
	 * COMPRESSED2): file_offset is then the offset of the compressed record
	 * that completed this one (a record may straddle two; perf report -D
	 * prints the same offset), stream_offset its offset in the file's
	 * decompressed stream.  0 and 0 for a plain record.
	 */
	int compressed;
	uint64_t stream_offset;
};

/*
 * One NUMA node as perf's NUMA_TOPOLOGY and MEM_TOPOLOGY features describe
 * it (docs/perfdata-api.md, "NUMA topology"): its CPUs and memory sizes, and
 * the memory blocks of /sys/devices/system/memory it holds.  Block i covers
 * physical addresses [i * block size, (i + 1) * block size).
 */
struct spe_perf_numa_node {
	uint32_t node;
	uint64_t mem_total_kb, mem_free_kb; /* NUMA_TOPOLOGY; 0 when unknown */
	const char *cpus;                   /* CPU list ("0-3,8"), "" when none */
	uint64_t n_block_bits;              /* MEM_TOPOLOGY: bits in @p blocks (0: no blocks known) */
	const uint64_t *blocks;             /* bitmap of block indexes, (n_block_bits + 63) / 64 words */
};

/* What is known about the file.  In pipe mode attrs and features arrive as events. */
struct spe_perf_info {
	size_t size;
	int pipe_format;        /* 16-byte pipe header */
	int streamed;           /* read from a non-seekable fd */
	uint64_t file_size;     /* 0 when streamed */
	uint64_t data_offset, data_size;
	int unfinished;         /* data.size was 0: a writer that never closed; data runs to EOF */
	uint32_t n_attrs;
	uint64_t features[4];   /* feature bitmap */
	const char *cpuid;      /* HEADER_CPUID string, NULL if absent */
	uint32_t midr;          /* parsed from cpuid, 0 if absent/unparseable */
	const char *arch, *hostname, *osrelease, *version, *cpudesc;
	const char *cmdline;    /* arguments joined by spaces */
	uint32_t nr_cpus_avail, nr_cpus_online;
	uint32_t n_build_ids;
	uint64_t n_auxtrace_index; /* entries of the HEADER_AUXTRACE index */
	int has_time_conv;
	struct spe_perf_time_conv time_conv;
	int has_auxtrace_info;
	struct spe_perf_auxtrace_info auxtrace_info;
	uint32_t n_numa_nodes;       /* nodes of NUMA_TOPOLOGY and/or MEM_TOPOLOGY, see spe_perf_numa_node() */
	uint64_t memory_block_size;  /* MEM_TOPOLOGY's block size in bytes, 0 if absent */
	/* running totals of what spe_perf_next() has returned so far */
	uint64_t n_events, n_auxtrace, auxtrace_bytes;
	uint64_t n_aux, n_aux_truncated, n_aux_partial, n_aux_collision, n_lost_events;
	uint64_t n_skipped;      /* records of types the reader does not parse */
	/*
	 * The file ends before its data does (a recording cut by a full disk or
	 * a killed perf): cut is set once spe_perf_next() reaches the end;
	 * cut_offset is the file offset of the first record not whole, cut_bytes
	 * the bytes missing up to where that record or the data section (the
	 * later) should end (0 when streamed: unknown).  An AUXTRACE record cut
	 * in its data is returned with the bytes present (spe_perf_auxtrace.cut);
	 * the next call returns -spe_truncated.
	 */
	int cut;
	uint64_t cut_offset, cut_bytes;
	/*
	 * HEADER_COMPRESSED (perf record -z; pipe mode: once its HEADER_FEATURE
	 * has been read): comp_type 1 is zstd; comp_mmap_len bounds what one
	 * compressed record may decompress to (docs/perfdata-api.md).
	 */
	int has_comp_header;
	uint32_t comp_ver, comp_type, comp_level, comp_ratio, comp_mmap_len;
	/* COMPRESSED/COMPRESSED2 records read so far, their zstd bytes and what those decompressed to */
	uint64_t n_compressed, compressed_bytes, decompressed_bytes;
	/* warnings so far (malformed optional feature sections skipped): spe_perf_warning() */
	uint32_t n_warnings;
};

struct spe_perf_build_id {
	uint32_t pid;
	uint16_t misc;
	uint8_t size;             /* bytes of id used (20 when the record does not say) */
	uint8_t id[20];
	const char *filename;
};

SPE_API struct spe_perf_file *spe_perf_alloc_file(const struct spe_perf_config *config);
SPE_API void spe_perf_free_file(struct spe_perf_file *file);

/*
 * Open @p path ("-" = stdin).  Regular files are mmapped, anything else is
 * streamed.  Reads the header, attrs, ids and features (file mode).
 * Returns 0, or a negative spe_* code with spe_perf_errmsg() set.
 */
SPE_API int spe_perf_open(struct spe_perf_file *file, const char *path);
/* The same on an fd the caller keeps owning; @p name is used in messages. */
SPE_API int spe_perf_open_fd(struct spe_perf_file *file, int fd, const char *name);
/* The same on a buffer that must outlive the handle. */
SPE_API int spe_perf_open_mem(struct spe_perf_file *file, const void *buf, size_t len, const char *name);

/* "NAME: offset 0xOFF: problem" for the last error, "" if none. */
SPE_API const char *spe_perf_errmsg(const struct spe_perf_file *file);
/*
 * Warning @p i (0 .. info.n_warnings - 1): something the reader skipped and
 * read on without, such as a malformed optional feature section ("NAME:
 * offset 0xOFF: feature NUMA_TOPOLOGY (14) skipped: ...").  The first
 * SPE_PERF_MAX_WARNINGS are kept; NULL beyond those.
 */
#define SPE_PERF_MAX_WARNINGS 16
SPE_API const char *spe_perf_warning(const struct spe_perf_file *file, uint32_t i);
/* "NUMA_TOPOLOGY" for feature bit 14; NULL for a bit perf 6.1 and 7.x do not name. */
SPE_API const char *spe_perf_feature_name(unsigned bit);
/* File offset of the last error (UINT64_MAX if it has none). */
SPE_API uint64_t spe_perf_err_offset(const struct spe_perf_file *file);

SPE_API void spe_perf_get_info(const struct spe_perf_file *file, struct spe_perf_info *info, size_t size);
/* Attr @p i (0-based); -spe_invalid if out of range. */
SPE_API int spe_perf_get_attr(const struct spe_perf_file *file, uint32_t i, struct spe_perf_attr *attr,
			      size_t size);
SPE_API int spe_perf_get_build_id(const struct spe_perf_file *file, uint32_t i, struct spe_perf_build_id *bid,
				  size_t size);
/* Per-CPU metadata @p i of an AUXTRACE_INFO v2 record seen so far. */
SPE_API int spe_perf_spe_cpu(const struct spe_perf_file *file, uint32_t i, struct spe_perf_spe_cpu *cpu,
			     size_t size);
/*
 * NUMA node @p i (0 .. info.n_numa_nodes - 1), merged from the NUMA_TOPOLOGY
 * and MEM_TOPOLOGY features; pointers are owned by the handle.
 */
SPE_API int spe_perf_numa_node(const struct spe_perf_file *file, uint32_t i, struct spe_perf_numa_node *node,
			       size_t size);
/*
 * MIDR of the CPU that produced queue data recorded on @p cpu: the v2
 * per-CPU value if present, else HEADER_CPUID, else 0.  @p cpu = -1 takes
 * CPU 0's v2 entry when all entries agree.
 */
SPE_API uint32_t spe_perf_midr(const struct spe_perf_file *file, int cpu);

/*
 * Next event in file order.  Returns 0 with @p ev filled (up to @p size
 * bytes), -spe_eos at the end of the data, or a negative error (sticky;
 * spe_perf_errmsg() says where and what).
 */
SPE_API int spe_perf_next(struct spe_perf_file *file, struct spe_perf_event *ev, size_t size);

/* Name of a PERF_RECORD_* type ("AUXTRACE"), NULL if unknown. */
SPE_API const char *spe_perf_record_name(uint32_t type);

/*
 * Queues: every AUXTRACE chunk of the data section grouped by idx and
 * sorted by AUX offset, so each queue's bytes can be read back in ring
 * order.  File input only (-spe_unsupported when streamed).  Scans the data
 * section once; does not disturb spe_perf_next().
 */
struct spe_perf_aux_chunk {
	uint32_t idx;
	int32_t cpu, tid;
	uint64_t aux_offset;    /* ring offset */
	uint64_t size;
	uint64_t file_offset;   /* of the data */
	const uint8_t *data;    /* into the mapping, valid while the handle lives */
	int contiguous;         /* starts where the previous chunk's data ended (that chunk's padding, up to 7 bytes, excluded) */
};
SPE_API int spe_perf_index_aux(struct spe_perf_file *file);
SPE_API uint32_t spe_perf_aux_queue_count(const struct spe_perf_file *file);
/* Number of chunks of queue @p q (queues are numbered 0.. in idx order). */
SPE_API uint32_t spe_perf_aux_chunk_count(const struct spe_perf_file *file, uint32_t q);
SPE_API int spe_perf_aux_chunk(const struct spe_perf_file *file, uint32_t q, uint32_t i,
			       struct spe_perf_aux_chunk *chunk, size_t size);

/* ------------------------------------------------------------------ */
/* Raw SPE input                                                       */
/* ------------------------------------------------------------------ */

struct spe_raw_input;

struct spe_raw_config {
	size_t size;       /* use SPE_OPTS */
	uint32_t midr;     /* the CPU that wrote the bytes; 0 = unknown */
	size_t window;     /* bytes per window; 0 = 16 MiB */
};

SPE_API struct spe_raw_input *spe_raw_alloc_input(const struct spe_raw_config *config);
SPE_API void spe_raw_free_input(struct spe_raw_input *raw);
/* mmap @p path (a regular file). */
SPE_API int spe_raw_open(struct spe_raw_input *raw, const char *path);
SPE_API int spe_raw_open_mem(struct spe_raw_input *raw, const void *buf, size_t len, const char *name);
SPE_API const char *spe_raw_errmsg(const struct spe_raw_input *raw);
SPE_API uint64_t spe_raw_size(const struct spe_raw_input *raw);
SPE_API uint32_t spe_raw_midr(const struct spe_raw_input *raw);
/* The whole mapping (for callers that want one buffer). */
SPE_API const uint8_t *spe_raw_data(const struct spe_raw_input *raw);
/*
 * The next window of bytes: 0 with buf, len and offset set, -spe_eos at the end.
 * Windows already passed are released from memory.
 */
SPE_API int spe_raw_next_window(struct spe_raw_input *raw, const uint8_t **buf, size_t *len, uint64_t *offset);
/*
 * Feed the next window to @p dec (join = 1 after the first), so a packet
 * split by a window edge decodes whole.  Returns -spe_eos when all is fed.
 */
SPE_API int spe_raw_feed_next(struct spe_raw_input *raw, struct spe_rec_decoder *dec);

/* ------------------------------------------------------------------ */
/* Writer                                                              */
/* ------------------------------------------------------------------ */

struct spe_perf_writer;

/* Default SPE attr sample_type: IP|TID|TIME|CPU|DATA_SRC|IDENTIFIER|PHYS_ADDR (0x98087). */
#define SPE_PERF_WRITER_SAMPLE_TYPE                                                          \
	(SPE_PERF_SAMPLE_IP | SPE_PERF_SAMPLE_TID | SPE_PERF_SAMPLE_TIME | SPE_PERF_SAMPLE_CPU | \
	 SPE_PERF_SAMPLE_DATA_SRC | SPE_PERF_SAMPLE_IDENTIFIER | SPE_PERF_SAMPLE_PHYS_ADDR)

struct spe_perf_writer_config {
	size_t size;                 /* use SPE_OPTS */
	uint32_t pmu_type;           /* SPE PMU type (attr.type, AUXTRACE_INFO priv[0]); 0 = 8 */
	uint64_t config, config1, config2; /* the SPE event's attr config words */
	uint64_t sample_type;        /* 0 = SPE_PERF_WRITER_SAMPLE_TYPE */
	uint64_t sample_period;      /* 0 = 1 */
	uint64_t sample_id;          /* the attr's one id; 0 = 1 */
	uint32_t midr;               /* HEADER_CPUID; 0 = omit the feature */
	int auxtrace_info_version;   /* 1 (default, what perf 6.1 reads) or 2 */
	const struct spe_perf_spe_cpu *cpus; /* v2 per-CPU metadata */
	uint32_t n_cpus;
	/*
	 * NRCPUS, written as given; nr_cpus_avail 0 = the highest AUXTRACE cpu
	 * written + 1 (at least 1), as perf writes the highest CPU + 1; in pipe
	 * mode, where features come first, 0 omits the feature.  nr_cpus_online
	 * 0 = nr_cpus_avail.
	 */
	uint32_t nr_cpus_avail, nr_cpus_online;
	const char *arch;            /* NULL = "aarch64" */
	const char *hostname, *osrelease; /* NULL = omit */
	int argc;                    /* CMDLINE; 0 = omit */
	char *const *argv;
	const struct spe_perf_time_conv *time_conv; /* NULL = identity (shift 0, mult 1) */
	/*
	 * Pipe mode (`perf record -o -` layout): a 16-byte header, then the attr
	 * and the features as HEADER_ATTR / HEADER_FEATURE events, then the
	 * events; written strictly in order with write(), so @p fd may be a pipe.
	 * No HEADER_AUXTRACE index; build ids become HEADER_BUILD_ID events at close.
	 */
	int pipe_mode;
	/* The attr's exclude_user / exclude_kernel flags, as the event was opened. */
	int exclude_user, exclude_kernel;
	/*
	 * NUMA nodes: written as NUMA_TOPOLOGY (CPU lists, memory sizes) and,
	 * when @p memory_block_size is not 0, MEM_TOPOLOGY (the nodes' memory
	 * blocks), perf's own features (perf report --header-only prints them).
	 */
	const struct spe_perf_numa_node *numa_nodes;
	uint32_t n_numa_nodes;
	uint64_t memory_block_size;
};

/*
 * Start a perf.data on @p fd (a regular file, positioned anywhere; the
 * writer uses pwrite from offset 0 and truncates nothing; or any fd in
 * pipe_mode).  Writes a header
 * at once (so a file cut short still opens, its data running to EOF), the
 * attr with its id, TIME_CONV and AUXTRACE_INFO.  Returns NULL only without
 * memory; check spe_perf_writer_error().
 */
SPE_API struct spe_perf_writer *spe_perf_writer_open(int fd, const struct spe_perf_writer_config *config);
/* 0, or the first error (-spe_io with errno kept in *saved_errno if non-NULL). */
SPE_API int spe_perf_writer_error(const struct spe_perf_writer *w, int *saved_errno);
SPE_API const char *spe_perf_writer_errmsg(const struct spe_perf_writer *w);

/* The sample_id trailer the writer appends to kernel records (fields per sample_type). */
struct spe_perf_writer_sid {
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu;
};

/* One AUXTRACE record plus @p size bytes of @p data, zero-padded to 8. */
SPE_API int spe_perf_write_auxtrace(struct spe_perf_writer *w, const void *data, uint64_t size,
				    uint64_t aux_offset, uint64_t reference, uint32_t idx, int32_t tid,
				    int32_t cpu);
SPE_API int spe_perf_write_aux(struct spe_perf_writer *w, uint64_t aux_offset, uint64_t aux_size,
			       uint64_t flags, const struct spe_perf_writer_sid *sid);
SPE_API int spe_perf_write_itrace_start(struct spe_perf_writer *w, uint32_t pid, uint32_t tid,
					const struct spe_perf_writer_sid *sid);
/* MMAP2 (with the build-id form when m->build_id_size != 0); misc = user. */
SPE_API int spe_perf_write_mmap2(struct spe_perf_writer *w, const struct spe_perf_mmap *m,
				 const struct spe_perf_writer_sid *sid);
SPE_API int spe_perf_write_comm(struct spe_perf_writer *w, uint32_t pid, uint32_t tid, const char *comm,
				int exec, const struct spe_perf_writer_sid *sid);
/* FORK or EXIT (@p type = SPE_PERF_RECORD_FORK / _EXIT). */
SPE_API int spe_perf_write_task(struct spe_perf_writer *w, uint32_t type, const struct spe_perf_task *t,
				const struct spe_perf_writer_sid *sid);
/* SWITCH, or SWITCH_CPU_WIDE when @p cpu_wide (with s->next_prev_pid/tid). */
SPE_API int spe_perf_write_switch(struct spe_perf_writer *w, int cpu_wide, const struct spe_perf_switch *s,
				  const struct spe_perf_writer_sid *sid);
SPE_API int spe_perf_write_lost(struct spe_perf_writer *w, uint64_t id, uint64_t lost,
				const struct spe_perf_writer_sid *sid);
/*
 * Any other kernel record: header (@p type, @p misc), @p body of @p body_size
 * bytes (the record without header and trailer, padded by the caller to 8),
 * then the writer's sample_id trailer.
 */
SPE_API int spe_perf_write_kernel_record(struct spe_perf_writer *w, uint32_t type, uint16_t misc,
					 const void *body, size_t body_size, const struct spe_perf_writer_sid *sid);
SPE_API int spe_perf_write_finished_round(struct spe_perf_writer *w);
/* Remember a build id for the BUILD_ID feature written at close. */
SPE_API int spe_perf_writer_add_build_id(struct spe_perf_writer *w, uint32_t pid, const uint8_t *id,
					 uint8_t id_size, const char *filename);
/*
 * Write the feature sections and the final header, then free @p w (the fd
 * stays open).  Returns 0 or the first error of the writer's life.  After a
 * failed write (file mode) the header is still rewritten, with data.size
 * ending at the last record wholly written and no features, so perf and our
 * reader open the file.
 */
SPE_API int spe_perf_writer_close(struct spe_perf_writer *w);
/* The same, and the writer's message for that error (or "") into @p errmsg. */
SPE_API int spe_perf_writer_close_msg(struct spe_perf_writer *w, char *errmsg, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* SPE_PERFDATA_H */
