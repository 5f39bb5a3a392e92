/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a sampled PC is: its mapping, instruction text and frames (the
 * inlined functions innermost first, then the containing function), cached
 * per (mapping, PC).  The database answers first: insn holds the line, the
 * names of the inlined functions and the instruction, symbol the containing
 * function.  The binary's DWARF (through the symbolizer) is read only for
 * what the database lacks: the call-site lines of inlined frames, and for
 * AutoFDO every function's declaration line.
 */
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"

struct code_locs {
	struct export_ctx *x;
	enum code_loc_need need;
	struct agg cache;    /* {mapping_id, pc} -> struct code_loc * */
	struct agg insn_ids; /* {mapping_id, pc} -> insn.id (0: none) */
	sqlite3_stmt *insn;
};

struct loc_key {
	int64_t mapping_id, pc;
};
AGG_WORDS(struct loc_key);

/*
 * insn has one row per sampled PC of a mapping.  Its ids are read once
 * into memory by (mapping_id, pc) rather than looked up through an index:
 * spe-load builds none on insn, which at hundreds of thousands of PCs cost
 * every load about a tenth of a second (docs/schema.md, "Indexes").
 */
static int load_insn_ids(struct code_locs *c)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(c->x->db, "SELECT id, mapping_id, pc FROM insn WHERE mapping_id IS NOT NULL", -1, &st,
			       NULL) != SQLITE_OK)
		return export_fail(c->x, export_sql_code(sqlite3_errcode(c->x->db)), "reading instructions: %s", sqlite3_errmsg(c->x->db));
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct loc_key k = { sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2) };
		int64_t *id = export_agg_upsert(&c->insn_ids, &k);
		if (!id) {
			sqlite3_finalize(st);
			return export_fail(c->x, -spe_nomem, "out of memory");
		}
		if (!*id) /* the first row of a (mapping_id, pc), as a lookup in id order would find */
			*id = sqlite3_column_int64(st, 0);
	}
	return export_finish(c->x, st, "reading instructions");
}

struct code_locs *export_code_locs_new(struct export_ctx *x, enum code_loc_need need)
{
	struct code_locs *c = calloc(1, sizeof *c);
	if (!c) {
		export_fail(x, -spe_nomem, "out of memory");
		return NULL;
	}
	c->x = x;
	c->need = need;
	export_agg_init(&c->cache, sizeof(struct loc_key), sizeof(struct code_loc *));
	export_agg_init(&c->insn_ids, sizeof(struct loc_key), sizeof(int64_t));
	if (load_insn_ids(c) < 0) {
		export_code_locs_free(c);
		return NULL;
	}
	if (sqlite3_prepare_v2(x->db,
			       "SELECT i.file, i.line, i.inline_function, i.mnemonic, i.operands,\n"
			       "  s.name, s.start, s.file, s.line\n"
			       "FROM insn i LEFT JOIN symbol s ON s.id = i.symbol_id WHERE i.id = ?",
			       -1, &c->insn, NULL) != SQLITE_OK) {
		export_fail(x, export_sql_code(sqlite3_errcode(x->db)), "reading instructions: %s", sqlite3_errmsg(x->db));
		export_code_locs_free(c);
		return NULL;
	}
	return c;
}

void export_code_locs_free(struct code_locs *c)
{
	if (!c)
		return;
	const void **keys = export_agg_keys(&c->cache);
	for (size_t i = 0; keys && i < c->cache.n; i++) {
		struct code_loc *l = *(struct code_loc **)agg_value(&c->cache, keys[i]);
		if (l)
			free(l->frame);
		free(l);
	}
	free(keys);
	export_agg_free(&c->cache);
	export_agg_free(&c->insn_ids);
	sqlite3_finalize(c->insn);
	free(c);
}

/* The inlined names of insn.inline_function ("inner <- outer"), then @p function. */
static int db_frames(struct code_locs *c, const char *inline_chain, const char *function, struct code_frame *f,
		     int *oom)
{
	int n = 0;
	for (const char *p = inline_chain; p && *p && n < EXPORT_MAX_FRAMES - 1;) {
		const char *sep = strstr(p, " <- ");
		size_t len = sep ? (size_t)(sep - p) : strlen(p);
		char name[512];
		snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), p);
		f[n].function = f[n].system_name = export_strtab_intern(&c->x->strings, name, oom);
		n++;
		p = sep ? sep + 4 : NULL;
	}
	f[n].function = f[n].system_name = export_strtab_intern(&c->x->strings, function, oom);
	return n + 1;
}

