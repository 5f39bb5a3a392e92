/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe_analysis: SPE records in SQLite, with symbols, instructions, memory
 * levels and latency weight.  The schema is documented in docs/schema.md.
 *
 * Layers:
 *   spe_db_*      open/create a database, check its schema version, views;
 *   spe_loader_*  one load (one source file): sideband (comm, mmap2,
 *                 switch, time_conv) then records, as rows into a row sink
 *                 (spe/row_sink.h; SQLite: spe_sqlite_sink_new);
 *   spe_sym_*     libdwfl symbolizer, one session per binary;
 *   spe_disasm_*  Capstone shim;
 *   spe_result_*  print a query result as table, csv or json lines.
 *
 * Functions return >= 0 on success and a negative spe_error_code on
 * failure; where a message helps, it is written to a caller buffer.  The
 * library never prints to stdout/stderr and never exits.
 */
#ifndef SPE_ANALYSIS_H
#define SPE_ANALYSIS_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spe/progress.h"
#include "spe/row_sink.h"
#include "spe/spe.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sqlite3 sqlite3;

/* Schema version written to PRAGMA user_version and the meta table. */
#define SPE_DB_SCHEMA_VERSION 8
/*
 * The oldest version this build reads and appends to (an append makes the
 * file SPE_DB_SCHEMA_VERSION): version 8 changed only _hot_pc, which every
 * load rebuilds, and this build's views read version 7's (docs/schema.md).
 */
#define SPE_DB_SCHEMA_VERSION_OLDEST 7
/* PRAGMA application_id of spekit databases ("SPEK"). */
#define SPE_DB_APPLICATION_ID 0x5350454b

enum spe_db_mode {
	SPE_DB_READONLY = 0, /* existing database, read only */
	SPE_DB_READWRITE,    /* existing database, writable (spe-query --write) */
	SPE_DB_CREATE,       /* new database; refuse if the file exists */
	SPE_DB_APPEND,       /* existing database (or new if absent), add sources */
	SPE_DB_FORCE,        /* replace an existing file once the load succeeds */
	SPE_DB_SCRATCH,      /* a private database beside the path, read-only once committed, removed on close */
};

struct spe_db;

/*
 * Open @p path.  CREATE and FORCE build the database in a temporary file
 * beside @p path (PATH.spe-db.PID.N.tmp) that spe_db_commit() renames over
 * it; APPEND writes inside one transaction.  READONLY rolls back a hot
 * journal left by a killed writer first and refuses ATTACH of writable
 * URIs.  Errors (file exists, unknown schema version, not a spekit database,
 * SQLite failure) return a negative code with a message in @p err;
 * -spe_invalid for a path that is not a regular file (a FIFO would block
 * SQLite's open, a device would be written), or an empty one, in every mode
 * (and for CREATE of an existing file).
 */
int spe_db_open(const char *path, enum spe_db_mode mode, struct spe_db **out, char *err, size_t errlen);
/* A private in-memory database with the schema, inside its load transaction (tests, fuzzing). */
int spe_db_open_memory(struct spe_db **out, char *err, size_t errlen);
sqlite3 *spe_db_sqlite(struct spe_db *db);
/*
 * A file whose digest (spe_source_info.digest) is already in the database
 * is refused (-spe_bad_file, naming the earlier source); with @p replace
 * set, the earlier source's rows are deleted in the load's transaction and
 * the file is loaded in its place.
 */
void spe_db_set_replace(struct spe_db *db, int replace);
/* Commit the load transaction (and rename a new file into place). */
int spe_db_commit(struct spe_db *db, char *err, size_t errlen);
/* Roll back whatever was written since spe_db_open; removes a temporary file. */
void spe_db_rollback(struct spe_db *db);
/* Close (rolling back anything uncommitted).  Accepts NULL. */
void spe_db_close(struct spe_db *db);

/* The schema as SQL text (tables, then views), for docs and tests. */
int spe_schema_create(sqlite3 *db, char *err, size_t errlen);
/*
 * Make the views spekit reads in @p schema its own definitions: on "main",
 * each that differs from this build's becomes a TEMP view of this build's
 * (*shadowed counts them); on an attached schema, one that differs is refused
 * (-spe_bad_file naming it).  Each table spekit creates must be a table where
 * @p schema has that name, else -spe_bad_file naming it (db_trust.c).
 */
