/* SPDX-License-Identifier: Apache-2.0 */
/* Internal pieces shared by the exporters (analysis/export/src). */
#ifndef SPE_EXPORT_INTERNAL_H
#define SPE_EXPORT_INTERNAL_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spe/export.h"

/* ---- strtab.c: interned strings with stable pointers and dense indices -- */

struct strtab {
	char **str;       /* by index; str[0] = "" */
	size_t n, cap;
	uint32_t *slots;  /* open addressing: index + 1, 0 = empty */
	size_t nslots;
};

int export_strtab_init(struct strtab *t);
void export_strtab_free(struct strtab *t);
/* Index of @p s (NULL is ""), added if new; -1 when out of memory. */
int64_t export_strtab_add(struct strtab *t, const char *s);
/* The interned copy of @p s (NULL stays NULL); NULL also when out of memory, with *oom set. */
const char *export_strtab_intern(struct strtab *t, const char *s, int *oom);

/* ---- agg.c: a hash table of fixed-size keys to fixed-size counters ------ */

struct agg {
	size_t key_size, val_size, slot_size;
	size_t cap, n;
	unsigned char *slots; /* [uint64 hash | key | value]; hash 0 = empty */
};

void export_agg_init(struct agg *a, size_t key_size, size_t val_size);
#define AGG_WORDS(type) _Static_assert(sizeof(type) % 8 == 0, #type " is not whole 64-bit words")
void export_agg_free(struct agg *a);
/*
 * The value slot of @p key (zeroed when the key is new); NULL when out of
 * memory.  Keys and values are whole 64-bit words (sizes multiples of 8,
 * checked by AGG_WORDS at each struct), compared byte for byte: zero any
 * padding.  The pointer is valid until the next export_agg_upsert.
 */
void *export_agg_upsert(struct agg *a, const void *key);
/* Every key (and its value after it, at key + key_size), in no order; NULL when out of memory. */
const void **export_agg_keys(const struct agg *a);
static inline void *agg_value(const struct agg *a, const void *key)
{
	return (unsigned char *)key + a->key_size;
}

/* ---- export.c: the context every exporter gets ----------------------------- */

struct export_mapping {
	int64_t id, source_id, pid;
	const char *path, *build_id; /* interned; NULL when unknown */
	uint64_t start, end, pgoff;
	struct spe_sym_binary *bin;  /* opened on first use */
	int bin_tried;
};

struct export_ctx {
	sqlite3 *db;
	const struct spe_export_opts *opts;
	struct spe_export_stats *stats;
	struct strtab strings;
	struct spe_symbolizer *sym;
	struct export_mapping *maps; /* by id; maps[id].id == 0 for ids not in the table */
	size_t n_maps;
	char *err;
	size_t errlen;
};

/*
 * Sums of latencies read from the database: a crafted database can hold
 * values whose sum passes 2^64 (or, signed, 2^63 either way).  They are
 * held at the type's bound instead of wrapping (or, signed, overflowing),
 * and each such sum is counted in stats->saturated, which spe-export says.
 */
static inline uint64_t export_add_u64(struct export_ctx *x, uint64_t a, uint64_t b)
{
	uint64_t s;
	if (__builtin_add_overflow(a, b, &s)) {
		x->stats->saturated++;
		return UINT64_MAX;
	}
	return s;
}

static inline int64_t export_add_i64(struct export_ctx *x, int64_t a, int64_t b)
{
	int64_t s;
	if (__builtin_add_overflow(a, b, &s)) {
		x->stats->saturated++;
		return b < 0 ? INT64_MIN : INT64_MAX;
	}
	return s;
}

/*
 * The end of a statement: 0, or the error of its last step (sqlite3_finalize
 * returns it) as "@p what: SQLite's message" with its code: -spe_io for the
 * disk (I/O error, full, busy), -spe_nomem, -spe_cancelled (interrupted),
 * -spe_bad_file for a database that is corrupt or not what it says.
 */
int export_finish(struct export_ctx *x, sqlite3_stmt *st, const char *what);
/* The code export_finish gives SQLite's result @p rc. */
int export_sql_code(int rc);

/*
 * Tables indexed by rowid (mappings, data objects): @p array of *@p n
 * elements of @p elem bytes, grown (zero-filled) until @p id fits; *@p n is
 * updated.  NULL without memory (@p array is then still valid).  Rowids
 * above EXPORT_MAX_ROWID are not spe-load's and are skipped.
 */
#define EXPORT_MAX_ROWID (1 << 26)
void *export_index_grow(void *array, size_t *n, size_t elem, int64_t id);

