/* SPDX-License-Identifier: Apache-2.0 */
/* spe-load: perf.data (or raw SPE) files into a spekit SQLite database.  See docs/spe-load.1.md. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "common/cli_args.h"
#include "common/cli_options.h"
#include "common/cli_util.h"
#include "common/clickhouse_cli.h"
#include "common/load_status.h"
#include "common/kept_dirs.h"
#include "common/progress.h"
#include "common/temp_db.h"
#include "common/cli_signals.h"
#include "spe/analysis.h"
#include "spe/settings.h"
#include "spe/infile.h"

/*
 * What became of the database after a failed load, for the message: as it
 * was (it existed), made meanwhile by another process (this one lost the
 * race to create it, or its append to a missing file), or not created.
 */
static const char *outcome(const char *output, int existed)
{
	if (existed)
		return "left unchanged";
	return access(output, F_OK) == 0 ? "left as another process made it meanwhile" : "not created";
}

/* "spe-load: WHAT; DB left unchanged": the message, and the database it leaves, named. */
static void say_failure(const char *output, const char *err, int existed)
{
	fprintf(stderr, "spe-load: %s; %s %s\n", err, output, outcome(output, existed));
}

#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

enum {
	OPT_APPEND = CLI_ID(0),
	OPT_FORCE,
	OPT_SYMFS,
	OPT_KALLSYMS,
	OPT_NO_SYMBOLS,
	OPT_RAW,
	OPT_MIDR,
	OPT_RAW_CPU,
	OPT_JOBS,
	OPT_CLICKHOUSE,
	OPT_CLUSTER,
	OPT_REPLACE,
	OPT_LINE_BUDGET,
	OPT_PAGE_BUDGET,
	OPT_CLUSTER_HTTP,
	OPT_BUILDID_DIR,
	OPT_DEBUGINFOD,
	OPT_NO_DEBUGINFOD,
	OPT_JIT_MAPS,
	OPT_SOURCE_DIR,
	OPT_PROGRESS,
	OPT_NO_PROGRESS
};
#define MAX_SOURCE_DIRS 32 /* as spe-report's */
static const char *const usage[] = {
	"spe-load FILE... [-o DB] [--append | --replace | --force] [--symfs=DIR] [--source-dir=DIR]... [--kallsyms=FILE]",
	"         [--buildid-dir=DIR] [--debuginfod=URLS | --no-debuginfod] [--jit-maps=DIR] [--no-symbols]",
	"         [--line-budget=N] [--jobs=N] [--midr=MIDR|PART] [--raw [--raw-cpu=N]] [--[no-]progress]",
	"spe-load FILE... --clickhouse=URL [--cluster=NAME [--cluster-http=HOST:PORT,...]] [--replace] [options above]",
	NULL,
};

