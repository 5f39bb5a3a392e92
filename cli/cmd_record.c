/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe-record: compile arm_spe filters for a target, record SPE traces
 * (live, or --replay of raw bytes), into perf.data.
 *
 * Options come from two tables: the filter-term table of libspe_filters
 * (--load-filter, --load_filter, --min-latency=10, ...) and record_options
 * below for everything else.  To add an option, add a row and a handler;
 * recording modes add a row to the mode switch in cmd_record().  The
 * recording itself is cli/common/record_run.c.
 */
#include "common/cli_args.h"
#include "common/cli_util.h"
#include "common/doctor_print.h"
#include "common/record_run.h"
#include "spe/doctor.h"
#include "spe/filters.h"
#include "spe/spe.h"
#include "util/json.h"

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
	const char *sysfs, *cpu;
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
	struct record_run_opts run; /* recording options (-o, -m, -a, -p, --replay, ...) */
	bool have_live_target;      /* -a, -p or a command */
};

typedef int (*opt_handler)(struct record_ctx *ctx, const char *value);

struct record_option {
	const char *name;  /* long name, kebab-case */
	char short_name;   /* 0 if none */
	const char *argh;  /* NULL: takes no value */
	opt_handler handle;
	const char *help;
};

static int usage_error(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, PROG ": ");
	fprintf(stderr, fmt, a, b);
	fprintf(stderr, " (see " PROG " --help)\n");
	return CLI_USAGE;
}

static bool parse_u64(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	if (!s || !*s || *s == '-')
		return false;
	*out = strtoull(s, &end, 0);
	return !errno && !*end;
}

