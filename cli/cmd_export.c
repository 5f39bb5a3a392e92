/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe-export: a spekit database (or a recording, loaded on the fly) as a
 * pprof profile, folded stacks, or a BOLT / AutoFDO branch profile.  See
 * docs/spe-export.1.md.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "common/cli_args.h"
#include "common/cli_util.h"
#include "common/temp_db.h"
#include "spe/analysis.h"
#include "spe/export.h"
#include "spe/outfile.h"

static const char prog[] = "spe-export";

static void usage(FILE *out)
{
	fprintf(out,
		"usage: spe-export --format=FMT [-d DB | [--symfs=DIR] [--raw --midr=MIDR] FILE.data] [-o FILE]\n"
		"                  [--where=SQL-EXPR] [--source=ID] [--pid=PID] [--cpu=N] [FORMAT OPTIONS]\n"
		"  -f, --format=FMT      pprof (needs -o), folded, bolt or autofdo\n"
		"  -d, --database=DB     database to read (default ./spe.db)\n"
		"  -o, --output=FILE     where to write (text formats: default or '-' standard output)\n"
		"      --where=SQL-EXPR  only the records whose spe_sample row satisfies the expression\n"
		"      --source=ID, --pid=PID, --cpu=N   only the records of that source, process, CPU\n"
		"      --symfs=DIR       look for mapped binaries under DIR\n"
		"      --raw --midr=MIDR FILE is bare SPE bytes recorded on that CPU part\n"
		"  pprof:   --by=code|data               locations are the PCs (default) or the data objects\n"
		"  folded:  --weight=latency|samples     stack weight (default total latency)\n"
		"           --split=mem_level            a memory-level frame below the instruction\n"
		"  bolt, autofdo: --binary=PATH, --build-id=HEX   the binary to profile\n");
}

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
	if (rc == 0 && spe_outfile_cleanup_on_signals() == 0) {
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

static int parse_int(const char *opt, const char *s, int64_t lo, int64_t hi, int64_t *v)
{
	char *end;
	errno = 0;
	long long n = strtoll(s, &end, 0);
	if (errno || !*s || *end || n < lo || n > hi) {
		fprintf(stderr, "%s: --%s=%s: expected a number from %lld to %lld\n", prog, opt, s, (long long)lo,
			(long long)hi);
		return -1;
	}
	*v = n;
	return 0;
}

static int pick(const char *opt, const char *s, const char *const *names, int n, int *v)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s, names[i])) {
			*v = i;
			return 0;
		}
	fprintf(stderr, "%s: --%s=%s: use", prog, opt, s);
	for (int i = 0; i < n; i++)
		fprintf(stderr, "%s %s", i ? (i == n - 1 ? " or" : ",") : "", names[i]);
	fprintf(stderr, "\n");
	return -1;
}

static int exit_code(int rc)
{
	switch (-rc) {
	case spe_invalid: return CLI_USAGE;
	case spe_nomem:
	case spe_io: return CLI_IOERR;
	case spe_bad_file: return CLI_NOINPUT;
	default: return CLI_DATAERR;
	}
}

