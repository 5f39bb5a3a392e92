/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe-report --diff: the statistics against published values, then the
 * before/after fixture pair (fixtures/workloads/gen_datatraces.c: only
 * heap_scan changed, from memory to L2 for 4 loads in 5): the changed
 * function, instruction and data object come out "faster", every other one
 * "noise", in one database and across two; the command's output and exits.
 *
 * usage: test_diff REPLAY_TOOL SPE_LOAD SPE_REPORT TRACES_DIR ELF_DIR
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "check.h"
#include "diff_stats.h"
#include "replay_load.h"
#include "report/diff.h"

static const char *replay_tool, *spe_load, *spe_report, *traces, *elf_dir;
static char dir[] = "/tmp/spe-diff-XXXXXX";
static char both_db[256], before_db[256], after_db[256];

#define CHECK_NEAR(a, b, eps) CHECK(fabs((a) - (b)) < (eps))

/* Newcombe (1998), "Interval estimation for the difference between independent proportions", Table II. */
TEST(newcombe_published_examples)
{
	double z = report_diff_z(0.95), d, lo, hi;
	CHECK_NEAR(z, 1.959964, 1e-6);
	CHECK_NEAR(report_diff_z(0.99), 2.575829, 1e-6);
	report_diff_newcombe(48, 80, 56, 70, z, &d, &lo, &hi); /* (a) 56/70 - 48/80 */
	CHECK_NEAR(d, 0.2, 1e-9);
	CHECK_NEAR(lo, 0.0524, 5e-5);
	CHECK_NEAR(hi, 0.3339, 5e-5);
	report_diff_newcombe(0, 20, 0, 10, z, &d, &lo, &hi); /* (h) 0/10 - 0/20 */
	CHECK_NEAR(lo, -0.1611, 5e-5);
	CHECK_NEAR(hi, 0.2775, 5e-5);
	/* Newcombe (1998), single proportions: Wilson intervals of 81/263 and 0/10 */
	report_diff_wilson(81, 263, z, &lo, &hi);
	CHECK_NEAR(lo, 0.2553, 5e-5);
	CHECK_NEAR(hi, 0.3662, 5e-5);
	report_diff_wilson(0, 10, z, &lo, &hi);
	CHECK_NEAR(lo, 0.0, 1e-9);
	CHECK_NEAR(hi, 0.2775, 5e-5);
}

TEST(mean_change_and_quantile)
{
	double d, lo, hi;
	/* 100 samples of 10 and of 12 (sd 0 each): the change is 2, no spread */
	report_diff_mean_change(100, 1000, 10000, 100, 1200, 14400, 1.96, &d, &lo, &hi);
	CHECK_NEAR(d, 2, 1e-9);
	CHECK_NEAR(lo, 2, 1e-9);
	/* values 0 and 2, half each (variance 100/99 * 1): se = sqrt(2 * 1.0101 / 100) */
	report_diff_mean_change(100, 100, 200, 100, 100, 200, 1.96, &d, &lo, &hi);
	CHECK_NEAR(d, 0, 1e-9);
	CHECK_NEAR(hi, 1.96 * sqrt(2 * (100.0 / 99) / 100), 1e-9);
	/* latencies 1..100 once each: p99 = 99; ranks 99 -/+ 1.96 sqrt(0.99) -> 97 .. 100 */
	struct diff_bin bins[100];
	for (int i = 0; i < 100; i++)
		bins[i] = (struct diff_bin){ i + 1, 1 };
	int64_t v, qlo, qhi;
	report_diff_quantile(bins, 100, 0.99, 1.959964, &v, &qlo, &qhi);
	CHECK_INT_EQ(v, 99);
	CHECK_INT_EQ(qlo, 97);
	CHECK_INT_EQ(qhi, 100);
	report_diff_quantile(bins, 0, 0.99, 1.959964, &v, &qlo, &qhi);
	CHECK_INT_EQ(v, -1);
}

TEST(load_pair)
{
	snprintf(both_db, sizeof both_db, "%s/both.db", dir);
	snprintf(before_db, sizeof before_db, "%s/before.db", dir);
	snprintf(after_db, sizeof after_db, "%s/after.db", dir);
	CHECK_INT_EQ(replay_load(replay_tool, spe_load, traces, "datawork.replay", dir, "before", both_db, elf_dir), 0);
	CHECK_INT_EQ(replay_load(replay_tool, spe_load, traces, "datawork-after.replay", dir, "after", both_db, elf_dir), 0);
	CHECK_INT_EQ(replay_load(replay_tool, spe_load, traces, "datawork.replay", dir, "before", before_db, elf_dir), 0);
	CHECK_INT_EQ(replay_load(replay_tool, spe_load, traces, "datawork-after.replay", dir, "after", after_db, elf_dir),
		     0);
}

