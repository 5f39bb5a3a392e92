/* SPDX-License-Identifier: Apache-2.0 */
/* spe-report --diff (docs/spe-report.1.md, "BEFORE AND AFTER"). */
#include <stdio.h>
#include <unistd.h>

#include "common/cli_util.h"
#include "common/report_diff.h"
#include "spe/diff.h"

static int open_db(const char *prog, const char *path, struct spe_db **out)
{
	char err[1024];
	if (access(path, R_OK) != 0) {
		fprintf(stderr, "%s: %s: cannot read the database\n", prog, path);
		return CLI_NOINPUT;
	}
	int rc = spe_db_open(path, SPE_DB_READONLY, out, err, sizeof err);
	if (rc < 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return rc == -spe_io || rc == -spe_nomem ? CLI_IOERR : CLI_DATAERR;
	}
	return CLI_OK;
}

int cli_report_diff_run(const char *prog, const char *db, const char *a, const char *b, enum spe_result_format fmt,
			int top, double confidence)
{
	struct spe_db *sdb;
	int st = open_db(prog, db ? db : a, &sdb);
	if (st != CLI_OK)
		return st;
	if (!db) { /* the second database is attached read-only by spe_diff_compute, after the same checks */
		struct spe_db *second;
		if ((st = open_db(prog, b, &second)) != CLI_OK) {
			spe_db_close(sdb);
			return st;
		}
		spe_db_close(second);
	}
	struct spe_diff_opts o = SPE_OPTS(spe_diff_opts, .sources_a = db ? a : NULL, .sources_b = db ? b : NULL,
					  .db_b = db ? NULL : b, .confidence = confidence);
	struct spe_diff *d;
	char err[1024];
	int rc = spe_diff_compute(spe_db_sqlite(sdb), &o, &d, err, sizeof err);
	if (rc < 0) {
		spe_db_close(sdb);
		fprintf(stderr, "%s: --diff: %s\n", prog, err);
		return rc == -spe_invalid ? CLI_USAGE : rc == -spe_bad_file ? CLI_DATAERR : CLI_IOERR;
	}
	rc = spe_diff_print(d, fmt, top, stdout);
	spe_diff_free(d);
	spe_db_close(sdb);
	return cli_finish_stdout(prog, rc < 0 ? CLI_IOERR : CLI_OK);
}
