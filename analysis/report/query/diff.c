/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Before/after comparison (spe/diff.h).  Each side is read as latency
 * histograms per item -- functions and instructions from pc_latency, data
 * objects from spe_record -- keyed by names that survive a rebuild or a
 * second database (function name and mapped file name; function + offset;
 * object kind and name), then merged by key.  The statistics live in
 * diff_stats.c.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "report_sqlite.h"
#include "ana/data_object.h"
#include "ana/statement.h"
#include "diff_stats.h"
#include "report/diff.h"
#include "util/grow.h"

#define N_KINDS 3

/* One item of one side: its key, detail text and latency histogram. */
struct item {
	char *key;    /* name \x1f where: the merge key */
	char *detail;
	uint64_t samples;
	double sum, sumsq;
	struct diff_bin *bins;
	size_t n_bins, cap_bins;
};

struct side {
	struct item *items[N_KINDS];
	size_t n_items[N_KINDS], cap_items[N_KINDS];
	uint64_t samples;
	char label[512];
};

struct spe_diff {
	struct spe_diff_row *rows[N_KINDS];
	size_t n_rows[N_KINDS];
	char **strings;
	size_t n_strings;
	struct side a, b;
	double confidence;
};

static const char *basename_of(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;
	return s ? s + 1 : path ? path : "";
}

/* The item of key (@p name, @p where) of @p kind on @p s: the last one, as rows arrive grouped by key. */
static struct item *item_for(struct side *s, int kind, const char *name, const char *where, const char *detail)
{
	char key[1024];
	snprintf(key, sizeof key, "%s\x1f%s", name, where);
	size_t n = s->n_items[kind];
	for (size_t i = n; i > 0 && i + 8 > n; i--) /* keys repeat only among the last few rows */
		if (!strcmp(s->items[kind][i - 1].key, key))
			return &s->items[kind][i - 1];
	struct item *p = util_grow(s->items[kind], &s->cap_items[kind], n + 1, sizeof *p);
	if (!p)
		return NULL;
	s->items[kind] = p;
	struct item *it = &s->items[kind][s->n_items[kind]++];
	memset(it, 0, sizeof *it);
	it->key = strdup(key);
	it->detail = detail ? strdup(detail) : NULL;
	return it->key ? it : NULL;
}

static int add_bin(struct item *it, int64_t latency, uint64_t count)
{
	it->samples += count;
	if (latency < 0)
		return 0; /* a record without latency: counted, no value */
	it->sum += (double)latency * (double)count;
	it->sumsq += (double)latency * (double)latency * (double)count;
	if (it->n_bins && it->bins[it->n_bins - 1].latency == latency) {
		it->bins[it->n_bins - 1].count += count;
		return 0;
	}
	struct diff_bin *p = util_grow(it->bins, &it->cap_bins, it->n_bins + 1, sizeof *p);
	if (!p)
		return -spe_nomem;
	it->bins = p;
	it->bins[it->n_bins++] = (struct diff_bin){ latency, count };
	return 0;
}

static int fail_sql(sqlite3 *db, char *err, size_t errlen)
{
	return report_sqlite_fail(db, sqlite3_extended_errcode(db), "--diff", err, errlen);
}

/*
 * Read one kind for one side.  The query returns (name, where, detail,
 * latency or NULL, count), ordered by name, where, latency.
 */
static int read_kind(sqlite3 *db, const char *sql, struct side *s, int kind, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	if (ana_prepare(db, sql, &st, "--diff", err, errlen) < 0)
		return report_sqlite_code(sqlite3_extended_errcode(db));
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const char *where = (const char *)sqlite3_column_text(st, 1);
		const char *detail = (const char *)sqlite3_column_text(st, 2);
		struct item *it = item_for(s, kind, name ? name : "", kind == SPE_DIFF_DATA_OBJECT ? (where ? where : "")
											   : basename_of(where),
					   detail);
		if (report_sqlite_numeric(st, 3, "--diff", err, errlen) < 0 ||
		    report_sqlite_numeric(st, 4, "--diff", err, errlen) < 0) {
			sqlite3_finalize(st);
			return -spe_bad_file;
		}
		if (!it || add_bin(it, sqlite3_column_type(st, 3) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 3),
				   (uint64_t)sqlite3_column_int64(st, 4)) < 0) {
			sqlite3_finalize(st);
			snprintf(err, errlen, "out of memory");
			return -spe_nomem;
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail_sql(db, err, errlen);
}

