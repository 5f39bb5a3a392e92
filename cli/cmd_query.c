/* SPDX-License-Identifier: Apache-2.0 */
/* spe-query: SQL over a spekit database, as a table, CSV or JSON lines.  See docs/spe-query.1.md. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "common/cli_util.h"
#include "common/temp_db.h"
#include "spe/analysis.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: spe-query [-d DB] [--format=table|csv|json] [--write] \"SQL\"\n"
		"       spe-query [--symfs=DIR] [--format=...] FILE.data \"SQL\"\n"
		"  -d, --database=DB   database to query (default ./spe.db)\n"
		"  -f, --format=FMT    table (default), csv (RFC 4180) or json (one object per line)\n"
		"      --write         open the database read-write\n"
		"      --symfs=DIR     with FILE.data: look for mapped files under DIR\n");
}

int cmd_query(int argc, char **argv);
int cmd_query(int argc, char **argv)
{
	enum { OPT_WRITE = 256, OPT_SYMFS };
	static const struct option options[] = {
		{ "database", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "write", no_argument, NULL, OPT_WRITE },
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *database = NULL, *symfs = NULL;
	enum spe_result_format fmt = SPE_FORMAT_TABLE;
	int write = 0, c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "d:f:h", options, NULL)) != -1) {
		switch (c) {
		case 'd': database = optarg; break;
		case 'f':
			if (!strcmp(optarg, "table"))
				fmt = SPE_FORMAT_TABLE;
			else if (!strcmp(optarg, "csv"))
				fmt = SPE_FORMAT_CSV;
			else if (!strcmp(optarg, "json"))
				fmt = SPE_FORMAT_JSON;
			else {
				fprintf(stderr, "spe-query: --format=%s: use table, csv or json\n", optarg);
				return CLI_USAGE;
			}
			break;
		case OPT_WRITE: write = 1; break;
		case OPT_SYMFS: symfs = optarg; break;
		case 'h': usage(stdout); return cli_finish_stdout("spe-query", CLI_OK);
		default: usage(stderr); return CLI_USAGE;
		}
	}
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); /* before SQLite initialises */
	int npos = argc - optind;
	if (npos < 1 || npos > 2 || (npos == 2 && database)) {
		fprintf(stderr, "spe-query: %s\n",
			npos < 1 ? "no SQL given" : npos > 2 ? "too many arguments (quote the SQL)"
							    : "give either -d DB or FILE.data, not both");
		usage(stderr);
		return CLI_USAGE;
	}
	const char *sql = argv[argc - 1];
	struct cli_temp_db tmp = { .dir = "" };
	if (npos == 2) {
		struct cli_temp_load lo = { .symfs = symfs };
		int rc = cli_temp_db_load("spe-query", argv[optind], &lo, &tmp);
		if (rc != CLI_OK) {
			cli_temp_db_remove(&tmp);
			return rc;
		}
		database = tmp.path;
	} else if (!database) {
		database = "spe.db";
	}

	char err[1024] = "";
	struct spe_db *db;
	int rc = spe_db_open(database, write ? SPE_DB_READWRITE : SPE_DB_READONLY, &db, err, sizeof err);
	if (rc < 0) {
		fprintf(stderr, "spe-query: %s\n", err);
		cli_temp_db_remove(&tmp);
		return access(database, F_OK) != 0 ? CLI_NOINPUT : CLI_DATAERR;
	}
	int status = CLI_OK;
	rc = spe_result_print(spe_db_sqlite(db), sql, fmt, stdout, err, sizeof err);
	if (rc < 0) {
		fflush(stdout);
		fprintf(stderr, "spe-query: %s\n", err);
		status = CLI_DATAERR;
	}
	spe_db_close(db);
	cli_temp_db_remove(&tmp);
	return cli_finish_stdout("spe-query", status);
}
