/* SPDX-License-Identifier: Apache-2.0 */
/*
 * AutoFDO's text profile (LLVM's sample profile text format, what
 * create_llvm_prof writes and clang -fprofile-sample-use / llvm-profdata
 * read), for one binary:
 *
 *     function:TOTAL:HEAD
 *      OFFSET: COUNT [callee:COUNT ...]     a source line of the function
 *      OFFSET: inlined_callee:TOTAL          a call site inlined here, then
 *       OFFSET: COUNT                        its lines, one space deeper
 *
 * OFFSET is the line minus the function's DWARF declaration line; names are
 * the linkage names (DW_AT_linkage_name, else DW_AT_name).  Where a line
 * comes from inlined code, the frames of the binary's DWARF place it under
 * the call sites, outermost function first.
 *
 * Execution counts come from the records of the binary in one of two ways:
 *   - with previous-branch targets (FEAT_SPE_PBT): each branch record says
 *     the code from its PBT to its PC ran once, as one LBR pair does for
 *     create_llvm_prof; every instruction of that range counts 1, and a
 *     line counts as often as its most executed instruction;
 *   - without: each record is one sample of the instruction at its PC (SPE
 *     samples operations evenly), and a line counts its instructions' samples.
 * Taken branches to a function's first instruction are calls: the callee's
 * count on the calling line, and the callee's HEAD.
 */
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"

#define MAX_RANGE 65536 /* as bolt.c: a longer "straight line" is not one */

struct afdo_target {
	const char *name;
	uint64_t count;
};

struct afdo_line {
	uint32_t offset;
	uint64_t count;
	struct afdo_target *targets;
	size_t n_targets;
};

struct afdo_node;
struct afdo_site {
	uint32_t offset;
	struct afdo_node *callee;
};

struct afdo_node {
	const char *name;
	uint64_t total, head;
	struct afdo_line *lines;
	size_t n_lines;
	struct afdo_site *sites;
	size_t n_sites;
};

struct afdo {
	struct export_ctx *x;
	struct export_binary bin;
	struct util_map ip;     /* vaddr -> records */
	struct util_map ranges; /* {start, end} -> records */
	struct util_map calls;  /* {from, to} -> records */
	struct util_map tops;   /* name pointer -> struct afdo_node * */
	int oom;
};

struct pair_key {
	uint64_t a, b;
};
AGG_WORDS(struct pair_key);

static int count(struct afdo *f, struct util_map *a, const void *key, uint64_t n)
{
	uint64_t *v = util_map_put(a, key);
	if (!v)
		return export_fail(f->x, -spe_nomem, "out of memory");
	*v += n;
	return 0;
}

static int afdo_row(void *arg, const struct export_row *r)
{
	struct afdo *f = arg;
	struct export_ctx *x = f->x;
	uint64_t pc, to, pbt;
	if (r->pc == EXPORT_NULL || export_binary_vaddr(x, &f->bin, r->source_id, r->pid, (uint64_t)r->pc, &pc) != 0) {
		x->stats->skipped++;
		return 0;
	}
	int rc = count(f, &f->ip, &pc, 1);
	int branch = r->op_class == SPE_OP_CLASS_BRANCH;
	int taken = !(r->events != EXPORT_NULL && ((uint64_t)r->events >> SPE_EV_NOT_TAKEN & 1));
	if (rc == 0 && branch && r->prev_branch_target != EXPORT_NULL &&
	    export_binary_vaddr(x, &f->bin, r->source_id, r->pid, (uint64_t)r->prev_branch_target, &pbt) == 0 &&
	    pbt <= pc && pc - pbt < MAX_RANGE) {
		struct pair_key k = { pbt, pc };
		rc = count(f, &f->ranges, &k, 1);
	}
	if (rc == 0 && branch && taken && r->branch_target != EXPORT_NULL &&
	    export_binary_vaddr(x, &f->bin, r->source_id, r->pid, (uint64_t)r->branch_target, &to) == 0) {
		struct pair_key k = { pc, to };
		rc = count(f, &f->calls, &k, 1);
	}
	x->stats->written++;
	return rc;
}

