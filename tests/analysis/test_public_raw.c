/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Raw public SPE samples (fixtures/public, see its PROVENANCE.md) loaded
 * with spe_load_raw_file, checked against the decodes their publishers give
 * (spe-parser's expected CSV, quipper's test annotations).
 */
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "check.h"
#include "db_query.h"
#include "spe/analysis.h"

static const char *data_dir;
static struct spe_db *db;

static long long q_int(const char *sql)
{
	return db_query_int(spe_db_sqlite(db), sql);
}

static const char *q_text(const char *sql)
{
	return db_query_text(spe_db_sqlite(db), sql);
}

static int load(const char *name)
{
	char path[1024], err[512];
	snprintf(path, sizeof path, "%s/%s", data_dir, name);
	if (spe_db_open_memory(&db, err, sizeof err) < 0)
		return -1;
	struct spe_load_opts opts = { .symbolize = 1 };
	struct spe_load_counts k;
	int rc = spe_load_raw_file(db, path, 0x410fd0c0, 0, &opts, &k, err, sizeof err);
	if (rc < 0)
		printf("  %s\n", err);
	return rc;
}

TEST(spe_parser_b1_ts1)
{
	CHECK_INT_EQ(load("spe-b1-ts1.data"), 0);
	/* 0,B,0x7ffdbf2143e0,0,true,false,RETIRED,41,42,0x7ffdbf214408,0,,0,,3913207673451 */
	CHECK_INT_EQ(q_int("SELECT count(*) FROM spe_record"), 1);
	CHECK_STR_EQ(q_text("SELECT pc FROM spe_sample"), "0x7ffdbf2143e0");
	CHECK_STR_EQ(q_text("SELECT op FROM spe_record"), "B COND");
	CHECK_STR_EQ(q_text("SELECT event_names FROM spe_sample"), "retired");
	CHECK_INT_EQ(q_int("SELECT issue_latency FROM spe_record"), 41);
	CHECK_INT_EQ(q_int("SELECT total_latency FROM spe_record"), 42);
	CHECK_STR_EQ(q_text("SELECT branch_target FROM spe_sample"), "0x7ffdbf214408");
	CHECK_INT_EQ(q_int("SELECT ts FROM spe_record"), 3913207673451LL);
	CHECK_INT_EQ(q_int("SELECT el FROM spe_record"), 0);
	spe_db_close(db);
}

TEST(spe_parser_b1_ts0_ends_with_end)
{
	CHECK_INT_EQ(load("spe-b1-ts0.data"), 0);
	CHECK_INT_EQ(q_int("SELECT count(*) FROM spe_record"), 1);
	CHECK_INT_EQ(q_int("SELECT ts FROM spe_record"), -1); /* NULL: closed by END, no timestamp */
	CHECK_INT_EQ(q_int("SELECT issue_latency FROM spe_record"), 39);
	CHECK_INT_EQ(q_int("SELECT total_latency FROM spe_record"), 40);
	spe_db_close(db);
}

TEST(quipper_two_records)
{
	CHECK_INT_EQ(load("quipper-test_neoverse_2records.bin"), 0);
	CHECK_INT_EQ(q_int("SELECT count(*) FROM spe_record"), 2);
	CHECK_STR_EQ(q_text("SELECT op FROM spe_record WHERE id = 1"), "LD GP-REG");
	CHECK_INT_EQ(q_int("SELECT total_latency FROM spe_record WHERE id = 1"), 12);
	CHECK_INT_EQ(q_int("SELECT issue_latency FROM spe_record WHERE id = 1"), 4);
	CHECK_INT_EQ(q_int("SELECT translation_latency FROM spe_record WHERE id = 1"), 1);
	CHECK_STR_EQ(q_text("SELECT mem_level FROM spe_record WHERE id = 1"), "L1D"); /* DATA-SOURCE 0 on N1 */
	CHECK_STR_EQ(q_text("SELECT event_names FROM spe_sample WHERE id = 1"), "retired l1d_access tlb_access");
	CHECK_INT_EQ(q_int("SELECT tid FROM spe_record WHERE id = 1"), 0x5f80); /* CONTEXT */
	CHECK_INT_EQ(q_int("SELECT el FROM spe_record WHERE id = 1"), 2);
	CHECK_STR_EQ(q_text("SELECT op FROM spe_record WHERE id = 2"), "B COND");
	CHECK_INT_EQ(q_int("SELECT not_taken FROM spe_record WHERE id = 2"), 1);
	CHECK_INT_EQ(q_int("SELECT total_latency FROM spe_record WHERE id = 2"), 17);
	CHECK_INT_EQ(q_int("SELECT issue_latency FROM spe_record WHERE id = 2"), 16);
	/* 56-bit EL2 addresses sign-extended: quipper's branch entry 0xffffba66edefb0e0 -> ...e4 */
	CHECK_STR_EQ(q_text("SELECT pc FROM spe_sample WHERE id = 2"), "0xffffba66edefb0e0");
	CHECK_STR_EQ(q_text("SELECT branch_target FROM spe_sample WHERE id = 2"), "0xffffba66edefb0e4");
	CHECK_INT_EQ(q_int("SELECT ts FROM spe_record WHERE id = 2"), 44731164045LL);
	spe_db_close(db);
}

TEST(fragment_keeps_complete_records_only)
{
	/* TS of the previous record, then a load without its TS: one TS-only record, one partial dropped */
	CHECK_INT_EQ(load("spe-parser-test_get_frame_fragment.bin"), 0);
	CHECK_INT_EQ(q_int("SELECT count(*) FROM spe_record"), 1);
	CHECK_INT_EQ(q_int("SELECT ts FROM spe_record"), 13196304120239LL);
	CHECK_INT_EQ(q_int("SELECT pc FROM spe_record"), -1);
	CHECK_INT_EQ(q_int("SELECT partial_records FROM load_stats"), 1);
	spe_db_close(db);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s FIXTURES/public\n", argv[0]);
		return 2;
	}
	data_dir = argv[1];
	RUN(spe_parser_b1_ts1);
	RUN(spe_parser_b1_ts0_ends_with_end);
	RUN(quipper_two_records);
	RUN(fragment_keeps_complete_records_only);
	return check_summary();
}