/* "1,3" -> "(1,3)" after checking it is a list of integers; NULL -> every source of @p schema. */
static int source_filter(sqlite3 *db, const char *schema, const char *list, char *out, size_t size, char *label,
			 size_t label_size, char *err, size_t errlen)
{
	char sql[512];
	if (list) {
		for (const char *c = list; *c; c++)
			if (!((*c >= '0' && *c <= '9') || *c == ','))
				return snprintf(err, errlen, "'%s' is not a list of source ids (see SELECT id, file FROM source)",
						list),
				       -spe_invalid;
		snprintf(out, size, "(%s)", list);
	} else {
		snprintf(out, size, "(SELECT id FROM %s.source)", schema);
	}
	snprintf(sql, sizeof sql, "SELECT id, file FROM %s.source WHERE id IN %s ORDER BY id", schema, out);
	sqlite3_stmt *st;
	if (ana_prepare(db, sql, &st, "--diff", err, errlen) < 0)
		return report_sqlite_code(sqlite3_extended_errcode(db));
	size_t n = 0;
	int count = 0;
	label[0] = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *file = (const char *)sqlite3_column_text(st, 1);
		n += (size_t)snprintf(label + n, n < label_size ? label_size - n : 0, "%ssource %lld (%s)", count ? ", " : "",
				      (long long)sqlite3_column_int64(st, 0), basename_of(file));
		count++;
		if (n >= label_size)
			n = label_size - 1;
	}
	if (sqlite3_finalize(st) != SQLITE_OK)
		return fail_sql(db, err, errlen);
	if (!count)
		return snprintf(err, errlen, "no source %s in the %s database", list ? list : "at all",
				strcmp(schema, "main") ? "second" : "first"),
		       -spe_invalid;
	return 0;
}

/*
 * The schema whose pc_latency a side reads: the first database's view may be
 * spekit's TEMP definition shadowing the file's (spe_db_own_views); the
 * second's was checked in the comparison's snapshot (spe_diff_compute).
 */
static const char *views_of(sqlite3 *db, const char *schema)
{
	if (strcmp(schema, "main"))
		return schema;
	sqlite3_stmt *st;
	int temp = 0;
	if (sqlite3_prepare_v2(db, "SELECT 1 FROM temp.sqlite_schema WHERE name = 'pc_latency'", -1, &st, NULL) ==
	    SQLITE_OK) {
		temp = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_finalize(st);
	}
	return temp ? "temp" : "main";
}

static int read_side(sqlite3 *db, const char *schema, const char *filter, struct side *s, char *err, size_t errlen)
{
	char sql[2048];
	const char *views = views_of(db, schema);
	snprintf(sql, sizeof sql,
		 "SELECT coalesce(s.name, '(no symbol)'), coalesce(m.path, ''), NULL, l.total_latency, sum(l.samples)"
		 " FROM %3$s.pc_latency l LEFT JOIN %1$s.symbol s ON s.id = l.symbol_id"
		 " LEFT JOIN %1$s.mapping m ON m.id = s.mapping_id WHERE l.source_id IN %2$s"
		 " GROUP BY 1, 2, 4 ORDER BY 1, 2, 4",
		 schema, filter, views);
	int rc = read_kind(db, sql, s, SPE_DIFF_FUNCTION, err, errlen);
	snprintf(sql, sizeof sql,
		 "SELECT CASE WHEN s.name IS NULL THEN printf('0x%%x', l.pc) ELSE printf('%%s+0x%%x', s.name, l.pc - s.start)"
		 " END, coalesce(m.path, ''), i.mnemonic || ' ' || i.operands, l.total_latency, sum(l.samples)"
		 " FROM %3$s.pc_latency l LEFT JOIN %1$s.symbol s ON s.id = l.symbol_id"
		 " LEFT JOIN %1$s.mapping m ON m.id = s.mapping_id LEFT JOIN %1$s.insn i ON i.id = l.insn_id"
		 " WHERE l.source_id IN %2$s AND l.pc IS NOT NULL GROUP BY 1, 2, 4 ORDER BY 1, 2, 4",
		 schema, filter, views);
	if (rc == 0)
		rc = read_kind(db, sql, s, SPE_DIFF_INSTRUCTION, err, errlen);
	snprintf(sql, sizeof sql,
		 /* anonymous regions have no name: their size tells them apart across runs */
		 "SELECT CASE WHEN d.kind IN (%3$d, %4$d) AND d.size >= 1048576 THEN printf('%%s %%d MiB', d.name, d.size >> 20)"
		 " WHEN d.kind IN (%3$d, %4$d) THEN printf('%%s %%d KiB', d.name, d.size >> 10) ELSE d.name END,"
		 " k.name, d.type, r.total_latency, count(*)"
		 " FROM %1$s._spe_record r JOIN %1$s.data_object d ON d.id = r.data_object_id"
		 " LEFT JOIN %1$s.data_object_kind k ON k.id = d.kind WHERE r.source_id IN %2$s"
		 " GROUP BY 1, 2, 4 ORDER BY 1, 2, 4",
		 schema, filter, DOBJ_ANON, DOBJ_SHARED);
	if (rc == 0)
		rc = read_kind(db, sql, s, SPE_DIFF_DATA_OBJECT, err, errlen);
	if (rc == 0) {
		snprintf(sql, sizeof sql, "SELECT coalesce(sum(samples), 0) FROM %s.pc_latency WHERE source_id IN %s",
			 views, filter);
		sqlite3_stmt *st;
		if (ana_prepare(db, sql, &st, "--diff", err, errlen) < 0)
			return report_sqlite_code(sqlite3_extended_errcode(db));
		if (sqlite3_step(st) == SQLITE_ROW)
			s->samples = (uint64_t)sqlite3_column_int64(st, 0);
		if (sqlite3_finalize(st) != SQLITE_OK)
			return fail_sql(db, err, errlen);
	}
	return rc;
}

