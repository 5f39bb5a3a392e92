/* SPDX-License-Identifier: Apache-2.0 */
/* Internal: the SPE evidence sections shared by both reports. */
#ifndef REPORT_TEXT_INTERNAL_H
#define REPORT_TEXT_INTERNAL_H

#include "report/text.h"

/*
 * Each writes one section: in table form a titled block, in JSON form
 * `"key": value` (no surrounding braces, no trailing comma).  @p where is an
 * SQL condition on source_id choosing the SPE records (the SPE sources of a
 * workload), or "1" for all.
 */
int report_spe_hot_symbols(sqlite3 *db, const char *where, FILE *out, const struct report_text_opts *o,
		       char *err, size_t errlen);
int report_spe_mem_levels(sqlite3 *db, const char *where, FILE *out, const struct report_text_opts *o,
		      char *err, size_t errlen);
int report_spe_tlb_walks(sqlite3 *db, const char *where, FILE *out, const struct report_text_opts *o,
		     char *err, size_t errlen);
int report_spe_mispredicts(sqlite3 *db, const char *where, FILE *out, const struct report_text_opts *o,
		       char *err, size_t errlen);
/* The SPE records @p where chooses into *@p n: 0, or a negative code with the message in @p err. */
int report_spe_record_count(sqlite3 *db, const char *where, long long *n, char *err, size_t errlen);

/*
 * The caveats to print for a workload whose runs used @p methods on @p isas
 * (n of each): one sentence per way of counting present, none when all runs
 * share one.  Returns how many were written to @p out.
 */
int report_method_caveats(const char *const *methods, const char *const *isas, int n, const char **out, int max);

/* "Intel", "AMD", "Arm" or "?", from a run's method and ISA. */
const char *report_method_vendor(const char *method, const char *isa);

/* @p sql prepared on @p db, or NULL with "@p what: SQLite's message" in @p err. */
sqlite3_stmt *report_prepare(sqlite3 *db, const char *sql, const char *what, char *err, size_t errlen);
/* The code of the prepare that report_prepare could not make (report_sqlite_code of its error). */
int report_prepare_code(sqlite3 *db);

#endif
