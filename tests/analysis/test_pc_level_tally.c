/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pc_level_tally (analysis/load/pc_level_tally.c) against a brute-force
 * count: random loads over latency groups in a few functions, every level
 * of some PCs (past the four a group keeps inline), groups without a
 * function or a PC left out; the rows written (a row per function, its
 * counts in JSON) read back and added up per (function, PC, level).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pc_level_tally.h"

#define GROUPS 64
#define LEVELS 32

static uint64_t want[GROUPS][LEVELS], got[GROUPS][LEVELS];
static struct latency_hist_map groups;
static int rows_seen, bad_rows;

/* group g: function g % 5 (0: none), PC 0x400000 + 4 g, a PC unless g % 7 == 3 */
static struct latency_key key_of(uint32_t g)
{
	return (struct latency_key){ { 0x400000 + 4 * (uint64_t)g, g + 1, (uint64_t)(g % 5) << 1 | (g % 7 != 3) } };
}

static int take(void *ctx, enum spe_table table, const void *rows, size_t n)
{
	(void)ctx;
	if (table != SPE_TABLE_PC_LEVEL_STAT)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct spe_row_pc_level_stat *r = &((const struct spe_row_pc_level_stat *)rows)[i];
		rows_seen++;
		const char *p = r->loads;
		if (*p++ != '[') {
			bad_rows++;
			continue;
		}
		unsigned long long off, level, loads;
		int used;
		while (sscanf(p, "[%llu,%llu,%llu]%n", &off, &level, &loads, &used) == 3) {
			uint64_t g = (r->base_pc + off - 0x400000) / 4;
			if (g >= GROUPS || level >= LEVELS || (int64_t)(g % 5) != r->symbol_id || r->source_id != 9)
				bad_rows++;
			else
				got[g][level] += loads;
			p += used;
			if (*p == ',')
				p++;
		}
		if (strcmp(p, "]"))
			bad_rows++;
	}
	return 0;
}

TEST(against_brute_force)
{
	struct pc_level_tally t;
	ana_pc_level_init(&t);
	for (uint32_t g = 0; g < GROUPS; g++) {
		struct latency_key k = key_of(g);
		CHECK_INT_EQ(ana_latency_group_of(&groups, &k), g);
	}
	srand(7);
	for (int i = 0; i < 200000; i++) {
		uint32_t g = (uint32_t)rand() % GROUPS;
		/* groups 0..15 see every level; the others two */
		unsigned level = g < 16 ? (unsigned)rand() % LEVELS : (unsigned)(rand() % 2) * 5 + 1;
		CHECK_INT_EQ(ana_pc_level_count(&t, g, level), 0);
		if (key_of(g).w[2] >> 1 && key_of(g).w[2] & 1)
			want[g][level]++;
	}
	struct spe_row_sink sink = { .tables = SPE_TABLE_BIT(PC_LEVEL_STAT), .rows = take };
	CHECK_INT_EQ(ana_pc_level_write(&t, &sink, 9, &groups), 0);
	CHECK_INT_EQ(rows_seen, 4); /* functions 1..4 */
	CHECK_INT_EQ(bad_rows, 0);
	int differ = 0;
	for (int g = 0; g < GROUPS; g++)
		for (int l = 0; l < LEVELS; l++)
			differ += want[g][l] != got[g][l];
	CHECK_INT_EQ(differ, 0);
	ana_pc_level_fini(&t);
	ana_latency_hist_map_fini(&groups);
}

int main(void)
{
	RUN(against_brute_force);
	return check_summary();
}