static const struct cli_option options[] = {
	{ 'i', "input", 'i', CLI_INPUT, "FILE", .help = "a file to load, as a FILE operand (repeatable; loaded first)",
	  .group = "Input" },
	{ OPT_RAW, "raw", 0, CLI_FLAG, .help = "FILEs are bare SPE bytes, not perf.data" },
	{ OPT_MIDR, "midr", 0, CLI_TEXT, "MIDR|PART", .values = cli_cpu_part_name,
	  .help = "the CPU: MIDR_EL1 value or part name; raw files need it, perf.data takes it for CPUs it names "
		  "no part for (a file cut short)" },
	{ OPT_RAW_CPU, "raw-cpu", 0, CLI_INT, "N", .min = 0, .max = SPE_AUX_MAX_CPUS - 1,
	  .help = "with --raw: the CPU number stored in the rows (default 0)" },
	{ 'o', "output", 'o', CLI_FILE, "DB", .help = "database to write (default ./spe.db, which spe-query reads)",
	  .group = "Output" },
	{ OPT_APPEND, "append", 0, CLI_FLAG,
	  .help = "add the files to an existing database (a file already in it is refused)" },
	{ OPT_REPLACE, "replace", 0, CLI_FLAG,
	  .help = "as --append, but a file already loaded is loaded again in its place" },
	{ OPT_FORCE, "force", 0, CLI_FLAG, .help = "replace an existing database (only once the load succeeded)" },
	{ OPT_CLICKHOUSE, "clickhouse", 0, CLI_TEXT, "URL",
	  .help = "load into ClickHouse instead, e.g. http://host:8123/?database=spe" },
	{ OPT_CLUSTER, "cluster", 0, CLI_TEXT, "NAME", .help = "with --clickhouse: tables on every shard of cluster NAME" },
	{ OPT_CLUSTER_HTTP, "cluster-http", 0, CLI_TEXT, "HOST:PORT,...",
	  .help = "with --cluster: the HTTP ports of the cluster's servers where not the URL's (:PORT for every server "
		  "not named)" },
	{ OPT_SYMFS, "symfs", 0, CLI_DIR, "DIR", .help = "look for mapped files under DIR (spe-report reuses it)", .group = "Symbols" },
	{ OPT_SOURCE_DIR, "source-dir", 0, CLI_DIR, "DIR",
	  .help = "where the source files are, kept for spe-report (repeatable; the load reads none)" },
	{ OPT_KALLSYMS, "kallsyms", 0, CLI_FILE, "FILE", .help = "resolve kernel PCs with a copy of the recorded kernel's /proc/kallsyms (any boot of it)" },
	{ OPT_BUILDID_DIR, "buildid-dir", 0, CLI_DIR, "DIR",
	  .help = "a perf build-id cache (an unpacked perf archive) searched before $PERF_BUILDID_DIR and ~/.debug" },
	{ OPT_DEBUGINFOD, "debuginfod", 0, CLI_TEXT, "URLS",
	  .help = "fetch missing files from these debuginfod servers (default: DEBUGINFOD_URLS'), each fetch given up "
		  "after DEBUGINFOD_TIMEOUT seconds (default " STRINGIFY(SPE_SYM_DEBUGINFOD_TIMEOUT) ") without a byte" },
	{ OPT_NO_DEBUGINFOD, "no-debuginfod", 0, CLI_FLAG, .help = "never ask a debuginfod server" },
	{ OPT_JIT_MAPS, "jit-maps", 0, CLI_DIR, "DIR",
	  .help = "JIT code's perf-PID.map and jit-PID.dump files from DIR, not /tmp and the recorded paths" },
	{ OPT_NO_SYMBOLS, "no-symbols", 0, CLI_FLAG, .help = "do not symbolize or disassemble" },
	{ OPT_LINE_BUDGET, "line-budget", 0, CLI_INT, "N", .min = 1, .max = 1 << 30,
	  .help = "written cache lines whose sharing counts a load keeps (default " STRINGIFY(SPE_LOAD_LINE_BUDGET) ")",
	  .group = "Resources" },
	{ OPT_PAGE_BUDGET, "page-budget", 0, CLI_INT, "N", .min = 1, .max = 1 << 30,
	  .help = "(process, 4 KiB page) pairs whose counts a load keeps (default " STRINGIFY(SPE_LOAD_PAGE_BUDGET)
		  "); past it the coldest are counted in their 2 MiB regions only",
	  .group = "Resources" },
	{ OPT_JOBS, "jobs", 0, CLI_INT, "N", .min = 1, .max = 256,
	  .help = "1: one thread; 2 (default with 2 CPUs): SQLite inserts on a writer thread, the end-of-load merge "
		  "beside them; more is 2" },
	CLI_PROGRESS_OPTIONS(OPT_PROGRESS, OPT_NO_PROGRESS),
	{ .name = "cpu", .alias_of = "raw-cpu" },
	{ 0 },
};

const struct cli_command cli_command_load = {
	.name = "load",
	.prog = "spe-load",
	.summary = "load perf.data (or raw SPE) files into a spekit database",
	.usage = usage,
	.options = options,
};

/* The load's options, for the hint print_counts adds (it is also ClickHouse's per-file callback). */
static const struct spe_load_opts *counted_opts;
/* The progress line of the file being loaded, erased before any other message. */
static struct cli_progress progress;
static enum cli_progress_mode progress_mode;

