/* SPDX-License-Identifier: Apache-2.0 */
/*
 * number_text.c against the SQLite it stands in for: every text it writes
 * must be the one SQLite writes for the same value (integers, printf('0x%x'),
 * REALs), and every rounded quotient must read back as the very double
 * SQLite's round() gives -- or the function must decline and leave it to
 * SQLite.  Checked over dense ranges of the values the views produce.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "check.h"
#include "number_text.h"

static sqlite3 *db;

static sqlite3_stmt *prepare(const char *sql)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		printf("  prepare %s: %s\n", sql, sqlite3_errmsg(db));
	return st;
}

/* SQLite's text of what @p st computes from ?1, bound since the last reset. */
static const char *sqlite_text(sqlite3_stmt *st)
{
	return sqlite3_step(st) == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : "(error)";
}

/* a xorshift: spread values over many magnitudes, the same on every run */
static uint64_t next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* ana_int64_text and ana_hex_text as SQLite prints; ana_uint64_text as printf's %llu */
TEST(integers_and_hex)
{
	sqlite3_stmt *dec = prepare("SELECT ?1"), *hex = prepare("SELECT printf('0x%x', ?1)");
	const int64_t fixed[] = { 0, 1, -1, 9, 10, -10, INT64_MAX, INT64_MIN, 187650073952424, -281474976710656 };
	uint64_t seed = 88172645463325252ull;
	for (int i = 0; i < 20000; i++) {
		int64_t v = i < (int)(sizeof fixed / sizeof *fixed) ? fixed[i]
								     : (int64_t)(next_random(&seed) >> (i % 64));
		if (i % 3 == 0)
			v = -v;
		char buf[NUMBER_TEXT_MAX];
		sqlite3_reset(dec);
		sqlite3_bind_int64(dec, 1, v);
		size_t n = ana_int64_text(buf, v);
		CHECK_STR_EQ(buf, sqlite_text(dec));
		CHECK_INT_EQ(n, strlen(buf));
		sqlite3_reset(hex);
		sqlite3_bind_int64(hex, 1, v);
		n = ana_hex_text(buf, v);
		CHECK_STR_EQ(buf, sqlite_text(hex));
		CHECK_INT_EQ(n, strlen(buf));
		char want[NUMBER_TEXT_MAX];
		snprintf(want, sizeof want, "%llu", (unsigned long long)v);
		n = ana_uint64_text(buf, (uint64_t)v);
		CHECK_STR_EQ(buf, want);
		CHECK_INT_EQ(n, strlen(buf));
		if (check_failures)
			break;
	}
	sqlite3_finalize(dec);
	sqlite3_finalize(hex);
}

/* Check one double: a text the fast path writes is SQLite's; returns 1 if it wrote one. */
static int check_float(sqlite3_stmt *st, double v)
{
	char buf[NUMBER_TEXT_MAX];
	size_t n = ana_short_float_text(buf, v);
	if (!n)
		return 0;
	sqlite3_reset(st);
	sqlite3_bind_double(st, 1, v);
	const char *want = sqlite_text(st);
	if (strcmp(buf, want) != 0 || n != strlen(buf)) {
		CHECK_FAIL_("%.17g: \"%s\", SQLite \"%s\"", v, buf, want);
		return 0;
	}
	return 1;
}

TEST(short_floats)
{
	sqlite3_stmt *st = prepare("SELECT ?1");
	long shown = 0, tried = 0;
	/* what round(x, 1..3) gives over a dense range, both signs, and whole numbers */
	for (int k = 1; k <= 3 && !check_failures; k++)
		for (long m = 0; m < 30000 && !check_failures; m += k == 2 ? 1 : 3) {
			double v = (double)m / pow(10, k);
			shown += check_float(st, v) + check_float(st, -v);
			tried += 2;
		}
	CHECK(shown > tried * 9 / 10); /* the views' values take the fast path */
	/* anything else: a text, if any, must still be SQLite's */
	uint64_t seed = 2463534242ull;
	const double odd[] = { 1e-4, 9.99e-5, 1e15, 999999999999999.0, 0.1 + 0.2, 1.0 / 3, 2.5, 1e14 + 0.5, NAN,
			       INFINITY, -0.0, 123456.123456, 5e-324 };
	for (size_t i = 0; i < sizeof odd / sizeof *odd; i++)
		check_float(st, odd[i]);
	char buf[NUMBER_TEXT_MAX];
	CHECK_INT_EQ(ana_short_float_text(buf, NAN), 0);
	CHECK_INT_EQ(ana_short_float_text(buf, -0.0), 0);
	CHECK_INT_EQ(ana_short_float_text(buf, 1.0 / 3), 0);
	for (int i = 0; i < 20000 && !check_failures; i++) {
		uint64_t r = next_random(&seed);
		double v;
		memcpy(&v, &r, sizeof v);
		check_float(st, v);
		check_float(st, (double)(r % 100000000) / pow(10, (double)(r % 9)));
	}
	sqlite3_finalize(st);
}

