/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SPE report and the cross-ISA report on a database this test builds
 * with the real schema code (spe_db_open_memory): SPE records inserted into
 * its tables (column names from the facts table), an Arm V3 run (topdown-tool) and an Intel SPR run
 * (perf stat 6.5), both of workload "stream".
 *
 * SPE rows (symbol, class, level, total latency, tlb walk, mispredicted):
 *   triad load DRAM 300 walk | triad load DRAM 200 | triad load L2 20 |
 *   copy load SLC 80 | copy store L1D 10 | copy load L1D 5 | main load L1D 5 |
 *   main branch 10 mispred | main branch 10 | triad branch 10 mispred |
 *   triad branch 5 | triad branch 5 mispred | copy other 0
 * By hand: load latency 610 -> L1D 2 loads 10 (1.6%), L2 1/20 (3.3%),
 * SLC 1/80 (13.1%), DRAM 2/500 (82.0%); all latency 660 -> triad 540 (81.8%),
 * copy 95 (14.4%), main 25 (3.8%); TLB walks 1 of 7 (14.3%), 300/620 = 48.4%
 * of latency; mispredicts triad 2 of 3 (66.7%), main 1 of 2 (50.0%).
 * Cross-ISA: Arm memory_bound ~ backend_bound 0.30 x backend_mem_bound 0.60 = 18.0%.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "spe/analysis.h"
#include "spe/spe.h"
#include "spe/packet.h"
#include "spe/record.h"
#include "topdown/import.h"
#include "report/text.h"
#include "topdown/store.h"

static const char *fixtures;

static const char *op_class(enum spe_op_class c)
{
	switch (c) {
#define X(id, name) case SPE_OP_CLASS_##id: return name;
		SPE_OP_CLASS_LIST(X)
#undef X
	}
	return NULL;
}

static const char *mem_level(enum spe_mem_level l)
{
	switch (l) {
#define X(id, name, peer, desc) case SPE_MEM_LEVEL_##id: return name;
		SPE_MEM_LEVEL_LIST(X)
#undef X
	case SPE_MEM_LEVEL_UNKNOWN: break;
	}
	return NULL;
}

static const char *latency_col(void)
{
#define X(idx, id, w, col, d) if (SPE_CNT_##id == SPE_CNT_TOTAL) return col;
	SPE_COUNTER_LIST(X)
#undef X
	return NULL;
}

static int exec(sqlite3 *db, const char *sql)
{
	char *err = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
		CHECK_FAIL_("SQL failed: %s\n  %s", err, sql);
		sqlite3_free(err);
		return -1;
	}
	return 0;
}

/*
 * SPE records of source @p source in the real tables (spe_schema_create):
 * source, symbol, insn, _spe_record (behind the spe_record view) and pc_histogram,
 * which the loader counts while loading and which is counted here by SQL.
 */
