/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sections of the HTML page, one file each (section_*.c), in page
 * order.  Each writes one <section> with its heading and a sentence on how
 * to read it, and returns 0 or a negative code with the message in the
 * context.  A section whose data the database lacks says so in its place.
 */
#ifndef SPE_REPORT_SECTIONS_H
#define SPE_REPORT_SECTIONS_H

#include "annotate.h"
#include "report_internal.h"

/* What the capture spans: from RQ_SPAN. */
struct capture_span {
	long long records, timed; /* records, and those with a perf time */
	long long t0, t1;         /* first and last perf time (or raw timestamp when none has one) */
	int raw_ts;               /* t0/t1 are SPE timestamps, not ns */
};

/* The hot functions: their rows of hot_symbol and their latency model, shared by two sections. */
struct hot_functions {
	struct ann_function *fs;
	size_t n;
	size_t annotated; /* the first this many have instructions and lines */
};

int report_section_findings(struct report_ctx *c);
int report_section_summary(struct report_ctx *c, const struct capture_span *span);
int report_section_latency(struct report_ctx *c);
int report_section_flame(struct report_ctx *c);
int report_section_hot_code(struct report_ctx *c, struct hot_functions *hot);
int report_section_annotations(struct report_ctx *c, const struct hot_functions *hot);
int report_section_time(struct report_ctx *c, const struct capture_span *span);
int report_section_memory(struct report_ctx *c);
int report_section_branches(struct report_ctx *c);
int report_section_topdown(struct report_ctx *c);

/* The page around the sections, and the appendix of queries with their cost. */
struct nav_item {
	const char *id, *label;
};
/* <head> with the style sheet, the header "HEADING: title" over @p subtitle, the navigation bar; opens <main>. */
void report_page_open(struct report_ctx *c, const char *heading, const char *subtitle, const struct nav_item *nav, size_t n);
void report_page_head(struct report_ctx *c); /* report_page_open of the report */
void report_page_queries(struct report_ctx *c);
void report_page_tail(struct report_ctx *c);
/* After the queries: how many values were cut (html.h), when some were. */
void report_page_cuts(struct html *h);

/*
 * Every row of a ranked table as JSON, for the page's script (table_rows.c):
 * open, then per row report_rows_row and its cells (the first of a row with
 * first = 1), then close with the row count.  Cells are given in the table's
 * column order; the charts' columns, last, are left out (drawn empty).
 * @p page_rows: rows per page at first.
 */
void report_rows_open(struct html *h, const char *table_id, int page_rows);
void report_rows_row(struct html *h, size_t r);
void report_rows_str(struct html *h, int first, const char *s);
void report_rows_num(struct html *h, int first, const char *s); /* a number as given; other text as a string */
void report_rows_int(struct html *h, int first, long long v);
void report_rows_close(struct html *h, size_t n);
/*
 * Under a table of @p total rows drawn with its first @p shown and the first
 * @p embedded in its JSON: "19,955 more functions, 91.9 % of the latency"
 * (@p share_left: of the rows not drawn, in percent; < 0: no share), and the
 * rows not in the page (@p share_absent) with the view (@p view) that lists
 * them.  The script rewrites the line as it pages.
 */
void report_rows_more(struct html *h, const char *table_id, size_t shown, size_t embedded, size_t total,
		      double share_left, double share_absent, const char *noun, const char *view);
/* Rows of a table the page holds at most: tens of thousands stay quick to search and sort. */
#define REPORT_ROWS_MAX 100000
#define REPORT_ROWS_PC_MAX 10000 /* the instructions: 200,000 would be 15 MB of page */
/* @p v with thousands separated by commas: "19,955". */
void report_thousands(char *out, size_t size, long long v);

/*
 * The drill-down lists (drill_rows.c): the top REPORT_DRILL_TOP functions of
 * each of the first @p rows data objects of @p rs (hot_data_object's rows,
 * @p id_col their data_object_id), and the top data objects of each of the
 * first @p rows functions (hot_symbol's rows: @p name_col, @p path_col), as
 * JSON blocks after the tables' own.  Nothing on ClickHouse.
 */
#define REPORT_DRILL_TOP 10
/* A function as hot_symbol names it, a name in a binary (path; NULL: none), and its row; ordered by
   report_cmp_function (NULL first, then by bytes), for bsearch from the queries' rows to the table's. */
struct report_function {
	const char *name, *path;
	size_t row;
};
int report_cmp_function(const void *a, const void *b);
int report_drill_object_functions(struct report_ctx *c, const struct rowset *rs, int id_col, size_t rows);
int report_drill_function_objects(struct report_ctx *c, const struct rowset *rs, int name_col, int path_col, size_t rows);

/*
 * Whose the instructions table's rows are, for the annotation of any function drawn on demand (ann_rows.c):
 * the function row (of the first @p fn_rows of @p fns, hot_symbol's rows: @p name_col, @p path_col) and the
 * source file of each of the first @p pc_rows of @p pcs (hot_pc's rows, @p insn_col their insn_id), and the
 * source lines where readable, as one JSON block.  Nothing on ClickHouse.
 */
int report_ann_rows(struct report_ctx *c, const struct rowset *fns, int name_col, int path_col, size_t fn_rows,
		    const struct rowset *pcs, int insn_col, size_t pc_rows);
/*
 * From an instruction to the data it touched (drill_rows.c): for the first REPORT_PC_DATA_PCS of the first
 * @p rows of @p pcs (hot_pc's rows, @p insn_col their insn_id), their top REPORT_PC_DATA_TOP 4 KiB pages,
 * 64-byte lines and data addresses.
 * From a shared cache line to its functions and threads: for each of the first @p rows lines of @p rs
 * (cacheline_sharing's rows: @p source_col, @p pid_col, @p line_col the line in hex), its top
 * REPORT_DRILL_TOP of each.  Nothing on ClickHouse.
 */
#define REPORT_PC_DATA_PCS 100
#define REPORT_PC_DATA_TOP 5
int report_drill_pc_data(struct report_ctx *c, const struct rowset *pcs, int insn_col, size_t rows);
int report_drill_line_users(struct report_ctx *c, const struct rowset *rs, int source_col, int pid_col, int line_col,
			    size_t rows);

/* On a ClickHouse page, in place of the drill-downs: "@p what are drawn from SQLite databases only ..." */
void report_drill_ch_note(struct report_ctx *c, const char *what);

/* The page's script (the d3-flame-graph bundle and html/page/page.js) and the flame graph's rules: page_assets.c. */
extern const char report_page_script[];
extern const char report_flame_css[];

/* The anchor of the annotation of hot function @p i ("ann-1", ...). */
#define ANN_ANCHOR "ann-%zu"

#endif
