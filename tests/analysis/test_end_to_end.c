/* SPDX-License-Identifier: Apache-2.0 */
/*
 * End to end on the realistic fixture: replay fixtures/workloads/traces/
 * memwork.replay into a perf.data (spe-record --replay), spe-load it with
 * --symfs=fixtures/elf, then check the views against what the generator
 * put in the trace (see the comment at the top of gen_traces.c; every
 * number below is derived there, not copied from our own output).
 *
 * usage: test_end_to_end REPLAY_TOOL SPE_LOAD SPE_QUERY MANIFEST ELF_DIR
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "check.h"
#include "run.h"
#include "spe/analysis.h"

static const char *replay_tool, *spe_load, *spe_query, *manifest, *elf_dir;
static char dir[] = "/tmp/spe-e2e-XXXXXX";
static char data_path[256], db_path[256];
static sqlite3 *db;

#define BASE 0xaaaaab000000ll
/* `shared` in fixtures/elf/memwork-pie (aarch64-linux-gnu-nm: 0000000000002100 B shared) */
#define SHARED_LINE (BASE + 0x2100)

static int run(const char *cmd)
{
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static long long q_int(const char *sql)
{
	sqlite3_stmt *st;
	long long v = -999999;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		printf("  SQL error: %s in %s\n", sqlite3_errmsg(db), sql);
		return v;
	}
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static char text_buf[512];
static const char *q_text(const char *sql)
{
	sqlite3_stmt *st;
	text_buf[0] = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		printf("  SQL error: %s in %s\n", sqlite3_errmsg(db), sql);
		return "(error)";
	}
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(text_buf, sizeof text_buf, "%s", (const char *)sqlite3_column_text(st, 0));
	else
		snprintf(text_buf, sizeof text_buf, "(null)");
	sqlite3_finalize(st);
	return text_buf;
}

TEST(replay_and_load)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "%s%s --replay=%s -o %s >/dev/null 2>&1", spe_run_prefix(), replay_tool, manifest, data_path);
	CHECK_INT_EQ(run(cmd), 0);
	snprintf(cmd, sizeof cmd, "%s%s %s -o %s --symfs=%s 2>/dev/null", spe_run_prefix(), spe_load, data_path, db_path, elf_dir);
	CHECK_INT_EQ(run(cmd), 0);
	CHECK_INT_EQ(sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
}

TEST(record_counts_and_stats)
{
	CHECK_INT_EQ(q_int("SELECT count(*) FROM spe_record"), 1200);
	CHECK_INT_EQ(q_int("SELECT records FROM load_stats"), 1200);
	CHECK_INT_EQ(q_int("SELECT bad_bytes + partial_records + no_mapping + no_symbol + no_time FROM load_stats"), 0);
	CHECK_INT_EQ(q_int("SELECT count(*) FROM spe_record WHERE cpu = 1"), 150);
}

TEST(mem_levels)
{
	CHECK_INT_EQ(q_int("SELECT loads FROM mem_level_summary WHERE mem_level = 'L1D'"), 352);
	CHECK_INT_EQ(q_int("SELECT loads FROM mem_level_summary WHERE mem_level = 'L2'"), 78);
	CHECK_INT_EQ(q_int("SELECT loads FROM mem_level_summary WHERE mem_level = 'SLC'"), 80);
	CHECK_INT_EQ(q_int("SELECT loads FROM mem_level_summary WHERE mem_level = 'DRAM'"), 240);
	CHECK_INT_EQ(q_int("SELECT loads FROM mem_level_summary WHERE mem_level = 'peer-core'"), 100);
	CHECK_INT_EQ(q_int("SELECT count(*) FROM mem_level_summary"), 5);
	/* DRAM loads take 250..349 cycles, so DRAM tops the latency ranking */
	CHECK_STR_EQ(q_text("SELECT mem_level FROM mem_level_summary LIMIT 1"), "DRAM");
	CHECK_INT_EQ(q_int("SELECT min(total_latency) >= 250 AND max(total_latency) <= 349 FROM spe_record"
			   " WHERE mem_level = 'DRAM'"),
		     1);
	/* stores carry no data source */
	CHECK_INT_EQ(q_int("SELECT count(*) FROM spe_record WHERE op_class = 'store' AND mem_level IS NOT NULL"), 0);
}

TEST(ops_and_events)
{
	CHECK_INT_EQ(q_int("SELECT count(*) FROM spe_record WHERE op = 'LD GP-REG'"), 550);
	CHECK_INT_EQ(q_int("SELECT count(*) FROM spe_record WHERE op = 'LD SIMD-FP'"), 300);
	CHECK_INT_EQ(q_int("SELECT count(*) FROM spe_record WHERE op = 'ST GP-REG'"), 150);
	CHECK_INT_EQ(q_int("SELECT count(*) FROM spe_record WHERE op = 'B COND'"), 200);
	CHECK_INT_EQ(q_int("SELECT sum(tlb_walk) FROM spe_record"), 134);
	CHECK_INT_EQ(q_int("SELECT sum(retired) FROM spe_record"), 1200);
	CHECK_INT_EQ(q_int("SELECT sum(cache_data_modified) FROM spe_record"), 100);
}

