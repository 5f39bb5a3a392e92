/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The row sink: where a load's rows go.  The loader (spe_loader_*) turns
 * records and sideband into typed rows of the tables of docs/schema.md
 * (spe/tables.h describes each: its row struct, columns and NULLs) and
 * hands them to a sink in batches; the sink stores them.  SQLite is the
 * sink of spe-load (spe_sqlite_sink_new); other stores (ClickHouse,
 * exporters) implement the same struct of operations.  Nothing here is
 * SQLite's: values are C integers and strings, NULL is said per column.
 *
 * A load is: begin (the sink says which ids are free), rows of any table in
 * any number of calls, all through one operation, then commit (the source
 * is complete: flush) or abort (drop what is buffered; undoing what was
 * stored is the store's transaction, outside the sink).  Pointers in rows
 * are valid only during the call.  Operations return 0 or a negative spe_*
 * code, with the sink's errmsg() saying what failed.  A sink stores a
 * table's rows from its description (struct spe_column), so a new column
 * needs no change here.
 */
#ifndef SPE_ROW_SINK_H
#define SPE_ROW_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "spe/spe.h"
#include "spe/tables.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The first free id of each table with an id column, as the store stands at begin. */
struct spe_row_ids {
	int64_t source, mapping, symbol, insn, data_object;
};

/* ---- the sink -------------------------------------------------------------- */

struct spe_row_sink {
	void *ctx;
	/*
	 * The tables the sink stores (bit 1 << enum spe_table): rows of the
	 * others are never given.  Without time_conv the loader writes every
	 * record's perf time in `time`; without the summaries the sink computes
	 * the views its own way.
	 */
	uint64_t tables;
	/* A new source: the first free ids, as the store stands. */
	int (*begin)(void *ctx, struct spe_row_ids *next);
	/* @p n rows of @p table (struct spe_row_<table>, struct spe_row_record for SPE_TABLE_RECORD). */
	int (*rows)(void *ctx, enum spe_table table, const void *rows, size_t n);
	int (*commit)(void *ctx);
	void (*abort)(void *ctx);
	const char *(*errmsg)(void *ctx);
	/* Free the sink's state (not the store).  May be NULL. */
	void (*free)(void *ctx);
};

/* The table of a row pointer's type (struct spe_row_cpu * is SPE_TABLE_CPU ...). */
#define SPE_TABLE_OF_(name, NAME, flags, key, order, title) \
	struct spe_row_##name * : SPE_TABLE_##NAME, const struct spe_row_##name * : SPE_TABLE_##NAME,
#define SPE_TABLE_OF(rows)                                                                                  \
	_Generic((rows), SPE_TABLES(SPE_TABLE_OF_) struct spe_row_record * : SPE_TABLE_RECORD,              \
		 const struct spe_row_record * : SPE_TABLE_RECORD)

/* Give @p n rows of @p table to @p sink, if it stores that table (0 if not). */
static inline int spe_sink_put(const struct spe_row_sink *sink, enum spe_table table, const void *rows, size_t n)
{
	return sink->tables >> table & 1 ? sink->rows(sink->ctx, table, rows, n) : 0;
}
/* The same, the table told by the rows' type: spe_sink_rows(sink, &row, 1). */
#define spe_sink_rows(sink, rows, n) spe_sink_put((sink), SPE_TABLE_OF(rows), (rows), (n))
/* Does @p sink store table NAME (SPE_TABLE_NAME)? */
#define spe_sink_takes(sink, NAME) ((int)((sink)->tables >> SPE_TABLE_##NAME & 1))

#ifdef __cplusplus
}
#endif

#endif /* SPE_ROW_SINK_H */
