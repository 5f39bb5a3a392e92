/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The annotation model (annotate.h): copies of a function from the symbol
 * table, latency by offset from pc_latency, loads by memory level from
 * spe_record, then the instructions (Capstone over the binary's bytes, or
 * the sampled ones the database holds) and the source lines they sit on.
 */
#define _GNU_SOURCE /* asprintf */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "source_file.h"
#include "spe/analysis.h"
#include "util/grow.h"

#define MAX_CODE_BYTES (256u << 10)  /* disassemble at most this much of one function */
#define MAX_CONTEXT_LINES 400        /* show every line of the range when it is no longer than this */

enum { KEY_INSN = 0, KEY_LINE = 1, KEY_TOTAL = 2 };

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

double report_ann_share(const struct ann_function *f, const struct ann_stats *s)
{
	return f->total.lat.total_latency ? (double)s->lat.total_latency / (double)f->total.lat.total_latency : 0;
}

double report_ann_mean(const struct ann_stats *s)
{
	return s->lat.timed ? (double)s->lat.total_latency / (double)s->lat.timed : -1;
}

int report_ann_levels_order(const uint64_t levels[MEM_LEVELS + 1], int order[MEM_LEVELS + 1])
{
	int n = 0;
	for (int v = 0; v <= MEM_LEVELS; v++) {
		if (!levels[v])
			continue;
		int k = n++;
		for (; k > 0 && levels[order[k - 1]] < levels[v]; k--)
			order[k] = order[k - 1];
		order[k] = v;
	}
	return n;
}

void report_ann_levels_text(const uint64_t levels[MEM_LEVELS + 1], char *buf, size_t cap)
{
	int order[MEM_LEVELS + 1], n = report_ann_levels_order(levels, order);
	size_t len = 0;
	buf[0] = '\0';
	for (int k = 0; k < n && len < cap; k++)
		len += (size_t)snprintf(buf + len, cap - len, "%s%s %llu", k ? ", " : "", report_mem_level_label(order[k]),
					(unsigned long long)levels[order[k]]);
}

static int64_t group_of(struct ann_function *f, uint64_t kind, uint64_t id)
{
	struct latency_key k = { { kind, id, 0 } };
	return ana_latency_group_of(&f->groups, &k);
}

static int add_latency(struct ann_function *f, int64_t group, long long latency, uint64_t count)
{
	int32_t lat = latency < 0 ? LATENCY_NONE : latency > 65535 ? 65535 : (int32_t)latency;
	if (group < 0 || ana_latency_hist_map_add(&f->groups, (uint32_t)group, lat, count) < 0)
		return -spe_nomem;
	return 0;
}

/* The function's copies: symbol ids and runtime starts, its extent and mapping. */
static int load_copies(struct report_ctx *c, const struct ann_key *k, struct ann_function *f)
{
	struct rq q;
	int rc = report_rq_begin(c, &q, RQ_FUNCTION_COPIES);
	if (rc == 0) {
		report_rq_bind_text(&q, 1, k->name);
		if (k->binary)
			report_rq_bind_text(&q, 2, k->binary);
	}
	while (rc == 0 && (rc = report_rq_next(&q)) == 1) {
		rc = 0;
		long long *ids = realloc(f->ids, (f->nids + 1) * sizeof *ids);
		uint64_t *starts = ids ? realloc(f->starts, (f->nids + 1) * sizeof *starts) : NULL;
		if (ids)
			f->ids = ids;
		if (!ids || !starts) {
			rc = report_fail(c, -spe_nomem, "out of memory");
			break;
		}
		f->starts = starts;
		f->ids[f->nids] = report_rq_int(&q, 0);
		f->starts[f->nids] = (uint64_t)report_rq_int(&q, 1);
		uint64_t size = (uint64_t)report_rq_int(&q, 2);
		if (size > f->size)
			f->size = size;
		if (f->nids == 0) {
			f->start = f->starts[0];
			f->decl_file = dup_or_null(report_rq_text(&q, 3));
			f->decl_line = (int)report_rq_int(&q, 4);
			f->build_id = dup_or_null(report_rq_text(&q, 6));
			f->map_start = (uint64_t)report_rq_int(&q, 7);
			f->map_pgoff = (uint64_t)report_rq_int(&q, 8);
		}
		f->nids++;
	}
	report_rq_end(&q);
	f->copies = (int)f->nids;
	return rc < 0 ? rc : 0;
}

