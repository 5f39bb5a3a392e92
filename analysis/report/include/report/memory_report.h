/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The memory section of spe-report (docs/reports.md, "Memory"): hot
 * data objects, the huge-page hint, NUMA traffic, shared cache lines with
 * what the CPU parts can show, and late prefetches -- each read from the
 * memory views of docs/schema.md, so the HTML report can call the same
 * functions or query the same views.
 */
#ifndef SPE_MEMORY_REPORT_H
#define SPE_MEMORY_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "spe/analysis.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The huge-page hint in words, from the 2 MiB rows of data_page: e.g. "7
 * regions of 2 MiB take 97.6% of translation latency; their TLB walks fall
 * on 638 distinct 4 KiB pages (91 per region): back them with huge pages".
 * Returns 1 when it advises huge pages, 0 when it says why not (the text
 * says that too), negative on an SQLite error (message in @p err).
 */
int spe_huge_page_hint(sqlite3 *db, char *text, size_t size, char *err, size_t errlen);
/* The page-budget sentence (spe_page_budget_text) of @p db: 1, 0 (none), or a negative code. */
int spe_page_budget_note(sqlite3 *db, char *text, size_t size, char *err, size_t errlen);

/*
 * The NUMA sentence: the remote share of load latency by nodes (physical
 * addresses), or, without them, by the data-source levels on another
 * socket, saying which.  Same returns as spe_huge_page_hint (1 = remote
 * traffic found).
 */
int spe_numa_summary(sqlite3 *db, char *text, size_t size, char *err, size_t errlen);

/*
 * The same two in parts, for a program that runs the report's queries
 * itself (the HTML report logs and may route each one): run the _sql text,
 * which returns one row of _COLUMNS numbers, and pass that row to the _text
 * function, which applies the rule and writes the sentence (same returns,
 * never negative).  spe_huge_page_hint() and spe_numa_summary() are exactly
 * these two steps, so every report says the same thing.
 */
#define SPE_HUGE_PAGE_HINT_COLUMNS 5
/* @p stored: read page_region_stat (spe_page_regions_stored()), else data_page's 2 MiB rows; the same row */
const char *spe_huge_page_hint_sql(int stored);
int spe_huge_page_hint_text(const double row[SPE_HUGE_PAGE_HINT_COLUMNS], char *text, size_t size);
/*
 * The pages past the loads' page budget (load_stats.pages_unlisted: no
 * page_stat row, counted in their page_region_stat row only): 1 and the
 * sentence saying how many when there were any, else 0 and "".
 */
#define SPE_PAGE_BUDGET_COLUMNS 2
const char *spe_page_budget_sql(void);
int spe_page_budget_text(const double row[SPE_PAGE_BUDGET_COLUMNS], char *text, size_t size);
#define SPE_NUMA_SUMMARY_COLUMNS 6
const char *spe_numa_summary_sql(void);
int spe_numa_summary_text(const double row[SPE_NUMA_SUMMARY_COLUMNS], char *text, size_t size);

/*
 * 1 when every source of @p db with data pages has its 2 MiB regions in
 * page_region_stat (the loads stored them: a database made or a source
 * loaded before that table has not), so the regions are read from there
 * rather than grouped from every page_stat row; 0 otherwise.
 */
int spe_page_regions_stored(sqlite3 *db);

/*
 * 1 when every source of @p db with data objects has their counts in
 * data_object_stat and data_object_level (what its load counted per data
 * object: a database made or a source loaded before those tables has
 * none), 0 otherwise.  spe_hot_data_object_from(1) is then a subquery of
 * hot_data_object's columns, rows and order from those tables (p99 exact
 * as the view's), to read after FROM; spe_hot_data_object_from(0) is the
 * view.
 */
int spe_data_objects_stored(sqlite3 *db);
const char *spe_hot_data_object_from(int stored);

/*
 * The 2 MiB regions the hint counts, as an SQL condition over data_page's
 * columns: those whose TLB walks fall on two or more 4 KiB pages (one huge
 * page would have turned the later walks into hits).  The HTML report
 * marks these rows.
 */
#define SPE_HUGE_PAGE_REGION_WHERE "page_size = 2097152 AND walked_pages_4k >= 2"

/*
 * What the capture's CPU parts can show about sharing and prefetch: one
 * row per part, one column `part` holding the sentence ("neoverse-n1: no
 * HITM or snoop events (SPE 1.1); ...").
 */
const char *spe_memory_parts_sql(void);

/*
 * Print the whole section: as text, or (SPE_FORMAT_JSON) as the members
 * `"memory": {...}` of an enclosing JSON object.  @p top rows per list.
 */
int spe_memory_report(sqlite3 *db, enum spe_result_format fmt, int top, FILE *out, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* SPE_MEMORY_REPORT_H */
