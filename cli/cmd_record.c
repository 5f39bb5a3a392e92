/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe-record: compile arm_spe filters for a target, record SPE traces
 * (live, or --replay of raw bytes), into perf.data.
 *
 * Options come from two tables: the filter-term table of libspe_filters
 * (--load-filter, --load_filter, --min-latency=10, ...) and record_options
 * below (cli/common/cli_options.h) for everything else.  To add an option,
 * add a row, a handler and its case in handler(); recording modes add a row
 * to the mode switch in cmd_record().  The recording itself is
 * cli/common/record_run.c.
 */
#include "common/cli_args.h"
#include "common/cli_options.h"
#include "common/cli_util.h"
#include "common/doctor_print.h"
#include "common/record_run.h"
#include "spe/doctor.h"
#include "spe/filters.h"
#include "spe/spe.h"
#include "util/json.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "spe-record"
#define LIVE_SYSFS "/sys/bus/event_source/devices"

enum record_mode { MODE_RECORD, MODE_DRY_RUN, MODE_LIST_FILTERS, MODE_CHECK, MODE_HELP };
enum out_format { OUT_TEXT, OUT_JSON };

struct record_ctx {
	enum record_mode mode;
	enum out_format format;
	const char *sysfs, *cpu_model;
	const char *root; /* --check --root=DIR */
	unsigned kernel;
	bool have_pmsidr, have_pmsver, have_valid_events;
	uint64_t pmsidr, valid_events;
	unsigned pmsver;
	int paranoid; /* -1: not given */
	bool privileged;
	bool have_cpus;
	struct spe_cpuset cpus;
	struct spe_filter_request req;
	char **command; /* after "--": the workload (for the recorder) */
	int command_argc;
	const char *cpus_text;      /* -C as given */
	const char *cpu_number;     /* --cpu=N: with --replay the old spelling of --raw-cpu=N */
	struct record_run_opts run; /* recording options (-o, -m, -a, -p, --replay, ...) */
	bool have_live_target;      /* -a, -p or a command */
};

/* Each option's handler gets the context and the option as parsed (value, number). */
typedef int (*opt_handler)(struct record_ctx *ctx, const struct cli_args *a);

extern const struct cli_command cli_command_record;

/* "spe-record: MESSAGE (see spe-record --help)", exit 64. */
#define usage_error(...) cli_usage_error(&cli_command_record, __VA_ARGS__)

static bool parse_u64(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	if (!s || !*s || *s == '-')
		return false;
	*out = strtoull(s, &end, 0);
	return !errno && !*end;
}

/* --dry-run, --list-filters and --check each replace recording: only one of them. */
static int set_mode(struct record_ctx *c, enum record_mode mode)
{
	if (c->mode == MODE_DRY_RUN || c->mode == MODE_LIST_FILTERS || c->mode == MODE_CHECK) {
		if (c->mode != mode)
			return usage_error("--dry-run, --list-filters and --check exclude each other: give one");
		return 0;
	}
	c->mode = mode;
	return 0;
}
static int opt_dry_run(struct record_ctx *c, const struct cli_args *a)
{
	(void)a;
	return set_mode(c, MODE_DRY_RUN);
}
static int opt_list(struct record_ctx *c, const struct cli_args *a)
{
	(void)a;
	return set_mode(c, MODE_LIST_FILTERS);
}
static int opt_check(struct record_ctx *c, const struct cli_args *a)
{
	(void)a;
	return set_mode(c, MODE_CHECK);
}
static int opt_root(struct record_ctx *c, const struct cli_args *a)
{
	c->root = a->value;
	return 0;
}
static int opt_format(struct record_ctx *c, const struct cli_args *a)
{
	c->format = a->number ? OUT_JSON : OUT_TEXT; /* the table's choices: text, json */
	return 0;
}
static int opt_sysfs(struct record_ctx *c, const struct cli_args *a)
{
	c->sysfs = a->value;
	return 0;
}
static int opt_cpu_model(struct record_ctx *c, const struct cli_args *a)
{
	c->cpu_model = a->value;
	return 0;
}
static int opt_kernel(struct record_ctx *c, const struct cli_args *a)
{
	const char *v = a->value;
	if (!(c->kernel = spe_kernel_parse(v)))
		return usage_error("--kernel=%s: expected a release like 6.8", v);
	if (c->kernel < SPE_KERNEL_OLDEST)
		return usage_error("--kernel=%s: no Linux release before 4.15 has the arm_spe_pmu driver", v);
	return 0;
}
static int opt_pmsidr(struct record_ctx *c, const struct cli_args *a)
{
	if (!parse_u64(a->value, &c->pmsidr))
		return usage_error("--pmsidr=%s: expected a number", a->value);
	c->have_pmsidr = true;
	return 0;
}
static int opt_pmsver(struct record_ctx *c, const struct cli_args *a)
{
	c->pmsver = (unsigned)a->number; /* 1 (SPEv1.0) to 6 (SPEv1.5): the table's range */
	c->have_pmsver = true;
	return 0;
}
static int opt_valid_events(struct record_ctx *c, const struct cli_args *a)
{
	if (!parse_u64(a->value, &c->valid_events))
		return usage_error("--valid-events=%s: expected a mask", a->value);
	c->have_valid_events = true;
	return 0;
}
static int opt_paranoid(struct record_ctx *c, const struct cli_args *a)
{
	c->paranoid = (int)a->number; /* -1 to 4: the table's range */
	return 0;
}
static int opt_privileged(struct record_ctx *c, const struct cli_args *a)
{
	(void)a;
	c->privileged = true;
	return 0;
}
static int opt_strict(struct record_ctx *c, const struct cli_args *a)
{
	(void)a;
	c->req.strict = true;
	return 0;
}
static int opt_event(struct record_ctx *c, const struct cli_args *a)
{
	spe_filter_parse_terms(&c->req, a->value); /* errors stay in req.diags */
	return 0;
}
/* -c, --count (perf record's name; --period is the old spelling) */
static int opt_period(struct record_ctx *c, const struct cli_args *a)
{
	c->req.period = (uint64_t)a->number;
	c->req.period_set = true;
	return 0;
}
static int opt_freq(struct record_ctx *c, const struct cli_args *a)
{
	c->req.freq = (uint64_t)a->number;
	c->req.freq_set = true;
	return 0;
}
/* -t, --type: the operations perf mem -t names, as the filter terms that keep them */
static int opt_type(struct record_ctx *c, const struct cli_args *a)
{
	for (const char *p = a->value;; p++) {
		size_t n = strcspn(p, ",");
		if (n == 4 && !strncmp(p, "load", 4))
			spe_filter_set_term(&c->req, "load_filter", NULL);
		else if (n == 5 && !strncmp(p, "store", 5))
			spe_filter_set_term(&c->req, "store_filter", NULL);
		else
			return usage_error("--type=%s: expected load, store or load,store", a->value);
		p += n;
		if (!*p)
			return 0;
	}
}
/* --ldlat=N: min_latency=N, as perf mem and perf c2c spell it */
static int opt_ldlat(struct record_ctx *c, const struct cli_args *a)
{
	spe_filter_set_term(&c->req, "min_latency", a->value); /* errors stay in req.diags */
	return 0;
}
/*
 * -C, --cpu=LIST.  Before --cpu named the CPU list (perf's name) it named a
 * CPU model, and with --replay a CPU number: a value that starts with no
 * digit is still a model (--cpu-model), and a single number is also kept
 * for --replay (--raw-cpu).
 */
