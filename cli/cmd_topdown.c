/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe-topdown: decode PERF_METRICS, import perf/toplev/topdown-tool output
 * and raw counter listings into the database, measure a command.
 * See docs/spe-topdown.1.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/cli_signals.h"
#include "common/cli_args.h"
#include "common/cli_options.h"
#include "common/cli_util.h"
#include "ana/statement.h"
#include "util/child.h"
#include "util/json.h"
#include "spe/analysis.h"
#include "spe/infile.h"
#include "spe/outfile.h"
#include "topdown/import.h"
#include "topdown/measure.h"
#include "topdown/perf_metrics.h"
#include "topdown/formula.h"
#include "topdown/store.h"

int cmd_topdown(int argc, char **argv);

static const char *prog = "spe-topdown";

enum { OPT_SLOTS = CLI_ID(0), OPT_METRICS, OPT_LEVEL, OPT_FORMAT, OPT_STRICT, OPT_RUN, OPT_WORKLOAD, OPT_CPU_MODEL,
       OPT_HOST, OPT_SPE_SOURCE, OPT_DRY_RUN, OPT_SYSROOT };
static const char *const formats[] = { "text", "json", NULL };

static const char *const decode_usage[] = {
	"spe-topdown decode --slots A[,B] --metrics M[,N] [--level=1|2] [--format=text|json] [--strict]", NULL
};
static const struct cli_option decode_options[] = {
	{ OPT_SLOTS, "slots", 0, CLI_TEXT, "A[,B]", .help = "SLOTS: one value, or two for a region" },
	{ OPT_METRICS, "metrics", 0, CLI_TEXT, "M[,N]", .help = "PERF_METRICS: one value, or two for a region" },
	{ OPT_LEVEL, "level", 0, CLI_INT, "1|2", .min = 1, .max = 2, .help = "print level 2 too (default 1)" },
	{ OPT_FORMAT, "format", 0, CLI_CHOICE, .choices = formats, .help = "output form (default text)" },
	{ OPT_STRICT, "strict", 0, CLI_FLAG, .help = "refuse bytes PERF_METRICS cannot hold (exit 65) instead of warning" },
	{ 0 },
};
static const struct cli_command decode_command = {
	.name = "decode",
	.prog = "spe-topdown decode",
	.usage = decode_usage,
	.about = "Decode PERF_METRICS and SLOTS values into topdown fractions.",
	.options = decode_options,
	.operands = CLI_OPERANDS_AFTER_DASHDASH,
};

static const char *const import_usage[] = {
	"spe-topdown import FILE [-d DB] [--run NAME]... [--workload NAME] [--cpu-model MODEL] [--host NAME]",
	"         [--spe-source ID|FILE]",
	NULL,
};
static const struct cli_option import_options[] = {
	{ 'd', "database", 'd', CLI_FILE, "DB", .help = "the spekit database to add the runs to (default ./spe.db)" },
	{ OPT_RUN, "run", 0, CLI_TEXT, "NAME", .help = "the run's name (default: the file's); one per run, or one for all" },
	{ OPT_WORKLOAD, "workload", 0, CLI_TEXT, "NAME", .help = "the workload the runs belong to (default: the run name)" },
	{ OPT_CPU_MODEL, "cpu-model", 0, CLI_TEXT, "MODEL", .values = td_cpu_model_name,
	  .help = "the CPU of raw counts (or an Arm MIDR such as 0x410fd493); else it labels the run" },
	{ OPT_HOST, "host", 0, CLI_TEXT, "NAME", .help = "the machine the imported data came from" },
	{ OPT_SPE_SOURCE, "spe-source", 0, CLI_TEXT, "ID|FILE", .help = "link the runs to the SPE capture loaded in DB" },
	{ .name = "db", .alias_of = "database" },
	{ .name = "cpu", .alias_of = "cpu-model" },
	{ 0 },
};
static const struct cli_command import_command = {
	.name = "import",
	.prog = "spe-topdown import",
	.usage = import_usage,
	.about = "Import perf stat, toplev or topdown-tool output, or raw counter listings, into the database.",
	.options = import_options,
};