TEST(hot_symbol_and_pc)
{
	CHECK_STR_EQ(q_text("SELECT symbol FROM hot_symbol LIMIT 1"), "chase");
	CHECK_INT_EQ(q_int("SELECT samples FROM hot_symbol LIMIT 1"), 400);
	/* chase() starts on memwork.c:34 (while loop); its load is p = p->next on line 35 */
	CHECK_INT_EQ(q_int("SELECT src_line FROM hot_symbol LIMIT 1"), 34);
	CHECK_STR_EQ(q_text("SELECT symbol FROM hot_pc LIMIT 1"), "chase");
	CHECK_INT_EQ(q_int("SELECT src_line FROM hot_pc LIMIT 1"), 35);
	CHECK_STR_EQ(q_text("SELECT mnemonic || ' ' || operands FROM hot_pc LIMIT 1"), "ldr x0, [x0]");
	CHECK_STR_EQ(q_text("SELECT src_file FROM hot_pc LIMIT 1"), "./memwork.c");
	CHECK_INT_EQ(q_int("SELECT sum(samples) FROM hot_symbol"), 1200);
	/* shares add up to 100 % */
	CHECK_INT_EQ(q_int("SELECT round(sum(latency_share)) FROM hot_pc"), 100);
	/* the four functions and only those */
	CHECK_INT_EQ(q_int("SELECT count(*) FROM hot_symbol"), 4);
	/* p50 of chase's 400 loads is a DRAM latency (240 of 400 are DRAM, all above the others) */
	CHECK_INT_EQ(q_int("SELECT p50 >= 250 AND p99 <= 349 FROM hot_symbol WHERE symbol = 'chase'"), 1);
}

TEST(instructions_and_inline)
{
	CHECK_STR_EQ(q_text("SELECT mnemonic FROM spe_sample WHERE symbol = 'stream_sum' LIMIT 1"), "ldr");
	CHECK_STR_EQ(q_text("SELECT operands FROM spe_sample WHERE symbol = 'stream_sum' LIMIT 1"), "d1, [x2], #8");
	CHECK_STR_EQ(q_text("SELECT mnemonic FROM spe_sample WHERE op = 'B COND' LIMIT 1"), "tbz");
	/* bump() is inlined into bump_shared(); its store is on memwork.c:51 */
	CHECK_STR_EQ(q_text("SELECT inline_function FROM spe_sample WHERE op = 'ST GP-REG' LIMIT 1"), "bump");
	CHECK_INT_EQ(q_int("SELECT src_line FROM spe_sample WHERE op = 'ST GP-REG' LIMIT 1"), 51);
	CHECK_INT_EQ(q_int("SELECT count(*) FROM insn"), 5); /* five distinct sampled PCs */
	CHECK_INT_EQ(q_int("SELECT hex(bytes) = '000040F9' FROM insn i JOIN symbol s ON s.id = i.symbol_id"
			   " WHERE s.name = 'chase'"),
		     1);
	CHECK_STR_EQ(q_text("SELECT build_id FROM mapping"), "1a466382803aa50298bdd65d5121800874950ac3");
}

TEST(threads_and_time)
{
	CHECK_INT_EQ(q_int("SELECT count(*) FROM spe_record WHERE pid = 4242 AND tid = 4242"), 900);
	CHECK_INT_EQ(q_int("SELECT count(*) FROM spe_record WHERE pid = 4242 AND tid = 4243"), 150);
	CHECK_INT_EQ(q_int("SELECT count(*) FROM spe_record WHERE pid = 4242 AND tid = 4244"), 150);
	CHECK_STR_EQ(q_text("SELECT comm FROM spe_sample WHERE tid = 4243 LIMIT 1"), "bumper");
	/* time_conv 21 83886080 1000000000: 40 ns per tick from 1 s */
	CHECK_INT_EQ(q_int("SELECT count(*) FROM spe_record WHERE time = 1000000000 + ts * 40"), 1200);
}

