/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe-export: a spekit database (or a recording, loaded on the fly) as a
 * pprof profile, folded stacks, or a BOLT / AutoFDO branch profile.  See
 * docs/spe-export.1.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "common/cli_args.h"
#include "common/cli_options.h"
#include "common/cli_select.h"
#include "common/cli_util.h"
#include "common/temp_db.h"
#include "common/cli_signals.h"
#include "common/cli_sql_limits.h"
#include "common/progress.h"
#include "spe/analysis.h"
#include "spe/export.h"
#include "spe/outfile.h"
#include "util/visible.h"

static const char prog[] = "spe-export";

enum { OPT_WHERE = CLI_ID(0), OPT_SYMFS, OPT_RAW, OPT_MIDR, OPT_BY, OPT_WEIGHT,
       OPT_SPLIT, OPT_BINARY, OPT_BUILD_ID, OPT_TIMEOUT, OPT_MAX_MEMORY, OPT_PROGRESS, OPT_NO_PROGRESS };
static const char *const formats[] = { "pprof", "folded", "bolt", "autofdo", NULL }; /* enum spe_export_format's order */
static const char *const bys[] = { "code", "data", NULL };                         /* enum spe_export_by */
static const char *const weights[] = { "latency", "samples", NULL };               /* enum spe_export_weight */
static const char *const splits[] = { "mem_level", NULL };
static const char *const usage[] = {
	"spe-export --format=FMT [-d DB | [--symfs=DIR] [--raw --midr=MIDR|PART] [-i] FILE.data] [-o FILE]",
	"           [--where=SQL-EXPR] [--source=LIST] [--pid=LIST] [--tid=LIST] [--comm=LIST] [-C LIST]",
	"           [--time=START,END] [--dso=LIST] [--symbol=LIST] [FORMAT OPTIONS]",
	NULL,
};

static const struct cli_option options[] = {
	{ 'f', "format", 'f', CLI_CHOICE, .choices = formats, .help = "pprof (needs -o), folded, bolt or autofdo" },
	{ 'd', "database", 'd', CLI_FILE, "DB", .help = "database to read (default ./spe.db)" },
	{ 'i', "input", 'i', CLI_INPUT, "FILE.data", .help = "a recording to read instead, loaded on the fly (also the operand)" },
	{ 'o', "output", 'o', CLI_FILE, "FILE", .help = "where to write (text formats: default or '-' standard output)" },
	{ OPT_SYMFS, "symfs", 0, CLI_DIR, "DIR", .help = "look for mapped binaries under DIR" },
	{ OPT_RAW, "raw", 0, CLI_FLAG, .help = "FILE.data is bare SPE bytes (with --midr)" },
	{ OPT_MIDR, "midr", 0, CLI_TEXT, "MIDR|PART", .values = cli_cpu_part_name,
	  .help = "the CPU part that recorded the raw bytes: a MIDR_EL1 value or a part name" },
	CLI_SELECT_OPTIONS("Which records (as perf report)"),
	{ OPT_WHERE, "where", 0, CLI_TEXT, "SQL-EXPR", .help = "only the records whose spe_sample row satisfies the expression" },
	{ OPT_BY, "by", 0, CLI_CHOICE, .choices = bys,
	  .help = "pprof: locations are the PCs (default) or the data objects", .group = "Format options" },
	{ OPT_WEIGHT, "weight", 0, CLI_CHOICE, .choices = weights, .help = "folded: stack weight (default total latency)" },
	{ OPT_SPLIT, "split", 0, CLI_CHOICE, .choices = splits, .help = "folded: a memory-level frame below the instruction" },
	{ OPT_BINARY, "binary", 0, CLI_FILE, "PATH", .help = "bolt, autofdo: the binary to profile" },
	{ OPT_BUILD_ID, "build-id", 0, CLI_TEXT, "HEX", .help = "bolt, autofdo: the binary to profile, by build-id" },
	{ OPT_TIMEOUT, "timeout", 0, CLI_TEXT, "SECONDS", .help = CLI_TIMEOUT_HELP, .group = "Limits" },
	{ OPT_MAX_MEMORY, "max-memory", 0, CLI_TEXT, "BYTES", .help = CLI_MAX_MEMORY_HELP },
	CLI_PROGRESS_OPTIONS(OPT_PROGRESS, OPT_NO_PROGRESS),
	{ 0 },
};