static int opt_help(struct record_ctx *c, const char *v)
{
	(void)v;
	c->mode = MODE_HELP;
	return 0;
}
/* --dry-run, --list-filters and --check each replace recording: only one of them. */
static int set_mode(struct record_ctx *c, enum record_mode mode)
{
	if (c->mode == MODE_DRY_RUN || c->mode == MODE_LIST_FILTERS || c->mode == MODE_CHECK) {
		if (c->mode != mode)
			return usage_error("--dry-run, --list-filters and --check exclude each other: give one%s%s", "", "");
		return 0;
	}
	if (c->mode != MODE_HELP)
		c->mode = mode;
	return 0;
}
static int opt_dry_run(struct record_ctx *c, const char *v)
{
	(void)v;
	return set_mode(c, MODE_DRY_RUN);
}
static int opt_list(struct record_ctx *c, const char *v)
{
	(void)v;
	return set_mode(c, MODE_LIST_FILTERS);
}
static int opt_check(struct record_ctx *c, const char *v)
{
	(void)v;
	return set_mode(c, MODE_CHECK);
}
static int opt_root(struct record_ctx *c, const char *v)
{
	c->root = v;
	return 0;
}
static int opt_format(struct record_ctx *c, const char *v)
{
	if (!strcmp(v, "text"))
		c->format = OUT_TEXT;
	else if (!strcmp(v, "json"))
		c->format = OUT_JSON;
	else
		return usage_error("--format=%s: expected text or json%s", v, "");
	return 0;
}
static int opt_sysfs(struct record_ctx *c, const char *v)
{
	c->sysfs = v;
	return 0;
}
static int opt_cpu(struct record_ctx *c, const char *v)
{
	c->cpu = v;
	return 0;
}
static int opt_kernel(struct record_ctx *c, const char *v)
{
	if (!(c->kernel = spe_kernel_parse(v)))
		return usage_error("--kernel=%s: expected a release like 6.8%s", v, "");
	if (c->kernel < SPE_KERNEL_OLDEST)
		return usage_error("--kernel=%s: no Linux release before 4.15 has the arm_spe_pmu driver%s", v, "");
	return 0;
}
static int opt_pmsidr(struct record_ctx *c, const char *v)
{
	if (!parse_u64(v, &c->pmsidr))
		return usage_error("--pmsidr=%s: expected a number%s", v, "");
	c->have_pmsidr = true;
	return 0;
}
static int opt_pmsver(struct record_ctx *c, const char *v)
{
	uint64_t n;
	if (!parse_u64(v, &n) || n < 1 || n > 6)
		return usage_error("--pmsver=%s: expected 1 (SPEv1.0) to 6 (SPEv1.5)%s", v, "");
	c->pmsver = (unsigned)n;
	c->have_pmsver = true;
	return 0;
}
static int opt_valid_events(struct record_ctx *c, const char *v)
{
	if (!parse_u64(v, &c->valid_events))
		return usage_error("--valid-events=%s: expected a mask%s", v, "");
	c->have_valid_events = true;
	return 0;
}
static int opt_paranoid(struct record_ctx *c, const char *v)
{
	char *end;
	long n = strtol(v, &end, 10);
	if (!*v || *end || n < -1 || n > 4)
		return usage_error("--paranoid=%s: expected -1 to 4%s", v, "");
	c->paranoid = (int)n;
	return 0;
}
static int opt_privileged(struct record_ctx *c, const char *v)
{
	(void)v;
	c->privileged = true;
	return 0;
}
static int opt_strict(struct record_ctx *c, const char *v)
{
	(void)v;
	c->req.strict = true;
	return 0;
}
static int opt_event(struct record_ctx *c, const char *v)
{
	spe_filter_parse_terms(&c->req, v); /* errors stay in req.diags */
	return 0;
}
static int opt_period(struct record_ctx *c, const char *v)
{
	if (!parse_u64(v, &c->req.period))
		return usage_error("--period=%s: expected a number%s", v, "");
	c->req.period_set = true;
	return 0;
}
static int opt_freq(struct record_ctx *c, const char *v)
{
	if (!parse_u64(v, &c->req.freq))
		return usage_error("--freq=%s: expected a number%s", v, "");
	c->req.freq_set = true;
	return 0;
}
static int opt_cpus(struct record_ctx *c, const char *v)
{
	size_t off;
	c->cpus_text = v;
	if (spe_cpuset_parse(v, &c->cpus, &off)) {
		fprintf(stderr, PROG ": --cpus=%s: offset %zu: expected a CPU list like 0-3,8\n", v, off);
		return CLI_USAGE;
	}
	c->have_cpus = true;
	return 0;
}
static int opt_exclude_user(struct record_ctx *c, const char *v)
{
	(void)v;
	c->req.exclude_user = true;
	return 0;
}
static int opt_exclude_kernel(struct record_ctx *c, const char *v)
{
	(void)v;
	c->req.exclude_kernel = true;
	return 0;
}

/* Recording options (cli/common/record_run.c does the work). */
static int opt_output(struct record_ctx *c, const char *v)
{
	c->run.output = v;
	return 0;
}
static int opt_mmap_pages(struct record_ctx *c, const char *v)
{
	if (cli_record_parse_pages(v, &c->run.aux_pages))
		return usage_error("--mmap-pages=%s: expected a power of two of at least 2 AUX pages%s", v, "");
	return 0;
}
static int opt_all_cpus(struct record_ctx *c, const char *v)
{
	(void)v;
	c->run.system_wide = 1;
	c->have_live_target = true;
	return 0;
}
static int opt_pid(struct record_ctx *c, const char *v)
{
	uint64_t n;
	if (!parse_u64(v, &n) || n == 0 || n > 0x7fffffff)
		return usage_error("--pid=%s: expected a process id%s", v, "");
	c->run.pid = (pid_t)n;
	c->have_live_target = true;
	return 0;
}
static int opt_duration(struct record_ctx *c, const char *v)
{
	char *end;
	double d = strtod(v, &end);
	if (!*v || *end || !(d > 0) || d > 1e9)
		return usage_error("--duration=%s: expected seconds, e.g. 10 or 0.5%s", v, "");
	c->run.duration = d;
	return 0;
}
static int opt_replay(struct record_ctx *c, const char *v)
{
	c->run.replay = v;
	return 0;
}
static int opt_aux_size(struct record_ctx *c, const char *v)
{
	if (cli_parse_size(v, &c->run.aux_size))
		return usage_error("--aux-size=%s: expected bytes, e.g. 65536 or 64K%s", v, "");
	return 0;
}
static int opt_replay_burst(struct record_ctx *c, const char *v)
{
	if (cli_parse_size(v, &c->run.replay_burst) || !c->run.replay_burst)
		return usage_error("--replay-burst=%s: expected bytes, e.g. 4096 or 4K%s", v, "");
	return 0;
}
static int opt_midr(struct record_ctx *c, const char *v)
{
	uint32_t midr;
	if (cli_parse_midr(v, &midr))
		return usage_error("--midr=%s: expected a 32-bit MIDR_EL1 value like 0x410fd0c0 or a CPU profile name%s",
				   v, "");
	c->run.midr = midr;
	c->run.have_midr = 1;
	return 0;
}
static int opt_sideband_only(struct record_ctx *c, const char *v)
{
	(void)v;
	c->run.sideband_only = 1;
	return 0;
}

