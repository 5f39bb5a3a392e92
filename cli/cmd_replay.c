/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe-replay: a stand-in for `spe-record --replay` while cli/cmd_record.c
 * (filter options) is being written on another branch.  Same options and
 * behaviour as spe-record's replay mode; see docs/spe-record.1.md.
 */
#include "common/cli_util.h"
#include "common/record_run.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "spe-replay"

static void usage(FILE *f)
{
	fprintf(f, "usage: " PROG " --replay=FILE [-o OUT] [--aux-size=BYTES] [--replay-burst=BYTES]\n"
		   "       [--cpu=N] [--midr=0x...]\n");
}

int cmd_replay(int argc, char **argv);
int cmd_replay(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "replay", required_argument, NULL, 'r' }, { "output", required_argument, NULL, 'o' },
		{ "aux-size", required_argument, NULL, 'A' }, { "replay-burst", required_argument, NULL, 'B' },
		{ "cpu", required_argument, NULL, 'U' },     { "midr", required_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },         { NULL, 0, NULL, 0 },
	};
	struct record_run_opts o = { .prog = PROG, .argc = argc, .argv = argv };
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		uint64_t v;
		switch (c) {
		case 'r': o.replay = optarg; break;
		case 'o': o.output = optarg; break;
		case 'A':
			if (record_parse_size(optarg, &o.aux_size)) {
				fprintf(stderr, PROG ": --aux-size=%s: expected bytes (e.g. 65536 or 64K)\n", optarg);
				return CLI_USAGE;
			}
			break;
		case 'B':
			if (record_parse_size(optarg, &o.replay_burst) || !o.replay_burst) {
				fprintf(stderr, PROG ": --replay-burst=%s: expected bytes (e.g. 4096 or 4K)\n", optarg);
				return CLI_USAGE;
			}
			break;
		case 'U':
			if (record_parse_size(optarg, &v) || v >= 1u << 20) {
				fprintf(stderr, PROG ": --cpu=%s: expected a CPU number\n", optarg);
				return CLI_USAGE;
			}
			o.have_replay_cpu = 1;
			o.replay_cpu = (uint32_t)v;
			break;
		case 'M':
			if (record_parse_size(optarg, &v) || v > UINT32_MAX) {
				fprintf(stderr, PROG ": --midr=%s: expected a 32-bit MIDR_EL1 value like 0x410fd0c0\n",
					optarg);
				return CLI_USAGE;
			}
			o.have_midr = 1;
			o.midr = v;
			break;
		case 'h': usage(stdout); return cli_finish_stdout(PROG, CLI_OK);
		default: usage(stderr); return CLI_USAGE;
		}
	}
	if (!o.replay || optind != argc) {
		usage(stderr);
		return CLI_USAGE;
	}
	return record_run_replay(&o);
}
