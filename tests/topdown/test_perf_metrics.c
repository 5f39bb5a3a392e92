/* SPDX-License-Identifier: Apache-2.0 */
/*
 * PERF_METRICS decoding with values worked out by hand.
 *
 * Single read, M = 0x4026140a654d1a33: level 1 bytes 0x33 0x1a 0x4d 0x65 =
 * 51 26 77 101 (sum 255): retiring 51/255 = 0.2000, bad speculation 26/255 =
 * 0.1020, frontend 77/255 = 0.3020, backend 101/255 = 0.3961.  Level 2 bytes
 * 0x0a 0x14 0x26 0x40 = 10 20 38 64: heavy 0.0392, mispredicts 0.0784, fetch
 * latency 0.1490, memory 0.2510; light (51-10)/255 = 0.1608, clears
 * (26-20)/255 = 0.0235, fetch bandwidth (77-38)/255 = 0.1529, core
 * (101-64)/255 = 0.1451.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "topdown/perf_metrics.h"

#define CHECK_NEAR(a, b)                                                                   \
	do {                                                                               \
		double a_ = (a), b_ = (b);                                                 \
		if (fabs(a_ - b_) > 5e-5)                                                  \
			CHECK_FAIL_("%s ~ %s: %.6f != %.6f", #a, #b, a_, b_);              \
	} while (0)

TEST(byte_layout)
{
	CHECK_INT_EQ(td_pm_byte(0x4026140a654d1a33ull, 0), 0x33);
	CHECK_INT_EQ(td_pm_byte(0x4026140a654d1a33ull, 7), 0x40);
	CHECK_INT_EQ(td_pm_byte_node(3), TD_BACKEND_BOUND);
	CHECK_INT_EQ(td_pm_byte_node(7), TD_MEMORY_BOUND);
	CHECK_INT_EQ(td_pm_byte_node(8), TD_NONE);
}

TEST(single_read_level1)
{
	struct td_values v;
	CHECK_INT_EQ(td_pm_decode(1000, 0x4026140a654d1a33ull, 1, &v), 0);
	CHECK_NEAR(v.frac[TD_RETIRING], 0.2);
	CHECK_NEAR(v.frac[TD_BAD_SPECULATION], 26.0 / 255);
	CHECK_NEAR(v.frac[TD_FRONTEND_BOUND], 77.0 / 255);
	CHECK_NEAR(v.frac[TD_BACKEND_BOUND], 101.0 / 255);
	CHECK(!v.set[TD_HEAVY_OPERATIONS]); /* level 2 only when asked */
}

TEST(single_read_level2)
{
	struct td_values v;
	CHECK_INT_EQ(td_pm_decode(1000, 0x4026140a654d1a33ull, 2, &v), 0);
	CHECK_NEAR(v.frac[TD_HEAVY_OPERATIONS], 0.0392);
	CHECK_NEAR(v.frac[TD_LIGHT_OPERATIONS], 0.1608);
	CHECK_NEAR(v.frac[TD_BRANCH_MISPREDICTS], 0.0784);
	CHECK_NEAR(v.frac[TD_MACHINE_CLEARS], 0.0235);
	CHECK_NEAR(v.frac[TD_FETCH_LATENCY], 0.1490);
	CHECK_NEAR(v.frac[TD_FETCH_BANDWIDTH], 0.1529);
	CHECK_NEAR(v.frac[TD_MEMORY_BOUND], 0.2510);
	CHECK_NEAR(v.frac[TD_CORE_BOUND], 0.1451);
	CHECK(v.derived[TD_CORE_BOUND] && !v.derived[TD_MEMORY_BOUND]);
}

/* Bytes 50 26 77 101 sum to 254: level 1 is renormalised, retiring = 50/254. */
TEST(renormalised_when_bytes_do_not_sum_to_ff)
{
	struct td_values v;
	CHECK_INT_EQ(td_pm_decode(1, 0x654d1a32ull, 1, &v), 0);
	CHECK_NEAR(v.frac[TD_RETIRING], 50.0 / 254);
	CHECK_NEAR(v.frac[TD_BACKEND_BOUND], 101.0 / 254);
}

/*
 * Region between two reads.  a: S=1000, bytes 102 51 51 51 | 51 0 0 51
 * -> slot counts 400 200 200 200 | 200 0 0 200.  b: S=3000, bytes 68 34 68 85 |
 * 34 17 34 68 -> 800 400 800 1000 | 400 200 400 800.  Deltas over 2000 slots:
 * retiring 0.2, bad 0.1, frontend 0.3, backend 0.4; heavy 0.1 (light 0.1),
 * mispredicts 0.1 (clears 0), fetch latency 0.2 (bandwidth 0.1), memory 0.3
 * (core 0.1).  The example of an older topdown.txt, without /0xff, would give 255x.
 */
TEST(region_delta)
{
	struct td_values v;
	CHECK_INT_EQ(td_pm_region(1000, 0x3300003333333366ull, 3000, 0x4422112255442244ull, 2, &v), 0);
	CHECK_NEAR(v.frac[TD_RETIRING], 0.2);
	CHECK_NEAR(v.frac[TD_BAD_SPECULATION], 0.1);
	CHECK_NEAR(v.frac[TD_FRONTEND_BOUND], 0.3);
	CHECK_NEAR(v.frac[TD_BACKEND_BOUND], 0.4);
	CHECK_NEAR(v.frac[TD_HEAVY_OPERATIONS], 0.1);
	CHECK_NEAR(v.frac[TD_LIGHT_OPERATIONS], 0.1);
	CHECK_NEAR(v.frac[TD_BRANCH_MISPREDICTS], 0.1);
	CHECK_NEAR(v.frac[TD_MACHINE_CLEARS], 0.0);
	CHECK_NEAR(v.frac[TD_FETCH_LATENCY], 0.2);
	CHECK_NEAR(v.frac[TD_FETCH_BANDWIDTH], 0.1);
	CHECK_NEAR(v.frac[TD_MEMORY_BOUND], 0.3);
	CHECK_NEAR(v.frac[TD_CORE_BOUND], 0.1);
}

