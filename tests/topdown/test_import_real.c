/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Real outputs of perf stat (4.15 .. 6.18), toplev and Arm's topdown-tool,
 * as people posted them (fixtures/topdown/README.md says where each comes
 * from).  Every topdown value a file prints is typed below by hand from the
 * file, as the percentage printed, with the run, scope and interval end it
 * must land in; the test checks each one and that nothing else was stored.
 * A "-" value is perf's empty or "nan" field (stored as NULL).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "text_file.h"
#include "topdown/import.h"

static const char *fixtures;

#define NA NAN /* printed empty or "nan" */

/* One printed value: in run @run (0-based), scope @scope, interval ending at @t (0: the whole run). */
struct want {
	int run;
	const char *scope;
	double t;
	enum td_node node;
	double percent;
};

/* What a file must import to: runs, their metadata, and every value. */
struct file_case {
	const char *file;
	const char *cpu; /* --cpu, or NULL */
	enum td_format format;
	int runs;
	const char *isa, *method; /* of every run; NULL: not set */
	const struct want *want;
	size_t n_want;
};

static int import_file(const struct file_case *fc, struct td_import_result *res, struct td_diag *diag)
{
	size_t len;
	char *text = test_read_text(fixtures, fc->file, &len);
	td_import_result_init(res);
	if (!text)
		return -999;
	struct td_import_opts opts = { .cpu = fc->cpu };
	int rc = td_import_runs(text, len, &opts, res, diag);
	free(text);
	return rc;
}

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

static void check_case(const struct file_case *fc)
{
	struct td_import_result res;
	struct td_diag diag = { 0 };
	int rc = import_file(fc, &res, &diag);
	if (rc != (int)fc->format) {
		CHECK_FAIL_("%s: import returned %d (%s, line %ld), want format %d", fc->file, rc, diag.msg, diag.line,
			    (int)fc->format);
		td_import_result_fini(&res);
		return;
	}
	if ((int)res.n_runs != fc->runs)
		CHECK_FAIL_("%s: %zu runs, want %d", fc->file, res.n_runs, fc->runs);
	size_t stored = 0;
	for (size_t r = 0; r < res.n_runs; r++) {
		const struct td_run *run = &res.runs[r];
		stored += td_run_value_count(run);
		if (fc->isa ? !run->isa || strcmp(run->isa, fc->isa) : run->isa != NULL)
			CHECK_FAIL_("%s run %zu: isa %s, want %s", fc->file, r, run->isa ? run->isa : "(none)",
				    fc->isa ? fc->isa : "(none)");
		if (fc->method && (!run->method || strcmp(run->method, fc->method)))
			CHECK_FAIL_("%s run %zu: method %s, want %s", fc->file, r, run->method ? run->method : "(none)",
				    fc->method);
	}
	for (size_t i = 0; i < fc->n_want; i++) {
		const struct want *w = &fc->want[i];
		const struct td_interval *iv = w->run < (int)res.n_runs ? find(&res.runs[w->run], w->t, w->scope) : NULL;
		if (!iv) {
			CHECK_FAIL_("%s: run %d has no interval %s ending at %g", fc->file, w->run, w->scope, w->t);
			continue;
		}
		double got = iv->values.frac[w->node];
		int ok = iv->values.set[w->node] &&
			 (isnan(w->percent) ? isnan(got) : fabs(got - w->percent / 100) < 1e-9);
		if (!ok)
			CHECK_FAIL_("%s run %d [%s] %s: got %s%.6f, want %.6f", fc->file, w->run, w->scope,
				    td_node_name(w->node), iv->values.set[w->node] ? "" : "(unset) ", got, w->percent / 100);
	}
	/* nothing but the printed values (each pair of perf <= 6.3 fallbacks aside) */
	if (stored != fc->n_want)
		CHECK_FAIL_("%s: %zu values stored, %zu printed", fc->file, stored, fc->n_want);
	td_import_result_fini(&res);
}

#define CASE(file, cpu, fmt, runs, isa, method, w) { file, cpu, fmt, runs, isa, method, w, sizeof w / sizeof w[0] }
#define L1(run, scope, t, ret, bad, fe, be)                                                              \
	{ run, scope, t, TD_RETIRING, ret }, { run, scope, t, TD_BAD_SPECULATION, bad },                 \
		{ run, scope, t, TD_FRONTEND_BOUND, fe }, { run, scope, t, TD_BACKEND_BOUND, be }