static const struct record_option record_options[] = {
	{ "help", 'h', NULL, opt_help, "show this help" },
	{ "dry-run", 0, NULL, opt_dry_run, "print the attr and register image; open nothing" },
	{ "list-filters", 0, NULL, opt_list, "list every filter term and whether the target supports it" },
	{ "check", 0, NULL, opt_check, "check whether this recording can work here (spe doctor's checklist)" },
	{ "root", 0, "DIR", opt_root, "with --check: a captured tree of a system's files, not this one" },
	{ "format", 0, "text|json", opt_format, "output format of --dry-run, --list-filters and --check" },
	{ "event", 'e', "EVENT", opt_event, "perf event string: arm_spe/term=v,.../ or arm_spe_N/.../[uk]" },
	{ "period", 'c', "N", opt_period, "sample period in operations (default: caps/min_interval)" },
	{ "freq", 'F', "N", opt_freq, "frequency mode (refused by the driver: EINVAL)" },
	{ "cpus", 'C', "LIST", opt_cpus, "CPUs to profile; picks the arm_spe_N PMU that covers them" },
	{ "exclude-user", 0, NULL, opt_exclude_user, "do not sample EL0 (attr.exclude_user)" },
	{ "exclude-kernel", 0, NULL, opt_exclude_kernel, "do not sample EL1 (attr.exclude_kernel)" },
	{ "sysfs", 0, "DIR", opt_sysfs, "target: a PMU directory or a directory of arm_spe_N PMUs" },
	{ "cpu", 0, "NAME", opt_cpu, "target: a CPU profile (see below)" },
	{ "pmsidr", 0, "VALUE", opt_pmsidr, "target: raw PMSIDR_EL1 (with --pmsver)" },
	{ "pmsver", 0, "N", opt_pmsver, "target: ID_AA64DFR0_EL1.PMSVer, 1 (SPEv1.0) to 6 (SPEv1.5)" },
	{ "valid-events", 0, "MASK", opt_valid_events, "target: caps/event_filter for --pmsidr targets" },
	{ "kernel", 0, "X.Y", opt_kernel, "kernel release whose driver rules apply" },
	{ "paranoid", 0, "N", opt_paranoid, "perf_event_paranoid of a --cpu/--sysfs target (default 2)" },
	{ "privileged", 0, NULL, opt_privileged, "the caller has CAP_PERFMON" },
	{ "strict", 0, NULL, opt_strict, "turn the warnings of the strict checks into errors" },
	{ "output", 'o', "FILE", opt_output, "recording: the perf.data to write (default perf.data)" },
	{ "mmap-pages", 'm', "PAGES", opt_mmap_pages, "recording: AUX area pages per CPU (power of two; default 4 MiB)" },
	{ "all-cpus", 'a', NULL, opt_all_cpus, "recording: every CPU of the PMU (the default without -p or a command)" },
	{ "pid", 'p', "PID", opt_pid, "recording: that process (and children it starts), on every CPU" },
	{ "duration", 0, "SECONDS", opt_duration, "recording: stop after this long" },
	{ "replay", 0, "FILE", opt_replay, "replay a raw SPE file or a replay manifest into perf.data" },
	{ "aux-size", 0, "BYTES", opt_aux_size, "replay: simulated AUX area per CPU (power of two; default 4M)" },
	{ "replay-burst", 0, "BYTES", opt_replay_burst, "replay: bytes written between wakeups (default aux-size/2)" },
	{ "midr", 0, "VALUE", opt_midr, "replay: MIDR_EL1 of the traced CPU(s)" },
	{ "sideband-only", 0, NULL, opt_sideband_only, "record only MMAP2/COMM/FORK/EXIT/SWITCH (no SPE; diagnostics)" },
};
#define N_OPTIONS (sizeof record_options / sizeof record_options[0])

