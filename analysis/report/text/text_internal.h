/* SPDX-License-Identifier: Apache-2.0 */
/* Internal: the SPE evidence sections shared by both reports. */
#ifndef REPORT_TEXT_INTERNAL_H
#define REPORT_TEXT_INTERNAL_H

#include "ana/statement.h"
#include "report/text.h"

/*
 * Each writes one section: in table form a titled block, in JSON form
 * `"key": value` (no surrounding braces, no trailing comma).  @p where is an
 * SQL condition on source_id choosing the SPE records (the SPE sources of a
 * workload), or "1" for all; with o->selection, that selection's condition
 * over spe_record (spe_selection_sql(sel, "spe_record")), whose values
 * are bound here.
 */
int report_spe_hot_symbols(sqlite3 *db, const char *where, FILE *out, const struct report_text_opts *o,
		       char *err, size_t errlen);
int report_spe_mem_levels(sqlite3 *db, const char *where, FILE *out, const struct report_text_opts *o,
		      char *err, size_t errlen);
int report_spe_tlb_walks(sqlite3 *db, const char *where, FILE *out, const struct report_text_opts *o,
		     char *err, size_t errlen);
int report_spe_mispredicts(sqlite3 *db, const char *where, FILE *out, const struct report_text_opts *o,
		       char *err, size_t errlen);
/* "Findings": the issues of the memory sections, their evidence and fix, first in the text report (findings_text.c). */
int report_text_findings(sqlite3 *db, FILE *out, char *err, size_t errlen);
/* The same findings as the JSON report's member "findings": {...} (docs/spe-report.1.md, JSON OUTPUT). */
int report_json_findings(sqlite3 *db, FILE *out, char *err, size_t errlen);
/*
 * The SPE records @p where chooses into *@p n (@p sel: the selection whose
 * parameters @p where names, or NULL): 0, or a negative code with the
 * message in @p err.
 */
int report_spe_record_count(sqlite3 *db, const char *where, const struct spe_selection *sel, long long *n, char *err,
			    size_t errlen);

/*
 * The caveats to print for a workload whose runs used @p methods on @p isas
 * (n of each): one sentence per way of counting present, none when all runs
 * share one.  Returns how many were written to @p out.
 */
int report_method_caveats(const char *const *methods, const char *const *isas, int n, const char **out, int max);

/* "Intel", "AMD", "Arm" or "?", from a run's method and ISA. */
const char *report_method_vendor(const char *method, const char *isa);

/*
 * What the loads could not know (load_stats: records of unknown processes,
 * outside mappings, without symbols, kernel ones without symbols): a line
 * of the nonzero counts, or JSON's "unknown" object (unknowns_text.c).
 */
int report_text_unknowns(sqlite3 *db, FILE *out, int json, char *err, size_t errlen);

/* The code of a prepare (ana_prepare) that failed on @p db: report_sqlite_code of its error. */
int report_prepare_code(sqlite3 *db);

#endif