static const char *const stat_usage[] = {
	"spe-topdown stat [-I MS] [-d DB] [--run NAME] [--workload NAME] [--level=1|2] [--dry-run]",
	"         [--spe-source ID|FILE] [--sysroot DIR] -- COMMAND [ARGS...]",
	NULL,
};
static const struct cli_option stat_options[] = {
	{ 'I', "interval", 'I', CLI_INT, "MS", .min = 10, .max = INT32_MAX, .help = "one interval every MS milliseconds (at least 10)" },
	{ 'd', "database", 'd', CLI_FILE, "DB", .help = "store the run in this spekit database (default: store nothing)" },
	{ OPT_RUN, "run", 0, CLI_TEXT, "NAME", .help = "the run's name (default: the command's)" },
	{ OPT_WORKLOAD, "workload", 0, CLI_TEXT, "NAME", .help = "the workload it belongs to (default: the run name)" },
	{ OPT_LEVEL, "level", 0, CLI_INT, "1|2", .min = 1, .max = 2, .help = "measure level 2 too, where the CPU has it" },
	{ OPT_DRY_RUN, "dry-run", 0, CLI_FLAG, .help = "print the perf_event_attr of every event it would open, and exit" },
	{ OPT_SYSROOT, "sysroot", 0, CLI_DIR, "DIR", .help = "with --dry-run: read sysfs and /proc/cpuinfo under DIR" },
	{ OPT_SPE_SOURCE, "spe-source", 0, CLI_TEXT, "ID|FILE", .help = "link the run to the SPE capture loaded in DB" },
	{ .name = "db", .alias_of = "database" },
	{ 0 },
};
static const struct cli_command stat_command = {
	.name = "stat",
	.prog = "spe-topdown stat",
	.usage = stat_usage,
	.about = "Measure COMMAND's topdown fractions with the CPU's counters.",
	.options = stat_options,
	.operands = CLI_OPERANDS_LAST,
};

static const struct cli_command *const subcommands[] = { &decode_command, &import_command, &stat_command, NULL };

const struct cli_command cli_command_topdown = {
	.name = "topdown",
	.prog = "spe-topdown",
	.summary = "topdown metrics: decode PERF_METRICS, import perf/toplev output, measure a command",
	.about = "Topdown metrics beside the SPE rows: decode, import or measure (spe-topdown SUBCOMMAND --help).",
	.subcommands = subcommands,
};

/* "A" or "A,B": unsigned 64-bit numbers in C syntax. */
static int parse_pair(const char *arg, uint64_t v[2], int *n)
{
	const char *p = arg;
	*n = 0;
	while (*n < 2) {
		char *end;
		errno = 0;
		if (*p == '-' || *p == '\0')
			return -1;
		v[*n] = strtoull(p, &end, 0);
		if (errno || end == p)
			return -1;
		(*n)++;
		if (*end == '\0')
			return 0;
		if (*end != ',')
			return -1;
		p = end + 1;
	}
	return -1;
}