static void print_help(FILE *out)
{
	fprintf(out, "usage: " PROG " [FILTERS] [-c N] [-m PAGES] [-o FILE] [--duration=S] [-a | -C LIST | -p PID | -- COMMAND...]\n"
		     "       " PROG " --replay=FILE [-o FILE] [--aux-size=BYTES] [--cpu=N|NAME] [--midr=0x...]\n"
		     "       " PROG " --dry-run [options] [--sysfs=DIR | --cpu=NAME | --pmsidr=V --pmsver=N]\n"
		     "       " PROG " --list-filters [--sysfs=DIR | --cpu=NAME | ...]\n"
		     "       " PROG " --check [--root=DIR] [-a | -C LIST | -p PID | -- COMMAND...] [-m PAGES]\n\noptions:\n");
	for (size_t i = 0; i < N_OPTIONS; i++) {
		const struct record_option *o = &record_options[i];
		char left[48];
		snprintf(left, sizeof left, "%s%c%s--%s%s%s", o->short_name ? "-" : "", o->short_name ? o->short_name : ' ',
			 o->short_name ? ", " : " ", o->name, o->argh ? "=" : "", o->argh ? o->argh : "");
		fprintf(out, "  %-30s %s\n", o->short_name ? left : left + 2, o->help);
	}
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
	fprintf(out, "\nCPU profiles for --cpu:");
	for (unsigned i = 0; i < spe_profile_count(); i++)
		fprintf(out, "%s %s", i % 6 ? "" : "\n ", spe_profile_name(i));
	fprintf(out, "\n\nexit: 0 accepted/recorded, 1 replay interrupted, 64 usage or --strict, 65 bad manifest,\n"
		     "      66 input missing, 69 no SPE or unsupported on the target, 74 I/O error, 77 needs\n"
		     "      privilege; a launched command's own status.  man spe-record has the messages.\n");
}

static const struct record_option *find_option(const char *name, size_t len, char short_name)
{
	for (size_t i = 0; i < N_OPTIONS; i++) {
		const struct record_option *o = &record_options[i];
		if (short_name ? o->short_name == short_name : (strlen(o->name) == len && !strncmp(o->name, name, len)))
			return o;
	}
	return NULL;
}