/* Progress for @p file from here on (ClickHouse's per-file callback too); NULL: the line erased, no more. */
static void progress_file(const char *file)
{
	cli_progress_clear(&progress);
	cli_progress_start(&progress, "spe-load", file, file ? progress_mode : CLI_PROGRESS_OFF);
}

static void print_counts(const char *file, const struct spe_load_counts *k)
{
	cli_progress_clear(&progress);
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
	if (k->files_mismatch)
		fprintf(stderr, ", %llu mapped file%s with another build-id (not used)",
			(unsigned long long)k->files_mismatch, k->files_mismatch == 1 ? "" : "s");
	if (k->jit_records)
		fprintf(stderr, "; %llu in JIT code, %llu of them without symbol", (unsigned long long)k->jit_records,
			(unsigned long long)k->jit_no_symbol);
	/* not one mapped sample symbolized, no file found: the binaries were not where the recording saw them */
	if (counted_opts && counted_opts->symbolize && k->no_symbol > k->jit_no_symbol &&
	    k->no_symbol + k->no_mapping >= k->records &&
	    !k->files_matched && !k->files_unrecorded && !k->files_mismatch)
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
	if (*k->kernel_symbols) /* where kernel PCs got their functions, or why none */
		fprintf(stderr, "spe-load: %s: %s\n", file, k->kernel_symbols);
	if (k->kernel_no_symbol) {
		fprintf(stderr, "spe-load: %s: kernel records without symbols: %llu", file,
			(unsigned long long)k->kernel_no_symbol);
		if (k->kernel_no_map)
			fprintf(stderr, " (%llu at addresses no kernel MMAP or KSYMBOL of the recording covers)",
				(unsigned long long)k->kernel_no_map);
		fputc('\n', stderr);
	}
	if (k->bpf_loads || k->bpf_unloads)
		fprintf(stderr, "spe-load: %s: BPF programs: %llu loaded, %llu unloaded while recording (KSYMBOL records "
			"name their code)\n", file, (unsigned long long)k->bpf_loads, (unsigned long long)k->bpf_unloads);
	for (const char *w = k->jit_what; *w;) { /* each JIT symbol file that could not be read whole, once */
		const char *nl = strchr(w, '\n');
		int n = nl ? (int)(nl - w) : (int)strlen(w);
		fprintf(stderr, "spe-load: %s: %.*s\n", file, n, w);
		w += n + (nl != NULL);
	}
	if (k->pages_unlisted)
		fprintf(stderr,
			"spe-load: %s: %llu pages (%llu records) past --page-budget are counted in their 2 MiB regions "
			"only (page_region_stat; no page_stat row)\n",
			file, (unsigned long long)k->pages_unlisted, (unsigned long long)k->unlisted_page_records);
	if (k->cut) /* what was cut: "FILE: offset 0x..: the file ends inside ..." */
		fprintf(stderr, "spe-load: %s\n", k->cut_what);
	if (k->files_unrecorded) /* perf record -z, or a writer that records no build-ids */
		fprintf(stderr,
			"spe-load: %s: %llu mapped file%s without a recorded build-id, taken by path (unverified: "
			"a file rebuilt since the recording would be named wrongly)\n",
			file, (unsigned long long)k->files_unrecorded, k->files_unrecorded == 1 ? "" : "s");
	cli_load_warn("spe-load", file, k);
}

/* A file whose build-id differs from the recording's: named once, with both ids (the resolver never uses it). */
static void on_binary(void *arg, const char *path, const char *build_id, const struct spe_sym_check *c)
{
	(void)arg;
	if (c->match == SPE_SYM_MISMATCH)
		cli_progress_clear(&progress);
	if (c->match == SPE_SYM_MISMATCH)
		fprintf(stderr, "spe-load: warning: %s: recorded with build-id %s, but %s has %s%s; not used\n", path,
			build_id, c->file, *c->file_build_id ? "build-id " : "no build-id", c->file_build_id);
}