static int cmd_decode(int argc, char **argv)
{
	const struct cli_command *cmd = &decode_command;
	uint64_t slots[2], metrics[2];
	int nslots = 0, nmetrics = 0, level = 1, json = 0, strict = 0, c;
	struct cli_args a;
	cli_args_init(&a, cmd, argc, argv);
	while ((c = cli_args_next(&a)) > 0) {
		switch (c) {
		case OPT_SLOTS:
			if (parse_pair(a.value, slots, &nslots))
				return cli_usage_error(cmd, "--slots: '%s' is not A or A,B", a.value);
			break;
		case OPT_METRICS:
			if (parse_pair(a.value, metrics, &nmetrics))
				return cli_usage_error(cmd, "--metrics: '%s' is not M or M,N", a.value);
			break;
		case OPT_LEVEL: level = (int)a.number; break;
		case OPT_FORMAT: json = a.number == 1; break;
		case OPT_STRICT: strict = 1; break;
		}
	}
	if (c < 0)
		return a.status;
	if (a.optind != argc || !nslots || nslots != nmetrics)
		return cli_usage_error(cmd, "give --slots and --metrics, both with one value or both with two");

	/* Bytes PERF_METRICS cannot hold are warned about (refused with --strict); level 2 on a CPU without it is said. */
	struct td_pm_issue issues[8];
	int n_issues = nslots == 1 ? td_pm_check(0, 0, slots[0], metrics[0], 1, level, issues, 8)
				   : td_pm_check(slots[0], metrics[0], slots[1], metrics[1], 2, level, issues, 8);
	if (n_issues > 8)
		n_issues = 8;
	int refuse = 0;
	for (int i = 0; i < n_issues; i++) {
		int bad = issues[i].kind != TD_PM_NO_LEVEL2;
		if (issues[i].kind == TD_PM_NO_LEVEL2)
			level = 1;
		refuse |= strict && bad;
		fprintf(stderr, "%s decode: %s%s\n", prog, bad ? (strict ? "error: " : "warning: ") : "note: ", issues[i].msg);
	}
	if (refuse)
		return CLI_DATAERR;

	struct td_values v;
	int rc = nslots == 1 ? td_pm_decode(slots[0], metrics[0], level, &v)
			     : td_pm_region(slots[0], metrics[0], slots[1], metrics[1], level, &v);
	if (rc < 0) {
		fprintf(stderr, "%s decode: %s\n", prog,
			nslots == 1 ? "no slots, or every level 1 field is zero"
				    : "slots must grow between the two reads (no reset in between), and level 1 must not be all zero");
		return CLI_DATAERR;
	}
	const char *sep = "";
	if (json)
		printf("{");
	for (int k = 0; k < TD_NODE_COUNT; k++) {
		if (!v.set[k])
			continue;
		if (json)
			printf("%s\"%s\": %.4f", sep, td_node_name(k), v.frac[k]);
		else
			printf("%s=%.4f\n", td_node_name(k), v.frac[k]);
		sep = ", ";
	}
	if (json && n_issues) {
		printf("%s\"warnings\": [", sep);
		for (int i = 0; i < n_issues; i++) {
			printf("%s", i ? ", " : "");
			util_json_string(stdout, issues[i].msg);
		}
		printf("]");
	}
	if (json)
		printf("}\n");
	return cli_finish_stdout(prog, CLI_OK);
}

/* Imported text: a size and a line-length cap, and a FIFO or device refused rather than waited on. */
#define IMPORT_MAX_BYTES (256u << 20)
#define IMPORT_MAX_LINE (1u << 20)

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/*
 * The id of the SPE source (spe-load's source table) named by @p ref: its
 * id, its file as loaded, or that file's base name when only one matches.
 * 0 when none or several match (message in @p err).
 */
static int64_t find_spe_source(sqlite3 *db, const char *ref, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int64_t id = 0;
	int n = 0;
	if (ana_prepare(db,
			"SELECT id FROM source WHERE CAST(id AS TEXT) = ?1 OR file = ?1\n"
			"  OR substr(file, -length(?1) - 1) = '/' || ?1 ORDER BY id",
			&st, "reading the SPE sources", err, errlen) < 0)
		return 0;
	sqlite3_bind_text(st, 1, ref, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		n++;
	}
	sqlite3_finalize(st);
	if (n != 1)
		snprintf(err, errlen,
			 "--spe-source=%s: %s SPE source of that id or file (spe-query \"SELECT id, file FROM source\" lists them)",
			 ref, n ? "more than one" : "no");
	return n == 1 ? id : 0;
}

/*
 * Store @p runs in the database @p db_path, opened like spe-load --append
 * opens it: the same application_id and schema version check, and a new
 * file gets the whole spekit schema.  All runs go in one transaction, so a
 * failure stores none.  @p spe_source (may be NULL) links the runs to an SPE
 * capture loaded there.  Prints the error; returns an exit status.
 */