/*
 * Round num/den to @p places as the text the fast path gives, stored in a
 * REAL column, against SQL's round(1.0 * num / den, places): the same
 * double.  Returns 1 when the fast path answered.
 */
static int check_ratio(sqlite3_stmt *ins, sqlite3_stmt *cmp, uint64_t num, uint64_t den, int places)
{
	char buf[NUMBER_TEXT_MAX];
	size_t n = ana_ratio_round_text(buf, num, den, places);
	if (!n)
		return 0;
	sqlite3_reset(ins);
	sqlite3_bind_text(ins, 1, buf, (int)n, SQLITE_TRANSIENT);
	sqlite3_step(ins);
	sqlite3_reset(cmp);
	sqlite3_bind_int64(cmp, 1, (int64_t)num);
	sqlite3_bind_int64(cmp, 2, (int64_t)den);
	sqlite3_bind_int(cmp, 3, places);
	if (sqlite3_step(cmp) != SQLITE_ROW || sqlite3_column_int(cmp, 0) != 1) {
		CHECK_FAIL_("round(%llu / %llu, %d): \"%s\" reads %s, round() %s", (unsigned long long)num,
			    (unsigned long long)den, places, buf, sqlite3_column_text(cmp, 1), sqlite3_column_text(cmp, 2));
		return 0;
	}
	return 1;
}

TEST(rounded_ratios)
{
	sqlite3_exec(db, "CREATE TABLE r(x REAL)", NULL, NULL, NULL);
	sqlite3_stmt *ins = prepare("INSERT OR REPLACE INTO r(rowid, x) VALUES(1, ?1)");
	sqlite3_stmt *cmp = prepare("SELECT x = round(1.0 * ?1 / ?2, ?3), x, round(1.0 * ?1 / ?2, ?3) FROM r WHERE rowid = 1");
	long fast = 0, tried = 0;
	for (uint64_t den = 1; den <= 64 && !check_failures; den++)
		for (uint64_t num = 0; num <= 1000 && !check_failures; num++, tried++)
			fast += check_ratio(ins, cmp, num, den, num % 5 == 0 ? 3 : 2);
	CHECK(fast > tried * 9 / 10);
	/* halves are SQLite's to round: 1/8 = 0.125, 5/40, 201/200 */
	char buf[NUMBER_TEXT_MAX];
	CHECK_INT_EQ(ana_ratio_round_text(buf, 1, 8, 2), 0);
	CHECK_INT_EQ(ana_ratio_round_text(buf, 5, 40, 2), 0);
	CHECK_INT_EQ(ana_ratio_round_text(buf, 201, 200, 2), 0);
	CHECK_INT_EQ(ana_ratio_round_text(buf, 1, 0, 2), 0);
	CHECK_INT_EQ(ana_ratio_round_text(buf, 1ull << 53, 3, 2), 0);
	CHECK_INT_EQ(ana_ratio_round_text(buf, 2704, 100, 2), 5);
	CHECK_STR_EQ(buf, "27.04");
	CHECK_INT_EQ(ana_ratio_round_text(buf, 5, 1, 2), 4);
	CHECK_STR_EQ(buf, "5.00");
	/* latencies of real captures: large sums over many records, and shares of a large total */
	uint64_t seed = 1181783497276652981ull;
	for (int i = 0; i < 10000 && !check_failures; i++) {
		uint64_t den = next_random(&seed) % (1ull << (1 + i % 40)) + 1;
		uint64_t num = next_random(&seed) % (den * (1 + i % 300) + 1);
		check_ratio(ins, cmp, num, den, 2);
		check_ratio(ins, cmp, 100 * (num % (1ull << 40)), den + (1ull << (i % 45)), 2);
	}
	sqlite3_finalize(ins);
	sqlite3_finalize(cmp);
}

int main(void)
{
	sqlite3_open(":memory:", &db);
	RUN(integers_and_hex);
	RUN(short_floats);
	RUN(rounded_ratios);
	sqlite3_close(db);
	return check_summary();
}