static int by_key(const void *x, const void *y)
{
	return strcmp(((const struct item *)x)->key, ((const struct item *)y)->key);
}

static const char *keep(struct spe_diff *d, const char *s)
{
	if (!s)
		return NULL;
	char **p = realloc(d->strings, (d->n_strings + 1) * sizeof *p);
	if (!p)
		return NULL;
	d->strings = p;
	return d->strings[d->n_strings++] = strdup(s);
}

static void fill_side(struct spe_diff_side *out, const struct item *it, uint64_t total, double z)
{
	memset(out, 0, sizeof *out);
	out->p99 = out->p99_lo = out->p99_hi = -1;
	if (!it)
		return;
	out->samples = it->samples;
	out->total_latency = (uint64_t)it->sum;
	out->share = total ? (double)it->samples / (double)total : 0;
	report_diff_quantile(it->bins, it->n_bins, 0.99, z, &out->p99, &out->p99_lo, &out->p99_hi);
}

/* One row from the items of the key on each side (either may be NULL). */
static int make_row(struct spe_diff *d, int kind, const struct item *ia, const struct item *ib, double z,
		    struct spe_diff_row *r)
{
	const struct item *any = ia ? ia : ib;
	char key[1024];
	snprintf(key, sizeof key, "%s", any->key);
	char *sep = strchr(key, '\x1f');
	*sep = 0;
	memset(r, 0, sizeof *r);
	r->kind = (enum spe_diff_kind)kind;
	r->name = keep(d, key);
	r->where = keep(d, sep + 1);
	r->detail = keep(d, any->detail);
	if (!r->name || !r->where)
		return -spe_nomem;
	fill_side(&r->a, ia, d->a.samples, z);
	fill_side(&r->b, ib, d->b.samples, z);
	report_diff_newcombe(r->a.samples, d->a.samples, r->b.samples, d->b.samples, z, &r->share_change, &r->share_lo,
			  &r->share_hi);
	/*
	 * Latency per sample of the side, X_i = latency of sample i if it is
	 * the item's, else 0; its mean's change, scaled to A's sample count
	 * (the total latency B would show over as many samples as A).
	 */
	double lo, hi, change;
	report_diff_mean_change(d->a.samples, ia ? ia->sum : 0, ia ? ia->sumsq : 0, d->b.samples, ib ? ib->sum : 0,
			     ib ? ib->sumsq : 0, z, &change, &lo, &hi);
	double scale = (double)d->a.samples;
	r->latency_change = change * scale;
	r->latency_lo = lo * scale;
	r->latency_hi = hi * scale;
	r->share_significant = r->share_lo > 0 || r->share_hi < 0;
	r->p99_significant = r->a.p99 >= 0 && r->b.p99 >= 0 && (r->a.p99_hi < r->b.p99_lo || r->b.p99_hi < r->a.p99_lo);
	r->verdict = r->latency_hi < 0 ? SPE_DIFF_FASTER : r->latency_lo > 0 ? SPE_DIFF_SLOWER : SPE_DIFF_NOISE;
	return 0;
}

