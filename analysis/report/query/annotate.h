/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One function's latency by instruction and by source line: the model
 * behind spe-report --annotate and the page's annotation and hot-function
 * sections.
 *
 * A function is a name in one binary; its copies (the symbol rows of every
 * process and source that mapped that binary) are merged by offset from the
 * function start, as hot_symbol merges them.  Latency comes from pc_latency
 * (the loader's per-PC histograms: the same numbers as hot_pc), memory
 * levels from the loads in spe_record.  The instructions are disassembled
 * from the binary (found under --symfs) with Capstone and placed on source
 * lines through DWARF; without the binary, only the sampled instructions
 * stored in the database are shown.
 */
#ifndef SPE_REPORT_ANNOTATE_H
#define SPE_REPORT_ANNOTATE_H

#include <stdint.h>

#include "ana/latency_hist.h"
#include "report_internal.h"

struct ann_stats {
	struct latency_stats lat;        /* samples, timed, total latency, p50/p90/p99 (-1 = none) */
	uint64_t levels[MEM_LEVELS + 1]; /* loads by memory level; the last is unknown */
	uint64_t buckets[LATENCY_BUCKETS]; /* timed samples by log2 latency bucket */
};

struct ann_insn {
	uint64_t offset; /* from the function start */
	uint64_t pc;     /* runtime address in the function's first copy */
	char mnemonic[32], operands[160];
	char *file;      /* source position (DWARF), NULL if unknown */
	int line;
	char *inline_fn; /* inlined functions at the address, innermost first; NULL if none */
	int line_index;  /* into ann_function.lines, -1 if none */
	struct ann_stats s;
};

struct ann_line {
	char *file;
	int line;
	char *text;      /* the source line, NULL when the file was not found */
	char *inline_fn; /* set when every instruction of the line is inlined from this function */
	int code;        /* instructions on the line */
	struct ann_stats s;
};

struct ann_function {
	char *name, *binary;
	char *decl_file; /* where the function starts (symbol.file/line) */
	int decl_line;
	uint64_t start, size; /* runtime, first copy */
	int copies;
	int disassembled;   /* 1: every instruction, from the binary; 0: only the sampled ones */
	char *code_note;    /* why there is no disassembly, NULL if there is */
	char *source_path;  /* the source file read for decl_file, NULL if not found */
	char *source_note;  /* why there is no source text, NULL if there is */
	struct ann_insn *insns; /* by offset */
	size_t ninsns;
	struct ann_line *lines; /* the function's file by line (every line of its range), then other files */
	size_t nlines;
	struct ann_stats total;
	/* private */
	struct latency_hist_map groups; /* keys: {0, offset}, later {1, line}, {2} total */
	long long *ids;
	uint64_t *starts;
	size_t nids;
	char *build_id;
	uint64_t map_start, map_pgoff;
	int want_code;
	struct lvl { uint64_t offset; int level; uint64_t count; } *lvls;
	size_t nlvls, caplvls;
};

struct ann_key {
	const char *name;
	const char *binary; /* mapping path, NULL for none */
	int want_code;      /* instructions and lines; else only the totals */
};

/*
 * Load @p n functions with two scans in all (pc_latency, then the loads in
 * spe_record), whatever @p n.  @p out[i] belongs to the caller afterwards
 * (report_ann_fini); a function with no symbol row gets copies = 0.
 */
int report_ann_load(struct report_ctx *c, const struct ann_key *keys, size_t n, struct ann_function *out);
void report_ann_fini(struct ann_function *f);

/* Share of the function's total latency, 0..1. */
double report_ann_share(const struct ann_function *f, const struct ann_stats *s);
/* Mean latency of timed samples, or -1. */
double report_ann_mean(const struct ann_stats *s);
/* "DRAM 240, SLC 80, L1D 40": loads by level, most first ("" when none). */
void report_ann_levels_text(const uint64_t levels[MEM_LEVELS + 1], char *buf, size_t cap);
/* The level indexes with loads, most first; returns their count. */
int report_ann_levels_order(const uint64_t levels[MEM_LEVELS + 1], int order[MEM_LEVELS + 1]);

#endif