/* ---- the profile tree ---------------------------------------------------------------- */

static struct afdo_node *new_node(struct afdo *f, const char *name)
{
	struct afdo_node *n = calloc(1, sizeof *n);
	if (!n)
		f->oom = 1;
	else
		n->name = name;
	return n;
}

static void free_node(struct afdo_node *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->n_lines; i++)
		free(n->lines[i].targets);
	for (size_t i = 0; i < n->n_sites; i++)
		free_node(n->sites[i].callee);
	free(n->lines);
	free(n->sites);
	free(n);
}

static struct afdo_node *top(struct afdo *f, const char *name)
{
	struct afdo_node **slot = util_map_put(&f->tops, &name);
	if (!slot) {
		f->oom = 1;
		return NULL;
	}
	if (!*slot)
		*slot = new_node(f, name);
	return *slot;
}

static struct afdo_line *line_of(struct afdo *f, struct afdo_node *n, uint32_t offset)
{
	for (size_t i = n->n_lines; i-- > 0;)
		if (n->lines[i].offset == offset)
			return &n->lines[i];
	struct afdo_line *lines = realloc(n->lines, (n->n_lines + 1) * sizeof *lines);
	if (!lines) {
		f->oom = 1;
		return NULL;
	}
	n->lines = lines;
	memset(&lines[n->n_lines], 0, sizeof *lines);
	lines[n->n_lines].offset = offset;
	return &lines[n->n_lines++];
}

static struct afdo_node *site_of(struct afdo *f, struct afdo_node *n, uint32_t offset, const char *callee)
{
	for (size_t i = 0; i < n->n_sites; i++)
		if (n->sites[i].offset == offset && n->sites[i].callee->name == callee)
			return n->sites[i].callee;
	struct afdo_site *sites = realloc(n->sites, (n->n_sites + 1) * sizeof *sites);
	if (!sites) {
		f->oom = 1;
		return NULL;
	}
	n->sites = sites;
	struct afdo_node *c = new_node(f, callee);
	if (!c)
		return NULL;
	sites[n->n_sites].offset = offset;
	sites[n->n_sites++].callee = c;
	return c;
}

static const char *frame_name(struct afdo *f, const struct spe_sym_frame *fr)
{
	int oom = 0;
	const char *s = export_strtab_intern(&f->x->strings, fr->linkage_name ? fr->linkage_name : fr->function, &oom);
	f->oom |= oom;
	return s;
}

/* The line of the innermost frame at @p vaddr, in the tree (NULL when DWARF has no frames there). */
static struct afdo_line *line_at(struct afdo *f, uint64_t vaddr)
{
	struct spe_sym_frame fr[EXPORT_MAX_FRAMES];
	int n = spe_sym_frames(f->bin.bin, vaddr, fr, EXPORT_MAX_FRAMES);
	if (n <= 0 || !fr[n - 1].function)
		return NULL;
	struct afdo_node *node = top(f, frame_name(f, &fr[n - 1]));
	for (int k = n - 1; node && k >= 0; k--) {
		if (!fr[k].function || fr[k].line < fr[k].decl_line || !fr[k].decl_line)
			return NULL; /* no offset to give it */
		uint32_t offset = (uint32_t)(fr[k].line - fr[k].decl_line);
		if (k == 0)
			return line_of(f, node, offset);
		node = fr[k - 1].function ? site_of(f, node, offset, frame_name(f, &fr[k - 1])) : NULL;
	}
	return NULL;
}

static int add_target(struct afdo *f, struct afdo_line *l, const char *name, uint64_t n)
{
	for (size_t i = 0; i < l->n_targets; i++)
		if (l->targets[i].name == name) {
			l->targets[i].count += n;
			return 0;
		}
	struct afdo_target *t = realloc(l->targets, (l->n_targets + 1) * sizeof *t);
	if (!t)
		return export_fail(f->x, -spe_nomem, "out of memory");
	l->targets = t;
	t[l->n_targets].name = name;
	t[l->n_targets++].count = n;
	return 0;
}