static int by_impact(const void *x, const void *y)
{
	const struct spe_diff_row *a = x, *b = y;
	double ia = fabs(a->latency_change), ib = fabs(b->latency_change);
	if (ia != ib)
		return ia < ib ? 1 : -1;
	double sa = fabs(a->share_change), sb = fabs(b->share_change);
	if (sa != sb)
		return sa < sb ? 1 : -1;
	return strcmp(a->name, b->name);
}

static int merge(struct spe_diff *d, int kind, double z)
{
	struct side *A = &d->a, *B = &d->b;
	qsort(A->items[kind], A->n_items[kind], sizeof(struct item), by_key);
	qsort(B->items[kind], B->n_items[kind], sizeof(struct item), by_key);
	size_t cap = A->n_items[kind] + B->n_items[kind];
	d->rows[kind] = calloc(cap ? cap : 1, sizeof *d->rows[kind]);
	if (!d->rows[kind])
		return -spe_nomem;
	size_t i = 0, j = 0;
	while (i < A->n_items[kind] || j < B->n_items[kind]) {
		const struct item *ia = i < A->n_items[kind] ? &A->items[kind][i] : NULL;
		const struct item *ib = j < B->n_items[kind] ? &B->items[kind][j] : NULL;
		int c = !ia ? 1 : !ib ? -1 : strcmp(ia->key, ib->key);
		if (make_row(d, kind, c <= 0 ? ia : NULL, c >= 0 ? ib : NULL, z, &d->rows[kind][d->n_rows[kind]++]))
			return -spe_nomem;
		i += c <= 0;
		j += c >= 0;
	}
	qsort(d->rows[kind], d->n_rows[kind], sizeof *d->rows[kind], by_impact);
	return 0;
}

static void free_side(struct side *s)
{
	for (int k = 0; k < N_KINDS; k++) {
		for (size_t i = 0; i < s->n_items[k]; i++) {
			free(s->items[k][i].key);
			free(s->items[k][i].detail);
			free(s->items[k][i].bins);
		}
		free(s->items[k]);
		s->items[k] = NULL;
		s->n_items[k] = 0;
	}
}

