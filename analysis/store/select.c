/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The record selection (spe/select.h): the lists become one condition over
 * spe_record whose every value is a parameter :sel_N, bound from the
 * values kept here.  Percent time windows are resolved once, against the
 * first and last record time of the database, as perf report resolves
 * them against the session's first and last sample (tools/perf/util/
 * time-utils.c, perf_time__percent_parse_str).
 */
#include "spe/select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ana/statement.h"
#include "spe/spe.h"
#include "util/text.h"

struct sel_value {
	int is_text;
	int64_t i;
	const char *text; /* copied into the selection */
};

enum { COMM_HISTORY_NONE, COMM_HISTORY_ALL, COMM_HISTORY_SOME };

struct spe_selection {
	struct spe_select s;      /* the lists, copied */
	struct spe_select_time *times; /* resolved: absolute ns */
	struct sel_value *v;
	size_t nv;
	char *text;               /* spe_selection_text */
	char **strings;           /* copies of the caller's strings */
	size_t nstrings;
	int64_t *ints;
	struct spe_select_range *ranges;
	/*
	 * Which sources have thread_comm rows (older databases of this version
	 * may lack the table, sources loaded before it or without a COMM have
	 * none): COMM_HISTORY_*.
	 */
	int comm_history;
};

int spe_select_active(const struct spe_select *s)
{
	return s && (s->n_sources || s->n_pids || s->n_tids || s->n_cpus || s->n_times || s->n_comms || s->n_dsos ||
		     s->n_symbols);
}

void spe_selection_free(struct spe_selection *sel)
{
	if (!sel)
		return;
	for (size_t i = 0; i < sel->nstrings; i++)
		free(sel->strings[i]);
	free(sel->strings);
	free(sel->ints);
	free(sel->ranges);
	free(sel->times);
	free(sel->v);
	free(sel->text);
	free(sel);
}

/* A copy of the caller's list of @p n strings into sel->strings; NULL without memory. */
static const char *const *copy_strings(struct spe_selection *sel, const char *const *list, size_t n)
{
	char **out = sel->strings + sel->nstrings;
	for (size_t i = 0; i < n; i++) {
		if (!(out[i] = strdup(list[i] ? list[i] : "")))
			return NULL;
		sel->nstrings++;
	}
	return (const char *const *)out;
}

/* The first and last record time: 0, or -1 when no record has a time. */
static int time_span(sqlite3 *db, int64_t *first, int64_t *last, int *rc)
{
	sqlite3_stmt *st;
	*rc = sqlite3_prepare_v2(db, "SELECT min(time), max(time) FROM spe_record", -1, &st, NULL);
	if (*rc != SQLITE_OK)
		return -1;
	int found = -1;
	if ((*rc = sqlite3_step(st)) == SQLITE_ROW) {
		*rc = SQLITE_OK;
		if (sqlite3_column_type(st, 0) != SQLITE_NULL) {
			*first = sqlite3_column_int64(st, 0);
			*last = sqlite3_column_int64(st, 1);
			found = 0;
		}
	}
	int frc = sqlite3_finalize(st);
	if (*rc == SQLITE_DONE)
		*rc = frc;
	return found;
}

/* One walk over the lists: the SQL in t, and (when v is set) the values in the order named. */
struct walk {
	struct util_text *t;
	struct sel_value *v; /* NULL: the values are already stored */
	size_t n;            /* values named so far */
};

static void add_int(struct walk *w, int64_t i)
{
	if (w->v)
		w->v[w->n] = (struct sel_value){ .i = i };
	util_text_appendf(w->t, ":sel_%zu", ++w->n);
}

static void add_text(struct walk *w, const char *text)
{
	if (w->v)
		w->v[w->n] = (struct sel_value){ .is_text = 1, .text = text };
	util_text_appendf(w->t, ":sel_%zu", ++w->n);
}

/* "T.col IN (:sel_1, :sel_2)" */
static void in_list(struct walk *w, const char *table, const char *col, const int64_t *v, size_t n)
{
	util_text_appendf(w->t, " AND %s.%s IN (", table, col);
	for (size_t i = 0; i < n; i++) {
		util_text_append(w->t, i ? ", " : "");
		add_int(w, v[i]);
	}
	util_text_append(w->t, ")");
}

static void in_texts(struct walk *w, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		util_text_append(w->t, i ? ", " : "");
		add_text(w, v[i]);
	}
}

/* The @p n values from :sel_@p first named again (a list written once by in_texts). */
static void same_texts(struct util_text *t, size_t first, size_t n)
{
	for (size_t i = 0; i < n; i++)
		util_text_appendf(t, "%s:sel_%zu", i ? ", " : "", first + i);
}

