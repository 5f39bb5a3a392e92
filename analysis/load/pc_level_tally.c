/* SPDX-License-Identifier: Apache-2.0 */
/* The loads of each PC by memory level (pc_level_tally.h). */
#include "pc_level_tally.h"

#include <stdlib.h>
#include <string.h>

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

static int put_row(const struct spe_row_sink *sink, int64_t source_id, const struct latency_key *k, unsigned level,
		   uint64_t loads)
{
	struct spe_row_pc_level_stat row = { .source_id = source_id,
					     .symbol_id = (int64_t)(k->w[2] >> 1),
					     .pc = k->w[0],
					     .mem_level = (int32_t)level,
					     .loads = loads };
	return spe_sink_rows(sink, &row, 1);
}

int ana_pc_level_write(const struct pc_level_tally *t, const struct spe_row_sink *sink, int64_t source_id,
		       const struct latency_hist_map *groups)
{
	int rc = 0;
	for (size_t g = 0; g < t->cap && g < ana_latency_hist_map_n(groups) && rc >= 0; g++) {
		const struct latency_key *k = &ana_latency_group(groups, g)->key;
		if (!(k->w[2] >> 1) || !(k->w[2] & 1)) /* no function, or no PC */
			continue;
		const struct pc_levels *p = &t->groups[g];
		for (int i = 0; i < PC_LEVEL_INLINE && p->loads[i] && rc >= 0; i++)
			rc = put_row(sink, source_id, k, p->level[i], p->loads[i]);
	}
	/* the rest: another row of the same (PC, level) where a count passed 32 bits; the query adds them up */
	for (size_t n = 0; n < t->more.n && rc >= 0; n++) {
		uint64_t key = *(const uint64_t *)util_map_key(&t->more, n);
		size_t g = (size_t)(key >> 5);
		if (g >= ana_latency_hist_map_n(groups))
			continue;
		const struct latency_key *k = &ana_latency_group(groups, g)->key;
		if (!(k->w[2] >> 1) || !(k->w[2] & 1))
			continue;
		rc = put_row(sink, source_id, k, (unsigned)(key & 31), *(const uint64_t *)util_map_value(&t->more, n));
	}
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