/* A message in x->err; returns @p code. */
int export_fail(struct export_ctx *x, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The mapping with @p id, or NULL. */
struct export_mapping *export_mapping(struct export_ctx *x, int64_t id);
/* The mapping's binary, opened through the symbolizer (NULL when it cannot be read). */
struct spe_sym_binary *export_mapping_binary(struct export_ctx *x, struct export_mapping *m);
/* The ELF vaddr of runtime address @p addr in mapping @p m (through its file offset); 0 on success. */
int export_mapping_vaddr(struct export_ctx *x, struct export_mapping *m, uint64_t addr, uint64_t *vaddr);

/* ---- scan.c: the filtered records, one pass ------------------------------- */

#define EXPORT_NULL INT64_MIN

/* One record; EXPORT_NULL (or -1 for the small codes) where the column is NULL. */
struct export_row {
	int64_t source_id, pid, mapping_id;
	int64_t pc, data_va, branch_target, prev_branch_target; /* 64-bit patterns */
	int64_t data_object_id;
	int64_t events;
	int64_t latency[3]; /* total, issue, translation */
	int op_class;       /* index in SPE_OP_CLASS_LIST, -1 NULL */
	int mem_level;      /* index in SPE_MEM_LEVEL_LIST, -1 NULL */
};

/* Names of the codes above, from the facts table. */
extern const char *const export_op_class_names[];
extern const char *const export_mem_level_names[];
extern const size_t export_n_op_classes, export_n_mem_levels;

/* Column groups a scan reads (the others come back NULL / -1, unread). */
enum {
	EXPORT_COL_LATENCY = 1 << 0, /* latency[] */
	EXPORT_COL_LABELS = 1 << 1,  /* events, op_class, mem_level */
	EXPORT_COL_DATA = 1 << 2,    /* data_va, data_object_id */
	EXPORT_COL_BRANCH = 1 << 3,  /* branch_target, prev_branch_target */
};

typedef int (*export_row_fn)(void *arg, const struct export_row *row);
/*
 * Call @p fn for every record passing the options' filters and @p extra (an
 * SQL condition over spe_record r, or NULL), in rowid order, with the source,
 * process, mapping and PC columns and the groups in
 * @p cols; counts them in stats->records.  A non-zero return of @p fn stops
 * the scan and is returned.
 */
int export_scan(struct export_ctx *x, const char *extra, unsigned cols, export_row_fn fn, void *arg);

/* ---- data_objects.c: what spe-load attributed data addresses to ------------ */

struct export_data_object {
	int64_t id, mapping_id;       /* mapping_id: the binary (variables, sections) or the data mapping; 0 unknown */
	int kind;                     /* data_object.kind (analysis/include/ana/data_object.h) */
	uint64_t start, size;
	const char *name;             /* as a location shows it (interned): anonymous regions with size and address */
	const char *file;             /* declaration (interned), NULL unknown */
	int line;
	int per_line;                 /* a binary's variable or section: one location per 64-byte line */
};

struct export_data_objects {
	struct export_data_object *by_id; /* by_id[id].id == 0 for ids not in the table */
	size_t n;
};

/* Every row of data_object (0, or a negative code with x->err). */
int export_data_objects_load(struct export_ctx *x, struct export_data_objects *o);
/* The object with @p id, or NULL. */
const struct export_data_object *export_data_object(const struct export_data_objects *o, int64_t id);
void export_data_objects_free(struct export_data_objects *o);

/* ---- code_loc.c: what a sampled PC is -------------------------------------- */

#define EXPORT_MAX_FRAMES 16

struct code_frame {
	const char *function; /* as shown (interned), NULL unknown */
	const char *system_name; /* as linked: the linkage or symbol-table name */
	const char *file;     /* source file of the line below */
	int line;             /* frame 0: the PC's line; outer frames: the call site; 0 unknown */
	int decl_line;        /* the function's DW_AT_decl_line, 0 unknown */
};

struct code_loc {
	struct export_mapping *map;   /* NULL when the PC is in no mapping */
	uint64_t pc;
	const char *mnemonic, *operands; /* interned, NULL unknown */
	uint64_t function_start;      /* runtime address of the containing symbol, 0 unknown */
	const char *function_file;    /* symbol.file */
	int function_line;            /* symbol.line */
	int n;                        /* frames, innermost first; 0 = no symbol */
	struct code_frame *frame;
	int from_dwarf;               /* the frames came from the binary's DWARF */
};

enum code_loc_need {
	CODE_LOC_DB,          /* the database's columns; DWARF only for inline call sites */
	CODE_LOC_DECL_LINES,  /* always DWARF (declaration lines, AutoFDO) */
};

struct code_locs;
struct code_locs *export_code_locs_new(struct export_ctx *x, enum code_loc_need need);
void export_code_locs_free(struct code_locs *c);
/*
 * Resolve the PC of a record in mapping @p mapping_id (EXPORT_NULL: none).
 * The result is cached per (mapping, pc).  Returns 0, or a negative code with x->err.
 */
int export_code_loc_get(struct code_locs *c, int64_t mapping_id, uint64_t pc, const struct code_loc **out);

/* ---- the exporters ----------------------------------------------------------- */

int export_pprof(struct export_ctx *x, FILE *out);
int export_folded(struct export_ctx *x, FILE *out);
int export_bolt(struct export_ctx *x, FILE *out);
int export_autofdo(struct export_ctx *x, FILE *out);

/* ---- binary.c: the one binary a BOLT or AutoFDO profile is for -------------- */

struct export_binary {
	const char *path;            /* the file read */
	struct spe_sym_binary *bin;
	int64_t *map_ids;            /* its mappings */
	size_t n_maps;
	char *id_list;               /* "(1,2,...)": the mapping ids, for export_scan's condition */
	struct spe_symbolizer *own;  /* --binary's file is opened outside --symfs */
};
int export_binary_select(struct export_ctx *x, struct export_binary *b);
void export_binary_free(struct export_binary *b);
/* The binary's ELF vaddr of runtime address @p addr in process (@p source_id, @p pid); 0, or -1 outside it. */
int export_binary_vaddr(struct export_ctx *x, const struct export_binary *b, int64_t source_id, int64_t pid,
			uint64_t addr, uint64_t *vaddr);

/* Write and check; the exporters call this for every chunk of output. */
int export_write(struct export_ctx *x, FILE *out, const void *buf, size_t len);
int export_printf(struct export_ctx *x, FILE *out, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