const struct cli_command cli_command_export = {
	.name = "export",
	.prog = "spe-export",
	.summary = "write a database as pprof, folded stacks, or a BOLT / AutoFDO profile",
	.usage = usage,
	.options = options,
};

/*
 * The output, through the shared safe-output helper (spe/outfile.h): checked
 * before any work, written to a temporary beside the target and renamed over
 * it only when complete.  Text formats may go to standard output or another
 * stream; pprof, binary, only to a regular file.
 */
struct out_file {
	struct spe_outfile *o;
	FILE *f;
};

static int out_status(int rc)
{
	return rc == -spe_invalid ? CLI_USAGE : CLI_IOERR;
}

static int out_open(struct out_file *o, const char *path, int binary)
{
	char err[1024];
	memset(o, 0, sizeof *o);
	if (binary && (!path || !strcmp(path, "-"))) {
		fprintf(stderr, "%s: the pprof format is binary: give -o FILE.pb.gz\n", prog);
		return CLI_USAGE;
	}
	int rc = spe_outfile_open(path ? path : "-", "spe-export", binary ? 0 : SPE_OUTFILE_STREAM, &o->o, err,
				  sizeof err);
	if (rc == 0 && cli_signals_install() == 0 && spe_outfile_cleanup_on_signals() == 0) {
		int fd = dup(spe_outfile_fd(o->o));
		o->f = fd >= 0 ? fdopen(fd, "wb") : NULL;
		if (!o->f) {
			if (fd >= 0)
				close(fd);
			snprintf(err, sizeof err, "%s", strerror(errno));
			rc = -spe_io;
		}
	} else if (rc == 0) {
		snprintf(err, sizeof err, "cannot install the signal handlers");
		rc = -spe_io;
	}
	if (rc < 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		spe_outfile_abort(o->o);
		o->o = NULL;
		return out_status(rc);
	}
	return CLI_OK;
}

static void out_abort(struct out_file *o)
{
	if (o->f)
		fclose(o->f);
	spe_outfile_abort(o->o);
	memset(o, 0, sizeof *o);
}

static int out_commit(struct out_file *o)
{
	char err[1024];
	int e = fclose(o->f) != 0 ? errno : 0;
	o->f = NULL;
	if (e) {
		fprintf(stderr, "%s: writing %s: %s\n", prog, spe_outfile_path(o->o), strerror(e));
		out_abort(o);
		return CLI_IOERR;
	}
	int rc = spe_outfile_commit(o->o, err, sizeof err);
	o->o = NULL;
	if (rc < 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return out_status(rc);
	}
	return CLI_OK;
}

/* The options of one run. */
struct export_args {
	struct spe_export_opts eo;
	const char *database, *output, *midr_arg;
	int format, raw, by_set, weight_set, split_set;
	struct cli_select sel;
	struct cli_sql_limits lim;
	enum cli_progress_mode progress_mode;
};

static int export_run(const struct cli_command *cmd, struct export_args *x, int argc, char **argv, int first);

