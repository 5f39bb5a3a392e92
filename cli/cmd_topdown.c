/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe-topdown: decode PERF_METRICS, import perf/toplev/topdown-tool output
 * and raw counter listings into the database, measure a command.
 * See docs/spe-topdown.1.md.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli_util.h"
#include "topdown/perf_metrics.h"

int cmd_topdown(int argc, char **argv);

static const char *prog = "spe-topdown";

static void usage(FILE *out)
{
	fprintf(out,
		"usage: %s decode --slots A[,B] --metrics M[,N] [--level=1|2] [--format=text|json]\n"
		"       %s import FILE -d DB [--run NAME] [--workload NAME] [--cpu CPU] [--host NAME]\n"
		"       %s stat [-I MS] [-d DB] [--run NAME] [--workload NAME] [--level=1|2] [--dry-run]\n"
		"                [--sysfs DIR] -- COMMAND [ARGS...]\n",
		prog, prog, prog);
}

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
	static const struct option opts[] = {
		{ "slots", required_argument, NULL, 's' },
		{ "metrics", required_argument, NULL, 'm' },
		{ "level", required_argument, NULL, 'l' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t slots[2], metrics[2];
	int nslots = 0, nmetrics = 0, level = 1, json = 0, c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (parse_pair(optarg, slots, &nslots)) {
				fprintf(stderr, "%s decode: --slots: '%s' is not A or A,B\n", prog, optarg);
				return CLI_USAGE;
			}
			break;
		case 'm':
			if (parse_pair(optarg, metrics, &nmetrics)) {
				fprintf(stderr, "%s decode: --metrics: '%s' is not M or M,N\n", prog, optarg);
				return CLI_USAGE;
			}
			break;
		case 'l':
			if (strcmp(optarg, "1") && strcmp(optarg, "2")) {
				fprintf(stderr, "%s decode: --level must be 1 or 2\n", prog);
				return CLI_USAGE;
			}
			level = atoi(optarg);
			break;
		case 'f':
			if (!strcmp(optarg, "json"))
				json = 1;
			else if (strcmp(optarg, "text")) {
				fprintf(stderr, "%s decode: --format must be text or json\n", prog);
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
	if (optind != argc || !nslots || nslots != nmetrics) {
		fprintf(stderr, "%s decode: give --slots and --metrics, both with one value or both with two\n", prog);
		return CLI_USAGE;
	}

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
	if (json)
		printf("}\n");
	return cli_finish_stdout(prog, CLI_OK);
}

int cmd_topdown(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return CLI_USAGE;
	}
	const char *sub = argv[1];
	if (!strcmp(sub, "decode"))
		return cmd_decode(argc - 1, argv + 1);
	if (!strcmp(sub, "--help") || !strcmp(sub, "-h")) {
		usage(stdout);
		return cli_finish_stdout(prog, CLI_OK);
	}
	fprintf(stderr, "%s: unknown subcommand '%s'\n", prog, sub);
	usage(stderr);
	return CLI_USAGE;
}