int spe_db_own_views(sqlite3 *db, const char *schema, int *shadowed, char *err, size_t errlen);
/* Creates a set of tables and views in the empty database @p db; 0 or <0 with the message in @p err. */
typedef int (*spe_schema_maker)(sqlite3 *db, char *err, size_t errlen);
/*
 * spe_db_own_views for the tables and views @p make creates (run once per
 * process in a private in-memory database): how a library built on this one
 * (spe_topdown, td_store_own) makes its objects its own in a file this run
 * did not create.  spe_db_own_views is this with spe_schema_create.
 */
int spe_db_own_schema(sqlite3 *db, const char *schema, spe_schema_maker make, int *shadowed, char *err,
		      size_t errlen);
/*
 * spe_db_own_views for a caller that reads only the views in @p views
 * (NULL-terminated) of @p schema: every table checked, and of the views only
 * those.  For an attached database, whose views cannot be shadowed: a file
 * made by another build (another definition of a view the caller does not
 * read) is not refused for it.
 */
int spe_db_own_views_read(sqlite3 *db, const char *schema, const char *const *views, char *err, size_t errlen);
/*
 * @p path as an SQLite URI (https://sqlite.org/uri.html) opening it
 * read-only: "file:" and the path with every byte but unreserved ones and
 * '/' percent-encoded, so '?' and '#' (which end a URI's path) and '%'
 * (which starts an escape) stay part of the name: "run#2.db" opens
 * run#2.db, not "run", and "load%41.db" opens load%41.db, not loadA.db.
 * An absolute path gets an empty authority ("file:///..."), so a path
 * starting with "//" is not read as a host.  A WAL database with no -wal
 * beside it gets immutable=1, so reading it creates nothing beside it
 * (db_uri.c).  malloc'd; NULL without memory.
 */
char *spe_db_readonly_uri(const char *path);
int spe_schema_create_indexes(sqlite3 *db, char *err, size_t errlen);
int spe_schema_create_views(sqlite3 *db, char *err, size_t errlen);
/* 1 if @p db has spekit tables, 0 if empty; negative with message if foreign/unknown version. */
int spe_schema_check(sqlite3 *db, char *err, size_t errlen);

/* ---- symbolizer ---------------------------------------------------------- */

/*
 * How a mapped file was found (spe_sym_binary_check), decided once per path
 * and recorded build-id.  A file whose build-id differs from the recorded
 * one is never used.
 */
enum spe_sym_match {
	SPE_SYM_UNCHECKED = 0, /* not looked up */
	SPE_SYM_MATCHED,       /* a file with the recorded build-id */
	SPE_SYM_MISMATCH,      /* only files with another build-id (or none): not used */
	SPE_SYM_UNRECORDED,    /* no build-id recorded: the file at the path, unverified */
	SPE_SYM_NOT_FOUND,     /* no file at all */
};

struct spe_sym_check {
	enum spe_sym_match match;
	/* MATCHED, UNRECORDED: the file used; MISMATCH: the first file found with another id; else NULL */
	const char *file;
	const char *file_build_id; /* that file's build-id as hex, "" if it has none */
};

/* mapping.build_id_status's text of @p m: "matched", "mismatch", "unrecorded", "not found"; NULL for UNCHECKED. */
const char *spe_sym_match_name(enum spe_sym_match m);

/* A debuginfod fetch (spe_sym_opts.on_fetch): once when it starts (done 0), once when it ends. */
struct spe_sym_fetch {
	int done;
	const char *what;       /* "executable" or "debuginfo" */
	const char *build_id;   /* hex */
	const char *path;       /* the file it is for */
	int timeout;            /* seconds without a byte before it is given up */
	/* done: */
	int status;             /* 0 fetched; -spe_not_found (no server has it), -spe_cancelled, -spe_unavailable */
	int timed_out;          /* -spe_unavailable: no byte within the timeout (no other fetch follows) */
	int error;              /* -spe_unavailable, -spe_not_found: the client's errno, else 0 */
	const char *file;       /* fetched: the file in the client's cache */
	const char *url;        /* the server that answered, NULL if none did */
	double seconds;
};

/* Seconds without a byte before a debuginfod fetch is given up, when neither the options nor DEBUGINFOD_TIMEOUT say. */
#define SPE_SYM_DEBUGINFOD_TIMEOUT 5

