/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe-report: the SPE report over the analysis database, or with
 * --cross-isa the topdown runs of a workload side by side with the SPE
 * evidence; --html the whole story as one self-contained page, --annotate
 * one function's source and disassembly with their latency; --diff two
 * captures compared (text, JSON or a page).  See
 * docs/spe-report.1.md.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "common/cli_args.h"
#include "common/cli_options.h"
#include "common/cli_select.h"
#include "common/select_reload.h"
#include "common/temp_db.h"
#include "common/cli_util.h"
#include "common/clickhouse_cli.h"
#include "common/kept_dirs.h"
#include "common/report_diff.h"
#include "common/report_output.h"
#include "common/cli_signals.h"
#include "common/cli_sql_limits.h"
#include "common/progress.h"
#include "util/visible.h"
#include "report/report.h"
#include "spe/analysis.h"
#include "spe/settings.h"
#include "topdown/store.h"
#include "report/text.h"

int cmd_report(int argc, char **argv);

static const char *prog = "spe-report";

#define MAX_SOURCE_DIRS 32

enum { OPT_HTML = CLI_ID(0), OPT_ANNOTATE, OPT_SYMFS, OPT_SOURCE_DIR, OPT_ANNOTATIONS, OPT_COLOR, OPT_CLICKHOUSE,
       OPT_HOST, OPT_CROSS_ISA, OPT_WORKLOAD, OPT_TOP, OPT_DIFF, OPT_CONFIDENCE, OPT_TIMEOUT,
       OPT_MAX_MEMORY, OPT_PROGRESS, OPT_NO_PROGRESS };
static const char *const formats[] = { "table", "json", "html", NULL };
static const char *const colors[] = { "auto", "always", "never", NULL };
static const char *const usage[] = {
	"spe-report [-d DB | FILE.data] [--format=table|json] [--top N] [-o FILE] [--pid=LIST] [--tid=LIST]",
	"         [--comm=LIST] [-C LIST] [--time=START,END] [--dso=LIST] [--symbol=LIST] [--source=LIST]",
	"spe-report [-d DB] --cross-isa [--workload NAME] [--format=table|json] [--top N] [-o FILE]",
	"spe-report [-d DB | FILE.data] --html=FILE [--symfs=DIR] [--source-dir=DIR]... [--annotations=N] [--top N]",
	"         [--pid=LIST] ... (the selection, as above)",
	"spe-report [-d DB | FILE.data] --annotate=SYMBOL [--format=table|json] [--symfs=DIR] [--source-dir=DIR]...",
	"         [--color=auto|always|never] [-o FILE] [--pid=LIST] ... (the selection, as above)",
	"spe-report -d DB --diff SOURCES_A SOURCES_B [--confidence P] [--format=table|json|html] [--top N]",
	"         [-o FILE | --html=FILE]",
	"spe-report --diff DB_A DB_B [--confidence P] [--format=table|json|html] [--top N] [-o FILE | --html=FILE]",
	"spe-report --clickhouse=URL [--host=NAME] [--source=LIST] [--format=table|json|html | --html=FILE |",
	"         --annotate=SYMBOL] [--symfs=DIR] [--source-dir=DIR]... [--top N] [-o FILE]",
	NULL,
};