static void add_spe(sqlite3 *db, int source, unsigned midr, const char *part)
{
	char sql[1024];
	snprintf(sql, sizeof sql,
		 "INSERT INTO source (id, file, kind, loaded_at) VALUES (%d, 'stream-%d.data', 'perf.data', 'now');"
		 "INSERT INTO symbol (id, name, start, file, line) VALUES (%d, 'triad', 4096, 'stream.c', 50),"
		 " (%d, 'copy', 8192, 'stream.c', 30), (%d, 'main', 12288, 'stream.c', 10);",
		 source, source, 10 * source + 1, 10 * source + 2, 10 * source + 3);
	exec(db, sql);
	/* the CPU spe-load records for the capture (from its MIDR): what the runs are checked against */
	snprintf(sql, sizeof sql, "INSERT INTO cpu (source_id, cpu, midr, part) VALUES (%d, 0, %u, '%s')", source, midr,
		 part);
	exec(db, sql);
	static const struct {
		enum spe_op_class cls;
		enum spe_mem_level level;
		int lat, walk, mispred, sym;
	} rows[] = {
		{ SPE_OP_CLASS_LOAD, SPE_MEM_LEVEL_DRAM, 300, 1, 0, 1 },
		{ SPE_OP_CLASS_LOAD, SPE_MEM_LEVEL_DRAM, 200, 0, 0, 1 },
		{ SPE_OP_CLASS_LOAD, SPE_MEM_LEVEL_L2, 20, 0, 0, 1 },
		{ SPE_OP_CLASS_LOAD, SPE_MEM_LEVEL_SLC, 80, 0, 0, 2 },
		{ SPE_OP_CLASS_STORE, SPE_MEM_LEVEL_L1D, 10, 0, 0, 2 },
		{ SPE_OP_CLASS_LOAD, SPE_MEM_LEVEL_L1D, 5, 0, 0, 2 },
		{ SPE_OP_CLASS_LOAD, SPE_MEM_LEVEL_L1D, 5, 0, 0, 3 },
		{ SPE_OP_CLASS_BRANCH, SPE_MEM_LEVEL_UNKNOWN, 10, 0, 1, 3 },
		{ SPE_OP_CLASS_BRANCH, SPE_MEM_LEVEL_UNKNOWN, 10, 0, 0, 3 },
		{ SPE_OP_CLASS_BRANCH, SPE_MEM_LEVEL_UNKNOWN, 10, 0, 1, 1 },
		{ SPE_OP_CLASS_BRANCH, SPE_MEM_LEVEL_UNKNOWN, 5, 0, 0, 1 },
		{ SPE_OP_CLASS_BRANCH, SPE_MEM_LEVEL_UNKNOWN, 5, 0, 1, 1 },
		{ SPE_OP_CLASS_OTHER, SPE_MEM_LEVEL_UNKNOWN, 0, 0, 0, 2 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const char *lvl = mem_level(rows[i].level);
		char v[64];
		snprintf(v, sizeof v, lvl ? "'%s'" : "NULL", lvl);
		long long events = ((long long)rows[i].walk << SPE_EV_TLB_WALK) |
				   ((long long)rows[i].mispred << SPE_EV_MISPREDICTED);
		/* schema 4 rows: the PC and symbol through an insn row, op class and level as codes */
		int insn = 100 * source + (int)i;
		snprintf(sql, sizeof sql, "INSERT INTO insn (id, pc, symbol_id) VALUES (%d, %zu, %d)", insn,
			 4096 * (size_t)rows[i].sym + 4 * i, 10 * source + rows[i].sym);
		exec(db, sql);
		snprintf(sql, sizeof sql,
			 "INSERT INTO _spe_record (source_id, insn_id, codes, events, %s) VALUES (%d, %d,"
			 " (SELECT min(code) FROM spe_op_code WHERE op_class = '%s') |"
			 " coalesce((SELECT code FROM spe_mem_level WHERE name = %s) << %d, 0), %lld, %d)",
			 latency_col(), source, insn, op_class(rows[i].cls), v, SPE_CODES_MEM_LEVEL_SHIFT, events,
			 rows[i].lat);
		exec(db, sql);
	}
	snprintf(sql, sizeof sql,
		 "INSERT INTO pc_histogram (source_id, pc, insn_id, symbol_id, untimed, histogram)"
		 " SELECT source_id, pc, insn_id, symbol_id, coalesce(sum(CASE WHEN lat IS NULL THEN n END), 0),"
		 " '{' || coalesce(group_concat(CASE WHEN lat IS NOT NULL THEN '\"' || lat || '\":' || n END), '') || '}'"
		 " FROM (SELECT source_id, pc, insn_id, symbol_id, %s AS lat, COUNT(*) AS n FROM spe_record"
		 " WHERE source_id = %d GROUP BY 1, 2, 3, 4, 5 ORDER BY lat) GROUP BY 1, 2, 3, 4",
		 latency_col(), source);
	exec(db, sql);
}

static void import_run(sqlite3 *db, const char *file, const char *cpu, const char *name, const char *workload,
		       int spe_source)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", fixtures, file);
	FILE *f = fopen(path, "rb");
	if (!f) {
		CHECK_FAIL_("cannot open %s", path);
		return;
	}
	static char buf[1 << 16];
	size_t len = fread(buf, 1, sizeof buf, f);
	fclose(f);
	struct td_run run;
	struct td_import_opts o = { .cpu = cpu };
	td_run_init(&run);
	CHECK(td_import_text(buf, len, &o, &run, NULL) > 0);
	td_run_set(&run.name, name);
	td_run_set(&run.workload, workload);
	run.spe_source_id = spe_source;
	CHECK_INT_EQ(td_store_run(db, &run, NULL, NULL, 0), 0);
	td_run_fini(&run);
}

static char *report(sqlite3 *db, int cross, enum report_text_format fmt, const char *workload, int *rc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	struct report_text_opts o = { .format = fmt, .workload = workload, .top = 10 };
	*rc = cross ? report_cross_isa(db, out, &o, NULL, 0) : report_spe_text(db, out, &o, NULL, 0);
	fclose(out);
	return text;
}

#define CHECK_HAS(text, needle)                                                  \
	do {                                                                     \
		if (!(text) || !strstr((text), (needle)))                        \
			CHECK_FAIL_("output lacks \"%s\"", (needle));            \
	} while (0)

