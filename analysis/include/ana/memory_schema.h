/* SPDX-License-Identifier: Apache-2.0 */
/* The memory tables, facts tables and views of the schema (memory_schema.c). */
#ifndef SPE_MEMORY_SCHEMA_H
#define SPE_MEMORY_SCHEMA_H

#include "util/text.h"

/* CREATE TABLE statements and the facts rows, appended to @p t. */
void ana_memory_schema_tables(struct util_text *t);
/* The INSERTs of the facts tables' rows alone (the ClickHouse schema has its own CREATE TABLEs). */
void ana_memory_schema_fact_rows(struct util_text *t);
/* CREATE VIEW statements (hot_data_object, data_page, numa_traffic, cacheline_sharing, prefetch). */
void ana_memory_schema_views(struct util_text *t);

#endif
