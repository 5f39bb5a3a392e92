/* SPDX-License-Identifier: Apache-2.0 */
/* spe-load: perf.data (or raw SPE) files into a spekit SQLite database.  See docs/spe-load.1.md. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "common/cli_args.h"
#include "common/cli_util.h"
#include "common/clickhouse_cli.h"
#include "common/temp_db.h"
#include "spe/analysis.h"
#include "spe/infile.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: spe-load FILE... [-o DB] [--append | --replace | --force] [--symfs=DIR] [--kallsyms=FILE]\n"
		"                [--jit-maps=DIR] [--no-symbols] [--line-budget=N] [--jobs=N] [--midr=MIDR|PART]\n"
		"                [--raw [--cpu=N]]\n"
		"       spe-load FILE... --clickhouse=URL [--cluster=NAME [--cluster-http=HOST:PORT,...]] [--replace]\n"
		"                [options above]\n"
		"  -o, --output=DB       database to write (default ./spe.db, which spe-query reads)\n"
		"      --clickhouse=URL  load into ClickHouse instead, e.g. http://host:8123/?database=spe\n"
		"      --cluster=NAME    with --clickhouse: tables on every shard of cluster NAME\n"
		"      --cluster-http=HOST:PORT,...  the HTTP ports of the cluster's servers where not the URL's\n"
		"                        (:PORT for every server not named)\n"
		"      --append          add the files to an existing database (a file already in it is refused)\n"
		"      --replace         as --append, but a file already loaded is loaded again in its place\n"
		"      --force           replace an existing database (only once the load succeeded)\n"
		"      --symfs=DIR       look for mapped files under DIR\n"
		"      --kallsyms=FILE   resolve kernel PCs with a copy of /proc/kallsyms\n"
		"      --jit-maps=DIR    JIT code's perf-PID.map and jit-PID.dump files from DIR, not /tmp and\n"
		"                        the recorded paths\n"
		"      --no-symbols      do not symbolize or disassemble\n"
		"      --line-budget=N   written cache lines whose sharing counts a load keeps (default %d)\n"
		"      --jobs=N          1: one thread; 2 (default with 2 CPUs): SQLite inserts on a writer thread,\n"
		"                        the end-of-load merge beside them\n"
		"      --raw             FILEs are bare SPE bytes, not perf.data\n"
		"      --midr=MIDR       the CPU: MIDR_EL1 value or part name (neoverse-n1); raw files need it,\n"
		"                        perf.data takes it for CPUs it names no part for (a file cut short)\n"
		"      --cpu=N           CPU number recorded for raw files (default 0)\n",
		SPE_LOAD_LINE_BUDGET);
}

/* The load's options, for the hint print_counts adds (it is also ClickHouse's per-file callback). */
static const struct spe_load_opts *counted_opts;