/*
 * A database made by the real schema code (spe_db_open_memory), so this test
 * follows its changes.  With @p two_workloads a second capture (source 2,
 * the same records) belongs to workload "other", and workload "unlinked"
 * has an Arm run linked to no capture.
 */
static struct spe_db *build_db(int two_workloads)
{
	struct spe_db *sdb = NULL;
	char err[256];
	if (spe_db_open_memory(&sdb, err, sizeof err) < 0) {
		CHECK_FAIL_("spe_db_open_memory: %s", err);
		return NULL;
	}
	sqlite3 *db = spe_db_sqlite(sdb);
	add_spe(db, 1, 0x410fd840, "neoverse-v3");
	CHECK_INT_EQ(td_store_init(db, NULL, 0), 0);
	import_run(db, "topdown-tool_neoverse-v3_metrics.csv", "neoverse-v3", "arm-v3", "stream", 1);
	import_run(db, "perf-6.5_spr-std.txt", NULL, "intel-spr", "stream", 0);
	if (two_workloads) {
		add_spe(db, 2, 0x410fd490, "neoverse-n2"); /* not the CPU of the run linked to it */
		import_run(db, "topdown-tool_neoverse-v3_metrics.csv", "neoverse-v3", "arm-v3", "other", 2);
		import_run(db, "topdown-tool_neoverse-v3_metrics.csv", "neoverse-v3", "arm-v3", "unlinked", 0);
	}
	return sdb;
}

TEST(spe_report)
{
	struct spe_db *sdb = build_db(0);
	sqlite3 *db = spe_db_sqlite(sdb);
	int rc;
	char *t = report(db, 0, REPORT_TEXT_TABLE, NULL, &rc);
	CHECK_INT_EQ(rc, 0);
	CHECK_HAS(t, "SPE records: 13");
	CHECK_HAS(t, "  triad                                     6            540    81.8%  stream.c:50");
	CHECK_HAS(t, "  copy                                      4             95    14.4%  stream.c:30");
	CHECK_HAS(t, "  L1D                     2             10     1.6%");
	CHECK_HAS(t, "  DRAM                    2            500    82.0%");
	CHECK_HAS(t, "TLB walks: 1 of 7 load/store samples (14.3%), 48.4% of their total latency");
	CHECK_HAS(t, "  triad                                     3            2    66.7%  stream.c:50");
	CHECK_HAS(t, "  main                                      2            1    50.0%  stream.c:10");
	/* memory levels in facts-table order: L1D before L2 before SLC before DRAM */
	CHECK(t && strstr(t, "  L1D ") < strstr(t, "  L2 ") && strstr(t, "  SLC ") < strstr(t, "  DRAM "));
	free(t);

	t = report(db, 0, REPORT_TEXT_JSON, NULL, &rc);
	CHECK_HAS(t, "\"tlb_walk\": {\"samples\": 7, \"walks\": 1, \"sample_share\": 0.1429, \"latency_share\": 0.4839}");
	CHECK_HAS(t, "{\"mem_level\": \"SLC\", \"loads\": 1, \"total_latency\": 80, \"share\": 0.1311}");
	free(t);
	spe_db_close(sdb);
}