/* Which function and copy a symbol id belongs to. */
static int owner(struct ann_function *fs, size_t n, long long id, uint64_t *start)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < fs[i].nids; j++)
			if (fs[i].ids[j] == id) {
				*start = fs[i].starts[j];
				return (int)i;
			}
	return -1;
}

static char *all_ids(struct ann_function *fs, size_t n, int only_code)
{
	size_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += !only_code || fs[i].want_code ? fs[i].nids : 0;
	long long *v = malloc((total + 1) * sizeof *v);
	if (!v)
		return NULL;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; (!only_code || fs[i].want_code) && j < fs[i].nids; j++)
			v[k++] = fs[i].ids[j];
	char *s = report_json_int_array(v, k);
	free(v);
	return s;
}

/*
 * Run query @p id over the symbol ids @p ids (its first two columns are
 * symbol_id and pc) and hand each row to @p row with the function it belongs
 * to, its index and the pc's offset from the function start.
 */
typedef int (*row_fn)(struct report_ctx *c, struct ann_function *f, size_t index, uint64_t offset, struct rq *q,
		      void *arg);

static int scan(struct report_ctx *c, enum report_query id, struct ann_function *fs, size_t n, const char *ids,
		row_fn row, void *arg)
{
	struct rq q;
	int rc = report_rq_begin(c, &q, id);
	if (rc == 0)
		report_rq_bind_ids(&q, 1, ids);
	while (rc == 0 && (rc = report_rq_next(&q)) == 1) {
		uint64_t start;
		int i = owner(fs, n, report_rq_int(&q, 0), &start);
		rc = i < 0 ? 0 : row(c, &fs[i], (size_t)i, (uint64_t)report_rq_int(&q, 1) - start, &q, arg);
	}
	report_rq_end(&q);
	return rc < 0 ? rc : 0;
}

/* A row of RQ_PC_LATENCY_BY_SYMBOL: (symbol_id, pc, total_latency, samples). */
static int latency_row(struct report_ctx *c, struct ann_function *f, size_t index, uint64_t offset, struct rq *q,
		       void *arg)
{
	(void)index;
	(void)arg;
	long long lat = report_rq_null(q, 2) ? -1 : report_rq_int(q, 2);
	if (add_latency(f, group_of(f, KEY_INSN, offset), lat, (uint64_t)report_rq_int(q, 3)))
		return report_fail(c, -spe_nomem, "out of memory");
	return 0;
}

/* A row of RQ_LEVELS_BY_SYMBOL: (symbol_id, pc, mem_level, loads). */
static int level_row(struct report_ctx *c, struct ann_function *f, size_t index, uint64_t offset, struct rq *q,
		     void *arg)
{
	(void)index;
	(void)arg;
	struct lvl *grown = util_grow(f->lvls, &f->caplvls, f->nlvls + 1, sizeof *grown);
	if (!grown)
		return report_fail(c, -spe_nomem, "out of memory");
	f->lvls = grown;
	struct lvl *l = &f->lvls[f->nlvls++];
	*l = (struct lvl){ .offset = offset, .level = report_mem_level_index(report_rq_text(q, 2)),
			   .count = (uint64_t)report_rq_int(q, 3) };
	/* a function's total counts every load, with or without an instruction row */
	f->total.levels[l->level] += l->count;
	return 0;
}

