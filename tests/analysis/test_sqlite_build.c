/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which SQLite the build runs (cmake/spe_sqlite.cmake, SPE_SQLITE_LINK):
 *   test_sqlite_build MODE VERSION SPE_QUERY
 * MODE is what CMake chose: "source" (Debian's source package compiled in
 * with spekit's options), "static" (libsqlite3.a) or "shared"
 * (libsqlite3.so); VERSION the SQLite version expected ("3.40.1").  Checks
 * the library linked into the programs (through spe_analysis, as they link
 * it): its version matches the header the code was compiled against, where
 * its code lives (the executable, or libsqlite3.so), its compile options (the
 * speed options of the source build, or Debian's), that the features spekit
 * relies on work (JSON, window functions, dbstat, math functions, threads),
 * and then the same options through spe-query, the program users run.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "check.h"
#include "db_query.h"
#include "run.h"
#include "spe/analysis.h"

static const char *mode, *version, *spe_query;

static int used(const char *option)
{
	return sqlite3_compileoption_used(option);
}

TEST(version_matches_header)
{
	CHECK_STR_EQ(sqlite3_libversion(), version);
	CHECK_STR_EQ(sqlite3_libversion(), SQLITE_VERSION);
	CHECK_INT_EQ(sqlite3_libversion_number(), SQLITE_VERSION_NUMBER);
	CHECK_STR_EQ(sqlite3_sourceid(), SQLITE_SOURCE_ID);
}

/* Where SQLite's code is: inside the executable for source and static, in libsqlite3.so for shared. */
TEST(code_location)
{
	Dl_info info;
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	CHECK(n > 0);
	exe[n > 0 ? n : 0] = '\0';
	CHECK(dladdr((void *)sqlite3_libversion, &info) != 0);
	const char *where = info.dli_fname ? info.dli_fname : "";
	if (strcmp(mode, "shared") == 0) {
		CHECK(strstr(where, "libsqlite3.so") != NULL);
	} else {
		/* dladdr names the main program as argv[0]'s path or "": compare by inode through the base name. */
		const char *base = strrchr(exe, '/');
		base = base ? base + 1 : exe;
		if (strstr(where, "libsqlite3") != NULL || (*where && !strstr(where, base)))
			CHECK_FAIL_("sqlite3_libversion is in %s, not in %s", where, exe);
	}
}

TEST(compile_options)
{
	int source = strcmp(mode, "source") == 0;
	/* The speed options of the source build; Debian's build has none of them but LIKE_DOESNT_MATCH_BLOBS. */
	CHECK_INT_EQ(used("DEFAULT_MEMSTATUS=0"), source);
	CHECK_INT_EQ(used("OMIT_SHARED_CACHE"), source);
	CHECK_INT_EQ(used("OMIT_DEPRECATED"), source);
	CHECK_INT_EQ(used("USE_ALLOCA"), source);
	CHECK_INT_EQ(used("LIKE_DOESNT_MATCH_BLOBS"), 1);
	/* Debian's options that slow inserts, left out of the source build. */
	CHECK_INT_EQ(used("OMIT_LOOKASIDE"), !source);
	CHECK_INT_EQ(used("SECURE_DELETE"), !source);
	/* What every build must have: threads (the loader's writer thread), URI names, dbstat, math functions. */
	CHECK_INT_EQ(used("THREADSAFE=1"), 1);
	CHECK_INT_EQ(sqlite3_threadsafe(), 1);
	CHECK_INT_EQ(used("USE_URI"), 1);
	CHECK_INT_EQ(used("ENABLE_DBSTAT_VTAB"), 1);
	CHECK_INT_EQ(used("ENABLE_MATH_FUNCTIONS"), 1);
}

TEST(features_spekit_uses)
{
	sqlite3 *db;
	CHECK_INT_EQ(sqlite3_open(":memory:", &db), SQLITE_OK);
	/* json_each: the report's and views' id lists (analysis/report/query/report_sql.c) */
	CHECK_INT_EQ(db_query_int(db, "SELECT sum(value) FROM json_each('[1, 2, 39]')"), 42);
	/* window functions: the memory views (analysis/store/memory_schema.c) */
	CHECK_INT_EQ(db_query_int(db, "SELECT max(r) FROM (SELECT row_number() OVER (PARTITION BY value % 2"
				      " ORDER BY value) AS r FROM json_each('[1, 2, 3, 4, 5]'))"),
		     3);
	CHECK_INT_EQ(db_query_int(db, "SELECT CAST(log2(1024) AS INTEGER)"), 10);
	CHECK_INT_EQ(sqlite3_exec(db, "CREATE TABLE t(a); INSERT INTO t VALUES (1), (2);", NULL, NULL, NULL), SQLITE_OK);
	CHECK(db_query_int(db, "SELECT count(*) FROM dbstat WHERE name = 't'") >= 1);
	/* LIKE_DOESNT_MATCH_BLOBS: a BLOB never matches */
	CHECK_INT_EQ(db_query_int(db, "SELECT x'616263' LIKE 'abc'"), 0);
	sqlite3_close(db);
}

/* spe-query, as users run it, reports the same options through SQL. */
TEST(spe_query_runs_the_same_sqlite)
{
	char dir[] = "/tmp/spe-test-sqlite-XXXXXX", path[300], cmd[1200], err[256] = "", line[256] = "";
	struct spe_db *db = NULL;
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof path, "%s/q.db", dir);
	CHECK_INT_EQ(spe_db_open(path, SPE_DB_CREATE, &db, err, sizeof err), 0);
	CHECK_INT_EQ(spe_db_commit(db, err, sizeof err), 0);
	spe_db_close(db);
	snprintf(cmd, sizeof cmd,
		 "%s%s -d %s --format=csv \"SELECT sqlite_version() || ' ' || sqlite_compileoption_used('DEFAULT_MEMSTATUS=0')"
		 " || ' ' || sqlite_compileoption_used('OMIT_LOOKASIDE')\"",
		 spe_run_prefix(), spe_query, path);
	FILE *p = popen(cmd, "r");
	CHECK(p != NULL);
	/* the CSV header, then the value */
	if (p && fgets(line, sizeof line, p) && fgets(line, sizeof line, p))
		line[strcspn(line, "\r\n")] = '\0';
	CHECK_INT_EQ(p ? pclose(p) : -1, 0);
	char want[64];
	int source = strcmp(mode, "source") == 0;
	snprintf(want, sizeof want, "%s %d %d", version, source, !source);
	CHECK_STR_EQ(line, want);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	CHECK_INT_EQ(system(cmd), 0);
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: %s source|static|shared VERSION SPE_QUERY\n", argv[0]);
		return 64;
	}
	mode = argv[1], version = argv[2], spe_query = argv[3];
	printf("SQLite %s (%s), mode %s\n", sqlite3_libversion(), sqlite3_sourceid(), mode);
	RUN(version_matches_header);
	RUN(code_location);
	RUN(compile_options);
	RUN(features_spekit_uses);
	RUN(spe_query_runs_the_same_sqlite);
	return check_summary();
}
