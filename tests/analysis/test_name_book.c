/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The book of names by row id (analysis/src/name_book.c): each name stored
 * once, and a list of ids turned into the text schema 7's cacheline_sharing
 * view joined for them, checked against SQLite itself: group_concat(DISTINCT
 * name) over json_each of the ids joined to a table of the names, on random
 * lists over ids with shared, empty and unknown names, and past the growth
 * of every array and the wrap of the list marks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "check.h"
#include "name_book.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint32_t rnd(uint32_t n)
{
	return (uint32_t)(check_xorshift(&rng) % n);
}

TEST(names_by_id)
{
	struct name_book b = { 0 };
	CHECK(ana_name_book_name(&b, 1) == NULL);
	const char *out = "x";
	CHECK_INT_EQ(ana_name_book_list(&b, (const int64_t[]){ 1, 2 }, 2, &out), 0);
	CHECK(out == NULL); /* no row: SQL's NULL */
	CHECK_INT_EQ(ana_name_book_add(&b, 10, "main"), 0);
	CHECK_INT_EQ(ana_name_book_add(&b, 11, "worker"), 0);
	CHECK_INT_EQ(ana_name_book_add(&b, 12, "main"), 0); /* another mapping of the same binary */
	CHECK_INT_EQ(ana_name_book_add(&b, INT64_MAX - 3, "far"), 0); /* ClickHouse's ids are anywhere */
	CHECK_INT_EQ(ana_name_book_add(&b, 13, ""), 0);
	CHECK_STR_EQ(ana_name_book_name(&b, 12), "main");
	CHECK_STR_EQ(ana_name_book_name(&b, INT64_MAX - 3), "far");
	CHECK(ana_name_book_name(&b, 14) == NULL);
	CHECK_INT_EQ(b.n_names, 4); /* "main" once */
	CHECK(ana_name_book_name(&b, 10) == ana_name_book_name(&b, 12));

	CHECK_INT_EQ(ana_name_book_list(&b, (const int64_t[]){ 12, 11, 10, INT64_MAX - 3 }, 4, &out), 0);
	CHECK_STR_EQ(out, "main,worker,far"); /* 10's name came with 12 */
	CHECK_INT_EQ(ana_name_book_list(&b, (const int64_t[]){ 99, 11, 98 }, 3, &out), 0);
	CHECK_STR_EQ(out, "worker"); /* unknown ids skipped */
	CHECK_INT_EQ(ana_name_book_list(&b, (const int64_t[]){ 13 }, 1, &out), 0);
	CHECK_STR_EQ(out, ""); /* an empty name is not NULL */
	CHECK_INT_EQ(ana_name_book_list(&b, (const int64_t[]){ 13, 10, 13 }, 3, &out), 0);
	CHECK_STR_EQ(out, ",main");
	CHECK_INT_EQ(ana_name_book_list(&b, (const int64_t[]){ 10, 13 }, 2, &out), 0);
	CHECK_STR_EQ(out, "main,");
	CHECK_INT_EQ(ana_name_book_list(&b, NULL, 0, &out), 0);
	CHECK(out == NULL);
	/* a row named again takes the new name */
	CHECK_INT_EQ(ana_name_book_add(&b, 11, "renamed"), 0);
	CHECK_STR_EQ(ana_name_book_name(&b, 11), "renamed");
	/* the marks' count wraps: every name is new to the next list again */
	b.call = UINT32_MAX;
	CHECK_INT_EQ(ana_name_book_list(&b, (const int64_t[]){ 10, 11 }, 2, &out), 0);
	CHECK_STR_EQ(out, "main,renamed");
	CHECK_INT_EQ(ana_name_book_list(&b, (const int64_t[]){ 11, 10 }, 2, &out), 0);
	CHECK_STR_EQ(out, "renamed,main");
	ana_name_book_free(&b);
	CHECK(b.text == NULL && b.n_names == 0);
}

#define N_IDS 3000
#define N_NAMES 700

