/* SPDX-License-Identifier: Apache-2.0 */
/* spe-query: SQL over a spekit database, as a table, CSV or JSON lines.  See docs/spe-query.1.md. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "common/cli_args.h"
#include "common/cli_options.h"
#include "common/cli_util.h"
#include "common/clickhouse_cli.h"
#include "common/progress.h"
#include "common/cli_signals.h"
#include "common/cli_sql_limits.h"
#include "common/temp_db.h"
#include "spe/analysis.h"
#include "topdown/store.h"

#define PROG "spe-query"

enum { OPT_WRITE = CLI_ID(0), OPT_SYMFS, OPT_TIMEOUT, OPT_MAX_MEMORY, OPT_RAW, OPT_MIDR, OPT_CLICKHOUSE, OPT_HOST,
       OPT_SOURCE, OPT_PROGRESS, OPT_NO_PROGRESS };
static const char *const formats[] = { "table", "csv", "json", NULL };
static const char *const usage[] = {
	PROG " [-d DB] [--format=table|csv|json] [--write] [--timeout=S] [--max-memory=BYTES] \"SQL\"",
	PROG " [--symfs=DIR] [--raw --midr=PART] [--[no-]progress] [--format=...] [-i] FILE.data \"SQL\"",
	PROG " --clickhouse=URL [--host=NAME] [--source=ID] [--format=...] [--timeout=S] \"SQL\"",
	NULL,
};

static const struct cli_option options[] = {
	{ 'd', "database", 'd', CLI_FILE, "DB", .help = "database to query (default ./spe.db)", .group = "Database" },
	{ 'f', "format", 'f', CLI_CHOICE, .choices = formats,
	  .help = "table (default), csv (RFC 4180) or json (one object per line)" },
	{ OPT_WRITE, "write", 0, CLI_FLAG, .help = "open the database read-write" },
	{ OPT_TIMEOUT, "timeout", 0, CLI_TEXT, "SECONDS", .help = CLI_TIMEOUT_HELP },
	{ OPT_MAX_MEMORY, "max-memory", 0, CLI_TEXT, "BYTES", .help = CLI_MAX_MEMORY_HELP },
	{ 'i', "input", 'i', CLI_INPUT, "FILE.data",
	  .help = "query this recording, loaded into a private database removed afterwards (as the first operand)",
	  .group = "Recording" },
	{ OPT_SYMFS, "symfs", 0, CLI_DIR, "DIR", .help = "with FILE.data: look for mapped files under DIR" },
	{ OPT_RAW, "raw", 0, CLI_FLAG, .help = "FILE.data is bare SPE bytes (with --midr)" },
	{ OPT_MIDR, "midr", 0, CLI_TEXT, "MIDR|PART", .values = cli_cpu_part_name,
	  .help = "the CPU part that recorded the raw bytes: a MIDR_EL1 value or a part name" },
	CLI_PROGRESS_OPTIONS(OPT_PROGRESS, OPT_NO_PROGRESS),
	{ OPT_CLICKHOUSE, "clickhouse", 0, CLI_TEXT, "URL",
	  .help = "query a ClickHouse database (read-only), e.g. http://host:8123/?database=spe", .group = "ClickHouse" },
	{ OPT_HOST, "host", 0, CLI_TEXT, "NAME", .help = "with --clickhouse: the views read only the captures of host NAME" },
	{ OPT_SOURCE, "source", 0, CLI_TEXT, "ID", .help = "with --clickhouse: the views read only capture (source id) ID" },
	{ 0 },
};

const struct cli_command cli_command_query = {
	.name = "query",
	.prog = PROG,
	.summary = "run SQL over a spekit database (or a recording loaded on the fly)",
	.usage = usage,
	.options = options,
};

/* The exit status of a failed open of an existing (or missing) database. */
static int open_status(int rc, const char *path)
{
	if (rc == -spe_invalid || access(path, F_OK) != 0) /* not a regular file, or missing */
		return CLI_NOINPUT;
	return rc == -spe_io || rc == -spe_nomem ? CLI_IOERR : CLI_DATAERR;
}

