/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The row sink: where a load's rows go.  The loader (spe_loader_*) turns
 * records and sideband into typed rows of the tables of docs/schema.md and
 * hands them to a sink in batches; the sink stores them.  SQLite is the
 * sink of spe-load (spe_sqlite_sink_new); other stores (ClickHouse,
 * exporters) implement the same struct of operations.  Nothing here is
 * SQLite's: values are C integers and strings, NULL is said per field.
 *
 * A load is: begin (the sink says which ids are free), rows of any table in
 * any number of calls, then commit (the source is complete: flush) or
 * abort (drop what is buffered; undoing what was stored is the store's
 * transaction, outside the sink).  Pointers in rows are valid only during
 * the call.  Operations return 0 or a negative spe_* code, with the sink's
 * errmsg() saying what failed.
 */
#ifndef SPE_ROW_SINK_H
#define SPE_ROW_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "spe/spe.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- spe_record: its columns, generated in one place ------------------- */

enum spe_column_type {
	SPE_COLUMN_INT,  /* a 64-bit integer (addresses: the 64-bit pattern) */
	SPE_COLUMN_TEXT, /* a string */
};

/*
 * The stored columns of a record row (the table _spe_record minus its id), in
 * table order: X(IDENT, name, type, sql, meaning), counters from the facts
 * table through XC (facts.h SPE_COUNTER_LIST).  Rows hold integer codes and
 * only what cannot be derived (schema version 4, docs/schema.md): the
 * spe_record view computes op_class, op, mem_level, time, pc, mapping_id
 * and symbol_id from them (SPE_RECORD_VIEW_COLUMNS below).  The schema's CREATE
 * TABLE, every sink's insert and the tables of docs/schema.md (checked by a
 * test) come from these lists: a new column is one line here, plus its value
 * in the loader's record_row() (analysis/load/loader.c).
 */
#define SPE_RECORD_COLUMNS(X, XC)                                                                           \
	X(SOURCE_ID, source_id, SPE_COLUMN_INT, "INTEGER NOT NULL REFERENCES source(id)", "the load (`source.id`)") \
	X(TS, ts, SPE_COLUMN_INT, "INTEGER", "raw SPE timestamp, NULL if the record had none")                   \
	X(TIME, time, SPE_COLUMN_INT, "INTEGER",                                                                 \
	  "perf time when it is not `ts` converted through the source's `time_conv` row; NULL otherwise "       \
	  "(the view computes it)")                                                                              \
	X(CPU, cpu, SPE_COLUMN_INT, "INTEGER", "CPU whose aux buffer held the record (0 for per-thread queues)")  \
	X(PID, pid, SPE_COLUMN_INT, "INTEGER",                                                                   \
	  "process: from the CONTEXT packet's thread (via COMM), else the thread switched in on that CPU "       \
	  "(ITRACE_START, SWITCH), else the AUXTRACE record; NULL when unknown")                                  \
	X(TID, tid, SPE_COLUMN_INT, "INTEGER", "thread, found as `pid` is; NULL when unknown")                    \
	X(PC, pc, SPE_COLUMN_INT, "INTEGER",                                                                     \
	  "PC address (canonicalised) when `insn_id` is NULL; else NULL (`insn.pc` holds it)")                  \
	X(CODES, codes, SPE_COLUMN_INT, "INTEGER NOT NULL",                                                      \
	  "small codes in one integer (`SPE_CODES_*`): `op_raw` (bits 0-9) and whether the record had an "      \
	  "op type (bit 10), `el` (bits 11-12), the `spe_mem_level.code` of the data source (bits 13-17, 0: "  \
	  "none), `context` equals `tid` (bit 18), no perf time (bit 19)")                                      \
	X(EVENTS, events, SPE_COLUMN_INT, "INTEGER",                                                             \
	  "raw EVENTS payload, IMPDEF bits kept; NULL if the record had no EVENTS packet")                       \
	SPE_COUNTER_LIST(XC)                                                                                      \
	X(DATA_VA, data_va, SPE_COLUMN_INT, "INTEGER", "data virtual address (tag byte removed)")                 \
	X(DATA_PA, data_pa, SPE_COLUMN_INT, "INTEGER", "data physical address")                                  \
	X(DATA_SOURCE, data_source, SPE_COLUMN_INT, "INTEGER", "raw DATA SOURCE payload")                        \
	X(BRANCH_TARGET, branch_target, SPE_COLUMN_INT, "INTEGER", "branch target address")                      \
	X(PREV_BRANCH_TARGET, prev_branch_target, SPE_COLUMN_INT, "INTEGER", "previous branch target address")   \
	X(CONTEXT, context, SPE_COLUMN_INT, "INTEGER",                                                           \
	  "CONTEXT packet value when it is not `tid` (`codes` bit 18 says it is)")                              \
	X(INSN_ID, insn_id, SPE_COLUMN_INT, "INTEGER REFERENCES insn(id)",                                       \
	  "the instruction (`insn`) at the PC, which holds the PC and names its mapping and symbol; NULL when "  \
	  "the PC is in no mapping")                                                                                             \
	X(DATA_OBJECT_ID, data_object_id, SPE_COLUMN_INT, "INTEGER REFERENCES data_object(id)",                  \
	  "the `data_object` holding `data_va` (user addresses only), NULL when none")