/* Per-instruction counts: from the ranges when there are any, else the PCs' samples. */
static int instruction_counts(struct afdo *f, struct util_map *out, int *from_ranges)
{
	*from_ranges = f->ranges.n > 0;
	const struct util_map *src = *from_ranges ? &f->ranges : &f->ip;
	const void **keys = export_agg_keys(src);
	if (!keys)
		return export_fail(f->x, -spe_nomem, "out of memory");
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < src->n; i++) {
		uint64_t n = *(const uint64_t *)agg_value(src, keys[i]);
		if (*from_ranges) {
			const struct pair_key *k = keys[i];
			for (uint64_t a = k->a; rc == 0 && a <= k->b; a += 4)
				rc = count(f, out, &a, n);
		} else {
			rc = count(f, out, keys[i], n);
		}
	}
	free(keys);
	return rc;
}

static int build(struct afdo *f)
{
	struct util_map insns;
	int from_ranges, rc;
	util_map_init(&insns, sizeof(uint64_t), sizeof(uint64_t));
	rc = instruction_counts(f, &insns, &from_ranges);
	const void **keys = rc == 0 ? export_agg_keys(&insns) : NULL;
	if (rc == 0 && !keys)
		rc = export_fail(f->x, -spe_nomem, "out of memory");
	for (size_t i = 0; rc == 0 && i < insns.n; i++) {
		uint64_t n = *(const uint64_t *)agg_value(&insns, keys[i]);
		struct afdo_line *l = line_at(f, *(const uint64_t *)keys[i]);
		if (!l)
			f->x->stats->no_dwarf += !f->oom;
		else if (from_ranges)
			l->count = n > l->count ? n : l->count; /* the line ran as often as its busiest instruction */
		else
			l->count += n;
		if (f->oom)
			rc = export_fail(f->x, -spe_nomem, "out of memory");
	}
	free(keys);
	util_map_fini(&insns);
	/* calls: a taken branch to the first instruction of a function */
	keys = rc == 0 ? export_agg_keys(&f->calls) : NULL;
	if (rc == 0 && !keys)
		rc = export_fail(f->x, -spe_nomem, "out of memory");
	for (size_t i = 0; rc == 0 && i < f->calls.n; i++) {
		const struct pair_key *k = keys[i];
		uint64_t n = *(const uint64_t *)agg_value(&f->calls, k);
		struct spe_sym_frame callee;
		if (spe_sym_frames(f->bin.bin, k->b, &callee, 1) != 1 || !callee.function)
			continue;
		struct spe_sym_result sr;
		if (!spe_sym_lookup(f->bin.bin, k->b, &sr) || sr.function_start != k->b)
			continue; /* a jump inside a function, not a call */
		const char *name = frame_name(f, &callee);
		struct afdo_line *l = line_at(f, k->a);
		struct afdo_node *t = top(f, name);
		if (l && t) {
			rc = add_target(f, l, name, n);
			t->head += n;
		}
		if (rc == 0 && f->oom)
			rc = export_fail(f->x, -spe_nomem, "out of memory");
	}
	free(keys);
	return rc;
}

/* ---- output ------------------------------------------------------------------------------ */

static uint64_t total(struct afdo_node *n)
{
	n->total = 0;
	for (size_t i = 0; i < n->n_lines; i++)
		n->total += n->lines[i].count;
	for (size_t i = 0; i < n->n_sites; i++)
		n->total += total(n->sites[i].callee);
	return n->total;
}

static int by_offset(const void *a, const void *b)
{
	const struct afdo_line *x = a, *y = b;
	return (x->offset > y->offset) - (x->offset < y->offset);
}

static int by_site(const void *a, const void *b)
{
	const struct afdo_site *x = a, *y = b;
	if (x->offset != y->offset)
		return (x->offset > y->offset) - (x->offset < y->offset);
	return strcmp(x->callee->name, y->callee->name);
}

static int by_target(const void *a, const void *b)
{
	return strcmp(((const struct afdo_target *)a)->name, ((const struct afdo_target *)b)->name);
}

