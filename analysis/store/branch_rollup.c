/* SPDX-License-Identifier: Apache-2.0 */
/*
 * _branch_mispredict: branch_stat added up per (pc, insn_id) over every
 * source, with the rate rounded, in branch_mispredict's order, which the
 * view reads front to back, joining each row with its instruction and
 * function.  Grouping and sorting 184,000 PCs at query time took 1.0 s of
 * gen_bench's 10 M records as CSV.  The names stay in insn and symbol:
 * unlike hot_pc (_hot_pc, latency_rollup.c), this view's second goal
 * allows the two lookups a row, and the database stays 6 MB smaller.
 * Rebuilt at the end of every load.
 */
#include "branch_rollup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_internal.h"
#include "util/hash_map.h"
#include "number_text.h"
#include "rollup_insert.h"
#include "spe/spe.h"
#include "util/grow.h"

struct branch_sum {
	int64_t pc, insn_id; /* insn_id 0: NULL */
	uint64_t branches, mispredicted, not_taken;
	uint8_t has_pc;
	uint8_t has_mispredicted, has_not_taken; /* else SQL's sum() of only NULLs: NULL */
};

struct branch_writer {
	sqlite3 *db;
	sqlite3_stmt *round;
	const struct branch_sum *rows;     /* in the view's order */
	char (*text)[NUMBER_TEXT_MAX];     /* per row of a batch: mispredict_rate */
};

/*
 * The view's order: mispredicted DESC (NULL last), branches DESC; ties as
 * SQLite's sorter left them when the view sorted its groups: the last
 * (pc, insn_id) first, a NULL pc or insn_id (SQL's smallest) last.
 */
static int worse_first(const void *pa, const void *pb)
{
	const struct branch_sum *a = pa, *b = pb;
	int64_t ma = a->has_mispredicted ? (int64_t)a->mispredicted : -1;
	int64_t mb = b->has_mispredicted ? (int64_t)b->mispredicted : -1;
	if (ma != mb)
		return ma > mb ? -1 : 1;
	if (a->branches != b->branches)
		return a->branches > b->branches ? -1 : 1;
	if (a->has_pc != b->has_pc)
		return a->has_pc ? -1 : 1; /* a NULL pc after any pc */
	if (a->pc != b->pc) /* SQLite compares PCs as signed 64-bit integers */
		return a->pc > b->pc ? -1 : 1;
	return a->insn_id > b->insn_id ? -1 : a->insn_id < b->insn_id;
}

#define BRANCH_COLUMNS 6
#define BRANCH_INTO "_branch_mispredict(pc_value, insn_id, branches, mispredicted, mispredict_rate, not_taken)"

static int bind_branch(void *ctx, sqlite3_stmt *st, int i, size_t k)
{
	struct branch_writer *w = ctx;
	const struct branch_sum *b = &w->rows[k];
	ana_bind_int_or_null(st, i, b->has_pc, b->pc);
	ana_bind_int_or_null(st, i + 1, b->insn_id != 0, b->insn_id);
	sqlite3_bind_int64(st, i + 2, (int64_t)b->branches);
	ana_bind_int_or_null(st, i + 3, b->has_mispredicted, (int64_t)b->mispredicted);
	int rc = SQLITE_OK;
	if (b->has_mispredicted && b->branches) /* round(1.0 * mispredicted / branches, 3) */
		rc = ana_bind_rounded(w->db, &w->round, st, i + 4, w->text[k % ROLLUP_BATCH], b->mispredicted,
				      b->branches, 3, (double)b->mispredicted / (double)b->branches);
	else
		sqlite3_bind_null(st, i + 4);
	ana_bind_int_or_null(st, i + 5, b->has_not_taken, (int64_t)b->not_taken);
	return rc;
}

