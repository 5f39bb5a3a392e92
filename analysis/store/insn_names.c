/* SPDX-License-Identifier: Apache-2.0 */
#include "insn_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ana/statement.h"
#include "spe/spe.h"
#include "util/grow.h"

static int fail(sqlite3 *db, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", what, sqlite3_errmsg(db));
	return -spe_io;
}

/* Column @p col of the current row into the arena; *s its span.  0, or -1 without memory. */
static int keep(struct insn_names *n, sqlite3_stmt *st, int col, struct name_span *s)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	if (!t) {
		*s = (struct name_span){ 0, NAME_NULL };
		return 0;
	}
	size_t len = (size_t)sqlite3_column_bytes(st, col);
	if (len >= NAME_NULL || n->len + len >= NAME_NULL)
		return -1;
	char *a = util_grow(n->arena, &n->cap, n->len + len + 1, 1);
	if (!a)
		return -1;
	n->arena = a;
	memcpy(a + n->len, t, len);
	*s = (struct name_span){ (uint32_t)n->len, (uint32_t)len };
	n->len += len;
	return 0;
}

/* The symbols: id -> (name span, start).  Kept apart and copied into each insn. */
struct symbol_names {
	struct name_span *name;
	int64_t *start;
	int64_t max_id;
};

static int load_symbols(sqlite3 *db, struct insn_names *n, struct symbol_names *s, char *err, size_t errlen)
{
	s->max_id = ana_query_int(db, "SELECT coalesce(max(id), 0) FROM symbol", -1);
	if (s->max_id < 0 || (uint64_t)s->max_id >= UINT32_MAX)
		return fail(db, "symbol", err, errlen);
	s->name = calloc((size_t)s->max_id + 1, sizeof *s->name);
	s->start = calloc((size_t)s->max_id + 1, sizeof *s->start);
	if (!s->name || !s->start) {
		snprintf(err, errlen, "out of memory for %lld symbols", (long long)s->max_id);
		return -spe_nomem;
	}
	for (int64_t i = 0; i <= s->max_id; i++)
		s->name[i].len = NAME_NULL; /* no such symbol */
	sqlite3_stmt *st;
	if (ana_prepare(db, "SELECT id, name, start FROM symbol", &st, "symbol", err, errlen) < 0)
		return -spe_io;
	int step, rc = 0;
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		if (id < 0 || id > s->max_id)
			continue;
		if (keep(n, st, 1, &s->name[id]) < 0) {
			snprintf(err, errlen, "out of memory for the symbol names");
			rc = -spe_nomem;
		}
		s->start[id] = sqlite3_column_int64(st, 2);
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = fail(db, "reading symbol", err, errlen);
	sqlite3_finalize(st);
	return rc;
}

int ana_insn_names_load(sqlite3 *db, struct insn_names *n, char *err, size_t errlen)
{
	memset(n, 0, sizeof *n);
	struct symbol_names s = { 0 };
	int rc = load_symbols(db, n, &s, err, errlen);
	if (rc == 0) {
		n->max_id = ana_query_int(db, "SELECT coalesce(max(id), 0) FROM insn", -1);
		if (n->max_id < 0 || (uint64_t)n->max_id >= UINT32_MAX)
			rc = fail(db, "insn", err, errlen);
		else if (!(n->by_id = calloc((size_t)n->max_id + 1, sizeof *n->by_id))) {
			snprintf(err, errlen, "out of memory for %lld instructions", (long long)n->max_id);
			rc = -spe_nomem;
		}
	}
	sqlite3_stmt *st = NULL;
	if (rc == 0)
		rc = ana_prepare(db, "SELECT id, symbol_id, file, line, mnemonic, operands FROM insn", &st, "insn", err, errlen);
	int step = SQLITE_DONE;
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		if (id < 0 || id > n->max_id)
			continue;
		struct insn_name *in = &n->by_id[id];
		in->known = 1;
		int64_t sym = sqlite3_column_int64(st, 1);
		in->has_symbol = sqlite3_column_type(st, 1) != SQLITE_NULL && sym >= 0 && sym <= s.max_id &&
				 s.name[sym].len != NAME_NULL;
		in->symbol = in->has_symbol ? s.name[sym] : (struct name_span){ 0, NAME_NULL };
		in->sym_start = in->has_symbol ? s.start[sym] : 0;
		in->has_line = sqlite3_column_type(st, 3) != SQLITE_NULL;
		in->line = sqlite3_column_int64(st, 3);
		if (keep(n, st, 2, &in->file) < 0 || keep(n, st, 4, &in->mnemonic) < 0 ||
		    keep(n, st, 5, &in->operands) < 0) {
			snprintf(err, errlen, "out of memory for the instruction names");
			rc = -spe_nomem;
		}
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = fail(db, "reading insn", err, errlen);
	sqlite3_finalize(st);
	free(s.name);
	free(s.start);
	if (rc < 0)
		ana_insn_names_fini(n);
	return rc;
}

int ana_insn_names_bind(sqlite3_stmt *st, int i, const struct insn_names *n, struct name_span s)
{
	if (s.len == NAME_NULL)
		return sqlite3_bind_null(st, i);
	return sqlite3_bind_text(st, i, s.len ? n->arena + s.off : "", (int)s.len, SQLITE_STATIC);
}

void ana_insn_names_fini(struct insn_names *n)
{
	free(n->by_id);
	free(n->arena);
	memset(n, 0, sizeof *n);
}