static int opt_cpus(struct record_ctx *c, const struct cli_args *a)
{
	const char *v = a->value;
	int long_cpu = !strcmp(a->spelling, "--cpu");
	if (long_cpu && !isdigit((unsigned char)v[0])) {
		c->cpu_model = v;
		return 0;
	}
	size_t off;
	if (spe_cpuset_parse(v, &c->cpus, &off)) {
		fprintf(stderr, PROG ": --cpu=%s: offset %zu: expected a CPU list like 0-3,8\n", v, off);
		return CLI_USAGE;
	}
	c->cpus_text = v;
	c->have_cpus = true;
	if (long_cpu && v[strspn(v, "0123456789")] == 0)
		c->cpu_number = v;
	return 0;
}
static int opt_exclude_user(struct record_ctx *c, const struct cli_args *a)
{
	(void)a;
	c->req.exclude_user = true;
	return 0;
}
static int opt_exclude_kernel(struct record_ctx *c, const struct cli_args *a)
{
	(void)a;
	c->req.exclude_kernel = true;
	return 0;
}

/* Recording options (cli/common/record_run.c does the work). */
static int opt_output(struct record_ctx *c, const struct cli_args *a)
{
	c->run.output = a->value;
	return 0;
}
static int opt_mmap_pages(struct record_ctx *c, const struct cli_args *a)
{
	if (a->number & (a->number - 1))
		return usage_error("--mmap-pages=%s: expected a power of two of at least 2 AUX pages", a->value);
	c->run.aux_pages = (uint32_t)a->number;
	return 0;
}
static int opt_all_cpus(struct record_ctx *c, const struct cli_args *a)
{
	(void)a;
	c->run.system_wide = 1;
	c->have_live_target = true;
	return 0;
}
static int opt_pid(struct record_ctx *c, const struct cli_args *a)
{
	c->run.pid = (pid_t)a->number;
	c->have_live_target = true;
	return 0;
}
static int opt_duration(struct record_ctx *c, const struct cli_args *a)
{
	char *end;
	const char *v = a->value;
	double d = strtod(v, &end);
	if (!*v || *end || !(d > 0) || d > 1e9)
		return usage_error("--duration=%s: expected seconds, e.g. 10 or 0.5", v);
	c->run.duration = d;
	return 0;
}
static int opt_replay(struct record_ctx *c, const struct cli_args *a)
{
	c->run.replay = a->value;
	return 0;
}
static int opt_aux_size(struct record_ctx *c, const struct cli_args *a)
{
	if (cli_parse_size(a->value, &c->run.aux_size))
		return usage_error("--aux-size=%s: expected bytes, e.g. 65536 or 64K", a->value);
	return 0;
}
static int opt_replay_burst(struct record_ctx *c, const struct cli_args *a)
{
	if (cli_parse_size(a->value, &c->run.replay_burst) || !c->run.replay_burst)
		return usage_error("--replay-burst=%s: expected bytes, e.g. 4096 or 4K", a->value);
	return 0;
}
static int opt_midr(struct record_ctx *c, const struct cli_args *a)
{
	uint32_t midr;
	if (cli_parse_midr(a->value, &midr))
		return usage_error("--midr=%s: expected a 32-bit MIDR_EL1 value like 0x410fd0c0 or a CPU profile name",
				   a->value);
	c->run.midr = midr;
	c->run.have_midr = 1;
	return 0;
}
static int opt_raw_cpu(struct record_ctx *c, const struct cli_args *a)
{
	c->run.have_replay_cpu = 1;
	c->run.replay_cpu = (uint32_t)a->number;
	return 0;
}
static int opt_sideband_only(struct record_ctx *c, const struct cli_args *a)
{
	(void)a;
	c->run.sideband_only = 1;
	return 0;
}