struct spe_sym_opts {
	const char *symfs;      /* prefix for mapping paths, or NULL */
	const char *debug_path; /* dwfl debuginfo path; NULL = .debug, SYMFS/usr/lib/debug, /usr/lib/debug */
	/* perf build-id cache roots (':'-separated), searched before $PERF_BUILDID_DIR and ~/.debug */
	const char *buildid_dir;
	/*
	 * 1: what is not found locally is fetched from the debuginfod servers
	 * of DEBUGINFOD_URLS (when set); 0: never (libdwfl's own implicit
	 * queries are never made either way).
	 */
	int debuginfod;
	int debuginfod_timeout; /* seconds without a byte before a fetch is given up; 0: DEBUGINFOD_TIMEOUT, else 5 */
	const volatile sig_atomic_t *cancel; /* a fetch under way stops once *cancel != 0 */
	void (*on_fetch)(void *arg, const struct spe_sym_fetch *fetch);
	/* called once per path and recorded build-id, when first looked up */
	void (*on_binary)(void *arg, const char *path, const char *build_id, const struct spe_sym_check *check);
	void *arg;
};

struct spe_sym_result {
	const char *function;   /* NULL when unknown */
	uint64_t function_start; /* in the same address space as the query */
	uint64_t function_size;
	const char *file;       /* source file of the address, NULL when unknown */
	int line;               /* 0 when unknown */
	const char *inline_function; /* inlined functions at the address, innermost first, " <- " between; NULL if none */
	const char *decl_file;  /* declaration of the function */
	int decl_line;
};

struct spe_symbolizer;
struct spe_sym_binary;

struct spe_symbolizer *spe_sym_new(const struct spe_sym_opts *opts);
void spe_sym_free(struct spe_symbolizer *sym);
/*
 * The session for one binary: found by @p path (under symfs), then by
 * @p build_id (hex, may be NULL) in the debug directories.  Returns NULL
 * when the binary cannot be read; the result is cached per path+build_id.
 */
struct spe_sym_binary *spe_sym_binary(struct spe_symbolizer *sym, const char *path, const char *build_id);
/*
 * The same, saying how the file was found in *@p check (may be NULL).  With
 * @p build_id, the candidates, in order, are: SYMFS/PATH; the build-id
 * caches' `elf`; their `debug`, SYMFS/usr/lib/debug/.build-id/xx/rest.debug
 * and /usr/lib/debug/.build-id/xx/rest.debug (symbols and lines, no code);
 * then debuginfod's executable and debuginfo.  The first whose build-id
 * equals @p build_id is used.  Without, SYMFS/PATH, unverified.
 */
struct spe_sym_binary *spe_sym_binary_check(struct spe_symbolizer *sym, const char *path, const char *build_id,
					    struct spe_sym_check *check);
/* How (@p path, @p build_id) was found, without looking it up: UNCHECKED if it never was. */
enum spe_sym_match spe_sym_known_match(const struct spe_symbolizer *sym, const char *path, const char *build_id);
/* Resolve a file-relative address (ELF vaddr).  Returns 1 if anything was found, 0 if not. */
int spe_sym_lookup(struct spe_sym_binary *bin, uint64_t vaddr, struct spe_sym_result *res);
/* Up to @p len code bytes at ELF vaddr @p vaddr; returns the count copied (0 = none, or a debug file without code). */
size_t spe_sym_read_code(struct spe_sym_binary *bin, uint64_t vaddr, uint8_t *buf, size_t len);
/* Map a file offset (mmap pgoff + delta) to an ELF vaddr via the program headers; 0 on success. */
int spe_sym_offset_to_vaddr(struct spe_sym_binary *bin, uint64_t file_offset, uint64_t *vaddr);
/* The ELF vaddrs from the first PT_LOAD byte to past the last one's memory image; 0, or -1 without segments. */
int spe_sym_image_range(struct spe_sym_binary *bin, uint64_t *start, uint64_t *end);
/* Path actually opened, and its build-id as hex ("" if none). */
const char *spe_sym_binary_path(const struct spe_sym_binary *bin);
const char *spe_sym_binary_build_id(const struct spe_sym_binary *bin);

/*
 * One frame of the code at an address.  The frames at an address are the
 * functions inlined there, innermost first, then the function that contains
 * them (the DWARF scopes, DW_TAG_inlined_subroutine then DW_TAG_subprogram).
 */
