/* SPDX-License-Identifier: Apache-2.0 */
/* The facts rows and memory views of the schema (memory_schema.c); the tables are spe/tables.h's. */
#ifndef SPE_MEMORY_SCHEMA_H
#define SPE_MEMORY_SCHEMA_H

#include "util/text.h"

/* The INSERTs of the facts tables' rows (spe_part_fact, spe_data_source_fact, data_object_kind): SQLite and ClickHouse. */
void ana_memory_schema_fact_rows(struct util_text *t);
/* CREATE VIEW statements (hot_data_object, data_page, numa_traffic, cacheline_sharing, prefetch). */
void ana_memory_schema_views(struct util_text *t);
/* data_page's CREATE VIEW for a file without page_region_stat (made before it): its 2 MiB rows grouped from page_stat */
void ana_data_page_of_pages(struct util_text *t);

#endif
