/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The memory views on the data-object fixture: replay
 * fixtures/workloads/traces/datawork.replay and datawork-after.replay
 * (spe-record --replay), spe-load them with --symfs=fixtures/elf, and check
 * each view against what gen_datatraces.c put in the traces (its header
 * comment derives every number below), then against its definition
 * recomputed here from the plain record columns.  The memwork trace (no
 * data mappings) checks that globals are named from the binary alone, and
 * records built in memory check the HiSilicon modified-line codes.
 *
 * The text of the section is compared with golden files (GOLDEN_DIR):
 * memory-report-datawork.txt and memory-report-memwork.txt.
 *
 * usage: test_memory_views REPLAY_TOOL SPE_LOAD TRACES_DIR ELF_DIR GOLDEN_DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "check.h"
#include "db_query.h"
#include "replay_load.h"
#include "spe/analysis.h"
#include "report/memory_report.h"

static const char *replay_tool, *spe_load, *traces, *elf_dir, *golden_dir;
static char dir[] = "/tmp/spe-memviews-XXXXXX";
static int keep_dir; /* a golden differed: its output stays in dir */
static sqlite3 *db; /* datawork.data then datawork-after.data, sources 1 and 2 */

static int capture(const char *manifest, const char *name, const char *db_path)
{
	return replay_load(replay_tool, spe_load, traces, manifest, dir, name, db_path, elf_dir);
}

static long long q(const char *sql)
{
	return db_query_int(db, sql);
}

static const char *qt(const char *sql)
{
	return db_query_text(db, sql);
}

TEST(load_fixture)
{
	char path[256];
	snprintf(path, sizeof path, "%s/dw.db", dir);
	CHECK_INT_EQ(capture("datawork.replay", "before", path), 0);
	CHECK_INT_EQ(capture("datawork-after.replay", "after", path), 0);
	CHECK_INT_EQ(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	CHECK_INT_EQ(q("SELECT records FROM load_stats WHERE source_id = 1"), 2020);
	CHECK_INT_EQ(q("SELECT no_data_object FROM load_stats WHERE source_id = 1"), 0);
	CHECK_INT_EQ(q("SELECT count(*) FROM spe_record WHERE source_id = 1 AND data_object_id IS NULL"), 0);
	/* the data MMAP2s: RELRO, .data, .bss, [heap], two anonymous regions, [stack] */
	CHECK_INT_EQ(q("SELECT count(*) FROM mapping WHERE source_id = 1 AND prot IS NOT NULL AND prot & 4 = 0"), 7);
}

/* perf 6.1 reads the replayed capture with its data MMAP2s and NUMA features (when installed). */
TEST(perf_reads_the_capture)
{
	if (*spe_run_prefix() || replay_load_sh("perf --version >/dev/null 2>&1") != 0) {
		printf("SKIP perf_reads_the_capture: no host perf\n");
		return;
	}
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "perf report --header-only -I -i %s/before.data 2>/dev/null | grep -q 'node1 cpu list : 2-3'",
		 dir);
	CHECK_INT_EQ(replay_load_sh(cmd), 0);
	snprintf(cmd, sizeof cmd,
		 "perf script -i %s/before.data --symfs=%s -F ip,sym 2>/dev/null | grep -q heap_scan", dir, elf_dir);
	CHECK_INT_EQ(replay_load_sh(cmd), 0);
}

