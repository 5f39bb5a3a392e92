/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe_clickhouse's text handling, without a server: statements split at ';'
 * outside quotes and comments, the --host/--source rewriting (only names
 * after FROM / JOIN, aliases kept), and a server answer printed as SQLite
 * prints the same values (floats with a ".0", \N as NULL, TSV escapes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch_internal.h"
#include "check.h"

#define SET "(SELECT id FROM source WHERE host = 'h')"

TEST(split)
{
	char **l = ch_split_statements("SELECT ';' AS a; -- x; y\n SELECT \"b;c\" ;; SELECT 3");
	CHECK(l != NULL);
	CHECK_STR_EQ(l[0], "SELECT ';' AS a");
	CHECK_STR_EQ(l[1], "-- x; y\n SELECT \"b;c\" ");
	CHECK_STR_EQ(l[2], "SELECT 3");
	CHECK(l[3] == NULL);
	ch_free_list(l);
}

/* The view of @p name over SET, as the rewriting splices it. */
static char *view(const char *name)
{
	return spe_ch_view_sql(name, SET);
}

TEST(scope)
{
	char *hs = view("hot_symbol"), *rec = view("spe_record");
	char want[1 << 16];
	char *got = ch_scoped_sql("SELECT symbol, samples FROM hot_symbol LIMIT 3", SET);
	snprintf(want, sizeof want, "SELECT symbol, samples FROM (%s) AS hot_symbol LIMIT 3", hs);
	CHECK_STR_EQ(got, want);
	free(got);
	/* an alias is kept; a column named like a view, a string and a comment are not touched */
	got = ch_scoped_sql("SELECT symbol, 'FROM hot_symbol' FROM spe_record r -- FROM hot_symbol\nWHERE symbol > 0", SET);
	snprintf(want, sizeof want, "SELECT symbol, 'FROM hot_symbol' FROM (%s) r -- FROM hot_symbol\nWHERE symbol > 0", rec);
	CHECK_STR_EQ(got, want);
	free(got);
	/* a table's view, after JOIN, with AS */
	got = ch_scoped_sql("SELECT 1 FROM numbers(1) ANY LEFT JOIN symbol AS s USING id", SET);
	CHECK(strstr(got, "JOIN (SELECT id, mapping_id, name, start, size, file, line FROM _symbol WHERE source_id GLOBAL IN " SET
			  ") AS s USING id") != NULL);
	free(got);
	/* the source view: committed captures of the set */
	got = ch_scoped_sql("SELECT count() FROM source", SET);
	CHECK(strstr(got, "GROUP BY digest) AND id GLOBAL IN " SET ") AS source") != NULL);
	free(got);
	/* names that are no view of ours stay */
	got = ch_scoped_sql("SELECT * FROM system.tables", SET);
	CHECK_STR_EQ(got, "SELECT * FROM system.tables");
	free(got);
	free(hs);
	free(rec);
}

static char *printed(const char *answer, enum spe_result_format fmt)
{
	char *body = strdup(answer), *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	int rc = ch_answer_print(body, strlen(body), fmt, out);
	fclose(out);
	free(body);
	if (rc < 0) {
		free(text);
		return strdup("(error)");
	}
	return text;
}

TEST(answer)
{
	const char *a = "n\ts\tf\tg\ti\tbig\n"
			"Nullable(Int64)\tString\tFloat64\tFloat64\tInt64\tNullable(Float64)\n"
			"\\N\ta\\tb\\\\c\\nd\t2.5\t3\t-7\t100000000000000000000\n";
	char *t = printed(a, SPE_FORMAT_CSV);
	CHECK_STR_EQ(t, "n,s,f,g,i,big\r\n,\"a\tb\\c\nd\",2.5,3.0,-7,1.0e+20\r\n");
	free(t);
	t = printed(a, SPE_FORMAT_JSON);
	CHECK_STR_EQ(t, "{\"n\": null, \"s\": \"a\\tb\\\\c\\nd\", \"f\": 2.5, \"g\": 3.0, \"i\": -7, \"big\": 1.0e+20}\n");
	free(t);
	/* a row with fewer cells than the header announced */
	t = printed("a\tb\nInt64\tInt64\n1\n", SPE_FORMAT_CSV);
	CHECK_STR_EQ(t, "(error)");
	free(t);
	/* no columns: nothing */
	t = printed("", SPE_FORMAT_TABLE);
	CHECK_STR_EQ(t, "");
	free(t);
}

int main(void)
{
	RUN(split);
	RUN(scope);
	RUN(answer);
	return check_summary();
}