/* The row named @p name of @p kind, or NULL. */
static const struct spe_diff_row *find(const struct spe_diff *d, enum spe_diff_kind kind, const char *name)
{
	for (size_t i = 0; i < spe_diff_count(d, kind); i++)
		if (!strcmp(spe_diff_row(d, kind, i)->name, name))
			return spe_diff_row(d, kind, i);
	return NULL;
}

static void check_pair(const struct spe_diff *d)
{
	uint64_t na, nb;
	const char *la, *lb;
	spe_diff_totals(d, &na, &nb, &la, &lb);
	CHECK_INT_EQ(na, 2020);
	CHECK_INT_EQ(nb, 2020);
	/* functions: heap_scan first (largest change) and faster; the six others noise */
	CHECK_INT_EQ(spe_diff_count(d, SPE_DIFF_FUNCTION), 7);
	const struct spe_diff_row *r = spe_diff_row(d, SPE_DIFF_FUNCTION, 0);
	CHECK_STR_EQ(r->name, "heap_scan");
	CHECK_STR_EQ(r->where, "datawork-pie");
	CHECK_INT_EQ(r->verdict, SPE_DIFF_FASTER);
	CHECK(r->latency_hi < 0);
	CHECK_INT_EQ(r->a.samples, 300);
	CHECK_INT_EQ(r->share_significant, 0); /* same op count: the samples did not move */
	for (size_t i = 1; i < spe_diff_count(d, SPE_DIFF_FUNCTION); i++) {
		r = spe_diff_row(d, SPE_DIFF_FUNCTION, i);
		if (r->verdict != SPE_DIFF_NOISE)
			printf("  %s: %s\n", r->name, spe_diff_verdict_name(r->verdict));
		CHECK_INT_EQ(r->verdict, SPE_DIFF_NOISE);
		CHECK(r->latency_lo < 0 && r->latency_hi > 0);
	}
	r = find(d, SPE_DIFF_INSTRUCTION, "heap_scan+0x14");
	CHECK(r && r->verdict == SPE_DIFF_FASTER && r->detail && !strcmp(r->detail, "ldr x3, [x4, x2, lsl #3]"));
	int faster = 0;
	for (size_t i = 0; i < spe_diff_count(d, SPE_DIFF_INSTRUCTION); i++)
		faster += spe_diff_row(d, SPE_DIFF_INSTRUCTION, i)->verdict != SPE_DIFF_NOISE;
	CHECK_INT_EQ(faster, 1);
	/* data objects: heap_scan's 64 MiB region, not scatter's 1 GiB one */
	r = spe_diff_row(d, SPE_DIFF_DATA_OBJECT, 0);
	CHECK_STR_EQ(r->name, "//anon 64 MiB");
	CHECK_INT_EQ(r->verdict, SPE_DIFF_FASTER);
	r = find(d, SPE_DIFF_DATA_OBJECT, "//anon 1024 MiB");
	CHECK(r && r->verdict == SPE_DIFF_NOISE);
	r = find(d, SPE_DIFF_DATA_OBJECT, "shared_counter");
	CHECK(r && r->verdict == SPE_DIFF_NOISE && !strcmp(r->where, "variable"));
	faster = 0;
	for (size_t i = 0; i < spe_diff_count(d, SPE_DIFF_DATA_OBJECT); i++)
		faster += spe_diff_row(d, SPE_DIFF_DATA_OBJECT, i)->verdict != SPE_DIFF_NOISE;
	CHECK_INT_EQ(faster, 1);
}

