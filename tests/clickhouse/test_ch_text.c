/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe_clickhouse's text handling, without a server: ClickHouse's tokens,
 * statements split at ';' tokens, the --host/--source scoping (every
 * spelling of a per-capture relation in every place a table is read
 * replaced, aliases kept; what cannot be scoped refused), and a server
 * answer printed as SQLite prints the same values (floats with a ".0", \N as
 * NULL, TSV escapes).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch_internal.h"
#include "check.h"

#define SET "(SELECT id FROM source WHERE host = 'h')"

TEST(split)
{
	char **l = ch_split_statements("SELECT ';' AS a; -- x; y\n SELECT \"b;c\" ;; SELECT 3 /* ; */; SELECT $$;$$");
	CHECK(l != NULL);
	CHECK_STR_EQ(l[0], "SELECT ';' AS a");
	CHECK_STR_EQ(l[1], "-- x; y\n SELECT \"b;c\" ");
	CHECK_STR_EQ(l[2], "SELECT 3 /* ; */");
	CHECK_STR_EQ(l[3], "SELECT $$;$$");
	CHECK(l[4] == NULL);
	ch_free_list(l);
}

TEST(tokens)
{
	const char *sql = "SELECT `a``b`, \"c\\\"d\", 'e''f' /* g */ -- h\n # i\n 1.5e-3 x.y $t$ '$t$", *p = sql, *next;
	static const enum ch_token_kind kinds[] = { CHK_WORD,	CHK_QUOTED, CHK_PUNCT, CHK_QUOTED, CHK_PUNCT, CHK_STRING,
						    CHK_NUMBER, CHK_WORD,   CHK_PUNCT, CHK_WORD,   CHK_STRING, CHK_END };
	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++, p = next) {
		struct ch_token t = ch_token_next(p, &next);
		CHECK_INT_EQ(t.kind, kinds[i]);
		if (i == 1 || i == 3) {
			char *name = ch_token_name(&t);
			CHECK_STR_EQ(name, i == 1 ? "a`b" : "c\"d");
			free(name);
		}
	}
	/* what releases read differently, and what never ends */
	const char *bad[] = { "SELECT 1 /* /* */ FROM x --*/", "SELECT 'x", "SELECT `x", "SELECT $$x", "SELECT /* x" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		struct ch_token t;
		for (p = bad[i]; (t = ch_token_next(p, &next)).kind != CHK_END && t.kind != CHK_BAD; p = next)
			;
		CHECK_INT_EQ(t.kind, CHK_BAD);
	}
}

/* @p sql scoped to SET in database spe: the text, or "refused: why". */
static char *scoped(const char *sql)
{
	char *out = NULL, why[512], *r;
	int rc = ch_scoped_sql(sql, SET, "spe", &out, why, sizeof why);
	if (rc == 0)
		return out;
	CHECK_INT_EQ(rc, -spe_bad_input);
	if (asprintf(&r, "refused: %s", why) < 0)
		r = NULL;
	return r;
}

/* @p sql scoped must be @p want with each %s the SELECT of view @p name over SET. */
static void check_scoped(const char *sql, const char *want, const char *name)
{
	char *v = spe_ch_view_sql(name, SET), expect[1 << 17];
	CHECK(v != NULL);
	snprintf(expect, sizeof expect, want, v, v, v);
	char *got = scoped(sql);
	CHECK_STR_EQ(got, expect);
	free(got);
	free(v);
}