/* pmu-tools#203: perf 4.15 -x, --topdown on Cascade Lake; the empty last field is backend bound. */
static const struct want w_415[] = { L1(0, "S0-C0", 0, 151.0, 3.9, 26.0, NA) };

/* likwid#391: perf stat -I 1000 --topdown -a on Rocket Lake (PERF_METRICS, pre-6.4 labels). */
static const struct want w_rkl[] = {
	L1(0, "all", 1.001195802, 6.7, 6.6, 32.6, 54.0),  L1(0, "all", 2.002668103, 5.7, 7.5, 36.2, 50.6),
	L1(0, "all", 3.004105409, 5.9, 7.7, 36.9, 49.6),  L1(0, "all", 4.005561887, 14.7, 1.5, 11.0, 72.9),
	L1(0, "all", 5.006996836, 7.8, 7.4, 34.9, 49.9),  L1(0, "all", 6.008456959, 5.5, 7.2, 35.4, 51.9),
	L1(0, "all", 7.009903367, 5.5, 7.4, 35.2, 51.9),  L1(0, "all", 8.011357568, 13.0, 2.0, 12.5, 72.5),
};

/* learn.arm.com topdown-compare: perf --topdown per core, program output above it. */
static const struct want w_skl_td[] = { L1(0, "S0-D0-C1", 6.119817329, 18.3, 0.0, 0.1, 81.6) };

/* Same page: -M topdownl1, metrics on event lines as bare fractions, events repeated. */
static const struct want w_skl_m[] = { L1(0, "all", 6.052936784, 9, 0, 0, 91) };

/* Kan Liang, 2023-06-07: SPR before (TOPDOWN.SLOTS:u carries the metrics) and after (TopdownL1/L2). */
static const struct want w_spr_ba[] = {
	L1(0, "all", 1.001798215, 17.2, 23.1, 41.4, 18.4),
	L1(1, "all", 1.001712086, 17.1, 22.6, 42.7, 17.5),
	{ 1, "all", 1.001712086, TD_BRANCH_MISPREDICTS, 21.8 },
	{ 1, "all", 1.001712086, TD_CORE_BOUND, 11.5 },
	{ 1, "all", 1.001712086, TD_FETCH_BANDWIDTH, 13.4 },
	{ 1, "all", 1.001712086, TD_FETCH_LATENCY, 29.3 },
	{ 1, "all", 1.001712086, TD_HEAVY_OPERATIONS, 2.7 },
	{ 1, "all", 1.001712086, TD_LIGHT_OPERATIONS, 14.5 },
	{ 1, "all", 1.001712086, TD_MACHINE_CLEARS, 0.8 },
	{ 1, "all", 1.001712086, TD_MEMORY_BOUND, 6.1 },
};

/* Ian Rogers, 2025-11-10: ADL, metrics on cpu_core/... and cpu_atom/... event lines, before and after. */
static const struct want w_adl_ev[] = {
	L1(0, "cpu_core", 0, 34.1, 10.4, 19.7, 35.7), L1(0, "cpu_atom", 0, 12.2, 15.1, 34.2, 38.4),
	L1(1, "cpu_core", 0, 20.1, 7.9, 36.4, 35.5),  L1(1, "cpu_atom", 0, 12.4, 17.6, 38.0, 32.0),
};

/* Jing Zhang, 2023-01-13: Neoverse N2, -M TLB, -M TopDownL1, -M branch; only the second has topdown. */
static const struct want w_n2[] = { L1(0, "all", 0.455229807, 5.1, 0.0, 26.7, 68.8) };

/* arm-learning-paths false sharing: perf stat -r 3 on the AGI CPU (Neoverse V3AE), two runs. */
static const struct want w_v3ae[] = {
	L1(0, "all", 7.739760343, 12.3, 0.0, 1.8, 85.8),
	L1(1, "all", 5.557039735, 19.9, 0.0, 1.9, 78.1),
};

/* Ian Rogers, 2024-10-16: perf stat -a -j -I 1000 with metric-threshold. */
static const struct want w_json_thr[] = { L1(0, "all", 1.001089747, 33.623465, 7.610161, 36.729687, 22.036686) };