static int store_runs(const char *sub, const char *db_path, struct td_run *runs, size_t n, const char *spe_source,
		      int64_t *run_ids)
{
	char err[1024];
	struct spe_db *sdb;
	int rc = spe_db_open(db_path, SPE_DB_APPEND, &sdb, err, sizeof err);
	if (rc < 0) {
		fprintf(stderr, "%s %s: %s\n", prog, sub, err);
		return rc == -spe_invalid ? CLI_DATAERR : cli_exit_status(rc);
	}
	sqlite3 *db = spe_db_sqlite(sdb);
	/* a received file's topdown tables must be tables before rows go in (td_store_own) */
	if ((rc = td_store_own(db, "main", err, sizeof err)) < 0) {
		fprintf(stderr, "%s %s: %s: %s\n", prog, sub, db_path, err);
		spe_db_close(sdb);
		return cli_exit_status(rc);
	}
	int64_t spe_id = 0;
	if (spe_source && !(spe_id = find_spe_source(db, spe_source, err, sizeof err))) {
		fprintf(stderr, "%s %s: %s: %s\n", prog, sub, db_path, err);
		spe_db_close(sdb);
		return CLI_DATAERR;
	}
	rc = td_store_init(db, err, sizeof err);
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (spe_id)
			runs[i].spe_source_id = spe_id;
		rc = td_store_run(db, &runs[i], run_ids ? &run_ids[i] : NULL, err, sizeof err);
	}
	if (rc < 0) {
		fprintf(stderr, "%s %s: %s: %s\n", prog, sub, db_path, err);
		spe_db_close(sdb); /* closing without the commit rolls every run back */
		return cli_exit_status(rc);
	}
	if (spe_db_commit(sdb, err, sizeof err) < 0) {
		fprintf(stderr, "%s %s: %s\n", prog, sub, err);
		spe_db_close(sdb);
		return CLI_IOERR;
	}
	spe_db_close(sdb);
	return CLI_OK;
}

#define MAX_RUN_NAMES 64

/*
 * Names of the @p n runs of one input: the --run names when there is one per
 * run; with a single name or none, BASE when there is one run and BASE#1,
 * BASE#2, ... when there are several.  0, or -1 (message printed) when the
 * counts do not fit.
 */
static int name_runs(struct td_run *runs, size_t n, char **names, int n_names, const char *path,
		     const char *workload)
{
	if (n_names > 1 && (size_t)n_names != n) {
		fprintf(stderr, "%s import: %s holds %zu run%s but %d --run names were given (give one per run, or one "
				"to be numbered NAME#1, NAME#2, ...)\n",
			prog, path, n, n == 1 ? "" : "s", n_names);
		return -1;
	}
	const char *base = n_names == 1 ? names[0] : base_name(path);
	for (size_t i = 0; i < n; i++) {
		char name[512];
		if (n_names > 1)
			snprintf(name, sizeof name, "%s", names[i]);
		else if (n == 1)
			snprintf(name, sizeof name, "%s", base);
		else
			snprintf(name, sizeof name, "%s#%zu", base, i + 1);
		td_run_set(&runs[i].name, name);
		td_run_set(&runs[i].workload, workload ? workload : base);
	}
	return 0;
}

