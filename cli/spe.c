/* SPDX-License-Identifier: Apache-2.0 */
/* `spe <command> ...`: dispatch to the same entry points as the spe-<command> executables. */
#include <stdio.h>
#include <string.h>
#include <sysexits.h>

#include "common/cli_util.h"

#define SPE_COMMAND(name) int cmd_##name(int argc, char **argv);
#include "commands.h"
#undef SPE_COMMAND

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
};

static const struct command commands[] = {
#define SPE_COMMAND(name) { #name, cmd_##name },
#include "commands.h"
#undef SPE_COMMAND
	{ NULL, NULL }
};

static void usage(FILE *out)
{
	fprintf(out, "usage: spe <command> [options]\n\ncommands:\n");
	for (const struct command *c = commands; c->name; c++)
		fprintf(out, "  %s\n", c->name);
	fprintf(out, "\n'spe help <command>' (or 'spe <command> --help') and man spe-<command> describe each.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		if (argc < 2)
			return EX_USAGE;
		return cli_finish_stdout("spe", 0);
	}
	/* "spe help" and "spe help COMMAND", as git and go spell them */
	char *help_argv[4] = { argv[0], NULL, "--help", NULL };
	if (!strcmp(argv[1], "help")) {
		if (argc == 2) {
			usage(stdout);
			return cli_finish_stdout("spe", 0);
		}
		help_argv[1] = argv[2];
		argc = 3;
		argv = help_argv;
	}
	if (!strcmp(argv[1], "--version")) {
		/* for bug reports and scripts: the release of the build, as the man pages' footer */
		printf("spe (spekit) %s\n", SPEKIT_VERSION);
		return cli_finish_stdout("spe", 0);
	}
	for (const struct command *c = commands; c->name; c++) {
		if (strcmp(c->name, argv[1]) == 0) {
			/* the command's argv[0] is its program name, so that getopt's messages
			 * ("spe-query: unrecognized option") name it as its man page does */
			char prog[64];
			snprintf(prog, sizeof prog, "spe-%s", c->name);
			for (char *p = prog; *p; p++)
				if (*p == '_')
					*p = '-';
			argv[1] = prog;
			return c->run(argc - 1, argv + 1);
		}
	}
	fprintf(stderr, "spe: '%s' is not a command\n", argv[1]);
	usage(stderr);
	return EX_USAGE;
}