/*
 * Build the condition over @p table's columns, naming the values :sel_1,
 * :sel_2, ... in one fixed order: spe_selection_new stores the values in
 * that order (w->v), spe_selection_sql writes the same names again.
 */
static void build(const struct spe_select *s, const struct spe_select_time *times, int comm_history, struct walk *w,
		  const char *table)
{
	struct util_text *t = w->t;
	util_text_append(t, "(1");
	if (s->n_sources)
		in_list(w, table, "source_id", s->sources, s->n_sources);
	if (s->n_pids)
		in_list(w, table, "pid", s->pids, s->n_pids);
	if (s->n_tids)
		in_list(w, table, "tid", s->tids, s->n_tids);
	if (s->n_cpus) {
		util_text_append(t, " AND (");
		for (size_t i = 0; i < s->n_cpus; i++) {
			util_text_appendf(t, "%s%s.cpu BETWEEN ", i ? " OR " : "", table);
			add_int(w, s->cpus[i].lo);
			util_text_append(t, " AND ");
			add_int(w, s->cpus[i].hi);
		}
		util_text_append(t, ")");
	}
	if (s->n_times) {
		util_text_append(t, " AND (");
		for (size_t i = 0; i < s->n_times; i++) {
			util_text_appendf(t, "%s%s.time BETWEEN ", i ? " OR " : "", table);
			add_int(w, times[i].lo);
			util_text_append(t, " AND ");
			add_int(w, times[i].hi);
		}
		util_text_append(t, ")");
	}
	if (s->n_comms) {
		/*
		 * The thread's name at the record's time, as perf report --comm
		 * matches the name the thread has when the sample is processed
		 * (tools/perf/util/event.c, machine__resolve; thread.c,
		 * thread__comm_str): the last thread_comm row at or before that
		 * time; a record without a time, the last row.  Before its first
		 * row a thread has no name (perf's ":TID"), which no NAME matches.
		 * Sources without thread_comm rows (loaded before the table, or
		 * with no COMM at all) match the thread's last name, thread.comm.
		 */
		if (comm_history == COMM_HISTORY_NONE) {
			util_text_appendf(t, " AND (SELECT sel_t.comm FROM thread sel_t WHERE sel_t.source_id = %s.source_id"
					     " AND sel_t.tid = %s.tid) IN (", table, table);
			in_texts(w, s->comms, s->n_comms);
			util_text_append(t, ")");
		} else {
			/*
			 * Threads that never had a name asked for are out at once
			 * (the uncorrelated list is built once per statement); the
			 * others look up their name at the record's time.  A
			 * CASE over the sources costs 4 times as much per record
			 * (606,000 records: 0.44 s against 0.10 s of CPU), so it is
			 * written only when some source has no rows.
			 */
			size_t first = w->n + 1;
			util_text_append(t, " AND (");
			if (comm_history == COMM_HISTORY_SOME)
				util_text_appendf(t, "CASE WHEN %s.source_id IN (SELECT sel_h.source_id FROM thread_comm sel_h) "
						     "THEN ", table);
			util_text_appendf(t,
					  "(%s.source_id, %s.tid) IN (SELECT sel_n.source_id, sel_n.tid FROM thread_comm sel_n "
					  "WHERE sel_n.comm IN (",
					  table, table);
			in_texts(w, s->comms, s->n_comms);
			util_text_appendf(t,
					  ")) AND (SELECT sel_c.comm FROM thread_comm sel_c WHERE sel_c.source_id = %s.source_id"
					  " AND sel_c.tid = %s.tid AND (%s.time IS NULL OR sel_c.time <= %s.time) ORDER BY "
					  "sel_c.time DESC LIMIT 1) IN (",
					  table, table, table, table);
			same_texts(t, first, s->n_comms);
			util_text_append(t, ")");
			if (comm_history == COMM_HISTORY_SOME) {
				util_text_appendf(t, " ELSE (SELECT sel_t.comm FROM thread sel_t WHERE sel_t.source_id = "
						     "%s.source_id AND sel_t.tid = %s.tid) IN (", table, table);
				same_texts(t, first, s->n_comms);
				util_text_append(t, ") END");
			}
			util_text_append(t, ")");
		}
	}
	if (s->n_dsos) {
		/* the path, or its last component: perf's long and short DSO names */
		util_text_appendf(t, " AND %s.mapping_id IN (SELECT sel_m.id FROM mapping sel_m WHERE 0", table);
		for (size_t i = 0; i < s->n_dsos; i++) {
			util_text_append(t, " OR sel_m.path = ");
			add_text(w, s->dsos[i]);
			util_text_appendf(t, " OR substr(sel_m.path, -length(:sel_%zu) - 1) = '/' || :sel_%zu", w->n, w->n);
		}
		util_text_append(t, ")");
	}
	if (s->n_symbols) {
		util_text_appendf(t, " AND %s.symbol_id IN (SELECT sel_s.id FROM symbol sel_s WHERE sel_s.name IN (", table);
		in_texts(w, s->symbols, s->n_symbols);
		util_text_append(t, "))");
	}
	util_text_append(t, ")");
}

