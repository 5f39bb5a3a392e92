/* SPDX-License-Identifier: Apache-2.0 */
/* The loads of each PC by memory level (pc_level_tally.h). */
#include "pc_level_tally.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "spe/spe.h" /* spe_nomem */
#include "util/grow.h"
#include "util/text.h"

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
	if (x->symbol_id != y->symbol_id)
		return x->symbol_id < y->symbol_id ? -1 : 1;
	return (x->pc > y->pc) - (x->pc < y->pc);
}

/* Group @p g's key if it has a function and a PC, else NULL. */
static const struct latency_key *with_function(const struct latency_hist_map *groups, size_t g)
{
	if (g >= ana_latency_hist_map_n(groups))
		return NULL;
	const struct latency_key *k = &ana_latency_group(groups, g)->key;
	return (k->w[2] >> 1) && (k->w[2] & 1) ? k : NULL;
}

/*
 * A row per function: its counts sorted by function, each function's PCs as
 * offsets from its lowest (small numbers: fewer bytes, and a row where a
 * (PC, level) row each cost the load a SQLite insert apiece, 8 % more
 * instructions on gen_bench's many_pcs).
 */
int ana_pc_level_write(const struct pc_level_tally *t, const struct spe_row_sink *sink, int64_t source_id,
		       const struct latency_hist_map *groups)
{
	size_t n = 0, cap = 0;
	struct pc_level_row *rows = NULL;
	for (size_t g = 0; g < t->cap; g++) {
		const struct latency_key *k = with_function(groups, g);
		for (int i = 0; k && i < PC_LEVEL_INLINE && t->groups[g].loads[i]; i++) {
			struct pc_level_row *grown = util_grow(rows, &cap, n + 1, sizeof *rows);
			if (!grown)
				goto nomem;
			rows = grown;
			rows[n++] = (struct pc_level_row){ (int64_t)(k->w[2] >> 1), k->w[0], t->groups[g].loads[i],
							   t->groups[g].level[i] };
		}
	}
	/* the rest: another count of the same (PC, level) where one passed 32 bits; the query adds them up */
	for (size_t m = 0; m < t->more.n; m++) {
		uint64_t key = *(const uint64_t *)util_map_key(&t->more, m);
		const struct latency_key *k = with_function(groups, (size_t)(key >> 5));
		if (!k)
			continue;
		struct pc_level_row *grown = util_grow(rows, &cap, n + 1, sizeof *rows);
		if (!grown)
			goto nomem;
		rows = grown;
		rows[n++] = (struct pc_level_row){ (int64_t)(k->w[2] >> 1), k->w[0],
						   *(const uint64_t *)util_map_value(&t->more, m), (uint32_t)(key & 31) };
	}
	if (n > 1)
		qsort(rows, n, sizeof *rows, by_symbol);
	int rc = 0;
	struct util_text text = { 0 };
	for (size_t i = 0; i < n && rc >= 0;) {
		size_t j = i;
		text.len = 0;
		util_text_append(&text, "[");
		for (; j < n && rows[j].symbol_id == rows[i].symbol_id; j++)
			util_text_appendf(&text, "%s[%" PRIu64 ",%" PRIu32 ",%" PRIu64 "]", j > i ? "," : "",
					  rows[j].pc - rows[i].pc, rows[j].level, rows[j].loads);
		util_text_append(&text, "]");
		if (!util_text_ok(&text)) {
			rc = -spe_nomem;
			break;
		}
		struct spe_row_pc_level_stat row = { .source_id = source_id,
						     .symbol_id = rows[i].symbol_id,
						     .base_pc = rows[i].pc,
						     .loads = text.buf };
		rc = spe_sink_rows(sink, &row, 1);
		i = j;
	}
	util_text_fini(&text);
	free(rows);
	return rc;
nomem:
	free(rows);
	return -spe_nomem;
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