TEST(one_database_two_sources)
{
	sqlite3 *db;
	CHECK_INT_EQ(sqlite3_open_v2(both_db, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	struct spe_diff_opts o = { .sources_a = "1", .sources_b = "2" };
	struct spe_diff *d = NULL;
	char err[512] = "";
	CHECK_INT_EQ(spe_diff_compute(db, &o, &d, err, sizeof err), 0);
	if (d)
		check_pair(d);
	spe_diff_free(d);
	/* the same source twice, a source that is not there, a list that is not one */
	o.sources_b = "1";
	CHECK_INT_EQ(spe_diff_compute(db, &o, &d, err, sizeof err), -spe_invalid);
	CHECK(strstr(err, "nothing to compare") != NULL);
	o.sources_b = "9";
	CHECK_INT_EQ(spe_diff_compute(db, &o, &d, err, sizeof err), -spe_invalid);
	CHECK(strstr(err, "no source 9") != NULL);
	o.sources_b = "2; DROP TABLE source";
	CHECK_INT_EQ(spe_diff_compute(db, &o, &d, err, sizeof err), -spe_invalid);
	sqlite3_close(db);
}

TEST(two_databases)
{
	sqlite3 *db;
	CHECK_INT_EQ(sqlite3_open_v2(before_db, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL), SQLITE_OK);
	struct spe_diff_opts o = { .db_b = after_db };
	struct spe_diff *d = NULL;
	char err[512] = "";
	int rc = spe_diff_compute(db, &o, &d, err, sizeof err);
	if (rc)
		printf("  %s\n", err);
	CHECK_INT_EQ(rc, 0);
	if (d)
		check_pair(d);
	spe_diff_free(d);
	o.db_b = "/nonexistent/x.db";
	CHECK(spe_diff_compute(db, &o, &d, err, sizeof err) < 0);
	CHECK(strstr(err, "/nonexistent/x.db") != NULL);
	sqlite3_close(db);
}

/* The command: table and JSON output, and its usage errors. */
TEST(command)
{
	char cmd[4096], out[256];
	snprintf(out, sizeof out, "%s/diff.json", dir);
	snprintf(cmd, sizeof cmd, "%s%s -d %s --diff 1 2 --format=json > %s", spe_run_prefix(), spe_report, both_db, out);
	CHECK_INT_EQ(replay_load_sh(cmd), 0);
	FILE *f = fopen(out, "r");
	char buf[65536] = "";
	size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = 0;
	CHECK(strncmp(buf, "{\"diff\": {\"confidence\": 0.95", 28) == 0);
	CHECK(strstr(buf, "{\"name\": \"heap_scan\", \"where\": \"datawork-pie\"") != NULL);
	int faster = 0;
	for (const char *p = buf; (p = strstr(p, "\"verdict\": \"faster\"")); p++)
		faster++;
	CHECK_INT_EQ(faster, 3); /* the function, its load, its region */
	snprintf(cmd, sizeof cmd, "%s%s --diff %s %s --top 1 | grep -c 'faster$' | grep -qx 3",
		 spe_run_prefix(), spe_report, before_db, after_db);
	CHECK_INT_EQ(replay_load_sh(cmd), 0);
	snprintf(cmd, sizeof cmd, "%s%s -d %s --diff 1 2>/dev/null", spe_run_prefix(), spe_report, both_db);
	CHECK_INT_EQ(replay_load_sh(cmd), 64);
	snprintf(cmd, sizeof cmd, "%s%s -d %s --diff 1 7 2>/dev/null", spe_run_prefix(), spe_report, both_db);
	CHECK_INT_EQ(replay_load_sh(cmd), 64);
	snprintf(cmd, sizeof cmd, "%s%s --diff %s %s/missing.db 2>/dev/null", spe_run_prefix(), spe_report, before_db,
		 dir);
	CHECK_INT_EQ(replay_load_sh(cmd), 66);
	snprintf(cmd, sizeof cmd, "%s%s -d %s --diff 1 2 --confidence 2 2>/dev/null", spe_run_prefix(), spe_report,
		 both_db);
	CHECK_INT_EQ(replay_load_sh(cmd), 64);
}

int main(int argc, char **argv)
{
	if (argc != 6) {
		fprintf(stderr, "usage: test_diff REPLAY_TOOL SPE_LOAD SPE_REPORT TRACES_DIR ELF_DIR\n");
		return 64;
	}
	replay_tool = argv[1];
	spe_load = argv[2];
	spe_report = argv[3];
	traces = argv[4];
	elf_dir = argv[5];
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(newcombe_published_examples);
	RUN(mean_change_and_quantile);
	RUN(load_pair);
	RUN(one_database_two_sources);
	RUN(two_databases);
	RUN(command);
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	replay_load_sh(cmd);
	return check_summary();
}