/* hot_data_object: every object the generator touched, with its counts and levels. */
TEST(hot_data_object_rows)
{
	static const struct {
		const char *kind, *name, *type, *levels;
		int line, samples, loads, stores, walks;
	} want[] = {
		{ "anon", "//anon", "(null)", "DRAM 600", -1, 600, 600, 0, 600 },           /* scatter's 1 GiB */
		{ "anon", "//anon", "(null)", "DRAM 150, remote 150", -1, 300, 300, 0, 38 }, /* heap_scan's region */
		{ "variable", "shared_counter", "atomic_long", "remote 150, L1D 50", 33, 200, 200, 0, 0 },
		{ "heap", "[heap]", "(null)", "L2 100, SLC 50", -1, 150, 150, 0, 0 },
		{ "variable", "histogram", "long int[256]", "L1D 135, L2 15", 32, 300, 150, 150, 0 },
		{ "variable", "table", "double[65536]", "L1D 160, L2 40", 28, 200, 200, 0, 0 },
		{ "stack", "[stack]", "(null)", "L1D 100", -1, 150, 100, 50, 0 },
		{ "variable", "weights", "const int[64]", "L1D 100", 29, 100, 100, 0, 0 },
		{ "variable", "sum_table::calls", "long int", "L1D 10", 42, 20, 10, 10, 0 },
	};
	sqlite3_stmt *st;
	CHECK_INT_EQ(sqlite3_prepare_v2(db,
					"SELECT kind, name, coalesce(type, '(null)'), coalesce(src_line, -1), samples, loads,"
					" stores, tlb_walks, levels FROM hot_data_object WHERE source_id = 1",
					-1, &st, NULL),
		     SQLITE_OK);
	size_t n = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < sizeof want / sizeof want[0]) {
		CHECK_STR_EQ((const char *)sqlite3_column_text(st, 0), want[n].kind);
		CHECK_STR_EQ((const char *)sqlite3_column_text(st, 1), want[n].name);
		CHECK_STR_EQ((const char *)sqlite3_column_text(st, 2), want[n].type);
		CHECK_INT_EQ(sqlite3_column_int(st, 3), want[n].line);
		CHECK_INT_EQ(sqlite3_column_int(st, 4), want[n].samples);
		CHECK_INT_EQ(sqlite3_column_int(st, 5), want[n].loads);
		CHECK_INT_EQ(sqlite3_column_int(st, 6), want[n].stores);
		CHECK_INT_EQ(sqlite3_column_int(st, 7), want[n].walks);
		CHECK_STR_EQ((const char *)sqlite3_column_text(st, 8), want[n].levels);
		n++;
	}
	CHECK_INT_EQ(rc, SQLITE_DONE);
	sqlite3_finalize(st);
	CHECK_INT_EQ(n, 9);
	/* the region's runtime start and the .bss variable's: bias 0xaaaab0000000 + st_value */
	CHECK_STR_EQ(qt("SELECT start FROM hot_data_object WHERE source_id = 1 AND name = 'table'"), "0xaaaab0003878");
	CHECK_INT_EQ(q("SELECT size FROM hot_data_object WHERE source_id = 1 AND name = 'table'"), 524288);
}

/*
 * hot_data_object against its definition, recomputed from (data_object_id,
 * total_latency) pairs: samples, total latency, nearest-rank p99 by sorting.
 */
TEST(hot_data_object_definition)
{
	sqlite3_stmt *st;
	CHECK_INT_EQ(sqlite3_prepare_v2(db, "SELECT data_object_id, samples, total_latency, p99 FROM hot_data_object", -1,
					&st, NULL),
		     SQLITE_OK);
	int rows = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		long long id = sqlite3_column_int64(st, 0);
		char sql[256];
		snprintf(sql, sizeof sql,
			 "SELECT total_latency FROM spe_record WHERE data_object_id = %lld AND total_latency IS NOT NULL"
			 " ORDER BY total_latency",
			 id);
		sqlite3_stmt *r;
		CHECK_INT_EQ(sqlite3_prepare_v2(db, sql, -1, &r, NULL), SQLITE_OK);
		long long lat[4096], sum = 0;
		int n = 0;
		while (sqlite3_step(r) == SQLITE_ROW && n < 4096)
			sum += lat[n++] = sqlite3_column_int64(r, 0);
		sqlite3_finalize(r);
		int rank = (99 * n + 99) / 100; /* smallest k with k >= 0.99 n */
		CHECK_INT_EQ(sqlite3_column_int(st, 1), n);
		CHECK_INT_EQ(sqlite3_column_int64(st, 2), sum);
		CHECK_INT_EQ(sqlite3_column_int64(st, 3), lat[rank - 1]);
		rows++;
	}
	sqlite3_finalize(st);
	CHECK_INT_EQ(rows, 18); /* 9 objects in each source */
}