/* The `codes` column: where each code sits. */
#define SPE_CODES_OP_RAW_MASK 0x3ffu     /* (op-type header class << 8) | payload */
#define SPE_CODES_HAS_OP (1u << 10)      /* the record had an op type */
#define SPE_CODES_EL_SHIFT 11            /* exception level of the PC, 2 bits */
#define SPE_CODES_MEM_LEVEL_SHIFT 13     /* memory level + 1 (enum spe_mem_level), 5 bits; 0 = none */
#define SPE_CODES_CONTEXT_IS_TID (1u << 18)
#define SPE_CODES_NO_TIME (1u << 19)     /* no perf time, even if ts and time_conv would give one */

/*
 * The columns of the spe_record view, in order: X(name, meaning), XC as in
 * SPE_RECORD_COLUMNS; the per-event columns follow `events`.  They are the
 * documented contract (docs/schema.md); a sink that keeps the narrow rows
 * above computes them (analysis/store/schema.c for SQLite).
 */
#define SPE_RECORD_VIEW_COLUMNS(X, XC)                                                                      \
	X(id, "row id")                                                                                          \
	X(source_id, "the load (`source.id`)")                                                                   \
	X(ts, "raw SPE timestamp, NULL if the record had none")                                                  \
	X(time, "perf clock ns (`ts` through the source's TIME_CONV), NULL when unknown")                         \
	X(cpu, "CPU whose aux buffer held the record (0 for per-thread queues)")                                 \
	X(pid, "process: from the CONTEXT packet's thread (via COMM), else the thread switched in on that CPU "  \
	       "(ITRACE_START, SWITCH), else the AUXTRACE record; NULL when unknown")                             \
	X(tid, "thread, found as `pid` is; NULL when unknown")                                                   \
	X(pc, "PC address (canonicalised)")                                                                      \
	X(el, "exception level of the PC")                                                                       \
	X(op_class, "`other`, `load`, `store`, `branch`, `unknown` (from `spe_op_code`)")                        \
	X(op, "perf-style text, e.g. `LD GP-REG`, `B COND` (from `spe_op_code`)")                                \
	X(op_raw, "`(op-type header class << 8) \\| payload`")                                                    \
	X(events, "raw EVENTS payload, IMPDEF bits kept; NULL if the record had no EVENTS packet")               \
	SPE_COUNTER_LIST(XC)                                                                                      \
	X(data_va, "data virtual address (tag byte removed)")                                                    \
	X(data_pa, "data physical address")                                                                      \
	X(data_source, "raw DATA SOURCE payload")                                                                \
	X(mem_level, "memory level of the data source for the CPU's MIDR, named as in the facts table "         \
		     "(spe-facts.md); NULL where the part or code is unknown")                                    \
	X(branch_target, "branch target address")                                                                \
	X(prev_branch_target, "previous branch target address")                                                  \
	X(context, "CONTEXT packet value")                                                                       \
	X(mapping_id, "the `mapping` holding the PC (through `insn`); NULL when unknown")                       \
	X(symbol_id, "the function (`symbol`) of the PC (through `insn`); NULL when unknown")                   \
	X(insn_id, "the instruction (`insn`) at the PC; NULL when the PC is in no mapping")                     \
	X(data_object_id, "the `data_object` holding `data_va` (user addresses only), NULL when none")

