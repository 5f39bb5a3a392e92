/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe_record.time computed in SQL: perf time from a record's ts and its
 * source's time_conv row, as perf_event_mmap_page documents the conversion
 * (decoder/src/perfdata_internal.h, pd_tsc_to_time).  SQLite integers are
 * signed 64-bit and an overflowing product becomes a REAL, so the loader
 * leaves `time` NULL only where time_conv_sql() says the SQL gives the exact
 * value.
 */
#ifndef SPE_TIME_CONV_SQL_H
#define SPE_TIME_CONV_SQL_H

#include <stdint.h>

#include "spe/row_sink.h"
#include "util/text.h"

/*
 * The value the view's expression gives for @p ts, in *out; 0 where SQLite
 * would overflow or the value would not be perf's (a negative operand).
 */
int spe_time_conv_sql(const struct spe_row_time_conv *tc, uint64_t ts, uint64_t *out);

/* Append that expression over the columns @p ts and, for the time_conv row, @p tc ("tc"). */
void ana_time_conv_sql_expr(struct util_text *t, const char *ts, const char *tc);

#endif