enum {
	OPT_DRY_RUN = CLI_ID(0),
	OPT_LIST_FILTERS,
	OPT_CHECK,
	OPT_ROOT,
	OPT_FORMAT,
	OPT_LDLAT,
	OPT_EXCLUDE_USER,
	OPT_EXCLUDE_KERNEL,
	OPT_STRICT,
	OPT_SYSFS,
	OPT_CPU_MODEL,
	OPT_PMSIDR,
	OPT_PMSVER,
	OPT_VALID_EVENTS,
	OPT_KERNEL,
	OPT_PARANOID,
	OPT_PRIVILEGED,
	OPT_DURATION,
	OPT_SIDEBAND_ONLY,
	OPT_REPLAY,
	OPT_AUX_SIZE,
	OPT_REPLAY_BURST,
	OPT_MIDR,
	OPT_RAW_CPU,
};

static const char *const formats[] = { "text", "json", NULL };

/* The i-th CPU profile --cpu-model takes (filters/src/profile.c), NULL after the last. */
static const char *profile_name(unsigned i)
{
	return i < spe_profile_count() ? spe_profile_name(i) : NULL;
}

/* The i-th filter term (snake_case), NULL after the last: the other long names, for "did you mean". */
static const char *term_name(unsigned i)
{
	return i < SPE_TERM_COUNT ? spe_term_info((enum spe_term)i)->name : NULL;
}

