/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe facts: print the SPE facts table (decoder/include/spe/facts.h) as
 * Markdown.  docs/spe-facts.1.md is this command's output; a test keeps the
 * two equal.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "common/cli_util.h"
#include "spe/spe.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: spe facts [--markdown]\n"
		     "Print the SPE facts libspe knows (events, counters, addresses, op types,\n"
		     "memory levels, data-source maps, CPU parts) as Markdown tables.\n");
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "—";
}

static void events(void)
{
	printf("## EVENTS packet bits\n\n"
	       "Bits not listed are IMPLEMENTATION DEFINED (or reserved): libspe keeps them raw and the\n"
	       "newest perf prints them as `IMPDEF:n`.\n\n"
	       "| Bit | Dump word | Column | Filterable since | Meaning |\n|---|---|---|---|---|\n");
#define SPE_X(bit, id, word, col, since, desc) printf("| %d | `%s` | `%s` | %s | %s |\n", bit, word, col, or_dash(since), desc);
	SPE_EVENT_LIST(SPE_X)
#undef SPE_X
	printf("\n### Named IMPLEMENTATION DEFINED event bits\n\n"
	       "| CPU | Bit | Dump word | Column | Meaning |\n|---|---|---|---|---|\n");
#define SPE_X(impl, part, bit, word, col, desc)                                                                  \
	{                                                                                                        \
		const struct spe_cpu_info *cpu = spe_cpu_lookup((uint32_t)(impl) << 24 | (uint32_t)(part) << 4); \
		printf("| %s | %d | `%s` | `%s` | %s |\n", cpu ? cpu->name : "?", bit, word, col, desc);          \
	}
	SPE_IMPDEF_EVENT_LIST(SPE_X)
#undef SPE_X
}

static void indices(void)
{
	printf("\n## COUNTER packet indices\n\nOther indices (3-31) are kept raw; perf prints `LAT n `.\n\n"
	       "| Index | Dump word | Column | Meaning |\n|---|---|---|---|\n");
#define SPE_X(idx, id, word, col, desc) printf("| %d | `%s` | `%s` | %s |\n", idx, word, col, desc);
	SPE_COUNTER_LIST(SPE_X)
#undef SPE_X
	printf("\n## ADDRESS packet indices\n\nOther indices (5-31) are kept raw; perf prints `ADDR 0x... (n)`.\n\n"
	       "| Index | Dump word | Column | Meaning |\n|---|---|---|---|\n");
#define SPE_X(idx, id, word, col, desc) printf("| %d | `%s` | `%s` | %s |\n", idx, word, col, desc);
	SPE_ADDRESS_LIST(SPE_X)
#undef SPE_X
	printf("\n## CONTEXT packet indices\n\n| Index | Dump word | Register |\n|---|---|---|\n");
#define SPE_X(idx, id, word, desc) printf("| %d | `%s` | %s |\n", idx, word, desc);
	SPE_CONTEXT_LIST(SPE_X)
#undef SPE_X
}

static void ops(void)
{
	printf("\n## Operation-type flags\n\nIn the order the newest perf prints them.\n\n"
	       "| Flag | Dump word | Meaning |\n|---|---|---|\n");
#define SPE_X(id, word, desc) printf("| `%s` | `%s` | %s |\n", #id, word, desc);
	SPE_OP_FLAG_LIST(SPE_X)
#undef SPE_X
	printf("\n## Operation classes\n\n| Class |\n|---|\n");
#define SPE_X(id, name) printf("| `%s` |\n", name);
	SPE_OP_CLASS_LIST(SPE_X)
#undef SPE_X
}

static void memory(void)
{
	printf("\n## Memory levels\n\n| Level | Meaning | Peer cache |\n|---|---|---|\n");
#define SPE_X(id, name, peer, desc) printf("| `%s` | %s | %s |\n", name, desc, (peer) ? "yes" : "no");
	SPE_MEM_LEVEL_LIST(SPE_X)
#undef SPE_X
	printf("\n## Data-source maps\n\nCodes missing from a CPU's map have no level (the raw value is kept).\n\n"
	       "| Map | Code | Level | Modified line |\n|---|---|---|---|\n");
#define SPE_X(map, code, level, modified)                                                           \
	printf("| %s | 0x%x | `%s` | %s |\n", #map, (unsigned)(code), spe_mem_level_name(SPE_MEM_LEVEL_##level), \
	       (modified) ? "yes" : "no");
	SPE_DATA_SOURCE_LIST(SPE_X)
#undef SPE_X
}

static void cpus(void)
{
	printf("\n## CPU parts\n\nMatched on MIDR_EL1 implementer [31:24] and part number [15:4].\n\n"
	       "| Name | Implementer | Part | SPE version | Data-source map |\n|---|---|---|---|---|\n");
#define SPE_X(impl, part, name, version, map)                                                          \
	printf("| `%s` | 0x%02X | 0x%03X | %s | %s |\n", name, (unsigned)(impl), (unsigned)(part), or_dash(version), \
	       #map);
	SPE_CPU_LIST(SPE_X)
#undef SPE_X
}

static void dump_words(void)
{
	printf("\n## Other `perf report -D` words\n\n| Word |\n|---|\n");
#define SPE_X(id, word) printf("| `%s` |\n", word);
	SPE_DUMP_WORD_LIST(SPE_X)
#undef SPE_X
}

int cmd_facts(int argc, char **argv);
int cmd_facts(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "markdown", no_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "mh", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			break;
		case 'h':
			usage(stdout);
			return cli_finish_stdout("spe facts", CLI_OK);
		default:
			usage(stderr);
			return CLI_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "spe facts: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return CLI_USAGE;
	}
	printf("<!-- Generated by `spe facts --markdown` from decoder/include/spe/facts.h; do not edit. -->\n\n"
	       "# NAME\n\nspe-facts — the Arm SPE facts libspe knows, as Markdown tables\n\n"
	       "# SYNOPSIS\n\n`spe facts [--markdown]`\n\n"
	       "# DESCRIPTION\n\n"
	       "Prints the one table of SPE facts of the project (`decoder/include/spe/facts.h`): event bits,\n"
	       "counter, address and context indices, operation-type words and classes, memory levels,\n"
	       "data-source maps, CPU parts and the fixed words of the `perf report -D` text. Every C enum,\n"
	       "dump word, SQL column and filter name in spekit is expanded from these lists; this page is\n"
	       "the command's output, kept equal to it by a test.\n\n");
	events();
	indices();
	ops();
	memory();
	cpus();
	dump_words();
	printf("\n# OPTIONS\n\n`--markdown`\n: Markdown tables (the default and only format).\n\n"
	       "`-h`, `--help`\n: Print a short usage text.\n\n"
	       "# EXIT STATUS\n\n0 on success, 64 on a usage error, 74 if standard output cannot be written.\n\n"
	       "# FILES\n\nNone: the facts are compiled into libspe; the command only writes to standard output.\n\n"
	       "# EXAMPLES\n\n```\nspe facts --markdown > docs/spe-facts.1.md\n```\n\n"
	       "# SEE ALSO\n\nlibspe(3), spe-dump(1), docs/spe-format.md (the packet format these facts describe)\n");
	return cli_finish_stdout("spe facts", CLI_OK);
}
