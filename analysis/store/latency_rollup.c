/* SPDX-License-Identifier: Apache-2.0 */
/*
 * _hot_pc (behind pc_summary) and symbol_summary: what hot_pc and hot_symbol show,
 * computed once per load from pc_histogram (one latency histogram per PC
 * and source) over every source in the database.
 *
 * The views used to compute them with window functions at query time, which
 * sorted every pc_latency row: 33 s for hot_symbol on a 10M-record capture.
 * Here one unordered scan of pc_histogram merges its rows into histograms per
 * (pc, insn) and per function, in memory: about 11 bytes per distinct
 * (PC, latency) pair in the database, not per record.  On a new database the
 * rows come from memory instead (rollup_feed.h): the load kept what it stored.
 */
#include "latency_rollup.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "branch_rollup.h"
#include "db_internal.h"
#include "ana/latency_hist.h"
#include "rollup_feed.h"
#include "rollup_insert.h"
#include "spe/spe.h"
#include "util/grow.h"

struct rollup {
	sqlite3 *db;
	char *err;
	size_t errlen;
	sqlite3_stmt *insert;
};

static int fail(struct rollup *r, const char *what)
{
	char why[400];
	snprintf(r->err, r->errlen, "%s: %s", what, ana_sqlite_why(r->db, NULL, why, sizeof why));
	return -spe_io;
}

/* Bind columns first.. of (samples, total_latency, timed, p50, p90, p99) and step. */
static int insert_stats(struct rollup *r, int first, const struct latency_stats *s, const char *what)
{
	sqlite3_stmt *st = r->insert;
	sqlite3_bind_int64(st, first, (int64_t)s->samples);
	ana_bind_int_or_null(st, first + 1, s->timed > 0, (int64_t)s->total_latency);
	sqlite3_bind_int64(st, first + 2, (int64_t)s->timed);
	ana_bind_int_or_null(st, first + 3, s->p50 >= 0, s->p50);
	ana_bind_int_or_null(st, first + 4, s->p90 >= 0, s->p90);
	ana_bind_int_or_null(st, first + 5, s->p99 >= 0, s->p99);
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : fail(r, what);
}

static int64_t column_or(sqlite3_stmt *st, int col, int *has)
{
	*has = sqlite3_column_type(st, col) != SQLITE_NULL;
	return *has ? sqlite3_column_int64(st, col) : 0;
}

/*
 * The groups: pc_summary's are keyed (pc, insn_id, has_pc); symbol_summary's
 * by the number of the function (name, mapping path) the symbol belongs to;
 * the records without a symbol are a group of their own, and those in a
 * kernel map (the image, a module: pid NULL) one group per map path, so
 * that unknown kernel code is never counted with unknown user code.
 */
struct kernel_insn {
	int64_t insn;   /* an instruction without a symbol in a kernel map */
	uint32_t group; /* its group */
};

struct symbol_groups {
	uint32_t *group_of; /* symbol id -> group number + 1 */
	int64_t *first_id;  /* group number -> smallest symbol id */
	int64_t max_id;
	uint32_t n; /* functions; group n is "no symbol" */
	/* groups n + 1 .. n + n_kernel: no symbol, in kernel map path k (its smallest mapping id kernel_map[k]) */
	uint32_t n_kernel;
	int64_t *kernel_map;
	struct kernel_insn *kinsn; /* by insn id */
	size_t n_kinsn;
};

