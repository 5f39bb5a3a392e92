/* SPDX-License-Identifier: Apache-2.0 */
/* The loads of each PC by memory level (pc_level_tally.h). */
#include "pc_level_tally.h"

#include <stdlib.h>
#include <string.h>

#include "spe/spe.h" /* spe_nomem */
#include "util/grow.h"

int ana_pc_level_count(struct pc_level_tally *t, uint32_t group, unsigned level)
{
	if (util_grow_zeroed((void **)&t->groups, &t->cap, group, sizeof *t->groups) < 0)
		return -1;
	struct pc_levels *p = &t->groups[group];
	for (int i = 0; i < PC_LEVEL_INLINE; i++) {
		if (!p->loads[i]) {
			p->level[i] = (uint8_t)level;
			p->loads[i] = 1;
			return 0;
		}
		if (p->level[i] == level && p->loads[i] < UINT32_MAX) {
			p->loads[i]++;
			return 0;
		}
	}
	/* a fifth level of the PC (or a count past 32 bits): counted apart, added at the end */
	uint64_t key = (uint64_t)group << 5 | level;
	uint64_t *n = util_map_put(&t->more, &key);
	if (!n)
		return -1;
	(*n)++;
	return 0;
}

/* One (function, PC, level) count, to be written with its function's others. */
struct pc_level_row {
	int64_t symbol_id;
	uint64_t pc, loads;
	uint32_t level;
};

static int by_symbol(const void *a, const void *b)
{
	const struct pc_level_row *x = a, *y = b;
	return (x->symbol_id > y->symbol_id) - (x->symbol_id < y->symbol_id);
}

/* Group @p g's key if it has a function and a PC, else NULL. */
static const struct latency_key *with_function(const struct latency_hist_map *groups, size_t g)
{
	if (g >= ana_latency_hist_map_n(groups))
		return NULL;
	const struct latency_key *k = &ana_latency_group(groups, g)->key;
	return (k->w[2] >> 1) && (k->w[2] & 1) ? k : NULL;
}

static int push(struct pc_level_row **rows, size_t *n, size_t *cap, const struct latency_key *k, uint32_t level,
		uint64_t loads)
{
	struct pc_level_row *grown = util_grow(*rows, cap, *n + 1, sizeof **rows);
	if (!grown)
		return -1;
	*rows = grown;
	grown[(*n)++] = (struct pc_level_row){ (int64_t)(k->w[2] >> 1), k->w[0], loads, level };
	return 0;
}

/* The rows in function order: a radix sort of (index << 32 | function id) when the ids fit 32 bits, else qsort. */
static int sort_rows(struct pc_level_row **rows, size_t n)
{
	int64_t most = 0;
	for (size_t i = 0; i < n; i++)
		most = (*rows)[i].symbol_id > most ? (*rows)[i].symbol_id : most;
	if (most > UINT32_MAX || n > UINT32_MAX) {
		qsort(*rows, n, sizeof **rows, by_symbol);
		return 0;
	}
	uint64_t *keys = malloc(2 * n * sizeof *keys);
	struct pc_level_row *out = malloc(n * sizeof *out);
	if (!keys || !out) {
		free(keys);
		free(out);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		keys[i] = (uint64_t)i << 32 | (uint64_t)(*rows)[i].symbol_id;
	unsigned bits = 64 - (unsigned)__builtin_clzll((uint64_t)most | 1);
	const uint64_t *sorted = ana_radix_sort(keys, keys + n, n, bits);
	for (size_t i = 0; i < n; i++)
		out[i] = (*rows)[sorted[i] >> 32];
	free(keys);
	free(*rows);
	*rows = out;
	return 0;
}

/* @p v in decimal at @p p (room for 20 digits); returns the end. */
static char *put_u64(char *p, uint64_t v)
{
	char d[20];
	int k = 0;
	do
		d[k++] = (char)('0' + v % 10);
	while ((v /= 10));
	while (k)
		*p++ = d[--k];
	return p;
}

/*
 * A row per function: its counts sorted by function, each function's PCs as
 * offsets from its lowest (small numbers: fewer bytes, and a row where a
 * (PC, level) row each cost the load a SQLite insert apiece, 8 % more
 * instructions on gen_bench's many_pcs).  The JSON is written by hand:
 * printf's formatting cost as much as those inserts.
 */
int ana_pc_level_write(const struct pc_level_tally *t, const struct spe_row_sink *sink, int64_t source_id,
		       const struct latency_hist_map *groups)
{
	size_t n = 0, cap = 0;
	struct pc_level_row *rows = NULL;
	int rc = 0;
	for (size_t g = 0; g < t->cap && rc == 0; g++) {
		const struct latency_key *k = with_function(groups, g);
		for (int i = 0; k && i < PC_LEVEL_INLINE && t->groups[g].loads[i] && rc == 0; i++)
			rc = push(&rows, &n, &cap, k, t->groups[g].level[i], t->groups[g].loads[i]) < 0 ? -spe_nomem : 0;
	}
	/* the rest: another count of the same (PC, level) where one passed 32 bits; the query adds them up */
	for (size_t m = 0; m < t->more.n && rc == 0; m++) {
		uint64_t key = *(const uint64_t *)util_map_key(&t->more, m);
		const struct latency_key *k = with_function(groups, (size_t)(key >> 5));
		if (k)
			rc = push(&rows, &n, &cap, k, (uint32_t)(key & 31), *(const uint64_t *)util_map_value(&t->more, m)) < 0
				     ? -spe_nomem
				     : 0;
	}
	if (rc == 0 && n > 1 && sort_rows(&rows, n) < 0)
		rc = -spe_nomem;
	char *text = NULL;
	size_t text_cap = 0;
	for (size_t i = 0; i < n && rc == 0;) {
		size_t j = i;
		uint64_t base = rows[i].pc;
		for (; j < n && rows[j].symbol_id == rows[i].symbol_id; j++)
			base = rows[j].pc < base ? rows[j].pc : base;
		/* "[" then per count "[off,level,loads]," (at most 2 + 3 x 20 + 2 + 1 bytes), "]" and the NUL */
		char *grown = util_grow(text, &text_cap, (j - i) * 66 + 3, 1);
		if (!grown) {
			rc = -spe_nomem;
			break;
		}
		text = grown;
		char *p = text;
		*p++ = '[';
		for (size_t r = i; r < j; r++) {
			if (r > i)
				*p++ = ',';
			*p++ = '[';
			p = put_u64(p, rows[r].pc - base);
			*p++ = ',';
			p = put_u64(p, rows[r].level);
			*p++ = ',';
			p = put_u64(p, rows[r].loads);
			*p++ = ']';
		}
		*p++ = ']';
		*p = 0;
		struct spe_row_pc_level_stat row = { .source_id = source_id,
						     .symbol_id = rows[i].symbol_id,
						     .base_pc = base,
						     .loads = text };
		rc = spe_sink_rows(sink, &row, 1);
		i = j;
	}
	free(text);
	free(rows);
	return rc;
}

void ana_pc_level_init(struct pc_level_tally *t)
{
	memset(t, 0, sizeof *t);
	util_map_init(&t->more, sizeof(uint64_t), sizeof(uint64_t));
}

void ana_pc_level_fini(struct pc_level_tally *t)
{
	free(t->groups);
	util_map_fini(&t->more);
	memset(t, 0, sizeof *t);
}