/* data_page: scatter's six 2 MiB regions, 100 walked 4 KiB pages each, ~94% of translation latency. */
TEST(data_page_regions)
{
	CHECK_INT_EQ(q("SELECT count(*) FROM data_page WHERE source_id = 1 AND page_size = 2097152 AND pages_4k = 100"
		       " AND walked_pages_4k = 100 AND tlb_walks = 100 AND data_objects = '//anon'"),
		     6);
	long long six = q("SELECT round(sum(translation_share)) FROM (SELECT translation_share FROM data_page"
			  " WHERE source_id = 1 AND page_size = 2097152 ORDER BY translation_latency DESC LIMIT 6)");
	CHECK(six >= 93 && six <= 96);
	/* heap_scan's region: 300 accesses 512 bytes apart in one 2 MiB region, a walk on each of 38 pages */
	CHECK_INT_EQ(q("SELECT pages_4k FROM data_page WHERE source_id = 1 AND page_size = 2097152"
		       " AND page_value = 0xffff80000000"),
		     38);
	/* 4 KiB rows: the shared counter's page holds histogram, calls, the counter and table[0..240] (one load, i = 0) */
	CHECK_INT_EQ(q("SELECT accesses FROM data_page WHERE source_id = 1 AND page_size = 4096 AND page = '0xaaaab0003000'"),
		     300 + 20 + 200 + 1);
	/* its definition: per 2 MiB region, distinct data_va >> 12 among the records */
	CHECK_INT_EQ(q("SELECT count(*) FROM data_page p WHERE page_size = 2097152 AND pages_4k != (SELECT count(DISTINCT"
		       " data_va >> 12) FROM spe_record r WHERE r.source_id = p.source_id AND r.pid IS p.pid AND"
		       " r.data_va >> 21 = p.page_value >> 21)"),
		     0);
	CHECK_INT_EQ(q("SELECT sum(accesses) FROM data_page WHERE page_size = 4096"), q("SELECT count(*) FROM spe_record"
											  " WHERE data_va IS NOT NULL"));
}

/* numa_traffic: CPU 0 (node 0) reads the second half of heap_scan's region from node 1; CPU 2 (node 1) the counter. */
TEST(numa_traffic_rows)
{
	CHECK_INT_EQ(q("SELECT count(*) FROM numa_node WHERE source_id = 1"), 2);
	CHECK_INT_EQ(q("SELECT node FROM numa_cpu WHERE source_id = 1 AND cpu = 2"), 1);
	CHECK_INT_EQ(q("SELECT loads FROM numa_traffic WHERE source_id = 1 AND cpu_node = 0 AND memory_node = 0"), 1560);
	CHECK_INT_EQ(q("SELECT loads FROM numa_traffic WHERE source_id = 1 AND cpu_node = 0 AND memory_node = 1 AND remote"),
		     150);
	CHECK_INT_EQ(q("SELECT loads FROM numa_traffic WHERE source_id = 1 AND cpu_node = 1 AND memory_node = 0 AND remote"),
		     100);
	CHECK_STR_EQ(qt("SELECT group_concat(DISTINCT basis) FROM numa_traffic"), "physical address");
	/* definition: node of the CPU and of the page holding data_pa, from the numa tables */
	CHECK_INT_EQ(q("SELECT count(*) FROM spe_record r JOIN numa_cpu c ON c.source_id = r.source_id AND c.cpu = r.cpu"
		       " JOIN numa_memory m ON m.source_id = r.source_id AND r.data_pa BETWEEN m.start AND m.end - 1"
		       " WHERE r.op_class = 'load' AND c.node != m.node"),
		     q("SELECT sum(loads) FROM numa_traffic WHERE remote = 1"));
}

