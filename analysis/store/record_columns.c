/* SPDX-License-Identifier: Apache-2.0 */
/* The columns of spe_record (spe/row_sink.h), as data for the schema, the sinks and the docs. */
#include "spe/row_sink.h"

#define COLUMN(IDENT, name, type, sql, doc) [SPE_RECORD_COL_##IDENT] = { #name, type, sql, doc },
/* A counter of the facts table: its cycles, NULL when the record had no such counter. */
#define COUNTER(idx, IDENT, word, col, desc) \
	[SPE_RECORD_COL_COUNTER_##IDENT] = { col, SPE_COLUMN_INT, "INTEGER", desc "; NULL when the counter was absent" },

const struct spe_column spe_record_columns[SPE_RECORD_NCOLS] = { SPE_RECORD_COLUMNS(COLUMN, COUNTER) };

/* present is a 64-bit mask */
_Static_assert(SPE_RECORD_NCOLS <= 64, "more than 64 spe_record columns: widen spe_row_record.present");