/* A line per debuginfod fetch when stderr is a terminal (started, then finished); a time-out or failure always. */
static void on_fetch(void *arg, const struct spe_sym_fetch *f)
{
	(void)arg;
	static int tty = -1;
	if (tty < 0)
		tty = isatty(STDERR_FILENO);
	cli_progress_clear(&progress);
	if (!f->done) {
		if (tty)
			fprintf(stderr, "spe-load: debuginfod: %s of %s (build-id %s) ... ", f->what, f->path, f->build_id);
		fflush(stderr);
		return;
	}
	const char *url = f->url ? f->url : "no server answered";
	if (f->status == 0) {
		if (tty)
			fprintf(stderr, "fetched in %.1f s\n", f->seconds);
	} else if (f->status == -spe_not_found && !f->error) {
		if (tty)
			fprintf(stderr, "not found\n");
	} else if (f->status == -spe_cancelled) {
		if (tty)
			fprintf(stderr, "interrupted\n");
	} else {
		char why[160];
		if (f->timed_out)
			snprintf(why, sizeof why, "no byte within %d s (DEBUGINFOD_TIMEOUT; %s); no further fetches", f->timeout,
				 url);
		else
			snprintf(why, sizeof why, "%s", f->error ? strerror(f->error) : spe_errstr(f->status));
		if (tty)
			fprintf(stderr, "%s\n", why);
		else
			fprintf(stderr, "spe-load: debuginfod: %s of %s (build-id %s): %s\n", f->what, f->path, f->build_id,
				why);
	}
}

int cmd_load(int argc, char **argv);
/* Keep @p value for @p key sealed for this user (common/kept_dirs.h); a value kept unsealed is said once. */
static int keep_dir(sqlite3 *db, const char *key, const char *value, char *err, size_t errlen)
{
	int rc = cli_kept_dir_set(db, key, value, err, errlen);
	if (rc == 1) {
		fprintf(stderr, "spe-load: warning: %s\n", err);
		rc = 0;
	}
	return rc;
}

/*
 * --symfs and --source-dir kept in the database (spe/settings.h), absolute,
 * in the load's transaction, so spe-report finds the files without them
 * (the user's own: sealed, common/kept_dirs.h).  A load without them keeps
 * what an earlier load stored.
 */
static int remember_dirs(sqlite3 *db, const char *symfs, const char *const *dirs, int n, char *err, size_t errlen)
{
	int rc = 0;
	if (symfs) {
		char *abs = realpath(symfs, NULL);
		rc = abs ? keep_dir(db, SPE_SETTING_SYMFS, abs, err, errlen) : 0;
		free(abs);
	}
	if (rc == 0 && n) {
		size_t size = (size_t)n * (PATH_MAX + 1), len = 0;
		char *list = calloc(1, size);
		if (!list) {
			snprintf(err, errlen, "out of memory");
			return -spe_nomem;
		}
		for (int i = 0; i < n; i++) {
			char *abs = realpath(dirs[i], NULL);
			if (abs && !strchr(abs, '\n')) /* one per line: a name with a newline is not kept */
				len += (size_t)snprintf(list + len, size - len, "%s%s", len ? "\n" : "", abs);
			free(abs);
		}
		rc = keep_dir(db, SPE_SETTING_SOURCE_DIR, list, err, errlen);
		free(list);
	}
	return rc;
}

