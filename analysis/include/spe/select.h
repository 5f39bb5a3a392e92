/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which records a report or an export reads, as perf report chooses samples
 * (--pid, --tid, --comm, --cpu, --time, --dso, --symbol) plus the capture
 * (source id): one condition over the columns of spe_record, built once and
 * shared by spe-report and spe-export.  Every value the user gave is a
 * bound parameter (:sel_1, :sel_2, ...); the SQL text holds only column
 * names and those parameter names, never the user's text.
 *
 * Lists within one kind are alternatives (any of these pids); kinds are
 * all required (this pid and this CPU).  An empty selection chooses every
 * record.
 */
#ifndef SPE_SELECT_H
#define SPE_SELECT_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An inclusive range of integers (CPUs, ids). */
struct spe_select_range {
	int64_t lo, hi;
};

/*
 * A time window, inclusive at both ends as perf's --time: perf time in
 * nanoseconds (INT64_MIN / INT64_MAX for an open side), or with @p percent
 * the fractions [from, to] (0 to 1) of the span from the first to the last
 * timed record of the database.
 */
struct spe_select_time {
	int percent;
	int64_t lo, hi;
	double from, to;
};

/* What to choose; NULL or 0 members choose everything.  Arrays are the caller's. */
struct spe_select {
	const int64_t *sources; size_t n_sources;   /* spe_record.source_id */
	const int64_t *pids; size_t n_pids;         /* process ids */
	const int64_t *tids; size_t n_tids;         /* thread ids */
	const struct spe_select_range *cpus; size_t n_cpus;
	const struct spe_select_time *times; size_t n_times;
	/* the thread's command name at the record's time (thread_comm; no time: its last name) */
	const char *const *comms; size_t n_comms;
	/* the mapped file of the PC: its path, or its base name ("libc.so.6", "[kernel.kallsyms]") */
	const char *const *dsos; size_t n_dsos;
	/* the function of the PC (symbol.name) */
	const char *const *symbols; size_t n_symbols;
};

/* 1 when @p s chooses something less than every record. */
int spe_select_active(const struct spe_select *s);

/* A selection compiled against one database (percent times resolved). */
struct spe_selection;

/*
 * Compile @p s for @p db (read to resolve percent times: the first and last
 * record time).  *@p out is NULL for an empty selection (every function
 * below takes NULL as "everything").  0, or -spe_nomem, -spe_bad_file
 * (the database could not be read), with a message in @p err.
 */
int spe_selection_new(sqlite3 *db, const struct spe_select *s, struct spe_selection **out, char *err,
		      size_t errlen);
void spe_selection_free(struct spe_selection *sel);

/*
 * The condition over spe_record's columns, each qualified by @p table (an
 * alias such as "r", or "spe_record"); "1" for NULL.  Malloc'd (NULL
 * without memory).  Bind its parameters with spe_selection_bind.
 */
char *spe_selection_sql(const struct spe_selection *sel, const char *table);

/*
 * Bind the selection's values to the parameters of @p st that
 * spe_selection_sql named (those absent from @p st are skipped).
 * SQLITE_OK or SQLite's error code.
 */
int spe_selection_bind(const struct spe_selection *sel, sqlite3_stmt *st);

/*
 * The selection in words, as the options were given ("pid 42,43; cpu 0-3;
 * time 12.5,13.0 s"), for headings; "" for NULL.  Owned by @p sel.
 */
const char *spe_selection_text(const struct spe_selection *sel);

#ifdef __cplusplus
}
#endif

#endif