/* SPE_RECORD_COL_SOURCE_ID ... : a column's index in the row. */
enum spe_record_column {
#define SPE_X(IDENT, name, type, sql, doc) SPE_RECORD_COL_##IDENT,
#define SPE_XC(idx, IDENT, word, col, desc) SPE_RECORD_COL_COUNTER_##IDENT,
	SPE_RECORD_COLUMNS(SPE_X, SPE_XC)
#undef SPE_X
#undef SPE_XC
	SPE_RECORD_NCOLS
};

struct spe_column {
	const char *name;
	enum spe_column_type type;
	const char *sql;  /* the SQL type and constraints of _spe_record */
	const char *doc;  /* the meaning, for docs/schema.md */
};

/* The columns, indexed by enum spe_record_column. */
extern const struct spe_column spe_record_columns[SPE_RECORD_NCOLS];

/* One record row: value i is set (not NULL) when bit i of present is. */
struct spe_row_record {
	uint64_t present;
	union {
		int64_t i;     /* SPE_COLUMN_INT */
		const char *s; /* SPE_COLUMN_TEXT (no stored column is text since schema 4) */
	} col[SPE_RECORD_NCOLS];
};

/* ---- the other tables ------------------------------------------------------ */

/* Conventions: an id of 0, a pid of -1, a time of SPE_ROW_NO_TIME, a NULL pointer mean SQL NULL. */
#define SPE_ROW_NO_TIME UINT64_MAX

struct spe_row_source {
	int64_t id;
	const char *file, *kind, *host, *command_line;
	int32_t cpus;            /* HEADER_NRCPUS, -1 = NULL */
	const char *loaded_at;   /* UTC, ISO 8601 */
	const char *digest;      /* spe_source_info.digest: size and hash of the file, or NULL */
};

struct spe_row_cpu {
	int64_t source_id;
	int32_t cpu;
	uint32_t midr;           /* 0 = NULL */
	const char *part, *spe_version;
};

struct spe_row_thread {
	int64_t source_id;
	int32_t tid, pid;        /* pid -1 = NULL */
	const char *comm;
};

struct spe_row_mapping {
	int64_t id, source_id;
	int32_t pid;             /* -1 = NULL (the kernel) */
	const char *path, *build_id;
	uint64_t start, end, pgoff;
	uint64_t time;           /* SPE_ROW_NO_TIME = NULL */
	int64_t prot;            /* data mappings' PROT_* bits; -1 = NULL (executable mappings) */
	/* how the mapped file was found: "matched", "mismatch", "unrecorded", "not found"; NULL: not looked up */
	const char *build_id_status;
};

struct spe_row_symbol {
	int64_t id, mapping_id;
	const char *name;
	uint64_t start, size;    /* size 0 = NULL */
	const char *file;
	int32_t line;            /* 0 = NULL */
};

struct spe_row_insn {
	int64_t id, mapping_id, symbol_id;
	uint64_t pc;
	const uint8_t *bytes;    /* NULL when unreadable */
	uint32_t n_bytes;
	const char *mnemonic, *operands, *file;
	int32_t line;            /* 0 = NULL */
	const char *inline_function;
};

struct spe_row_data_object {
	int64_t id, source_id;
	int32_t pid;             /* -1 = NULL */
	int32_t kind;            /* data_object_kind.id */
	const char *name;
	int64_t mapping_id;
	uint64_t start, size;    /* size 0 = NULL */
	const char *type, *file;
	int32_t line;            /* 0 = NULL */
};

struct spe_row_numa_node {
	int64_t source_id;
	uint32_t node;
	const char *cpus;
	uint64_t mem_total_kb, mem_free_kb; /* 0 = NULL */
};

struct spe_row_numa_cpu {
	int64_t source_id;
	int64_t cpu;
	uint32_t node;
};

struct spe_row_numa_memory {
	int64_t source_id;
	uint32_t node;
	uint64_t start, end;     /* physical addresses, end exclusive */
};

