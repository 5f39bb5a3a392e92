/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe doctor: say exactly why SPE does or does not work on this machine (or
 * a captured tree of its files), and how to fix it.  The checks are
 * libspe_filters' (spe/doctor.h); this file parses options and prints.
 * See docs/spe-doctor.1.md.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli_util.h"
#include "common/doctor_print.h"
#include "common/record_run.h"
#include "spe/doctor.h"
#include "spe/live.h"

int cmd_doctor(int argc, char **argv);

static const char *prog = "spe-doctor";

static void usage(FILE *out)
{
	fprintf(out, "usage: %s [--root=DIR] [--format=text|json] [-a | -C LIST] [-m PAGES]\n", prog);
	fputs("Check whether Arm SPE works here and what spe-record may record; exit 0 (works),\n"
	      "69 (no SPE here) or 77 (a privilege or limit is missing).\n\n"
	      "  --root=DIR        check a captured tree of a system's files instead of this one\n"
	      "  --format=FORMAT   text (a checklist, the default) or json (one object)\n"
	      "  -a, --all-cpus    check a CPU-wide recording (spe-record -a)\n"
	      "  -C, --cpus=LIST   check a recording of these CPUs (spe-record -C LIST)\n"
	      "  -m, --mmap-pages=PAGES  AUX pages per CPU spe-record would map (default 4 MiB worth,\n"
	      "                          less where the locked-memory limit is smaller)\n"
	      "  -h, --help        this text\n",
	      out);
}

int cmd_doctor(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "root", required_argument, NULL, 'r' },
		{ "format", required_argument, NULL, 'f' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "cpus", required_argument, NULL, 'C' },
		{ "mmap-pages", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *root = "/";
	bool json = false;
	struct spe_doctor_plan plan;
	spe_doctor_plan_init(&plan, SPE_LIVE_DEFAULT_AUX_BYTES, SPE_LIVE_DEFAULT_DATA_BYTES);
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "aC:m:h", opts, NULL)) != -1) {
		switch (c) {
		case 'r': root = optarg; break;
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "json")) {
				fprintf(stderr, "%s: --format must be text or json\n", prog);
				return CLI_USAGE;
			}
			json = !strcmp(optarg, "json");
			break;
		case 'a': plan.cpu_wide = true; break;
		case 'C': {
			size_t off;
			if (spe_cpuset_parse(optarg, &plan.cpus, &off)) {
				fprintf(stderr, "%s: --cpus=%s: offset %zu: expected a CPU list like 0-3,8\n", prog, optarg, off);
				return CLI_USAGE;
			}
			plan.have_cpus = plan.cpu_wide = true;
			break;
		}
		case 'm':
			if (cli_record_parse_pages(optarg, &plan.aux_pages)) {
				fprintf(stderr, "%s: --mmap-pages=%s: expected a power of two of at least 2 AUX pages\n", prog,
					optarg);
				return CLI_USAGE;
			}
			break;
		case 'h':
			usage(stdout);
			return cli_finish_stdout(prog, CLI_OK);
		default:
			usage(stderr);
			return CLI_USAGE;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", prog, argv[optind]);
		usage(stderr);
		return CLI_USAGE;
	}
	struct spe_doctor_report *r = malloc(sizeof *r);
	if (!r) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return CLI_UNAVAILABLE;
	}
	char err[512];
	if (spe_doctor_run(root, &plan, r, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", prog, err);
		free(r);
		return CLI_NOINPUT;
	}
	if (json)
		cli_doctor_print_json(stdout, r);
	else
		cli_doctor_print_text(stdout, r);
	int status = cli_doctor_exit_code(r);
	free(r);
	return cli_finish_stdout(prog, status);
}