static void print_counts(const char *file, const struct spe_load_counts *k)
{
	fprintf(stderr,
		"spe-load: %s: %llu records; %llu bad bytes, %llu partial records, %llu lost, "
		"%llu without mapping, %llu without symbol",
		file, (unsigned long long)k->records, (unsigned long long)k->bad_bytes,
		(unsigned long long)k->partial_records, (unsigned long long)k->lost_aux,
		(unsigned long long)k->no_mapping, (unsigned long long)k->no_symbol);
	if (k->dropped_extras)
		fprintf(stderr, ", %llu extra counters/addresses dropped (more than %d in a record)",
			(unsigned long long)k->dropped_extras, SPE_REC_MAX_EXTRA);
	if (k->cut)
		fprintf(stderr, "; the file is cut short at offset 0x%llx, %llu bytes missing (the records before are loaded)",
			(unsigned long long)k->cut_offset, (unsigned long long)k->cut_bytes);
	if (k->jit_records)
		fprintf(stderr, "; %llu in JIT code, %llu of them without symbol", (unsigned long long)k->jit_records,
			(unsigned long long)k->jit_no_symbol);
	/* not one mapped sample symbolized: the binaries were not where the recording saw them */
	if (counted_opts && counted_opts->symbolize && k->no_symbol > k->jit_no_symbol &&
	    k->no_symbol + k->no_mapping >= k->records)
		fprintf(stderr, " (no binary found: %s)",
			counted_opts->symfs ? "is --symfs the root they are under?"
					    : "give --symfs=DIR, the root they are under");
	fputc('\n', stderr);
	if (k->no_pid)
		fprintf(stderr,
			"spe-load: %s: %llu records of unknown processes: no CONTEXT packet, switch record or COMM names "
			"their thread, so their user PCs stay unresolved (record with perf 5.19 or later without "
			"--no-switch-events; CONTEXT packets need CONFIG_PID_IN_CONTEXTIDR and a privileged recorder)\n",
			file, (unsigned long long)k->no_pid);
	if (k->kernel_no_symbol)
		fprintf(stderr, "spe-load: %s: kernel records without symbols: %llu%s\n", file,
			(unsigned long long)k->kernel_no_symbol,
			counted_opts && counted_opts->kallsyms ? " (not in --kallsyms)"
							       : "; give --kallsyms=FILE, a copy of the recorded machine's /proc/kallsyms");
	for (const char *w = k->jit_what; *w;) { /* each JIT symbol file that could not be read whole, once */
		const char *nl = strchr(w, '\n');
		int n = nl ? (int)(nl - w) : (int)strlen(w);
		fprintf(stderr, "spe-load: %s: %.*s\n", file, n, w);
		w += n + (nl != NULL);
	}
	if (k->cut) /* what was cut: "FILE: offset 0x..: the file ends inside ..." */
		fprintf(stderr, "spe-load: %s\n", k->cut_what);
}

