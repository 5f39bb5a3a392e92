/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the per-PC views show of an instruction -- its function's name and
 * start, source file and line, mnemonic and operands -- read once from insn
 * and symbol in id order, for the rollups that write those views' rows at
 * the end of a load (latency_rollup.c).  Looking each row up in SQLite in
 * the views' order instead cost a b-tree descent per table and row.
 */
#ifndef SPE_INSN_NAMES_H
#define SPE_INSN_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

/* A text of the arena: its offset and length; len NAME_NULL is SQL NULL. */
struct name_span {
	uint32_t off, len;
};
#define NAME_NULL UINT32_MAX

struct insn_name {
	struct name_span symbol, file, mnemonic, operands;
	int64_t sym_start, line;
	uint8_t has_symbol; /* the insn names a symbol row: symbol and sym_start hold */
	uint8_t has_line;
	uint8_t known; /* an insn row with this id exists */
};

struct insn_names {
	struct insn_name *by_id; /* insn id -> its names, ids 0..max_id */
	int64_t max_id;
	char *arena;
	size_t len, cap;
};

/* Read every insn row (and its symbol's name and start).  0, or a negative spe code with @p err set. */
int ana_insn_names_load(sqlite3 *db, struct insn_names *n, char *err, size_t errlen);

/* The names of insn @p id, NULL when there is no such row. */
static inline const struct insn_name *ana_insn_name(const struct insn_names *n, int64_t id)
{
	return id >= 0 && id <= n->max_id && n->by_id[id].known ? &n->by_id[id] : NULL;
}

/* Bind span @p s of @p n to parameter @p i of @p st (no copy: the arena outlives the statement's step). */
int ana_insn_names_bind(sqlite3_stmt *st, int i, const struct insn_names *n, struct name_span s);

void ana_insn_names_fini(struct insn_names *n);

#endif