/* Arnaldo Carvalho de Melo, 2024-02: -x, on a hybrid laptop, only the atom PMU counted. */
static const struct want w_adl_csv[] = { L1(0, "cpu_atom", 0, 0.0, 87.9, 24.0, 31.5) };

/* perf-book 6-2: "TopdownL1 (cpu_core)" trimmed, with "<==" pasted. */
static const struct want w_book_adl[] = { L1(0, "cpu_core", 0, 32.5, 0.2, 13.8, 53.4) };

/* perf-book 6-3: Zen 4 PipelineL1,PipelineL2, counts trimmed away. */
static const struct want w_zen4[] = {
	L1(0, "all", 0, 26.3, 0.0, 6.1, 67.5),
	{ 0, "all", 0, TD_BRANCH_MISPREDICTS, 0.0 },   /* bad_speculation_mispredicts */
	{ 0, "all", 0, TD_MACHINE_CLEARS, 0.0 },       /* bad_speculation_pipeline_restarts */
	{ 0, "all", 0, TD_FETCH_BANDWIDTH, 6.1 },      /* frontend_bound_bandwidth */
	{ 0, "all", 0, TD_FETCH_LATENCY, 0.1 },        /* frontend_bound_latency */
	{ 0, "all", 0, TD_CORE_BOUND, 65.9 },          /* backend_bound_cpu */
	{ 0, "all", 0, TD_MEMORY_BOUND, 1.7 },         /* backend_bound_memory */
	{ 0, "all", 0, TD_LIGHT_OPERATIONS, 20.2 },    /* retiring_fastpath */
	{ 0, "all", 0, TD_HEAVY_OPERATIONS, 6.1 },     /* retiring_microcode */
};

/* Kan Liang, 2023-06-16 (LKML cover letter): SPR and hybrid ADL, std/JSON/CSV. */
static const struct want w_spr_std[] = {
	L1(0, "all", 1.006529767, 15.2, 3.1, 13.0, 68.7),
	{ 0, "all", 1.006529767, TD_BRANCH_MISPREDICTS, 2.7 },
	{ 0, "all", 1.006529767, TD_CORE_BOUND, 19.6 },
	{ 0, "all", 1.006529767, TD_FETCH_BANDWIDTH, 4.8 },
	{ 0, "all", 1.006529767, TD_FETCH_LATENCY, 8.3 },
	{ 0, "all", 1.006529767, TD_HEAVY_OPERATIONS, 2.9 },
	{ 0, "all", 1.006529767, TD_LIGHT_OPERATIONS, 12.3 },
	{ 0, "all", 1.006529767, TD_MACHINE_CLEARS, 0.4 },
	{ 0, "all", 1.006529767, TD_MEMORY_BOUND, 49.1 },
};
static const struct want w_adl_std[] = {
	L1(0, "cpu_core", 1.004244114, NA, 0.0, NA, NA),
	L1(0, "cpu_atom", 1.004244114, 5.4, 13.6, 41.1, 39.2),
};

/* toplev, pmu-tools#203: "Backend_Bound:   % Slots   59.45 <==" and -v description lines. */
static const struct want w_tl_203[] = { { 0, "S1-C0", 0, TD_BACKEND_BOUND, 59.45 } };

/* toplev 2015, pmu-tools#20: -l2 per core, "S0-C0-T1BE/Mem" glued, "mismeasured". */
static const struct want w_tl_20[] = {
	{ 0, "S0-C0", 0, TD_FRONTEND_BOUND, 32.92 },  { 0, "S0-C0", 0, TD_FETCH_LATENCY, 27.60 },
	{ 0, "S0-C0", 0, TD_BACKEND_BOUND, 52.92 },   { 0, "S0-C1", 0, TD_FRONTEND_BOUND, 36.04 },
	{ 0, "S0-C1", 0, TD_FETCH_LATENCY, 29.17 },   { 0, "S0-C0-T1", 0, TD_MEMORY_BOUND, 0.00 },
};

/* toplev 3.4, pmu-tools#125: "23.77 % Slots [100.00%] <==". */
static const struct want w_tl_125[] = {
	{ 0, "S0-C0", 0, TD_FRONTEND_BOUND, 23.77 },
	{ 0, "S0-C0", 0, TD_BACKEND_BOUND, 11.11 },
};

