/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One capture's functions for hot_symbol and symbol_summary on ClickHouse
 * (ch_functions.h): what latency_rollup.c computes for SQLite, but per
 * capture, so a capture's rows stay its own and per-host or per-source
 * queries read only theirs.
 *
 * A function is (name, path of its symbol's mapping), as symbol_summary
 * groups them; the records without a symbol are one more group, and those
 * in a kernel map one group per map path (kernel code nothing named, apart
 * from user code: latency_rollup.c).  Such a group's rows carry symbol_id
 * -M, M the smallest id of a map of that path (ch_views.c reads it back as
 * symbol_summary's mapping_id; these tables are private).  For each
 * the capture gets a function_stat row -- samples, total and timed latency,
 * nearest-rank p50/p90/p99 over the capture's records -- and its latency
 * histogram as function_latency rows.  A query over one capture reads the
 * statistics as they are; a function found in several captures has its
 * percentiles merged from the histograms (ch_views.c), the only exact way.
 */
#define _GNU_SOURCE /* qsort_r */
#include "ch_functions.h"

#include <stdlib.h>
#include <string.h>

#include "ch_rowbinary.h"
#include "util/grow.h"

/* The slot of id @p id in a table indexed by id - source id, or 0 for none. */
static size_t index_of(const struct ch_functions *f, int64_t id)
{
	int64_t k = id - f->source_id;
	return k > 0 && k < (int64_t)1 << 31 ? (size_t)k : 0;
}

void ch_functions_begin(struct ch_functions *f, int64_t source_id)
{
	ch_functions_fini(f);
	f->source_id = source_id;
}

/* A copy of @p s in slot @p k of @p names (grown, new slots NULL); 0 or -1. */
static int keep_name(char ***names, size_t *cap, size_t *n, size_t k, const char *s)
{
	if (k >= *n) {
		char **p = util_grow(*names, cap, k + 1, sizeof *p);
		if (!p)
			return -1;
		*names = p;
		memset(p + *n, 0, (k + 1 - *n) * sizeof *p);
		*n = k + 1;
	}
	free((*names)[k]);
	(*names)[k] = s ? strdup(s) : NULL;
	return s && !(*names)[k] ? -1 : 0;
}

/* Room for @p n zeroed elements of *@p p; 0 or -1. */
static int zeroed(void **p, size_t *cap, size_t have, size_t n, size_t elem)
{
	if (n > *cap) {
		void *q = util_grow(*p, cap, n, elem);
		if (!q)
			return -1;
		*p = q;
	}
	if (n > have)
		memset((char *)*p + have * elem, 0, (n - have) * elem);
	return 0;
}

int ch_functions_symbol(struct ch_functions *f, const struct spe_row_symbol *r)
{
	size_t k = index_of(f, r->id);
	if (!k)
		return 0;
	size_t have = f->n_names;
	if (keep_name(&f->names, &f->cap_names, &f->n_names, k, r->name) < 0 ||
	    keep_name(&f->files, &f->cap_files, &f->n_files, k, r->file) < 0 ||
	    zeroed((void **)&f->mapping_of, &f->cap_map, have, f->n_names, sizeof *f->mapping_of) < 0 ||
	    zeroed((void **)&f->lines, &f->cap_lines, have, f->n_names, sizeof *f->lines) < 0)
		return -1;
	f->mapping_of[k] = r->mapping_id;
	f->lines[k] = r->line;
	return 0;
}

int ch_functions_mapping(struct ch_functions *f, int64_t id, const char *path, int kernel)
{
	size_t k = index_of(f, id);
	if (!k)
		return 0;
	if (zeroed((void **)&f->kernel, &f->cap_kernel, f->n_kernel, k + 1, 1) < 0)
		return -1;
	if (k + 1 > f->n_kernel)
		f->n_kernel = k + 1;
	f->kernel[k] = (uint8_t)!!kernel;
	return keep_name(&f->paths, &f->cap_paths, &f->n_paths, k, path);
}

static const char *path_of(const struct ch_functions *f, size_t sym)
{
	size_t m = index_of(f, f->mapping_of[sym]);
	return m && m < f->n_paths ? f->paths[m] : NULL;
}

static int same(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

static int by_function(const void *pa, const void *pb, void *ctx)
{
	const struct ch_functions *f = ctx;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const char *na = f->names[a] ? f->names[a] : "", *nb = f->names[b] ? f->names[b] : "";
	int c = strcmp(na, nb);
	if (c)
		return c;
	const char *qa = path_of(f, a), *qb = path_of(f, b);
	c = !qa - !qb; /* no path first */
	if (!c && qa)
		c = strcmp(qa, qb);
	return c ? c : (a > b) - (a < b);
}

/*
 * Number the functions: group g < n_fn is the function whose smallest
 * symbol id is first_id[g]; group n_fn holds the records without a symbol.
 */
static int number_functions(struct ch_functions *f)
{
	free(f->fn_of);
	free(f->first_id);
	free(f->kernel_map);
	f->kernel_map = NULL;
	f->n_kernel_fn = 0;
	f->cap_kernel_fn = 0;
	ana_latency_hist_map_fini(&f->groups);
	f->n_fn = 0;
	size_t n = 0, *order = malloc((f->n_names + 1) * sizeof *order);
	f->fn_of = calloc(f->n_names + 1, sizeof *f->fn_of);
	f->first_id = malloc((f->n_names + 1) * sizeof *f->first_id);
	if (!order || !f->fn_of || !f->first_id) {
		free(order);
		return -1;
	}
	for (size_t k = 1; k < f->n_names; k++)
		if (f->names[k])
			order[n++] = k;
	qsort_r(order, n, sizeof *order, by_function, f);
	for (size_t i = 0; i < n; i++) {
		size_t k = order[i];
		if (!i || !same(f->names[k], f->names[order[i - 1]]) || !same(path_of(f, k), path_of(f, order[i - 1])))
			f->first_id[f->n_fn++] = f->source_id + (int64_t)k; /* ascending ids within a function */
		f->fn_of[k] = f->n_fn; /* group + 1 */
	}
	free(order);
	for (uint32_t g = 0; g <= f->n_fn; g++) { /* group number = function number, the last none */
		struct latency_key key = { { g, 0, 0 } };
		if (ana_latency_group_of(&f->groups, &key) != (int64_t)g)
			return -1;
	}
	return 0;
}

int ch_functions_pc_latency(struct ch_functions *f, const struct spe_row_pc_histogram *r, int64_t mapping_id)
{
	/* by symbol (or mapping) here (rows of any table come in any order): into functions at the end */
	struct latency_key key = { { r->symbol_id ? index_of(f, r->symbol_id) : 0,
				     r->symbol_id || !mapping_id ? 0 : index_of(f, mapping_id), 0 } };
	int64_t g = ana_latency_group_of(&f->by_symbol, &key);
	if (g < 0 || (r->untimed && ana_latency_hist_map_add(&f->by_symbol, (uint32_t)g, LATENCY_NONE, r->untimed) < 0))
		return -1;
	for (size_t i = 0; i < r->n; i++)
		if (r->samples[i] && ana_latency_hist_map_add(&f->by_symbol, (uint32_t)g, r->latency[i], r->samples[i]) < 0)
			return -1;
	return 0;
}

/* The group of the PCs without a symbol in map slot @p m: its kernel map path's, else the none group; UINT32_MAX without memory. */
static uint32_t unnamed_group(struct ch_functions *f, size_t m)
{
	if (!m || m >= f->n_kernel || !f->kernel[m] || m >= f->n_paths || !f->paths[m])
		return f->n_fn;
	int64_t id = f->source_id + (int64_t)m;
	for (uint32_t i = 0; i < f->n_kernel_fn; i++) {
		size_t other = index_of(f, f->kernel_map[i]);
		if (same(f->paths[other], f->paths[m])) {
			if (id < f->kernel_map[i])
				f->kernel_map[i] = id;
			return f->n_fn + 1 + i;
		}
	}
	int64_t *p = util_grow(f->kernel_map, &f->cap_kernel_fn, f->n_kernel_fn + 1, sizeof *p);
	if (!p)
		return UINT32_MAX;
	f->kernel_map = p;
	p[f->n_kernel_fn] = id;
	uint32_t g = f->n_fn + 1 + f->n_kernel_fn++;
	struct latency_key key = { { g, 0, 0 } };
	return ana_latency_group_of(&f->groups, &key) == (int64_t)g ? g : UINT32_MAX;
}

/* Each symbol's histogram into its function's (a symbol never seen, or none, into the none or a kernel map's group). */
static int merge_symbols(struct ch_functions *f)
{
	for (uint32_t s = 0; s < ana_latency_hist_map_n(&f->by_symbol); s++) {
		const struct latency_group *sg = ana_latency_group(&f->by_symbol, s);
		size_t k = (size_t)sg->key.w[0];
		uint32_t g = k && k < f->n_names && f->fn_of[k] ? f->fn_of[k] - 1
			     : k			   ? f->n_fn
						   : unnamed_group(f, (size_t)sg->key.w[1]);
		if (g == UINT32_MAX)
			return -1;
		LATENCY_HIST_FOREACH(&sg->hist, i)
		if (ana_latency_hist_map_add(&f->groups, g, latency_slot_latency(sg->hist.slots[i]),
					   latency_slot_count(sg->hist.slots[i])) < 0)
			return -1;
	}
	return 0;
}

int ch_functions_write(struct ch_functions *f, struct ch_buf *stat, struct ch_buf *latency)
{
	if (number_functions(f) < 0 || merge_symbols(f) < 0)
		return -1;
	uint32_t widest = 0, n_groups = f->n_fn + 1 + f->n_kernel_fn;
	for (uint32_t g = 0; g < n_groups; g++)
		if (ana_latency_group(&f->groups, g)->hist.n > widest)
			widest = ana_latency_group(&f->groups, g)->hist.n;
	uint64_t *scratch = malloc(((size_t)widest + 1) * sizeof *scratch);
	if (!scratch)
		return -1;
	int rc = 0;
	for (uint32_t g = 0; g < n_groups && rc == 0; g++) {
		const struct latency_hist *h = &ana_latency_group(&f->groups, g)->hist;
		int none = g == f->n_fn, kernel = g > f->n_fn;
		if (none && !h->n)
			continue; /* every record had a symbol */
		int64_t kmap = kernel ? f->kernel_map[g - f->n_fn - 1] : 0;
		int64_t id = none ? 0 : kernel ? -kmap : f->first_id[g];
		size_t k = none || kernel ? 0 : index_of(f, id);
		const char *name = none || kernel ? NULL : f->names[k];
		const char *path = none ? NULL : kernel ? f->paths[index_of(f, kmap)] : path_of(f, k);
		const char *file = none || kernel || k >= f->n_files ? NULL : f->files[k];
		struct latency_stats s;
		ana_latency_hist_stats(h, scratch, &s);
		if (ch_buf_reserve(stat, 10 * 9 + (name ? strlen(name) : 0) + (path ? strlen(path) : 0) +
					       (file ? strlen(file) : 0) + 36) < 0 ||
		    ch_buf_reserve(latency, (size_t)h->n * (8 + 9 + 9 + 8)) < 0) {
			rc = -1;
			break;
		}
		put_i64(stat, f->source_id);
		put_nint(stat, !none, id);
		put_nstr(stat, name);
		put_nstr(stat, path);
		put_nstr(stat, file);
		put_nint(stat, !none && !kernel && f->lines[k] > 0, none || kernel ? 0 : f->lines[k]);
		put_i64(stat, (int64_t)s.samples);
		put_nint(stat, s.timed > 0, (int64_t)s.total_latency);
		put_i64(stat, (int64_t)s.timed);
		put_nint(stat, s.p50 >= 0, s.p50);
		put_nint(stat, s.p90 >= 0, s.p90);
		put_nint(stat, s.p99 >= 0, s.p99);
		LATENCY_HIST_FOREACH(h, i)
		{
			int32_t lat = latency_slot_latency(h->slots[i]);
			put_i64(latency, f->source_id);
			put_nint(latency, !none, id);
			put_nint(latency, lat != LATENCY_NONE, lat);
			put_i64(latency, (int64_t)latency_slot_count(h->slots[i]));
		}
	}
	free(scratch);
	return rc;
}

void ch_functions_fini(struct ch_functions *f)
{
	for (size_t i = 0; i < f->n_names; i++)
		free(f->names[i]);
	for (size_t i = 0; i < f->n_paths; i++)
		free(f->paths[i]);
	for (size_t i = 0; i < f->n_files; i++)
		free(f->files[i]);
	free(f->files);
	free(f->lines);
	free(f->names);
	free(f->paths);
	free(f->kernel);
	free(f->kernel_map);
	free(f->mapping_of);
	free(f->fn_of);
	free(f->first_id);
	ana_latency_hist_map_fini(&f->groups);
	ana_latency_hist_map_fini(&f->by_symbol);
	memset(f, 0, sizeof *f);
}