/* The selection in words, from the values (spe_selection_text). */
static void describe_ints(struct util_text *t, const char *what, const int64_t *v, size_t n)
{
	if (!n)
		return;
	util_text_appendf(t, "%s%s ", t->len ? "; " : "", what);
	for (size_t i = 0; i < n; i++)
		util_text_appendf(t, "%s%lld", i ? "," : "", (long long)v[i]);
}

static void describe_texts(struct util_text *t, const char *what, const char *const *v, size_t n)
{
	if (!n)
		return;
	util_text_appendf(t, "%s%s ", t->len ? "; " : "", what);
	for (size_t i = 0; i < n; i++)
		util_text_appendf(t, "%s%s", i ? "," : "", v[i]);
}

static void describe_ns(struct util_text *t, int64_t ns)
{
	if (ns == INT64_MIN || ns == INT64_MAX)
		return; /* an open side: nothing, as perf's "START," */
	util_text_appendf(t, "%s%lld.%09lld", ns < 0 ? "-" : "", (long long)(ns < 0 ? -(ns / 1000000000) : ns / 1000000000),
			  (long long)(ns < 0 ? -(ns % 1000000000) : ns % 1000000000));
}

static char *describe(const struct spe_select *s)
{
	struct util_text t = { 0 };
	util_text_append(&t, "");
	describe_ints(&t, "source", s->sources, s->n_sources);
	describe_ints(&t, "pid", s->pids, s->n_pids);
	describe_ints(&t, "tid", s->tids, s->n_tids);
	describe_texts(&t, "comm", s->comms, s->n_comms);
	if (s->n_cpus) {
		util_text_appendf(&t, "%scpu ", t.len ? "; " : "");
		for (size_t i = 0; i < s->n_cpus; i++)
			util_text_appendf(&t, s->cpus[i].lo == s->cpus[i].hi ? "%s%lld" : "%s%lld-%lld", i ? "," : "",
					  (long long)s->cpus[i].lo, (long long)s->cpus[i].hi);
	}
	if (s->n_times) {
		util_text_appendf(&t, "%stime ", t.len ? "; " : "");
		for (size_t i = 0; i < s->n_times; i++) {
			const struct spe_select_time *w = &s->times[i];
			util_text_append(&t, i ? " " : "");
			if (w->percent) {
				util_text_appendf(&t, "%g%%-%g%%", 100 * w->from, 100 * w->to);
			} else {
				describe_ns(&t, w->lo);
				util_text_append(&t, ",");
				describe_ns(&t, w->hi);
			}
		}
	}
	describe_texts(&t, "dso", s->dsos, s->n_dsos);
	describe_texts(&t, "symbol", s->symbols, s->n_symbols);
	if (!util_text_ok(&t)) {
		util_text_fini(&t);
		return NULL;
	}
	return t.buf;
}

/* memcpy of @p n bytes; an empty list may be NULL. */
static void copy(void *to, const void *from, size_t n)
{
	if (n)
		memcpy(to, from, n);
}

/* COMM_HISTORY_*: whether the sources of @p db have thread_comm rows (a read that fails: none). */
static int comm_history(sqlite3 *db)
{
	if (ana_query_int(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'thread_comm'", 0) <= 0 ||
	    ana_query_int(db, "SELECT EXISTS (SELECT 1 FROM thread_comm)", 0) <= 0)
		return COMM_HISTORY_NONE;
	return ana_query_int(db, "SELECT EXISTS (SELECT 1 FROM source WHERE id NOT IN (SELECT source_id FROM thread_comm))",
			     1) > 0
		       ? COMM_HISTORY_SOME
		       : COMM_HISTORY_ALL;
}

static int fail(char *err, size_t errlen, int code, const char *msg)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", msg);
	return code;
}