/* toplev 2016, pmu-tools#47: level 3 and 4 lines dropped. */
static const struct want w_tl_47[] = {
	{ 0, "all", 0, TD_BACKEND_BOUND, 82.25 },
	{ 0, "all", 0, TD_MEMORY_BOUND, 57.41 },
};

/* toplev 4.0, pmu-tools#273: "?" and "<==" markers, descriptions. */
static const struct want w_tl_273[] = {
	L1(0, "C0", 0, 37.59, 25.52, 23.86, 13.28),
	{ 0, "C0", 0, TD_FETCH_LATENCY, 8.74 },
	{ 0, "C0", 0, TD_FETCH_BANDWIDTH, 14.57 },
	{ 0, "C0", 0, TD_BRANCH_MISPREDICTS, 26.17 },
};

/* toplev 4.5, pmu-tools#449: "[ 1.8%]" multiplexing and Info lines. */
static const struct want w_tl_449[] = { L1(0, "all", 0, 54.2, 7.7, 18.4, 19.5) };

/* toplev 4.11 CSV, pmu-tools#369: the broken values are kept raw. */
static const struct want w_tl_369[] = { L1(0, "C0", 0, 27.3, 13273.4, 53.9, -13254.6) };

/* toplev 4.7, aayasin/perf-tools#68. */
static const struct want w_tl_68[] = { { 0, "all", 0, TD_BACKEND_BOUND, 94.0 } };

/* perf-book 6-2: two toplev runs, -l2 and -l3 (level 3 dropped), old node names. */
static const struct want w_tl_book[] = {
	L1(0, "S0-C0", 0, 32.49, 0.23, 13.92, 53.39),
	{ 0, "S0-C0", 0, TD_FETCH_LATENCY, 12.11 },      /* Frontend_Bound.FE_Latency */
	{ 0, "S0-C0", 0, TD_FETCH_BANDWIDTH, 1.84 },
	{ 0, "S0-C0", 0, TD_BRANCH_MISPREDICTS, 0.22 },  /* Bad_Speculation.Branch_Mispred */
	{ 0, "S0-C0", 0, TD_MACHINE_CLEARS, 0.01 },
	{ 0, "S0-C0", 0, TD_MEMORY_BOUND, 44.59 },
	{ 0, "S0-C0", 0, TD_CORE_BOUND, 8.80 },
	{ 0, "S0-C0", 0, TD_LIGHT_OPERATIONS, 24.83 },   /* Retiring.Base */
	{ 0, "S0-C0", 0, TD_HEAVY_OPERATIONS, 7.65 },    /* Retiring.Microcode_Sequencer */
	L1(1, "S0-C0", 0, 32.41, 0.24, 13.91, 53.36),
	{ 1, "S0-C0", 0, TD_FETCH_LATENCY, 12.10 },      /* FE_Bound.FE_Latency */
	{ 1, "S0-C0", 0, TD_FETCH_BANDWIDTH, 1.85 },
	{ 1, "S0-C0", 0, TD_MEMORY_BOUND, 44.58 },
	{ 1, "S0-C0", 0, TD_CORE_BOUND, 8.78 },
};

/* topdown-tool on the AGI CPU (V3AE), rich table, stage 2 cycle accounting. */
static const struct want w_tt_v3ae[] = {
	{ 0, "all", 0, TD_BACKEND_STALLED_CYCLES, 76.149 },
	{ 0, "all", 0, TD_FRONTEND_STALLED_CYCLES, 0.045 },
};

/* telemetry-solution README.CPU.md: default (stage 1 + stage 2), -s 1, combined, -C per core. */
static const struct want w_tt_default[] = {
	L1(0, "all", 0, 40.01, 8.63, 12.42, 39.07),
	{ 0, "all", 0, TD_BACKEND_STALLED_CYCLES, 36.08 },
	{ 0, "all", 0, TD_FRONTEND_STALLED_CYCLES, 3.54 },
};
static const struct want w_tt_stage1[] = { L1(0, "all", 0, 39.99, 8.78, 12.55, 38.80) };
static const struct want w_tt_combined[] = { { 0, "all", 0, TD_FRONTEND_BOUND, 12.09 } };
static const struct want w_tt_percore[] = {
	L1(0, "all", 0, 8.75, 0.97, 17.45, 73.28),  L1(0, "CPU0", 0, 8.97, 0.84, 19.26, 71.97),
	L1(0, "CPU2", 0, 8.57, 1.07, 14.93, 75.68), L1(0, "CPU3", 0, 8.59, 1.08, 16.59, 73.29),
};
static const struct want w_tt_csv[] = {
	{ 0, "all", 0.10, TD_RETIRING, 17.02 },
	{ 0, "all", 0.10, TD_FRONTEND_BOUND, 37.11 },
};