/* Number the functions: equal (name, path) are adjacent in this order. */
static int number_functions(struct rollup *r, struct symbol_groups *sg)
{
	sqlite3_stmt *st = NULL;
	if (ana_prepare(r->db, "SELECT coalesce(max(id), 0) FROM symbol", &st, "symbol", r->err, r->errlen) < 0)
		return -spe_io;
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return fail(r, "symbol");
	}
	sg->max_id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (sg->max_id < 0 || (uint64_t)sg->max_id >= UINT32_MAX ||
	    !(sg->group_of = calloc((size_t)sg->max_id + 1, sizeof *sg->group_of)) ||
	    !(sg->first_id = calloc((size_t)sg->max_id + 2, sizeof *sg->first_id))) {
		snprintf(r->err, r->errlen, "rollup: out of memory for %lld symbols", (long long)sg->max_id);
		return -spe_nomem;
	}
	if (ana_prepare(r->db,
			"SELECT s.id, s.name, m.path FROM symbol s LEFT JOIN mapping m ON m.id = s.mapping_id"
			" ORDER BY s.name, m.path, s.id",
			&st, "symbol", r->err, r->errlen) < 0)
		return -spe_io;
	char *prev_name = NULL, *prev_path = NULL;
	int have_prev = 0, step, rc = 0;
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
			sg->first_id[sg->n++] = id;
		}
		if (id > 0 && id <= sg->max_id)
			sg->group_of[id] = sg->n;
	}
	free(prev_name);
	free(prev_path);
	if (step != SQLITE_DONE)
		rc = fail(r, "symbol");
	sqlite3_finalize(st);
	return rc;
}

static int out_of_memory(struct rollup *r)
{
	snprintf(r->err, r->errlen, "rollup: out of memory");
	return -spe_nomem;
}

/*
 * The kernel maps' groups of the instructions without a symbol: few (the
 * kernel PCs nothing named), read in insn id order.
 */
static int number_kernel_unknowns(struct rollup *r, struct symbol_groups *sg)
{
	sqlite3_stmt *st;
	if (ana_prepare(r->db,
			"SELECT i.id, m.path, min(m.id) OVER (PARTITION BY m.path) FROM insn i\n"
			"JOIN mapping m ON m.id = i.mapping_id WHERE i.symbol_id IS NULL AND m.pid IS NULL\n"
			"ORDER BY i.id",
			&st, "insn", r->err, r->errlen) < 0)
		return -spe_io;
	size_t cap = 0, cap_maps = 0;
	int step, rc = 0;
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t first_map = sqlite3_column_int64(st, 2);
		uint32_t k = 0;
		while (k < sg->n_kernel && sg->kernel_map[k] != first_map)
			k++;
		if (k == sg->n_kernel) {
			int64_t *p = util_grow(sg->kernel_map, &cap_maps, k + 1, sizeof *p);
			if (!p) {
				rc = out_of_memory(r);
				break;
			}
			sg->kernel_map = p;
			p[sg->n_kernel++] = first_map;
		}
		struct kernel_insn *q = util_grow(sg->kinsn, &cap, sg->n_kinsn + 1, sizeof *q);
		if (!q) {
			rc = out_of_memory(r);
			break;
		}
		sg->kinsn = q;
		q[sg->n_kinsn++] = (struct kernel_insn){ sqlite3_column_int64(st, 0), sg->n + 1 + k };
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = fail(r, "insn");
	sqlite3_finalize(st);
	return rc;
}

/*
 * The next "latency":samples pair of a pc_histogram JSON object at *p; 1 with
 * a pair, 0 at the closing brace, -1 on anything else (a row no load writes).
 */
static int next_pair(const char **p, long long *lat, long long *count)
{
	const char *s = *p;
	if (*s == '}')
		return s[1] ? -1 : 0;
	if (*s == ',')
		s++;
	char *end;
	if (*s++ != '"')
		return -1;
	*lat = strtoll(s, &end, 10);
	if (end == s || end[0] != '"' || end[1] != ':')
		return -1;
	s = end + 2;
	*count = strtoll(s, &end, 10);
	if (end == s || (*end != ',' && *end != '}'))
		return -1;
	*p = end;
	return 1;
}

/* The functions' histograms, group g for function g, group n for "no symbol", then the kernel maps', empty. */
static int open_function_groups(struct rollup *r, const struct symbol_groups *sg, struct latency_hist_map *fns)
{
	for (uint32_t g = 0; g <= sg->n + sg->n_kernel; g++) {
		struct latency_key key = { { g, 0, 0 } };
		if (ana_latency_group_of(fns, &key) != (int64_t)g)
			return out_of_memory(r);
	}
	return 0;
}

