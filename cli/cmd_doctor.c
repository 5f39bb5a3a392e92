/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe doctor: say exactly why SPE does or does not work on this machine (or
 * a captured tree of its files), and how to fix it.  The checks are
 * libspe_filters' (spe/doctor.h); this file parses options and prints.
 * See docs/spe-doctor.1.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli_options.h"
#include "common/cli_util.h"
#include "common/doctor_print.h"
#include "common/record_run.h"
#include "spe/doctor.h"
#include "spe/live.h"

int cmd_doctor(int argc, char **argv);

enum { OPT_ROOT = CLI_ID(0), OPT_FORMAT };
static const char *const formats[] = { "text", "json", NULL };
static const char *const usage[] = { "spe-doctor [--root=DIR] [--format=text|json] [-a | -C LIST] [-m PAGES]", NULL };

static const struct cli_option options[] = {
	{ OPT_ROOT, "root", 0, CLI_DIR, "DIR", .help = "check a captured tree of a system's files instead of this one" },
	{ OPT_FORMAT, "format", 0, CLI_CHOICE, .choices = formats,
	  .help = "a checklist (text, the default) or one JSON object" },
	{ 'a', "all-cpus", 'a', CLI_FLAG, .help = "check a CPU-wide recording (spe-record -a)" },
	{ 'C', "cpu", 'C', CLI_TEXT, "LIST", .help = "check a recording of these CPUs, e.g. 0-3,8 (spe-record -C LIST)" },
	{ 'm', "mmap-pages", 'm', CLI_INT, "PAGES", .min = 2, .max = CLI_RECORD_MAX_PAGES,
	  .help = "AUX pages per CPU spe-record would map, a power of two (default 4 MiB worth, less where the "
		  "locked-memory limit is smaller)" },
	{ .name = "cpus", .alias_of = "cpu" },
	{ 0 },
};

const struct cli_command cli_command_doctor = {
	.name = "doctor",
	.prog = "spe-doctor",
	.summary = "say whether Arm SPE works here, and what to fix when it does not",
	.usage = usage,
	.about = "Check whether Arm SPE works here and what spe-record may record; exit 0 (works),\n"
		 "69 (no SPE here) or 77 (a privilege or limit is missing).",
	.options = options,
	.operands = CLI_OPERANDS_AFTER_DASHDASH,
};

int cmd_doctor(int argc, char **argv)
{
	const struct cli_command *cmd = &cli_command_doctor;
	const char *root = "/";
	bool json = false;
	struct spe_doctor_plan plan;
	spe_doctor_plan_init(&plan, SPE_LIVE_DEFAULT_AUX_BYTES, SPE_LIVE_DEFAULT_DATA_BYTES);
	struct cli_args a;
	int c;
	cli_args_init(&a, cmd, argc, argv);
	while ((c = cli_args_next(&a)) > 0) {
		switch (c) {
		case OPT_ROOT: root = a.value; break;
		case OPT_FORMAT: json = a.number == 1; break;
		case 'a': plan.cpu_wide = true; break;
		case 'C': {
			size_t off;
			if (spe_cpuset_parse(a.value, &plan.cpus, &off)) {
				fprintf(stderr, "%s: --cpu=%s: offset %zu: expected a CPU list like 0-3,8\n", cmd->prog,
					a.value, off);
				return CLI_USAGE;
			}
			plan.have_cpus = plan.cpu_wide = true;
			break;
		}
		case 'm':
			if (a.number & (a.number - 1)) {
				fprintf(stderr, "%s: --mmap-pages=%s: expected a power of two of at least 2 AUX pages\n",
					cmd->prog, a.value);
				return CLI_USAGE;
			}
			plan.aux_pages = (uint32_t)a.number;
			break;
		}
	}
	if (c < 0)
		return a.status;
	if (a.optind != argc)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[a.optind]);
	struct spe_doctor_report *r = malloc(sizeof *r);
	if (!r) {
		fprintf(stderr, "%s: out of memory\n", cmd->prog);
		return CLI_UNAVAILABLE;
	}
	char err[512];
	if (spe_doctor_run(root, &plan, r, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", cmd->prog, err);
		free(r);
		return CLI_NOINPUT;
	}
	if (json)
		cli_doctor_print_json(stdout, r);
	else
		cli_doctor_print_text(stdout, r);
	int status = cli_doctor_exit_code(r);
	free(r);
	return cli_finish_stdout(cmd->prog, status);
}
