/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe_load_opts.keep (the records of a selection, spe-report's page and
 * --annotate): a load of the memwork capture keeping every third record
 * and none past n_keep holds exactly the rows of a whole load at those
 * ordinals (spe_record in id order: time, CPU, thread, PC, op, level,
 * latency, function), counts the others as unselected, and its summaries
 * (symbol_summary, mem_level_stat through mem_level_summary) are those the
 * kept rows of the whole load give.
 *
 * usage: analysis_load_keep REPLAY_TOOL MANIFEST ELF_DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <sqlite3.h>

#include "check.h"
#include "run.h"
#include "spe/analysis.h"

static const char *replay_tool, *manifest, *elf_dir;
static char dir[] = "/tmp/spe-keep-XXXXXX";
static char data[4200], whole[4200], kept[4200];

/* Ordinal i is kept: every third, and none of the last 7. */
static int keeps(uint64_t i, uint64_t n_keep)
{
	return i < n_keep && i % 3 == 0;
}

static int load(const char *path, const uint64_t *keep, uint64_t n_keep, struct spe_load_counts *k)
{
	char err[1024];
	struct spe_db *db;
	if (spe_db_open(path, SPE_DB_CREATE, &db, err, sizeof err) < 0) {
		printf("  %s\n", err);
		return -1;
	}
	struct spe_load_opts o = { .symbolize = 1, .symfs = elf_dir, .keep = keep, .n_keep = n_keep };
	int rc = spe_load_perf_file(db, data, &o, k, err, sizeof err);
	if (rc == 0)
		rc = spe_db_commit(db, err, sizeof err);
	if (rc < 0)
		printf("  %s\n", err);
	spe_db_close(db);
	return rc;
}

/* The rows of @p sql over @p path, one "a|b|c" line each, concatenated. */
static char *rows(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		return NULL;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			for (int c = 0; c < sqlite3_column_count(st); c++) {
				const unsigned char *t = sqlite3_column_text(st, c);
				fprintf(f, "%s%s", c ? "|" : "", t ? (const char *)t : "NULL");
			}
			fputc('\n', f);
		}
		sqlite3_finalize(st);
	} else {
		fprintf(f, "error: %s\n", sqlite3_errmsg(db));
	}
	fclose(f);
	sqlite3_close(db);
	return out;
}

static int64_t count(const char *path, const char *sql)
{
	char *r = rows(path, sql);
	int64_t n = r ? strtoll(r, NULL, 10) : -1;
	free(r);
	return n;
}

/* What a record row says, with its function's name (ids differ between the loads). */
#define RECORD_COLUMNS "time, cpu, pid, tid, pc, op_class, op, mem_level, total_latency, data_va, (SELECT name FROM symbol WHERE id = symbol_id)"

TEST(kept_rows_are_the_whole_loads)
{
	struct spe_load_counts k = { 0 };
	CHECK_INT_EQ(load(whole, NULL, 0, &k), 0);
	uint64_t n = k.records;
	CHECK(n > 1000);
	CHECK_U64_EQ(k.unselected, 0);
	uint64_t n_keep = n - 7, want = 0;
	uint64_t *bits = calloc(n / 64 + 1, sizeof *bits);
	for (uint64_t i = 0; i < n; i++)
		if (keeps(i, n_keep)) {
			bits[i / 64] |= 1ull << (i % 64);
			want++;
		}
	struct spe_load_counts kk = { 0 };
	CHECK_INT_EQ(load(kept, bits, n_keep, &kk), 0);
	free(bits);
	CHECK_U64_EQ(kk.records, want);
	CHECK_U64_EQ(kk.unselected, n - want);
	CHECK_INT_EQ(count(kept, "SELECT count(*) FROM spe_record"), (int64_t)want);
	CHECK_INT_EQ(count(kept, "SELECT records FROM load_stats"), (int64_t)want);

	/* the same rows: the whole load's at the kept ordinals (n_keep = n - 7: every third below it) */
	char sql[1024];
	snprintf(sql, sizeof sql,
		 "SELECT " RECORD_COLUMNS " FROM (SELECT *, row_number() OVER (ORDER BY id) - 1 AS i FROM spe_record) "
		 "WHERE i %% 3 = 0 AND i < %llu ORDER BY id",
		 (unsigned long long)n_keep);
	char *a = rows(whole, sql), *b = rows(kept, "SELECT " RECORD_COLUMNS " FROM spe_record ORDER BY id");
	CHECK(a && b && strlen(a) > 1000);
	if (a && strlen(a) <= 1000)
		printf("  whole load's rows: %s\n", a);
	CHECK(a && b && !strcmp(a, b));
	free(a);
	free(b);

	/* the summaries are the kept rows' */
	snprintf(sql, sizeof sql,
		 "SELECT s.name, count(*) FROM (SELECT *, row_number() OVER (ORDER BY id) - 1 AS i FROM spe_record) r "
		 "JOIN symbol s ON s.id = r.symbol_id WHERE i %% 3 = 0 AND i < %llu GROUP BY s.name ORDER BY s.name",
		 (unsigned long long)n_keep);
	a = rows(whole, sql);
	b = rows(kept, "SELECT s.name, sum(ss.samples) FROM symbol_summary ss JOIN symbol s ON s.id = ss.symbol_id "
		       "GROUP BY s.name ORDER BY s.name");
	CHECK(a && b && strchr(a, '\n') != strrchr(a, '\n')); /* two functions or more */
	CHECK(a && b && !strcmp(a, b));
	if (a && b && strcmp(a, b))
		printf("  whole load's kept rows:\n%s  kept load's symbol_summary:\n%s", a, b);
	free(a);
	free(b);
	snprintf(sql, sizeof sql,
		 "SELECT mem_level, count(*) FROM (SELECT *, row_number() OVER (ORDER BY id) - 1 AS i FROM spe_record) "
		 "WHERE i %% 3 = 0 AND i < %llu AND mem_level IS NOT NULL AND op_class = 'load' GROUP BY mem_level "
		 "ORDER BY mem_level",
		 (unsigned long long)n_keep);
	a = rows(whole, sql);
	b = rows(kept, "SELECT mem_level, loads FROM mem_level_summary ORDER BY mem_level");
	CHECK(a && b && strlen(a) > 4);
	CHECK(a && b && !strcmp(a, b));
	if (a && b && strcmp(a, b))
		printf("  whole load's kept loads:\n%s  kept load's mem_level_summary:\n%s", a, b);
	free(a);
	free(b);
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		printf("usage: analysis_load_keep REPLAY_TOOL MANIFEST ELF_DIR\n");
		return 1;
	}
	replay_tool = argv[1];
	manifest = argv[2];
	elf_dir = argv[3];
	if (!mkdtemp(dir))
		return 1;
	snprintf(data, sizeof data, "%s/m.data", dir);
	snprintf(whole, sizeof whole, "%s/whole.db", dir);
	snprintf(kept, sizeof kept, "%s/kept.db", dir);
	char cmd[9000];
	snprintf(cmd, sizeof cmd, "%s%s --replay=%s -o %s >/dev/null 2>&1", spe_run_prefix(), replay_tool, manifest, data);
	int st = system(cmd);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		printf("FAIL: cannot replay %s\n", manifest);
		return 1;
	}
	RUN(kept_rows_are_the_whole_loads);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		printf("(could not remove %s)\n", dir);
	return check_summary();
}