static int write_body(struct export_ctx *x, FILE *out, struct afdo_node *n, int depth)
{
	if (n->n_lines)
		qsort(n->lines, n->n_lines, sizeof *n->lines, by_offset);
	if (n->n_sites)
		qsort(n->sites, n->n_sites, sizeof *n->sites, by_site);
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n->n_lines; i++) {
		struct afdo_line *l = &n->lines[i];
		rc = export_printf(x, out, "%*s%u: %llu", depth, "", l->offset, (unsigned long long)l->count);
		if (l->n_targets)
			qsort(l->targets, l->n_targets, sizeof *l->targets, by_target);
		for (size_t j = 0; rc == 0 && j < l->n_targets; j++)
			rc = export_printf(x, out, " %s:%llu", l->targets[j].name, (unsigned long long)l->targets[j].count);
		if (rc == 0)
			rc = export_printf(x, out, "\n");
	}
	for (size_t i = 0; rc == 0 && i < n->n_sites; i++) {
		struct afdo_node *c = n->sites[i].callee;
		if (!c->total)
			continue;
		rc = export_printf(x, out, "%*s%u: %s:%llu\n", depth, "", n->sites[i].offset, c->name,
				   (unsigned long long)c->total);
		if (rc == 0)
			rc = write_body(x, out, c, depth + 1);
	}
	return rc;
}

/* llvm-profdata's order: the busiest function first, then by name */
static int by_total(const void *a, const void *b)
{
	const struct afdo_node *x = *(struct afdo_node *const *)a, *y = *(struct afdo_node *const *)b;
	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return strcmp(x->name, y->name);
}

int export_autofdo(struct export_ctx *x, FILE *out)
{
	struct afdo f = { .x = x };
	util_map_init(&f.ip, sizeof(uint64_t), sizeof(uint64_t));
	util_map_init(&f.ranges, sizeof(struct pair_key), sizeof(uint64_t));
	util_map_init(&f.calls, sizeof(struct pair_key), sizeof(uint64_t));
	util_map_init(&f.tops, sizeof(const char *), sizeof(struct afdo_node *));
	int rc = export_binary_select(x, &f.bin);
	if (rc < 0)
		return rc;
	char *cond = malloc(strlen(f.bin.id_list) + 32);
	if (!cond)
		rc = export_fail(x, -spe_nomem, "out of memory");
	else {
		sprintf(cond, "r.mapping_id IN %s", f.bin.id_list);
		rc = export_scan(x, cond, EXPORT_COL_LABELS | EXPORT_COL_BRANCH, afdo_row, &f);
	}
	free(cond);
	if (rc == 0)
		rc = build(&f);
	const void **keys = export_agg_keys(&f.tops);
	struct afdo_node **nodes = keys ? malloc((f.tops.n + 1) * sizeof *nodes) : NULL;
	if (rc == 0 && !nodes)
		rc = export_fail(x, -spe_nomem, "out of memory");
	for (size_t i = 0; nodes && i < f.tops.n; i++)
		nodes[i] = *(struct afdo_node **)agg_value(&f.tops, keys[i]);
	for (size_t i = 0; rc == 0 && i < f.tops.n; i++)
		total(nodes[i]);
	if (rc == 0)
		qsort(nodes, f.tops.n, sizeof *nodes, by_total);
	for (size_t i = 0; rc == 0 && i < f.tops.n; i++) {
		struct afdo_node *n = nodes[i];
		if (!n->total)
			continue; /* a callee seen only as a call target: its head count has no body to go with */
		rc = export_printf(x, out, "%s:%llu:%llu\n", n->name, (unsigned long long)n->total,
				   (unsigned long long)n->head);
		if (rc == 0)
			rc = write_body(x, out, n, 1);
		x->stats->locations++;
	}
	for (size_t i = 0; keys && i < f.tops.n; i++)
		free_node(*(struct afdo_node **)agg_value(&f.tops, keys[i]));
	free(nodes);
	free(keys);
	util_map_fini(&f.ip);
	util_map_fini(&f.ranges);
	util_map_fini(&f.calls);
	util_map_fini(&f.tops);
	export_binary_fini(&f.bin);
	return rc;
}