TEST(cacheline_shared_between_threads)
{
	CHECK_INT_EQ(q_int("SELECT count(*) FROM cacheline_sharing"), 1);
	CHECK_INT_EQ(q_int("SELECT line_value FROM cacheline_sharing"), SHARED_LINE);
	CHECK_INT_EQ(q_int("SELECT threads FROM cacheline_sharing"), 2);
	CHECK_INT_EQ(q_int("SELECT cpus FROM cacheline_sharing"), 2);
	CHECK_INT_EQ(q_int("SELECT stores FROM cacheline_sharing"), 150);
	CHECK_INT_EQ(q_int("SELECT offsets FROM cacheline_sharing"), 2); /* shared.a and shared.b: false sharing */
	CHECK_INT_EQ(q_int("SELECT hitm FROM cacheline_sharing"), 100);
	CHECK_INT_EQ(q_int("SELECT peer_hits FROM cacheline_sharing"), 100);
	CHECK_STR_EQ(q_text("SELECT symbols FROM cacheline_sharing"), "bump_shared");
}

TEST(branches_and_tlb)
{
	CHECK_INT_EQ(q_int("SELECT branches FROM branch_mispredict"), 200);
	CHECK_INT_EQ(q_int("SELECT mispredicted FROM branch_mispredict"), 50);
	CHECK_INT_EQ(q_int("SELECT not_taken FROM branch_mispredict"), 100);
	CHECK_STR_EQ(q_text("SELECT symbol FROM branch_mispredict"), "branchy");
	/* 400 chase lines 40503*64 bytes apart mod 16 MiB: every load on its own page; walks on i%3 == 0 */
	CHECK_INT_EQ(q_int("SELECT sum(tlb_walks) FROM tlb_hotspot"), 134);
	CHECK_INT_EQ(q_int("SELECT max(tlb_walks) FROM tlb_hotspot"), 1);
	CHECK_INT_EQ(q_int("SELECT count(*) FROM latency_histogram WHERE op_class = 'branch'"), 2); /* 1, 2-3 */
	CHECK_INT_EQ(q_int("SELECT sum(samples) FROM latency_histogram"), 1200);
}

TEST(spe_query_formats)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd,
		 "%s%s -d %s --format=csv \"SELECT symbol, samples FROM hot_symbol LIMIT 1\" | od -c | grep -q '\\\\r  \\\\n'",
		 spe_run_prefix(), spe_query, db_path);
	CHECK_INT_EQ(run(cmd), 0); /* RFC 4180 line ends */
	snprintf(cmd, sizeof cmd,
		 "test \"$(%s%s -d %s --format=json \"SELECT symbol, samples FROM hot_symbol LIMIT 1\")\" = "
		 "'{\"symbol\": \"chase\", \"samples\": 400}'",
		 spe_run_prefix(), spe_query, db_path);
	CHECK_INT_EQ(run(cmd), 0);
	snprintf(cmd, sizeof cmd, "%s%s -d %s \"SELECT nonsense FROM nowhere\" 2>/dev/null", spe_run_prefix(), spe_query, db_path);
	CHECK_INT_EQ(run(cmd), 65);
	/* read-only unless --write */
	snprintf(cmd, sizeof cmd, "%s%s -d %s \"DELETE FROM spe_record\" 2>/dev/null", spe_run_prefix(), spe_query, db_path);
	CHECK_INT_EQ(run(cmd), 65);
	CHECK_INT_EQ(q_int("SELECT count(*) FROM spe_record"), 1200);
	/* FILE.data form loads into a temporary database */
	snprintf(cmd, sizeof cmd,
		 "test \"$(%s%s --symfs=%s --format=csv %s \"SELECT count(*) AS n FROM spe_record\" | tr -d '\\r')\" = "
		 "\"$(printf 'n\\n1200')\"",
		 spe_run_prefix(), spe_query, elf_dir, data_path);
	CHECK_INT_EQ(run(cmd), 0);
}

