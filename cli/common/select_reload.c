/* SPDX-License-Identifier: Apache-2.0 */
/* The chosen records loaded by themselves (select_reload.h). */
#include "select_reload.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ana/file_digest.h"
#include "ana/statement.h"
#include "cli_sql_limits.h"
#include "cli_util.h"
#include "spe/analysis.h"

/* The SQLite failure of @p what as the command's exit status (cli_sql_failure). */
static int sql_failure(const char *prog, sqlite3 *db, int rc, const char *shown, const char *what)
{
	char why[600], msg[1200];
	int code = (rc & 0xff) == SQLITE_NOMEM ? -spe_nomem
		 : (rc & 0xff) == SQLITE_IOERR || (rc & 0xff) == SQLITE_FULL ? -spe_io
		 : (rc & 0xff) == SQLITE_INTERRUPT ? -spe_cancelled : -spe_bad_file;
	snprintf(msg, sizeof msg, "%s: %s: %s", shown, what, ana_sqlite_why(db, NULL, why, sizeof why));
	return cli_sql_failure(prog, code, msg);
}

/*
 * The one source the selection chooses records of, in *@p source (-1 when
 * none does); CLI_OK, or the exit status after a message.
 */
static int chosen_source(const char *prog, const char *shown, sqlite3 *db, const char *cond,
			 const struct spe_selection *sel, int64_t *source)
{
	char *sql = sqlite3_mprintf("SELECT DISTINCT r.source_id FROM spe_record r WHERE %s LIMIT 2", cond);
	sqlite3_stmt *st = NULL;
	char err[600];
	int rc = sql ? ana_prepare(db, sql, &st, "choosing the records", err, sizeof err) : -spe_nomem;
	sqlite3_free(sql);
	if (rc < 0)
		return cli_sql_failure(prog, rc, err);
	int n = 0;
	*source = -1;
	if ((rc = spe_selection_bind(sel, st)) == SQLITE_OK)
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			*source = sqlite3_column_int64(st, 0), n++;
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sql_failure(prog, db, rc, shown, "choosing the records");
	if (n > 1) {
		fprintf(stderr, "%s: %s: the selection chooses records of several sources; the page and --annotate of a "
				"selection read one capture again: give --source=ID (spe-query \"SELECT id, file FROM source\")\n",
			prog, shown);
		return CLI_USAGE;
	}
	return CLI_OK;
}

/*
 * The bits of the records of @p source that the selection chooses, in load
 * order, in *@p bits (malloc'd) of *@p n records, *@p chosen of them set.
 */
static int chosen_bits(const char *prog, const char *shown, sqlite3 *db, const char *cond,
		       const struct spe_selection *sel, int64_t source, uint64_t **bits, uint64_t *n, uint64_t *chosen)
{
	char *sql = sqlite3_mprintf("SELECT %s FROM spe_record r WHERE r.source_id = %lld ORDER BY r.id", cond,
				    (long long)source);
	sqlite3_stmt *st = NULL;
	char err[600];
	int rc = sql ? ana_prepare(db, sql, &st, "choosing the records", err, sizeof err) : -spe_nomem;
	sqlite3_free(sql);
	if (rc < 0)
		return cli_sql_failure(prog, rc, err);
	uint64_t *b = NULL, cap = 0;
	*n = *chosen = 0;
	if ((rc = spe_selection_bind(sel, st)) == SQLITE_OK) {
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			if (*n / 64 >= cap) {
				uint64_t grown_cap = cap ? 2 * cap : 1024;
				uint64_t *grown = realloc(b, grown_cap * sizeof *b);
				if (!grown) {
					rc = SQLITE_NOMEM;
					break;
				}
				memset(grown + cap, 0, (grown_cap - cap) * sizeof *b);
				b = grown, cap = grown_cap;
			}
			if (sqlite3_column_int(st, 0)) {
				b[*n / 64] |= 1ull << (*n % 64);
				(*chosen)++;
			}
			(*n)++;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(b);
		return rc == SQLITE_NOMEM ? cli_sql_failure(prog, -spe_nomem, "out of memory")
					  : sql_failure(prog, db, rc, shown, "choosing the records");
	}
	*bits = b;
	return CLI_OK;
}

/*
 * The file of -d DB's @p source, in *@p file (malloc'd), when it can be
 * read again: there, a perf.data, and the digest the database holds.
 */