int cmd_query(int argc, char **argv);
int cmd_query(int argc, char **argv)
{
	const struct cli_command *cmd = &cli_command_query;
	const char *database = NULL, *symfs = NULL, *midr_arg = NULL, *clickhouse = NULL, *ch_host = NULL,
		   *ch_source = NULL;
	enum spe_result_format fmt = SPE_FORMAT_TABLE;
	enum cli_progress_mode progress_mode = CLI_PROGRESS_AUTO; /* FILE.data's load */
	int write = 0, raw = 0, c;
	struct cli_sql_limits lim;
	cli_sql_limits_default(&lim);
	struct cli_args a;
	cli_args_init(&a, cmd, argc, argv);
	while ((c = cli_args_next(&a)) > 0) {
		switch (c) {
		case 'd': database = a.value; break;
		case 'f':
			fmt = a.number == 0 ? SPE_FORMAT_TABLE : a.number == 1 ? SPE_FORMAT_CSV : SPE_FORMAT_JSON;
			break;
		case OPT_WRITE: write = 1; break;
		case OPT_SYMFS: symfs = a.value; break;
		case OPT_RAW: raw = 1; break;
		case OPT_MIDR: midr_arg = a.value; break;
		case OPT_CLICKHOUSE: clickhouse = a.value; break;
		case OPT_HOST: ch_host = a.value; break;
		case OPT_SOURCE: ch_source = a.value; break;
		case OPT_PROGRESS: progress_mode = CLI_PROGRESS_ON; break;
		case OPT_NO_PROGRESS: progress_mode = CLI_PROGRESS_OFF; break;
		case OPT_TIMEOUT:
		case OPT_MAX_MEMORY:
			if (cli_sql_limits_option(PROG, a.opt->name, a.value, &lim))
				return CLI_USAGE;
			break;
		}
	}
	if (c < 0)
		return a.status;
	int first = a.optind; /* the operands: [FILE.data] SQL (-i FILE.data is the first) */
	int npos = argc - first;
	const char *problem = npos < 1 ? "no SQL given"
			    : npos > 2 ? "too many arguments (quote the SQL)"
			    : clickhouse && (npos == 2 || database || write || symfs || raw || midr_arg)
				? "--clickhouse queries the ClickHouse database, read-only: not with -d, FILE.data, "
				  "--write, --symfs or --raw"
			    : !clickhouse && (ch_host || ch_source)
				? "--host and --source go with --clickhouse (on SQLite: WHERE source_id = ...)"
			    : (raw || midr_arg) && npos != 2 ? "--raw and --midr go with FILE.data"
			    : progress_mode == CLI_PROGRESS_ON && npos != 2
				? "--progress goes with FILE.data (the line is its load's)"
			    : raw && !midr_arg ? "--raw needs --midr"
			    : midr_arg && !raw ? "--midr goes with --raw"
			    : npos == 2 && database ? "give either -d DB or FILE.data, not both"
			    : npos == 2 && write ? "--write goes with -d DB: the database of FILE.data is removed afterwards"
						 : NULL;
	if (problem)
		return cli_usage_error(cmd, "%s", problem);
	cli_signals_install(); /* SIGINT, SIGTERM, SIGHUP, SIGQUIT: the statement stops, the transaction rolls back */
	if (clickhouse)
		return cli_ch_query(PROG, clickhouse, ch_host, ch_source, argv[argc - 1], fmt, lim.timeout, cli_stop_flag());
	int partial = 0; /* a recording read in part (cut short, decode errors): exit 1 once answered */
	struct cli_temp_load lo = { .symfs = symfs, .cancel = cli_stop_flag(), .raw = raw, .partial = &partial };
	if (midr_arg && cli_parse_midr(midr_arg, &lo.midr) < 0)
		return cli_usage_error(cmd, "--midr=%s: not a number or a known CPU part", midr_arg);
	cli_sql_limits_setup(&lim); /* before SQLite initialises */
	if (write)
		signal(SIGXFSZ, SIG_IGN); /* past ulimit -f: EFBIG, the transaction rolls back */

	const char *sql = argv[argc - 1];
	char err[1024] = "";
	struct spe_db *db;
	int rc;
	if (npos == 2) {
		database = argv[first];
		struct cli_progress progress;
		cli_progress_start(&progress, PROG, database, cli_progress_for_stdout(progress_mode, 1));
		lo.progress = &progress;
		if ((rc = cli_temp_db_load(PROG, database, &lo, &db)) != CLI_OK)
			return rc;
	} else {
		if ((rc = cli_default_db(PROG, &database)) ||
		    (rc = cli_refuse_recording_as_db(PROG, database, "give it without -d (spe-query FILE.data SQL), "
								     "or load it with spe-load")))
			return rc;
		rc = spe_db_open(database, write ? SPE_DB_READWRITE : SPE_DB_READONLY, &db, err, sizeof err);
		if (rc < 0) {
			fprintf(stderr, PROG ": %s\n", err);
			return open_status(rc, database);
		}
		/* topdown_l1 and the topdown tables are this build's, as spekit's views are (td_store_own) */
		if ((rc = td_store_own(spe_db_sqlite(db), "main", err, sizeof err)) < 0) {
			fprintf(stderr, PROG ": %s: %s\n", database, err);
			spe_db_close(db);
			return open_status(rc, database);
		}
	}
	sqlite3 *sq = spe_db_sqlite(db);
	cli_sql_limits_watch(sq);
	int status = CLI_OK;
	if (!*cli_stop_flag())
		rc = spe_result_print(sq, sql, fmt, stdout, err, sizeof err);
	cli_sql_limits_watch(NULL);
	if (*cli_stop_flag()) {
		fflush(stdout);
		status = cli_sql_failure(PROG, -spe_cancelled, "interrupted");
	} else if (rc < 0) {
		fflush(stdout);
		if (rc == -spe_no_permission && !write)
			snprintf(err + strlen(err), sizeof err - strlen(err), " (spe-query --write to allow it)");
		/* a statement's own error (bad SQL, a constraint) is the request's: 65 as before; the disk 74 */
		status = cli_sql_failure(PROG, rc == -spe_io || rc == -spe_nomem || rc == -spe_cancelled ? rc : -spe_bad_file,
					 err);
	}
	spe_db_close(db); /* a FILE.data's private database is removed here */
	return cli_finish_stdout(PROG, status == CLI_OK && partial ? CLI_PARTIAL : status);
}