int cmd_export(int argc, char **argv);
int cmd_export(int argc, char **argv)
{
	const struct cli_command *cmd = &cli_command_export;
	struct export_args x = {
		.eo = { .source_id = SPE_EXPORT_ANY, .pid = SPE_EXPORT_ANY, .cpu = SPE_EXPORT_ANY },
		.format = -1,
	};
	struct spe_export_opts *eo = &x.eo;
	int c = 0, status = CLI_OK;
	cli_sql_limits_default(&x.lim);
	struct cli_args a;
	cli_args_init(&a, cmd, argc, argv);
	while (status == CLI_OK && (c = cli_args_next(&a)) > 0) {
		switch (c) {
		case 'f': x.format = (int)a.number; break;
		case 'd': x.database = a.value; break;
		case 'o': x.output = a.value; break;
		case OPT_WHERE: eo->where = a.value; break;
		case OPT_SYMFS: eo->symfs = a.value; break;
		case OPT_RAW: x.raw = 1; break;
		case OPT_MIDR: x.midr_arg = a.value; break;
		case OPT_BY:
			eo->by = (enum spe_export_by)a.number;
			x.by_set = 1;
			break;
		case OPT_WEIGHT:
			eo->weight = (enum spe_export_weight)a.number;
			x.weight_set = 1;
			break;
		case OPT_SPLIT: eo->split_mem_level = x.split_set = 1; break;
		case OPT_BINARY: eo->binary = a.value; break;
		case OPT_BUILD_ID: eo->build_id = a.value; break;
		case OPT_TIMEOUT:
		case OPT_MAX_MEMORY:
			if (cli_sql_limits_option(prog, a.opt->name, a.value, &x.lim))
				status = CLI_USAGE;
			break;
		case OPT_PROGRESS: x.progress_mode = CLI_PROGRESS_ON; break;
		case OPT_NO_PROGRESS: x.progress_mode = CLI_PROGRESS_OFF; break;
		default:
			if (cli_select_option(&x.sel, &a) == CLI_USAGE)
				status = CLI_USAGE;
			break;
		}
	}
	if (status == CLI_OK)
		status = c < 0 ? a.status : export_run(cmd, &x, argc, argv, a.optind);
	cli_select_fini(&x.sel);
	return status;
}

