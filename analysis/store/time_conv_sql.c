/* SPDX-License-Identifier: Apache-2.0 */
/* spe_record.time in SQL and its mirror in C (time_conv_sql.h). */
#include "time_conv_sql.h"

#include <stdio.h>

/* A product, sum or difference that stays a non-negative SQLite integer. */
static int mul_ok(int64_t a, int64_t b, int64_t *r)
{
	return !__builtin_mul_overflow(a, b, r) && *r >= 0;
}

static int add_ok(int64_t a, int64_t b, int64_t *r)
{
	return !__builtin_add_overflow(a, b, r) && *r >= 0;
}

int spe_time_conv_sql(const struct spe_row_time_conv *tc, uint64_t ts, uint64_t *out)
{
	int64_t shift = (int64_t)tc->time_shift, mult = (int64_t)tc->time_mult, zero = (int64_t)tc->time_zero;
	int64_t cycles = (int64_t)tc->time_cycles, mask = (int64_t)tc->time_mask;
	if ((int64_t)ts < 0 || shift < 0 || shift > 62 || mult < 0 || zero < 0)
		return 0;
	int64_t c = (int64_t)ts;
	if (tc->cap_user_time_short) {
		int64_t d;
		if (cycles < 0 || __builtin_sub_overflow(c, cycles, &d) || !add_ok(cycles, d & mask, &c))
			return 0;
	}
	int64_t quot = c >> shift, rem = c & ((INT64_C(1) << shift) - 1), a, b, sum, t;
	if (!mul_ok(quot, mult, &a) || !mul_ok(rem, mult, &b) || !add_ok(zero, a, &sum) || !add_ok(sum, b >> shift, &t))
		return 0;
	*out = (uint64_t)t;
	return 1;
}

void ana_time_conv_sql_expr(struct util_text *t, const char *ts, const char *tc)
{
	/* c: ts, or with cap_user_time_short its low bits on top of time_cycles */
	char c[256];
	snprintf(c, sizeof c,
		 "(CASE WHEN %s.cap_user_time_short THEN %s.time_cycles + ((%s - %s.time_cycles) & %s.time_mask)"
		 " ELSE %s END)",
		 tc, tc, ts, tc, tc, ts);
	util_text_appendf(t, "%s.time_zero + (%s >> %s.time_shift) * %s.time_mult + (((%s & ((1 << %s.time_shift) - 1)) * "
		       "%s.time_mult) >> %s.time_shift)",
		    tc, c, tc, tc, c, tc, tc, tc);
}
