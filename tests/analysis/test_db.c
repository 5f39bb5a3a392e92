/* SPDX-License-Identifier: Apache-2.0 */
/* Database open modes: creation, refusal to overwrite, version checks, views. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "check.h"
#include "spe/analysis.h"

static char dir[] = "/tmp/spe-test-db-XXXXXX";
static char path[256];

static int exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

static long query_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	long v = -1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -999;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

TEST(create_commit_reopen)
{
	char err[512] = "";
	struct spe_db *db;
	snprintf(path, sizeof path, "%s/a.db", dir);
	CHECK_INT_EQ(spe_db_open(path, SPE_DB_CREATE, &db, err, sizeof err), 0);
	CHECK(!exists(path)); /* built aside until commit */
	CHECK_INT_EQ(spe_db_commit(db, err, sizeof err), 0);
	spe_db_close(db);
	CHECK(exists(path));
	CHECK_INT_EQ(spe_db_open(path, SPE_DB_READONLY, &db, err, sizeof err), 0);
	sqlite3 *s = spe_db_sqlite(db);
	CHECK_INT_EQ(query_int(s, "PRAGMA user_version"), SPE_DB_SCHEMA_VERSION);
	CHECK_INT_EQ(query_int(s, "SELECT value FROM meta WHERE key = 'schema_version'"), SPE_DB_SCHEMA_VERSION);
	/* every view compiles and is empty */
	const char *views[] = { "spe_sample", "hot_pc", "hot_symbol", "mem_level_summary", "latency_histogram",
				"tlb_hotspot", "cacheline_sharing", "branch_mispredict" };
	for (size_t i = 0; i < sizeof views / sizeof *views; i++) {
		char sql[128];
		snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", views[i]);
		CHECK_INT_EQ(query_int(s, sql), 0);
	}
	/* event columns come from the facts table and read bits of events */
	CHECK_INT_EQ(sqlite3_exec(s, "SELECT retired, l1d_refill, smcu, streaming_sve FROM spe_record", NULL, NULL,
				  NULL),
		     SQLITE_OK);
	spe_db_close(db);
}

TEST(refuse_existing_without_append)
{
	char err[512] = "";
	struct spe_db *db = NULL;
	CHECK(spe_db_open(path, SPE_DB_CREATE, &db, err, sizeof err) < 0);
	CHECK(db == NULL);
	CHECK(strstr(err, "exists") != NULL);
	CHECK(strstr(err, path) != NULL);
}

TEST(force_replaces_only_on_commit)
{
	char err[512] = "";
	struct spe_db *db;
	struct stat before, after;
	stat(path, &before);
	CHECK_INT_EQ(spe_db_open(path, SPE_DB_FORCE, &db, err, sizeof err), 0);
	spe_db_close(db); /* no commit: the old file stays */
	stat(path, &after);
	CHECK_INT_EQ(before.st_ino, after.st_ino);
	CHECK_INT_EQ(spe_db_open(path, SPE_DB_FORCE, &db, err, sizeof err), 0);
	CHECK_INT_EQ(spe_db_commit(db, err, sizeof err), 0);
	spe_db_close(db);
	stat(path, &after);
	CHECK(before.st_ino != after.st_ino);
	/* no temporary files left behind */
	char cmd[512];
	snprintf(cmd, sizeof cmd, "test $(ls %s | wc -l) -eq 1", dir);
	CHECK_INT_EQ(system(cmd), 0);
}

TEST(refuse_unknown_version)
{
	char err[512] = "";
	struct spe_db *db;
	sqlite3 *s;
	CHECK_INT_EQ(sqlite3_open(path, &s), SQLITE_OK);
	CHECK_INT_EQ(sqlite3_exec(s, "PRAGMA user_version = 99", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(s);
	CHECK(spe_db_open(path, SPE_DB_APPEND, &db, err, sizeof err) < 0);
	CHECK(strstr(err, "schema version 99") != NULL);
	CHECK(spe_db_open(path, SPE_DB_READONLY, &db, err, sizeof err) < 0);
}

TEST(refuse_foreign_database)
{
	char err[512] = "";
	struct spe_db *db;
	sqlite3 *s;
	char other[300];
	snprintf(other, sizeof other, "%s/other.db", dir);
	CHECK_INT_EQ(sqlite3_open(other, &s), SQLITE_OK);
	CHECK_INT_EQ(sqlite3_exec(s, "CREATE TABLE t(x)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(s);
	CHECK(spe_db_open(other, SPE_DB_APPEND, &db, err, sizeof err) < 0);
	CHECK(strstr(err, "not a spekit database") != NULL);
	unlink(other);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	RUN(create_commit_reopen);
	RUN(refuse_existing_without_append);
	RUN(force_replaces_only_on_commit);
	RUN(refuse_unknown_version);
	RUN(refuse_foreign_database);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		return 1;
	return check_summary();
}