/* Random lists against SQLite's group_concat(DISTINCT) over the same rows, joined as schema 7's view did. */
TEST(lists_as_sqlite_gives_them)
{
	sqlite3 *db;
	CHECK_INT_EQ(sqlite3_open(":memory:", &db), SQLITE_OK);
	CHECK_INT_EQ(sqlite3_exec(db, "CREATE TABLE symbol(id INTEGER PRIMARY KEY, name TEXT NOT NULL)", NULL, NULL, NULL),
		     SQLITE_OK);
	sqlite3_stmt *ins, *sel;
	CHECK_INT_EQ(sqlite3_prepare_v2(db, "INSERT INTO symbol VALUES(?, ?)", -1, &ins, NULL), SQLITE_OK);
	CHECK_INT_EQ(sqlite3_prepare_v2(db,
					"SELECT group_concat(DISTINCT s.name) FROM json_each(?) j"
					" CROSS JOIN symbol s ON s.id = j.value",
					-1, &sel, NULL),
		     SQLITE_OK);
	struct name_book b = { 0 };
	/* ids 1000..: every tenth without a row; N_NAMES names, some empty, some prefixes of others */
	for (int64_t id = 1000; id < 1000 + N_IDS; id++) {
		if (id % 10 == 3)
			continue;
		char name[64];
		unsigned k = rnd(N_NAMES);
		snprintf(name, sizeof name, k % 50 == 0 ? "" : k % 7 ? "fn_%u" : "fn_%u_tail", k / 2);
		CHECK_INT_EQ(ana_name_book_add(&b, id, name), 0);
		sqlite3_bind_int64(ins, 1, id);
		sqlite3_bind_text(ins, 2, name, -1, SQLITE_TRANSIENT);
		CHECK_INT_EQ(sqlite3_step(ins), SQLITE_DONE);
		sqlite3_reset(ins);
	}
	CHECK(b.n_names < N_NAMES && b.n_names > N_NAMES / 4);
	int64_t ids[200];
	char json[200 * 24];
	int shared = 0, empty = 0;
	for (int round = 0; round < 2000; round++) {
		size_t n = rnd(round % 10 ? 12 : 200) + 1, len = 0;
		uint32_t range = round % 3 && n < 30 ? 60 : N_IDS + 20; /* few ids: names repeat */
		for (size_t i = 0; i < n; i++) { /* distinct ids, as a line's are */
			int64_t id;
			size_t j;
			do {
				id = 1000 + (int64_t)rnd(range);
				for (j = 0; j < i && ids[j] != id; j++)
					;
			} while (j < i);
			ids[i] = id;
			len += (size_t)snprintf(json + len, sizeof json - len, "%c%lld", i ? ',' : '[', (long long)id);
		}
		snprintf(json + len, sizeof json - len, "]");
		const char *out;
		CHECK_INT_EQ(ana_name_book_list(&b, ids, n, &out), 0);
		sqlite3_bind_text(sel, 1, json, -1, SQLITE_TRANSIENT);
		CHECK_INT_EQ(sqlite3_step(sel), SQLITE_ROW);
		const char *want = (const char *)sqlite3_column_text(sel, 0);
		if (!want || !out)
			CHECK(want == out);
		else
			CHECK_STR_EQ(out, want);
		/* not vacuous: lists where a name comes twice, and empty names */
		for (size_t i = 0; i < n && out; i++)
			for (size_t j = i + 1; j < n; j++) {
				const char *x = ana_name_book_name(&b, ids[i]), *y = ana_name_book_name(&b, ids[j]);
				shared += x && y && !strcmp(x, y);
				empty += x && !*x && j == i + 1;
			}
		sqlite3_reset(sel);
	}
	CHECK(shared > 100 && empty > 100);
	sqlite3_finalize(ins);
	sqlite3_finalize(sel);
	sqlite3_close(db);
	ana_name_book_free(&b);
}

int main(void)
{
	RUN(names_by_id);
	RUN(lists_as_sqlite_gives_them);
	return check_summary();
}