int spe_selection_new(sqlite3 *db, const struct spe_select *s, struct spe_selection **out, char *err, size_t errlen)
{
	*out = NULL;
	if (!spe_select_active(s))
		return 0;
	struct spe_selection *sel = calloc(1, sizeof *sel);
	if (!sel)
		return fail(err, errlen, -spe_nomem, "out of memory");
	sel->s = *s;
	size_t nstr = s->n_comms + s->n_dsos + s->n_symbols, nint = s->n_sources + s->n_pids + s->n_tids;
	size_t nvals = nint + 2 * s->n_cpus + 2 * s->n_times + nstr;
	sel->strings = calloc(nstr + 1, sizeof *sel->strings);
	sel->ints = calloc(nint + 1, sizeof *sel->ints);
	sel->ranges = calloc(s->n_cpus + 1, sizeof *sel->ranges);
	sel->times = calloc(s->n_times + 1, sizeof *sel->times);
	sel->v = calloc(nvals + 1, sizeof *sel->v);
	int ok = sel->strings && sel->ints && sel->ranges && sel->times && sel->v;
	if (ok) {
		/* the caller's arrays copied: the selection outlives them */
		int64_t *ip = sel->ints;
		copy(ip, s->sources, s->n_sources * sizeof *ip), sel->s.sources = ip, ip += s->n_sources;
		copy(ip, s->pids, s->n_pids * sizeof *ip), sel->s.pids = ip, ip += s->n_pids;
		copy(ip, s->tids, s->n_tids * sizeof *ip), sel->s.tids = ip;
		copy(sel->ranges, s->cpus, s->n_cpus * sizeof *sel->ranges), sel->s.cpus = sel->ranges;
		copy(sel->times, s->times, s->n_times * sizeof *sel->times), sel->s.times = sel->times;
		ok = (!s->n_comms || (sel->s.comms = copy_strings(sel, s->comms, s->n_comms))) &&
		     (!s->n_dsos || (sel->s.dsos = copy_strings(sel, s->dsos, s->n_dsos))) &&
		     (!s->n_symbols || (sel->s.symbols = copy_strings(sel, s->symbols, s->n_symbols)));
	}
	if (ok)
		ok = (sel->text = describe(&sel->s)) != NULL;
	if (!ok) {
		spe_selection_free(sel);
		return fail(err, errlen, -spe_nomem, "out of memory");
	}
	/* percent windows become nanoseconds of this database's span */
	int64_t first = 0, last = -1;
	int have_span = -1, rc = SQLITE_OK;
	for (size_t i = 0; i < s->n_times; i++) {
		struct spe_select_time *w = &sel->times[i];
		if (!w->percent)
			continue;
		if (have_span == -1 && (have_span = time_span(db, &first, &last, &rc) == 0) == 0 && rc != SQLITE_OK) {
			char msg[512];
			snprintf(msg, sizeof msg, "--time: reading the records' times: %s", sqlite3_errmsg(db));
			spe_selection_free(sel);
			return fail(err, errlen, (rc & 0xff) == SQLITE_NOMEM ? -spe_nomem : -spe_bad_file, msg);
		}
		if (!have_span) { /* no timed record: a window that holds none */
			w->lo = INT64_MAX;
			w->hi = INT64_MIN;
			continue;
		}
		double span = (double)(last - first);
		/* truncated, as perf converts the fraction of the span to an integer time */
		w->lo = first + (int64_t)(span * w->from);
		w->hi = w->to >= 1 ? last : first + (int64_t)(span * w->to);
	}
	/* the values, numbered as the SQL names them */
	struct util_text t = { 0 };
	struct walk w = { .t = &t, .v = sel->v };
	sel->comm_history = comm_history(db);
	build(&sel->s, sel->times, sel->comm_history, &w, "r");
	ok = util_text_ok(&t);
	util_text_fini(&t);
	if (!ok) {
		spe_selection_free(sel);
		return fail(err, errlen, -spe_nomem, "out of memory");
	}
	sel->nv = w.n;
	*out = sel;
	return 0;
}

char *spe_selection_sql(const struct spe_selection *sel, const char *table)
{
	if (!sel)
		return strdup("1");
	struct util_text t = { 0 };
	struct walk w = { .t = &t };
	build(&sel->s, sel->times, sel->comm_history, &w, table);
	if (!util_text_ok(&t)) {
		util_text_fini(&t);
		return NULL;
	}
	return t.buf;
}

int spe_selection_bind(const struct spe_selection *sel, sqlite3_stmt *st)
{
	if (!sel)
		return SQLITE_OK;
	for (size_t i = 0; i < sel->nv; i++) {
		char name[32];
		snprintf(name, sizeof name, ":sel_%zu", i + 1);
		int k = sqlite3_bind_parameter_index(st, name);
		if (!k)
			continue;
		const struct sel_value *v = &sel->v[i];
		int rc = v->is_text ? sqlite3_bind_text(st, k, v->text, -1, SQLITE_STATIC) : sqlite3_bind_int64(st, k, v->i);
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}

const char *spe_selection_text(const struct spe_selection *sel)
{
	return sel && sel->text ? sel->text : "";
}