TEST(scope)
{
	check_scoped("SELECT symbol, samples FROM hot_symbol LIMIT 3", "SELECT symbol, samples FROM (%s) AS hot_symbol LIMIT 3",
		     "hot_symbol");
	/* an alias is kept; a column named like a view, a string and a comment are not touched */
	check_scoped("SELECT symbol, 'FROM hot_symbol' FROM spe_record r -- FROM hot_symbol\nWHERE symbol > 0",
		     "SELECT symbol, 'FROM hot_symbol' FROM (%s) r -- FROM hot_symbol\nWHERE symbol > 0", "spe_record");
	/* the bypasses of the text rewrite this replaced: qualified, quoted, behind a comment */
	check_scoped("SELECT sum(samples) FROM spe.hot_symbol", "SELECT sum(samples) FROM (%s) AS hot_symbol", "hot_symbol");
	check_scoped("SELECT sum(samples) FROM `hot_symbol`", "SELECT sum(samples) FROM (%s) AS hot_symbol", "hot_symbol");
	check_scoped("SELECT sum(samples) FROM \"spe\" . `hot_symbol` h", "SELECT sum(samples) FROM (%s) h", "hot_symbol");
	check_scoped("SELECT sum(samples) FROM /* c */ hot_symbol", "SELECT sum(samples) FROM /* c */ (%s) AS hot_symbol",
		     "hot_symbol");
	check_scoped("SELECT count() FROM -- c\n#d\nspe_record", "SELECT count() FROM -- c\n#d\n(%s) AS spe_record", "spe_record");
	/* every place a table is read: a FROM list's ',', JOIN, IN, subqueries, after ON (not after a USING list) */
	check_scoped("SELECT 1 FROM numbers(1) AS n, spe_record", "SELECT 1 FROM numbers(1) AS n, (%s) AS spe_record", "spe_record");
	check_scoped("SELECT 1 FROM numbers(1) AS n JOIN spe_record AS r ON 1 = 1, spe_record",
		     "SELECT 1 FROM numbers(1) AS n JOIN (%s) AS r ON 1 = 1, (%s) AS spe_record", "spe_record");
	check_scoped("SELECT 1 FROM numbers(1) AS n JOIN spe_record USING (id), spe_record",
		     "SELECT 1 FROM numbers(1) AS n JOIN (%s) AS spe_record USING (id), (%s) AS spe_record", "spe_record");
	check_scoped("SELECT 1 FROM spe_record ARRAY JOIN [1] AS a WHERE id GLOBAL NOT IN spe_record",
		     "SELECT 1 FROM (%s) AS spe_record ARRAY JOIN [1] AS a WHERE id GLOBAL NOT IN (%s)", "spe_record");
	check_scoped("SELECT (SELECT count() FROM spe_record) WHERE 1 IN (SELECT 1 FROM `spe_record`)",
		     "SELECT (SELECT count() FROM (%s) AS spe_record) WHERE 1 IN (SELECT 1 FROM (%s) AS spe_record)", "spe_record");
	/* the FROM of SUBSTRING, TRIM and EXTRACT reads no table */
	check_scoped("SELECT substring(symbol FROM 2), trim(BOTH ' ' FROM mapping), EXTRACT(DAY FROM now()) FROM hot_symbol",
		     "SELECT substring(symbol FROM 2), trim(BOTH ' ' FROM mapping), EXTRACT(DAY FROM now()) FROM (%s) AS hot_symbol",
		     "hot_symbol");
	/* a table's view, after JOIN, with AS */
	char *got = scoped("SELECT 1 FROM numbers(1) ANY LEFT JOIN symbol AS s USING id");
	CHECK(strstr(got, "JOIN (SELECT id, mapping_id, name, start, size, file, line FROM _symbol WHERE source_id GLOBAL IN " SET
			  ") AS s USING id") != NULL);
	free(got);
	/* the source view: committed captures of the set */
	got = scoped("SELECT count() FROM source");
	CHECK(strstr(got, "GROUP BY digest) AND id GLOBAL IN " SET ") AS source") != NULL);
	free(got);
	/* names that are no per-capture relation stay: system tables, the facts, generators, a function after IN */
	static const char *const kept[] = { "SELECT * FROM system.tables", "SELECT * FROM spe_part_fact",
					    "SELECT * FROM numbers(3)", "SELECT 1 IN tuple(1, 2), EXTRACT(DAY FROM now())",
					    "SELECT * FROM meta ARRAY JOIN [1, 2] AS cpu" };
	for (size_t i = 0; i < sizeof kept / sizeof *kept; i++) {
		got = scoped(kept[i]);
		CHECK_STR_EQ(got, kept[i]);
		free(got);
	}
	/* what could read other captures and cannot be scoped is refused */
	static const char *const refused[][2] = {
		{ "SELECT count() FROM _spe_record", "the storage table _spe_record holds every capture" },
		{ "SELECT count() FROM spe._source_shard", "the storage table _source_shard" },
		{ "SELECT count() FROM other.hot_symbol", "a table of another database (other)" },
		{ "SELECT count() FROM merge(currentDatabase(), '^_spe')", "the table function merge()" },
		{ "SELECT count() FROM numbers(1) AS n, remote('h', spe, x)", "the table function remote()" },
		{ "SELECT 1 /* /* */ FROM spe_record --*/", "a comment inside a comment" },
		{ "SELECT count() FROM 'spe_record'", "FROM or JOIN is not followed by a name or a subquery" },
		{ "SELECT 'x", "unterminated" },
	};
	for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
		got = scoped(refused[i][0]);
		CHECK(!strncmp(got, "refused: with --host/--source, ", 31));
		CHECK(strstr(got, refused[i][1]) != NULL);
		free(got);
	}
}

/* The URL's parameters by their decoded names: refused, or passed on encoded from what was checked. */
TEST(url)
{
	struct {
		const char *url, *settings, *error;
	} cases[] = {
		{ "http://h/?database=d&max%5Fthreads=2&log_queries=1", "max_threads=2&log_queries=1", NULL },
		{ "http://h/?x=a%20b%26c", "x=a%20b%26c", NULL },
		{ "http://h/?qu%65ry=SELECT%201", NULL, "the ClickHouse URL's parameter 'query' is not passed to the server" },
		{ "http://h/?read%6Fnly=0", NULL, "parameter 'readonly' is not passed" },
		{ "http://h/?timeout_overflow_mode=break", NULL, "parameter 'timeout_overflow_mode' is not passed" },
		{ "http://h/?skip_unavailable_shards=1", NULL, "without the shards that are down" },
		{ "http://h/?output_format_tsv_crlf_end_of_line=1", NULL, "parameter 'output_format_tsv_crlf_end_of_line'" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct spe_ch_opts o = { .url = cases[i].url };
		struct spe_ch *ch = NULL;
		char err[512] = "";
		int rc = spe_ch_open(&o, &ch, err, sizeof err);
		if (cases[i].error) {
			CHECK_INT_EQ(rc, -spe_invalid);
			CHECK(strstr(err, cases[i].error) != NULL);
			CHECK(ch == NULL);
		} else {
			CHECK_INT_EQ(rc, 0);
			CHECK_STR_EQ(ch ? ch->settings : "", cases[i].settings);
			CHECK(i || !strcmp(ch->database, "d"));
			CHECK(ch->max_answer == SPE_CH_DEFAULT_MAX_RESULT);
		}
		spe_ch_close(ch);
	}
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
	RUN(tokens);
	RUN(scope);
	RUN(url);
	RUN(answer);
	return check_summary();
}