struct spe_sym_frame {
	const char *function;     /* DW_AT_name, NULL when unknown */
	const char *linkage_name; /* DW_AT_linkage_name, NULL when absent (C) */
	const char *file;         /* frame 0: the address's source line; frame k > 0: */
	int line;                 /* where frame k-1 was inlined (DW_AT_call_file/_line); 0 unknown */
	const char *decl_file;    /* the function's declaration (DW_AT_decl_file/_line) */
	int decl_line;
};
/*
 * Fill up to @p max frames for ELF vaddr @p vaddr; returns how many (0 when
 * the address has no DWARF scope).  Strings live as long as @p bin.
 */
int spe_sym_frames(struct spe_sym_binary *bin, uint64_t vaddr, struct spe_sym_frame *frames, int max);

/* ---- kallsyms ------------------------------------------------------------ */

struct spe_kallsyms;
/*
 * Read a /proc/kallsyms file; NULL with a message naming the file (and the
 * line) on failure: a line that is not a kallsyms line, every address 0.
 */
struct spe_kallsyms *spe_kallsyms_new(const char *path, char *err, size_t errlen);
void spe_kallsyms_free(struct spe_kallsyms *ks);
/*
 * The text symbol holding @p addr (the file's addresses: the kernel image's
 * symbols, else a module's); NULL if none.  @p start/@p size may be NULL.
 */
const char *spe_kallsyms_lookup(const struct spe_kallsyms *ks, uint64_t addr, uint64_t *start, uint64_t *size);

/* ---- disassembler -------------------------------------------------------- */

struct spe_disasm;
struct spe_disasm *spe_disasm_new(void);
void spe_disasm_free(struct spe_disasm *d);
/*
 * Disassemble the one AArch64 instruction in @p code (4 bytes) at @p addr.
 * Returns 1 with mnemonic/operands filled, 0 when the word does not decode
 * (then mnemonic is ".inst" and operands "0x<word>").
 */
int spe_disasm_one(struct spe_disasm *d, const uint8_t code[4], uint64_t addr, char *mnemonic, size_t mlen,
		   char *operands, size_t olen);

/* ---- loader -------------------------------------------------------------- */

struct spe_source_info {
	const char *file;         /* input file path as given */
	const char *host;         /* HEADER_HOSTNAME or NULL */
	const char *command_line; /* HEADER_CMDLINE or NULL */
	const char *kind;         /* "perf.data" or "raw" */
	int nr_cpus;              /* HEADER_NRCPUS or -1 */
	/*
	 * The file's identity (size and 128-bit hash, source.digest), or NULL:
	 * a sink refuses a digest it already holds (spe_db_set_replace).  The
	 * file front ends (spe_load_perf_file, ...) compute it.
	 */
	const char *digest;
};