/* A node whose count shrank (quantisation) is clamped to 0, not negative. */
TEST(region_clamps_negative)
{
	struct td_values v;
	/* a: S=1000, retiring 255 -> 1000; b: S=1100, retiring 0, backend 255 -> 1100. */
	CHECK_INT_EQ(td_pm_region(1000, 0xffull, 1100, 0xff000000ull, 1, &v), 0);
	CHECK_NEAR(v.frac[TD_RETIRING], 0);
	CHECK_NEAR(v.frac[TD_BACKEND_BOUND], 1.0);
}

TEST(errors)
{
	struct td_values v;
	CHECK_INT_EQ(td_pm_decode(0, 0x33, 1, &v), -spe_invalid);
	CHECK_INT_EQ(td_pm_decode(10, 0, 1, &v), -spe_invalid);
	CHECK_INT_EQ(td_pm_region(3000, 0x33, 1000, 0x33, 1, &v), -spe_invalid); /* reset between reads */
	CHECK_INT_EQ(td_pm_region(1000, 0x33, 1000, 0x33, 1, &v), -spe_invalid);
}

/*
 * The checks (docs/topdown-formulas.md §1), each with bytes that trip it and bytes just
 * inside its tolerance:
 *  - sum: 0x33+0x1a+0x4d+0x65 = 255 (fine); 0x10 x 4 = 64 (not PERF_METRICS);
 *    252 and 257 are the edges (truncation loses < 4 steps, rounding moves <= 2);
 *  - child above parent: memory bound 0x80 over backend bound 0x65 is refused,
 *    0x66 (one step over, rounding) is accepted;
 *  - short region: slots 1e8 -> 1.001e8 is a region of 1e5 slots; the bound is
 *    (1e8 + 1.001e8) / (255 x 1e5) = 7.847 (784.7 points), and 1e5 < 1.001e8/255
 *    = 392549, so it is shorter than SLOTS/255; 1e9 -> 2e9 gives
 *    3e9 / (255 x 1e9) = 0.0118, no warning;
 *  - level 2 asked for with bytes 4..7 zero: said, and only that.
 */
TEST(checks)
{
	struct td_pm_issue is[8];
	CHECK_INT_EQ(td_pm_check(0, 0, 1000, 0x4026140a654d1a33ull, 1, 2, is, 8), 0);
	CHECK_INT_EQ(td_pm_check(0, 0, 1000, 0x10101010ull, 1, 1, is, 8), 1);
	CHECK_INT_EQ(is[0].kind, TD_PM_BAD_SUM);
	CHECK(strstr(is[0].msg, "sum to 64") != NULL);
	CHECK_INT_EQ(td_pm_check(0, 0, 1000, 0x3f3f3f3full, 1, 1, is, 8), 0); /* 252 */
	CHECK_INT_EQ(td_pm_check(0, 0, 1000, 0x4040403full, 1, 1, is, 8), 0); /* 255 */
	CHECK_INT_EQ(td_pm_check(0, 0, 1000, 0x41404040ull, 1, 1, is, 8), 0); /* 257 */
	CHECK_INT_EQ(td_pm_check(0, 0, 1000, 0x41414040ull, 1, 1, is, 8), 1); /* 258 */
	CHECK_INT_EQ(td_pm_check(0, 0, 1000, 0x3e3f3f3full, 1, 1, is, 8), 1); /* 251 */

	CHECK_INT_EQ(td_pm_check(0, 0, 1000, 0x80000000654d1a34ull, 1, 2, is, 8), 1);
	CHECK_INT_EQ(is[0].kind, TD_PM_CHILD_ABOVE);
	CHECK(strstr(is[0].msg, "memory_bound byte (0x80) is above its parent backend_bound (0x65)") != NULL);
	CHECK_INT_EQ(td_pm_check(0, 0, 1000, 0x66000000654d1a34ull, 1, 2, is, 8), 0);

	CHECK_INT_EQ(td_pm_check(100000000, 0x654d1a33ull, 100100000, 0x644e1a33ull, 2, 1, is, 8), 1);
	CHECK_INT_EQ(is[0].kind, TD_PM_SHORT_REGION);
	CHECK_NEAR(is[0].error, 2.001e8 / (255 * 1e5));
	CHECK(strstr(is[0].msg, "shorter than SLOTS/255") != NULL);
	CHECK(strstr(is[0].msg, "784.7 percentage points") != NULL);
	CHECK_INT_EQ(td_pm_check(1000000000, 0x654d1a33ull, 2000000000, 0x644e1a33ull, 2, 1, is, 8), 0);

	CHECK_INT_EQ(td_pm_check(0, 0, 1000, 0x654d1a33ull, 1, 2, is, 8), 1);
	CHECK_INT_EQ(is[0].kind, TD_PM_NO_LEVEL2);
	CHECK_INT_EQ(td_pm_check(0, 0, 1000, 0x654d1a33ull, 1, 1, is, 8), 0);
}

int main(void)
{
	RUN(byte_layout);
	RUN(single_read_level1);
	RUN(single_read_level2);
	RUN(renormalised_when_bytes_do_not_sum_to_ff);
	RUN(region_delta);
	RUN(region_clamps_negative);
	RUN(errors);
	RUN(checks);
	return check_summary();
}