/* The shared counter's line: three CPUs, atomics from two, the line from the other socket (N1: no HITM). */
TEST(cacheline_sharing_rows)
{
	CHECK_INT_EQ(q("SELECT count(*) FROM cacheline_sharing WHERE source_id = 1"), 1);
	CHECK_STR_EQ(qt("SELECT line FROM cacheline_sharing WHERE source_id = 1"), "0xaaaab0003840");
	CHECK_INT_EQ(q("SELECT atomics FROM cacheline_sharing WHERE source_id = 1"), 200);
	CHECK_INT_EQ(q("SELECT writes FROM cacheline_sharing WHERE source_id = 1"), 200 + 10 + 2); /* + calls, histogram */
	CHECK_INT_EQ(q("SELECT cpus FROM cacheline_sharing WHERE source_id = 1"), 3);
	CHECK_INT_EQ(q("SELECT peer_hits FROM cacheline_sharing WHERE source_id = 1"), 150);
	CHECK_INT_EQ(q("SELECT remote_hits FROM cacheline_sharing WHERE source_id = 1"), 150);
	CHECK_INT_EQ(q("SELECT hitm FROM cacheline_sharing WHERE source_id = 1"), 0);
	/* shared_counter shares its line with calls, table and histogram: false sharing, named */
	CHECK_STR_EQ(qt("SELECT data_objects FROM cacheline_sharing WHERE source_id = 1"),
		     "table,sum_table::calls,histogram,shared_counter");
}

/* prefetch: heap_scan's late prefetches (N1 IMPDEF bit 12), 120 before, 30 after. */
TEST(prefetch_rows)
{
	CHECK_INT_EQ(q("SELECT count(*) FROM prefetch"), 2);
	CHECK_INT_EQ(q("SELECT sum(late_prefetch) FROM prefetch WHERE symbol = 'heap_scan' AND data_object = '//anon'"
		       " AND loads = 300"),
		     150);
	CHECK_INT_EQ(q("SELECT late_prefetch FROM prefetch ORDER BY late_prefetch DESC"), 120);
	CHECK_INT_EQ(q("SELECT late_prefetch FROM prefetch ORDER BY late_prefetch"), 30);
	CHECK_INT_EQ(q("SELECT recently_fetched FROM prefetch ORDER BY late_prefetch DESC"), 0);
	/* the part has the bit: facts row */
	CHECK_INT_EQ(q("SELECT late_prefetch_bit FROM spe_part_fact WHERE part = 'neoverse-n1'"), 12);
	CHECK_INT_EQ(q("SELECT count(*) FROM spe_part_fact WHERE part = 'neoverse-v1' AND late_prefetch_bit IS NULL"), 1);
}

