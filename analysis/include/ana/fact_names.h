/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Names from the facts table (facts.h) as C string constants, for SQL built
 * by the SQLite views (views.c, memory_schema.c), the report's queries
 * (report_sql.c) and ClickHouse (ch_views.c): op_class_LOAD is "load",
 * mem_level_DRAM "dram", op_word_ATOMIC the atomic flag's word in the op
 * text ("LD AT GP-REG").
 */
#ifndef SPE_FACT_NAMES_H
#define SPE_FACT_NAMES_H

#include "spe/analysis.h"

#define SPE_X(id, name) __attribute__((unused)) static const char op_class_##id[] = name;
SPE_OP_CLASS_LIST(SPE_X)
#undef SPE_X
#define SPE_X(id, word, desc) __attribute__((unused)) static const char op_word_##id[] = word;
SPE_OP_FLAG_LIST(SPE_X)
#undef SPE_X
#define SPE_X(id, name, peer, desc) __attribute__((unused)) static const char mem_level_##id[] = name;
SPE_MEM_LEVEL_LIST(SPE_X)
#undef SPE_X

#endif
