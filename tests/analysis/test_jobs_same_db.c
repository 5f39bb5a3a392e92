/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe-load --jobs=1 (one thread) and --jobs=2 (SQLite's inserts, those of
 * the end-of-load tables too, on a writer thread; the rollup's merge of a
 * new database on a thread of its own) make the same database, row for row:
 * every table, every column,
 * in rowid order (source.loaded_at, the clock, excepted).  The trace is a
 * gen_bench one (fixtures/workloads/gen_bench.c) big enough for many of the
 * writer's batches, with symbols, so insn and symbol rows interleave with
 * the records.  With --append of a second copy on top (a byte longer: spe-load
 * refuses the same file twice).
 *
 * usage: analysis_jobs_same_db REPLAY_TOOL SPE_LOAD GEN_BENCH
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <sqlite3.h>

#include "check.h"
#include "run.h"

static const char *replay_tool, *spe_load, *gen_bench;
static char dir[] = "/tmp/spe-jobs-XXXXXX";

static int run(const char *cmd)
{
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* FNV-1a over bytes. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ ((const unsigned char *)p)[i]) * 0x100000001b3ull;
	return h;
}

/*
 * One line per table into @p out: "name rows hash", the hash over every
 * column's type and value of every row in rowid order.
 */
static int digest(const char *path, char *out, size_t cap)
{
	sqlite3 *db;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		return -1;
	sqlite3_stmt *tables;
	sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", -1, &tables, NULL);
	size_t used = 0;
	out[0] = 0;
	while (sqlite3_step(tables) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(tables, 0);
		char sql[256];
		snprintf(sql, sizeof sql, "SELECT * FROM \"%s\" ORDER BY rowid", name);
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
			continue;
		uint64_t h = 0xcbf29ce484222325ull, rows = 0;
		int skip = -1; /* source.loaded_at: the clock */
		for (int c = 0; c < sqlite3_column_count(st); c++)
			if (strcmp(name, "source") == 0 && strcmp(sqlite3_column_name(st, c), "loaded_at") == 0)
				skip = c;
		while (sqlite3_step(st) == SQLITE_ROW) {
			rows++;
			for (int c = 0; c < sqlite3_column_count(st); c++) {
				if (c == skip)
					continue;
				int type = sqlite3_column_type(st, c);
				h = fnv(h, &type, sizeof type);
				const void *v = sqlite3_column_blob(st, c);
				h = fnv(h, v ? v : "", (size_t)sqlite3_column_bytes(st, c));
			}
		}
		sqlite3_finalize(st);
		used += (size_t)snprintf(out + used, used < cap ? cap - used : 0, "%s %llu %016llx\n", name,
					 (unsigned long long)rows, (unsigned long long)h);
	}
	sqlite3_finalize(tables);
	sqlite3_close(db);
	return used < cap ? 0 : -1;
}

static long long record_count(const char *path)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	long long n = -1;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, "SELECT count(*) FROM _spe_record", -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return n;
}

static char trace[300], trace2[300]; /* trace2: the same records, a byte more (spe-load refuses a file twice) */

/* Load the trace with @p jobs into @p db (twice: the second with --append), then digest it. */
static void load(const char *jobs, const char *db, char *out, size_t cap)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "%s%s %s %s -o %s --symfs=%s 2>/dev/null && %s%s %s --append %s -o %s --symfs=%s 2>/dev/null",
		 spe_run_prefix(), spe_load, jobs, trace, db, dir, spe_run_prefix(), spe_load, jobs, trace2, db, dir);
	CHECK_INT_EQ(run(cmd), 0);
	CHECK_INT_EQ(digest(db, out, cap), 0);
}

TEST(one_thread_and_two_give_the_same_rows)
{
	static char one[16384], two[16384];
	char db1[320], db2[320];
	snprintf(db1, sizeof db1, "%s/one.db", dir);
	snprintf(db2, sizeof db2, "%s/two.db", dir);
	load("--jobs=1", db1, one, sizeof one);
	load("--jobs=2", db2, two, sizeof two);
	CHECK_INT_EQ(record_count(db1), 2 * 40000);
	CHECK(strstr(one, "insn ") != NULL && strstr(one, "_spe_record 80000 ") != NULL);
	if (strcmp(one, two) != 0) {
		CHECK_STR_EQ(two, one);
		printf("--jobs=1:\n%s--jobs=2:\n%s", one, two);
	}
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		printf("usage: analysis_jobs_same_db REPLAY_TOOL SPE_LOAD GEN_BENCH\n");
		return 1;
	}
	replay_tool = argv[1];
	spe_load = argv[2];
	gen_bench = argv[3];
	if (!mkdtemp(dir))
		return 1;
	snprintf(trace, sizeof trace, "%s/trace.data", dir);
	snprintf(trace2, sizeof trace2, "%s/trace2.data", dir);
	/* 40,000 records over 8,000 PCs in 800 functions: about 13 of the writer's batches */
	char cmd[2048];
	snprintf(cmd, sizeof cmd,
		 "%s%s %s 40000 8000 800 >/dev/null && %s%s --replay=%s/bench.replay -o %s --aux-size=4M >/dev/null 2>&1 && "
		 "rm -f %s/*.bin && { cat %s; printf 2; } >%s",
		 spe_run_prefix(), gen_bench, dir, spe_run_prefix(), replay_tool, dir, trace, dir, trace, trace2);
	if (run(cmd) != 0) {
		printf("FAIL: cannot make the trace\n");
		return 1;
	}
	RUN(one_thread_and_two_give_the_same_rows);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	run(cmd);
	return check_summary();
}
