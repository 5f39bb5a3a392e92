/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every report reads one state of the database (analysis/report/query/
 * report_sqlite.h): a writer that commits while a report runs is seen
 * whole or not at all.  Deterministic, with no timing: a trace hook on the
 * report's connection runs a writer on a second connection when the
 * report's second statement starts, so the writer's commit falls between
 * two statements of one report.  Held in one read transaction, the report
 * keeps its shared lock there, and the commit is refused (SQLITE_BUSY, the
 * writer not waiting); in autocommit the commit went through and the
 * report's later sections read the new rows: its record count (before)
 * and its hot symbols' samples (after) disagreed.  The commit is retried
 * after the report, and a report then shows it: the change was real.
 * Usage: test_snapshot DB (a copy of a loaded capture, written to).
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report/diff.h"
#include "report/memory_report.h"
#include "report/report.h"
#include "report/text.h"
#include "spe/analysis.h"
#ifdef HAVE_EXPORT
#include "spe/export.h"
#endif

static const char *db_path;
static sqlite3 *writer;       /* the second connection */
static int statements;        /* of the report, since armed */
static int armed;             /* write when the report's second statement starts */
static int commit_rc = -1;    /* the writer's COMMIT */

/* Each sample of pc_histogram's untimed counts 1000 more: hot symbols' samples change, the record count not. */
static void write_now(void)
{
	CHECK(sqlite3_exec(writer, "BEGIN IMMEDIATE; UPDATE pc_histogram SET untimed = untimed + 1000", NULL, NULL,
			   NULL) == SQLITE_OK);
	commit_rc = sqlite3_exec(writer, "COMMIT", NULL, NULL, NULL);
}

/*
 * The report's statements that read its data: not its BEGIN and ROLLBACK,
 * nor --diff's ATTACH, the schema version check and DETACH (ATTACH cannot
 * be inside a transaction: the snapshot begins after it).
 */
static int on_trace(unsigned type, void *ctx, void *p, void *x)
{
	(void)type, (void)ctx, (void)x;
	static const char *const skip[] = { "BEGIN", "ROLLBACK", "ATTACH", "PRAGMA", "DETACH", "SELECT count(*) FROM main.sqlite_schema" };
	const char *sql = sqlite3_sql(p);
	for (size_t i = 0; sql && i < sizeof skip / sizeof skip[0]; i++)
		if (!strncmp(sql, skip[i], strlen(skip[i])))
			return 0;
	if (armed && ++statements == 2) {
		armed = 0;
		write_now();
	}
	return 0;
}

/* The writer's change undone (committed), for the next case. */
static void settle(void)
{
	if (commit_rc == SQLITE_BUSY)
		CHECK(sqlite3_exec(writer, "COMMIT", NULL, NULL, NULL) == SQLITE_OK); /* the report is done */
	CHECK(sqlite3_exec(writer, "UPDATE pc_histogram SET untimed = untimed - 1000", NULL, NULL, NULL) == SQLITE_OK);
}

static sqlite3 *reader(struct spe_db **sdb)
{
	char err[512];
	CHECK(spe_db_open(db_path, SPE_DB_READONLY, sdb, err, sizeof err) == 0);
	sqlite3 *db = spe_db_sqlite(*sdb);
	sqlite3_trace_v2(db, SQLITE_TRACE_STMT, on_trace, NULL);
	sqlite3_busy_timeout(writer, 0); /* the writer does not wait: a refused commit shows at once */
	return db;
}

static void arm(void)
{
	statements = 0;
	armed = 1;
	commit_rc = -1;
}