int spe_diff_compute(sqlite3 *db, const struct spe_diff_opts *opts_in, struct spe_diff **out, char *err,
		     size_t errlen)
{
	struct spe_diff_opts o = { 0 };
	if (opts_in)
		o = *opts_in;
	*out = NULL;
	struct spe_diff *d = calloc(1, sizeof *d);
	if (!d)
		return -spe_nomem;
	d->confidence = o.confidence > 0 && o.confidence < 1 ? o.confidence : 0.95;
	double z = report_diff_z(d->confidence);
	const char *schema_b = "main";
	int attached = 0, rc = 0, snap = 0;
	if (err && errlen)
		err[0] = 0;
	if (o.db_b) {
		sqlite3_stmt *st;
		if (ana_prepare(db, "ATTACH DATABASE ? AS diff_b", &st, "--diff", err, errlen) < 0) {
			rc = report_sqlite_code(sqlite3_extended_errcode(db));
			goto out;
		}
		char *uri = spe_db_readonly_uri(o.db_b);
		if (!uri) {
			sqlite3_finalize(st);
			snprintf(err, errlen, "out of memory");
			rc = -spe_nomem;
			goto out;
		}
		sqlite3_bind_text(st, 1, uri, -1, SQLITE_TRANSIENT);
		free(uri);
		int s = sqlite3_step(st);
		sqlite3_finalize(st);
		if (s != SQLITE_DONE) {
			snprintf(err, errlen, "%s: %s", o.db_b, sqlite3_errmsg(db));
			rc = report_sqlite_code(s);
			if (!rc)
				rc = -spe_io;
			goto out;
		}
		attached = 1;
		schema_b = "diff_b";
		long ver = -1;
		if (sqlite3_prepare_v2(db, "PRAGMA diff_b.user_version", -1, &st, NULL) == SQLITE_OK) {
			if (sqlite3_step(st) == SQLITE_ROW)
				ver = sqlite3_column_int(st, 0);
			sqlite3_finalize(st);
		}
		if (ver < SPE_DB_SCHEMA_VERSION_OLDEST || ver > SPE_DB_SCHEMA_VERSION) {
			snprintf(err, errlen, "%s: not a spekit database of schema version %d to %d (user_version %ld)",
				 o.db_b, SPE_DB_SCHEMA_VERSION_OLDEST, SPE_DB_SCHEMA_VERSION, ver);
			rc = -spe_bad_file;
			goto out;
		}
	} else if (!o.sources_a || !o.sources_b) {
		snprintf(err, errlen, "two sources of one database: name both (source ids)");
		rc = -spe_invalid;
		goto out;
	}
	/* one state of both databases for the whole comparison (report_sqlite.h); after ATTACH, which cannot be in one */
	snap = report_snapshot_begin(db, err, errlen);
	if (snap < 0) {
		rc = snap;
		goto out;
	}
	/* a read of each database at once: both snapshots begin here, not at each side's first query */
	if (snap && (sqlite3_exec(db, "SELECT count(*) FROM main.sqlite_schema", NULL, NULL, NULL) != SQLITE_OK ||
		     (attached && sqlite3_exec(db, "SELECT count(*) FROM diff_b.sqlite_schema", NULL, NULL, NULL) != SQLITE_OK))) {
		rc = fail_sql(db, err, errlen);
		goto out;
	}
	/*
	 * the second database's schema checked in the state the comparison reads: its tables, and of its
	 * views the one read_side reads (a file of another build differs in others: not refused for them)
	 */
	char why[256];
	static const char *const views_read[] = { "pc_latency", NULL };
	if (attached && (rc = spe_db_own_views_read(db, "diff_b", views_read, why, sizeof why)) < 0) {
		snprintf(err, errlen, "%s: %s", o.db_b, why);
		goto out;
	}
	char fa[256], fb[256];
	if ((rc = source_filter(db, "main", o.sources_a, fa, sizeof fa, d->a.label, sizeof d->a.label, err, errlen)) ||
	    (rc = source_filter(db, schema_b, o.sources_b, fb, sizeof fb, d->b.label, sizeof d->b.label, err, errlen)))
		goto out;
	if (!attached && !strcmp(fa, fb)) {
		snprintf(err, errlen, "both sides are %s: nothing to compare", d->a.label);
		rc = -spe_invalid;
		goto out;
	}
	if ((rc = read_side(db, "main", fa, &d->a, err, errlen)) || (rc = read_side(db, schema_b, fb, &d->b, err, errlen)))
		goto out;
	for (int k = 0; k < N_KINDS && rc == 0; k++)
		rc = merge(d, k, z);
	if (rc == -spe_nomem)
		snprintf(err, errlen, "out of memory");
out:
	free_side(&d->a);
	free_side(&d->b);
	report_snapshot_end(db, snap);
	if (attached)
		sqlite3_exec(db, "DETACH DATABASE diff_b", NULL, NULL, NULL);
	if (rc) {
		spe_diff_free(d);
		return rc;
	}
	*out = d;
	return 0;
}

void spe_diff_free(struct spe_diff *d)
{
	if (!d)
		return;
	for (int k = 0; k < N_KINDS; k++)
		free(d->rows[k]);
	for (size_t i = 0; i < d->n_strings; i++)
		free(d->strings[i]);
	free(d->strings);
	free(d);
}

size_t spe_diff_count(const struct spe_diff *d, enum spe_diff_kind kind)
{
	return d && (unsigned)kind < N_KINDS ? d->n_rows[kind] : 0;
}

const struct spe_diff_row *spe_diff_row(const struct spe_diff *d, enum spe_diff_kind kind, size_t i)
{
	return i < spe_diff_count(d, kind) ? &d->rows[kind][i] : NULL;
}

void spe_diff_totals(const struct spe_diff *d, uint64_t *samples_a, uint64_t *samples_b, const char **label_a,
		     const char **label_b)
{
	*samples_a = d->a.samples;
	*samples_b = d->b.samples;
	*label_a = d->a.label;
	*label_b = d->b.label;
}

double spe_diff_confidence(const struct spe_diff *d)
{
	return d->confidence;
}

const char *spe_diff_kind_name(enum spe_diff_kind kind)
{
	static const char *const names[] = { "function", "instruction", "data object" };
	return (unsigned)kind < N_KINDS ? names[kind] : NULL;
}

const char *spe_diff_verdict_name(enum spe_diff_verdict v)
{
	static const char *const names[] = { "noise", "faster", "slower" };
	return (unsigned)v <= SPE_DIFF_SLOWER ? names[v] : NULL;
}