/* telemetry-solution README.md at da3ebb3 (2023): dotted lines, default and combined. */
static const struct want w_tt_n1[] = {
	{ 0, "all", 0, TD_FRONTEND_STALLED_CYCLES, 0.02 },
	{ 0, "all", 0, TD_BACKEND_STALLED_CYCLES, 42.59 },
};
static const struct want w_tt_n1c[] = {
	{ 0, "all", 0, TD_FRONTEND_STALLED_CYCLES, 0.00 },
	{ 0, "all", 0, TD_BACKEND_STALLED_CYCLES, 42.78 },
};

/* perf-book 6-4: two topdown-tool runs on Graviton3 (V1), dotted "% slots". */
static const struct want w_tt_v1[] = {
	L1(0, "all", 0, 27.99, 0.59, 16.48, 54.92),
	{ 1, "all", 0, TD_BACKEND_BOUND, 54.70 },
};

/* learn.arm.com topdown-compare: topdown-tool on V2, program output above the table. */
static const struct want w_tt_learn[] = {
	{ 0, "all", 0, TD_BACKEND_STALLED_CYCLES, 89.22 },
	{ 0, "all", 0, TD_FRONTEND_STALLED_CYCLES, 0.02 },
};

static const struct file_case cases[] = {
	CASE("perf-4.15_cascadelake-percore-metric-only.csv", NULL, TD_FMT_PERF_CSV, 1, "x86_64", "perf_legacy", w_415),
	CASE("perf-5.x_rocketlake-interval-std.txt", NULL, TD_FMT_PERF_STD, 1, "x86_64", "perf_legacy", w_rkl),
	CASE("perf-6.x_skylake-topdown-percore-std.txt", NULL, TD_FMT_PERF_STD, 1, "x86_64", "perf_legacy", w_skl_td),
	CASE("perf-6.x_skylake-M-topdownl1-std.txt", NULL, TD_FMT_PERF_STD, 1, "x86_64", "perf_metrics", w_skl_m),
	CASE("perf-6.4_spr-before-after-std.txt", NULL, TD_FMT_PERF_STD, 2, "x86_64", "perf_metrics", w_spr_ba),
	CASE("perf-6.18_adl-hybrid-event-metrics-std.txt", NULL, TD_FMT_PERF_STD, 2, "x86_64", "perf_metrics", w_adl_ev),
	CASE("perf-6.2_neoverse-n2-TopDownL1-std.txt", NULL, TD_FMT_PERF_STD, 1, "aarch64", "perf_metrics", w_n2),
	CASE("perf-6.x_neoverse-v3ae-repeat-std.txt", NULL, TD_FMT_PERF_STD, 2, "aarch64", "perf_metrics", w_v3ae),
	CASE("perf-6.12_json-threshold-interval.json", NULL, TD_FMT_PERF_JSON, 1, "x86_64", "perf_metrics", w_json_thr),
	CASE("perf-6.8_adl-atom-user-csv.txt", NULL, TD_FMT_PERF_CSV, 1, "x86_64", "perf_metrics", w_adl_csv),
	CASE("perf-6.x_adl-perf-book-trimmed-std.txt", NULL, TD_FMT_PERF_STD, 1, "x86_64", "perf_metrics", w_book_adl),
	CASE("perf-6.5_zen4-PipelineL1L2-perf-book-trimmed.txt", NULL, TD_FMT_PERF_STD, 1, "x86_64", "amd_pipeline", w_zen4),
	CASE("perf-6.5_spr-std.txt", NULL, TD_FMT_PERF_STD, 1, "x86_64", "perf_metrics", w_spr_std),
	CASE("perf-6.5_adl-std.txt", NULL, TD_FMT_PERF_STD, 1, "x86_64", "perf_metrics", w_adl_std),
	CASE("toplev-3.x_cascadelake-v.txt", NULL, TD_FMT_TOPLEV_TEXT, 1, "x86_64", "toplev", w_tl_203),
	CASE("toplev-2015_pmu-tools-20-l2.txt", NULL, TD_FMT_TOPLEV_TEXT, 1, "x86_64", "toplev", w_tl_20),
	CASE("toplev-3.4_broadwell-pmu-tools-125.txt", NULL, TD_FMT_TOPLEV_TEXT, 1, "x86_64", "toplev", w_tl_125),
	CASE("toplev-2016_pmu-tools-47-verbose.txt", NULL, TD_FMT_TOPLEV_TEXT, 1, "x86_64", "toplev", w_tl_47),
	CASE("toplev-4.0_kabylake-pmu-tools-273.txt", NULL, TD_FMT_TOPLEV_TEXT, 1, "x86_64", "toplev", w_tl_273),
	CASE("toplev-4.5_icelake-pmu-tools-449.txt", NULL, TD_FMT_TOPLEV_TEXT, 1, "x86_64", "toplev", w_tl_449),
	CASE("toplev-4.11_skylake-pmu-tools-369.csv", NULL, TD_FMT_TOPLEV_CSV, 1, "x86_64", "toplev", w_tl_369),
	CASE("toplev-4.7_icelake-server-perf-tools-68.txt", NULL, TD_FMT_TOPLEV_TEXT, 1, "x86_64", "toplev", w_tl_68),
	CASE("toplev_perf-book-l2.txt", NULL, TD_FMT_TOPLEV_TEXT, 2, "x86_64", "toplev", w_tl_book),
	CASE("topdown-tool_neoverse-v3ae_cycle-accounting.txt", NULL, TD_FMT_TOPDOWN_TOOL_TEXT, 1, "aarch64", "arm_topdown", w_tt_v3ae),
	CASE("topdown-tool_neoverse-v2_default.txt", NULL, TD_FMT_TOPDOWN_TOOL_TEXT, 1, "aarch64", "arm_topdown", w_tt_default),
	CASE("topdown-tool_neoverse-v2_stage1.txt", NULL, TD_FMT_TOPDOWN_TOOL_TEXT, 1, "aarch64", "arm_topdown", w_tt_stage1),
	CASE("topdown-tool_neoverse-v2_combined.txt", NULL, TD_FMT_TOPDOWN_TOOL_TEXT, 1, "aarch64", "arm_topdown", w_tt_combined),
	CASE("topdown-tool_neoverse-v2_percore.txt", NULL, TD_FMT_TOPDOWN_TOOL_TEXT, 1, "aarch64", "arm_topdown", w_tt_percore),
	CASE("topdown-tool_readme-interval-metrics.csv", NULL, TD_FMT_TOPDOWN_TOOL_CSV, 1, "aarch64", "arm_topdown", w_tt_csv),
	CASE("topdown-tool_neoverse-n1_dotted-2023.txt", NULL, TD_FMT_TOPDOWN_TOOL_TEXT, 1, "aarch64", "arm_topdown", w_tt_n1),
	CASE("topdown-tool_neoverse-n1_dotted-combined-2023.txt", NULL, TD_FMT_TOPDOWN_TOOL_TEXT, 1, "aarch64", "arm_topdown", w_tt_n1c),
	CASE("topdown-tool_neoverse-v1_dotted-perf-book.txt", NULL, TD_FMT_TOPDOWN_TOOL_TEXT, 2, "aarch64", "arm_topdown", w_tt_v1),
	CASE("topdown-tool_neoverse-v2_learn-cycle-accounting.txt", NULL, TD_FMT_TOPDOWN_TOOL_TEXT, 1, "aarch64", "arm_topdown", w_tt_learn),
};