/* "SPE records: N" and the sum of the hot symbols' samples column. */
static void numbers(const char *text, long long *records, long long *samples)
{
	*records = -1;
	*samples = 0;
	sscanf(strstr(text, "SPE records: "), "SPE records: %lld", records);
	const char *p = strstr(text, "Hot symbols");
	p = p ? strchr(strchr(p, '\n') + 1, '\n') + 1 : NULL; /* past the heading and the column names */
	while (p && *p == ' ' && p[1] == ' ') {
		char name[4096];
		long long n;
		if (sscanf(p, "%4095s %lld", name, &n) == 2)
			*samples += n;
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
}

static char *text_report(sqlite3 *db)
{
	char *buf = NULL, err[512];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct report_text_opts o = { .format = REPORT_TEXT_TABLE, .top = 1000 };
	int rc = report_spe_text(db, f, &o, err, sizeof err);
	fclose(f);
	if (rc != 0)
		printf("  report: %s\n", err);
	CHECK_INT_EQ(rc, 0);
	return buf;
}

TEST(text_report_one_state)
{
	struct spe_db *sdb;
	sqlite3 *db = reader(&sdb);
	long long records, samples;
	char *before = text_report(db);
	numbers(before, &records, &samples);
	CHECK(records > 0);
	CHECK_INT_EQ(samples, records); /* every record is in one symbol's samples */
	arm();
	char *during = text_report(db);
	CHECK_INT_EQ(commit_rc, SQLITE_BUSY); /* the report held its snapshot across statements */
	CHECK_STR_EQ(during, before);
	numbers(during, &records, &samples);
	CHECK_INT_EQ(samples, records);
	settle();
	/* the change was real: committed now, the next report shows it */
	CHECK(sqlite3_exec(writer, "UPDATE pc_histogram SET untimed = untimed + 1000", NULL, NULL, NULL) == SQLITE_OK);
	char *after = text_report(db);
	numbers(after, &records, &samples);
	CHECK(samples > records);
	CHECK(sqlite3_exec(writer, "UPDATE pc_histogram SET untimed = untimed - 1000", NULL, NULL, NULL) == SQLITE_OK);
	free(before);
	free(during);
	free(after);
	spe_db_close(sdb);
}

/* The other reports: the writer's commit between two of their statements is refused. */
static int run_html(sqlite3 *db, FILE *f, char *err, size_t n)
{
	struct spe_report_opts o = { .size = sizeof o, .annotations = -1 };
	return spe_report_html(db, f, &o, err, n);
}

static int run_annotate(sqlite3 *db, FILE *f, char *err, size_t n)
{
	struct spe_report_opts o = { .size = sizeof o };
	return spe_report_annotate(db, "scatter", SPE_REPORT_TEXT, f, &o, err, n);
}

static int run_memory(sqlite3 *db, FILE *f, char *err, size_t n)
{
	return spe_memory_report(db, SPE_FORMAT_TABLE, 10, f, err, n);
}

static int run_diff(sqlite3 *db, FILE *f, char *err, size_t n)
{
	(void)f;
	struct spe_diff_opts o = SPE_OPTS(spe_diff_opts, .db_b = db_path);
	struct spe_diff *d = NULL;
	int rc = spe_diff_compute(db, &o, &d, err, n);
	spe_diff_free(d);
	return rc;
}

#ifdef HAVE_EXPORT
static int run_export(sqlite3 *db, FILE *f, char *err, size_t n)
{
	struct spe_export_opts o = { .size = sizeof o, .source_id = SPE_EXPORT_ANY, .pid = SPE_EXPORT_ANY,
				     .cpu = SPE_EXPORT_ANY };
	return spe_export(db, SPE_EXPORT_FOLDED, &o, f, NULL, err, n);
}
#endif

static void one_state(const char *name, int (*fn)(sqlite3 *, FILE *, char *, size_t))
{
	struct spe_db *sdb;
	sqlite3 *db = reader(&sdb);
	char *buf = NULL, err[512] = "";
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	arm();
	int rc = fn(db, f, err, sizeof err);
	fclose(f);
	if (rc != 0 || commit_rc != SQLITE_BUSY)
		printf("  %s: rc %d (%s), the writer's commit %d\n", name, rc, err, commit_rc);
	CHECK_INT_EQ(rc, 0);
	CHECK(statements >= 2);
	CHECK_INT_EQ(commit_rc, SQLITE_BUSY);
	settle();
	free(buf);
	spe_db_close(sdb);
}

TEST(every_report_one_state)
{
	one_state("html", run_html);
	one_state("annotate", run_annotate);
	one_state("memory", run_memory);
	one_state("diff", run_diff);
#ifdef HAVE_EXPORT
	one_state("export", run_export);
#endif
}

/*
 * A writer holding the database (an exclusive lock taken as the report
 * begins): the report fails after SQLite's busy wait, with an I/O code and
 * a message naming the file and what was read, not a bare "database is locked".
 */
static int lock_at_begin;

static int on_trace_lock(unsigned type, void *ctx, void *p, void *x)
{
	(void)type, (void)ctx, (void)x;
	const char *sql = sqlite3_sql(p);
	if (lock_at_begin && sql && !strncmp(sql, "BEGIN", 5)) {
		lock_at_begin = 0;
		CHECK(sqlite3_exec(writer, "BEGIN EXCLUSIVE", NULL, NULL, NULL) == SQLITE_OK);
	}
	return 0;
}

TEST(locked_names_the_file)
{
	char err[512];
	struct spe_db *sdb;
	CHECK(spe_db_open(db_path, SPE_DB_READONLY, &sdb, err, sizeof err) == 0);
	sqlite3 *db = spe_db_sqlite(sdb);
	sqlite3_trace_v2(db, SQLITE_TRACE_STMT, on_trace_lock, NULL);
	sqlite3_busy_timeout(db, 200); /* SQLite's wait, shortened for the test */
	lock_at_begin = 1;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct report_text_opts o = { .format = REPORT_TEXT_TABLE };
	int rc = report_spe_text(db, f, &o, err, sizeof err);
	fclose(f);
	CHECK_INT_EQ(rc, -spe_io);
	CHECK(strstr(err, "counting the SPE records: ") != NULL);
	CHECK(strstr(err, "database is locked") != NULL);
	const char *base = strrchr(db_path, '/');
	CHECK(strstr(err, base ? base + 1 : db_path) != NULL);
	if (!strstr(err, "database is locked"))
		printf("  %s\n", err);
	CHECK(sqlite3_exec(writer, "ROLLBACK", NULL, NULL, NULL) == SQLITE_OK);
	free(buf);
	spe_db_close(sdb);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_snapshot DB\n");
		return 2;
	}
	db_path = argv[1];
	if (sqlite3_open_v2(db_path, &writer, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		fprintf(stderr, "%s: cannot open\n", db_path);
		return 1;
	}
	RUN(text_report_one_state);
	RUN(every_report_one_state);
	RUN(locked_names_the_file);
	sqlite3_close(writer);
	return check_summary();
}
