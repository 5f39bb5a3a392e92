/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Folded stacks, the input of flamegraph.pl, inferno and speedscope: one line
 * per distinct stack, frames from the root to the leaf joined by ';', then a
 * space and the weight.  The frames of a record are
 *
 *     mapping;function;inlined...;file:line;+offset insn[;mem_level]
 *
 * (the mapped file's base name, the containing function, the inlined
 * functions outermost first, the PC's source line, the instruction at its
 * offset in the function, and with --split=mem_level the level that served
 * the access).  The weight is the total latency in cycles, or the number of
 * records with --weight=samples; stacks of weight 0 are left out.  Lines are
 * sorted, so the output of one database is always the same.
 */
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"

struct folded_key {
	int64_t mapping_id, pc, mem_level;
};
AGG_WORDS(struct folded_key);

struct folded_val {
	uint64_t weight;
};
AGG_WORDS(struct folded_val);

struct folded_scan {
	struct export_ctx *x;
	struct agg agg;
};

static int folded_row(void *arg, const struct export_row *r)
{
	struct folded_scan *s = arg;
	if (r->pc == EXPORT_NULL) {
		s->x->stats->skipped++;
		return 0;
	}
	struct folded_key k;
	memset(&k, 0, sizeof k);
	k.mapping_id = r->mapping_id;
	k.pc = r->pc;
	k.mem_level = s->x->opts->split_mem_level ? r->mem_level : -1;
	struct folded_val *v = export_agg_upsert(&s->agg, &k);
	if (!v)
		return export_fail(s->x, -spe_nomem, "out of memory");
	if (s->x->opts->weight == SPE_EXPORT_WEIGHT_SAMPLES)
		v->weight++;
	else if (r->latency[0] != EXPORT_NULL && r->latency[0] > 0)
		v->weight = export_add_u64(s->x, v->weight, (uint64_t)r->latency[0]);
	s->x->stats->written++;
	return 0;
}

/* Append @p s to the line, ';' and line breaks replaced (they would split frames or lines). */
static void put_frame(char *line, size_t size, size_t *len, const char *s)
{
	if (*len && *len < size - 1)
		line[(*len)++] = ';';
	for (; *s && *len < size - 1; s++)
		line[(*len)++] = *s == ';' ? ':' : (*s == '\n' || *s == '\r') ? ' ' : *s;
	line[*len] = 0;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash && slash[1] ? slash + 1 : path;
}

static void stack_text(const struct code_loc *l, int mem_level, char *line, size_t size)
{
	char buf[1024];
	size_t len = 0;
	line[0] = 0;
	put_frame(line, size, &len, l->map && l->map->path ? base_name(l->map->path) : "[unknown]");
	if (l->n == 0) {
		put_frame(line, size, &len, "[unknown]");
	} else {
		for (int i = l->n - 1; i >= 0; i--)
			put_frame(line, size, &len, l->frame[i].function ? l->frame[i].function : "[unknown]");
		if (l->frame[0].file && l->frame[0].line > 0) {
			snprintf(buf, sizeof buf, "%s:%d", l->frame[0].file, l->frame[0].line);
			put_frame(line, size, &len, buf);
		}
	}
	int n;
	if (l->function_start && l->pc >= l->function_start)
		n = snprintf(buf, sizeof buf, "+0x%llx", (unsigned long long)(l->pc - l->function_start));
	else
		n = snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)l->pc);
	if (l->mnemonic && n > 0 && (size_t)n < sizeof buf)
		snprintf(buf + n, sizeof buf - (size_t)n, " %s%s%s", l->mnemonic, l->operands && *l->operands ? " " : "",
			 l->operands ? l->operands : "");
	put_frame(line, size, &len, buf);
	if (mem_level >= 0 && (size_t)mem_level < export_n_mem_levels)
		put_frame(line, size, &len, export_mem_level_names[mem_level]);
}

struct folded_line {
	char *text;
	uint64_t weight;
};

static int by_text(const void *a, const void *b)
{
	return strcmp(((const struct folded_line *)a)->text, ((const struct folded_line *)b)->text);
}

int export_folded(struct export_ctx *x, FILE *out)
{
	struct folded_scan s = { .x = x };
	export_agg_init(&s.agg, sizeof(struct folded_key), sizeof(struct folded_val));
	unsigned cols = EXPORT_COL_LATENCY | (x->opts->split_mem_level ? EXPORT_COL_LABELS : 0);
	int rc = export_scan(x, NULL, cols, folded_row, &s);
	struct code_locs *locs = rc == 0 ? export_code_locs_new(x, CODE_LOC_DB) : NULL;
	const void **keys = locs ? export_agg_keys(&s.agg) : NULL;
	struct folded_line *lines = keys ? calloc(s.agg.n + 1, sizeof *lines) : NULL;
	if (rc == 0 && (!locs || !keys || !lines))
		rc = locs ? export_fail(x, -spe_nomem, "out of memory") : -spe_io;
	size_t n = 0;
	char text[8192];
	for (size_t i = 0; rc == 0 && i < s.agg.n; i++) {
		const struct folded_key *k = keys[i];
		const struct folded_val *v = agg_value(&s.agg, k);
		if (!v->weight)
			continue;
		const struct code_loc *l;
		if ((rc = export_code_loc_get(locs, k->mapping_id, (uint64_t)k->pc, &l)) < 0)
			break;
		stack_text(l, (int)k->mem_level, text, sizeof text);
		lines[n].weight = v->weight;
		if (!(lines[n++].text = strdup(text)))
			rc = export_fail(x, -spe_nomem, "out of memory");
	}
	if (rc == 0)
		qsort(lines, n, sizeof *lines, by_text);
	/* two PCs can print the same stack (one binary mapped by two processes): add them up */
	for (size_t i = 0; rc == 0 && i < n;) {
		uint64_t w = lines[i].weight;
		size_t j = i + 1;
		while (j < n && !strcmp(lines[j].text, lines[i].text))
			w = export_add_u64(x, w, lines[j++].weight);
		rc = export_printf(x, out, "%s %llu\n", lines[i].text, (unsigned long long)w);
		x->stats->locations++;
		i = j;
	}
	for (size_t i = 0; lines && i < n; i++)
		free(lines[i].text);
	free(lines);
	free(keys);
	export_code_locs_free(locs);
	export_agg_free(&s.agg);
	return rc;
}