static struct ann_insn *new_insn(struct ann_function *f, size_t *cap)
{
	struct ann_insn *v = util_grow(f->insns, cap, f->ninsns + 1, sizeof *v);
	if (!v)
		return NULL;
	f->insns = v;
	struct ann_insn *in = &f->insns[f->ninsns++];
	memset(in, 0, sizeof *in);
	in->line_index = -1;
	return in;
}

/* Every instruction of the function, from the binary: 0, 1 when the binary cannot be read (the note says why). */
static int disassemble(struct report_ctx *c, struct ann_function *f, struct spe_symbolizer *sym,
		       struct spe_disasm *dis, size_t *cap)
{
	struct spe_sym_binary *bin = f->binary ? spe_sym_binary(sym, f->binary, f->build_id) : NULL;
	uint64_t vaddr;
	if (!bin) {
		f->code_note = strdup("the binary was not found (give --symfs)");
		return 1;
	}
	if (f->size == 0 || spe_sym_offset_to_vaddr(bin, f->start - f->map_start + f->map_pgoff, &vaddr) != 0) {
		f->code_note = strdup("the function's extent in the binary is unknown");
		return 1;
	}
	size_t len = f->size < MAX_CODE_BYTES ? (size_t)f->size : MAX_CODE_BYTES;
	uint8_t *code = malloc(len);
	if (!code)
		return report_fail(c, -spe_nomem, "out of memory");
	size_t got = spe_sym_read_code(bin, vaddr, code, len) & ~(size_t)3;
	if (got == 0) {
		free(code);
		f->code_note = strdup("the function's bytes could not be read from the binary");
		return 1;
	}
	for (size_t off = 0; off < got; off += 4) {
		struct ann_insn *in = new_insn(f, cap);
		if (!in) {
			free(code);
			return report_fail(c, -spe_nomem, "out of memory");
		}
		in->offset = off;
		in->pc = f->start + off;
		spe_disasm_one(dis, code + off, in->pc, in->mnemonic, sizeof in->mnemonic, in->operands,
			       sizeof in->operands);
		struct spe_sym_result r;
		if (spe_sym_lookup(bin, vaddr + off, &r)) {
			in->file = dup_or_null(r.file);
			in->line = r.line;
			in->inline_fn = dup_or_null(r.inline_function);
		}
	}
	free(code);
	f->disassembled = 1;
	return 0;
}

static int find_insn(const struct ann_function *f, uint64_t offset)
{
	size_t lo = 0, hi = f->ninsns;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->insns[mid].offset < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < f->ninsns && f->insns[lo].offset == offset ? (int)lo : -1;
}

static int by_offset(const void *a, const void *b)
{
	const struct ann_insn *x = a, *y = b;
	return (x->offset > y->offset) - (x->offset < y->offset);
}

/*
 * The sampled instructions the database holds (spe-load disassembled and
 * placed them): all there is without the binary, and any sampled offset
 * the disassembly did not cover.  A row of RQ_INSN_BY_SYMBOL: (symbol_id,
 * pc, mnemonic, operands, file, line, inline_function).
 */
static int stored_insn_row(struct report_ctx *c, struct ann_function *f, size_t index, uint64_t offset,
			   struct rq *q, void *arg)
{
	size_t *caps = arg;
	for (size_t k = 0; k < f->ninsns; k++) /* the disassembly is sorted; the rest is short */
		if (f->insns[k].offset == offset)
			return 0;
	struct ann_insn *in = new_insn(f, &caps[index]);
	if (!in)
		return report_fail(c, -spe_nomem, "out of memory");
	in->offset = offset;
	in->pc = f->start + offset;
	snprintf(in->mnemonic, sizeof in->mnemonic, "%s", report_rq_text(q, 2) ? report_rq_text(q, 2) : "?");
	snprintf(in->operands, sizeof in->operands, "%s", report_rq_text(q, 3) ? report_rq_text(q, 3) : "");
	in->file = dup_or_null(report_rq_text(q, 4));
	in->line = (int)report_rq_int(q, 5);
	in->inline_fn = dup_or_null(report_rq_text(q, 6));
	return 0;
}