static const struct cli_option record_options[] = {
	{ OPT_DRY_RUN, "dry-run", 0, CLI_FLAG, .help = "print the attr and register image; open nothing", .group = "Modes" },
	{ OPT_LIST_FILTERS, "list-filters", 0, CLI_FLAG,
	  .help = "list every filter term and whether the target supports it" },
	{ OPT_CHECK, "check", 0, CLI_FLAG,
	  .help = "check whether this recording can work here (spe doctor's checklist)" },
	{ OPT_ROOT, "root", 0, CLI_DIR, "DIR", .help = "with --check: a captured tree of a system's files, not this one" },
	{ OPT_FORMAT, "format", 0, CLI_CHOICE, .choices = formats,
	  .help = "output format of --dry-run, --list-filters and --check" },
	{ 'e', "event", 'e', CLI_TEXT, "EVENT", .help = "perf event string: arm_spe/term=v,.../ or arm_spe_N/.../[uk]",
	  .group = "Sampling" },
	{ 'c', "count", 'c', CLI_INT, "N", .min = 0, .max = INT64_MAX,
	  .help = "sample period in operations (default: caps/min_interval)" },
	{ 'F', "freq", 'F', CLI_INT, "N", .min = 0, .max = INT64_MAX, .help = "frequency mode (refused by the driver: EINVAL)" },
	{ 't', "type", 't', CLI_TEXT, "load|store", .help = "only loads, only stores, or load,store (as perf mem -t): "
							    "--load-filter, --store-filter" },
	{ OPT_LDLAT, "ldlat", 0, CLI_TEXT, "N",
	  .help = "only operations of at least N cycles: --min-latency=N, as perf mem and perf c2c name it" },
	{ OPT_EXCLUDE_USER, "exclude-user", 0, CLI_FLAG, .help = "do not sample EL0 (attr.exclude_user)" },
	{ OPT_EXCLUDE_KERNEL, "exclude-kernel", 0, CLI_FLAG, .help = "do not sample EL1 (attr.exclude_kernel)" },
	{ OPT_STRICT, "strict", 0, CLI_FLAG, .help = "turn the warnings of the strict checks into errors" },
	{ OPT_SYSFS, "sysfs", 0, CLI_DIR, "DIR", .help = "a PMU directory or a directory of arm_spe_N PMUs",
	  .group = "Target (of --dry-run, --list-filters)" },
	{ OPT_CPU_MODEL, "cpu-model", 0, CLI_TEXT, "MODEL", .values = profile_name,
	  .help = "a CPU profile; with --replay, the part whose MIDR the trace gets" },
	{ OPT_PMSIDR, "pmsidr", 0, CLI_TEXT, "VALUE", .help = "raw PMSIDR_EL1 (with --pmsver)" },
	{ OPT_PMSVER, "pmsver", 0, CLI_INT, "N", .min = 1, .max = 6,
	  .help = "ID_AA64DFR0_EL1.PMSVer: 1 is SPEv1.0, 6 is SPEv1.5" },
	{ OPT_VALID_EVENTS, "valid-events", 0, CLI_TEXT, "MASK", .help = "caps/event_filter for --pmsidr targets" },
	{ OPT_KERNEL, "kernel", 0, CLI_TEXT, "X.Y", .help = "kernel release whose driver rules apply" },
	{ OPT_PARANOID, "paranoid", 0, CLI_INT, "N", .min = -1, .max = 4,
	  .help = "perf_event_paranoid of a --cpu-model/--sysfs target (default 2)" },
	{ OPT_PRIVILEGED, "privileged", 0, CLI_FLAG, .help = "the caller has CAP_PERFMON" },
	{ 'o', "output", 'o', CLI_FILE, "FILE", .help = "the perf.data to write (default perf.data)", .group = "Recording" },
	{ 'm', "mmap-pages", 'm', CLI_INT, "PAGES", .min = 2, .max = CLI_RECORD_MAX_PAGES,
	  .help = "AUX area pages per CPU, a power of two (default 4 MiB)" },
	{ 'a', "all-cpus", 'a', CLI_FLAG, .help = "every CPU of the PMU (the default without -p or a command)" },
	{ 'C', "cpu", 'C', CLI_TEXT, "LIST",
	  .help = "only these CPUs, e.g. 0-3,8; picks the arm_spe_N PMU that covers them" },
	{ 'p', "pid", 'p', CLI_INT, "PID", .min = 1, .max = INT32_MAX,
	  .help = "that process (and children it starts), on every CPU" },
	{ OPT_DURATION, "duration", 0, CLI_TEXT, "SECONDS", .help = "stop after this long" },
	{ OPT_SIDEBAND_ONLY, "sideband-only", 0, CLI_FLAG,
	  .help = "record only MMAP2/COMM/FORK/EXIT/SWITCH (no SPE; diagnostics)" },
	{ OPT_REPLAY, "replay", 0, CLI_FILE, "FILE", .help = "replay a raw SPE file or a replay manifest into perf.data",
	  .group = "Replay" },
	{ OPT_AUX_SIZE, "aux-size", 0, CLI_TEXT, "BYTES",
	  .help = "simulated AUX area per CPU (power of two; default 4M)" },
	{ OPT_REPLAY_BURST, "replay-burst", 0, CLI_TEXT, "BYTES",
	  .help = "bytes written between wakeups (default aux-size/2)" },
	{ OPT_MIDR, "midr", 0, CLI_TEXT, "MIDR|PART", .values = cli_cpu_part_name,
	  .help = "MIDR_EL1 of the traced CPU(s), or their part" },
	{ OPT_RAW_CPU, "raw-cpu", 0, CLI_INT, "N", .min = 0, .max = (1 << 20) - 1,
	  .help = "a raw file's CPU number, in its AUXTRACE records (default 0)" },
	{ .name = "cpus", .alias_of = "cpu" },
	{ .name = "period", .alias_of = "count" },
	{ .name = "cpu", .arg = "MODEL", .alias_of = "cpu-model", .note = "a value that is no CPU list" },
	{ .name = "cpu", .arg = "N", .alias_of = "raw-cpu", .note = "with --replay" },
	{ 0 },
};

static void print_terms(FILE *out);

static const char *const usage[] = {
	PROG " [FILTERS] [-c N] [-m PAGES] [-o FILE] [--duration=S] [-a | -C LIST | -p PID | -- COMMAND...]",
	PROG " --replay=FILE [-o FILE] [--aux-size=BYTES] [--raw-cpu=N] [--cpu-model=MODEL] [--midr=MIDR|PART]",
	PROG " --dry-run [options] [--sysfs=DIR | --cpu-model=MODEL | --pmsidr=V --pmsver=N]",
	PROG " --list-filters [--sysfs=DIR | --cpu-model=MODEL | ...]",
	PROG " --check [--root=DIR] [-a | -C LIST | -p PID | -- COMMAND...] [-m PAGES]",
	NULL,
};

const struct cli_command cli_command_record = {
	.name = "record",
	.prog = PROG,
	.summary = "record SPE traces into perf.data (or replay raw ones); check filters for a target",
	.usage = usage,
	.options = record_options,
	.footer = "exit: 0 accepted/recorded, 1 replay interrupted, 64 usage or --strict, 65 bad manifest,\n"
		  "      66 input missing, 69 no SPE or unsupported on the target, 74 I/O error, 77 needs\n"
		  "      privilege; a launched command's own status.  man spe-record has the messages.",
	.operands = CLI_OPERANDS_AFTER_DASHDASH,
	.operand_hint = "(a workload goes after --)",
	.pass_unknown = 1,
	.more_names = term_name,
	.epilogue = print_terms,
};

/* After the options in --help: the filter terms of libspe_filters' table. */
static void print_terms(FILE *out)
{
	fprintf(out, "\nfilter terms (--TERM, with - or _ between words, or inside -e arm_spe/term=v/):\n");
	for (int t = 0; t < SPE_TERM_COUNT; t++) {
		const struct spe_term_info *ti = spe_term_info(t);
		char left[48];
		snprintf(left, sizeof left, "--%s%s", ti->name, ti->kind == SPE_TERM_FLAG ? "" : "=V");
		for (char *p = left + 2; *p; p++)
			if (*p == '_')
				*p = '-';
		fprintf(out, "  %-30s %s\n", left, ti->help);
	}
}

