/* SPDX-License-Identifier: Apache-2.0 */
/* Term syntax: names, values, lists, PMU names, modifiers, perf's period/freq. */
#include "check.h"
#include "fixture_target.h"

#include <string.h>

static struct spe_filter_request req;

static int parse(const char *text)
{
	spe_filter_request_init(&req);
	return spe_filter_parse_terms(&req, text);
}

static bool has(enum spe_filter_msg m, const char *text)
{
	for (unsigned i = 0; i < req.diags.count; i++)
		if (req.diags.d[i].msg == m && req.diags.d[i].error && strstr(req.diags.d[i].text, text))
			return true;
	for (unsigned i = 0; i < req.diags.count; i++)
		printf("    got: %s\n", req.diags.d[i].text);
	return false;
}

TEST(unknown_term)
{
	CHECK_INT_EQ(parse("arm_spe/load_filter=1,lod_filter=1/"), -spe_invalid);
	CHECK(has(SPE_MSG_UNKNOWN_TERM, "lod_filter: not an arm_spe term"));
	CHECK(req.set[SPE_TERM_LOAD_FILTER]);
	CHECK_INT_EQ(parse("arm_spe/load_filter=1/"), 0);
	CHECK_INT_EQ(req.diags.count, 0);
}

TEST(pmu_names)
{
	CHECK_INT_EQ(parse("arm_spe_12/ts_enable/"), 0);
	CHECK_STR_EQ(req.pmu, "arm_spe_12");
	CHECK_INT_EQ(parse("arm_spe//"), 0);
	CHECK_STR_EQ(req.pmu, "arm_spe");
	CHECK_INT_EQ(parse("cpu/event=0x3c/"), -spe_invalid);
	CHECK(has(SPE_MSG_BAD_PMU, "'cpu' is not arm_spe"));
	CHECK_INT_EQ(parse("arm_spe_x/ts_enable/"), -spe_invalid);
	CHECK(has(SPE_MSG_BAD_PMU, "arm_spe_x"));
	CHECK_INT_EQ(parse("arm_spe/ts_enable"), -spe_invalid);
	CHECK(has(SPE_MSG_BAD_PMU, "arm_spe"));
	/* A bare list is a term list. */
	CHECK_INT_EQ(parse("load_filter=1,min_latency=3"), 0);
	CHECK_U64_EQ(req.value[SPE_TERM_MIN_LATENCY], 3);
	CHECK_STR_EQ(req.pmu, "");
}

TEST(modifiers)
{
	CHECK_INT_EQ(parse("arm_spe/ts_enable=1/u"), 0);
	CHECK(!req.exclude_user && req.exclude_kernel);
	CHECK_INT_EQ(parse("arm_spe/ts_enable=1/:k"), 0);
	CHECK(req.exclude_user && !req.exclude_kernel);
	CHECK_INT_EQ(parse("arm_spe/ts_enable=1/uk"), 0);
	CHECK(!req.exclude_user && !req.exclude_kernel);
	CHECK_INT_EQ(parse("arm_spe/ts_enable=1/"), 0);
	CHECK(!req.exclude_user && !req.exclude_kernel);
	CHECK_INT_EQ(parse("arm_spe/ts_enable=1/p"), -spe_invalid);
	CHECK(has(SPE_MSG_BAD_VALUE, "unknown event modifier 'p'"));
}

TEST(mask_lists_continue_across_commas)
{
	CHECK_INT_EQ(parse("arm_spe/event_filter=retired,l1d_refill,load_filter,inv_event_filter=not_taken,7/"), 0);
	CHECK_U64_EQ(req.value[SPE_TERM_EVENT_FILTER], 0xa);
	CHECK(req.set[SPE_TERM_LOAD_FILTER]);
	CHECK_U64_EQ(req.value[SPE_TERM_INV_EVENT_FILTER], 0xc0);
	/* Only masks continue: after a number term the item is a (bad) term. */
	CHECK_INT_EQ(parse("arm_spe/min_latency=10,retired/"), -spe_invalid);
	CHECK(has(SPE_MSG_UNKNOWN_TERM, "retired: not an arm_spe term"));
	CHECK_U64_EQ(req.value[SPE_TERM_MIN_LATENCY], 10);
	CHECK_INT_EQ(parse("arm_spe/event_filter=retired,bogus/"), -spe_invalid);
	CHECK(has(SPE_MSG_BAD_VALUE, "'bogus' is not a number, or a list of event names"));
	/* A lone number is the mask itself, as perf takes it. */
	CHECK_INT_EQ(parse("arm_spe/event_filter=0x80/"), 0);
	CHECK_U64_EQ(req.value[SPE_TERM_EVENT_FILTER], 0x80);
	CHECK_INT_EQ(parse("arm_spe/event_filter=12/"), 0);
	CHECK_U64_EQ(req.value[SPE_TERM_EVENT_FILTER], 12);
	/* Bit numbers only for data sources; 64 is out of range. */
	CHECK_INT_EQ(parse("arm_spe/inv_data_src_filter=0,63/"), 0);
	CHECK_U64_EQ(req.value[SPE_TERM_INV_DATA_SRC_FILTER], 0x8000000000000001ull);
	CHECK_INT_EQ(parse("arm_spe/inv_data_src_filter=0,64/"), -spe_invalid);
	CHECK_INT_EQ(parse("arm_spe/inv_data_src_filter=retired,1/"), -spe_invalid);
	CHECK(has(SPE_MSG_BAD_VALUE, "bit numbers 0-63"));
}