int cmd_export(int argc, char **argv);
int cmd_export(int argc, char **argv)
{
	enum { OPT_WHERE = 256, OPT_SOURCE, OPT_PID, OPT_CPU, OPT_SYMFS, OPT_RAW, OPT_MIDR, OPT_BY, OPT_WEIGHT,
	       OPT_SPLIT, OPT_BINARY, OPT_BUILD_ID };
	static const struct option options[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "database", required_argument, NULL, 'd' },
		{ "output", required_argument, NULL, 'o' },
		{ "where", required_argument, NULL, OPT_WHERE },
		{ "source", required_argument, NULL, OPT_SOURCE },
		{ "pid", required_argument, NULL, OPT_PID },
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		{ "raw", no_argument, NULL, OPT_RAW },
		{ "midr", required_argument, NULL, OPT_MIDR },
		{ "by", required_argument, NULL, OPT_BY },
		{ "weight", required_argument, NULL, OPT_WEIGHT },
		{ "split", required_argument, NULL, OPT_SPLIT },
		{ "binary", required_argument, NULL, OPT_BINARY },
		{ "build-id", required_argument, NULL, OPT_BUILD_ID },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const formats[] = { "pprof", "folded", "bolt", "autofdo" };
	static const char *const bys[] = { "code", "data" };
	static const char *const weights[] = { "latency", "samples" };
	static const char *const splits[] = { "mem_level" };
	struct spe_export_opts eo = { .source_id = SPE_EXPORT_ANY, .pid = SPE_EXPORT_ANY,
				      .cpu = SPE_EXPORT_ANY };
	const char *database = NULL, *output = NULL, *midr_arg = NULL;
	int format = -1, raw = 0, c, v, by_set = 0, weight_set = 0, split_set = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:d:o:h", options, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (pick("format", optarg, formats, 4, &format) < 0)
				return CLI_USAGE;
			break;
		case 'd': database = optarg; break;
		case 'o': output = optarg; break;
		case OPT_WHERE: eo.where = optarg; break;
		case OPT_SOURCE:
			if (parse_int("source", optarg, 1, INT64_MAX, &eo.source_id) < 0)
				return CLI_USAGE;
			break;
		case OPT_PID:
			if (parse_int("pid", optarg, 0, INT32_MAX, &eo.pid) < 0)
				return CLI_USAGE;
			break;
		case OPT_CPU:
			if (parse_int("cpu", optarg, 0, 4095, &eo.cpu) < 0)
				return CLI_USAGE;
			break;
		case OPT_SYMFS: eo.symfs = optarg; break;
		case OPT_RAW: raw = 1; break;
		case OPT_MIDR: midr_arg = optarg; break;
		case OPT_BY:
			if (pick("by", optarg, bys, 2, &v) < 0)
				return CLI_USAGE;
			eo.by = (enum spe_export_by)v;
			by_set = 1;
			break;
		case OPT_WEIGHT:
			if (pick("weight", optarg, weights, 2, &v) < 0)
				return CLI_USAGE;
			eo.weight = (enum spe_export_weight)v;
			weight_set = 1;
			break;
		case OPT_SPLIT:
			if (pick("split", optarg, splits, 1, &v) < 0)
				return CLI_USAGE;
			eo.split_mem_level = split_set = 1;
			break;
		case OPT_BINARY: eo.binary = optarg; break;
		case OPT_BUILD_ID: eo.build_id = optarg; break;
		case 'h': usage(stdout); return cli_finish_stdout(prog, CLI_OK);
		default: usage(stderr); return CLI_USAGE;
		}
	}
	int npos = argc - optind;
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
	if (problem) {
		fprintf(stderr, "%s: %s\n", prog, problem);
		usage(stderr);
		return CLI_USAGE;
	}
	int partial = 0; /* a recording read in part (cut short, decode errors): exit 1 once exported */
	struct cli_temp_load lo = { .symfs = eo.symfs, .raw = raw, .partial = &partial };
	if (midr_arg && cli_parse_midr(midr_arg, &lo.midr) < 0) {
		fprintf(stderr, "%s: --midr=%s: not a number or a known CPU part\n", prog, midr_arg);
		return CLI_USAGE;
	}
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
	const char *input = npos == 1 ? argv[optind] : database;
	if ((bad_dir = cli_refuse_output_is_input(prog, "-o", output, input)) ||
	    (bad_dir = cli_refuse_output_is_input(prog, "-o", output, eo.binary)))
		return bad_dir;
	/* the output is opened (and a bad -o refused) before any long load */
	struct out_file out;
	int status = out_open(&out, output, format == SPE_EXPORT_PPROF);
	if (status != CLI_OK)
		return status;

	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	char err[1024] = "";
	struct spe_db *db = NULL;
	if (npos == 1) {
		status = cli_temp_db_load(prog, argv[optind], &lo, &db);
	} else {
		if (spe_db_open(database, SPE_DB_READONLY, &db, err, sizeof err) < 0) {
			fprintf(stderr, "%s: %s\n", prog, err);
			status = access(database, F_OK) != 0 ? CLI_NOINPUT : CLI_DATAERR;
		}
	}
	struct spe_export_stats stats;
	if (status == CLI_OK) {
		int rc = spe_export(spe_db_sqlite(db), (enum spe_export_format)format, &eo, out.f, &stats, err,
				    sizeof err);
		if (rc < 0) {
			fprintf(stderr, "%s: %s\n", prog, err);
			status = exit_code(rc);
		} else if (stats.written == 0) {
			fprintf(stderr, "%s: no records to export (%llu passed the filters)\n", prog,
				(unsigned long long)stats.records);
			status = CLI_DATAERR;
		}
	}
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
		if (stats.no_dwarf)
			fprintf(stderr,
				"%s: warning: %llu locations lack DWARF for inline call sites or declaration lines "
				"(binaries not found? try --symfs)\n",
				prog, (unsigned long long)stats.no_dwarf);
	}
	return status == CLI_OK && partial ? CLI_PARTIAL : status;
}