static const struct cli_option options[] = {
	{ 'd', "database", 'd', CLI_FILE, "DB", .help = "database to read (default ./spe.db)" },
	{ 'f', "format", 'f', CLI_CHOICE, .choices = formats, .help = "table (default), json, or html (the page of --html)" },
	{ 'o', "output", 'o', CLI_FILE, "FILE", .help = "write the report to FILE (default standard output)" },
	{ OPT_TOP, "top", 0, CLI_INT, "N", .min = 1, .max = 1000, .help = "rows per ranked table (default 10; --diff: all)" },
	{ OPT_HTML, "html", 0, CLI_FILE, "FILE", .help = "the whole story as one self-contained HTML page", .group = "Modes" },
	{ OPT_ANNOTATE, "annotate", 0, CLI_TEXT, "SYMBOL", .help = "one function's source and instructions with their latency" },
	{ OPT_CROSS_ISA, "cross-isa", 0, CLI_FLAG, .help = "the topdown runs of a workload side by side" },
	{ OPT_WORKLOAD, "workload", 0, CLI_TEXT, "NAME", .help = "with --cross-isa: only this workload" },
	{ OPT_DIFF, "diff", 0, CLI_FLAG, .help = "before/after: two source lists of -d DB, or two databases" },
	{ OPT_CONFIDENCE, "confidence", 0, CLI_TEXT, "P", .help = "--diff: the intervals' level, 0.5 to 0.999 (default 0.95)" },
	{ OPT_TIMEOUT, "timeout", 0, CLI_TEXT, "SECONDS", .help = CLI_TIMEOUT_HELP, .group = "Limits" },
	{ OPT_MAX_MEMORY, "max-memory", 0, CLI_TEXT, "BYTES", .help = CLI_MAX_MEMORY_HELP },
	{ OPT_SYMFS, "symfs", 0, CLI_DIR, "DIR", .help = "where the traced binaries are", .group = "Sources" },
	{ OPT_SOURCE_DIR, "source-dir", 0, CLI_DIR, "DIR", .help = "where source files are (repeatable)" },
	{ OPT_ANNOTATIONS, "annotations", 0, CLI_INT, "N", .min = 0, .max = 100,
	  .help = "functions annotated in the HTML page (default 5; 0: none)" },
	{ OPT_COLOR, "color", 0, CLI_CHOICE, .choices = colors, .help = "--annotate's shading on a terminal" },
	CLI_SELECT_OPTIONS("Which records (as perf report)"),
	{ OPT_CLICKHOUSE, "clickhouse", 0, CLI_TEXT, "URL",
	  .help = "the report, page or annotation from a ClickHouse database (read-only)", .group = "ClickHouse" },
	{ OPT_HOST, "host", 0, CLI_TEXT, "NAME", .help = "with --clickhouse: only the captures of host NAME" },
	CLI_PROGRESS_OPTIONS(OPT_PROGRESS, OPT_NO_PROGRESS),
	{ .name = "db", .alias_of = "database" },
	{ 0 },
};

const struct cli_command cli_command_report = {
	.name = "report",
	.prog = "spe-report",
	.summary = "the SPE report of a database: text, JSON, an HTML page, annotations, before/after",
	.usage = usage,
	.options = options,
	.footer = "exit: 0 ok, 64 usage, 65 no records (or none the selection chooses) / a database that is corrupt\n"
		  "      or not what it says, 1 FILE.data read in part,\n"
		  "      66 cannot read the database, 69 ClickHouse unavailable or past --timeout / --max-memory,\n"
		  "      74 I/O error, 128+N stopped by signal N.  man spe-report has the sections and their columns.",
};

enum mode { MODE_SPE, MODE_CROSS_ISA, MODE_HTML, MODE_ANNOTATE };

struct job {
	enum mode mode;
	const char *db_path;
	sqlite3 *db;
	struct report_text_opts ro;
	struct spe_report_opts so;
	const char *symbol;
	int json;
	struct cli_progress progress; /* the HTML page's (--html) */
	enum cli_progress_mode progress_mode;
};

static int report_failure(const char *db_path, int rc, const char *err);