/* Add up branch_stat per (pc, insn_id): @p keys numbers the pairs, *@p rows holds their sums. */
static int add_up(sqlite3 *db, struct util_map *keys, struct branch_sum **rows, char *err, size_t errlen)
{
	char why[400]; /* ana_sqlite_why's */
	sqlite3_stmt *st;
	if (ana_prepare(db, "SELECT pc, insn_id, branches, mispredicted, not_taken FROM branch_stat", &st, "branch_stat",
			err, errlen) < 0)
		return -spe_io;
	size_t cap = 0;
	int step, rc = 0;
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		int has_pc = sqlite3_column_type(st, 0) != SQLITE_NULL;
		int64_t insn = sqlite3_column_type(st, 1) != SQLITE_NULL ? sqlite3_column_int64(st, 1) : 0;
		uint64_t key[3] = { has_pc ? (uint64_t)sqlite3_column_int64(st, 0) : 0, (uint64_t)insn, (uint64_t)has_pc };
		int64_t g = util_map_add(keys, key, util_map_hash(keys, key), NULL);
		size_t had = cap;
		struct branch_sum *r = g < 0 ? NULL : util_grow(*rows, &cap, (size_t)g + 1, sizeof *r);
		if (r && cap > had)
			memset(r + had, 0, (cap - had) * sizeof *r);
		if (!r) {
			snprintf(err, errlen, "branch_mispredict: out of memory");
			rc = -spe_nomem;
			break;
		}
		*rows = r;
		struct branch_sum *b = &r[g];
		b->pc = (int64_t)key[0];
		b->insn_id = insn;
		b->has_pc = (uint8_t)has_pc;
		b->branches += (uint64_t)sqlite3_column_int64(st, 2);
		if (sqlite3_column_type(st, 3) != SQLITE_NULL) {
			b->mispredicted += (uint64_t)sqlite3_column_int64(st, 3);
			b->has_mispredicted = 1;
		}
		if (sqlite3_column_type(st, 4) != SQLITE_NULL) {
			b->not_taken += (uint64_t)sqlite3_column_int64(st, 4);
			b->has_not_taken = 1;
		}
	}
	if (rc == 0 && step != SQLITE_DONE) {
		snprintf(err, errlen, "reading branch_stat: %s", ana_sqlite_why(db, NULL, why, sizeof why));
		rc = -spe_io;
	}
	sqlite3_finalize(st);
	return rc;
}

int ana_branch_rollup(sqlite3 *db, char *err, size_t errlen)
{
	char why[400]; /* ana_sqlite_why's */
	char *msg = NULL;
	if (sqlite3_exec(db, "DELETE FROM _branch_mispredict;", NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(err, errlen, "clearing _branch_mispredict: %s", ana_sqlite_why(db, msg, why, sizeof why));
		sqlite3_free(msg);
		return -spe_io;
	}
	struct util_map keys; /* (pc or 0, insn_id or 0, has_pc) -> the pair's number in rows */
	util_map_init(&keys, 3 * sizeof(uint64_t), 0);
	struct branch_sum *rows = NULL;
	int rc = add_up(db, &keys, &rows, err, errlen);
	char(*text)[NUMBER_TEXT_MAX] = NULL;
	if (rc == 0 && keys.n && !(text = malloc(ROLLUP_BATCH * sizeof *text))) {
		snprintf(err, errlen, "branch_mispredict: out of memory");
		rc = -spe_nomem;
	}
	if (rc == 0 && keys.n) {
		qsort(rows, keys.n, sizeof *rows, worse_first);
		struct branch_writer w = { db, NULL, rows, text };
		if (ana_rollup_insert(db, BRANCH_INTO, BRANCH_COLUMNS, keys.n, bind_branch, &w) < 0) {
			snprintf(err, errlen, "_branch_mispredict: %s", ana_sqlite_why(db, NULL, why, sizeof why));
			rc = -spe_io;
		}
		sqlite3_finalize(w.round);
	}
	free(text);
	free(rows);
	util_map_fini(&keys);
	return rc;
}