/* Frames from the binary's DWARF; 0 when it cannot be read. */
static int dwarf_frames(struct code_locs *c, struct code_loc *l, struct code_frame *f, int *oom)
{
	uint64_t vaddr;
	struct spe_sym_frame sf[EXPORT_MAX_FRAMES];
	if (!l->map || export_mapping_vaddr(c->x, l->map, l->pc, &vaddr) != 0)
		return 0;
	int n = spe_sym_frames(export_mapping_binary(c->x, l->map), vaddr, sf, EXPORT_MAX_FRAMES);
	struct strtab *st = &c->x->strings;
	for (int i = 0; i < n; i++) {
		f[i].function = export_strtab_intern(st, sf[i].function, oom);
		f[i].system_name = export_strtab_intern(st, sf[i].linkage_name ? sf[i].linkage_name : sf[i].function, oom);
		f[i].file = export_strtab_intern(st, sf[i].file, oom);
		f[i].line = sf[i].line;
		f[i].decl_line = sf[i].decl_line;
	}
	return n;
}

static int resolve(struct code_locs *c, struct code_loc *l)
{
	struct export_ctx *x = c->x;
	struct strtab *st = &x->strings;
	int64_t insn_id = 0;
	if (l->map) {
		struct loc_key k = { l->map->id, (int64_t)l->pc };
		const int64_t *id = export_agg_upsert(&c->insn_ids, &k); /* a miss adds 0: no row */
		if (!id)
			return export_fail(x, -spe_nomem, "out of memory");
		insn_id = *id;
	}
	sqlite3_stmt *q = insn_id ? c->insn : NULL;
	struct code_frame f[EXPORT_MAX_FRAMES];
	memset(f, 0, sizeof f);
	int oom = 0, n = 0, step = SQLITE_DONE;
	const char *inline_chain = NULL;
	if (q) {
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, insn_id);
		step = sqlite3_step(q);
	}
	if (step == SQLITE_ROW) {
		l->mnemonic = export_strtab_intern(st, (const char *)sqlite3_column_text(q, 3), &oom);
		l->operands = export_strtab_intern(st, (const char *)sqlite3_column_text(q, 4), &oom);
		const char *name = (const char *)sqlite3_column_text(q, 5);
		inline_chain = export_strtab_intern(st, (const char *)sqlite3_column_text(q, 2), &oom);
		if (name) {
			l->function_start = (uint64_t)sqlite3_column_int64(q, 6);
			l->function_file = export_strtab_intern(st, (const char *)sqlite3_column_text(q, 7), &oom);
			l->function_line = sqlite3_column_int(q, 8);
			n = db_frames(c, inline_chain, name, f, &oom);
			f[0].file = export_strtab_intern(st, (const char *)sqlite3_column_text(q, 0), &oom);
			f[0].line = sqlite3_column_int(q, 1);
		}
	} else if (step != SQLITE_DONE) {
		return export_fail(x, export_sql_code(sqlite3_errcode(x->db)), "reading instructions: %s", sqlite3_errmsg(x->db));
	}
	if (inline_chain || c->need == CODE_LOC_DECL_LINES) {
		struct code_frame d[EXPORT_MAX_FRAMES];
		memset(d, 0, sizeof d);
		int nd = dwarf_frames(c, l, d, &oom);
		if (nd > 0) {
			/* the containing function keeps the symbol table's name, as in the database */
			if (n > 0)
				d[nd - 1].function = f[n - 1].function;
			if (!d[nd - 1].system_name)
				d[nd - 1].system_name = d[nd - 1].function;
			memcpy(f, d, sizeof f);
			n = nd;
			l->from_dwarf = 1;
		} else if (n > 0) {
			x->stats->no_dwarf++;
		}
	}
	if (oom)
		return export_fail(x, -spe_nomem, "out of memory");
	l->n = n;
	if (n) {
		l->frame = malloc((size_t)n * sizeof *l->frame);
		if (!l->frame)
			return export_fail(x, -spe_nomem, "out of memory");
		memcpy(l->frame, f, (size_t)n * sizeof *l->frame);
	}
	return 0;
}

int export_code_loc_get(struct code_locs *c, int64_t mapping_id, uint64_t pc, const struct code_loc **out)
{
	struct loc_key k = { mapping_id, (int64_t)pc };
	struct code_loc **slot = export_agg_upsert(&c->cache, &k);
	if (!slot)
		return export_fail(c->x, -spe_nomem, "out of memory");
	if (!*slot) {
		struct code_loc *l = calloc(1, sizeof *l);
		if (!l)
			return export_fail(c->x, -spe_nomem, "out of memory");
		l->map = export_mapping(c->x, mapping_id);
		l->pc = pc;
		int rc = resolve(c, l); /* does not touch the cache: slot stays valid */
		if (rc < 0) {
			free(l->frame);
			free(l);
			return rc;
		}
		*slot = l;
	}
	*out = *slot;
	return 0;
}
