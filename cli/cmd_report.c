/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe-report: the SPE report over the analysis database, or with
 * --cross-isa the topdown runs of a workload side by side with the SPE
 * evidence; --html the whole story as one self-contained page, --annotate
 * one function's source and disassembly with their latency; --diff two
 * captures compared (text, JSON or a page).  See
 * docs/spe-report.1.md.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cli_args.h"
#include "common/cli_util.h"
#include "common/clickhouse_cli.h"
#include "common/report_diff.h"
#include "common/report_output.h"
#include "report/report.h"
#include "spe/analysis.h"
#include "topdown/store.h"
#include "report/text.h"

int cmd_report(int argc, char **argv);

static const char *prog = "spe-report";

#define MAX_SOURCE_DIRS 32

static void usage(FILE *out)
{
	fprintf(out,
		"usage: %s [-d DB] [--cross-isa [--workload NAME]] [--format=table|json] [--top N] [-o FILE]\n"
		"       %s [-d DB] --html=FILE [--symfs=DIR] [--source-dir=DIR]... [--annotations=N] [--top N]\n"
		"       %s [-d DB] --annotate=SYMBOL [--format=table|json] [--symfs=DIR] [--source-dir=DIR]...\n"
		"                [--color=auto|always|never] [-o FILE]\n"
		"       %s -d DB --diff SOURCES_A SOURCES_B [--confidence P] [--format=table|json|html] [--top N]\n"
		"                [-o FILE | --html=FILE]\n"
		"       %s --diff DB_A DB_B [--confidence P] [--format=table|json|html] [--top N] [-o FILE | --html=FILE]\n"
		"       %s --clickhouse=URL [--host=NAME] [--source=ID] [--format=table|json|html | --html=FILE |\n"
		"                --annotate=SYMBOL] [--symfs=DIR] [--source-dir=DIR]... [--top N] [-o FILE]\n",
		prog, prog, prog, prog, prog, prog);
}

static void help(FILE *out)
{
	usage(out);
	fputs("  -d, --database=DB     database to read (default ./spe.db; also --db)\n"
	      "  -f, --format=FMT      table (default), json, or html (the page of --html)\n"
	      "  -o, --output=FILE     write the report to FILE (default standard output)\n"
	      "      --top=N           rows per ranked table (default 10; --diff: all)\n"
	      "      --html=FILE       the whole story as one self-contained HTML page\n"
	      "      --annotate=SYMBOL one function's source and instructions with their latency\n"
	      "      --cross-isa       the topdown runs of a workload side by side (--workload=NAME)\n"
	      "      --diff            before/after: two source lists of -d DB, or two databases\n"
	      "      --confidence=P    --diff: the intervals' level (default 0.95)\n"
	      "      --symfs=DIR, --source-dir=DIR   where binaries and source files are found\n"
	      "      --annotations=N   functions annotated in the HTML page (default 5; 0: none)\n"
	      "      --color=auto|always|never   --annotate's shading on a terminal\n"
	      "      --clickhouse=URL  the report, page or annotation from a ClickHouse database (read-only)\n"
	      "      --host=NAME, --source=ID    with --clickhouse: only those captures\n"
	      "exit: 0 ok, 64 usage, 65 no records / not a spekit database, 66 cannot read the database,\n"
	      "      69 ClickHouse server or shard unavailable, 74 I/O error.  man spe-report has the sections and their columns.\n",
	      out);
}

enum mode { MODE_SPE, MODE_CROSS_ISA, MODE_HTML, MODE_ANNOTATE };

struct job {
	enum mode mode;
	const char *db_path;
	sqlite3 *db;
	struct report_text_opts ro;
	struct spe_report_opts so;
	const char *symbol;
	int json;
};

static int parse_count(const char *opt, const char *s, int lo, int hi, int *out)
{
	char *end;
	long n = strtol(s, &end, 10);
	if (!*s || *end || n < lo || n > hi) {
		fprintf(stderr, "%s: %s must be a number from %d to %d\n", prog, opt, lo, hi);
		return -1;
	}
	*out = (int)n;
	return 0;
}