/* spe-export after its options: the checks, the load or the database, the export.  The exit status. */
static int export_run(const struct cli_command *cmd, struct export_args *x, int argc, char **argv, int first)
{
	struct spe_export_opts eo = x->eo;
	const char *database = x->database, *output = x->output, *midr_arg = x->midr_arg;
	int format = x->format, raw = x->raw, by_set = x->by_set, weight_set = x->weight_set, split_set = x->split_set;
	const struct cli_select *sel = &x->sel;
	int status;
	int npos = argc - first;
	const char *problem = format < 0 ? "--format is required"
			      : npos > 1 ? "too many arguments"
			      : npos == 1 && database ? "give either -d DB or FILE.data, not both"
			      : (raw || midr_arg) && npos != 1 ? "--raw and --midr go with FILE"
			      : midr_arg && !raw ? "--midr goes with --raw"
			      : raw && !midr_arg ? "--raw needs --midr"
			      : by_set && format != SPE_EXPORT_PPROF ? "--by goes with --format=pprof"
			      : (weight_set || split_set) && format != SPE_EXPORT_FOLDED
				      ? "--weight and --split go with --format=folded"
			      : (eo.binary || eo.build_id) && format != SPE_EXPORT_BOLT && format != SPE_EXPORT_AUTOFDO
				      ? "--binary and --build-id go with --format=bolt or autofdo"
				      : NULL;
	if (problem)
		return cli_usage_error(cmd, "%s", problem);
	int partial = 0; /* a recording read in part (cut short, decode errors): exit 1 once exported */
	struct cli_temp_load lo = { .symfs = eo.symfs, .raw = raw, .partial = &partial, .cancel = cli_stop_flag() };
	if (midr_arg && cli_parse_midr(midr_arg, &lo.midr) < 0)
		return cli_usage_error(cmd, "--midr=%s: not a number or a known CPU part", midr_arg);
	int bad_dir = eo.symfs ? cli_check_dir_option(prog, "--symfs", eo.symfs) : 0;
	if (bad_dir)
		return bad_dir;
	if (eo.binary && access(eo.binary, R_OK) != 0) {
		fprintf(stderr, "%s: --binary=%s: %s\n", prog, eo.binary, strerror(errno));
		return CLI_NOINPUT;
	}
	if (npos != 1 && ((bad_dir = cli_default_db(prog, &database)) ||
			  (bad_dir = cli_refuse_recording_as_db(prog, database, "give it without -d, or load it with spe-load"))))
		return bad_dir;
	const char *input = npos == 1 ? argv[first] : database;
	if ((bad_dir = cli_refuse_output_is_input(prog, "-o", output, input)) ||
	    (bad_dir = cli_refuse_output_is_input(prog, "-o", output, eo.binary)))
		return bad_dir;
	cli_signals_install();
	/* the output is opened (and a bad -o refused) before any long load */
	struct out_file out;
	status = out_open(&out, output, format == SPE_EXPORT_PPROF);
	if (status != CLI_OK)
		return status;

	cli_signals_install(); /* before the output's temporary exists: a signal then removes it */
	cli_sql_limits_setup(&x->lim); /* before SQLite initialises */
	char err[1024] = "";
	struct spe_db *db = NULL;
	struct spe_selection *chosen = NULL;
	/* the line, when drawn, is erased before any other message (and the result, on standard output) */
	struct cli_progress progress;
	enum cli_progress_mode progress_mode = cli_progress_for_stdout(x->progress_mode, !output || !strcmp(output, "-"));
	if (npos == 1) {
		cli_progress_start(&progress, prog, argv[first], progress_mode);
		lo.progress = &progress;
		status = cli_temp_db_load(prog, argv[first], &lo, &db);
	} else {
		if (spe_db_open(database, SPE_DB_READONLY, &db, err, sizeof err) < 0) {
			fprintf(stderr, "%s: %s\n", prog, err);
			status = access(database, F_OK) != 0 ? CLI_NOINPUT : CLI_DATAERR;
		}
	}
	struct spe_export_stats stats;
	if (status == CLI_OK && spe_selection_new(spe_db_sqlite(db), &sel->s, &chosen, err, sizeof err) < 0)
		status = cli_sql_failure(prog, -spe_bad_file, err);
	eo.selection = chosen;
	if (status == CLI_OK) {
		cli_sql_limits_watch(spe_db_sqlite(db));
		cli_progress_start(&progress, prog, input, progress_mode);
		eo.on_progress = cli_progress_update, eo.progress_arg = &progress;
		int rc = spe_export(spe_db_sqlite(db), (enum spe_export_format)format, &eo, out.f, &stats, err,
				    sizeof err);
		cli_progress_clear(&progress);
		cli_sql_limits_watch(NULL);
		if (rc == 0 && *cli_stop_flag())
			rc = -spe_cancelled;
		if (rc == -spe_invalid) {
			fprintf(stderr, "%s: %s\n", prog, err);
			status = CLI_USAGE;
		} else if (rc < 0) {
			/* 65 a database corrupt or not what it says, 66 the binary, 74 the disk, 69 a limit, 128+N a signal */
			status = cli_sql_failure(prog, rc, err[0] ? err : spe_errstr(rc));
		} else if (stats.written == 0) {
			fprintf(stderr, "%s: no records to export (%llu passed the filters)", prog,
				(unsigned long long)stats.records);
			if (chosen && stats.records == 0)
			{
				fprintf(stderr, ": no record matches the selection (");
				util_visible_put(stderr, spe_selection_text(chosen), 0, UTIL_VISIBLE_MAX, 0);
				fputc(')', stderr);
			}
			fputc('\n', stderr);
			status = CLI_DATAERR;
		}
	}
	spe_selection_free(chosen);
	spe_db_close(db); /* a recording's private database is removed here */
	if (status != CLI_OK) {
		out_abort(&out);
		return status;
	}
	status = out_commit(&out);
	if (status == CLI_OK) {
		fprintf(stderr, "%s: %llu records, %llu exported as %llu %s%s%s", prog, (unsigned long long)stats.records,
			(unsigned long long)stats.written, (unsigned long long)stats.locations,
			format == SPE_EXPORT_FOLDED ? "stacks" : format == SPE_EXPORT_PPROF ? "locations" : "entries",
			stats.binary_path[0] ? " of " : "", stats.binary_path);
		if (stats.skipped)
			fprintf(stderr, "; %llu skipped", (unsigned long long)stats.skipped);
		fprintf(stderr, "\n");
		if (stats.saturated)
			fprintf(stderr,
				"%s: warning: %llu latency sums passed 2^64 and are shown as the largest value instead "
				"(the database holds latencies no capture could have)\n",
				prog, (unsigned long long)stats.saturated);
		if (stats.no_dwarf)
			fprintf(stderr,
				"%s: warning: %llu locations lack DWARF for inline call sites or declaration lines "
				"(binaries not found? try --symfs)\n",
				prog, (unsigned long long)stats.no_dwarf);
	}
	return status == CLI_OK && partial ? CLI_PARTIAL : status;
}