/* Write the chosen report to @p out; the exit status. */
static int run(FILE *out, void *arg)
{
	struct job *j = arg;
	char err[1024] = "";
	int rc;
	if (j->mode == MODE_HTML) {
		cli_progress_start(&j->progress, prog, j->db_path, j->progress_mode);
		j->so.on_progress = cli_progress_update, j->so.progress_arg = &j->progress;
		rc = spe_report_html(j->db, out, &j->so, err, sizeof err);
		j->so.on_progress = NULL;
		cli_progress_clear(&j->progress);
	} else if (j->mode == MODE_ANNOTATE) {
		rc = spe_report_annotate(j->db, j->symbol, j->json ? SPE_REPORT_JSON : SPE_REPORT_TEXT, out, &j->so, err,
					 sizeof err);
	} else {
		rc = td_store_check(j->db, err, sizeof err);
		if (rc == 0)
			rc = j->mode == MODE_CROSS_ISA ? report_cross_isa(j->db, out, &j->ro, err, sizeof err)
						       : report_spe_text(j->db, out, &j->ro, err, sizeof err);
	}
	if (rc < 0) {
		fflush(out);
		return report_failure(j->db_path, rc, err);
	}
	return *cli_stop_flag() ? cli_sql_failure(prog, -spe_cancelled, "interrupted") : CLI_OK;
}

/*
 * A report that failed with @p rc: the message naming the database, and the
 * status -- 65 for a database that is corrupt, not a spekit database, holds
 * no records or not what it says (no such table, text where a number is
 * expected), 74 for the disk (an I/O error, a full temporary directory),
 * 69 past --timeout or --max-memory or out of memory, 128+N after signal N.
 */
static int report_failure(const char *db_path, int rc, const char *err)
{
	char msg[1400];
	snprintf(msg, sizeof msg, "%s: %s", db_path, err && err[0] ? err : spe_errstr(rc));
	/* "no SPE records", "no function named": the database lacks what was asked for (65) */
	return cli_sql_failure(prog, rc == -spe_invalid ? -spe_no_data : rc, msg);
}

struct ch_job {
	const char *url, *host, *source;
	const struct job *j; /* the mode and the report's options */
	int top, json;
};

static int run_clickhouse(FILE *out, void *arg)
{
	const struct ch_job *c = arg;
	if (c->j->mode == MODE_ANNOTATE)
		return cli_ch_report_page(prog, c->url, c->host, c->source, c->j->symbol, c->json, &c->j->so, out,
					  cli_stop_flag());
	if (c->j->mode != MODE_HTML)
		return cli_ch_report(prog, c->url, c->host, c->source, c->top, c->json, out, cli_stop_flag());
	/* the page's sections as the progress line's steps; the URL is not shown (it may hold credentials) */
	struct cli_progress progress;
	struct spe_report_opts so = c->j->so;
	cli_progress_start(&progress, prog, "the ClickHouse page", c->j->progress_mode);
	so.on_progress = cli_progress_update, so.progress_arg = &progress;
	int rc = cli_ch_report_page(prog, c->url, c->host, c->source, NULL, c->json, &so, out, cli_stop_flag());
	cli_progress_clear(&progress);
	return rc;
}

/*
 * --clickhouse=URL with options that read SQLite only: -d, --diff,
 * --cross-isa (the topdown runs are imported into SQLite), a database
 * argument; --host without the URL.  CLI_OK or CLI_USAGE.
 */
static int clickhouse_usage(const char *url, int sqlite_only)
{
	if (url && !sqlite_only)
		return CLI_OK;
	return cli_usage_error(&cli_command_report, "%s",
			       !url ? "--host goes with --clickhouse=URL"
				    : "--clickhouse reads the cluster's views: not with -d, --diff, --cross-isa or "
				      "--workload (they read SQLite databases)");
}

/*
 * --clickhouse=URL: the report from the cluster's views -- the text or JSON
 * sections (cli/common/clickhouse_cli.c), the HTML page or an annotation
 * (spe_report_html_ch, spe_report_annotate_ch) -- to standard output or the
 * file, which is written beside and renamed only when complete, so a
 * cluster that stops answering leaves no partial file.
 */
static int report_clickhouse(struct ch_job *c, const char *output)
{
	int rc = cli_report_output_write(prog, output ? output : "-", run_clickhouse, c);
	if (rc == CLI_OK && c->j->mode == MODE_HTML && output && strcmp(output, "-"))
		fprintf(stderr, "%s: wrote %s\n", prog, output);
	else if (rc != CLI_OK && output && strcmp(output, "-"))
		fprintf(stderr, "%s: %s not written\n", prog, output);
	return rc;
}

