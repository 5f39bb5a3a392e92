/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe-report: the SPE report over the analysis database, or with
 * --cross-isa the topdown runs of a workload side by side with the SPE
 * evidence.  See docs/spe-report.1.md.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cli_util.h"
#include "common/report_diff.h"
#include "spe/analysis.h"
#include "topdown/store.h"
#include "topdown/report.h"

int cmd_report(int argc, char **argv);

static const char *prog = "spe-report";

static void usage(FILE *out)
{
	fprintf(out,
		"usage: %s -d DB [--cross-isa [--workload NAME]] [--format=table|json] [--top N]\n"
		"       %s -d DB --diff SOURCES_A SOURCES_B [--confidence P] [--format=table|json] [--top N]\n"
		"       %s --diff DB_A DB_B [--confidence P] [--format=table|json] [--top N]\n",
		prog, prog, prog);
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "cross-isa", no_argument, NULL, 'x' },
		{ "workload", required_argument, NULL, 'w' },
		{ "format", required_argument, NULL, 'f' },
		{ "top", required_argument, NULL, 't' },
		{ "diff", no_argument, NULL, 'D' },
		{ "confidence", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db_path = NULL;
	int cross = 0, diff = 0, top_given = 0, c;
	double confidence = 0.95;
	struct td_report_opts ro = { .format = TD_REPORT_TABLE, .top = 10 };
	optind = 1;
	while ((c = getopt_long(argc, argv, "d:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': db_path = optarg; break;
		case 'x': cross = 1; break;
		case 'D': diff = 1; break;
		case 'c': {
			char *end;
			confidence = strtod(optarg, &end);
			if (*end || !(confidence >= 0.5 && confidence < 1)) {
				fprintf(stderr, "%s: --confidence must be a number from 0.5 to 0.999\n", prog);
				return CLI_USAGE;
			}
			break;
		}
		case 'w': ro.workload = optarg; break;
		case 'f':
			if (!strcmp(optarg, "json"))
				ro.format = TD_REPORT_JSON;
			else if (!strcmp(optarg, "table"))
				ro.format = TD_REPORT_TABLE;
			else {
				fprintf(stderr, "%s: --format must be table or json\n", prog);
				return CLI_USAGE;
			}
			break;
		case 't': {
			char *end;
			long n = strtol(optarg, &end, 10);
			if (*end || n <= 0 || n > 1000) {
				fprintf(stderr, "%s: --top must be a number from 1 to 1000\n", prog);
				return CLI_USAGE;
			}
			ro.top = (int)n;
			top_given = 1;
			break;
		}
		case 'h':
			usage(stdout);
			return cli_finish_stdout(prog, CLI_OK);
		default:
			usage(stderr);
			return CLI_USAGE;
		}
	}
	if (diff) {
		if (argc - optind != 2 || cross) {
			fprintf(stderr, "%s: --diff takes two sources (with -d) or two databases%s\n", prog,
				cross ? ", and not --cross-isa" : "");
			usage(stderr);
			return CLI_USAGE;
		}
		return report_diff_run(prog, db_path, argv[optind], argv[optind + 1],
				       ro.format == TD_REPORT_JSON ? SPE_FORMAT_JSON : SPE_FORMAT_TABLE,
				       top_given ? ro.top : 0, confidence);
	}
	if (optind != argc || !db_path) {
		usage(stderr);
		return CLI_USAGE;
	}
	if (ro.workload && !cross) {
		fprintf(stderr, "%s: --workload needs --cross-isa\n", prog);
		return CLI_USAGE;
	}
	if (access(db_path, R_OK) != 0) {
		fprintf(stderr, "%s: %s: cannot read the database\n", prog, db_path);
		return CLI_NOINPUT;
	}
	/* the application_id and schema version check every spekit command makes */
	char err[1024];
	struct spe_db *sdb;
	int rc = spe_db_open(db_path, SPE_DB_READONLY, &sdb, err, sizeof err);
	if (rc < 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return rc == -spe_invalid ? CLI_NOINPUT : rc == -spe_io || rc == -spe_nomem ? CLI_IOERR : CLI_DATAERR;
	}
	sqlite3 *db = spe_db_sqlite(sdb);
	struct td_diag diag = { 0 };
	rc = td_store_check(db, &diag);
	if (rc == 0)
		rc = cross ? td_report_cross_isa(db, stdout, &ro, &diag) : td_report_spe(db, stdout, &ro, &diag);
	spe_db_close(sdb);
	if (rc < 0) {
		fflush(stdout);
		fprintf(stderr, "%s: %s: %s\n", prog, db_path, diag.msg[0] ? diag.msg : td_errstr(rc));
		return rc == -td_no_data || rc == -td_bad_input ? CLI_DATAERR : CLI_IOERR;
	}
	return cli_finish_stdout(prog, CLI_OK);
}