static int add_stored_insns(struct report_ctx *c, struct ann_function *fs, size_t n, size_t *caps)
{
	char *ids = all_ids(fs, n, 1);
	if (!ids)
		return report_fail(c, -spe_nomem, "out of memory");
	int rc = scan(c, RQ_INSN_BY_SYMBOL, fs, n, ids, stored_insn_row, caps);
	free(ids);
	return rc;
}

/* Statistics of group @p g (none: zeros, percentiles -1). */
static int fill_stats(struct ann_function *f, int64_t g, struct ann_stats *s)
{
	memset(&s->lat, 0, sizeof s->lat);
	s->lat.p50 = s->lat.p90 = s->lat.p99 = -1;
	memset(s->buckets, 0, sizeof s->buckets);
	if (g < 0)
		return 0;
	struct latency_hist *h = &ana_latency_group(&f->groups, g)->hist;
	uint64_t *scratch = malloc((h->n + 1) * sizeof *scratch);
	if (!scratch)
		return -spe_nomem;
	ana_latency_hist_stats(h, scratch, &s->lat);
	free(scratch);
	LATENCY_HIST_FOREACH(h, i)
	{
		int32_t lat = latency_slot_latency(h->slots[i]);
		if (lat != LATENCY_NONE)
			s->buckets[report_latency_bucket(lat)] += latency_slot_count(h->slots[i]);
	}
	return 0;
}

/* Add group @p from's counts to group @p to. */
static int merge_group(struct ann_function *f, int64_t from, int64_t to)
{
	if (from < 0)
		return 0;
	if (to < 0)
		return -spe_nomem;
	/* copy first: adding may grow the group array */
	struct latency_hist *h = &ana_latency_group(&f->groups, from)->hist;
	uint32_t n = 0;
	uint64_t *slots = malloc((h->n + 1) * sizeof *slots);
	if (!slots)
		return -spe_nomem;
	LATENCY_HIST_FOREACH(h, i)
	slots[n++] = h->slots[i];
	int rc = 0;
	for (uint32_t i = 0; i < n && rc == 0; i++)
		rc = ana_latency_hist_map_add(&f->groups, (uint32_t)to, latency_slot_latency(slots[i]),
					latency_slot_count(slots[i])) < 0 ? -spe_nomem : 0;
	free(slots);
	return rc;
}