TEST(every_printed_value)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		check_case(&cases[i]);
}

static const struct td_run *only_run(const struct td_import_result *res)
{
	return res->n_runs == 1 ? &res->runs[0] : NULL;
}

/* Counts whatever the PMU prefix or modifier: slots and cycles still weight the run. */
TEST(modifiers_and_pmu_prefixes)
{
	struct td_import_result res;
	struct td_diag diag = { 0 };
	struct file_case fc = { .file = "perf-6.4_spr-before-after-std.txt" };
	CHECK(import_file(&fc, &res, &diag) > 0);
	const struct td_interval *iv = res.n_runs == 2 ? find(&res.runs[0], 1.001798215, "all") : NULL;
	CHECK_NEAR_TOL(iv ? iv->slots : 0, 3245820, 1e-9);  /* TOPDOWN.SLOTS:u */
	CHECK_NEAR_TOL(iv ? iv->cycles : 0, 540970, 1e-9);  /* cycles:u */
	td_import_result_fini(&res);

	fc.file = "perf-6.18_adl-hybrid-event-metrics-std.txt";
	CHECK(import_file(&fc, &res, &diag) > 0);
	iv = res.n_runs == 2 ? find(&res.runs[0], 0, "cpu_core") : NULL;
	CHECK_NEAR_TOL(iv ? iv->slots : 0, 7782334296.0, 1e-9);  /* cpu_core/TOPDOWN.SLOTS/ */
	iv = res.n_runs == 2 ? find(&res.runs[0], 0, "cpu_atom") : NULL;
	CHECK_NEAR_TOL(iv ? iv->cycles : 0, 457917232, 1e-9);    /* cpu_atom/CPU_CLK_UNHALTED.CORE/ */
	/* cpu_core/INT_MISC.UOP_DROPPING/, printed after the atom events, is still the core's */
	iv = res.n_runs == 2 ? find(&res.runs[0], 0, "cpu_core") : NULL;
	CHECK(iv && td_interval_event(iv, "cpu_core/INT_MISC.UOP_DROPPING/") != NULL);
	td_import_result_fini(&res);

	fc.file = "perf-6.x_skylake-M-topdownl1-std.txt"; /* the first count of a repeated event is kept */
	CHECK(import_file(&fc, &res, &diag) > 0);
	iv = only_run(&res) ? find(only_run(&res), 6.052936784, "all") : NULL;
	CHECK_NEAR_TOL(iv ? iv->cycles : 0, 19206823557.0, 1e-9);
	td_import_result_fini(&res);

	fc.file = "toplev-4.5_icelake-pmu-tools-449.txt"; /* "Info.Thread SLOTS Count 1,035,193,342,312" */
	CHECK(import_file(&fc, &res, &diag) > 0);
	iv = only_run(&res) ? find(only_run(&res), 0, "all") : NULL;
	CHECK_NEAR_TOL(iv ? iv->slots : 0, 1035193342312.0, 1e-9);
	CHECK_STR_EQ(only_run(&res) ? only_run(&res)->cpu : NULL, "icelake"); /* from "[icx/icelake]" */
	td_import_result_fini(&res);
}

