/* SPDX-License-Identifier: Apache-2.0 */
/* `spe <command> ...`: dispatch to the same entry points as the spe-<command> executables. */
#include <stdio.h>
#include <string.h>
#include <sysexits.h>

#include "common/cli_options.h"
#include "common/cli_util.h"

#define SPE_COMMAND(name)                          \
	int cmd_##name(int argc, char **argv);     \
	extern const struct cli_command cli_command_##name;
#include "commands.h"
#undef SPE_COMMAND

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const struct cli_command *table;
};

static const struct command commands[] = {
#define SPE_COMMAND(name) { #name, cmd_##name, &cli_command_##name },
#include "commands.h"
#undef SPE_COMMAND
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

/* `spe help` lists the commands in the order of the work: check, record, look, load, ask, show, hand on. */
static const char *const workflow[] = { "doctor", "record", "dump", "load", "query", "report", "export", "topdown", "facts" };
#define N_WORKFLOW (sizeof workflow / sizeof workflow[0])

/* Where @p c comes in the list: its place in the workflow, else after those. */
static size_t rank(const struct command *c)
{
	for (size_t i = 0; i < N_WORKFLOW; i++)
		if (!strcmp(workflow[i], c->name))
			return i;
	return N_WORKFLOW;
}

static void usage(FILE *out)
{
	fprintf(out, "usage: spe <command> [options]\n       spe help [<command>]\n       spe --version\n\ncommands:\n");
	for (size_t r = 0; r <= N_WORKFLOW; r++)
		for (size_t i = 0; i < N_COMMANDS; i++)
			if (rank(&commands[i]) == r)
				fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].table->summary);
	fprintf(out, "\n'spe help <command>' (or 'spe <command> --help') and man spe-<command> describe each.\n");
}

/* "spe: 'lod' is not a command; did you mean 'load'?" */
static int not_a_command(const char *word)
{
	const char *names[N_COMMANDS];
	for (size_t i = 0; i < N_COMMANDS; i++)
		names[i] = commands[i].name;
	const char *near = word[0] == '-' ? NULL : cli_nearest(word, strlen(word), names, N_COMMANDS);
	fprintf(stderr, "spe: '%s' is not a command%s%s%s\n", word, near ? "; did you mean '" : "", near ? near : "",
		near ? "'?" : "");
	usage(stderr);
	return EX_USAGE;
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
		printf("spe (spekit) %s\n", cli_version());
		return cli_finish_stdout("spe", 0);
	}
	for (size_t i = 0; i < N_COMMANDS; i++) {
		const struct command *c = &commands[i];
		if (strcmp(c->name, argv[1]) == 0) {
			/* the command's argv[0] is its program name, so that its messages
			 * ("spe-query: unrecognized option") name it as its man page does */
			argv[1] = (char *)c->table->prog;
			return c->run(argc - 1, argv + 1);
		}
	}
	return not_a_command(argv[1]);
}