static opt_handler handler(int id)
{
	switch (id) {
	case OPT_DRY_RUN: return opt_dry_run;
	case OPT_LIST_FILTERS: return opt_list;
	case OPT_CHECK: return opt_check;
	case OPT_ROOT: return opt_root;
	case OPT_FORMAT: return opt_format;
	case 'e': return opt_event;
	case 'c': return opt_period;
	case 'F': return opt_freq;
	case 't': return opt_type;
	case OPT_LDLAT: return opt_ldlat;
	case OPT_EXCLUDE_USER: return opt_exclude_user;
	case OPT_EXCLUDE_KERNEL: return opt_exclude_kernel;
	case OPT_STRICT: return opt_strict;
	case OPT_SYSFS: return opt_sysfs;
	case OPT_CPU_MODEL: return opt_cpu_model;
	case OPT_PMSIDR: return opt_pmsidr;
	case OPT_PMSVER: return opt_pmsver;
	case OPT_VALID_EVENTS: return opt_valid_events;
	case OPT_KERNEL: return opt_kernel;
	case OPT_PARANOID: return opt_paranoid;
	case OPT_PRIVILEGED: return opt_privileged;
	case 'o': return opt_output;
	case 'm': return opt_mmap_pages;
	case 'a': return opt_all_cpus;
	case 'C': return opt_cpus;
	case 'p': return opt_pid;
	case OPT_DURATION: return opt_duration;
	case OPT_SIDEBAND_ONLY: return opt_sideband_only;
	case OPT_REPLAY: return opt_replay;
	case OPT_AUX_SIZE: return opt_aux_size;
	case OPT_REPLAY_BURST: return opt_replay_burst;
	case OPT_MIDR: return opt_midr;
	case OPT_RAW_CPU: return opt_raw_cpu;
	default: return NULL;
	}
}

/*
 * The options into @p c: 0, or the exit status (a usage error printed; or
 * --help or --version printed, c->mode MODE_HELP).  An unknown --NAME[=V]
 * is a filter term (errors collected in req.diags) or a usage error.
 */
static int parse_args(struct record_ctx *c, int argc, char **argv)
{
	struct cli_args a;
	int id;
	cli_args_init(&a, &cli_command_record, argc, argv);
	while ((id = cli_args_next(&a)) > 0) {
		if (id == CLI_ID_UNKNOWN) {
			const char *name = a.spelling + 2;
			if (spe_term_lookup(name, strlen(name)) < 0)
				return cli_args_unknown(&a);
			spe_filter_set_term(&c->req, name, a.value);
			continue;
		}
		opt_handler h = handler(id);
		int rc = h ? h(c, &a) : CLI_USAGE;
		if (rc)
			return rc;
	}
	if (id < 0) {
		if (a.status != CLI_USAGE)
			c->mode = MODE_HELP;
		return a.status;
	}
	if (a.dashdash) {
		c->command = argv + a.optind;
		c->command_argc = argc - a.optind;
	}
	/* --cpu=N with --replay: the CPU number of the raw file, as it was before --raw-cpu */
	if (c->run.replay && c->cpu_number && !c->run.have_replay_cpu) {
		c->run.have_replay_cpu = 1;
		c->run.replay_cpu = (uint32_t)strtoul(c->cpu_number, NULL, 10);
		c->have_cpus = false;
		c->cpus_text = NULL;
	}
	return 0;
}

/* The PMU of a sysfs tree (--sysfs, or the live one) that covers the requested CPUs. */
static int load_sysfs_target(struct record_ctx *c, struct spe_target *t)
{
	static struct spe_system sys; /* large: keep off the stack */
	char err[512];
	bool live = !c->sysfs;
	if (spe_system_load_sysfs(live ? LIVE_SYSFS : c->sysfs, c->kernel, live, &sys, err, sizeof err)) {
		fprintf(stderr, PROG ": %s\n", err);
		if (live && c->mode != MODE_RECORD)
			fprintf(stderr, PROG ": no arm_spe PMU here; name a target with --cpu-model=MODEL or --sysfs=DIR\n");
		return live ? CLI_UNAVAILABLE : CLI_NOINPUT;
	}
	int pick = spe_system_pick(&sys, c->have_cpus ? &c->cpus : NULL, c->req.pmu, err, sizeof err);
	if (pick < 0) {
		fprintf(stderr, PROG ": %s\n", err);
		return CLI_USAGE;
	}
	if (sys.warning[0])
		fprintf(stderr, PROG ": warning: %s\n", sys.warning);
	*t = sys.pmu[pick];
	if (c->have_pmsver) {
		t->pmsver = c->pmsver;
		t->pmsver_is_lower_bound = false;
	}
	return 0;
}