/* The report's sentences: the huge-page hint and the NUMA share, from the same views. */
TEST(report_sentences)
{
	char text[1024], err[256];
	CHECK_INT_EQ(spe_huge_page_hint(db, text, sizeof text, err, sizeof err), 1);
	/* per capture, scatter's six regions and heap_scan's one, 600 + 38 walked pages; two captures */
	CHECK(strncmp(text, "14 regions of 2 MiB take 9", 26) == 0);
	CHECK(strstr(text, "their TLB walks fall on 1276 distinct 4 KiB pages (91 per region): back them with huge pages") !=
	      NULL);
	/* counters that disagree (translation over total) give no share over 100 % */
	const double disagree[SPE_HUGE_PAGE_HINT_COLUMNS] = { 2, 900, 40, 1000, 400 };
	CHECK_INT_EQ(spe_huge_page_hint_text(disagree, text, sizeof text), 0);
	CHECK(strstr(text, "translation latency (1000 cycles) exceeds the records' total latency (400 cycles)") != NULL);
	CHECK_INT_EQ(spe_numa_summary(db, text, sizeof text, err, sizeof err), 1);
	/* both captures: heap_scan's remote half and CPU 2's counter, by physical address */
	CHECK(strstr(text, "of load latency comes from memory of another NUMA node (3620 of 3620 loads placed") != NULL);
	FILE *f = tmpfile();
	CHECK_INT_EQ(spe_memory_report(db, SPE_FORMAT_TABLE, 3, f, err, sizeof err), 0);
	rewind(f);
	char all[16384] = "";
	size_t n = fread(all, 1, sizeof all - 1, f);
	all[n] = 0;
	fclose(f);
	CHECK(strstr(all, "Huge pages: 14 regions of 2 MiB") != NULL);
	CHECK(strstr(all, "neoverse-n1: no HITM or snoop events (SPE 1.1); data sources mark no modified line; "
			  "late prefetch is IMPDEF bit 12") != NULL);
	CHECK(strstr(all, "heap_scan") != NULL);
	/* two captures: their list, and each per-capture table says whose row it is; prefetch adds them up */
	CHECK(strstr(all, "Captures (the tables' first column)\n  capture  file\n        1  ") != NULL);
	CHECK(strstr(all, "Hot data objects by total latency\n  capture  kind ") != NULL);
	CHECK(strstr(all, "Shared cache lines\n  capture  line ") != NULL);
	CHECK(strstr(all, "Late prefetches\n  pc ") != NULL);
}

/*
 * The section as text equals its golden file (reviewed by eye): headers in
 * words like the report's other sections, "-" for unknown values, numbers
 * right-aligned.  A differing output is left beside the database to diff.
 */
static void check_report_golden(sqlite3 *d, const char *name)
{
	char err[256], path[512], want[16384] = "", got[16384] = "";
	FILE *f = tmpfile();
	CHECK_INT_EQ(spe_memory_report(d, SPE_FORMAT_TABLE, 3, f, err, sizeof err), 0);
	rewind(f);
	got[fread(got, 1, sizeof got - 1, f)] = 0;
	fclose(f);
	snprintf(path, sizeof path, "%s/%s", golden_dir, name);
	f = fopen(path, "r");
	CHECK(f != NULL);
	if (f) {
		want[fread(want, 1, sizeof want - 1, f)] = 0;
		fclose(f);
	}
	CHECK(strstr(got, "NULL") == NULL);
	if (strcmp(got, want)) {
		snprintf(path, sizeof path, "%s/%s", dir, name);
		if ((f = fopen(path, "w"))) {
			fputs(got, f);
			fclose(f);
		}
		printf("  memory section differs from %s/%s: diff it with %s (kept)\n", golden_dir, name, path);
		keep_dir = 1;
	}
	CHECK_STR_EQ(got, want);
}

TEST(report_text_datawork)
{
	check_report_golden(db, "memory-report-datawork.txt");
}

