/* SPDX-License-Identifier: Apache-2.0 */
/* The pc_histogram rows of a load kept for its rollup: see rollup_feed.h. */
#include "rollup_feed.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

void ana_rollup_feed_fini(struct rollup_feed *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->rows[i].slots);
	free(f->rows);
	memset(f, 0, sizeof *f);
}

void ana_rollup_feed_lose(struct rollup_feed *f)
{
	ana_rollup_feed_fini(f);
	f->lost = 1;
}

void ana_rollup_feed_add(struct rollup_feed *f, const struct spe_row_pc_histogram *row)
{
	if (f->lost)
		return;
	size_t need = row->n + (row->untimed != 0);
	struct rollup_feed_row *rows = util_grow(f->rows, &f->cap, f->n + 1, sizeof *rows);
	if (rows)
		f->rows = rows;
	uint64_t *s = rows && need < UINT32_MAX ? malloc((need ? need : 1) * sizeof *s) : NULL;
	if (!s) {
		ana_rollup_feed_lose(f);
		return;
	}
	f->rows[f->n++] = (struct rollup_feed_row){
		.key = { { row->has_pc ? row->pc : 0, (uint64_t)row->insn_id, !!row->has_pc } },
		.symbol_id = row->symbol_id,
		.slots = s,
		.n = (uint32_t)need
	};
	if (row->untimed)
		*s++ = latency_slot_make(LATENCY_NONE, row->untimed);
	for (size_t i = 0; i < row->n; i++)
		*s++ = latency_slot_make(row->latency[i], row->samples[i]);
}
