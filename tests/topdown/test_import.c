/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every import format, on fixtures/topdown/ (see its README.md for where
 * each file comes from).  Expected values are the numbers printed in the
 * files, divided by 100 where perf printed percent; raw-count expectations are worked in
 * test_formula.c (same ratios).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "text_file.h"
#include "topdown/import.h"

static const char *fixtures;

#define CHECK_NEAR(a, b)                                                                   \
	do {                                                                               \
		double a_ = (a), b_ = (b);                                                 \
		if (!(fabs(a_ - b_) <= 1e-9))                                              \
			CHECK_FAIL_("%s ~ %s: %.9f != %.9f", #a, #b, a_, b_);              \
	} while (0)

/* Import @p name; returns the format or the error, the run in @p run. */
static int import(const char *name, const char *cpu, struct td_run *run, struct td_diag *diag)
{
	size_t len;
	char *text = test_read_text(fixtures, name, &len);
	td_run_init(run);
	if (!text)
		return -999;
	struct td_import_opts opts = { .cpu = cpu };
	int rc = td_import_text(text, len, &opts, run, diag);
	free(text);
	return rc;
}

/* The interval of @p scope that ends at the stamp @p t (0: the whole run). */
static const struct td_interval *find(const struct td_run *run, double t, const char *scope)
{
	for (size_t i = 0; i < run->n_iv; i++) {
		const struct td_interval *iv = &run->iv[i];
		double key = t > 0 ? iv->t1 : iv->t0;
		if (fabs(key - t) < 1e-9 && strcmp(iv->scope, scope) == 0)
			return iv;
	}
	return NULL;
}

#define VAL(iv, node) ((iv) ? (iv)->values.frac[TD_##node] : -1e9)

static double event(const struct td_interval *iv, const char *name)
{
	const struct td_event_count *e = iv ? td_interval_event(iv, name) : NULL;
	return e && e->counted ? e->value : -1;
}

TEST(perf65_spr_std)
{
	struct td_run run;
	CHECK_INT_EQ(import("perf-6.5_spr-std.txt", NULL, &run, NULL), TD_FMT_PERF_STD);
	const struct td_interval *iv = find(&run, 0, "all");
	CHECK(iv != NULL);
	CHECK_NEAR(VAL(iv, BACKEND_BOUND), 0.687);
	CHECK_NEAR(VAL(iv, BAD_SPECULATION), 0.031);
	CHECK_NEAR(VAL(iv, FRONTEND_BOUND), 0.130);
	CHECK_NEAR(VAL(iv, RETIRING), 0.152);
	CHECK_NEAR(VAL(iv, BRANCH_MISPREDICTS), 0.027);
	CHECK_NEAR(VAL(iv, CORE_BOUND), 0.196);
	CHECK_NEAR(VAL(iv, FETCH_BANDWIDTH), 0.048);
	CHECK_NEAR(VAL(iv, FETCH_LATENCY), 0.083);
	CHECK_NEAR(VAL(iv, HEAVY_OPERATIONS), 0.029);
	CHECK_NEAR(VAL(iv, LIGHT_OPERATIONS), 0.123);
	CHECK_NEAR(VAL(iv, MACHINE_CLEARS), 0.004);
	CHECK_NEAR(VAL(iv, MEMORY_BOUND), 0.491);
	CHECK_NEAR(event(iv, "cycles"), 45940682);
	CHECK_NEAR(event(iv, "cpu-clock"), 226054.13);
	CHECK_NEAR(iv ? iv->t1 : 0, 1.006529767);
	CHECK_STR_EQ(run.isa, "x86_64");
	CHECK_STR_EQ(run.tool, "perf-stat");
	CHECK_STR_EQ(run.method, "perf_metrics");
	CHECK_INT_EQ(run.n_iv, 1);
	td_run_fini(&run);
}

TEST(perf65_hybrid_std)
{
	struct td_run run;
	CHECK_INT_EQ(import("perf-6.5_adl-std.txt", NULL, &run, NULL), TD_FMT_PERF_STD);
	const struct td_interval *core = find(&run, 0, "cpu_core"), *atom = find(&run, 0, "cpu_atom");
	CHECK(core && atom);
	CHECK(isnan(VAL(core, BACKEND_BOUND)));
	CHECK_NEAR(VAL(core, BAD_SPECULATION), 0.0);
	CHECK_NEAR(VAL(atom, BAD_SPECULATION), 0.136);
	CHECK_NEAR(VAL(atom, FRONTEND_BOUND), 0.411);
	CHECK_NEAR(VAL(atom, BACKEND_BOUND), 0.392);
	CHECK_NEAR(VAL(atom, RETIRING), 0.054);
	/* counts of a hybrid PMU are in that PMU's scope, beside its metrics */
	CHECK_NEAR(event(atom, "cpu_atom/cycles/"), 257711907);
	CHECK_NEAR(event(core, "cpu_core/cycles/"), 6313960);
	CHECK_NEAR(atom ? atom->cycles : 0, 257711907);
	td_run_fini(&run);
}

TEST(perf65_json)
{
	struct td_run run;
	CHECK_INT_EQ(import("perf-6.5_spr-json.txt", NULL, &run, NULL), TD_FMT_PERF_JSON);
	const struct td_interval *iv = find(&run, 0, "all");
	CHECK_NEAR(VAL(iv, BACKEND_BOUND), 0.69950631);
	CHECK_NEAR(VAL(iv, BAD_SPECULATION), 0.02771783);
	CHECK_NEAR(VAL(iv, FRONTEND_BOUND), 0.12026074);
	CHECK_NEAR(VAL(iv, RETIRING), 0.15251513);
	CHECK_NEAR(VAL(iv, MEMORY_BOUND), 0.50220860);
	CHECK_NEAR(VAL(iv, LIGHT_OPERATIONS), 0.12312705);
	CHECK_NEAR(event(iv, "instructions"), 38620409);
	td_run_fini(&run);

	CHECK_INT_EQ(import("perf-6.5_adl-json.txt", NULL, &run, NULL), TD_FMT_PERF_JSON);
	const struct td_interval *core = find(&run, 0, "cpu_core"), *atom = find(&run, 0, "cpu_atom");
	CHECK(core && atom);
	CHECK(isnan(VAL(core, RETIRING)));
	CHECK_NEAR(VAL(atom, FRONTEND_BOUND), 0.41016738);
	CHECK_NEAR(VAL(atom, RETIRING), 0.05374638);
	CHECK(!atom || !atom->values.set[TD_NODE_COUNT - 1]);
	td_run_fini(&run);
}

TEST(perf65_csv)
{
	struct td_run run;
	CHECK_INT_EQ(import("perf-6.5_spr-csv.txt", NULL, &run, NULL), TD_FMT_PERF_CSV);
	const struct td_interval *iv = find(&run, 0, "all");
	CHECK_NEAR(VAL(iv, BACKEND_BOUND), 0.701);
	CHECK_NEAR(VAL(iv, BAD_SPECULATION), 0.027);
	CHECK_NEAR(VAL(iv, FRONTEND_BOUND), 0.125);
	CHECK_NEAR(VAL(iv, RETIRING), 0.146);
	CHECK_NEAR(VAL(iv, MEMORY_BOUND), 0.505);
	CHECK_NEAR(VAL(iv, MACHINE_CLEARS), 0.005);
	CHECK_NEAR(event(iv, "branch-misses"), 51102);
	td_run_fini(&run);

	CHECK_INT_EQ(import("perf-6.5_adl-csv.txt", NULL, &run, NULL), TD_FMT_PERF_CSV);
	const struct td_interval *core = find(&run, 0, "cpu_core"), *atom = find(&run, 0, "cpu_atom");
	CHECK(core && atom);
	CHECK(isnan(VAL(core, BACKEND_BOUND))); /* NaN prints as an empty field */
	CHECK_NEAR(VAL(atom, BAD_SPECULATION), 0.138);
	CHECK_NEAR(VAL(atom, FRONTEND_BOUND), 0.413);
	CHECK_NEAR(VAL(atom, BACKEND_BOUND), 0.386);
	CHECK_NEAR(VAL(atom, RETIRING), 0.054);
	td_run_fini(&run);
}

/*
 * 2022 JSON: unquoted metric-value, float event-runtime; counters only, and
 * none a formula reads, so the refusal does not suggest --cpu (it would not help).
 */
TEST(perf2022_json_counters_only)
{
	struct td_run run;
	struct td_diag diag = { 0 };
	CHECK_INT_EQ(import("perf-2022_json-early.txt", NULL, &run, &diag), -spe_no_data);
	CHECK(strstr(diag.msg, "--cpu") == NULL);
	CHECK(strstr(diag.msg, "cpu-clock") != NULL);
	td_run_fini(&run);
	/* the same counts with a CPU: still nothing to compute, and the message says which counts */
	CHECK_INT_EQ(import("perf-2022_json-early.txt", "skylake", &run, &diag), -spe_no_data);
	CHECK(strstr(diag.msg, "CPU_CLK_UNHALTED.THREAD") != NULL);
	td_run_fini(&run);
}

TEST(perf63_interval_std)
{
	struct td_run run;
	CHECK_INT_EQ(import("perf-6.3_icl-interval-std.txt", NULL, &run, NULL), TD_FMT_PERF_STD);
	CHECK_INT_EQ(run.n_iv, 3);
	const struct td_interval *a = find(&run, 1.001281330, "all"), *c = find(&run, 3.004646182, "all");
	CHECK_NEAR(VAL(a, RETIRING), 0.23);
	CHECK_NEAR(VAL(a, BAD_SPECULATION), 0.153);
	CHECK_NEAR(VAL(a, FRONTEND_BOUND), 0.296);
	CHECK_NEAR(VAL(a, BACKEND_BOUND), 0.321);
	CHECK_NEAR(VAL(c, BACKEND_BOUND), 0.406);
	/* perf stamps the end of each interval */
	CHECK_NEAR(a ? a->t0 : -1, 0);
	CHECK_NEAR(c ? c->t0 : -1, 2.003009005);
	CHECK_STR_EQ(run.method, "perf_legacy");
	CHECK_STR_EQ(run.isa, "x86_64");
	td_run_fini(&run);
}

TEST(perf64_tma_interval_std)
{
	struct td_run run;
	CHECK_INT_EQ(import("perf-6.4_tma-interval-std.txt", NULL, &run, NULL), TD_FMT_PERF_STD);
	const struct td_interval *a = find(&run, 1.001141351, "all");
	CHECK_NEAR(VAL(a, RETIRING), 0.115);
	CHECK_NEAR(VAL(a, BACKEND_BOUND), 0.349);
	CHECK_NEAR(VAL(a, FRONTEND_BOUND), 0.469);
	CHECK_NEAR(VAL(a, BAD_SPECULATION), 0.067);
	td_run_fini(&run);
}

TEST(perf_pre64_percore_tremont_and_locale)
{
	struct td_run run;
	CHECK_INT_EQ(import("perf-5.x_percore-std.txt", NULL, &run, NULL), TD_FMT_PERF_STD);
	const struct td_interval *c = find(&run, 0, "S0-D0-C1");
	CHECK_NEAR(VAL(c, RETIRING), 0.085);
	CHECK_NEAR(VAL(c, BACKEND_BOUND), 0.914);
	td_run_fini(&run);

	CHECK_INT_EQ(import("perf-5.11_tremont-std.txt", NULL, &run, NULL), TD_FMT_PERF_STD);
	c = find(&run, 0, "all");
	CHECK_NEAR(VAL(c, RETIRING), 0.249);
	CHECK_NEAR(VAL(c, BAD_SPECULATION), 0.168);
	CHECK_NEAR(VAL(c, FRONTEND_BOUND), 0.317);
	CHECK_NEAR(VAL(c, BACKEND_BOUND), 0.266);
	td_run_fini(&run);

	/* decimal comma; the broken old values are kept raw (views clamp) */
	CHECK_INT_EQ(import("perf-5.x_locale-comma-std.txt", NULL, &run, NULL), TD_FMT_PERF_STD);
	c = find(&run, 0, "S0-D0-C3");
	CHECK_NEAR(VAL(c, RETIRING), 1.916);
	CHECK_NEAR(VAL(c, BAD_SPECULATION), 0.041);
	CHECK_NEAR(VAL(c, BACKEND_BOUND), -0.99);
	td_run_fini(&run);
}

TEST(perf_csv_metric_only_and_threshold)
{
	struct td_run run;
	CHECK_INT_EQ(import("perf-6.3_metric-only.csv", NULL, &run, NULL), TD_FMT_PERF_CSV);
	const struct td_interval *c = find(&run, 0, "all");
	CHECK_NEAR(VAL(c, RETIRING), 0.18);
	CHECK_NEAR(VAL(c, BAD_SPECULATION), 0.161);
	CHECK_NEAR(VAL(c, FRONTEND_BOUND), 0.404);
	CHECK_NEAR(VAL(c, BACKEND_BOUND), 0.255);
	td_run_fini(&run);

	CHECK_INT_EQ(import("perf-6.13_interval-threshold.csv", NULL, &run, NULL), TD_FMT_PERF_CSV);
	c = find(&run, 1.000103288, "all");
	CHECK_NEAR(VAL(c, BACKEND_BOUND), 0.311);
	CHECK_NEAR(VAL(c, FRONTEND_BOUND), 0.51);
	CHECK_NEAR(event(c, "TOPDOWN.SLOTS"), 4677067630.0);
	CHECK_NEAR(event(c, "topdown-retiring"), 476781750);
	td_run_fini(&run);
}

TEST(perf65_interval_groups_and_percore_csv)
{
	struct td_run run;
	CHECK_INT_EQ(import("perf-6.5_interval-groups-std.txt", NULL, &run, NULL), TD_FMT_PERF_STD);
	const struct td_interval *a = find(&run, 1.001026213, "all"), *b = find(&run, 2.002311410, "all");
	CHECK_INT_EQ(run.n_iv, 2);
	CHECK_NEAR(VAL(a, BACKEND_BOUND), 0.687);
	CHECK_NEAR(VAL(a, RETIRING), 0.152);
	CHECK_NEAR(VAL(b, BACKEND_BOUND), 0.60);
	CHECK_NEAR(VAL(b, BAD_SPECULATION), 0.05);
	CHECK_NEAR(b ? b->t0 : -1, 1.001026213);
	CHECK_NEAR(event(a, "cycles"), 4101002);
	CHECK_NEAR(event(b, "cpu-clock"), 1001.01);
	td_run_fini(&run);

	CHECK_INT_EQ(import("perf-6.3_percore-interval-metric-only.csv", NULL, &run, NULL), TD_FMT_PERF_CSV);
	const struct td_interval *c0 = find(&run, 1.001281330, "S0-D0-C0"), *c1 = find(&run, 1.001281330, "S0-D0-C1");
	CHECK_NEAR(VAL(c0, RETIRING), 0.23);
	CHECK_NEAR(VAL(c0, BACKEND_BOUND), 0.321);
	CHECK_NEAR(VAL(c1, FRONTEND_BOUND), 0.466);
	CHECK_NEAR(VAL(c1, BAD_SPECULATION), 0.068);
	td_run_fini(&run);
}

TEST(perf_json_metric_only_eras)
{
	struct td_run run;
	CHECK_INT_EQ(import("perf-6.2_metric-only.json", NULL, &run, NULL), TD_FMT_PERF_JSON);
	const struct td_interval *a = find(&run, 1.001141351, "all"), *b = find(&run, 2.006141972, "all");
	CHECK_NEAR(VAL(a, RETIRING), 0.115);
	CHECK_NEAR(VAL(a, BAD_SPECULATION), 0.067);
	CHECK(isnan(VAL(b, BACKEND_BOUND))); /* "none" */
	CHECK_NEAR(VAL(b, FRONTEND_BOUND), 0.44);
	td_run_fini(&run);

	CHECK_INT_EQ(import("perf-6.1_metric-only-broken.json", NULL, &run, NULL), TD_FMT_PERF_JSON);
	a = find(&run, 0, "all");
	CHECK_NEAR(VAL(a, RETIRING), 0.18);
	CHECK_NEAR(VAL(a, BAD_SPECULATION), 0.161);
	CHECK_NEAR(VAL(a, FRONTEND_BOUND), 0.404);
	CHECK_NEAR(VAL(a, BACKEND_BOUND), 0.255);
	td_run_fini(&run);
}

TEST(perf_arm_names)
{
	struct td_run run;
	CHECK_INT_EQ(import("perf-arm_neoverse-v2-TopdownL1-std.txt", "neoverse-v2", &run, NULL), TD_FMT_PERF_STD);
	const struct td_interval *a = find(&run, 0, "all");
	CHECK_NEAR(VAL(a, BACKEND_BOUND), 0.858);
	CHECK_NEAR(VAL(a, FRONTEND_BOUND), 0.05);
	CHECK_NEAR(VAL(a, RETIRING), 0.063);
	CHECK_NEAR(VAL(a, BAD_SPECULATION), 0.029);
	CHECK_NEAR(event(a, "op_spec"), 820000000);
	CHECK_STR_EQ(run.isa, "aarch64");
	CHECK_STR_EQ(run.cpu, "neoverse-v2");
	CHECK_INT_EQ(run.slots_per_cycle, 8);
	td_run_fini(&run);
}

/*
 * A metric without ScaleUnit prints a bare fraction ("#     0.31 Frontend_Bound");
 * only a '%' (in the value or the unit) means percent, decided per line.  The
 * perf 5.x Intel metric names look like Arm's, but the events are Intel's.
 */
TEST(unitless_fractions_and_intel_events)
{
	struct td_run run;
	CHECK_INT_EQ(import("perf-5.x_icl-metrics-fraction-std.txt", NULL, &run, NULL), TD_FMT_PERF_STD);
	const struct td_interval *a = find(&run, 0, "all");
	CHECK_NEAR(VAL(a, FRONTEND_BOUND), 0.31);
	CHECK_NEAR(VAL(a, RETIRING), 0.17);
	CHECK_NEAR(VAL(a, BAD_SPECULATION), 0.05);
	CHECK_NEAR(VAL(a, BACKEND_BOUND), 0.47);
	CHECK_STR_EQ(run.isa, "x86_64");
	td_run_fini(&run);

	static const char *const mixed[] = { "perf-arm_mixed-units.csv", "perf-arm_mixed-units.json" };
	for (int i = 0; i < 2; i++) {
		CHECK(import(mixed[i], NULL, &run, NULL) > 0);
		a = find(&run, 0, "all");
		CHECK_NEAR(VAL(a, BAD_SPECULATION), 0.029); /* "2.9,percent of slots  bad_speculation" */
		CHECK_NEAR(VAL(a, BACKEND_BOUND), 0.858);   /* "0.858,backend_bound" */
		CHECK_NEAR(VAL(a, FRONTEND_BOUND), 0.05);
		CHECK_NEAR(VAL(a, RETIRING), 0.063);
		CHECK_STR_EQ(run.isa, "aarch64");
		td_run_fini(&run);
	}
}

/* perf <= 6.3 without topdown-recovery-bubbles prints "backend bound/bad spec" (docs/topdown-formulas.md §7). */
TEST(backend_bound_bad_spec_fallback)
{
	static const char *const files[] = { "perf-5.x_no-recovery-bubbles-std.txt", "perf-5.x_no-recovery-bubbles.csv" };
	for (int i = 0; i < 2; i++) {
		struct td_run run;
		CHECK_INT_EQ(import(files[i], NULL, &run, NULL), i == 0 ? TD_FMT_PERF_STD : TD_FMT_PERF_CSV);
		const struct td_interval *a = find(&run, 0, "all");
		CHECK(a != NULL);
		CHECK_NEAR(VAL(a, BACKEND_BOUND_BAD_SPECULATION), 0.45);
		CHECK_NEAR(VAL(a, RETIRING), 0.30);
		CHECK_NEAR(VAL(a, FRONTEND_BOUND), 0.25);
		/* each part alone is unknown: stored, as NULL */
		CHECK(a && a->values.set[TD_BACKEND_BOUND] && isnan(a->values.frac[TD_BACKEND_BOUND]));
		CHECK(a && a->values.set[TD_BAD_SPECULATION] && isnan(a->values.frac[TD_BAD_SPECULATION]));
		CHECK_STR_EQ(run.isa, "x86_64");
		CHECK_STR_EQ(run.method, "perf_legacy");
		td_run_fini(&run);
	}
}

/* Slots and cycles per interval, for the weighted roll-up of docs/topdown-formulas.md §8. */
TEST(interval_slots_and_cycles)
{
	struct td_run run;
	CHECK_INT_EQ(import("perf-6.13_unequal-slots-interval.csv", NULL, &run, NULL), TD_FMT_PERF_CSV);
	const struct td_interval *a = find(&run, 1.0001, "all"), *b = find(&run, 2.0002, "all");
	CHECK(a && b);
	CHECK_NEAR(a ? a->slots : 0, 1e9);
	CHECK_NEAR(b ? b->slots : 0, 3e9);
	CHECK_NEAR(VAL(b, BACKEND_BOUND), 0.6);
	td_run_fini(&run);

	/* a formula sets them: N2 slots = 5 per cycle x CPU_CYCLES */
	CHECK(import("raw_neoverse-n2_perf.txt", NULL, &run, NULL) > 0);
	a = find(&run, 0, "all");
	CHECK_NEAR(a ? a->cycles : 0, 1e6);
	CHECK_NEAR(a ? a->slots : 0, 5e6);
	td_run_fini(&run);
}

TEST(toplev_csv)
{
	struct td_run run;
	CHECK_INT_EQ(import("toplev_skl.csv", NULL, &run, NULL), TD_FMT_TOPLEV_CSV);
	const struct td_interval *a = find(&run, 1.001131873, "S0");
	CHECK_NEAR(VAL(a, FRONTEND_BOUND), 0.225); /* the SUMMARY row (99.0) is not used */
	CHECK_NEAR(VAL(a, BAD_SPECULATION), 0.075);
	CHECK_NEAR(VAL(a, BACKEND_BOUND), 0.40);
	CHECK_NEAR(VAL(a, RETIRING), 0.30);
	CHECK_NEAR(VAL(a, MEMORY_BOUND), 0.133);
	CHECK_NEAR(VAL(a, CORE_BOUND), 0.267);
	CHECK_NEAR(VAL(a, FETCH_LATENCY), 0.12);
	CHECK_INT_EQ(run.n_iv, 1); /* ITLB_Misses (level 3) dropped */
	CHECK_STR_EQ(run.tool, "toplev");
	td_run_fini(&run);
}

TEST(topdown_tool_csv)
{
	struct td_run run;
	CHECK_INT_EQ(import("topdown-tool_neoverse-v3_metrics.csv", "neoverse-v3", &run, NULL), TD_FMT_TOPDOWN_TOOL_CSV);
	const struct td_interval *a = find(&run, 0, "all");
	CHECK_NEAR(VAL(a, FRONTEND_BOUND), 0.25);
	CHECK_NEAR(VAL(a, BACKEND_BOUND), 0.30);
	CHECK_NEAR(VAL(a, RETIRING), 0.36);
	CHECK_NEAR(VAL(a, BAD_SPECULATION), 0.09);
	CHECK_NEAR(VAL(a, BACKEND_MEM_BOUND), 0.6);
	CHECK_NEAR(VAL(a, BACKEND_CORE_BOUND), 0.4);
	CHECK_NEAR(VAL(a, FRONTEND_STALLED_CYCLES), 0.125);
	CHECK_STR_EQ(run.isa, "aarch64");
	CHECK_STR_EQ(run.tool, "topdown-tool");
	td_run_fini(&run);
}

TEST(raw_listings)
{
	struct td_run run;
	/* "# cpu: skylake"; worked values in test_formula.c (x1000) */
	CHECK_INT_EQ(import("raw_skylake.txt", NULL, &run, NULL), TD_FMT_RAW);
	const struct td_interval *a = find(&run, 0, "all");
	CHECK_NEAR(VAL(a, FRONTEND_BOUND), 0.2);
	CHECK_NEAR(VAL(a, BAD_SPECULATION), 0.1);
	CHECK_NEAR(VAL(a, RETIRING), 0.5);
	CHECK_NEAR(VAL(a, BACKEND_BOUND), 0.2);
	CHECK_STR_EQ(run.method, "intel_generic");
	CHECK_STR_EQ(run.cpu, "skylake");
	td_run_fini(&run);

	CHECK_INT_EQ(import("raw_westmere_libpmc.txt", "westmere", &run, NULL), TD_FMT_RAW);
	a = find(&run, 0, "all");
	CHECK_NEAR(VAL(a, RETIRING), 0.5);
	CHECK_NEAR(VAL(a, BAD_SPECULATION), 0.1);
	CHECK_NEAR(VAL(a, FRONTEND_BOUND), 0.2);
	CHECK_NEAR(VAL(a, BACKEND_BOUND), 0.2);
	CHECK_STR_EQ(run.method, "wsm_approx");
	CHECK_INT_EQ(run.approx, 1);
	td_run_fini(&run);

	CHECK_INT_EQ(import("raw_neoverse-n2_perf.txt", NULL, &run, NULL), TD_FMT_PERF_CSV);
	a = find(&run, 0, "all");
	CHECK_NEAR(VAL(a, FRONTEND_BOUND), 0.19);
	CHECK_NEAR(VAL(a, BACKEND_BOUND), 0.37);
	CHECK_NEAR(VAL(a, RETIRING), 0.36);
	CHECK_NEAR(VAL(a, BAD_SPECULATION), 0.08);
	CHECK_STR_EQ(run.isa, "aarch64");
	td_run_fini(&run);
}

/* perf std counters (perf-term and libpmc names, "<not counted>") + --cpu skylake: as raw_skylake.txt. */
TEST(perf_std_counters_with_cpu)
{
	struct td_run run;
	CHECK_INT_EQ(import("perf-std_skylake-counters.txt", "skylake", &run, NULL), TD_FMT_PERF_STD);
	const struct td_interval *a = find(&run, 0, "all");
	CHECK_NEAR(VAL(a, FRONTEND_BOUND), 0.2);
	CHECK_NEAR(VAL(a, BAD_SPECULATION), 0.1);
	CHECK_NEAR(VAL(a, RETIRING), 0.5);
	CHECK_NEAR(VAL(a, BACKEND_BOUND), 0.2);
	const struct td_event_count *e = a ? td_interval_event(a, "MACHINE_CLEARS.COUNT") : NULL;
	CHECK(e && !e->counted);
	e = a ? td_interval_event(a, "cpu/event=0xa3,umask=0x14,cmask=20/") : NULL;
	CHECK(e && !e->counted);
	CHECK_NEAR(a ? a->t1 : 0, 1.001234567);
	CHECK_INT_EQ(a ? (long long)a->n_events : 0, 7);
	td_run_fini(&run);
}

/* "# interval: T" splits a raw listing; each interval gets the formula (N1: 250/1000, then 100/1000). */
TEST(raw_intervals)
{
	static const char text[] = "# cpu: neoverse-n1\n# interval: 1.0\ncpu_cycles 1000\nstall_frontend 250\n"
				   "stall_backend 400\n# interval: 2.0\ncpu_cycles 1000\nstall_frontend 100\nstall_backend 600\n";
	struct td_run run;
	td_run_init(&run);
	CHECK_INT_EQ(td_import_text(text, sizeof text - 1, NULL, &run, NULL), TD_FMT_RAW);
	const struct td_interval *a = find(&run, 1.0, "all"), *b = find(&run, 2.0, "all");
	CHECK_NEAR(VAL(a, FRONTEND_STALLED_CYCLES), 0.25);
	CHECK_NEAR(VAL(b, FRONTEND_STALLED_CYCLES), 0.10);
	CHECK_NEAR(VAL(b, BACKEND_STALLED_CYCLES), 0.60);
	CHECK_NEAR(b ? b->t0 : -1, 1.0);
	CHECK_STR_EQ(run.method, "arm_n1_cycles");
	CHECK_INT_EQ(run.approx, 1);
	td_run_fini(&run);
}

TEST(errors_name_the_line)
{
	struct td_run run;
	struct td_diag diag = { 0 };
	static const char bad_json[] = "{\"metric-value\" : \"1.0\", \"metric-unit\" : \"%  tma_retiring\"}\n{\"metric-value\" : \n";
	td_run_init(&run);
	CHECK_INT_EQ(td_import_text(bad_json, sizeof bad_json - 1, NULL, &run, &diag), -spe_bad_input);
	CHECK_INT_EQ(diag.line, 2);
	td_run_fini(&run);

	static const char bad_raw[] = "# cpu: skylake\nUOPS_ISSUED.ANY 10\nthis line has no count\n";
	td_run_init(&run);
	CHECK_INT_EQ(td_import_text(bad_raw, sizeof bad_raw - 1, NULL, &run, &diag), -spe_bad_input);
	CHECK_INT_EQ(diag.line, 3);
	td_run_fini(&run);

	static const char bad_value[] = "retiring,bad speculation,frontend bound,backend bound,\n18.0,x,40.4,25.5,\n";
	td_run_init(&run);
	CHECK_INT_EQ(td_import_text(bad_value, sizeof bad_value - 1, NULL, &run, &diag), -spe_bad_input);
	CHECK_INT_EQ(diag.line, 2);
	CHECK(strstr(diag.msg, "'x'") != NULL);
	td_run_fini(&run);

	static const char missing[] = "CPU_CLK_UNHALTED.THREAD 1000\n";
	struct td_import_opts opts = { .cpu = "skylake" };
	td_run_init(&run);
	CHECK_INT_EQ(td_import_text(missing, sizeof missing - 1, &opts, &run, &diag), -spe_no_data);
	CHECK(strstr(diag.msg, "IDQ_UOPS_NOT_DELIVERED.CORE") != NULL);
	td_run_fini(&run);

	td_run_init(&run);
	CHECK_INT_EQ(td_import_text("", 0, NULL, &run, &diag), -spe_bad_input);
	td_run_fini(&run);
}

int main(int argc, char **argv)
{
	fixtures = argc > 1 ? argv[1] : ".";
	RUN(perf65_spr_std);
	RUN(perf65_hybrid_std);
	RUN(perf65_json);
	RUN(perf65_csv);
	RUN(perf2022_json_counters_only);
	RUN(perf63_interval_std);
	RUN(perf64_tma_interval_std);
	RUN(perf_pre64_percore_tremont_and_locale);
	RUN(perf_csv_metric_only_and_threshold);
	RUN(perf65_interval_groups_and_percore_csv);
	RUN(perf_json_metric_only_eras);
	RUN(perf_arm_names);
	RUN(unitless_fractions_and_intel_events);
	RUN(backend_bound_bad_spec_fallback);
	RUN(interval_slots_and_cycles);
	RUN(toplev_csv);
	RUN(topdown_tool_csv);
	RUN(raw_listings);
	RUN(perf_std_counters_with_cpu);
	RUN(raw_intervals);
	RUN(errors_name_the_line);
	return check_summary();
}