/* Build the target from --sysfs / --cpu-model / --pmsidr, or the live system. */
static int load_target(struct record_ctx *c, struct spe_target *t)
{
	char err[512];
	if (!!c->sysfs + !!c->cpu_model + !!c->have_pmsidr > 1)
		return usage_error("--sysfs, --cpu-model and --pmsidr each name a target: give one");
	if (c->have_pmsidr && !c->have_pmsver)
		return usage_error("--pmsidr needs --pmsver");
	if (c->cpu_model && (c->have_pmsver || c->have_valid_events))
		return usage_error("--cpu-model=%s sets the SPE version and events itself", c->cpu_model);
	if (c->cpu_model) {
		if (spe_target_from_profile(c->cpu_model, c->kernel, t, err, sizeof err)) {
			fprintf(stderr, PROG ": --cpu-model: %s\n", err);
			return CLI_USAGE;
		}
	} else if (c->have_pmsidr) {
		spe_target_from_regs(c->pmsidr, c->pmsver, c->kernel, t);
		if (c->have_valid_events) {
			t->evf_valid = c->valid_events;
			t->evf_probed = true;
		}
	} else {
		int rc = load_sysfs_target(c, t);
		if (rc)
			return rc;
	}
	/* For a profile or registers, -e arm_spe_N/.../ names the instance in messages. */
	if (t->origin != SPE_TARGET_SYSFS && !strncmp(c->req.pmu, "arm_spe_", 8))
		snprintf(t->pmu, sizeof t->pmu, "%s", c->req.pmu);
	if (c->paranoid != -2)
		t->paranoid = c->paranoid;
	if (c->privileged)
		t->privileged = true;
	return 0;
}

static const char *exit_class_name(enum spe_diag_class cls)
{
	return cls == SPE_DIAG_STRICT ? "error (--strict)" : "error";
}

static void print_diags(const struct spe_filter_diags *d)
{
	for (unsigned i = 0; i < d->count; i++)
		fprintf(stderr, PROG ": %s: %s [%s]\n", d->d[i].error ? exit_class_name(d->d[i].cls) : "warning",
			d->d[i].text, spe_filter_msg_id(d->d[i].msg));
	if (d->dropped)
		fprintf(stderr, PROG ": %u more messages not shown\n", d->dropped);
}

/*
 * A mistyped term or value is the user's to fix wherever the command runs:
 * say so (exit 64) before anything looks at the machine, which on a host
 * without SPE would answer 69 and hide the typo.  Only the syntax errors
 * the parse collected; what the target refuses comes with the compile.
 */
static int refuse_filter_usage(const struct spe_filter_diags *d)
{
	unsigned n = 0;
	for (unsigned i = 0; i < d->count; i++)
		if (d->d[i].error && d->d[i].cls == SPE_DIAG_USAGE) {
			fprintf(stderr, PROG ": error: %s [%s]\n", d->d[i].text, spe_filter_msg_id(d->d[i].msg));
			n++;
		}
	if (!n)
		return 0;
	if (d->dropped)
		fprintf(stderr, PROG ": %u more messages not shown\n", d->dropped);
	fprintf(stderr, PROG ": see " PROG " --list-filters --cpu-model=MODEL for the terms and their values\n");
	return CLI_USAGE;
}

static void print_dry_run(const struct spe_target *t, const struct spe_filter_result *r, enum out_format fmt)
{
	static const char *const reg_names[SPE_REG_COUNT] = {
#define SPE_X(id, name) [SPE_REG_##id] = name,
		SPE_REG_LIST(SPE_X)
#undef SPE_X
	};
	const struct spe_attr_image *a = &r->attr;
	bool json = fmt == OUT_JSON;
	const char *sep = json ? "," : "\n";
	char type[16];
	snprintf(type, sizeof type, "%d", a->type);
	printf(json ? "{\"pmu\":\"%s\",\"type\":%s,\"size\":%u" : "pmu=%s\ntype=%s\nsize=%u", t->pmu,
	       a->type < 0 ? (json ? "null" : "unknown") : type, a->size);
	for (unsigned w = 0; w < SPE_CONFIG_WORDS; w++) {
		char name[16];
		snprintf(name, sizeof name, w ? "config%u" : "config", w);
		printf(json ? "%s\"%s\":\"0x%016llx\"" : "%s%s=0x%016llx", sep, name, (unsigned long long)a->config[w]);
	}
	printf(json ? ",\"sample_period\":%llu,\"exclude_user\":%d,\"exclude_kernel\":%d"
		    : "\nsample_period=%llu\nexclude_user=%d\nexclude_kernel=%d",
	       (unsigned long long)a->sample_period, a->exclude_user, a->exclude_kernel);
	for (unsigned i = 0; i < SPE_REG_COUNT; i++)
		printf(json ? "%s\"%s\":\"0x%016llx\"" : "%s%s=0x%016llx", sep, reg_names[i],
		       (unsigned long long)r->reg[i]);
	printf(json ? "}\n" : "\n");
}