/*
 * One PC's latency histogram in one source (the pc_histogram table, behind
 * the pc_latency view): its records by total latency.  Changed in schema 4
 * from one row per (PC, latency).
 */
struct spe_row_pc_latency {
	int64_t source_id;
	int has_pc;              /* else pc is NULL */
	uint64_t pc;
	int64_t insn_id, symbol_id;
	uint64_t untimed;        /* records without a total latency */
	size_t n;                /* distinct latencies */
	const int32_t *latency;  /* ascending, 0..65535 */
	const uint64_t *samples; /* records of each */
};

struct spe_row_load_stats {
	int64_t source_id;
	uint64_t records, bad_bytes, skipped_bytes, partial_records, unknown_packets, lost_aux, no_mapping,
		no_symbol, no_time, no_data_object;
	int cacheline_scan;      /* the source's lines are not in cacheline_stat (more than the line budget) */
	int cut;                 /* the file ends before its data: cut_offset, cut_bytes, cut_what say where and what */
	uint64_t cut_offset, cut_bytes;
	const char *cut_what;
};

/* The TIME_CONV of a source: the view computes spe_record.time from ts with it. */
struct spe_row_time_conv {
	int64_t source_id;
	uint64_t time_shift, time_mult, time_zero, time_cycles, time_mask;
	int cap_user_time_short;
};

/*
 * Summaries of one source's records (docs/schema.md, "Summaries"): what the
 * views mem_level_summary, latency_histogram, branch_mispredict,
 * tlb_hotspot, cacheline_sharing, data_page, numa_traffic and prefetch read
 * instead of scanning the records.
 */
struct spe_row_mem_level_stat {  /* loads by memory level */
	int64_t source_id;
	int32_t mem_level;        /* spe_mem_level.code; 0 = NULL (no level) */
	uint64_t loads, timed, total_latency; /* timed: loads with a total latency */
};

struct spe_row_latency_bucket {  /* records with a total latency, by op class and log2 bucket */
	int64_t source_id;
	const char *op_class;     /* NULL: no op type */
	int64_t latency_lo;       /* 0, 1, 2, 4, ... */
	uint64_t samples, total_latency;
};

struct spe_row_branch_stat {     /* branches by PC */
	int64_t source_id;
	int has_pc;               /* else pc is NULL */
	uint64_t pc;
	int64_t insn_id;          /* 0 = NULL */
	uint64_t branches;
	int has_events;           /* some branch had an EVENTS packet; else the two below are NULL */
	uint64_t mispredicted, not_taken;
};

struct spe_row_page_stat {       /* records with a data address, by process and 4 KiB page */
	int64_t source_id;
	int32_t pid;              /* -1 = NULL */
	uint64_t page;            /* data_va >> 12, arithmetic (as SQL shifts) */
	uint64_t accesses;
	int has_events;           /* else tlb_walks is NULL */
	uint64_t tlb_walks;
	uint64_t translated, translation_latency; /* records with a translation latency, their sum */
	/* since schema 6 (data_page) */
	uint64_t timed, total_latency;  /* records with a total latency, their sum */
	size_t n_data_objects;
	const int64_t *data_object_ids; /* distinct, in first-seen order */
};

/*
 * Loads with a data address by CPU and where the data was (numa_stat,
 * behind numa_traffic): with a physical address, the NUMA node whose memory
 * range holds it (a load counts once per range holding it); without, its
 * raw data source.
 */
struct spe_row_numa_stat {
	int64_t source_id;
	int32_t cpu;
	int physical;             /* the loads had a physical address */
	int32_t memory_node;      /* physical only; -1 = NULL (no range holds it) */
	int has_data_source;      /* not physical: else data_source is NULL */
	uint64_t data_source;
	uint64_t loads, timed, total_latency; /* timed: loads with a total latency */
	int has_events;           /* else remote_access is NULL */
	uint64_t remote_access;
};

/* Loads by PC and data object with the prefetch events (prefetch_stat, behind prefetch). */
struct spe_row_prefetch_stat {
	int64_t source_id;
	int has_pc;               /* else pc is NULL */
	uint64_t pc;
	int64_t insn_id, symbol_id, data_object_id; /* 0 = NULL */
	uint64_t loads, timed, total_latency;
	int has_late;             /* some load's part names a late-prefetch bit and it had EVENTS */
	uint64_t late_prefetch;
	int has_late_latency;     /* some late load had a total latency */
	uint64_t late_latency;
	int has_events;           /* else recently_fetched is NULL */
	uint64_t recently_fetched;
};

