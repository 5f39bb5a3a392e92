/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pc_summary and symbol_summary: the statistics hot_pc and hot_symbol show,
 * computed once per load from pc_latency over every source in the database.
 *
 * The views used to compute them with window functions at query time, which
 * sorted every pc_latency row: 33 s for hot_symbol on a 10M-record capture.
 * Here the PC rollup streams pc_latency in the order of its covering index
 * (constant memory), and the symbol rollup merges per-function histograms in
 * memory (bounded by functions x distinct latencies, not by records).
 */
#include "latency_rollup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latency_hist.h"
#include "spe/spe.h"

struct rollup {
	sqlite3 *db;
	char *err;
	size_t errlen;
	sqlite3_stmt *insert;
};

static int fail(struct rollup *r, const char *what)
{
	snprintf(r->err, r->errlen, "%s: %s", what, sqlite3_errmsg(r->db));
	return -spe_io;
}

static void bind_or_null(sqlite3_stmt *st, int i, int has, int64_t v)
{
	if (has)
		sqlite3_bind_int64(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

/* Bind columns first.. of (samples, total_latency, timed, p50, p90, p99) and step. */
static int insert_stats(struct rollup *r, int first, const struct latency_stats *s, const char *what)
{
	sqlite3_stmt *st = r->insert;
	sqlite3_bind_int64(st, first, (int64_t)s->samples);
	bind_or_null(st, first + 1, s->timed > 0, (int64_t)s->total_latency);
	sqlite3_bind_int64(st, first + 2, (int64_t)s->timed);
	bind_or_null(st, first + 3, s->p50 >= 0, s->p50);
	bind_or_null(st, first + 4, s->p90 >= 0, s->p90);
	bind_or_null(st, first + 5, s->p99 >= 0, s->p99);
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : fail(r, what);
}

static int64_t column_or(sqlite3_stmt *st, int col, int *has)
{
	*has = sqlite3_column_type(st, col) != SQLITE_NULL;
	return *has ? sqlite3_column_int64(st, col) : 0;
}

/* One pc_summary row per (pc, insn_id), from pc_latency in index order. */
static int rollup_pcs(struct rollup *r)
{
	sqlite3_stmt *rows = NULL;
	int rc = 0;
	uint64_t *pairs = NULL;
	size_t n = 0, cap = 0;
	if (sqlite3_prepare_v2(r->db,
			       "SELECT pc, insn_id, total_latency, samples FROM pc_latency"
			       " ORDER BY pc, insn_id, total_latency",
			       -1, &rows, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(r->db,
			       "INSERT INTO pc_summary(pc, insn_id, samples, total_latency, timed, p50, p90, p99)"
			       " VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
			       -1, &r->insert, NULL) != SQLITE_OK) {
		rc = fail(r, "pc_summary");
		goto out;
	}
	int have_group = 0, has_pc = 0, has_insn = 0;
	int64_t pc = 0, insn = 0;
	for (;;) {
		int step = sqlite3_step(rows);
		if (step != SQLITE_ROW && step != SQLITE_DONE) {
			rc = fail(r, "reading pc_latency");
			break;
		}
		int row_has_pc = 0, row_has_insn = 0, has_lat = 0;
		int64_t row_pc = 0, row_insn = 0, lat = 0, count = 0;
		if (step == SQLITE_ROW) {
			row_pc = column_or(rows, 0, &row_has_pc);
			row_insn = column_or(rows, 1, &row_has_insn);
			lat = column_or(rows, 2, &has_lat);
			count = sqlite3_column_int64(rows, 3);
		}
		int same = step == SQLITE_ROW && have_group && row_has_pc == has_pc && row_pc == pc &&
			   row_has_insn == has_insn && row_insn == insn;
		if (have_group && !same) {
			struct latency_stats s;
			latency_stats_sorted(pairs, n, &s);
			bind_or_null(r->insert, 1, has_pc, pc);
			bind_or_null(r->insert, 2, has_insn && insn, insn);
			if ((rc = insert_stats(r, 3, &s, "pc_summary")) < 0)
				break;
			n = 0;
		}
		if (step == SQLITE_DONE)
			break;
		have_group = 1;
		has_pc = row_has_pc, pc = row_pc, has_insn = row_has_insn, insn = row_insn;
		if (lat < 0 || lat > 0xffff || count < 0) {
			snprintf(r->err, r->errlen, "pc_latency: latency %lld or count %lld out of range", (long long)lat,
				 (long long)count);
			rc = -spe_bad_file;
			break;
		}
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 1024;
			uint64_t *np = realloc(pairs, ncap * sizeof *np);
			if (!np) {
				snprintf(r->err, r->errlen, "out of memory");
				rc = -spe_nomem;
				break;
			}
			pairs = np, cap = ncap;
		}
		pairs[n++] = latency_slot_make(has_lat ? (int32_t)lat : LATENCY_NONE, (uint64_t)count);
	}
out:
	free(pairs);
	sqlite3_finalize(rows);
	sqlite3_finalize(r->insert);
	r->insert = NULL;
	return rc;
}

/*
 * One symbol_summary row per function of a file: symbols with the same name
 * and mapping path (the same function seen by several processes or
 * sources) are one group, named by their smallest id.  Records without a
 * symbol make one more group with symbol_id NULL.
 */
static int rollup_symbols(struct rollup *r)
{
	sqlite3_stmt *st = NULL;
	struct latency_groups groups = { 0 };
	uint32_t *group_of = NULL; /* symbol id -> group number + 1 */
	int64_t *first_id = NULL;  /* group number -> smallest symbol id, 0 = none */
	uint64_t *scratch = NULL;
	int rc = 0;
	int64_t max_id = 0;

	if (sqlite3_prepare_v2(r->db, "SELECT coalesce(max(id), 0) FROM symbol", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		rc = fail(r, "symbol");
		goto out;
	}
	max_id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	st = NULL;
	if (max_id < 0 || (uint64_t)max_id >= UINT32_MAX ||
	    !(group_of = calloc((size_t)max_id + 1, sizeof *group_of)) ||
	    !(first_id = calloc((size_t)max_id + 2, sizeof *first_id))) {
		snprintf(r->err, r->errlen, "symbol rollup: out of memory for %lld symbols", (long long)max_id);
		rc = -spe_nomem;
		goto out;
	}

	/* name the groups: equal (name, path) are adjacent in this order */
	if (sqlite3_prepare_v2(r->db,
			       "SELECT s.id, s.name, m.path FROM symbol s LEFT JOIN mapping m ON m.id = s.mapping_id"
			       " ORDER BY s.name, m.path, s.id",
			       -1, &st, NULL) != SQLITE_OK) {
		rc = fail(r, "symbol");
		goto out;
	}
	char *prev_name = NULL, *prev_path = NULL;
	int have_prev = 0;
	uint32_t n_groups = 0;
	int step;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		const char *name = (const char *)sqlite3_column_text(st, 1);
		const char *path = (const char *)sqlite3_column_text(st, 2);
		int same = have_prev && name && prev_name && strcmp(name, prev_name) == 0 &&
			   ((!path && !prev_path) || (path && prev_path && strcmp(path, prev_path) == 0));
		if (!same) {
			free(prev_name);
			free(prev_path);
			prev_name = name ? strdup(name) : NULL;
			prev_path = path ? strdup(path) : NULL;
			have_prev = 1;
			first_id[n_groups++] = id;
		}
		if (id > 0 && id <= max_id)
			group_of[id] = n_groups;
	}
	free(prev_name);
	free(prev_path);
	sqlite3_finalize(st);
	st = NULL;
	if (step != SQLITE_DONE) {
		rc = fail(r, "symbol");
		goto out;
	}

	/* merge the histograms; group number n_groups is "no symbol" */
	for (uint32_t g = 0; g <= n_groups; g++) {
		struct latency_key key = { { g, 0, 0 } };
		if (latency_group_of(&groups, &key) != (int64_t)g) {
			snprintf(r->err, r->errlen, "out of memory");
			rc = -spe_nomem;
			goto out;
		}
	}
	if (sqlite3_prepare_v2(r->db, "SELECT symbol_id, total_latency, samples FROM pc_latency", -1, &st, NULL) !=
	    SQLITE_OK) {
		rc = fail(r, "pc_latency");
		goto out;
	}
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		int has_sym, has_lat;
		int64_t sym = column_or(st, 0, &has_sym);
		int64_t lat = column_or(st, 1, &has_lat);
		int64_t count = sqlite3_column_int64(st, 2);
		if (lat < 0 || lat > 0xffff || count < 0) {
			snprintf(r->err, r->errlen, "pc_latency: latency %lld or count %lld out of range",
				 (long long)lat, (long long)count);
			rc = -spe_bad_file;
			goto out;
		}
		uint32_t g = has_sym && sym > 0 && sym <= max_id && group_of[sym] ? group_of[sym] - 1 : n_groups;
		if (latency_groups_add(&groups, g, has_lat ? (int32_t)lat : LATENCY_NONE, (uint64_t)count) < 0) {
			snprintf(r->err, r->errlen, "out of memory");
			rc = -spe_nomem;
			goto out;
		}
	}
	sqlite3_finalize(st);
	st = NULL;
	if (step != SQLITE_DONE) {
		rc = fail(r, "reading pc_latency");
		goto out;
	}

	uint32_t widest = 0;
	for (uint32_t g = 0; g <= n_groups; g++)
		if (groups.groups[g].hist.n > widest)
			widest = groups.groups[g].hist.n;
	if (!(scratch = malloc(((size_t)widest + 1) * sizeof *scratch))) {
		snprintf(r->err, r->errlen, "out of memory");
		rc = -spe_nomem;
		goto out;
	}
	if (sqlite3_prepare_v2(r->db,
			       "INSERT INTO symbol_summary(symbol_id, samples, total_latency, timed, p50, p90, p99)"
			       " VALUES(?, ?, ?, ?, ?, ?, ?)",
			       -1, &r->insert, NULL) != SQLITE_OK) {
		rc = fail(r, "symbol_summary");
		goto out;
	}
	for (uint32_t g = 0; g <= n_groups && rc == 0; g++) {
		const struct latency_hist *h = &groups.groups[g].hist;
		if (!h->n)
			continue;
		struct latency_stats s;
		latency_hist_stats(h, scratch, &s);
		bind_or_null(r->insert, 1, g < n_groups, g < n_groups ? first_id[g] : 0);
		rc = insert_stats(r, 2, &s, "symbol_summary");
	}
out:
	sqlite3_finalize(st);
	sqlite3_finalize(r->insert);
	r->insert = NULL;
	latency_groups_free(&groups);
	free(group_of);
	free(first_id);
	free(scratch);
	return rc;
}

int spe_latency_rollup(sqlite3 *db, char *err, size_t errlen)
{
	struct rollup r = { db, err, errlen, NULL };
	char *msg = NULL;
	if (sqlite3_exec(db, "DELETE FROM pc_summary; DELETE FROM symbol_summary;", NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(err, errlen, "clearing the summaries: %s", msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return -spe_io;
	}
	int rc = rollup_pcs(&r);
	if (rc == 0)
		rc = rollup_symbols(&r);
	return rc;
}
