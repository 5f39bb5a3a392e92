/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The annotation of any function, drawn on demand: page.js draws it under a
 * function's row when it is clicked, from the instructions table's rows
 * (hot_pc's first REPORT_ROWS_PC_MAX, already in the page: table_rows.c)
 * and this one JSON data block (<script type="application/json"
 * class="ann-data" data-table="hot-symbol">), which says whose they are:
 *
 *   {"fn": [function row of each instruction row, or null], "file": [its source file, or null; [] if none has],
 *    "files": [["name", null or why it was not read], ...],
 *    "src": [[file, line, "text"], ...]}   (the lines of those instructions, where readable)
 *
 * A function row is the row's index in the functions table's own block, an
 * instruction row the row's index in the instructions table's; a function
 * is a name in a binary (path), as hot_symbol merges them.  The page stays
 * bounded so: a function's instructions outside those rows are counted, by
 * samples and latency, from its row's totals, and the page says where they
 * are (writing each function's own top instructions cost 1.2 MB at one per
 * function on 20,000 functions).  Source lines are read under the rules of
 * query/source_file.c (--symfs, --source-dir, regular files only).
 *
 * SQLite only, as the flame graphs: the ClickHouse page leaves the block out,
 * and page.js says so.
 */
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sections.h"
#include "source_file.h"

/* A source file named by the PCs: its index in "files". */
struct file_name {
	char *name;
	size_t index;
};

static int cmp_file(const void *a, const void *b)
{
	return strcmp(((const struct file_name *)a)->name, ((const struct file_name *)b)->name);
}

struct src_line {
	size_t file;
	int line;
};

static int cmp_src(const void *a, const void *b)
{
	const struct src_line *x = a, *y = b;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

struct ann_rows {
	void *files_tree;
	struct file_name **files; /* by index */
	size_t nfiles, files_cap;
	struct src_line *lines;
	size_t nlines, lines_cap;
};

static int grow(void **p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return 0;
	size_t c = *cap ? 2 * *cap : 256;
	void *q = realloc(*p, c * size);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

/* The index of file @p name, added at the end when new; (size_t)-1 without memory. */
static size_t file_index(struct ann_rows *a, const char *name)
{
	struct file_name key = { (char *)name, 0 };
	struct file_name **hit = tfind(&key, &a->files_tree, cmp_file);
	if (hit)
		return (*hit)->index;
	struct file_name *f = malloc(sizeof *f);
	if (!f || grow((void **)&a->files, &a->files_cap, a->nfiles, sizeof *a->files) < 0 ||
	    !(f->name = strdup(name))) {
		free(f);
		return (size_t)-1;
	}
	f->index = a->nfiles;
	if (!tsearch(f, &a->files_tree, cmp_file)) {
		free(f->name);
		free(f);
		return (size_t)-1;
	}
	a->files[a->nfiles++] = f;
	return f->index;
}

static void ann_rows_fini(struct ann_rows *a)
{
	for (size_t i = 0; i < a->nfiles; i++)
		tdelete(a->files[i], &a->files_tree, cmp_file);
	for (size_t i = 0; i < a->nfiles; i++) {
		free(a->files[i]->name);
		free(a->files[i]);
	}
	free(a->files);
	free(a->lines);
}

struct insn_row {
	long long id;
	size_t row;
};

static int cmp_insn(const void *a, const void *b)
{
	long long x = ((const struct insn_row *)a)->id, y = ((const struct insn_row *)b)->id;
	return (x > y) - (x < y);
}

/* "files" and "src": each file named, whether it was read, and the lines of the instructions from those read. */
static void write_sources(struct report_ctx *c, struct ann_rows *a)
{
	struct html *h = &c->h;
	if (a->nlines) /* NULL when no instruction has a line */
		qsort(a->lines, a->nlines, sizeof *a->lines, cmp_src);
	const char **note = calloc(a->nfiles + 1, sizeof *note);
	report_html_raw(h, ",\"src\":[");
	size_t written = 0;
	for (size_t i = 0; i < a->nlines;) {
		size_t f = a->lines[i].file, j = i;
		while (j < a->nlines && a->lines[j].file == f)
			j++;
		struct source_file src = { 0 };
		enum source_result r = report_source_file_open(a->files[f]->name, c->o.symfs, c->o.source_dirs, &src);
		if (r != SOURCE_READ) {
			if (note)
				note[f] = report_source_result_text(r);
		} else {
			for (size_t k = i; k < j; k++) {
				if (k > i && a->lines[k].line == a->lines[k - 1].line)
					continue;
				const char *t = report_source_file_line(&src, a->lines[k].line);
				if (!t)
					continue;
				report_rows_row(h, written++);
				report_rows_int(h, 1, (long long)f);
				report_rows_int(h, 0, a->lines[k].line);
				report_rows_str(h, 0, t);
			}
			report_source_file_close(&src);
		}
		i = j;
	}
	report_html_raw(h, written ? "]]" : "]");
	report_html_raw(h, ",\"files\":[");
	for (size_t f = 0; f < a->nfiles; f++) {
		report_rows_row(h, f);
		report_rows_str(h, 1, a->files[f]->name);
		report_rows_str(h, 0, note ? note[f] : "not read: out of memory");
	}
	report_html_raw(h, a->nfiles ? "]]" : "]");
	free(note);
}

/* Each instruction row's function and file (@p fn, @p file: (size_t)-1 when none), from RQ_ANN_INSNS. */
static int instruction_functions(struct report_ctx *c, struct ann_rows *a, const struct report_function *keys, size_t nkeys,
				 const struct insn_row *ids, size_t nids, const char *json_ids, size_t *fn, size_t *file)
{
	struct rq q;
	int rc = report_rq_begin(c, &q, RQ_ANN_INSNS);
	if (rc < 0)
		return rc;
	report_rq_bind_ids(&q, 1, json_ids);
	while ((rc = report_rq_next(&q)) == 1) {
		rc = 0;
		struct insn_row want = { report_rq_int(&q, 0), 0 };
		const struct insn_row *hit = bsearch(&want, ids, nids, sizeof *ids, cmp_insn);
		if (!hit || report_rq_null(&q, 1))
			continue;
		struct report_function key = { report_rq_text(&q, 1), report_rq_text(&q, 2), 0 };
		const struct report_function *f = bsearch(&key, keys, nkeys, sizeof *keys, report_cmp_function);
		size_t fi = (size_t)-1;
		if (!report_rq_null(&q, 3) && (fi = file_index(a, report_rq_text(&q, 3))) == (size_t)-1) {
			rc = report_fail(c, -spe_nomem, "out of memory");
			break;
		}
		int line = report_rq_null(&q, 4) ? 0 : (int)report_rq_int(&q, 4);
		if (fi != (size_t)-1 && line > 0) {
			if (grow((void **)&a->lines, &a->lines_cap, a->nlines, sizeof *a->lines) < 0) {
				rc = report_fail(c, -spe_nomem, "out of memory");
				break;
			}
			a->lines[a->nlines++] = (struct src_line){ fi, line };
		}
		/* every row of that instruction (an id is one row of hot_pc; equal ids sort together) */
		for (const struct insn_row *r = hit; r > ids && r[-1].id == want.id;)
			hit = --r;
		for (const struct insn_row *r = hit; r < ids + nids && r->id == want.id; r++) {
			fn[r->row] = f ? f->row : (size_t)-1;
			file[r->row] = fi;
		}
	}
	report_rq_end(&q);
	return rc < 0 ? rc : 0;
}

/* An array of @p n indexes, (size_t)-1 as null. */
static void index_array(struct html *h, const char *name, const size_t *v, size_t n)
{
	report_html_printf(h, ",\"%s\":[", name);
	for (size_t k = 0; k < n; k++) {
		if (v[k] == (size_t)-1)
			report_html_raw(h, k ? ",null" : "null");
		else
			report_rows_int(h, k == 0, (long long)v[k]);
	}
	report_html_raw(h, "]");
}

int report_ann_rows(struct report_ctx *c, const struct rowset *fns, int name_col, int path_col, size_t fn_rows,
		    const struct rowset *pcs, int insn_col, size_t pc_rows)
{
	struct html *h = &c->h;
	if (c->ch || !fn_rows || !pc_rows)
		return 0;
	struct report_function *keys = malloc(fn_rows * sizeof *keys);
	struct insn_row *ids = malloc(pc_rows * sizeof *ids);
	long long *id_values = malloc(pc_rows * sizeof *id_values);
	size_t *fn = malloc(pc_rows * sizeof *fn), *file = malloc(pc_rows * sizeof *file);
	struct ann_rows a = { 0 };
	char *json_ids = NULL;
	int rc = 0;
	if (!keys || !ids || !id_values || !fn || !file) {
		rc = report_fail(c, -spe_nomem, "out of memory");
		goto out;
	}
	size_t nkeys = 0, nids = 0;
	for (size_t r = 0; r < fn_rows; r++)
		if (report_rowset_get(fns, r, name_col)) /* the records without a symbol have no instructions to list */
			keys[nkeys++] = (struct report_function){ report_rowset_get(fns, r, name_col), report_rowset_get(fns, r, path_col), r };
	qsort(keys, nkeys, sizeof *keys, report_cmp_function);
	for (size_t r = 0; r < pc_rows; r++) {
		fn[r] = file[r] = (size_t)-1;
		const char *id = report_rowset_get(pcs, r, insn_col);
		if (id) { /* a PC in no mapping has no instruction row, nor a function */
			ids[nids] = (struct insn_row){ atoll(id), r };
			id_values[nids] = ids[nids].id;
			nids++;
		}
	}
	qsort(ids, nids, sizeof *ids, cmp_insn);
	if (!(json_ids = report_json_int_array(id_values, nids))) {
		rc = report_fail(c, -spe_nomem, "out of memory");
		goto out;
	}
	if ((rc = instruction_functions(c, &a, keys, nkeys, ids, nids, json_ids, fn, file)) < 0)
		goto out;
	report_html_raw(h, "<script type=\"application/json\" class=\"ann-data\" data-table=\"hot-symbol\">{\"v\":1");
	index_array(h, "fn", fn, pc_rows);
	size_t with_file = 0;
	for (size_t r = 0; r < pc_rows; r++)
		with_file += file[r] != (size_t)-1;
	index_array(h, "file", file, with_file ? pc_rows : 0); /* [] when no instruction has a file */
	write_sources(c, &a);
	report_html_raw(h, "}</script>\n");
out:
	ann_rows_fini(&a);
	free(json_ids);
	free(keys);
	free(ids);
	free(id_values);
	free(fn);
	free(file);
	return rc;
}