static int same(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

static struct ann_line *add_line(struct ann_function *f, size_t *cap, const char *file, int line)
{
	struct ann_line *v = util_grow(f->lines, cap, f->nlines + 1, sizeof *v);
	if (!v)
		return NULL;
	f->lines = v;
	struct ann_line *l = &f->lines[f->nlines++];
	memset(l, 0, sizeof *l);
	l->file = strdup(file);
	l->line = line;
	return l->file ? l : NULL;
}

static int by_file_line(const void *a, const void *b)
{
	const struct ann_line *x = a, *y = b;
	int d = strcmp(x->file, y->file);
	return d ? d : (x->line > y->line) - (x->line < y->line);
}

/*
 * The lines: the function's own file over its whole range (blank and
 * comment lines too, for context; only lines with code when the range is
 * long), then the lines of other files its code came from, each file in
 * line order.
 */
static int build_lines(struct ann_function *f)
{
	const char *main_file = f->decl_file;
	int lo = f->decl_line > 0 ? f->decl_line : 0, hi = lo;
	for (size_t i = 0; i < f->ninsns; i++) {
		const struct ann_insn *in = &f->insns[i];
		if (!in->file || in->line <= 0)
			continue;
		if (!main_file)
			main_file = in->file;
		if (same(in->file, main_file)) {
			if (lo == 0 || in->line < lo)
				lo = in->line;
			if (in->line > hi)
				hi = in->line;
		}
	}
	size_t cap = 0;
	int range = main_file && lo > 0 && hi - lo < MAX_CONTEXT_LINES;
	for (int l = lo; range && l <= hi; l++)
		if (!add_line(f, &cap, main_file, l))
			return -spe_nomem;
	size_t first_other = f->nlines;
	for (size_t i = 0; i < f->ninsns; i++) {
		const struct ann_insn *in = &f->insns[i];
		if (!in->file || in->line <= 0 || (range && same(in->file, main_file)))
			continue;
		int seen = 0;
		for (size_t k = range ? first_other : 0; k < f->nlines && !seen; k++)
			seen = f->lines[k].line == in->line && same(f->lines[k].file, in->file);
		if (!seen && !add_line(f, &cap, in->file, in->line))
			return -spe_nomem;
	}
	if (range) {
		/* the main file first, then the others by name */
		qsort(f->lines + first_other, f->nlines - first_other, sizeof *f->lines, by_file_line);
	} else if (f->nlines) { /* (none: f->lines is NULL, which qsort may not be given) */
		qsort(f->lines, f->nlines, sizeof *f->lines, by_file_line);
	}
	for (size_t i = 0; i < f->ninsns; i++) {
		struct ann_insn *in = &f->insns[i];
		for (size_t k = 0; in->file && k < f->nlines; k++)
			if (f->lines[k].line == in->line && same(f->lines[k].file, in->file)) {
				in->line_index = (int)k;
				break;
			}
	}
	return 0;
}

static int line_stats(struct ann_function *f)
{
	for (size_t k = 0; k < f->nlines; k++) {
		struct ann_line *l = &f->lines[k];
		int all_inlined = 1;
		const char *inl = NULL;
		for (size_t i = 0; i < f->ninsns; i++) {
			struct ann_insn *in = &f->insns[i];
			if (in->line_index != (int)k)
				continue;
			l->code++;
			if (!in->inline_fn || (inl && strcmp(inl, in->inline_fn)))
				all_inlined = 0;
			inl = in->inline_fn;
			int rc = merge_group(f, group_of(f, KEY_INSN, in->offset), group_of(f, KEY_LINE, k));
			if (rc)
				return rc;
			for (int v = 0; v <= MEM_LEVELS; v++)
				l->s.levels[v] += in->s.levels[v];
		}
		if (l->code && all_inlined && inl && !(l->inline_fn = strdup(inl)))
			return -spe_nomem;
		int rc = fill_stats(f, group_of(f, KEY_LINE, k), &l->s);
		if (rc)
			return rc;
	}
	return 0;
}

static void read_source(struct report_ctx *c, struct ann_function *f)
{
	if (!f->nlines)
		return;
	struct source_file src = { 0 };
	const char *open_name = NULL;
	for (size_t k = 0; k < f->nlines; k++) {
		struct ann_line *l = &f->lines[k];
		if (!open_name || strcmp(open_name, l->file)) {
			report_source_file_close(&src);
			open_name = l->file;
			enum source_result r = report_source_file_open(l->file, c->o.symfs, c->o.source_dirs, &src);
			if (r != SOURCE_READ) {
				if (!f->source_note &&
				    asprintf(&f->source_note, "%s: %s", l->file, report_source_result_text(r)) < 0)
					f->source_note = NULL;
				c->sources_not_read += r == SOURCE_REFUSED;
				continue;
			}
			if (!f->source_path && k == 0)
				f->source_path = strdup(src.path);
		}
		if (src.text) {
			const char *t = report_source_file_line(&src, l->line);
			l->text = t ? strdup(t) : NULL;
		}
	}
	report_source_file_close(&src);
}

/* After the scans: instructions with their statistics, lines, totals. */
static int finish(struct report_ctx *c, struct ann_function *f)
{
	int rc;
	if (f->ninsns)
		qsort(f->insns, f->ninsns, sizeof *f->insns, by_offset);
	for (size_t i = 0; i < f->ninsns; i++)
		if ((rc = fill_stats(f, group_of(f, KEY_INSN, f->insns[i].offset), &f->insns[i].s)))
			return report_fail(c, rc, "out of memory");
	for (size_t k = 0; k < f->nlvls; k++) {
		int i = find_insn(f, f->lvls[k].offset);
		if (i >= 0)
			f->insns[i].s.levels[f->lvls[k].level] += f->lvls[k].count;
	}
	/* the total over every offset (sampled ones outside the instructions too) */
	int64_t total = group_of(f, KEY_TOTAL, 0);
	for (uint32_t g = 0; g < ana_latency_hist_map_n(&f->groups) && total >= 0; g++)
		if (ana_latency_group(&f->groups, g)->key.w[0] == KEY_INSN && (rc = merge_group(f, g, total)))
			return report_fail(c, rc, "out of memory");
	uint64_t levels[MEM_LEVELS + 1];
	memcpy(levels, f->total.levels, sizeof levels);
	if ((rc = fill_stats(f, total, &f->total)))
		return report_fail(c, rc, "out of memory");
	memcpy(f->total.levels, levels, sizeof levels);
	if (f->want_code) {
		if ((rc = build_lines(f)) || (rc = line_stats(f)))
			return report_fail(c, rc, "out of memory");
		read_source(c, f);
	}
	return 0;
}

int report_ann_load(struct report_ctx *c, const struct ann_key *keys, size_t n, struct ann_function *out)
{
	memset(out, 0, n * sizeof *out);
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		out[i].name = strdup(keys[i].name);
		out[i].binary = dup_or_null(keys[i].binary);
		out[i].want_code = keys[i].want_code;
		if (!out[i].name || (keys[i].binary && !out[i].binary))
			return report_fail(c, -spe_nomem, "out of memory");
		rc = load_copies(c, &keys[i], &out[i]);
	}
	char *ids = rc ? NULL : all_ids(out, n, 0);
	if (rc == 0 && !ids)
		rc = report_fail(c, -spe_nomem, "out of memory");
	if (rc == 0)
		rc = scan(c, RQ_PC_LATENCY_BY_SYMBOL, out, n, ids, latency_row, NULL);
	if (rc == 0)
		rc = scan(c, RQ_LEVELS_BY_SYMBOL, out, n, ids, level_row, NULL);
	free(ids);

	size_t *caps = calloc(n + 1, sizeof *caps);
	struct spe_sym_opts so = { .symfs = c->o.symfs };
	struct spe_symbolizer *sym = NULL;
	struct spe_disasm *dis = NULL;
	if (rc == 0 && !caps)
		rc = report_fail(c, -spe_nomem, "out of memory");
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (!out[i].want_code || !out[i].nids)
			continue;
		if (!sym && (!(sym = spe_sym_new(&so)) || !(dis = spe_disasm_new()))) {
			rc = report_fail(c, -spe_nomem, "cannot start the symbolizer or disassembler");
			break;
		}
		rc = disassemble(c, &out[i], sym, dis, &caps[i]);
		if (rc > 0)
			rc = 0; /* the stored instructions stand in */
	}
	if (rc == 0)
		rc = add_stored_insns(c, out, n, caps);
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = finish(c, &out[i]);
	spe_disasm_free(dis);
	spe_sym_free(sym);
	free(caps);
	return rc;
}

void report_ann_fini(struct ann_function *f)
{
	for (size_t i = 0; i < f->ninsns; i++) {
		free(f->insns[i].file);
		free(f->insns[i].inline_fn);
	}
	for (size_t k = 0; k < f->nlines; k++) {
		free(f->lines[k].file);
		free(f->lines[k].text);
		free(f->lines[k].inline_fn);
	}
	free(f->insns);
	free(f->lines);
	free(f->name);
	free(f->binary);
	free(f->decl_file);
	free(f->code_note);
	free(f->source_path);
	free(f->source_note);
	free(f->ids);
	free(f->starts);
	free(f->build_id);
	free(f->lvls);
	ana_latency_hist_map_fini(&f->groups);
	memset(f, 0, sizeof *f);
}