/* The loader copies this struct; the strings it points to must outlive the loader (read at first need). */
struct spe_load_opts {
	int symbolize;                     /* resolve symbols and disassemble */
	const char *symfs;                 /* --symfs */
	const char *debug_path;            /* NULL = standard */
	const char *kallsyms;              /* --kallsyms file, or NULL */
	const volatile sig_atomic_t *cancel; /* loading stops with -spe_cancelled once *cancel != 0 */
	/*
	 * Threads of spe_loader_new's loads: 0 or 1, one; 2 or more, two (the
	 * SQLite inserts on a writer thread, the rest on the caller's; the rows
	 * are the same).  A given sink (spe_loader_new_sink) is used as it is.
	 */
	int jobs;
	/*
	 * Written (process, 64-byte line) pairs whose cacheline_sharing counts
	 * the load keeps in memory (about 150 bytes each, 16 more per distinct
	 * CPU, thread, function or data object beyond a line's first; lines
	 * only read cost no memory, their accesses go to a temporary file); a
	 * file with more has none kept (load_stats.cacheline_scan = 1) and the
	 * view computes its rows from its records.  0 = SPE_LOAD_LINE_BUDGET.
	 */
	size_t line_budget;
	/*
	 * (Process, 4 KiB page) pairs whose page_stat counts the load keeps in
	 * memory (about 110 bytes each).  When a file has more, the coldest
	 * pages (the fewest records) leave, a quarter of the budget at a time:
	 * their counts and every later record of theirs go to their (process,
	 * 2 MiB region)'s page_region_stat row, and they have no page_stat row
	 * (load_stats.pages_unlisted and unlisted_page_records count them).
	 * Every page_stat row is still its page's exact counts and every
	 * page_region_stat row its region's.  0 = SPE_LOAD_PAGE_BUDGET.
	 */
	size_t page_budget;
	/*
	 * The MIDR_EL1 of CPUs the file names none for (a perf.data cut before
	 * the header features perf writes after the data, or recorded without
	 * them): it selects their data-source map.  0 = unknown; a part the file
	 * names wins.
	 */
	uint32_t midr;
	/* perf build-id cache roots (':'-separated) before $PERF_BUILDID_DIR and ~/.debug (spe_sym_opts) */
	const char *buildid_dir;
	/* 1: fetch what is not found locally from DEBUGINFOD_URLS' servers; 0: never (spe_sym_opts) */
	int debuginfod;
	int debuginfod_timeout;            /* seconds without a byte; 0: DEBUGINFOD_TIMEOUT, else 5 */
	/* Notices, on the loading thread: each debuginfod fetch, and each mapped file when first looked up. */
	void (*on_fetch)(void *arg, const struct spe_sym_fetch *fetch);
	void (*on_binary)(void *arg, const char *path, const char *build_id, const struct spe_sym_check *check);
	void *notice_arg;
	/*
	 * JIT symbol files copied off the recorded machine: perf-PID.map and
	 * jit-PID.dump are read from this directory instead of /tmp and the
	 * path the recording names.  NULL: where the recording says.
	 */
	const char *jit_maps;
	/*
	 * How far the load is (spe/progress.h), on the loading thread: about
	 * every 65,536 records "records" with the SPE bytes decoded of the
	 * file's (done of total), then the step "writing the summaries" before
	 * the end-of-load tables.  NULL: none.
	 */
	spe_progress_fn *on_progress;
	void *progress_arg;
	/*
	 * Only some records (spe-report's page and --annotate with a
	 * selection): record i of the load (counted from 0 in the order
	 * spe_loader_record is called, the order of spe_record's ids in a
	 * load of the same file) is kept when bit i % 64 of keep[i / 64] is
	 * set; the others update who ran on each CPU, as every record does, and
	 * are then dropped before resolution: no row, no summary counts them
	 * (spe_load_counts.unselected does).  Records past n_keep are dropped.
	 * NULL: every record.
	 */
	const uint64_t *keep;
	uint64_t n_keep;
};

#define SPE_LOAD_LINE_BUDGET 524288 /* about 80-130 MB at most */
#define SPE_LOAD_PAGE_BUDGET 1048576 /* about 130 MB at most */

