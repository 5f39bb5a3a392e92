/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the option parser (cli/common/cli_options.h) over every command's
 * table.  The first byte picks the table (the commands of this build in
 * commands.h's order, a command's subcommands in its place: doctor, dump,
 * export, facts, load, query, record, report, topdown decode, import, stat
 * in the full build); the rest, split at NUL bytes, is argv[1..].
 * Every option is taken as a command would (values, numbers, unknown names
 * refused), then the operands.  --help and --version print to /dev/null;
 * the usage errors go to stderr, which ctest's run closes (-close_fd_mask=2,
 * cli/CMakeLists.txt).  Seeds: fixtures/fuzz/cli_args/.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli_options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SPE_COMMAND(name) extern const struct cli_command cli_command_##name;
#include "commands.h"
#undef SPE_COMMAND

static const struct cli_command *const commands[] = {
#define SPE_COMMAND(name) &cli_command_##name,
#include "commands.h"
#undef SPE_COMMAND
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static volatile uint64_t sink;
static FILE *devnull;

/* Every table: the commands', a command with subcommands by theirs (in commands.h's order). */
static const struct cli_command *tables[64];
static unsigned n_tables;

static void list_tables(void)
{
	for (size_t c = 0; c < N_COMMANDS; c++) {
		if (!commands[c]->subcommands && n_tables < 64)
			tables[n_tables++] = commands[c];
		for (const struct cli_command *const *s = commands[c]->subcommands; s && *s && n_tables < 64; s++)
			tables[n_tables++] = *s;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum { MAX_WORDS = 64 };
	if (!devnull) {
		list_tables();
		devnull = fopen("/dev/null", "w");
	}
	if (size < 1 || !devnull)
		return 0;
	const struct cli_command *cmd = tables[data[0] % n_tables];
	char *text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = 0;
	char *argv[MAX_WORDS + 2] = { "fuzz" };
	int argc = 1;
	for (char *p = text; argc <= MAX_WORDS && p < text + size - 1; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;

	struct cli_args a;
	cli_args_init(&a, cmd, argc, argv);
	a.help_out = devnull;
	int id;
	while ((id = cli_args_next(&a)) > 0) {
		if (id == CLI_ID_UNKNOWN) {
			sink += strlen(a.spelling) + (a.value ? strlen(a.value) : 0);
			sink += (uint64_t)cli_args_unknown(&a);
			continue;
		}
		sink += (uint64_t)id + (uint64_t)a.number + strlen(a.spelling) + (a.value ? strlen(a.value) : 0);
	}
	if (id == 0)
		for (int i = a.optind; i < argc; i++)
			sink += strlen(argv[i]) + (uint64_t)a.before_dashdash;
	sink += (uint64_t)a.status;
	free(text);
	return 0;
}
