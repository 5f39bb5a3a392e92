/* SPDX-License-Identifier: Apache-2.0 */
/* Rebuild pc_summary and symbol_summary from pc_latency (every source). */
#ifndef SPE_LATENCY_ROLLUP_H
#define SPE_LATENCY_ROLLUP_H

#include <sqlite3.h>
#include <stddef.h>

struct rollup_feed;

/*
 * 0, or a negative spe error with @p err filled in.  @p feed (may be NULL):
 * every pc_histogram row, kept in memory by the load (rollup_feed.h); used
 * instead of the table unless it was lost.  @p threads >= 2: the feed is
 * merged (and hot_pc's order sorted) on a second thread while this one does
 * the SQL work that does not need it (the instructions' names, _branch_mispredict); the rows are the
 * same either way.
 */
int spe_latency_rollup(sqlite3 *db, const struct rollup_feed *feed, int threads, char *err, size_t errlen);

#endif