/* The function group of symbol @p sym (0 = none) at instruction @p insn (0 = none). */
static uint32_t function_of(const struct symbol_groups *sg, int64_t sym, int64_t insn)
{
	if (sym > 0 && sym <= sg->max_id && sg->group_of[sym])
		return sg->group_of[sym] - 1;
	size_t lo = 0, hi = sg->n_kinsn;
	while (insn && lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (sg->kinsn[mid].insn == insn)
			return sg->kinsn[mid].group;
		if (sg->kinsn[mid].insn < insn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return sg->n;
}

static uint32_t widest(const struct latency_hist_map *g)
{
	uint32_t w = 0;
	for (uint32_t i = 0; i < ana_latency_hist_map_n(g); i++)
		if (ana_latency_group(g, i)->hist.n > w)
			w = ana_latency_group(g, i)->hist.n;
	return w;
}

/*
 * The rows the load kept (rollup_feed.h): what merge_histograms and
 * pc_group_stats do from the table, without reading it back or parsing its
 * JSON.  Most (pc, insn) groups are one row, whose slots are already sorted:
 * their statistics are read off the row, and only groups of several rows
 * (the same PC in two files of the load, without instruction rows) are
 * merged into a histogram first.
 */
static int merge_feed(struct rollup *r, const struct symbol_groups *sg, const struct rollup_feed *feed,
		      struct latency_hist_map *pcs, struct latency_hist_map *fns, struct latency_stats **stats_out)
{
	uint32_t *group = malloc((feed->n + 1) * sizeof *group);
	if (!group)
		return out_of_memory(r);
	for (size_t i = 0; i < feed->n; i++) {
		int64_t g = ana_latency_group_of(pcs, &feed->rows[i].key);
		if (g < 0) {
			free(group);
			return out_of_memory(r);
		}
		group[i] = (uint32_t)g;
	}
	/* per group: its row + 1 while it has one, UINT32_MAX once it has more */
	uint32_t *only_row = calloc((size_t)ana_latency_hist_map_n(pcs) + 1, sizeof *only_row);
	struct latency_stats *stats = malloc(((size_t)ana_latency_hist_map_n(pcs) + 1) * sizeof *stats);
	int rc = only_row && stats && feed->n < UINT32_MAX ? 0 : out_of_memory(r);
	for (size_t i = 0; i < feed->n && rc == 0; i++)
		only_row[group[i]] = only_row[group[i]] ? UINT32_MAX : (uint32_t)i + 1;
	for (size_t i = 0; i < feed->n && rc == 0; i++) {
		const struct rollup_feed_row *row = &feed->rows[i];
		uint32_t f = function_of(sg, row->symbol_id, (int64_t)row->key.w[1]), g = group[i];
		int shared = only_row[g] == UINT32_MAX;
		const uint64_t *slot = row->slots;
		for (uint32_t k = 0; k < row->n && rc == 0; k++) {
			int32_t lat = latency_slot_latency(slot[k]);
			uint64_t count = latency_slot_count(slot[k]);
			if (count && ((shared && ana_latency_hist_map_add(pcs, g, lat, count) < 0) ||
				      ana_latency_hist_map_add(fns, f, lat, count) < 0))
				rc = out_of_memory(r);
		}
	}
	uint64_t *scratch = NULL;
	if (rc == 0 && !(scratch = malloc(((size_t)widest(pcs) + 1) * sizeof *scratch)))
		rc = out_of_memory(r);
	for (uint32_t g = 0; g < ana_latency_hist_map_n(pcs) && rc == 0; g++) {
		if (only_row[g] == UINT32_MAX) {
			ana_latency_hist_stats(&ana_latency_group(pcs, g)->hist, scratch, &stats[g]);
		} else {
			const struct rollup_feed_row *row = &feed->rows[only_row[g] - 1];
			ana_latency_stats_sorted(row->slots, row->n, &stats[g]);
		}
	}
	free(scratch);
	free(group);
	free(only_row);
	if (rc < 0) {
		free(stats);
		return rc;
	}
	*stats_out = stats;
	return 0;
}

/* One pass over pc_histogram (any order) into both sets of histograms. */
static int merge_histograms(struct rollup *r, const struct symbol_groups *sg, struct latency_hist_map *pcs,
			    struct latency_hist_map *fns)
{
	sqlite3_stmt *st;
	if (ana_prepare(r->db, "SELECT pc, insn_id, symbol_id, untimed, histogram FROM pc_histogram", &st, "pc_histogram",
			r->err, r->errlen) < 0)
		return -spe_io;
	int step, rc = 0;
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		int has_pc, has_insn, has_sym, has_untimed;
		int64_t pc = column_or(st, 0, &has_pc);
		int64_t insn = column_or(st, 1, &has_insn);
		int64_t sym = column_or(st, 2, &has_sym);
		int64_t untimed = column_or(st, 3, &has_untimed);
		const char *h = (const char *)sqlite3_column_text(st, 4);
		struct latency_key key = { { (uint64_t)pc, has_insn ? (uint64_t)insn : 0, (uint64_t)has_pc } };
		int64_t g = ana_latency_group_of(pcs, &key);
		uint32_t f = function_of(sg, has_sym ? sym : 0, has_insn ? insn : 0);
		if (g < 0)
			return out_of_memory(r);
		long long lat = LATENCY_NONE, count = untimed;
		int more = 1;
		if (!h || *h++ != '{' || untimed < 0)
			more = -1;
		/* the untimed records first, then each latency of the object */
		for (; more > 0 && rc == 0; more = next_pair(&h, &lat, &count)) {
			if (lat < LATENCY_NONE || lat > 0xffff || count < 0) {
				more = -1;
				break;
			}
			if (count && (ana_latency_hist_map_add(pcs, (uint32_t)g, (int32_t)lat, (uint64_t)count) < 0 ||
				      ana_latency_hist_map_add(fns, f, (int32_t)lat, (uint64_t)count) < 0))
				rc = out_of_memory(r);
			if (lat == LATENCY_NONE)
				lat = 0; /* past the untimed count: pairs follow */
		}
		if (more < 0 && rc == 0) {
			snprintf(r->err, r->errlen, "pc_histogram: a histogram no load writes (pc %lld): %.80s",
				 (long long)pc, (const char *)sqlite3_column_text(st, 4));
			rc = -spe_bad_file;
		}
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = fail(r, "reading pc_histogram");
	sqlite3_finalize(st);
	return rc;
}

/*
 * _hot_pc: hot_pc's statistics in the view's order, which it reads front to
 * back; the view joins the names (insn, symbol) and rounds mean_latency and
 * latency_share.  The PC is stored only where no insn row holds it.
 */
/* A PC in the sort: its key and group (its statistics stay in an array by group). */
struct pc_rank {
	int64_t total; /* -1: nothing timed (NULL sorts last) */
	uint64_t samples;
	uint32_t group;
};

/* hot_pc's order: total_latency DESC (NULL last), samples DESC, then the group's first appearance */
static int hotter_first(const void *pa, const void *pb)
{
	const struct pc_rank *a = pa, *b = pb;
	if (a->total != b->total)
		return a->total > b->total ? -1 : 1;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return a->group < b->group ? -1 : a->group > b->group;
}

#define HOT_PC_COLUMNS 8
#define HOT_PC_INTO "_hot_pc(pc_value, insn_id, samples, total_latency, timed, p50, p90, p99)"

struct hot_pc_writer {
	const struct pc_rank *rank;
	const struct latency_hist_map *pcs;
	const struct latency_stats *stats; /* by group */
};

/* Bind the @p k th row in hot order at parameters @p i.. of @p st (ana_rollup_insert). */
static int bind_hot_pc(void *ctx, sqlite3_stmt *st, int i, size_t k)
{
	const struct hot_pc_writer *w = ctx;
	uint32_t g = w->rank[k].group;
	const struct latency_group *grp = ana_latency_group(w->pcs, g);
	const struct latency_stats *s = &w->stats[g];
	int has_pc = grp->key.w[2] != 0, has_insn = grp->key.w[1] != 0;
	ana_bind_int_or_null(st, i, has_pc && !has_insn, (int64_t)grp->key.w[0]);
	ana_bind_int_or_null(st, i + 1, has_insn, (int64_t)grp->key.w[1]);
	sqlite3_bind_int64(st, i + 2, (int64_t)s->samples);
	ana_bind_int_or_null(st, i + 3, s->timed > 0, (int64_t)s->total_latency);
	sqlite3_bind_int64(st, i + 4, (int64_t)s->timed);
	ana_bind_int_or_null(st, i + 5, s->p50 >= 0, s->p50);
	ana_bind_int_or_null(st, i + 6, s->p90 >= 0, s->p90);
	ana_bind_int_or_null(st, i + 7, s->p99 >= 0, s->p99);
	return SQLITE_OK;
}

/* Statistics by (pc, insn) group from their merged histograms (the table's rows). */
static int pc_group_stats(struct rollup *r, const struct latency_hist_map *pcs, struct latency_stats **stats_out)
{
	struct latency_stats *stats = malloc(((size_t)ana_latency_hist_map_n(pcs) + 1) * sizeof *stats);
	uint64_t *scratch = malloc(((size_t)widest(pcs) + 1) * sizeof *scratch);
	if (!stats || !scratch) {
		free(stats);
		free(scratch);
		return out_of_memory(r);
	}
	for (uint32_t g = 0; g < ana_latency_hist_map_n(pcs); g++)
		ana_latency_hist_stats(&ana_latency_group(pcs, g)->hist, scratch, &stats[g]);
	free(scratch);
	*stats_out = stats;
	return 0;
}

/* hot_pc's order of the (pc, insn) groups. */
struct hot_order {
	struct pc_rank *rank;
};

static int rank_pcs(struct rollup *r, const struct latency_hist_map *pcs, const struct latency_stats *stats,
		    struct hot_order *out)
{
	if (!(out->rank = malloc(((size_t)ana_latency_hist_map_n(pcs) + 1) * sizeof *out->rank)))
		return out_of_memory(r);
	for (uint32_t g = 0; g < ana_latency_hist_map_n(pcs); g++)
		out->rank[g] = (struct pc_rank){ stats[g].timed ? (int64_t)stats[g].total_latency : -1, stats[g].samples, g };
	qsort(out->rank, ana_latency_hist_map_n(pcs), sizeof *out->rank, hotter_first);
	return 0;
}

static int write_hot_pc(struct rollup *r, const struct latency_hist_map *pcs, const struct latency_stats *stats,
			const struct hot_order *order)
{
	struct hot_pc_writer w = { order->rank, pcs, stats };
	return ana_rollup_insert(r->db, HOT_PC_INTO, HOT_PC_COLUMNS, ana_latency_hist_map_n(pcs), bind_hot_pc, &w) < 0
		       ? fail(r, "_hot_pc")
		       : 0;
}

static int write_symbol_summary(struct rollup *r, const struct symbol_groups *sg, const struct latency_hist_map *fns,
				uint64_t *scratch)
{
	if (ana_prepare(r->db,
			"INSERT INTO symbol_summary(symbol_id, samples, total_latency, timed, p50, p90, p99, mapping_id)"
			" VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
			&r->insert, "symbol_summary", r->err, r->errlen) < 0)
		return -spe_io;
	int rc = 0;
	for (uint32_t g = 0; g <= sg->n + sg->n_kernel && rc == 0; g++) {
		const struct latency_hist *h = &ana_latency_group(fns, g)->hist;
		if (!h->n)
			continue;
		struct latency_stats s;
		ana_latency_hist_stats(h, scratch, &s);
		ana_bind_int_or_null(r->insert, 1, g < sg->n, g < sg->n ? sg->first_id[g] : 0);
		ana_bind_int_or_null(r->insert, 8, g > sg->n, g > sg->n ? sg->kernel_map[g - sg->n - 1] : 0);
		rc = insert_stats(r, 2, &s, "symbol_summary");
	}
	sqlite3_finalize(r->insert);
	r->insert = NULL;
	return rc;
}

/*
 * merge_feed and hot_pc's order on a thread of their own: they read only
 * memory, so SQLite stays with the caller's thread.
 */
struct merge_job {
	struct rollup r; /* its own error buffer */
	char err[256];
	const struct symbol_groups *sg;
	const struct rollup_feed *feed;
	struct latency_hist_map *pcs, *fns;
	struct latency_stats **stats;
	struct hot_order *order;
	int rc;
};

static void *merge_job_run(void *arg)
{
	struct merge_job *j = arg;
	j->rc = merge_feed(&j->r, j->sg, j->feed, j->pcs, j->fns, j->stats);
	if (j->rc == 0)
		j->rc = rank_pcs(&j->r, j->pcs, *j->stats, j->order);
	return NULL;
}

int spe_latency_rollup(sqlite3 *db, const struct rollup_feed *feed, int threads, char *err, size_t errlen)
{
	struct rollup r = { db, err, errlen, NULL };
	char *msg = NULL;
	if (sqlite3_exec(db, "DELETE FROM _hot_pc; DELETE FROM symbol_summary;", NULL, NULL, &msg) != SQLITE_OK) {
		char why[400];
		snprintf(err, errlen, "clearing the summaries: %s", ana_sqlite_why(db, msg, why, sizeof why));
		sqlite3_free(msg);
		return -spe_io;
	}
	struct symbol_groups sg = { 0 };
	struct latency_hist_map pcs = { 0 }, fns = { 0 };
	struct latency_stats *pc_stats = NULL; /* by (pc, insn) group */
	struct hot_order order = { 0 };
	uint64_t *scratch = NULL;
	struct merge_job job = { .r = { NULL, job.err, sizeof job.err, NULL },
				 .sg = &sg, .feed = feed, .pcs = &pcs, .fns = &fns, .stats = &pc_stats, .order = &order };
	pthread_t merger;
	int merging = 0; /* the job runs on merger */
	int rc = number_functions(&r, &sg);
	if (rc == 0)
		rc = number_kernel_unknowns(&r, &sg);
	if (rc == 0)
		rc = open_function_groups(&r, &sg, &fns);
	if (rc == 0 && feed && !feed->lost) {
		/* about 0.2 s at 10M records, about as long as the two SQL steps below together */
		merging = threads >= 2 && pthread_create(&merger, NULL, merge_job_run, &job) == 0;
		if (!merging && (rc = merge_feed(&r, &sg, feed, &pcs, &fns, &pc_stats)) == 0)
			rc = rank_pcs(&r, &pcs, pc_stats, &order);
	} else if (rc == 0 && (rc = merge_histograms(&r, &sg, &pcs, &fns)) == 0 &&
		   (rc = pc_group_stats(&r, &pcs, &pc_stats)) == 0) {
		rc = rank_pcs(&r, &pcs, pc_stats, &order);
	}
	/* what needs no merged histogram, meanwhile */
	if (rc == 0)
		rc = ana_branch_rollup(db, err, errlen);
	if (merging) {
		pthread_join(merger, NULL);
		if (rc == 0 && job.rc < 0) {
			snprintf(err, errlen, "%s", job.err);
			rc = job.rc;
		}
	}
	if (rc == 0 && !(scratch = malloc(((size_t)widest(&fns) + 1) * sizeof *scratch)))
		rc = out_of_memory(&r);
	if (rc == 0)
		rc = write_hot_pc(&r, &pcs, pc_stats, &order);
	if (rc == 0)
		rc = write_symbol_summary(&r, &sg, &fns, scratch);
	free(scratch);
	free(pc_stats);
	free(order.rank);
	free(sg.group_of);
	free(sg.first_id);
	free(sg.kernel_map);
	free(sg.kinsn);
	ana_latency_hist_map_fini(&pcs);
	ana_latency_hist_map_fini(&fns);
	return rc;
}