/* Blocks without topdown values are skipped with a note naming their lines. */
TEST(skipped_blocks_are_noted)
{
	struct td_import_result res;
	struct td_diag diag = { 0 };
	struct file_case fc = { .file = "perf-6.2_neoverse-n2-TopDownL1-std.txt" };
	CHECK(import_file(&fc, &res, &diag) > 0);
	CHECK_INT_EQ(res.n_runs, 1);
	CHECK_INT_EQ(res.n_runs ? res.first_line[0] : 0, 26); /* "$sudo ./perf stat -M TopDownL1 false_sharing 2" */
	CHECK_INT_EQ(res.n_notes, 2);
	CHECK(res.n_notes > 0 && strstr(res.notes[0], "lines 1-25: no topdown metrics (L2D_TLB") != NULL);
	/* BR_MIS_PRED_RETIRED is not Arm's BR_MIS_PRED: --cpu would not help, so it is not suggested */
	CHECK(res.n_notes > 1 && strstr(res.notes[1], "lines 45-59: no topdown metrics") != NULL);
	CHECK(res.n_notes > 1 && strstr(res.notes[1], "--cpu") == NULL);
	td_import_result_fini(&res);
}

/* AMD: x86_64, its own method; bare level 1 names alone (Arm's and AMD's) leave the ISA unknown. */
TEST(amd_and_ambiguous_names)
{
	struct td_import_result res;
	struct td_diag diag = { 0 };
	struct file_case fc = { .file = "perf-6.5_zen4-PipelineL1L2-perf-book-trimmed.txt" };
	CHECK(import_file(&fc, &res, &diag) > 0);
	CHECK_STR_EQ(only_run(&res) ? only_run(&res)->cpu : NULL, "amd");
	td_import_result_fini(&res);

	static const char zen4_counts[] =
		"    74,722,674,738      de_src_op_disp.all               #      5.8 %  bad_speculation          (50.01%)\n"
		"    29,557,874,567      ls_not_halted_cyc                #     36.3 %  retiring                 (50.01%)\n";
	td_import_result_init(&res);
	CHECK_INT_EQ(td_import_runs(zen4_counts, sizeof zen4_counts - 1, NULL, &res, &diag), TD_FMT_PERF_STD);
	CHECK_STR_EQ(only_run(&res) ? only_run(&res)->isa : NULL, "x86_64");
	CHECK_STR_EQ(only_run(&res) ? only_run(&res)->method : NULL, "amd_pipeline");
	td_import_result_fini(&res);

	static const char bare[] = "  6.1 %  frontend_bound\n 67.5 %  backend_bound\n";
	td_import_result_init(&res);
	CHECK_INT_EQ(td_import_runs(bare, sizeof bare - 1, NULL, &res, &diag), TD_FMT_PERF_STD);
	CHECK(only_run(&res) && only_run(&res)->isa == NULL);
	td_import_result_fini(&res);
}