static int parse_args(struct record_ctx *c, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			c->command = argv + i + 1;
			c->command_argc = argc - i - 1;
			return 0;
		}
		const struct record_option *o = NULL;
		const char *value = NULL;
		if (a[0] == '-' && a[1] == '-') {
			const char *name = a + 2, *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			value = eq ? eq + 1 : NULL;
			o = find_option(name, len, 0);
			if (!o) {
				/* A filter term; errors are collected in req.diags. */
				if (spe_term_lookup(name, len) < 0)
					return usage_error("unknown option '%s'%s", a, "");
				char term[64];
				snprintf(term, sizeof term, "%.*s", (int)(len < 63 ? len : 63), name);
				spe_filter_set_term(&c->req, term, value);
				continue;
			}
		} else if (a[0] == '-' && a[1] && !a[2]) {
			o = find_option(NULL, 0, a[1]);
			if (!o)
				return usage_error("unknown option '%s'%s", a, "");
		} else if (a[0] == '-' && a[1]) {
			o = find_option(NULL, 0, a[1]); /* -c4096 */
			if (!o || !o->argh)
				return usage_error("unknown option '%s'%s", a, "");
			value = a + 2;
		} else {
			return usage_error("unexpected argument '%s' (a workload goes after --)%s", a, "");
		}
		if (o->argh && !value) {
			if (i + 1 >= argc)
				return usage_error("--%s needs a value (%s)", o->name, o->argh);
			value = argv[++i];
		} else if (!o->argh && value) {
			return usage_error("--%s takes no value%s", o->name, "");
		}
		int rc = o->handle(c, value);
		if (rc)
			return rc;
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
			fprintf(stderr, PROG ": no arm_spe PMU here; name a target with --cpu=NAME or --sysfs=DIR\n");
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

/* Build the target from --sysfs / --cpu / --pmsidr, or the live system. */
static int load_target(struct record_ctx *c, struct spe_target *t)
{
	char err[512];
	if (!!c->sysfs + !!c->cpu + !!c->have_pmsidr > 1)
		return usage_error("--sysfs, --cpu and --pmsidr each name a target: give one%s%s", "", "");
	if (c->have_pmsidr && !c->have_pmsver)
		return usage_error("--pmsidr needs --pmsver%s%s", "", "");
	if (c->cpu && (c->have_pmsver || c->have_valid_events))
		return usage_error("--cpu=%s sets the SPE version and events itself%s", c->cpu, "");
	if (c->cpu) {
		if (spe_target_from_profile(c->cpu, c->kernel, t, err, sizeof err)) {
			fprintf(stderr, PROG ": --cpu: %s\n", err);
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
	fprintf(stderr, PROG ": see " PROG " --list-filters --cpu=NAME for the terms and their values\n");
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

/* --replay: --cpu is a CPU number, or a profile name whose MIDR the trace gets. */
static int run_replay(struct record_ctx *c)
{
	if (c->have_live_target || c->cpus_text || c->run.aux_pages || c->run.sideband_only || c->run.duration > 0)
		return usage_error("--replay takes no live options (-a, -p, -C, -m, --duration, --sideband-only, "
				   "a command)%s%s", "", "");
	if (c->cpu) {
		uint64_t n;
		uint32_t midr;
		if (parse_u64(c->cpu, &n) && n < (1u << 20)) {
			c->run.have_replay_cpu = 1;
			c->run.replay_cpu = (uint32_t)n;
		} else if (spe_cpu_by_name(c->cpu) && cli_parse_midr(c->cpu, &midr) == 0) {
			if (!c->run.have_midr) {
				c->run.midr = midr;
				c->run.have_midr = 1;
			}
		} else {
			return usage_error("--cpu=%s: expected a CPU number or a CPU profile name (see --help)%s",
					   c->cpu, "");
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
				   "(-C may narrow -p or a command)%s%s", "", "");
	if (c->command && c->command_argc == 0)
		return usage_error("'--' must be followed by a command%s%s", "", "");
	if (c->cpu || c->sysfs || c->have_pmsidr)
		return usage_error("--cpu, --sysfs and --pmsidr describe a target for --dry-run and --list-filters; "
				   "recording uses this machine's PMU%s%s", "", "");
	if (c->run.aux_size || c->run.replay_burst || c->run.have_midr)
		return usage_error("--aux-size, --replay-burst and --midr go with --replay%s%s", "", "");
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
		fprintf(stderr, PROG ": without SPE: check filter options with --dry-run --cpu=NAME; turn a trace "
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
	if (rc || c->mode == MODE_HELP) {
		if (!rc)
			print_help(stdout);
		free(c);
		return rc ? rc : cli_finish_stdout(PROG, CLI_OK);
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
		rc = usage_error("--root=%s goes with --check%s", c->root, "");
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
