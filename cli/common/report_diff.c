/* SPDX-License-Identifier: Apache-2.0 */
/* spe-report --diff (docs/reports.md, "Before and after"). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/cli_util.h"
#include "common/cli_sql_limits.h"
#include "common/report_diff.h"
#include "common/report_output.h"
#include "report/diff.h"

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
		return rc == -spe_io ? CLI_IOERR : rc == -spe_nomem ? CLI_UNAVAILABLE : CLI_DATAERR;
	}
	return CLI_OK;
}

struct diff_out {
	const char *prog;
	const struct report_diff_args *args;
	const struct spe_diff *d;
};

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

static int write_diff(FILE *out, void *arg)
{
	const struct diff_out *w = arg;
	const struct report_diff_args *a = w->args;
	if (!a->html)
		return spe_diff_print(w->d, a->fmt, a->top, out) < 0 ? CLI_IOERR : CLI_OK;
	/* the heading names the two sides as they were given */
	char title[1024], err[1024] = "";
	if (a->db)
		snprintf(title, sizeof title, "%s, sources %s and %s", base_name(a->db), a->a, a->b);
	else
		snprintf(title, sizeof title, "%s and %s", base_name(a->a), base_name(a->b));
	struct spe_report_opts so = { .top = a->top, .title = title };
	int rc = spe_report_diff_html(w->d, out, &so, err, sizeof err);
	if (rc < 0) {
		fprintf(stderr, "%s: --diff --html: %s\n", w->prog, err[0] ? err : spe_errstr(rc));
		return CLI_IOERR;
	}
	return CLI_OK;
}

int cli_report_diff_run(const char *prog, const struct report_diff_args *args)
{
	const char *output = args->output ? args->output : "-";
	int st = cli_report_output_check(prog, output);
	if (st != CLI_OK)
		return st;
	struct spe_db *sdb;
	if ((st = open_db(prog, args->db ? args->db : args->a, &sdb)) != CLI_OK)
		return st;
	if (!args->db) { /* the second database is attached read-only by spe_diff_compute, after the same checks */
		struct spe_db *second;
		if ((st = open_db(prog, args->b, &second)) != CLI_OK) {
			spe_db_close(sdb);
			return st;
		}
		spe_db_close(second);
	}
	struct spe_diff_opts o = { .sources_a = args->db ? args->a : NULL,
					  .sources_b = args->db ? args->b : NULL, .db_b = args->db ? NULL : args->b,
					  .confidence = args->confidence };
	struct spe_diff *d;
	char err[1024];
	cli_sql_limits_watch(spe_db_sqlite(sdb));
	int rc = spe_diff_compute(spe_db_sqlite(sdb), &o, &d, err, sizeof err);
	cli_sql_limits_watch(NULL);
	if (rc < 0) {
		spe_db_close(sdb);
		if (rc == -spe_invalid) {
			fprintf(stderr, "%s: --diff: %s\n", prog, err);
			return CLI_USAGE;
		}
		char msg[1200];
		snprintf(msg, sizeof msg, "--diff: %s", err);
		return cli_sql_failure(prog, rc, msg);
	}
	struct diff_out w = { prog, args, d };
	st = cli_report_output_write(prog, output, write_diff, &w);
	spe_diff_free(d);
	spe_db_close(sdb);
	cli_report_cuts(prog);
	if (st == CLI_OK && args->html && strcmp(output, "-"))
		fprintf(stderr, "%s: wrote %s\n", prog, output);
	return st;
}