struct spe_load_counts {
	uint64_t records;          /* rows inserted */
	uint64_t unselected;       /* records spe_load_opts.keep dropped (records + unselected: all read) */
	uint64_t bad_bytes;        /* decoder: bytes that were not packets */
	uint64_t skipped_bytes;
	uint64_t partial_records;
	uint64_t unknown_packets;
	uint64_t lost_aux;         /* PERF_RECORD_AUX with the truncated flag, or LOST records */
	uint64_t no_mapping;       /* user PCs of a known process outside its mappings at the record's time */
	uint64_t no_symbol;        /* user PCs in a mapping but without a symbol */
	uint64_t no_time;          /* records without a perf time (no TIME_CONV or TS) */
	uint64_t no_data_object;   /* user data addresses in no data object (no variable, no data mapping) */
	uint64_t dropped_extras;   /* decoder: counters/addresses of unnamed indices past 8 in a record */
	uint64_t no_pid;           /* user PCs of a process no sideband names (no CONTEXT thread, no switch): not resolved */
	uint64_t kernel_no_symbol; /* kernel PCs without a function (no symbol source, or not in it) */
	uint64_t out_of_order;     /* sideband records older than one before them in the file (applied in time order) */
	uint64_t jit_records;      /* user PCs in JIT code: anonymous executable memory, jitdumps' code */
	uint64_t jit_no_symbol;    /* of those, without a name (in no_symbol too) */
	char jit_what[1024];       /* what the JIT symbol files said, one line each (unreadable, cut, times unknown) */
	/*
	 * The file ends before its data (a recording cut short): the whole
	 * records before the cut are loaded; cut_offset is the file offset of
	 * the first record not whole, cut_bytes the bytes missing, cut_what the
	 * reader's message (file, offset, what was cut).  load_stats has them.
	 */
	uint64_t cut, cut_offset, cut_bytes;
	char cut_what[320];
	/*
	 * Mapped files looked up (each path and recorded build-id once), by
	 * how they were found (enum spe_sym_match): with the recorded
	 * build-id; only with another (none used); without a recorded id (the
	 * file at the path, unverified); not at all.
	 */
	uint64_t files_matched, files_mismatch, files_unrecorded, files_not_found;
	/*
	 * What perf itself only warns about (the exit status stays 0): the
	 * PERF_RECORD_AUX records and those flagged truncated (data lost),
	 * partial (gaps) or collision, and the sideband events the kernel
	 * counted lost in PERF_RECORD_LOST (lost_aux above sums truncated and
	 * lost events).  warnings: the first of the perf.data reader's
	 * (spe_perf_warning: optional feature sections it skipped), n_warnings
	 * all of them.
	 */
	uint64_t aux_records, aux_truncated, aux_partial, aux_collision, lost_events;
	uint32_t n_warnings;
	char warnings[4][400];
	/*
	 * Where kernel PCs got their functions, or why they have none (the
	 * source, how it was lined up with the recording, the modules): one
	 * sentence, "" when no record was in the kernel.
	 */
	char kernel_symbols[1024];
	uint64_t kernel_no_map;          /* of kernel_no_symbol, the PCs no kernel map covers (MMAP, KSYMBOL) */
	uint64_t bpf_loads, bpf_unloads; /* PERF_RECORD_BPF_EVENT program loads and unloads */
	/* pages past spe_load_opts.page_budget (no page_stat row, counted in page_region_stat) and their records */
	uint64_t pages_unlisted, unlisted_page_records;
};

struct spe_loader;

/* Start loading one source into @p db (already inside its transaction), through the SQLite sink. */
int spe_loader_new(struct spe_db *db, const struct spe_source_info *src, const struct spe_load_opts *opts,
		   struct spe_loader **out, char *err, size_t errlen);
/* The same into any row sink, which the loader borrows (it must outlive the loader). */
int spe_loader_new_sink(const struct spe_row_sink *sink, const struct spe_source_info *src,
			const struct spe_load_opts *opts, struct spe_loader **out, char *err, size_t errlen);
/*
 * The SQLite sink of @p db: rows into the tables of docs/schema.md, inside
 * the transaction spe_db keeps open.  Free with out->free(out->ctx).
 */
int spe_sqlite_sink_new(struct spe_db *db, struct spe_row_sink *out, char *err, size_t errlen);
/* Sideband, in file order.  Times are perf-clock ns, or UINT64_MAX when unknown. */
void spe_loader_cpu(struct spe_loader *ld, int cpu, uint32_t midr);
/* TIME_CONV for spe_loader_record (spe_load_aux takes each record's time from the AUX layer). */
void spe_loader_time_conv(struct spe_loader *ld, const struct spe_perf_time_conv *tc);
int spe_loader_comm(struct spe_loader *ld, int pid, int tid, const char *comm, uint64_t time);
/* FORK: @p tid of @p pid made by @p ptid of @p ppid; @p from_proc: perf synthesized it from /proc (misc bit 13). */
int spe_loader_fork(struct spe_loader *ld, int pid, int ppid, int tid, int ptid, uint64_t time, int from_proc);
int spe_loader_exit(struct spe_loader *ld, int pid, int tid, uint64_t time);
/*
 * An executable mapping of @p pid; @p pid -1: the kernel's, @p path as perf
 * writes it: `[kernel.kallsyms]` followed by its reference symbol (`_text`,
 * whose runtime address is @p pgoff), or a module's path.
 */
int spe_loader_mmap(struct spe_loader *ld, int pid, uint64_t start, uint64_t len, uint64_t pgoff,
		    const char *path, const char *build_id, uint64_t time);
/*
 * An entry of the recording's build-id table (HEADER_BUILD_ID: perf.data's
 * BUILD_ID feature or a pipe's type-67 records; @p misc its header misc,
 * whose cpumode says whether it names a user file): mappings of @p name
 * whose MMAP2 has no build-id take this one.  Before the first record.
 */
int spe_loader_build_id(struct spe_loader *ld, int pid, uint16_t misc, const uint8_t *id, unsigned size,
			const char *name);