/* memwork has no data mappings: `shared` is still named, from the binary's segments; the heap is not. */
TEST(globals_without_data_mappings)
{
	char path[256];
	snprintf(path, sizeof path, "%s/mw.db", dir);
	CHECK_INT_EQ(capture("memwork.replay", "memwork", path), 0);
	sqlite3 *m;
	CHECK_INT_EQ(sqlite3_open_v2(path, &m, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	CHECK_INT_EQ(db_query_int(m, "SELECT samples FROM hot_data_object WHERE name = 'shared' AND kind = 'variable'"),
		     300);
	CHECK_STR_EQ(db_query_text(m, "SELECT type FROM hot_data_object WHERE name = 'shared'"), "struct shared_line");
	CHECK_INT_EQ(db_query_int(m, "SELECT no_data_object FROM load_stats"), 700); /* chase and stream_sum */
	/* no physical addresses: the NUMA sentence says so and counts remote levels instead (none here) */
	char text[1024], err[256];
	CHECK_INT_EQ(spe_numa_summary(m, text, sizeof text, err, sizeof err), 0);
	CHECK(strstr(text, "No physical addresses in the capture (record with spe-record --pa-enable, perf's pa_enable=1): "
			  "NUMA placement unknown; 0 of 850 "
			  "loads (0.0%) came from levels on another socket") != NULL);
	check_report_golden(m, "memory-report-memwork.txt"); /* no NUMA layout: unknown nodes; no late prefetch */
	sqlite3_close(m);
}

/* HiSilicon HIP codes mark a peer's modified line: loads with them count as hitm, without any event. */
TEST(hisi_modified_codes_count_as_hitm)
{
	struct spe_db *sdb;
	char err[256];
	CHECK_INT_EQ(spe_db_open_memory(&sdb, err, sizeof err), 0);
	struct spe_source_info src = { .file = "hisi", .kind = "raw", .nr_cpus = -1 };
	struct spe_load_opts opts = { 0 };
	struct spe_loader *ld;
	CHECK_INT_EQ(spe_loader_new(sdb, &src, &opts, &ld, err, sizeof err), 0);
	spe_loader_cpu(ld, 0, 0x480fd060); /* hisilicon-hip12 */
	spe_loader_cpu(ld, 1, 0x480fd060);
	for (int i = 0; i < 8; i++) {
		struct spe_record r;
		memset(&r, 0, sizeof r);
		r.has = SPE_HAS_PC | SPE_HAS_OP_TYPE | SPE_HAS_DATA_VA | SPE_HAS_DATA_SOURCE | SPE_HAS_TOTAL_LATENCY |
			SPE_HAS_EVENTS;
		r.pc.addr = 0x400000 + 4 * (uint64_t)(i % 2);
		r.op_raw_class = 1;
		r.op_raw = i % 2; /* loads on cpu 0, stores on cpu 1 */
		r.op_class = i % 2 ? SPE_OP_CLASS_STORE : SPE_OP_CLASS_LOAD;
		r.data_va = 0x10040 + (uint64_t)(i % 4) * 8;
		r.data_source = i % 4 == 0 ? 1 /* peer CPU, modified */ : i % 4 == 2 ? 7 /* remote socket, modified */ : 16;
		r.total_latency = 100;
		r.events = 1u << SPE_EV_RETIRED;
		CHECK_INT_EQ(spe_loader_record(ld, i % 2, 9, 10 + i % 2, &r), 0);
	}
	CHECK_INT_EQ(spe_loader_finish(ld, NULL), 0);
	spe_loader_free(ld);
	sqlite3 *h = spe_db_sqlite(sdb);
	CHECK_INT_EQ(db_query_int(h, "SELECT hitm FROM cacheline_sharing"), 4);
	CHECK_INT_EQ(db_query_int(h, "SELECT modified_sources FROM cacheline_sharing"), 4);
	CHECK_INT_EQ(db_query_int(h, "SELECT remote_hits FROM cacheline_sharing"), 2);
	CHECK_INT_EQ(db_query_int(h, "SELECT coalesce(modified_events, 0) FROM cacheline_sharing"), 0);
	spe_db_close(sdb);
}

int main(int argc, char **argv)
{
	if (argc != 6) {
		fprintf(stderr, "usage: test_memory_views REPLAY_TOOL SPE_LOAD TRACES_DIR ELF_DIR GOLDEN_DIR\n");
		return 64;
	}
	replay_tool = argv[1];
	spe_load = argv[2];
	traces = argv[3];
	elf_dir = argv[4];
	golden_dir = argv[5];
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(load_fixture);
	RUN(perf_reads_the_capture);
	RUN(hot_data_object_rows);
	RUN(hot_data_object_definition);
	RUN(data_page_regions);
	RUN(numa_traffic_rows);
	RUN(cacheline_sharing_rows);
	RUN(prefetch_rows);
	RUN(report_sentences);
	RUN(report_text_datawork);
	RUN(globals_without_data_mappings);
	RUN(hisi_modified_codes_count_as_hitm);
	sqlite3_close(db);
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (!keep_dir)
		replay_load_sh(cmd);
	return check_summary();
}