static void print_list(const struct spe_target *t, enum out_format fmt)
{
	char who[160];
	spe_target_describe(t, who, sizeof who);
	/* What the default event samples (compile falls back to user space like perf record). */
	bool kernel = spe_target_may_sample_kernel(t);
	char have[96], samples[160];
	snprintf(samples, sizeof samples, "%s: kernel samples are excluded",
		 spe_target_privilege_text(t, have, sizeof have));
	if (fmt == OUT_TEXT) {
		printf("# %s\n# samples: %s\n%-20s %-22s %-14s %s\n", who,
		       kernel ? "user space and kernel" : samples, "TERM", "OPTION", "FIELD", "SUPPORTED");
	} else {
		printf("{\"target\":");
		util_json_string(stdout, who);
		printf(",\"kernel_samples\":%s,\"reason\":", kernel ? "true" : "false");
		if (kernel)
			printf("null");
		else
			util_json_string(stdout, samples);
		printf("}\n");
	}
	for (int i = 0; i < SPE_TERM_COUNT; i++) {
		const struct spe_term_info *ti = spe_term_info(i);
		char why[320] = "", priv[256] = "", option[48], field[24];
		bool ok = spe_term_supported(t, i, why, sizeof why);
		bool needs_priv = ok && spe_term_needs_privilege(t, i, priv, sizeof priv);
		snprintf(option, sizeof option, "--%s", ti->name);
		for (char *p = option + 2; *p; p++)
			if (*p == '_')
				*p = '-';
		struct spe_format_field f = t->field[i];
		if (!f.present)
			f = (struct spe_format_field){ false, ti->word, ti->lo, ti->hi };
		char word[8] = "";
		if (f.word)
			snprintf(word, sizeof word, "%u", f.word);
		if (f.lo == f.hi)
			snprintf(field, sizeof field, "config%s:%u", word, f.lo);
		else
			snprintf(field, sizeof field, "config%s:%u-%u", word, f.lo, f.hi);
		if (fmt == OUT_TEXT) {
			printf("%-20s %-22s %-14s %s%s%s\n", ti->name, option, field,
			       !ok ? "no" : needs_priv ? "yes, if privileged" : "yes", ok && !needs_priv ? "" : ": ",
			       ok ? priv : why);
		} else {
			printf("{\"term\":\"%s\",\"option\":\"%s\",\"field\":\"%s\",\"feature\":\"%s\",\"supported\":%s,"
			       "\"reason\":",
			       ti->name, option, field, spe_feature_name(ti->feature), ok ? "true" : "false");
			if (ok)
				printf("null");
			else
				util_json_string(stdout, why);
			printf(",\"needs_privilege\":");
			if (needs_priv)
				util_json_string(stdout, priv);
			else
				printf("null");
			printf("}\n");
		}
	}
}

/* --replay: --cpu-model is a profile name whose MIDR the trace gets. */
static int run_replay(struct record_ctx *c)
{
	if (c->have_live_target || c->cpus_text || c->run.aux_pages || c->run.sideband_only || c->run.duration > 0)
		return usage_error("--replay takes no live options (-a, -p, -C, -m, --duration, --sideband-only, "
				   "a command)");
	if (c->cpu_model) {
		uint32_t midr;
		if (!spe_cpu_by_name(c->cpu_model) || cli_parse_midr(c->cpu_model, &midr) != 0)
			return usage_error("--cpu-model=%s: expected a CPU profile name", c->cpu_model);
		if (!c->run.have_midr) {
			c->run.midr = midr;
			c->run.have_midr = 1;
		}
	}
	int bad = cli_refuse_raw_input("spe-record", c->run.replay,
				       "--replay takes a manifest or raw SPE bytes; spe-dump and spe-load read a "
				       "perf.data as it is");
	return bad ? bad : cli_record_run_replay(&c->run);
}

/* Which CPUs or task a live recording covers. */
static int check_live_options(struct record_ctx *c)
{
	int targets = !!c->run.system_wide + !!c->run.pid + !!c->command + !!c->cpus_text;
	if (targets > 1 && !(c->cpus_text && (c->command || c->run.pid)))
		return usage_error("-a, -C, -p and a command each choose what to record: give one "
				   "(-C may narrow -p or a command)");
	if (c->command && c->command_argc == 0)
		return usage_error("'--' must be followed by a command");
	if (c->cpu_model || c->sysfs || c->have_pmsidr)
		return usage_error("--cpu-model, --sysfs and --pmsidr describe a target for --dry-run and --list-filters; "
				   "recording uses this machine's PMU");
	if (c->run.aux_size || c->run.replay_burst || c->run.have_midr || c->run.have_replay_cpu)
		return usage_error("--aux-size, --replay-burst, --midr and --raw-cpu go with --replay");
	c->run.command = c->command;
	c->run.cpus = c->have_cpus ? &c->cpus : NULL;
	return 0;
}

/* The recording the options describe, for spe doctor's checks (without -p or a command: every CPU). */
static void record_plan(const struct record_ctx *c, struct spe_doctor_plan *plan)
{
	spe_doctor_plan_init(plan, SPE_LIVE_DEFAULT_AUX_BYTES, SPE_LIVE_DEFAULT_DATA_BYTES);
	plan->cpu_wide = !c->run.pid && !c->command;
	plan->have_cpus = c->have_cpus;
	plan->cpus = c->cpus;
	if (strcmp(c->req.pmu, "arm_spe"))
		snprintf(plan->pmu, sizeof plan->pmu, "%s", c->req.pmu);
	plan->aux_pages = c->run.aux_pages;
}