TEST(cross_isa_report)
{
	struct spe_db *sdb = build_db(1);
	sqlite3 *db = spe_db_sqlite(sdb);
	int rc;
	char *t = report(db, 1, REPORT_TEXT_TABLE, "stream", &rc);
	CHECK_INT_EQ(rc, 0);
	CHECK_HAS(t, "Workload stream: 2 runs");
	CHECK_HAS(t, "  L1 backend_bound                        30.0%              68.7%");
	CHECK_HAS(t, "  L1 retiring                             36.0%              15.2%");
	CHECK_HAS(t, "  L2 memory_bound                        ~18.0%              49.1%  arm-v3: approximation, backend_bound x backend_mem_bound");
	CHECK_HAS(t, "  L2 core_bound                          ~12.0%              19.6%");
	CHECK_HAS(t, "  L2 fetch_latency                            -               8.3%  arm-v3: no equivalent on aarch64 (no level 2 slot tree)");
	CHECK_HAS(t, "  L2 backend_mem_bound                    60.0%                  -  intel-spr: no equivalent on x86_64");
	CHECK_HAS(t, "  L1 frontend_stalled_cycles              12.5%                  -");
	/* workload stream's capture only (source 1), not source 2 of workload "other"; under the run linked to it */
	CHECK_HAS(t, "SPE evidence for run arm-v3 (13 records of SPE source 1 stream-1.data, CPU neoverse-v3)");
	/* what a reader needs to compare: elapsed, cycles, IPC (36,676,047 / 45,940,682), widths, methods */
	CHECK_HAS(t, "  elapsed                                     -            1.007 s");
	CHECK_HAS(t, "  IPC                                         -               0.80");
	CHECK_HAS(t, "  width (slots/cycle)                        10                  ?");
	CHECK_HAS(t, "  weighting                     single interval    single interval");
	CHECK_HAS(t, "The runs count differently:\n  - Intel (perf, toplev, PERF_METRICS)");
	CHECK_HAS(t, "  - Arm topdown-tool (telemetry specification): bad_speculation adds a fixed bubble per mispredict");
	CHECK(t && !strstr(t, "WARNING")); /* the run's CPU is its capture's */
	CHECK_HAS(t, "Behind backend_bound and memory_bound:");
	CHECK_HAS(t, "  DRAM                    2            500    82.0%");
	CHECK_HAS(t, "Behind bad_speculation:");
	CHECK_HAS(t, "  triad                                     3            2    66.7%");

	/* the whole table, reviewed by eye (docs/spe-report.1.md shows it) */
	char path[1024];
	snprintf(path, sizeof path, "%s/cross-isa_stream.expected.txt", fixtures);
	FILE *f = fopen(path, "rb");
	static char golden[1 << 16];
	size_t glen = f ? fread(golden, 1, sizeof golden - 1, f) : 0;
	if (f)
		fclose(f);
	golden[glen] = '\0';
	CHECK(glen > 0);
	CHECK_STR_EQ(t, golden);
	free(t);

	t = report(db, 1, REPORT_TEXT_JSON, "stream", &rc);
	CHECK_INT_EQ(rc, 0);
	CHECK_HAS(t, "{\"workload\": \"stream\", \"runs\": [{\"run\": \"arm-v3\", \"scope\": \"all\", \"isa\": \"aarch64\", "
		     "\"vendor\": \"Arm\", \"cpu\": \"neoverse-v3\"");
	CHECK_HAS(t, "\"intervals\": 1, \"weight\": \"mean\", \"weighting\": \"single interval\", \"elapsed_s\": null");
	CHECK_HAS(t, "\"width\": 10, \"width_from\": \"cpu\", \"spe_source\": 1, \"spe_cpu\": \"neoverse-v3\", "
		     "\"cpu_check\": \"match\", \"spe_evidence\": {\"spe_source\": 1, \"spe_file\": \"stream-1.data\", "
		     "\"spe_records\": 13, \"mem_levels\": [");
	CHECK_HAS(t, "{\"run\": \"intel-spr\", \"scope\": \"all\", \"isa\": \"x86_64\", \"vendor\": \"Intel\"");
	CHECK_HAS(t, "\"elapsed_s\": 1.006530, \"slots\": null, \"cycles\": 45940682, \"instructions\": 36676047, \"ipc\": 0.7983");
	CHECK_HAS(t, "\"spe_source\": null, \"spe_evidence\": null}");
	CHECK_HAS(t, "{\"node\": \"memory_bound\", \"level\": 2, \"basis\": \"slots\", \"values\": [0.1800, 0.4910]");
	CHECK_HAS(t, "\"caveats\": [\"Intel (perf, toplev, PERF_METRICS)");
	CHECK_HAS(t, "\"warnings\": []}");
	free(t);

	/* every workload: each shows the evidence of its own capture, or none */
	t = report(db, 1, REPORT_TEXT_TABLE, NULL, &rc);
	CHECK_INT_EQ(rc, 0);
	CHECK_HAS(t, "SPE evidence for run arm-v3 (13 records of SPE source 2 stream-2.data, CPU neoverse-n2)");
	/* the run of workload "other" says neoverse-v3, its capture ran on a neoverse-n2 */
	CHECK_HAS(t, "WARNING: arm-v3 was measured on neoverse-v3 but its SPE capture (source 2) ran on neoverse-n2: "
		     "the SPE evidence does not explain this run's numbers");
	CHECK_HAS(t, "Workload unlinked: 1 run");
	CHECK_HAS(t, "No SPE evidence: no run of this workload is linked to an SPE capture (spe-topdown import --spe-source)");
	const char *p = t ? strstr(t, "Workload unlinked") : NULL;
	CHECK(p && !strstr(p, "SPE evidence for")); /* "unlinked" is the last workload */
	free(t);

	t = report(db, 1, REPORT_TEXT_TABLE, "no-such-workload", &rc);
	CHECK_INT_EQ(rc, -spe_no_data);
	free(t);
	spe_db_close(sdb);
}

int main(int argc, char **argv)
{
	fixtures = argc > 1 ? argv[1] : ".";
	RUN(spe_report);
	RUN(cross_isa_report);
	return check_summary();
}