/*
 * A data mapping (MMAP2 without PROT_EXEC, perf record -d / spe-record):
 * heap, stack, anonymous, shared or file data, for data objects.
 */
int spe_loader_data_mmap(struct spe_loader *ld, int pid, uint64_t start, uint64_t len, uint64_t pgoff, uint32_t prot,
			 uint32_t flags, const char *path, uint64_t time);
/*
 * The capture's NUMA nodes (perf.data NUMA_TOPOLOGY / MEM_TOPOLOGY) into
 * numa_node, numa_cpu, numa_memory; before the first record (-spe_invalid
 * after: numa_traffic's summary counts each load's node as it comes).
 */
int spe_loader_numa(struct spe_loader *ld, const struct spe_perf_numa_node *nodes, uint32_t n, uint64_t block_size);
/* @p tid starts running on @p cpu at @p time (ITRACE_START, SWITCH in). */
void spe_loader_switch_in(struct spe_loader *ld, int cpu, int pid, int tid, uint64_t time);
/* Insert one already decoded record (decoding, and lost AUX data, are the AUX layer's: spe_load_aux). */
int spe_loader_record(struct spe_loader *ld, int cpu, int pid, int tid, const struct spe_record *rec);
/* Write the buffered rows, load_stats and the derived tables, and commit the sink (not the database). */
int spe_loader_finish(struct spe_loader *ld, struct spe_load_counts *counts);
const char *spe_loader_error(const struct spe_loader *ld);
void spe_loader_free(struct spe_loader *ld);

/* ---- whole files -------------------------------------------------------- */

/*
 * Load every item of @p aux (spe/aux.h): perf events as sideband, the first
 * chunk of each queue as its CPU, records, then the decoder statistics.
 * The recording's build-id table is the caller's to give
 * (spe_loader_build_id); the file front ends below do.
 * Returns 0, -spe_cancelled, the loader's negative code, or the AUX
 * layer's (spe_aux_errmsg says where and what).
 */
int spe_load_aux(struct spe_loader *ld, struct spe_aux_decoder *aux, const struct spe_load_opts *opts);

/*
 * Load one perf.data file (sideband, then every AUX queue in ring order)
 * into @p db as a new source.  Returns 0, or a negative code with a message
 * naming the file, offset and problem in @p err (-spe_bad_file also for a
 * perf.data without Arm SPE data).  After an error the caller rolls back
 * (spe_db_close does): rows already written are not removed here.
 */
int spe_load_perf_file(struct spe_db *db, const char *path, const struct spe_load_opts *opts,
		       struct spe_load_counts *counts, char *err, size_t errlen);
/* Load a raw SPE byte file recorded on a CPU with @p midr, as cpu @p cpu. */
int spe_load_raw_file(struct spe_db *db, const char *path, uint32_t midr, int cpu, const struct spe_load_opts *opts,
		      struct spe_load_counts *counts, char *err, size_t errlen);
/*
 * The same two into any row sink (spe/row_sink.h; the ClickHouse one is
 * spe_ch_sink_new): the sink's begin .. commit, or abort on an error.
 */
int spe_load_perf_file_sink(const struct spe_row_sink *sink, const char *path, const struct spe_load_opts *opts,
			    struct spe_load_counts *counts, char *err, size_t errlen);
int spe_load_raw_file_sink(const struct spe_row_sink *sink, const char *path, uint32_t midr, int cpu,
			   const struct spe_load_opts *opts, struct spe_load_counts *counts, char *err, size_t errlen);

/* ---- query output -------------------------------------------------------- */

enum spe_result_format { SPE_FORMAT_TABLE, SPE_FORMAT_CSV, SPE_FORMAT_JSON };

/*
 * Run every statement of @p sql on @p db and print the rows of each to
 * @p out.  Returns 0, or a negative code with SQLite's message in @p err.
 * When @p db's main database is open read-only, a statement that is not
 * read-only (sqlite3_stmt_readonly: VACUUM INTO, CREATE TEMP ...) is
 * refused with -spe_no_permission before it runs (so is an ATTACH that
 * could write); any other failure is -spe_invalid.
 */
int spe_result_print(sqlite3 *db, const char *sql, enum spe_result_format fmt, FILE *out, char *err,
		     size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* SPE_ANALYSIS_H */