int cmd_load(int argc, char **argv);
int cmd_load(int argc, char **argv)
{
	enum {
		OPT_APPEND = 256,
		OPT_FORCE,
		OPT_SYMFS,
		OPT_KALLSYMS,
		OPT_NO_SYMBOLS,
		OPT_RAW,
		OPT_MIDR,
		OPT_CPU,
		OPT_JOBS,
		OPT_CLICKHOUSE,
		OPT_CLUSTER,
		OPT_REPLACE,
		OPT_LINE_BUDGET,
		OPT_CLUSTER_HTTP,
		OPT_JIT_MAPS
	};
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "append", no_argument, NULL, OPT_APPEND },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
		{ "jit-maps", required_argument, NULL, OPT_JIT_MAPS },
		{ "no-symbols", no_argument, NULL, OPT_NO_SYMBOLS },
		{ "raw", no_argument, NULL, OPT_RAW },
		{ "midr", required_argument, NULL, OPT_MIDR },
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "jobs", required_argument, NULL, OPT_JOBS },
		{ "clickhouse", required_argument, NULL, OPT_CLICKHOUSE },
		{ "cluster", required_argument, NULL, OPT_CLUSTER },
		{ "cluster-http", required_argument, NULL, OPT_CLUSTER_HTTP },
		{ "replace", no_argument, NULL, OPT_REPLACE },
		{ "line-budget", required_argument, NULL, OPT_LINE_BUDGET },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL, *midr_arg = NULL;
	int append = 0, force = 0, raw = 0, cpu = 0;
	struct cli_ch_load_args ch = { .interrupted = &interrupted, .loaded = print_counts };
	/* by default the SQLite inserts run on a second thread when a second CPU is online */
	struct spe_load_opts opts = { .size = sizeof opts,
				      .symbolize = 1,
				      .cancel = &interrupted,
				      .jobs = sysconf(_SC_NPROCESSORS_ONLN) >= 2 ? 2 : 1 };
	counted_opts = &opts;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", options, NULL)) != -1) {
		switch (c) {
		case 'o': output = optarg; break;
		case OPT_APPEND: append = 1; break;
		case OPT_FORCE: force = 1; break;
		case OPT_SYMFS: opts.symfs = optarg; break;
		case OPT_KALLSYMS: opts.kallsyms = optarg; break;
		case OPT_JIT_MAPS: opts.jit_maps = optarg; break;
		case OPT_NO_SYMBOLS: opts.symbolize = 0; break;
		case OPT_RAW: raw = 1; break;
		case OPT_MIDR: midr_arg = optarg; break;
		case OPT_CPU: {
			char *end;
			long v = strtol(optarg, &end, 10);
			if (!*optarg || *end || v < 0 || v >= SPE_AUX_MAX_CPUS) {
				fprintf(stderr, "spe-load: --cpu=%s: expected a CPU number 0-%d\n", optarg, SPE_AUX_MAX_CPUS - 1);
				return CLI_USAGE;
			}
			cpu = (int)v;
			break;
		}
		case OPT_JOBS: {
			char *end;
			long v = strtol(optarg, &end, 10);
			if (!*optarg || *end || v < 1 || v > 256) {
				fprintf(stderr, "spe-load: --jobs=%s: expected a number of threads 1-256\n", optarg);
				return CLI_USAGE;
			}
			opts.jobs = (int)v; /* more than 2 is 2: the load has two stages (spe-load(1)) */
			break;
		}
		case OPT_CLICKHOUSE: ch.url = optarg; break;
		case OPT_CLUSTER: ch.cluster = optarg; break;
		case OPT_CLUSTER_HTTP: ch.cluster_http = optarg; break;
		case OPT_REPLACE: ch.replace = 1; break;
		case OPT_LINE_BUDGET: {
			char *end;
			long long v = strtoll(optarg, &end, 10);
			if (!*optarg || *end || v < 1 || v > 1LL << 30) {
				fprintf(stderr, "spe-load: --line-budget=%s: expected a number of lines 1-%lld\n", optarg,
					1LL << 30);
				return CLI_USAGE;
			}
			opts.line_budget = (size_t)v;
			break;
		}
		case 'h': usage(stdout); return cli_finish_stdout("spe-load", CLI_OK);
		default: usage(stderr); return CLI_USAGE;
		}
	}
	const char *ch_misuse = ch.url && (output || append || force) ? "--clickhouse replaces -o, --append and --force"
				: !ch.url && ch.cluster ? "--cluster goes with --clickhouse"
				: !ch.cluster && ch.cluster_http ? "--cluster-http goes with --cluster"
										       : NULL;
	if (!output && !ch.url)
		output = CLI_DEFAULT_DB; /* the database spe-query, spe-report and spe-export read by default */
	if (optind >= argc || ((append || ch.replace) && force) || ch_misuse) {
		fprintf(stderr, "spe-load: %s\n",
			ch_misuse ? ch_misuse
			: optind >= argc ? "no input file"
					  : "--append and --replace exclude --force");
		usage(stderr);
		return CLI_USAGE;
	}
	uint32_t midr = 0;
	if (midr_arg && cli_parse_midr(midr_arg, &midr) < 0) {
		fprintf(stderr, "spe-load: --midr=%s: not a number or a known CPU part\n", midr_arg);
		return CLI_USAGE;
	}
	if (!raw)
		opts.midr = midr;

	if (opts.symfs && (c = cli_check_dir_option("spe-load", "--symfs", opts.symfs)))
		return c;
	if (opts.jit_maps && (c = cli_check_dir_option("spe-load", "--jit-maps", opts.jit_maps)))
		return c;
	/* Every input before the output is touched: regular files (a FIFO is refused, not waited on). */
	char err[1024] = "";
	for (int i = optind; i < argc; i++)
		if ((c = cli_refuse_stdin_input("spe-load", argv[i])) ||
		    (c = raw ? cli_refuse_raw_input("spe-load", argv[i], "drop --raw")
			     : cli_refuse_database_input("spe-load", argv[i],
							 "spe-load reads perf.data (or raw SPE with --raw); query a "
							 "database with spe-query -d DB")))
			return c;
	if ((c = cli_refuse_repeated_input("spe-load", argv + optind, argc - optind)))
		return c;
	for (int i = optind; i <= argc; i++) /* the FILEs, then --kallsyms */
		if ((c = cli_refuse_output_is_input("spe-load", "-o", output, i < argc ? argv[i] : opts.kallsyms)))
			return c;
	for (int i = optind; i <= argc; i++) {
		const char *in = i < argc ? argv[i] : opts.kallsyms;
		int fd = in ? spe_infile_open(in, err, sizeof err) : 0;
		if (fd < 0) {
			fprintf(stderr, "spe-load: %s%s\n", i < argc ? "" : "--kallsyms: ", err);
			return CLI_NOINPUT;
		}
		if (in)
			close(fd);
	}

	/*
	 * Before SQLite initialises: no per-allocation statistics; no mutexes with
	 * one thread, and with two the mode where a connection may move between
	 * threads (never used by two at once: the writer thread has it during
	 * the load, this one before and after).
	 */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	sqlite3_config(opts.jobs >= 2 ? SQLITE_CONFIG_MULTITHREAD : SQLITE_CONFIG_SINGLETHREAD);

	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* Past a file-size limit (ulimit -f), let the write fail with EFBIG like a full disk: rolled back, reported. */
	signal(SIGXFSZ, SIG_IGN);
	if (ch.url) {
		ch.raw = raw, ch.midr = midr, ch.cpu = cpu, ch.opts = &opts;
		return cli_ch_load(&ch, argv + optind, argc - optind);
	}

	struct spe_db *db;
	enum spe_db_mode mode = append || ch.replace ? SPE_DB_APPEND : force ? SPE_DB_FORCE : SPE_DB_CREATE;
	int existed = access(output, F_OK) == 0;
	int rc = spe_db_open(output, mode, &db, err, sizeof err);
	if (rc < 0) {
		fprintf(stderr, "spe-load: %s\n", err);
		return rc == -spe_invalid ? CLI_USAGE : rc == -spe_io ? CLI_IOERR : CLI_DATAERR;
	}
	spe_db_set_replace(db, ch.replace);
	int status = CLI_OK;
	struct spe_load_counts *counts = calloc((size_t)(argc - optind), sizeof *counts);
	if (!counts) {
		snprintf(err, sizeof err, "out of memory");
		rc = -spe_nomem;
	}
	for (int i = optind; i < argc && rc == 0; i++) {
		struct spe_load_counts *k = &counts[i - optind];
		rc = raw ? spe_load_raw_file(db, argv[i], midr, cpu, &opts, k, err, sizeof err)
			 : spe_load_perf_file(db, argv[i], &opts, k, err, sizeof err);
		if (cli_load_is_partial(k))
			status = CLI_PARTIAL;
	}
	if (rc == 0 && interrupted)
		rc = -spe_cancelled;
	int lost_race = 0; /* CREATE: another process made the database meanwhile */
	if (rc == 0)
		lost_race = (rc = spe_db_commit(db, err, sizeof err)) == -spe_invalid;
	if (rc < 0) {
		free(counts);
		spe_db_close(db); /* rolls back: the database is as it was */
		if (rc == -spe_cancelled) {
			fprintf(stderr, "spe-load: interrupted; %s %s\n", output, existed ? "left unchanged" : "not created");
			return cli_exit_status(rc);
		}
		fprintf(stderr, "spe-load: %s; %s %s\n", err, output, existed ? "left unchanged" : "not created");
		return lost_race ? CLI_USAGE : rc == -spe_nomem || rc == -spe_io ? CLI_IOERR : CLI_DATAERR;
	}
	spe_db_close(db);
	/* Only now that the database is in place: what each file gave. */
	for (int i = optind; i < argc; i++)
		print_counts(argv[i], &counts[i - optind]);
	free(counts);
	return status;
}
