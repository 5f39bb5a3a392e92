/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A record row as ClickHouse stores it: the loader's narrow row
 * (SPE_RECORD_COLUMNS: codes, and only what cannot be derived) widened to
 * the spe_record view's columns (SPE_RECORD_VIEW_COLUMNS), computed as
 * SQLite's view computes them (analysis/store/schema.c, append_view_column):
 * op_class and op from the op code (libspe's op decoding and text), el,
 * op_raw and mem_level from `codes`, context from tid where `codes` says
 * so, and pc, mapping_id and symbol_id from the record's instruction.
 * Perf time is in the row already: the ClickHouse sink takes no TIME_CONV
 * (spe/row_sink.h), so the loader converts.
 */
#include <stdlib.h>
#include <string.h>

#include "ch_internal.h"
#include "ch_rowbinary.h"
#include "spe/record.h"

/* How a wide column is made. */
enum how { COPY, TIME, PC, EL, OP_CLASS, OP, OP_RAW, MEM_LEVEL, CONTEXT, MAPPING_ID, SYMBOL_ID };

struct plan {
	int n;               /* wide columns after id */
	enum how how[64];
	int from[64];        /* COPY: the narrow column */
	int nullable[64];
};

static const char *const mem_level_names[] = {
#define SPE_X(id, name, peer, desc) [SPE_MEM_LEVEL_##id] = name,
	SPE_MEM_LEVEL_LIST(SPE_X)
#undef SPE_X
};

/* op_class and perf text of every op code (class << 8 | payload), as spe_op_code has them. */
static struct {
	const char *op_class;
	char text[48];
} ops[1024];

static int narrow_column(const char *name)
{
	for (int c = 0; c < SPE_RECORD_NCOLS; c++)
		if (!strcmp(spe_record_columns[c].name, name))
			return c;
	return -1;
}

static const struct plan *get_plan(void)
{
	static struct plan p;
	static int built;
	if (built) /* the same for every sink: a race writes the same values */
		return &p;
	for (unsigned raw = 0; raw < 1024; raw++) {
		struct spe_record rec = { .has = SPE_HAS_OP_TYPE, .op_raw_class = (uint8_t)(raw >> 8), .op_raw = (uint8_t)raw };
		uint8_t cls;
		uint32_t flags;
		uint16_t evl;
		spe_op_decode((uint8_t)(raw >> 8), (uint8_t)raw, &cls, &flags, &evl);
		spe_record_op_text(&rec, ops[raw].text, sizeof ops[raw].text);
		ops[raw].op_class = spe_op_class_name(cls);
	}
	static const struct {
		const char *name;
		enum how how;
	} special[] = { { "time", TIME },     { "pc", PC },		{ "el", EL },
			{ "op_class", OP_CLASS }, { "op", OP },		{ "op_raw", OP_RAW },
			{ "mem_level", MEM_LEVEL }, { "context", CONTEXT }, { "mapping_id", MAPPING_ID },
			{ "symbol_id", SYMBOL_ID } };
	int n;
	const struct ch_column *cols = ch_table_columns(CHT_RECORD, &n);
	p.n = n - 1;
	for (int c = 1; c < n && c <= 64; c++) {
		enum how how = COPY;
		for (size_t i = 0; i < sizeof special / sizeof *special; i++)
			if (!strcmp(cols[c].name, special[i].name))
				how = special[i].how;
		p.how[c - 1] = how;
		p.from[c - 1] = narrow_column(cols[c].name);
		p.nullable[c - 1] = cols[c].type[0] == 'N';
	}
	built = 1;
	return &p;
}

#define SET(r, c) ((c) >= 0 && ((r)->present >> (c) & 1))

int ch_put_record(struct ch_buf *b, int64_t id, const struct spe_row_record *r, const struct ch_insn_pc *insns,
		  size_t n_insns, int64_t base)
{
	const struct plan *p = get_plan();
	if (ch_buf_reserve(b, 9 + (size_t)p->n * 9 + 2 * sizeof ops[0].text) < 0)
		return -spe_nomem;
	uint64_t codes = (uint64_t)r->col[SPE_RECORD_COL_CODES].i;
	int has_insn = SET(r, SPE_RECORD_COL_INSN_ID);
	int64_t k = has_insn ? r->col[SPE_RECORD_COL_INSN_ID].i - base : -1;
	const struct ch_insn_pc *in = k >= 0 && (size_t)k < n_insns && insns[k].known ? &insns[k] : NULL;
	int has_pc = SET(r, SPE_RECORD_COL_PC);
	unsigned op = (unsigned)(codes & SPE_CODES_OP_RAW_MASK);
	unsigned level = (unsigned)(codes >> SPE_CODES_MEM_LEVEL_SHIFT) & 31;
	put_i64(b, id);
	for (int c = 0; c < p->n; c++) {
		int f = p->from[c];
		switch (p->how[c]) {
		case COPY:
			if (p->nullable[c])
				put_nint(b, SET(r, f), SET(r, f) ? r->col[f].i : 0);
			else
				put_i64(b, SET(r, f) ? r->col[f].i : 0);
			break;
		case TIME: put_nint(b, !(codes & SPE_CODES_NO_TIME) && SET(r, f), SET(r, f) ? r->col[f].i : 0); break;
		case PC: put_nint(b, has_pc || in, has_pc ? r->col[SPE_RECORD_COL_PC].i : in ? in->pc : 0); break;
		case EL: put_nint(b, has_pc || has_insn, (int64_t)(codes >> SPE_CODES_EL_SHIFT & 3)); break;
		case OP_CLASS: put_nstr(b, codes & SPE_CODES_HAS_OP ? ops[op].op_class : NULL); break;
		case OP: put_nstr(b, codes & SPE_CODES_HAS_OP ? ops[op].text : NULL); break;
		case OP_RAW: put_nint(b, (codes & SPE_CODES_HAS_OP) != 0, op); break;
		case MEM_LEVEL:
			put_nstr(b, level && level - 1 < sizeof mem_level_names / sizeof *mem_level_names
					    ? mem_level_names[level - 1]
					    : NULL);
			break;
		case CONTEXT:
			if (codes & SPE_CODES_CONTEXT_IS_TID)
				put_nint(b, SET(r, SPE_RECORD_COL_TID), r->col[SPE_RECORD_COL_TID].i);
			else
				put_nint(b, SET(r, f), SET(r, f) ? r->col[f].i : 0);
			break;
		case MAPPING_ID: put_nint(b, in && in->mapping_id, in ? in->mapping_id : 0); break;
		case SYMBOL_ID: put_nint(b, in && in->symbol_id, in ? in->symbol_id : 0); break;
		}
	}
	return 0;
}