/*
 * spe doctor's checks for this recording.  --check prints them all; before
 * a live recording only a failing verdict is printed, as the first failing
 * check, its fix and a pointer to spe doctor, and the recording takes the
 * buffer sizes the checks found to fit the locked-memory limit (saying so
 * when the AUX area had to shrink).  Returns the exit status (0: go on).
 */
static int run_checks(struct record_ctx *c, bool print_all)
{
	struct spe_doctor_plan plan;
	record_plan(c, &plan);
	struct spe_doctor_report *r = malloc(sizeof *r);
	if (!r) {
		fprintf(stderr, PROG ": out of memory\n");
		return CLI_UNAVAILABLE;
	}
	char err[512];
	if (spe_doctor_run(c->root ? c->root : "/", &plan, r, err, sizeof err)) {
		fprintf(stderr, PROG ": %s\n", err);
		free(r);
		return CLI_NOINPUT;
	}
	if (print_all && c->format == OUT_JSON)
		cli_doctor_print_json(stdout, r);
	else if (print_all)
		cli_doctor_print_text(stdout, r);
	cli_doctor_print_blocker(stderr, PROG, r);
	if (!print_all && r->verdict == SPE_DOCTOR_OK) {
		cli_doctor_print_warning(stderr, PROG, r, SPE_CHECK_MLOCK);
		if (r->aux_pages && !c->run.aux_pages)
			c->run.aux_pages = r->aux_pages;
		c->run.data_pages = r->data_pages;
	}
	if (r->verdict == SPE_DOCTOR_UNAVAILABLE && r->first_failure != SPE_CHECK_ARCH)
		fprintf(stderr, PROG ": without SPE: check filter options with --dry-run --cpu-model=MODEL; turn a trace "
				"recorded elsewhere into perf.data with --replay=FILE\n");
	int rc = cli_doctor_exit_code(r);
	free(r);
	return print_all ? cli_finish_stdout(PROG, rc) : rc;
}

/* Record with the PMU load_target() picked and the attr the compiler produced. */
static int run_live(struct record_ctx *c, const struct spe_target *t, const struct spe_filter_result *res)
{
	c->run.target = t;
	c->run.filters = res;
	return cli_record_run_live(&c->run);
}

int cmd_record(int argc, char **argv);
int cmd_record(int argc, char **argv)
{
	struct record_ctx *c = calloc(1, sizeof *c);
	if (!c) {
		fprintf(stderr, PROG ": out of memory\n");
		return CLI_UNAVAILABLE;
	}
	c->paranoid = -2; /* not given */
	spe_filter_request_init(&c->req);
	int rc = parse_args(c, argc, argv);
	if (!rc && c->mode != MODE_HELP)
		rc = refuse_filter_usage(&c->req.diags);
	if (rc || c->mode == MODE_HELP) { /* --help and --version are printed */
		free(c);
		return rc;
	}
	c->run.prog = PROG;
	c->run.argc = argc;
	c->run.argv = argv;
	if ((c->mode == MODE_DRY_RUN || c->mode == MODE_LIST_FILTERS) && (c->run.replay || c->command)) {
		/* They would be ignored: --dry-run --replay=T used to replay nothing and exit 0. */
		rc = usage_error("%s only prints; it does not %s", c->mode == MODE_DRY_RUN ? "--dry-run" : "--list-filters",
				 c->run.replay ? "replay (drop --replay)" : "run a command (drop it after --)");
		free(c);
		return rc;
	}
	if (c->mode == MODE_RECORD && c->run.replay) {
		rc = run_replay(c);
		free(c);
		return rc;
	}
	if (c->root && c->mode != MODE_CHECK) {
		rc = usage_error("--root=%s goes with --check", c->root);
		free(c);
		return rc;
	}
	if ((c->mode == MODE_RECORD || c->mode == MODE_CHECK) && (rc = check_live_options(c))) {
		free(c);
		return rc;
	}
	if (c->mode == MODE_CHECK || (c->mode == MODE_RECORD && !c->run.sideband_only)) {
		rc = run_checks(c, c->mode == MODE_CHECK);
		if (rc || c->mode == MODE_CHECK) {
			free(c);
			return rc;
		}
	}
	if (c->mode == MODE_RECORD && c->run.sideband_only) {
		rc = cli_record_run_live(&c->run);
		free(c);
		return rc;
	}
	struct spe_target *t = calloc(1, sizeof *t);
	struct spe_filter_result *res = calloc(1, sizeof *res);
	if (!t || !res) {
		rc = CLI_UNAVAILABLE;
		goto out;
	}
	if ((rc = load_target(c, t)))
		goto out;
	if (c->mode == MODE_LIST_FILTERS) {
		print_list(t, c->format);
		rc = cli_finish_stdout(PROG, CLI_OK);
		goto out;
	}
	int crc = spe_filter_compile(&c->req, t, res);
	print_diags(&res->diags);
	if (crc) {
		rc = cli_exit_status(crc); /* 69 EOPNOTSUPP, 77 EACCES, 64 the rest */
		goto out;
	}
	if (c->mode == MODE_RECORD) {
		rc = run_live(c, t, res);
		goto out;
	}
	print_dry_run(t, res, c->format);
	rc = cli_finish_stdout(PROG, CLI_OK);
out:
	free(res);
	free(t);
	free(c);
	return rc;
}