TEST(append_second_source)
{
	char cmd[2048], fleet[300], again[300];
	snprintf(fleet, sizeof fleet, "%s/fleet.db", dir);
	/* the same trace recorded again (another -o, so another command line: another file; the same file is refused) */
	snprintf(again, sizeof again, "%s/again.data", dir);
	snprintf(cmd, sizeof cmd, "%s%s --replay=%s -o %s >/dev/null 2>&1", spe_run_prefix(), replay_tool, manifest, again);
	CHECK_INT_EQ(run(cmd), 0);
	snprintf(cmd, sizeof cmd, "cp %s %s && %s%s --append %s -o %s --symfs=%s 2>/dev/null", db_path, fleet, spe_run_prefix(), spe_load,
		 again, fleet, elf_dir);
	CHECK_INT_EQ(run(cmd), 0);
	sqlite3 *one = db;
	CHECK_INT_EQ(sqlite3_open_v2(fleet, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	CHECK_INT_EQ(q_int("SELECT count(*) FROM source"), 2);
	CHECK_INT_EQ(q_int("SELECT count(*) FROM load_stats WHERE records = 1200"), 2);
	CHECK_INT_EQ(q_int("SELECT count(*) FROM spe_record"), 2400);
	/* hot_symbol merges a function of one file across sources; hot_pc keeps PCs */
	CHECK_INT_EQ(q_int("SELECT count(*) FROM hot_symbol"), 4);
	CHECK_INT_EQ(q_int("SELECT samples FROM hot_symbol WHERE symbol = 'chase'"), 800);
	/* addresses belong to one source's processes: one shared line per source */
	CHECK_INT_EQ(q_int("SELECT count(*) FROM cacheline_sharing"), 2);
	CHECK_INT_EQ(q_int("SELECT count(DISTINCT source_id) FROM cacheline_sharing"), 2);
	/* each names its function from its own load's symbol rows */
	CHECK_STR_EQ(q_text("SELECT group_concat(source_id || ':' || symbols, ' ') FROM"
			    " (SELECT * FROM cacheline_sharing ORDER BY source_id)"),
		     "1:bump_shared 2:bump_shared");
	CHECK_INT_EQ(q_int("SELECT count(*) FROM symbol WHERE name = 'bump_shared'"), 2);
	CHECK_INT_EQ(q_int("SELECT loads FROM mem_level_summary WHERE mem_level = 'DRAM'"), 480);
	sqlite3_close(db);
	db = one;
}

/*
 * --jobs=1 (one thread) and the default (the writer thread where two CPUs are
 * online): the rows, ids included, must not change (analysis_jobs_same_db
 * compares every table of a bigger load).
 */
TEST(jobs_same_rows)
{
	char cmd[2048], threaded[300];
	snprintf(threaded, sizeof threaded, "%s/jobs.db", dir);
	snprintf(cmd, sizeof cmd, "%s%s --jobs=1 %s -o %s --symfs=%s 2>/dev/null", spe_run_prefix(), spe_load, data_path, threaded, elf_dir);
	CHECK_INT_EQ(run(cmd), 0);
	const char *digest = "SELECT count(*) || ':' || total(pc % 1000003 * id) || ':' || total(total_latency * id) || ':' ||"
			     " total(ifnull(symbol_id, 0) * id) || ':' || total(ifnull(insn_id, 0) * id) || ':' ||"
			     " total(tid * id) || ':' || total(ts % 1000003 * id) || ':' || total(ifnull(data_va, 0) % 1000003 * id)"
			     " || ':' || group_concat(DISTINCT mem_level) FROM spe_record";
	char want[512];
	snprintf(want, sizeof want, "%s", q_text(digest));
	sqlite3 *one = db;
	CHECK_INT_EQ(sqlite3_open_v2(threaded, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	CHECK_STR_EQ(q_text(digest), want);
	CHECK_INT_EQ(q_int("SELECT records FROM load_stats"), 1200);
	sqlite3_close(db);
	db = one;
}

/* A set cancel flag stops the load with -spe_cancelled, the one code cancellation has (spe_errstr names it). */
TEST(cancelled_load)
{
	static volatile sig_atomic_t cancel = 1;
	struct spe_db *mem;
	char err[512] = "";
	CHECK_INT_EQ(spe_db_open_memory(&mem, err, sizeof err), 0);
	struct spe_load_opts opts = { .cancel = &cancel };
	int rc = spe_load_perf_file(mem, data_path, &opts, NULL, err, sizeof err);
	CHECK_INT_EQ(rc, -spe_cancelled);
	CHECK_STR_EQ(spe_errstr(rc), "cancelled");
	CHECK(strstr(err, "interrupted") != NULL);
	spe_db_close(mem);
}

int main(int argc, char **argv)
{
	if (argc != 6) {
		printf("usage: test_end_to_end REPLAY SPE_LOAD SPE_QUERY MANIFEST ELF_DIR\n");
		return 1;
	}
	replay_tool = argv[1];
	spe_load = argv[2];
	spe_query = argv[3];
	manifest = argv[4];
	elf_dir = argv[5];
	if (!mkdtemp(dir))
		return 1;
	snprintf(data_path, sizeof data_path, "%s/memwork.data", dir);
	snprintf(db_path, sizeof db_path, "%s/memwork.db", dir);
	RUN(replay_and_load);
	if (!db) {
		printf("SKIP-less failure: no database\n");
		return check_summary();
	}
	RUN(record_counts_and_stats);
	RUN(mem_levels);
	RUN(ops_and_events);
	RUN(hot_symbol_and_pc);
	RUN(instructions_and_inline);
	RUN(threads_and_time);
	RUN(cacheline_shared_between_threads);
	RUN(branches_and_tlb);
	RUN(spe_query_formats);
	RUN(append_second_source);
	RUN(jobs_same_rows);
	RUN(cancelled_load);
	sqlite3_close(db);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	run(cmd);
	return check_summary();
}