/*
 * Hybrid groups printed without their PMU (hand-made, from the ADL values
 * above): the second block of the same nodes is the other PMU's, in the
 * order perf first printed the PMUs.
 */
TEST(unlabeled_hybrid_groups)
{
	static const struct want w[] = {
		L1(0, "cpu_core", 1.004244114, 40.0, 5.0, 25.0, 30.0),
		L1(0, "cpu_atom", 1.004244114, 5.4, 13.6, 41.1, 39.2),
	};
	struct file_case fc = CASE("perf-6.4_adl-unlabeled-groups-std.txt", NULL, TD_FMT_PERF_STD, 1, "x86_64",
				   "perf_metrics", w);
	check_case(&fc);
}

/* A second value for a node in one run and scope is refused, naming both lines; never overwritten. */
TEST(second_value_is_refused)
{
	static const char twice[] = "                        TopdownL1                 #     17.5 %  tma_backend_bound\n"
				    "                                                  #     22.6 %  tma_bad_speculation\n"
				    "                        TopdownL1                 #     18.0 %  tma_backend_bound\n";
	struct td_import_result res;
	struct td_diag diag = { 0 };
	td_import_result_init(&res);
	CHECK_INT_EQ(td_import_runs(twice, sizeof twice - 1, NULL, &res, &diag), -spe_bad_input);
	CHECK_INT_EQ(diag.line, 3);
	CHECK(strstr(diag.msg, "second backend_bound value (18%)") != NULL);
	CHECK(strstr(diag.msg, "the first (17.5%) is on line 1") != NULL);
	td_import_result_fini(&res);

	/* the same file twice, each with perf's header: two runs, nothing refused */
	static const char two_runs[] = " Performance counter stats for 'a':\n"
				       "                        TopdownL1                 #     17.5 %  tma_backend_bound\n"
				       " Performance counter stats for 'b':\n"
				       "                        TopdownL1                 #     18.0 %  tma_backend_bound\n";
	td_import_result_init(&res);
	CHECK_INT_EQ(td_import_runs(two_runs, sizeof two_runs - 1, NULL, &res, &diag), TD_FMT_PERF_STD);
	CHECK_INT_EQ(res.n_runs, 2);
	td_import_result_fini(&res);

	/* td_import_text takes one run only, and says where the others start */
	struct td_run run;
	td_run_init(&run);
	CHECK_INT_EQ(td_import_text(two_runs, sizeof two_runs - 1, NULL, &run, &diag), -spe_bad_input);
	CHECK(strstr(diag.msg, "2 runs (starting on lines 1, 3)") != NULL);
	td_run_fini(&run);
}

int main(int argc, char **argv)
{
	fixtures = argc > 1 ? argv[1] : ".";
	RUN(every_printed_value);
	RUN(modifiers_and_pmu_prefixes);
	RUN(skipped_blocks_are_noted);
	RUN(amd_and_ambiguous_names);
	RUN(unlabeled_hybrid_groups);
	RUN(second_value_is_refused);
	return check_summary();
}