/* Write the chosen report to @p out; the exit status. */
static int run(FILE *out, void *arg)
{
	struct job *j = arg;
	char err[1024] = "";
	int rc;
	if (j->mode == MODE_HTML || j->mode == MODE_ANNOTATE) {
		rc = j->mode == MODE_HTML
			     ? spe_report_html(j->db, out, &j->so, err, sizeof err)
			     : spe_report_annotate(j->db, j->symbol, j->json ? SPE_REPORT_JSON : SPE_REPORT_TEXT, out,
						   &j->so, err, sizeof err);
		if (rc < 0) {
			fprintf(stderr, "%s: %s: %s\n", prog, j->db_path, err[0] ? err : spe_errstr(rc));
			return rc == -spe_invalid ? CLI_DATAERR : CLI_IOERR;
		}
		return CLI_OK;
	}
	rc = td_store_check(j->db, err, sizeof err);
	if (rc == 0)
		rc = j->mode == MODE_CROSS_ISA ? report_cross_isa(j->db, out, &j->ro, err, sizeof err)
					       : report_spe_text(j->db, out, &j->ro, err, sizeof err);
	if (rc < 0) {
		fflush(out);
		fprintf(stderr, "%s: %s: %s\n", prog, j->db_path, err[0] ? err : spe_errstr(rc));
		return rc == -spe_no_data || rc == -spe_bad_input ? CLI_DATAERR : CLI_IOERR;
	}
	return CLI_OK;
}

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

struct ch_job {
	const char *url, *host, *source;
	const struct job *j; /* the mode and the report's options */
	int top, json;
};

static int run_clickhouse(FILE *out, void *arg)
{
	const struct ch_job *c = arg;
	if (c->j->mode == MODE_HTML || c->j->mode == MODE_ANNOTATE)
		return cli_ch_report_page(prog, c->url, c->host, c->source, c->j->mode == MODE_ANNOTATE ? c->j->symbol : NULL,
					  c->json, &c->j->so, out, &interrupted);
	return cli_ch_report(prog, c->url, c->host, c->source, c->top, c->json, out, &interrupted);
}

/*
 * --clickhouse=URL with options that read SQLite only: -d, --diff,
 * --cross-isa (the topdown runs are imported into SQLite), a database
 * argument; --host/--source without the URL.  CLI_OK or CLI_USAGE.
 */