TEST(number_forms)
{
	CHECK_INT_EQ(parse("arm_spe/min_latency=0x20/"), 0);
	CHECK_U64_EQ(req.value[SPE_TERM_MIN_LATENCY], 32);
	CHECK_INT_EQ(parse("arm_spe/min_latency=32/"), 0);
	CHECK_U64_EQ(req.value[SPE_TERM_MIN_LATENCY], 32);
	CHECK_INT_EQ(parse("arm_spe/config=0xffffffffffffffff/"), 0);
	CHECK_U64_EQ(req.value[SPE_TERM_CONFIG], ~0ull);
	CHECK_INT_EQ(parse("arm_spe/config=0x10000000000000000/"), -spe_invalid);
	CHECK(has(SPE_MSG_BAD_VALUE, "config"));
	CHECK_INT_EQ(parse("arm_spe/min_latency=010/"), -spe_invalid); /* octal is a mistake, not 8 */
	CHECK_INT_EQ(parse("arm_spe/min_latency/"), -spe_invalid);
	CHECK(has(SPE_MSG_BAD_VALUE, "needs a value"));
	CHECK_INT_EQ(parse("arm_spe/load_filter=2/"), -spe_invalid);
	CHECK(has(SPE_MSG_VALUE_TOO_BIG, "load_filter: value 2 too big"));
}

TEST(perf_period_and_freq)
{
	CHECK_INT_EQ(parse("arm_spe/period=8192,load_filter/"), 0);
	CHECK(req.period_set);
	CHECK_U64_EQ(req.period, 8192);
	CHECK_INT_EQ(parse("arm_spe/freq=1000/"), 0);
	CHECK(req.freq_set);
	CHECK_INT_EQ(parse("arm_spe/period=lots/"), -spe_invalid);
	CHECK(has(SPE_MSG_BAD_VALUE, "period: 'lots'"));
}

TEST(option_spellings)
{
	spe_filter_request_init(&req);
	CHECK_INT_EQ(spe_filter_set_term(&req, "--min-latency", "10"), 0);
	CHECK_INT_EQ(spe_filter_set_term(&req, "--inv_event_filter", "not_taken"), 0);
	CHECK_INT_EQ(spe_filter_set_term(&req, "--event-filter", "retired,l1d_refill"), 0);
	CHECK_U64_EQ(req.value[SPE_TERM_MIN_LATENCY], 10);
	CHECK_U64_EQ(req.value[SPE_TERM_INV_EVENT_FILTER], 0x40);
	CHECK_U64_EQ(req.value[SPE_TERM_EVENT_FILTER], 0xa);
	CHECK_INT_EQ(spe_filter_set_term(&req, "--min--latency", "10"), -spe_invalid);
	CHECK_INT_EQ(spe_term_lookup("load-filter-mask", 16), SPE_TERM_LOAD_FILTER_MASK);
	CHECK_INT_EQ(spe_term_lookup("load_filter", 4), -1);
}

TEST(long_and_odd_input)
{
	char big[2048];
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	CHECK_INT_EQ(parse(big), -spe_invalid);
	CHECK_INT_EQ(parse(",,,"), 0);
	CHECK_INT_EQ(parse("arm_spe/=1/"), -spe_invalid);
}

int main(int argc, char **argv)
{
	fixture_init(argc, argv);
	RUN(unknown_term);
	RUN(pmu_names);
	RUN(modifiers);
	RUN(mask_lists_continue_across_commas);
	RUN(number_forms);
	RUN(perf_period_and_freq);
	RUN(option_spellings);
	RUN(long_and_odd_input);
	return check_summary();
}