static int cmd_import(int argc, char **argv)
{
	const struct cli_command *cmd = &import_command;
	const char *db_path = NULL, *workload = NULL, *cpu = NULL, *host = NULL, *spe_source = NULL;
	char *run_names[MAX_RUN_NAMES];
	int n_names = 0, c;
	struct cli_args a;
	cli_args_init(&a, cmd, argc, argv);
	while ((c = cli_args_next(&a)) > 0) {
		switch (c) {
		case 'd': db_path = a.value; break;
		case OPT_RUN:
			if (n_names == MAX_RUN_NAMES)
				return cli_usage_error(cmd, "at most %d --run names", MAX_RUN_NAMES);
			run_names[n_names++] = (char *)a.value;
			break;
		case OPT_WORKLOAD: workload = a.value; break;
		case OPT_CPU_MODEL: cpu = a.value; break;
		case OPT_HOST: host = a.value; break;
		case OPT_SPE_SOURCE: spe_source = a.value; break;
		}
	}
	if (c < 0)
		return a.status;
	if (a.optind + 1 != argc)
		return cli_usage_error(cmd, "give one FILE");
	if (!db_path)
		db_path = CLI_DEFAULT_DB; /* as spe-load writes and spe-report reads without -d */
	const char *path = argv[a.optind];
	size_t len;
	char *text, err[1024];
	int rrc = spe_infile_read_text(path, IMPORT_MAX_BYTES, IMPORT_MAX_LINE, &text, &len, err, sizeof err);
	if (rrc < 0) {
		fprintf(stderr, "%s import: %s\n", prog, err);
		return rrc == -spe_bad_file ? CLI_DATAERR : rrc == -spe_nomem ? CLI_IOERR : CLI_NOINPUT;
	}
	/* SIGINT, SIGTERM, SIGHUP, SIGQUIT: nothing is stored after one; a store under way ends first (cli_signals.h) */
	cli_signals_install();
	signal(SIGXFSZ, SIG_IGN); /* past ulimit -f: EFBIG, rolled back like a full disk */

	struct td_import_result res;
	struct td_diag diag = { 0 }; /* the line and the problem */
	struct td_import_opts iopts = { .cpu = cpu };
	td_import_result_init(&res);
	int fmt = td_import_runs(text, len, &iopts, &res, &diag);
	free(text);
	for (size_t i = 0; i < res.n_notes; i++)
		fprintf(stderr, "%s import: %s: note: %s\n", prog, path, res.notes[i]);
	if (fmt < 0) {
		if (diag.line)
			fprintf(stderr, "%s import: %s:%ld: %s\n", prog, path, diag.line, diag.msg);
		else
			fprintf(stderr, "%s import: %s: %s\n", prog, path, diag.msg[0] ? diag.msg : spe_errstr(fmt));
		td_import_result_fini(&res);
		return cli_exit_status(fmt);
	}
	if (name_runs(res.runs, res.n_runs, run_names, n_names, path, workload) < 0) {
		td_import_result_fini(&res);
		return CLI_USAGE;
	}
	for (size_t i = 0; i < res.n_runs; i++) {
		td_run_set(&res.runs[i].host, host);
		td_run_set(&res.runs[i].source, path);
	}

	if (*cli_stop_flag()) {
		td_import_result_fini(&res);
		fprintf(stderr, "%s import: interrupted; %s left as it was\n", prog, db_path);
		return cli_stop_status();
	}
	int64_t *run_ids = calloc(res.n_runs, sizeof *run_ids);
	int status = run_ids ? store_runs("import", db_path, res.runs, res.n_runs, spe_source, run_ids) : CLI_IOERR;
	if (status == CLI_OK && *cli_stop_flag())
		fprintf(stderr, "%s import: a stop signal came while the runs were stored: they are stored\n", prog);
	for (size_t i = 0; status == CLI_OK && i < res.n_runs; i++) {
		const struct td_run *run = &res.runs[i];
		char where[32] = "";
		if (res.n_runs > 1)
			snprintf(where, sizeof where, " line %ld", res.first_line[i]);
		printf("run %lld: %s from %s%s (%s), %zu intervals, %zu values, isa %s, cpu %s, method %s%s\n",
		       (long long)run_ids[i], run->name, path, where, td_format_name(fmt), run->n_iv,
		       td_run_value_count(run), run->isa ? run->isa : "unknown", run->cpu ? run->cpu : "unknown",
		       run->method ? run->method : "unknown", run->approx ? " (approximation)" : "");
	}
	free(run_ids);
	td_import_result_fini(&res);
	return status == CLI_OK ? cli_finish_stdout(prog, CLI_OK) : status;
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void print_values(const struct td_interval *iv, FILE *out)
{
	fprintf(out, "%.3f-%.3f", iv->t0, iv->t1);
	for (int k = 0; k < TD_NODE_COUNT; k++)
		if (iv->values.set[k])
			fprintf(out, " %s=%.4f", td_node_name(k), iv->values.frac[k]);
	fprintf(out, "\n");
}

struct stat_opts {
	const char *db_path, *run_name, *workload, *sysroot, *spe_source;
	long interval_ms;
	int level, dry_run;
	char **command;
};

/* stat's options into @p o; 0, -1 after --help or --version, or the exit status of a usage error (printed). */
static int stat_parse(int argc, char **argv, struct stat_opts *o)
{
	const struct cli_command *cmd = &stat_command;
	*o = (struct stat_opts){ .level = 1 };
	struct cli_args a;
	int c;
	cli_args_init(&a, cmd, argc, argv);
	while ((c = cli_args_next(&a)) > 0) {
		switch (c) {
		case 'I': o->interval_ms = (long)a.number; break;
		case 'd': o->db_path = a.value; break;
		case OPT_RUN: o->run_name = a.value; break;
		case OPT_WORKLOAD: o->workload = a.value; break;
		case OPT_LEVEL: o->level = (int)a.number; break;
		case OPT_DRY_RUN: o->dry_run = 1; break;
		case OPT_SYSROOT: o->sysroot = a.value; break;
		case OPT_SPE_SOURCE: o->spe_source = a.value; break;
		}
	}
	if (c < 0)
		return a.status == CLI_OK ? -1 : a.status;
	if (a.optind >= argc)
		return cli_usage_error(cmd, "give the command to measure after --");
	o->command = argv + a.optind;
	/* a mistyped --sysroot read as an empty machine would be "not supported on this CPU" (69) */
	return o->sysroot ? cli_check_dir_option(cmd->prog, "--sysroot", o->sysroot) : 0;
}

/*
 * Count @p child (held before exec) from its exec to its exit, one interval
 * per -I period (or one for the whole run), printing each.  0 with the
 * child's wait status in *@p status, or the exit status of a failure (printed).
 */
static int stat_measure(const struct stat_opts *o, const struct td_probe *probe, struct util_child *child,
			struct td_run *run, int *status)
{
	char err[256] = "";
	struct td_session *s = NULL;
	int rc = td_session_open(probe, child->pid, 1, &s, err, sizeof err);
	if (rc < 0) {
		kill(child->pid, SIGKILL);
		util_child_discard(child);
		fprintf(stderr, "%s stat: %s\n", prog, err);
		return cli_exit_status(rc);
	}
	struct td_snapshot prev, cur;
	td_session_snapshot(s, &prev);
	double start = now_seconds(), t_prev = 0;
	int e = util_child_release(child);
	if (e) {
		td_session_close(s);
		fprintf(stderr, "%s stat: %s: %s\n", prog, o->command[0], strerror(e < 0 ? -e : e));
		util_child_discard(child);
		return e < 0 ? CLI_IOERR : 127; /* the command could not be run, as a shell reports it */
	}
	int done = 0, failed = 0;
	while (!done) {
		if (o->interval_ms) {
			struct timespec ts = { o->interval_ms / 1000, (o->interval_ms % 1000) * 1000000L };
			nanosleep(&ts, NULL);
			done = waitpid(child->pid, status, WNOHANG) == child->pid;
		} else {
			done = waitpid(child->pid, status, 0) == child->pid;
		}
		if (!o->interval_ms && !done)
			continue;
		double t = now_seconds() - start;
		struct td_interval *iv = NULL;
		if (td_session_snapshot(s, &cur) < 0 || !(iv = td_run_interval(run, t_prev, NULL))) {
			failed = 1;
			break;
		}
		iv->t1 = t;
		if (td_session_delta(s, &prev, &cur, iv) < 0)
			fprintf(stderr, "%s stat: interval %.3f-%.3f: %s\n", prog, t_prev, t, td_session_errmsg(s));
		else
			print_values(iv, stdout);
		prev = cur;
		t_prev = t;
	}
	if (done)
		child->pid = -1; /* reaped */
	if (failed)
		fprintf(stderr, "%s stat: %s\n", prog, td_session_errmsg(s)[0] ? td_session_errmsg(s) : "out of memory");
	td_session_close(s);
	return failed ? CLI_IOERR : 0;
}

/* What the run was: this host, its ISA (uname's machine), the tool and the names. */
static void stat_describe(const struct stat_opts *o, const struct td_probe *probe, struct td_run *run)
{
	struct utsname u;
	char host[256] = "";
	gethostname(host, sizeof host - 1);
	td_run_set(&run->tool, "spe-topdown");
	td_run_set(&run->method, probe->kind == TD_PMU_ARM ? probe->arm_cpu.method : "intel_perf_metrics");
	td_run_set(&run->isa, uname(&u) == 0 ? u.machine : "unknown");
	td_run_set(&run->cpu, probe->cpu);
	td_run_set(&run->host, host);
	td_run_set(&run->name, o->run_name ? o->run_name : base_name(o->command[0]));
	td_run_set(&run->workload, o->workload ? o->workload : base_name(o->command[0]));
	run->slots_per_cycle = probe->kind == TD_PMU_ARM ? probe->arm_cpu.slots : 0;
}

static int cmd_stat(int argc, char **argv)
{
	struct stat_opts o;
	int rc = stat_parse(argc, argv, &o);
	if (rc)
		return rc < 0 ? CLI_OK : rc; /* --help, --version: written and closed */

	struct td_probe probe;
	char err[256] = "";
	rc = td_probe(o.sysroot, o.level, &probe, err, sizeof err);
	if (rc < 0) {
		fprintf(stderr, "%s stat: %s\n", prog, err);
		return cli_exit_status(rc);
	}
	if (o.dry_run) {
		td_probe_print_attrs(&probe, stdout);
		return cli_finish_stdout(prog, CLI_OK);
	}
	if (o.sysroot) {
		fprintf(stderr, "%s stat: --sysroot describes another machine: use it with --dry-run\n", prog);
		return CLI_USAGE;
	}

	/* The child waits until the counters are attached, then execs. */
	struct util_child child;
	const char *what = "";
	int e = util_child_spawn(&child, o.command, &what);
	if (e < 0) {
		fprintf(stderr, "%s stat: %s: %s\n", prog, what, strerror(-e));
		return CLI_IOERR;
	}
	struct td_run run;
	td_run_init(&run);
	int status = 0;
	rc = stat_measure(&o, &probe, &child, &run, &status);
	util_child_discard(&child);
	if (rc) {
		td_run_fini(&run);
		return rc;
	}
	stat_describe(&o, &probe, &run);
	if (o.db_path && (rc = store_runs("stat", o.db_path, &run, 1, o.spe_source, NULL)) != CLI_OK) {
		td_run_fini(&run);
		return rc;
	}
	td_run_fini(&run);
	int exit = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	return cli_finish_stdout(prog, exit ? CLI_PARTIAL : CLI_OK);
}

int cmd_topdown(int argc, char **argv)
{
	const struct cli_command *cmd = &cli_command_topdown;
	const char *sub = argc < 2 ? NULL : argv[1];
	if (!sub)
		return cli_usage_error(cmd, "give a subcommand: decode, import or stat");
	const struct cli_command *s = cli_subcommand(cmd, sub);
	if (s == &decode_command)
		return cmd_decode(argc - 1, argv + 1);
	if (s == &import_command)
		return cmd_import(argc - 1, argv + 1);
	if (s == &stat_command)
		return cmd_stat(argc - 1, argv + 1);
	if (sub[0] == '-') { /* --help, --version, or an option before the subcommand */
		struct cli_args a;
		cli_args_init(&a, cmd, 2, argv);
		int c = cli_args_next(&a);
		return c < 0 ? a.status : cli_usage_error(cmd, "give a subcommand before the options: decode, import or stat");
	}
	const char *names[] = { "decode", "import", "stat" };
	const char *near = cli_nearest(sub, strlen(sub), names, 3);
	return cli_usage_error(cmd, "unknown subcommand '%s'%s%s%s", sub, near ? "; did you mean '" : "",
			       near ? near : "", near ? "'?" : "");
}