static int source_file(const char *prog, const char *shown, sqlite3 *db, int64_t source, char **file)
{
	sqlite3_stmt *st = NULL;
	char err[600], *path = NULL, *digest = NULL, *kind = NULL;
	int rc = ana_prepare(db, "SELECT file, kind, digest FROM source WHERE id = ?", &st, "reading the source", err,
			     sizeof err);
	if (rc < 0)
		return cli_sql_failure(prog, rc, err);
	sqlite3_bind_int64(st, 1, source);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *f = (const char *)sqlite3_column_text(st, 0), *k = (const char *)sqlite3_column_text(st, 1),
			   *d = (const char *)sqlite3_column_text(st, 2);
		path = f ? strdup(f) : NULL, kind = k ? strdup(k) : NULL, digest = d ? strdup(d) : NULL;
		rc = SQLITE_DONE;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(path), free(kind), free(digest);
		return sql_failure(prog, db, rc, shown, "reading the source");
	}
	const char *advice = "give the capture itself: spe-report FILE.data with the selection";
	int status = CLI_OK;
	if (!path || !kind || strcmp(kind, "perf.data")) {
		fprintf(stderr, "%s: %s: source %lld is not a perf.data file (the page and --annotate of a selection read "
				"the capture again); %s\n", prog, shown, (long long)source, advice);
		status = CLI_NOINPUT;
	} else if (access(path, R_OK) != 0) {
		fprintf(stderr, "%s: %s: source %lld's file %s: %s (the page and --annotate of a selection read the "
				"capture again); %s\n", prog, shown, (long long)source, path, strerror(errno), advice);
		status = CLI_NOINPUT;
	} else if (!digest) {
		fprintf(stderr, "%s: %s: source %lld has no digest: %s cannot be known to be the file loaded; %s\n", prog,
			shown, (long long)source, path, advice);
		status = CLI_NOINPUT;
	} else {
		char now[128];
		rc = ana_file_digest_is_first(digest) ? ana_file_digest_first(path, now, sizeof now, err, sizeof err)
						      : ana_file_digest(path, now, sizeof now, err, sizeof err);
		if (rc < 0) {
			fprintf(stderr, "%s: %s: %s\n", prog, path, err);
			status = rc == -spe_nomem ? CLI_UNAVAILABLE : CLI_NOINPUT;
		} else if (strcmp(now, digest)) {
			fprintf(stderr, "%s: %s: source %lld's file %s is not the one loaded (digest %s, the database's %s); "
					"%s\n", prog, shown, (long long)source, path, now, digest, advice);
			status = CLI_DATAERR;
		}
	}
	free(kind), free(digest);
	if (status != CLI_OK)
		free(path);
	else
		*file = path;
	return status;
}

/*
 * -d DB's @p source read again: the CPU part its records were decoded with
 * when the file names none (spe-load --midr), the one the cpu table holds.
 */
static uint32_t source_midr(sqlite3 *db, int64_t source)
{
	char sql[200];
	snprintf(sql, sizeof sql, "SELECT CASE WHEN count(DISTINCT midr) = 1 THEN max(midr) ELSE 0 END FROM cpu "
				  "WHERE source_id = %lld AND midr IS NOT NULL", (long long)source);
	int64_t midr = ana_query_int(db, sql, 0);
	return midr > 0 && midr <= UINT32_MAX ? (uint32_t)midr : 0;
}

/*
 * The chosen records without a function: as many in @p picked as in
 * -d DB's (@p whole), else a warning (spe-load's --kallsyms, --jit-maps,
 * --buildid-dir ... are not repeated here: their functions are missing).
 */
static void compare_symbols(const char *prog, const char *shown, sqlite3 *whole, const char *cond,
			    const struct spe_selection *sel, sqlite3 *picked)
{
	char *sql = sqlite3_mprintf("SELECT count(*) FROM spe_record r WHERE r.symbol_id IS NULL AND %s", cond);
	sqlite3_stmt *st = NULL;
	long long before = -1, now = ana_query_int(picked, "SELECT count(*) FROM spe_record WHERE symbol_id IS NULL", -1);
	if (sql && sqlite3_prepare_v2(whole, sql, -1, &st, NULL) == SQLITE_OK && spe_selection_bind(sel, st) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		before = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_free(sql);
	if (before < 0 || now < 0)
		fprintf(stderr, "%s: warning: %s: the chosen records' functions could not be compared with the database's\n",
			prog, shown);
	else if (before != now)
		fprintf(stderr, "%s: warning: %s: read again, %lld of the chosen records have no function, %lld in the "
				"database (its load's --kallsyms, --buildid-dir, --jit-maps or debuginfod are not repeated; "
				"--symfs is): the functions shown are this reading's\n", prog, shown, now, before);
}

int cli_select_reload(const char *prog, const char *shown, sqlite3 *whole, const struct spe_selection *sel,
		      const char *recording, struct cli_temp_load *lo, struct spe_db **out)
{
	*out = NULL;
	char *cond = spe_selection_sql(sel, "r");
	if (!cond)
		return cli_sql_failure(prog, -spe_nomem, "out of memory");
	int64_t source;
	uint64_t *bits = NULL, n = 0, chosen = 0;
	char *file = NULL;
	int rc = chosen_source(prog, shown, whole, cond, sel, &source);
	if (rc == CLI_OK && source < 0) {
		long long all = ana_query_int(whole, "SELECT count(*) FROM spe_record", -1);
		fprintf(stderr, "%s: %s: no record matches the selection (%s) among the %lld records\n", prog, shown,
			spe_selection_text(sel), all);
		rc = CLI_DATAERR;
	}
	if (rc == CLI_OK)
		rc = chosen_bits(prog, shown, whole, cond, sel, source, &bits, &n, &chosen);
	if (rc == CLI_OK && !recording)
		rc = source_file(prog, shown, whole, source, &file);
	if (rc == CLI_OK) {
		lo->keep = bits, lo->n_keep = n, lo->selection = spe_selection_text(sel);
		if (!recording)
			lo->perf_midr = source_midr(whole, source);
		rc = cli_temp_db_load(prog, recording ? recording : file, lo, out);
		lo->keep = NULL, lo->n_keep = 0;
	}
	if (rc == CLI_OK && (uint64_t)ana_query_int(spe_db_sqlite(*out), "SELECT sum(records) FROM load_stats", -1) != chosen) {
		/* the same number of records, other ones: no page of the wrong records */
		fprintf(stderr, "%s: %s: read again, %s did not give the %llu records the selection chose: not the file that "
				"was loaded\n", prog, shown, recording ? recording : file, (unsigned long long)chosen);
		spe_db_close(*out);
		*out = NULL;
		rc = CLI_DATAERR;
	}
	if (rc == CLI_OK && !recording)
		compare_symbols(prog, shown, whole, cond, sel, spe_db_sqlite(*out));
	free(cond);
	free(bits);
	free(file);
	return rc;
}