/*
 * A shared cache line of one source (cacheline_stat, behind
 * cacheline_sharing): written to, by more than one thread or CPU.  The
 * int64_t counts are -1 for SQL NULL (no record had the value).
 */
struct spe_row_cacheline_stat {
	int64_t source_id;
	int32_t pid;              /* -1 = NULL */
	uint64_t line;            /* data_va >> 6, arithmetic */
	uint64_t accesses;
	int64_t loads, stores;
	uint32_t cpus, threads, offsets; /* distinct CPUs, threads, byte offsets */
	int64_t snooped, hitm, peer_hits, total_latency, atomics, writes, modified_events, modified_sources,
		remote_hits;
	size_t n_symbols, n_data_objects;
	const int64_t *symbol_ids;      /* distinct, in first-seen order */
	const int64_t *data_object_ids; /* distinct, in first-seen order */
};

/* The first free id of each table with an id column, as the store stands at begin. */
struct spe_row_ids {
	int64_t source, mapping, symbol, insn, data_object;
};

/* ---- the sink -------------------------------------------------------------- */

struct spe_row_sink {
	size_t size; /* sizeof(struct spe_row_sink); operations are only ever appended */
	void *ctx;
	int (*begin)(void *ctx, struct spe_row_ids *next);
	int (*sources)(void *ctx, const struct spe_row_source *rows, size_t n);
	int (*cpus)(void *ctx, const struct spe_row_cpu *rows, size_t n);
	int (*threads)(void *ctx, const struct spe_row_thread *rows, size_t n);
	int (*mappings)(void *ctx, const struct spe_row_mapping *rows, size_t n);
	int (*symbols)(void *ctx, const struct spe_row_symbol *rows, size_t n);
	int (*insns)(void *ctx, const struct spe_row_insn *rows, size_t n);
	int (*records)(void *ctx, const struct spe_row_record *rows, size_t n);
	int (*data_objects)(void *ctx, const struct spe_row_data_object *rows, size_t n);
	int (*numa_nodes)(void *ctx, const struct spe_row_numa_node *rows, size_t n);
	int (*numa_cpus)(void *ctx, const struct spe_row_numa_cpu *rows, size_t n);
	int (*numa_memory)(void *ctx, const struct spe_row_numa_memory *rows, size_t n);
	int (*pc_latency)(void *ctx, const struct spe_row_pc_latency *rows, size_t n);
	int (*load_stats)(void *ctx, const struct spe_row_load_stats *rows, size_t n);
	int (*commit)(void *ctx);
	void (*abort)(void *ctx);
	const char *(*errmsg)(void *ctx);
	/* Free the sink's state (not the store).  May be NULL. */
	void (*free)(void *ctx);
	/*
	 * The source's TIME_CONV, before its first record.  A sink without it
	 * (size short of it, or NULL) gets every record's perf time in `time`.
	 */
	int (*time_convs)(void *ctx, const struct spe_row_time_conv *rows, size_t n);
	/* The summaries, at the end of a load (a sink without them computes the views its own way). */
	int (*mem_level_stats)(void *ctx, const struct spe_row_mem_level_stat *rows, size_t n);
	int (*latency_buckets)(void *ctx, const struct spe_row_latency_bucket *rows, size_t n);
	int (*branch_stats)(void *ctx, const struct spe_row_branch_stat *rows, size_t n);
	int (*page_stats)(void *ctx, const struct spe_row_page_stat *rows, size_t n);
	int (*cacheline_stats)(void *ctx, const struct spe_row_cacheline_stat *rows, size_t n);
	/* since schema 6 */
	int (*numa_stats)(void *ctx, const struct spe_row_numa_stat *rows, size_t n);
	int (*prefetch_stats)(void *ctx, const struct spe_row_prefetch_stat *rows, size_t n);
};

#ifdef __cplusplus
}
#endif

#endif /* SPE_ROW_SINK_H */