/*
 * --symfs and --source-dir not given: those spe-load kept in the database
 * (spe/settings.h) for this user (sealed: common/kept_dirs.h), those that
 * are still directories; a warning names each that is gone, and each kept
 * by someone else (a database from elsewhere), which is not used.  @p dirs
 * (MAX_SOURCE_DIRS + 1 entries) is filled from *@p kept, which the caller
 * frees.
 */
static void stored_dirs(sqlite3 *db, const char **symfs, const char **dirs, int ndirs, char **kept_symfs,
			char **kept_dirs, int warn)
{
	struct stat sb;
	char err[256], *foreign = NULL;
	if (!*symfs && cli_kept_dir_get(db, SPE_SETTING_SYMFS, kept_symfs, &foreign, err, sizeof err) == 0) {
		if (*kept_symfs && stat(*kept_symfs, &sb) == 0 && S_ISDIR(sb.st_mode))
			*symfs = *kept_symfs;
		else if (*kept_symfs && warn)
			fprintf(stderr, "%s: warning: the load's --symfs=%s is not a directory now; give --symfs=DIR\n", prog,
				*kept_symfs);
		else if (foreign && warn)
			fprintf(stderr, "%s: warning: the database keeps --symfs=%s from a load not made here by this user: "
					"not used (files are read only where you point); give --symfs=DIR\n", prog, foreign);
	}
	free(foreign);
	foreign = NULL;
	if (ndirs || cli_kept_dir_get(db, SPE_SETTING_SOURCE_DIR, kept_dirs, &foreign, err, sizeof err) < 0)
		return;
	if (foreign && warn)
		fprintf(stderr, "%s: warning: the database keeps --source-dir values from a load not made here by this "
				"user: not used (files are read only where you point); give --source-dir=DIR\n", prog);
	free(foreign);
	if (!*kept_dirs)
		return;
	int n = 0;
	for (char *p = *kept_dirs, *next; p && *p && n < MAX_SOURCE_DIRS; p = next) {
		next = strchr(p, '\n');
		if (next)
			*next++ = 0;
		if (stat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
			dirs[n++] = p;
		else if (warn)
			fprintf(stderr, "%s: warning: the load's --source-dir=%s is not a directory now; give --source-dir=DIR\n",
				prog, p);
	}
	dirs[n] = NULL;
}

static int report_main(int argc, char **argv, struct cli_select *sel);

int cmd_report(int argc, char **argv)
{
	struct cli_select sel = { 0 };
	int rc = report_main(argc, argv, &sel);
	cli_select_fini(&sel);
	return rc;
}

/* spe-report with @p sel to fill from the options (freed by the caller). */
static int report_main(int argc, char **argv, struct cli_select *sel)
{
	const struct cli_command *cmd = &cli_command_report;
	struct job j = { .mode = MODE_SPE, .ro = { .format = REPORT_TEXT_TABLE, .top = 10 } };
	j.so = (struct spe_report_opts){ .top = 10 };
	const char *format = NULL, *output = NULL, *html = NULL, *color = "auto";
	const char *clickhouse = NULL, *ch_host = NULL;
	const char *source_dirs[MAX_SOURCE_DIRS + 1] = { 0 };
	int nsource = 0, cross = 0, diff = 0, top_given = 0, c;
	double confidence = 0.95;
	struct cli_sql_limits lim;
	cli_sql_limits_default(&lim);
	struct cli_args a;
	cli_args_init(&a, cmd, argc, argv);
	while ((c = cli_args_next(&a)) > 0) {
		switch (c) {
		case 'd': j.db_path = a.value; break;
		case OPT_CROSS_ISA: cross = 1; break;
		case OPT_DIFF: diff = 1; break;
		case OPT_CONFIDENCE: {
			char *end;
			confidence = strtod(a.value, &end);
			if (*end || !(confidence >= 0.5 && confidence < 1))
				return cli_usage_error(cmd, "--confidence must be a number from 0.5 to 0.999");
			break;
		}
		case OPT_WORKLOAD: j.ro.workload = a.value; break;
		case 'f': format = a.value; break;
		case 'o': output = a.value; break;
		case OPT_HTML: html = a.value; break;
		case OPT_ANNOTATE: j.symbol = a.value; break;
		case OPT_SYMFS: j.so.symfs = a.value; break;
		case OPT_COLOR: color = a.value; break;
		case OPT_CLICKHOUSE: clickhouse = a.value; break;
		case OPT_HOST: ch_host = a.value; break;
		case OPT_SOURCE_DIR:
			if (nsource == MAX_SOURCE_DIRS)
				return cli_usage_error(cmd, "at most %d --source-dir options", MAX_SOURCE_DIRS);
			source_dirs[nsource++] = a.value;
			break;
		case OPT_TOP:
			j.so.top = j.ro.top = (int)a.number;
			top_given = 1;
			break;
		case OPT_TIMEOUT:
		case OPT_MAX_MEMORY:
			if (cli_sql_limits_option(prog, a.opt->name, a.value, &lim))
				return CLI_USAGE;
			break;
		case OPT_ANNOTATIONS:
			j.so.annotations = a.number ? (int)a.number : -1; /* -1: none */
			break;
		case OPT_PROGRESS: j.progress_mode = CLI_PROGRESS_ON; break;
		case OPT_NO_PROGRESS: j.progress_mode = CLI_PROGRESS_OFF; break;
		default:
			if (cli_select_option(sel, &a) == CLI_USAGE)
				return CLI_USAGE;
			break;
		}
	}
	if (c < 0)
		return a.status;
	int first = a.optind; /* --diff's two sources or databases, or FILE.data */
	const char *ch_source = clickhouse ? sel->source_text : NULL; /* without a URL, --source selects in SQLite */
	int on_clickhouse = clickhouse || ch_host;
	if (clickhouse && (sel->given || sel->s.n_sources > 1))
		return cli_usage_error(cmd, "--clickhouse takes --host and one --source=ID; --pid, --tid, --comm, "
					    "--cpu, --time, --dso and --symbol read SQLite databases");
	if (on_clickhouse) {
		int rc = clickhouse_usage(clickhouse, j.db_path || cross || diff || j.ro.workload || first != argc);
		if (rc != CLI_OK)
			return rc;
	}
	int selected = spe_select_active(&sel->s) && !on_clickhouse;
	if (selected && (diff || cross))
		return cli_usage_error(cmd, "the selection (--pid, --tid, --comm, --cpu, --time, --dso, --symbol, --source) "
					    "goes with the text and JSON report, the HTML page and --annotate, not with --diff "
					    "or --cross-isa");
	/* spe-report FILE.data: loaded into a private database first, as spe-query does */
	const char *recording = !diff && first != argc ? argv[first] : NULL;
	if (recording && (argc - first > 1 || j.db_path))
		return cli_usage_error(cmd, "%s", j.db_path ? "give either -d DB or FILE.data, not both" : "too many arguments");
	if (recording && (cross || on_clickhouse))
		return cli_usage_error(cmd, "FILE.data goes with the SPE report, the page or --annotate");
	/* the text or page written in place of the database it is made from would lose it */
	const char *target = html ? html : output, *target_opt = html ? "--html" : "-o";
	int same = diff || on_clickhouse || recording ? 0 : cli_default_db(prog, &j.db_path);
	if (!same && j.db_path)
		same = cli_refuse_recording_as_db(prog, j.db_path, "load it first (spe-load FILE -o DB), then -d DB");
	for (int i = first; i < argc && diff && !j.db_path && !same; i++)
		same = cli_refuse_recording_as_db(prog, argv[i], "load it first (spe-load FILE -o DB)");
	if (!same && !on_clickhouse)
		same = cli_refuse_output_is_input(prog, target_opt, target, recording ? recording : j.db_path);
	for (int i = first; i < argc && diff && !same; i++) /* --diff's databases */
		same = cli_refuse_output_is_input(prog, target_opt, target, argv[i]);
	if (same)
		return same;
	/* the stop signals, and the limits on what a crafted database can make the queries do */
	cli_signals_install();
	cli_sql_limits_setup(&lim); /* before SQLite initialises */
	if (diff) {
		if (argc - first != 2 || cross || j.symbol)
			return cli_usage_error(cmd, "--diff takes two sources (with -d) or two databases%s",
					       cross || j.symbol ? "; not with --cross-isa or --annotate" : "");
		if (html && output && strcmp(html, output))
			return cli_usage_error(cmd, "--html=FILE and -o FILE name two outputs; give one");
		if (html && format && strcmp(format, "html"))
			return cli_usage_error(cmd, "--html writes HTML; --format=%s does not go with it", format);
		struct report_diff_args da = {
			.db = j.db_path,
			.a = argv[first],
			.b = argv[first + 1],
			.fmt = format && !strcmp(format, "json") ? SPE_FORMAT_JSON : SPE_FORMAT_TABLE,
			.html = html || (format && !strcmp(format, "html")),
			.top = top_given ? j.ro.top : 0,
			.confidence = confidence,
			.output = html ? html : output,
		};
		return cli_report_diff_run(prog, &da);
	}
	j.so.source_dirs = source_dirs;
	int bad_dir = j.so.symfs ? cli_check_dir_option(prog, "--symfs", j.so.symfs) : 0;
	for (int i = 0; i < nsource && !bad_dir; i++)
		bad_dir = cli_check_dir_option(prog, "--source-dir", source_dirs[i]);
	if (bad_dir)
		return bad_dir;

	/* the mode, and the combinations that make no sense */
	if (html && output && strcmp(html, output))
		return cli_usage_error(cmd, "--html=FILE and -o FILE name two outputs; give one");
	if (html || (format && !strcmp(format, "html"))) {
		if (format && strcmp(format, "html"))
			return cli_usage_error(cmd, "--html writes HTML; --format=%s does not go with it", format);
		j.mode = MODE_HTML;
		if (html)
			output = html;
	}
	if (j.symbol) {
		if (j.mode == MODE_HTML)
			return cli_usage_error(cmd, "--annotate prints one function as text or JSON; the HTML page "
						    "annotates the hottest functions itself (--annotations=N)");
		j.mode = MODE_ANNOTATE;
	}
	if (cross) {
		if (j.mode != MODE_SPE)
			return cli_usage_error(cmd, "--cross-isa goes with neither --html nor --annotate");
		j.mode = MODE_CROSS_ISA;
	}
	if (j.ro.workload && !cross)
		return cli_usage_error(cmd, "--workload needs --cross-isa");
	int to_tty = (!output || !strcmp(output, "-")) && isatty(STDOUT_FILENO);
	j.progress_mode = cli_progress_for_stdout(j.progress_mode, !output || !strcmp(output, "-"));
	j.so.color = !strcmp(color, "always") || (!strcmp(color, "auto") && to_tty);
	j.json = format && !strcmp(format, "json");
	if (j.json)
		j.ro.format = REPORT_TEXT_JSON;
	int rc = cli_report_output_check(prog, output ? output : "-");
	if (rc != CLI_OK)
		return rc;
	if (on_clickhouse) {
		struct ch_job cj = { clickhouse, ch_host, ch_source, &j, j.ro.top, j.json };
		return report_clickhouse(&cj, output);
	}

	char err[1024];
	struct spe_db *sdb;
	int partial = 0; /* FILE.data read in part (cut short, decode errors): exit 1 once reported */
	if (recording) {
		struct cli_progress load_progress; /* the load's line, then the page's (--html) */
		cli_progress_start(&load_progress, prog, recording, j.progress_mode);
		struct cli_temp_load lo = { .symfs = j.so.symfs, .partial = &partial, .cancel = cli_stop_flag(),
					    .progress = &load_progress };
		if ((rc = cli_temp_db_load(prog, recording, &lo, &sdb)) != CLI_OK)
			return rc;
		j.db_path = recording; /* in messages and the title */
	} else {
		if (access(j.db_path, R_OK) != 0) {
			fprintf(stderr, "%s: %s: cannot read the database\n", prog, j.db_path);
			return CLI_NOINPUT;
		}
		/* the application_id and schema version check every spekit command makes */
		rc = spe_db_open(j.db_path, SPE_DB_READONLY, &sdb, err, sizeof err);
		if (rc < 0) {
			fprintf(stderr, "%s: %s\n", prog, err);
			return rc == -spe_invalid ? CLI_NOINPUT : rc == -spe_io ? CLI_IOERR : rc == -spe_nomem ? CLI_UNAVAILABLE : CLI_DATAERR;
		}
	}
	j.db = spe_db_sqlite(sdb);
	/* the topdown tables and views (--cross-isa, the page's section) are this build's too (td_store_own) */
	if ((rc = td_store_own(j.db, "main", err, sizeof err)) < 0) {
		rc = report_failure(j.db_path, rc, err);
		spe_db_close(sdb);
		return rc;
	}
	char *kept_symfs = NULL, *kept_dirs = NULL; /* what spe-load kept, when not given */
	stored_dirs(j.db, &j.so.symfs, source_dirs, nsource, &kept_symfs, &kept_dirs,
		    j.mode == MODE_HTML || j.mode == MODE_ANNOTATE);
	if (!j.so.title) {
		const char *base = strrchr(j.db_path, '/');
		j.so.title = base ? base + 1 : j.db_path;
	}
	struct spe_selection *chosen = NULL;
	if (selected && spe_selection_new(j.db, &sel->s, &chosen, err, sizeof err) < 0) {
		rc = report_failure(j.db_path, -spe_bad_file, err);
		free(kept_symfs);
		free(kept_dirs);
		spe_db_close(sdb);
		return rc;
	}
	char *selection_text = NULL; /* the records were chosen (spe/settings.h): the page and annotation say so */
	if (chosen && (j.mode == MODE_HTML || j.mode == MODE_ANNOTATE)) {
		/* their sections read the load's summaries: the chosen records are loaded by themselves */
		struct cli_temp_load lo = { .symfs = j.so.symfs, .cancel = cli_stop_flag() };
		struct spe_db *picked = NULL;
		rc = cli_select_reload(prog, j.db_path, j.db, chosen, recording, &lo, &picked);
		spe_selection_free(chosen);
		chosen = NULL;
		spe_db_close(sdb);
		if (rc != CLI_OK) {
			free(kept_symfs);
			free(kept_dirs);
			return rc;
		}
		sdb = picked;
		j.db = spe_db_sqlite(sdb);
	}
	if (spe_setting_get(j.db, SPE_SETTING_SELECTION, &selection_text, err, sizeof err) == 0)
		j.so.selection = selection_text;
	j.ro.selection = chosen;
	cli_sql_limits_watch(j.db);
	rc = cli_report_output_write(prog, output ? output : "-", run, &j);
	cli_sql_limits_watch(NULL);
	spe_selection_free(chosen);
	free(selection_text);
	free(kept_symfs);
	free(kept_dirs);
	spe_db_close(sdb); /* FILE.data's private database is removed here */
	cli_report_cuts(prog);
	if (rc == CLI_OK && j.mode == MODE_HTML && output && strcmp(output, "-"))
		fprintf(stderr, "%s: wrote %s\n", prog, output);
	return rc == CLI_OK && partial ? CLI_PARTIAL : rc;
}
