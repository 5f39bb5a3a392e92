/* SPDX-License-Identifier: Apache-2.0 */
/* spe_result_print: aligned table, RFC 4180 CSV and JSON lines, with the awkward values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "check.h"
#include "spe/analysis.h"

static sqlite3 *db;

static char *render(const char *sql, enum spe_result_format fmt, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	char err[256] = "";
	*rc = spe_result_print(db, sql, fmt, f, err, sizeof err);
	fclose(f);
	return buf;
}

static const char awkward[] =
	"SELECT 'plain' AS a, 'x,y' AS b, 'say \"hi\"' AS c, 'two\nlines' AS d, NULL AS e, 42 AS f, 2.5 AS g,"
	" x'00ff' AS h";

TEST(csv_rfc4180)
{
	int rc;
	char *out = render(awkward, SPE_FORMAT_CSV, &rc);
	CHECK_INT_EQ(rc, 0);
	CHECK_STR_EQ(out, "a,b,c,d,e,f,g,h\r\n"
			  "plain,\"x,y\",\"say \"\"hi\"\"\",\"two\nlines\",,42,2.5,00ff\r\n");
	free(out);
}

TEST(json_lines)
{
	int rc;
	char *out = render(awkward, SPE_FORMAT_JSON, &rc);
	CHECK_INT_EQ(rc, 0);
	CHECK_STR_EQ(out, "{\"a\": \"plain\", \"b\": \"x,y\", \"c\": \"say \\\"hi\\\"\", \"d\": \"two\\nlines\", "
			  "\"e\": null, \"f\": 42, \"g\": 2.5, \"h\": \"00ff\"}\n");
	free(out);
}

TEST(table_aligned)
{
	int rc;
	char *out = render("SELECT 'chase' AS symbol, 400 AS samples UNION ALL SELECT 'bump_shared', 30;"
			   "SELECT NULL AS x",
			   SPE_FORMAT_TABLE, &rc);
	CHECK_INT_EQ(rc, 0);
	CHECK_STR_EQ(out, "symbol       samples\n"
			  "-----------  -------\n"
			  "chase            400\n"
			  "bump_shared       30\n"
			  "\n"
			  "x   \n"
			  "----\n"
			  "NULL\n");
	free(out);
}

TEST(sql_error_is_reported)
{
	char err[256] = "";
	FILE *f = fopen("/dev/null", "w");
	CHECK(spe_result_print(db, "SELECT * FROM nowhere", SPE_FORMAT_TABLE, f, err, sizeof err) < 0);
	CHECK_STR_EQ(err, "no such table: nowhere");
	/* an error in the second statement, after the first printed */
	CHECK(spe_result_print(db, "SELECT 1; SELECT nope", SPE_FORMAT_CSV, f, err, sizeof err) < 0);
	CHECK_STR_EQ(err, "no such column: nope");
	fclose(f);
}

int main(void)
{
	sqlite3_open(":memory:", &db);
	RUN(csv_rfc4180);
	RUN(json_lines);
	RUN(table_aligned);
	RUN(sql_error_is_reported);
	sqlite3_close(db);
	return check_summary();
}
