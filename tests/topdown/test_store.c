/* SPDX-License-Identifier: Apache-2.0 */
/* The topdown tables and views: stored values come back, views clamp, NaN is NULL. */
#include <math.h>
#include <sqlite3.h>
#include <string.h>

#include "check.h"
#include "topdown/store.h"

static double query_double(sqlite3 *db, const char *sql, int *is_null)
{
	sqlite3_stmt *st;
	double v = -1e9;
	*is_null = 1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		printf("  prepare failed: %s\n", sqlite3_errmsg(db));
		return v;
	}
	if (sqlite3_step(st) == SQLITE_ROW) {
		*is_null = sqlite3_column_type(st, 0) == SQLITE_NULL;
		v = sqlite3_column_double(st, 0);
	}
	sqlite3_finalize(st);
	return v;
}

TEST(store_and_views)
{
	sqlite3 *db;
	char err[256] = "";
	int null;
	CHECK_INT_EQ(sqlite3_open(":memory:", &db), SQLITE_OK);
	CHECK_INT_EQ(td_store_init(db, err, sizeof err), 0);
	CHECK_INT_EQ(td_store_init(db, err, sizeof err), 0); /* idempotent */
	CHECK_INT_EQ(query_double(db, "SELECT value FROM meta WHERE key = 'topdown_schema_version'", &null),
		     TD_SCHEMA_VERSION);

	struct td_run run;
	td_run_init(&run);
	td_run_set(&run.name, "r1");
	td_run_set(&run.workload, "stream");
	td_run_set(&run.isa, "aarch64");
	td_run_set(&run.tool, "perf-stat");
	struct td_interval *iv = td_run_interval(&run, 1.0, NULL);
	iv->t1 = 2.0;
	td_values_set(&iv->values, TD_FRONTEND_BOUND, -0.02, 0); /* slightly negative (Arm BR_MIS_PRED term) */
	td_values_set(&iv->values, TD_BACKEND_BOUND, 0.5, 0);
	td_values_set(&iv->values, TD_BAD_SPECULATION, 1.916, 0); /* perf <= 6.3 printed "191,6%" */
	td_values_set(&iv->values, TD_RETIRING, NAN, 0);
	td_values_set(&iv->values, TD_MEMORY_BOUND, 0.3, 0);
	td_interval_add_event(iv, "CPU_CYCLES", 1000, 1);
	td_interval_add_event(iv, "STALL_SLOT", 0, 0);
	int64_t id = 0;
	CHECK_INT_EQ(td_store_run(db, &run, &id, err, sizeof err), 0);
	CHECK_INT_EQ(id, 1);
	td_run_fini(&run);

	CHECK_INT_EQ(query_double(db, "SELECT frac FROM topdown_value WHERE node = 'frontend_bound'", &null) * 100, -2);
	CHECK_INT_EQ(query_double(db, "SELECT frontend_bound FROM topdown_l1", &null), 0); /* clamped */
	CHECK_INT_EQ(query_double(db, "SELECT bad_speculation * 1000 FROM topdown_l1", &null), 1000); /* clamped */
	CHECK_INT_EQ(query_double(db, "SELECT frac * 1000 FROM topdown_value WHERE node = 'bad_speculation'", &null),
		     1916); /* raw */
	CHECK_INT_EQ(query_double(db, "SELECT backend_bound * 10 FROM topdown_l1 WHERE workload = 'stream'", &null), 5);
	query_double(db, "SELECT retiring FROM topdown_l1", &null);
	CHECK(null);
	CHECK_INT_EQ(query_double(db, "SELECT memory_bound * 10 FROM topdown_l2", &null), 3);
	CHECK_INT_EQ(query_double(db, "SELECT t1 FROM topdown_l1", &null), 2);
	CHECK_INT_EQ(query_double(db, "SELECT value FROM topdown_event WHERE name = 'CPU_CYCLES'", &null), 1000);
	query_double(db, "SELECT value FROM topdown_event WHERE name = 'STALL_SLOT'", &null);
	CHECK(null); /* <not counted> */
	CHECK_INT_EQ(query_double(db, "SELECT level FROM topdown_node WHERE node = 'core_bound'", &null), 2);
	sqlite3_close(db);
}

/* Topdown tables of another topdown_schema_version are refused, not written into. */
TEST(other_version_refused)
{
	sqlite3 *db;
	char err[256] = "";
	CHECK_INT_EQ(sqlite3_open(":memory:", &db), SQLITE_OK);
	CHECK_INT_EQ(td_store_init(db, err, sizeof err), 0);
	CHECK_INT_EQ(td_store_check(db, err, sizeof err), 0);
	sqlite3_exec(db, "UPDATE meta SET value = '99' WHERE key = 'topdown_schema_version'", NULL, NULL, NULL);
	CHECK_INT_EQ(td_store_check(db, err, sizeof err), -spe_bad_input);
	CHECK_INT_EQ(td_store_init(db, err, sizeof err), -spe_bad_input);
	CHECK(strstr(err, "version 99") != NULL);
	sqlite3_close(db);
}

int main(void)
{
	RUN(store_and_views);
	RUN(other_version_refused);
	return check_summary();
}