static int clickhouse_usage(const char *url, int sqlite_only)
{
	if (url && !sqlite_only)
		return CLI_OK;
	fprintf(stderr, "%s: %s\n", prog,
		!url ? "--host and --source go with --clickhouse=URL"
		     : "--clickhouse reads the cluster's views: not with -d, --diff, --cross-isa or --workload "
		       "(they read SQLite databases)");
	return CLI_USAGE;
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
	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	int rc = cli_report_output_write(prog, output ? output : "-", run_clickhouse, c);
	if (rc == CLI_OK && c->j->mode == MODE_HTML && output && strcmp(output, "-"))
		fprintf(stderr, "%s: wrote %s\n", prog, output);
	else if (rc != CLI_OK && output && strcmp(output, "-"))
		fprintf(stderr, "%s: %s not written\n", prog, output);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	enum { OPT_HTML = 256, OPT_ANNOTATE, OPT_SYMFS, OPT_SOURCE_DIR, OPT_ANNOTATIONS, OPT_COLOR, OPT_CLICKHOUSE,
	       OPT_HOST, OPT_SOURCE };
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "database", required_argument, NULL, 'd' }, /* as spe-query and spe-export spell it */
		{ "cross-isa", no_argument, NULL, 'x' },
		{ "workload", required_argument, NULL, 'w' },
		{ "format", required_argument, NULL, 'f' },
		{ "top", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' },
		{ "html", required_argument, NULL, OPT_HTML },
		{ "annotate", required_argument, NULL, OPT_ANNOTATE },
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		{ "source-dir", required_argument, NULL, OPT_SOURCE_DIR },
		{ "annotations", required_argument, NULL, OPT_ANNOTATIONS },
		{ "color", required_argument, NULL, OPT_COLOR },
		{ "diff", no_argument, NULL, 'D' },
		{ "confidence", required_argument, NULL, 'c' },
		{ "clickhouse", required_argument, NULL, OPT_CLICKHOUSE },
		{ "host", required_argument, NULL, OPT_HOST },
		{ "source", required_argument, NULL, OPT_SOURCE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct job j = { .mode = MODE_SPE, .ro = { .format = REPORT_TEXT_TABLE, .top = 10 } };
	j.so = (struct spe_report_opts){ .top = 10 };
	const char *format = NULL, *output = NULL, *html = NULL, *color = "auto";
	const char *clickhouse = NULL, *ch_host = NULL, *ch_source = NULL;
	const char *source_dirs[MAX_SOURCE_DIRS + 1] = { 0 };
	int nsource = 0, cross = 0, diff = 0, top_given = 0, c;
	double confidence = 0.95;
	optind = 1;
	while ((c = getopt_long(argc, argv, "d:f:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': j.db_path = optarg; break;
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
		case 'w': j.ro.workload = optarg; break;
		case 'f': format = optarg; break;
		case 'o': output = optarg; break;
		case OPT_HTML: html = optarg; break;
		case OPT_ANNOTATE: j.symbol = optarg; break;
		case OPT_SYMFS: j.so.symfs = optarg; break;
		case OPT_COLOR: color = optarg; break;
		case OPT_CLICKHOUSE: clickhouse = optarg; break;
		case OPT_HOST: ch_host = optarg; break;
		case OPT_SOURCE: ch_source = optarg; break;
		case OPT_SOURCE_DIR:
			if (nsource == MAX_SOURCE_DIRS) {
				fprintf(stderr, "%s: at most %d --source-dir options\n", prog, MAX_SOURCE_DIRS);
				return CLI_USAGE;
			}
			source_dirs[nsource++] = optarg;
			break;
		case 't':
			if (parse_count("--top", optarg, 1, 1000, &j.ro.top))
				return CLI_USAGE;
			j.so.top = j.ro.top;
			top_given = 1;
			break;
		case OPT_ANNOTATIONS:
			if (parse_count("--annotations", optarg, 0, 100, &j.so.annotations))
				return CLI_USAGE;
			if (j.so.annotations == 0)
				j.so.annotations = -1; /* none */
			break;
		case 'h':
			help(stdout);
			return cli_finish_stdout(prog, CLI_OK);
		default:
			usage(stderr);
			return CLI_USAGE;
		}
	}
	int on_clickhouse = clickhouse || ch_host || ch_source;
	if (on_clickhouse) {
		int rc = clickhouse_usage(clickhouse, j.db_path || cross || diff || j.ro.workload || optind != argc);
		if (rc != CLI_OK)
			return rc;
	}
	if (!diff && optind != argc) {
		fprintf(stderr, "%s: unexpected argument '%s' (the database is -d DB)\n", prog, argv[optind]);
		usage(stderr);
		return CLI_USAGE;
	}
	/* the text or page written in place of the database it is made from would lose it */
	const char *target = html ? html : output, *target_opt = html ? "--html" : "-o";
	int same = diff || on_clickhouse ? 0 : cli_default_db(prog, &j.db_path);
	if (!same && j.db_path)
		same = cli_refuse_recording_as_db(prog, j.db_path, "load it first (spe-load FILE -o DB), then -d DB");
	for (int i = optind; i < argc && diff && !j.db_path && !same; i++)
		same = cli_refuse_recording_as_db(prog, argv[i], "load it first (spe-load FILE -o DB)");
	if (!same && !on_clickhouse)
		same = cli_refuse_output_is_input(prog, target_opt, target, j.db_path);
	for (int i = optind; i < argc && !same; i++) /* --diff's databases */
		same = cli_refuse_output_is_input(prog, target_opt, target, argv[i]);
	if (same)
		return same;
	if (diff) {
		if (argc - optind != 2 || cross || j.symbol) {
			fprintf(stderr, "%s: --diff takes two sources (with -d) or two databases%s\n", prog,
				cross || j.symbol ? "; not with --cross-isa or --annotate" : "");
			usage(stderr);
			return CLI_USAGE;
		}
		if (html && output && strcmp(html, output)) {
			fprintf(stderr, "%s: --html=FILE and -o FILE name two outputs; give one\n", prog);
			return CLI_USAGE;
		}
		if (format && strcmp(format, "table") && strcmp(format, "json") && strcmp(format, "html")) {
			fprintf(stderr, "%s: --format must be table, json or html with --diff\n", prog);
			return CLI_USAGE;
		}
		if (html && format && strcmp(format, "html")) {
			fprintf(stderr, "%s: --html writes HTML; --format=%s does not go with it\n", prog, format);
			return CLI_USAGE;
		}
		struct report_diff_args da = {
			.db = j.db_path,
			.a = argv[optind],
			.b = argv[optind + 1],
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
	if (html && output && strcmp(html, output)) {
		fprintf(stderr, "%s: --html=FILE and -o FILE name two outputs; give one\n", prog);
		return CLI_USAGE;
	}
	if (format && strcmp(format, "table") && strcmp(format, "json") && strcmp(format, "html")) {
		fprintf(stderr, "%s: --format must be table, json or html\n", prog);
		return CLI_USAGE;
	}
	if (html || (format && !strcmp(format, "html"))) {
		if (format && strcmp(format, "html")) {
			fprintf(stderr, "%s: --html writes HTML; --format=%s does not go with it\n", prog, format);
			return CLI_USAGE;
		}
		j.mode = MODE_HTML;
		if (html)
			output = html;
	}
	if (j.symbol) {
		if (j.mode == MODE_HTML) {
			fprintf(stderr, "%s: --annotate prints one function as text or JSON; the HTML page annotates the "
					"hottest functions itself (--annotations=N)\n",
				prog);
			return CLI_USAGE;
		}
		j.mode = MODE_ANNOTATE;
	}
	if (cross) {
		if (j.mode != MODE_SPE) {
			fprintf(stderr, "%s: --cross-isa goes with neither --html nor --annotate\n", prog);
			return CLI_USAGE;
		}
		j.mode = MODE_CROSS_ISA;
	}
	if (j.ro.workload && !cross) {
		fprintf(stderr, "%s: --workload needs --cross-isa\n", prog);
		return CLI_USAGE;
	}
	if (strcmp(color, "auto") && strcmp(color, "always") && strcmp(color, "never")) {
		fprintf(stderr, "%s: --color must be auto, always or never\n", prog);
		return CLI_USAGE;
	}
	int to_tty = (!output || !strcmp(output, "-")) && isatty(STDOUT_FILENO);
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

	if (access(j.db_path, R_OK) != 0) {
		fprintf(stderr, "%s: %s: cannot read the database\n", prog, j.db_path);
		return CLI_NOINPUT;
	}
	/* the application_id and schema version check every spekit command makes */
	char err[1024];
	struct spe_db *sdb;
	rc = spe_db_open(j.db_path, SPE_DB_READONLY, &sdb, err, sizeof err);
	if (rc < 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return rc == -spe_invalid ? CLI_NOINPUT : rc == -spe_io || rc == -spe_nomem ? CLI_IOERR : CLI_DATAERR;
	}
	j.db = spe_db_sqlite(sdb);
	if (!j.so.title) {
		const char *base = strrchr(j.db_path, '/');
		j.so.title = base ? base + 1 : j.db_path;
	}
	rc = cli_report_output_write(prog, output ? output : "-", run, &j);
	spe_db_close(sdb);
	if (rc == CLI_OK && j.mode == MODE_HTML && output && strcmp(output, "-"))
		fprintf(stderr, "%s: wrote %s\n", prog, output);
	return rc;
}
