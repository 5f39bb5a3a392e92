/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Database open modes: creation, refusal to overwrite, version checks,
 * views; every table as its description (spe/tables.h) says, and an append
 * bringing a database of this version written before a column or table was
 * added up to date, or refusing one whose columns differ otherwise.
 */
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
	/* the version before the oldest this build reads: refused too */
	char sql[64];
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d", SPE_DB_SCHEMA_VERSION_OLDEST - 1);
	CHECK_INT_EQ(sqlite3_open(path, &s), SQLITE_OK);
	CHECK_INT_EQ(sqlite3_exec(s, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(s);
	CHECK(spe_db_open(path, SPE_DB_READONLY, &db, err, sizeof err) < 0);
	CHECK(strstr(err, "is not supported") != NULL);
}

/* The columns of @p table in @p s as "a b c", and their declared types as "T T T". */
static void table_columns(sqlite3 *s, const char *table, char *names, char *types, size_t size)
{
	sqlite3_stmt *st;
	names[0] = types[0] = 0;
	CHECK_INT_EQ(sqlite3_prepare_v2(s, "SELECT name, type FROM pragma_table_info(?1) ORDER BY cid", -1, &st, NULL),
		     SQLITE_OK);
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		snprintf(names + strlen(names), size - strlen(names), "%s%s", *names ? " " : "", sqlite3_column_text(st, 0));
		snprintf(types + strlen(types), size - strlen(types), "%s%s", *types ? " " : "", sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
}

/* The same from table @p ti's description: its stored columns, the first word of their SQL. */
static void described_columns(const struct spe_table_info *ti, char *names, char *types, size_t size)
{
	names[0] = types[0] = 0;
	if (ti == spe_table_info(SPE_TABLE_RECORD)) {
		snprintf(names, size, "id");
		snprintf(types, size, "INTEGER");
	}
	for (int c = 0; c < ti->n_columns; c++)
		if (ti->columns[c].sql) {
			snprintf(names + strlen(names), size - strlen(names), "%s%s", *names ? " " : "", ti->columns[c].name);
			snprintf(types + strlen(types), size - strlen(types), "%s%.*s", *types ? " " : "",
				 (int)strcspn(ti->columns[c].sql, " "), ti->columns[c].sql);
		}
}

TEST(tables_are_their_descriptions)
{
	char err[512] = "", have[2048], want[2048], have_types[2048], want_types[2048];
	struct spe_db *db;
	CHECK_INT_EQ(spe_db_open_memory(&db, err, sizeof err), 0);
	sqlite3 *s = spe_db_sqlite(db);
	int n, tables = 0;
	const struct spe_table_info *store = spe_store_tables(&n);
	for (int i = 0; i < SPE_TABLE_COUNT + n; i++) {
		const struct spe_table_info *ti = i < SPE_TABLE_COUNT ? spe_table_info((enum spe_table)i) : &store[i - SPE_TABLE_COUNT];
		table_columns(s, ti->name, have, have_types, sizeof have);
		described_columns(ti, want, want_types, sizeof want);
		CHECK_STR_EQ(have, want);
		CHECK_STR_EQ(have_types, want_types);
		CHECK(spe_table_named(ti->name) == ti);
		for (int c = 0; c < ti->n_columns; c++) /* an IF() flag is an int or a count */
			CHECK(ti->columns[c].null != SPE_NULL_UNLESS || ti->columns[c].flag_size == 4 ||
			      ti->columns[c].flag_size == 8);
		tables++;
	}
	/* and no table of the schema is undescribed (but the topdown tables, which are not spe_analysis's) */
	CHECK_INT_EQ(query_int(s, "SELECT count(*) FROM sqlite_schema WHERE type = 'table'"), tables);
	spe_db_close(db);
}

static char last_column[64]; /* load_stats' */

/* A database of this version whose load_stats lacks its last column and (@p no_table) that has no numa_stat table. */
static void make_older(int no_table)
{
	char err[512] = "";
	struct spe_db *db;
	unlink(path);
	CHECK_INT_EQ(spe_db_open(path, SPE_DB_CREATE, &db, err, sizeof err), 0);
	CHECK_INT_EQ(spe_db_commit(db, err, sizeof err), 0);
	spe_db_close(db);
	sqlite3 *s;
	CHECK_INT_EQ(sqlite3_open(path, &s), SQLITE_OK);
	const struct spe_table_info *ti = spe_table_info(SPE_TABLE_LOAD_STATS);
	snprintf(last_column, sizeof last_column, "%s", ti->columns[ti->n_columns - 1].name);
	char sql[128];
	snprintf(sql, sizeof sql, "ALTER TABLE load_stats DROP COLUMN %s", last_column);
	CHECK_INT_EQ(sqlite3_exec(s, sql, NULL, NULL, NULL), SQLITE_OK);
	if (no_table)
		CHECK_INT_EQ(sqlite3_exec(s, "DROP TABLE numa_stat", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(s);
}

TEST(append_adds_what_this_version_added)
{
	char err[512] = "", have[2048], types[2048], want[2048], want_types[2048];
	struct spe_db *db;
	make_older(1);
	CHECK_INT_EQ(spe_db_open(path, SPE_DB_APPEND, &db, err, sizeof err), 0);
	CHECK_INT_EQ(spe_db_commit(db, err, sizeof err), 0);
	spe_db_close(db);
	sqlite3 *s;
	CHECK_INT_EQ(sqlite3_open(path, &s), SQLITE_OK);
	for (int t = 0; t < SPE_TABLE_COUNT; t++) {
		table_columns(s, spe_table_info((enum spe_table)t)->name, have, types, sizeof have);
		described_columns(spe_table_info((enum spe_table)t), want, want_types, sizeof want);
		CHECK_STR_EQ(have, want);
	}
	sqlite3_close(s);
	/* read-only opens change nothing: a database lacking them is still read as it is */
	make_older(1);
	CHECK_INT_EQ(spe_db_open(path, SPE_DB_READONLY, &db, err, sizeof err), 0);
	spe_db_close(db);
	CHECK_INT_EQ(sqlite3_open(path, &s), SQLITE_OK);
	CHECK_INT_EQ(query_int(s, "SELECT count(*) FROM sqlite_schema WHERE name = 'numa_stat'"), 0);
	sqlite3_close(s);
}

/*
 * The columns main added within version 7 the old way (mapping.build_id_status,
 * symbol_summary.mapping_id), now lines of spe/tables.h: a database written
 * before them gets both at its next --append, as every described column.
 */
TEST(append_adds_build_id_status_and_kernel_groups)
{
	char err[512] = "";
	struct spe_db *db;
	make_older(0);
	sqlite3 *s;
	CHECK_INT_EQ(sqlite3_open(path, &s), SQLITE_OK);
	CHECK_INT_EQ(sqlite3_exec(s, "ALTER TABLE mapping DROP COLUMN build_id_status", NULL, NULL, NULL), SQLITE_OK);
	/* mapping_id REFERENCES mapping(id): SQLite drops no such column; the table as it was before */
	CHECK_INT_EQ(sqlite3_exec(s,
				  "DROP TABLE symbol_summary; CREATE TABLE symbol_summary(symbol_id INTEGER REFERENCES "
				  "symbol(id), samples INTEGER NOT NULL, total_latency INTEGER, timed INTEGER NOT NULL, "
				  "p50 INTEGER, p90 INTEGER, p99 INTEGER)",
				  NULL, NULL, NULL),
		     SQLITE_OK);
	CHECK_INT_EQ(query_int(s, "SELECT count(*) FROM pragma_table_info('mapping') WHERE name = 'build_id_status'"), 0);
	sqlite3_close(s);
	CHECK_INT_EQ(spe_db_open(path, SPE_DB_APPEND, &db, err, sizeof err), 0);
	CHECK_INT_EQ(spe_db_commit(db, err, sizeof err), 0);
	spe_db_close(db);
	CHECK_INT_EQ(sqlite3_open(path, &s), SQLITE_OK);
	CHECK_INT_EQ(query_int(s, "SELECT count(*) FROM pragma_table_info('mapping') WHERE name = 'build_id_status' "
				  "AND type = 'TEXT' AND cid = 10"),
		     1);
	CHECK_INT_EQ(query_int(s, "SELECT count(*) FROM pragma_table_info('symbol_summary') WHERE name = 'mapping_id' "
				  "AND cid = 7"),
		     1);
	sqlite3_close(s);
	unlink(path);
}

TEST(append_refuses_other_columns)
{
	char err[512] = "";
	struct spe_db *db;
	make_older(0);
	sqlite3 *s;
	CHECK_INT_EQ(sqlite3_open(path, &s), SQLITE_OK);
	CHECK_INT_EQ(sqlite3_exec(s, "ALTER TABLE load_stats RENAME COLUMN no_time TO no_clock", NULL, NULL, NULL),
		     SQLITE_OK);
	sqlite3_close(s);
	CHECK_INT_EQ(spe_db_open(path, SPE_DB_APPEND, &db, err, sizeof err), -spe_unsupported);
	CHECK(strstr(err, "table load_stats has the columns (") != NULL);
	CHECK(strstr(err, "no_clock") != NULL);
	/* and nothing was changed: load_stats still lacks its last column (the tables before it were brought up to date, rolled back) */
	CHECK_INT_EQ(sqlite3_open(path, &s), SQLITE_OK);
	char sql[160];
	snprintf(sql, sizeof sql, "SELECT count(*) FROM pragma_table_info('load_stats') WHERE name = '%s'", last_column);
	CHECK_INT_EQ(query_int(s, sql), 0);
	sqlite3_close(s);
	unlink(path);
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
	RUN(tables_are_their_descriptions);
	RUN(append_adds_what_this_version_added);
	RUN(append_adds_build_id_status_and_kernel_groups);
	RUN(append_refuses_other_columns);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		return 1;
	return check_summary();
}