int cmd_load(int argc, char **argv)
{
	const struct cli_command *cmd = &cli_command_load;
	const char *output = NULL, *midr_arg = NULL;
	int append = 0, force = 0, raw = 0, cpu = 0;
	volatile sig_atomic_t *interrupted = cli_stop_flag(); /* SIGINT, SIGTERM, SIGHUP, SIGQUIT (cli_signals.h) */
	struct cli_ch_load_args ch = { .interrupted = interrupted, .loaded = print_counts };
	/* by default the SQLite inserts run on a second thread when a second CPU is online */
	struct spe_load_opts opts = {
				      .symbolize = 1,
				      .cancel = interrupted,
				      .jobs = sysconf(_SC_NPROCESSORS_ONLN) >= 2 ? 2 : 1,
				      .debuginfod = 1, /* when DEBUGINFOD_URLS names servers */
				      .on_fetch = on_fetch,
				      .on_binary = on_binary,
				      .on_progress = cli_progress_update,
				      .progress_arg = &progress };
	const char *debuginfod_urls = NULL;
	const char *source_dirs[MAX_SOURCE_DIRS];
	int nsource = 0;
	counted_opts = &opts;
	struct cli_args a;
	int c;
	cli_args_init(&a, cmd, argc, argv);
	while ((c = cli_args_next(&a)) > 0) {
		switch (c) {
		case 'o': output = a.value; break;
		case OPT_APPEND: append = 1; break;
		case OPT_FORCE: force = 1; break;
		case OPT_SYMFS: opts.symfs = a.value; break;
		case OPT_KALLSYMS: opts.kallsyms = a.value; break;
		case OPT_JIT_MAPS: opts.jit_maps = a.value; break;
		case OPT_NO_SYMBOLS: opts.symbolize = 0; break;
		case OPT_RAW: raw = 1; break;
		case OPT_MIDR: midr_arg = a.value; break;
		case OPT_RAW_CPU: cpu = (int)a.number; break;
		case OPT_JOBS: opts.jobs = (int)a.number; break; /* more than 2 is 2: the load has two stages (spe-load(1)) */
		case OPT_CLICKHOUSE: ch.url = a.value; break;
		case OPT_CLUSTER: ch.cluster = a.value; break;
		case OPT_CLUSTER_HTTP: ch.cluster_http = a.value; break;
		case OPT_REPLACE: ch.replace = 1; break;
		case OPT_LINE_BUDGET: opts.line_budget = (size_t)a.number; break;
		case OPT_PAGE_BUDGET: opts.page_budget = (size_t)a.number; break;
		case OPT_BUILDID_DIR: opts.buildid_dir = a.value; break;
		case OPT_DEBUGINFOD: debuginfod_urls = a.value, opts.debuginfod = 1; break;
		case OPT_NO_DEBUGINFOD: opts.debuginfod = 0; break;
		case OPT_SOURCE_DIR:
			if (nsource == MAX_SOURCE_DIRS)
				return cli_usage_error(cmd, "at most %d --source-dir options", MAX_SOURCE_DIRS);
			source_dirs[nsource++] = a.value;
			break;
		case OPT_PROGRESS: progress_mode = CLI_PROGRESS_ON; break;
		case OPT_NO_PROGRESS: progress_mode = CLI_PROGRESS_OFF; break;
		}
	}
	if (c < 0)
		return a.status;
	int first = a.optind; /* the FILEs: argv[first .. argc) */
	const char *ch_misuse = ch.url && (output || append || force) ? "--clickhouse replaces -o, --append and --force"
				: ch.url && nsource ? "--source-dir is kept in a SQLite database, not with --clickhouse"
				: !ch.url && ch.cluster ? "--cluster goes with --clickhouse"
				: !ch.cluster && ch.cluster_http ? "--cluster-http goes with --cluster"
										       : NULL;
	if (!output && !ch.url)
		output = CLI_DEFAULT_DB; /* the database spe-query, spe-report and spe-export read by default */
	if (first >= argc || ((append || ch.replace) && force) || ch_misuse)
		return cli_usage_error(cmd, "%s",
				       ch_misuse	       ? ch_misuse
				       : first >= argc ? "no input file"
						       : "--append and --replace exclude --force");
	uint32_t midr = 0;
	if (midr_arg && cli_parse_midr(midr_arg, &midr) < 0)
		return cli_usage_error(cmd, "--midr=%s: not a number or a known CPU part", midr_arg);
	if (!raw)
		opts.midr = midr;

	if (opts.symfs && (c = cli_check_dir_option("spe-load", "--symfs", opts.symfs)))
		return c;
	if (opts.jit_maps && (c = cli_check_dir_option("spe-load", "--jit-maps", opts.jit_maps)))
		return c;
	if (opts.buildid_dir && (c = cli_check_dir_option("spe-load", "--buildid-dir", opts.buildid_dir)))
		return c;
	for (int i = 0; i < nsource; i++)
		if ((c = cli_check_dir_option("spe-load", "--source-dir", source_dirs[i])))
			return c;
	if (debuginfod_urls && opts.debuginfod) {
		if (!*debuginfod_urls)
			return cli_usage_error(cmd, "--debuginfod=: no server given");
		/* the client takes its servers from the environment only (elfutils debuginfod.h) */
		if (setenv("DEBUGINFOD_URLS", debuginfod_urls, 1) != 0) {
			fprintf(stderr, "spe-load: --debuginfod: %s\n", strerror(errno));
			return CLI_IOERR;
		}
	}
	/* Every input before the output is touched: regular files (a FIFO is refused, not waited on). */
	char err[1024] = "";
	for (int i = first; i < argc; i++)
		if ((c = cli_refuse_stdin_input("spe-load", argv[i])) ||
		    (c = raw ? cli_refuse_raw_input("spe-load", argv[i], "drop --raw")
			     : cli_refuse_database_input("spe-load", argv[i],
							 "spe-load reads perf.data (or raw SPE with --raw); query a "
							 "database with spe-query -d DB")))
			return c;
	if ((c = cli_refuse_repeated_input("spe-load", argv + first, argc - first)))
		return c;
	for (int i = first; i <= argc; i++) /* the FILEs, then --kallsyms */
		if ((c = cli_refuse_output_is_input("spe-load", "-o", output, i < argc ? argv[i] : opts.kallsyms)))
			return c;
	for (int i = first; i <= argc; i++) {
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

	cli_signals_install();
	/* Past a file-size limit (ulimit -f), let the write fail with EFBIG like a full disk: rolled back, reported. */
	signal(SIGXFSZ, SIG_IGN);
	if (ch.url) {
		ch.raw = raw, ch.midr = midr, ch.cpu = cpu, ch.opts = &opts, ch.loading = progress_file;
		int st = cli_ch_load(&ch, argv + first, argc - first);
		cli_progress_clear(&progress);
		return st;
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
	struct spe_load_counts *counts = calloc((size_t)(argc - first), sizeof *counts);
	if (!counts) {
		snprintf(err, sizeof err, "out of memory");
		rc = -spe_nomem;
	}
	for (int i = first; i < argc && rc == 0; i++) {
		struct spe_load_counts *k = &counts[i - first];
		progress_file(argv[i]);
		rc = raw ? spe_load_raw_file(db, argv[i], midr, cpu, &opts, k, err, sizeof err)
			 : spe_load_perf_file(db, argv[i], &opts, k, err, sizeof err);
		if (cli_load_is_partial(k))
			status = CLI_PARTIAL;
	}
	cli_progress_clear(&progress);
	if (rc == 0 && *interrupted)
		rc = -spe_cancelled;
	if (rc == 0)
		rc = remember_dirs(spe_db_sqlite(db), opts.symfs, source_dirs, nsource, err, sizeof err);
	int lost_race = 0; /* CREATE: another process made the database meanwhile */
	if (rc == 0)
		lost_race = (rc = spe_db_commit(db, err, sizeof err)) == -spe_invalid;
	if (rc < 0) {
		free(counts);
		spe_db_close(db); /* rolls back: the database is as it was */
		if (rc == -spe_cancelled || *interrupted) {
			fprintf(stderr, "spe-load: interrupted; %s %s\n", output, outcome(output, existed));
			return cli_stop_status(); /* 128 + the signal */
		}
		say_failure(output, err, existed);
		return lost_race ? CLI_USAGE : rc == -spe_nomem || rc == -spe_io ? CLI_IOERR : CLI_DATAERR;
	}
	spe_db_close(db);
	/* Only now that the database is in place: what each file gave. */
	for (int i = first; i < argc; i++)
		print_counts(argv[i], &counts[i - first]);
	free(counts);
	return status;
}
