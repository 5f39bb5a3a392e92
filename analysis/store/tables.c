/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The tables of spe/tables.h as data: each column's name, kind, where the
 * row holds it, when it is NULL, its SQL and its meaning, for the schema,
 * the sinks, the schema check and the docs.
 */
#include <string.h>

#include "spe/tables.h"

/* Where column @p name of table @p table sits in its row, by kind. */
#define ROW(table) struct spe_row_##table
#define AT(table, name) .offset = offsetof(ROW(table), name)
#define PLACE_I64(table, name) AT(table, name)
#define PLACE_U64(table, name) AT(table, name)
#define PLACE_I32(table, name) AT(table, name)
#define PLACE_U32(table, name) AT(table, name)
#define PLACE_INT(table, name) AT(table, name)
#define PLACE_FLAG(table, name) AT(table, name)
#define PLACE_TEXT(table, name) AT(table, name)
#define PLACE_BYTES(table, name) AT(table, name), .count = offsetof(ROW(table), n_##name)
#define PLACE_IDS(table, name) AT(table, name), .count = offsetof(ROW(table), n_##name)
#define PLACE_HIST(table, name) \
	.offset = offsetof(ROW(table), latency), .count = offsetof(ROW(table), n), .more = offsetof(ROW(table), samples)

/*
 * The null rule: NEVER, ZERO, NEG and NO_TIME name themselves; IF(f) becomes
 * SPE_NULL_UNLESS with field f's offset and size.  SPE_NULL_SPLIT_<rule>
 * (spe/tables.h) splits a rule into its name and field (none but for IF),
 * NULL_RULE_ puts them in place.
 */
#define NULL_RULE(table, ...) NULL_RULE_(table, __VA_ARGS__)
#define NULL_RULE_(table, rule, f) .null = SPE_NULL_##rule FIELD_##rule(table, f)
#define FIELD_NEVER(table, f)
#define FIELD_ZERO(table, f)
#define FIELD_NEG(table, f)
#define FIELD_NO_TIME(table, f)
#define FIELD_UNLESS(table, f) , .flag = offsetof(ROW(table), f), .flag_size = sizeof(((ROW(table) *)0)->f)

#define COLUMN(table, name_, kind_, null_, sql_, doc_)                                                 \
	{ .name = #name_, .kind = SPE_KIND_##kind_, PLACE_##kind_(table, name_), NULL_RULE(table, SPE_NULL_SPLIT_##null_), \
	  .sql = sql_, .doc = doc_ },
#define COLUMNS(name, NAME, flags, key, order, title) \
	static const struct spe_column name##_columns[] = { SPE_COLUMNS_##name(COLUMN) };
SPE_TABLES(COLUMNS)
#undef COLUMNS

/* spe_record's: a column is NULL when its bit of present is clear. */
#define RECORD_COLUMN(IDENT, name_, kind_, sql_, doc_)                                                    \
	[SPE_RECORD_COL_##IDENT] = { .name = #name_, .kind = SPE_KIND_##kind_, .null = SPE_NULL_ABSENT,   \
				     .offset = offsetof(struct spe_row_record, col[SPE_RECORD_COL_##IDENT]), \
				     .flag = SPE_RECORD_COL_##IDENT, .sql = sql_, .doc = doc_ },
/* A counter of the facts table: its cycles, NULL when the record had no such counter. */
#define RECORD_COUNTER(idx, IDENT, word, col_, desc)                                                           \
	[SPE_RECORD_COL_COUNTER_##IDENT] = { .name = col_, .kind = SPE_KIND_I64, .null = SPE_NULL_ABSENT,          \
					     .offset = offsetof(struct spe_row_record, col[SPE_RECORD_COL_COUNTER_##IDENT]), \
					     .flag = SPE_RECORD_COL_COUNTER_##IDENT, .sql = "INTEGER",                   \
					     .doc = desc "; NULL when the counter was absent" },
const struct spe_column spe_record_columns[SPE_RECORD_NCOLS] = { SPE_RECORD_COLUMNS(RECORD_COLUMN, RECORD_COUNTER) };

/* present is a 64-bit mask */
_Static_assert(SPE_RECORD_NCOLS <= 64, "more than 64 spe_record columns: widen spe_row_record.present");

#define COUNT(a) (int)(sizeof a / sizeof a[0])
static const struct spe_table_info tables[SPE_TABLE_COUNT] = {
#define TABLE(name_, NAME, flags_, key_, order, title_)                                                           \
	[SPE_TABLE_##NAME] = { .name = #name_, .flags = flags_, .key = key_, .ch_order_by = order, .title = title_, \
			       .row_size = sizeof(struct spe_row_##name_), .columns = name_##_columns,            \
			       .n_columns = COUNT(name_##_columns) },
	SPE_TABLES(TABLE)
#undef TABLE
	/*
	 * The records by capture then PC in ClickHouse: the PC column sorted
	 * compresses to little, and the views that group by PC
	 * (branch_mispredict, prefetch) or read one function's PC range find
	 * them together.  ClickHouse stores the view's wide rows (ch_schema.c).
	 */
	[SPE_TABLE_RECORD] = { .name = "_spe_record", .flags = SPE_TABLE_QUEUED, .ch_order_by = "(source_id, assumeNotNull(pc))",
			       .title = "one row per SPE record", .row_size = sizeof(struct spe_row_record),
			       .columns = spe_record_columns, .n_columns = SPE_RECORD_NCOLS },
};

/* The store's own tables: no rows struct, no kind (their rows are SQL's). */
#define STORE_COLUMN(table, name_, sql_, doc_) { .name = #name_, .kind = SPE_KIND_I64, .sql = sql_, .doc = doc_ },
#define STORE_COLUMNS(name, flags, key, order, title) \
	static const struct spe_column name##_columns[] = { SPE_STORE_COLUMNS_##name(STORE_COLUMN) };
SPE_STORE_TABLES(STORE_COLUMNS)
#undef STORE_COLUMNS

static const struct spe_table_info store_tables[] = {
#define TABLE(name_, flags_, key_, order, title_)                                                            \
	{ .name = #name_, .flags = flags_, .key = key_, .ch_order_by = order, .title = title_, \
	  .columns = name_##_columns, .n_columns = COUNT(name_##_columns) },
	SPE_STORE_TABLES(TABLE)
#undef TABLE
};

const struct spe_table_info *spe_table_info(enum spe_table t)
{
	return (unsigned)t < SPE_TABLE_COUNT ? &tables[t] : NULL;
}

const struct spe_table_info *spe_store_tables(int *n)
{
	*n = COUNT(store_tables);
	return store_tables;
}

const struct spe_table_info *spe_table_named(const char *name)
{
	for (int t = 0; t < SPE_TABLE_COUNT; t++)
		if (!strcmp(tables[t].name, name))
			return &tables[t];
	for (int t = 0; t < COUNT(store_tables); t++)
		if (!strcmp(store_tables[t].name, name))
			return &store_tables[t];
	return NULL;
}
