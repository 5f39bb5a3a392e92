/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe facts: print the SPE facts table (decoder/include/spe/facts.h) as
 * Markdown.  docs/spe-facts.1.md is this command's output; a test keeps the
 * two equal.
 */
#include <stdio.h>
#include <string.h>

#include "common/cli_options.h"
#include "common/cli_util.h"
#include "spe/spe.h"

static const char *const usage[] = { "spe facts [--markdown]", NULL };

static const struct cli_option options[] = {
	{ 'm', "markdown", 0, CLI_FLAG, .help = "Markdown tables (the default and only format)" },
	{ 0 },
};

const struct cli_command cli_command_facts = {
	.name = "facts",
	.prog = "spe-facts",
	.summary = "print the SPE facts libspe knows (events, counters, CPU parts) as Markdown",
	.usage = usage,
	.about = "Print the SPE facts libspe knows (events, counters, addresses, op types,\n"
		 "memory levels, data-source maps, CPU parts) as Markdown tables.",
	.options = options,
	.operands = CLI_OPERANDS_AFTER_DASHDASH,
};

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

/* The levels of @p cpu's data-source map with a given trait (peer, remote, modified codes), "—" if none. */
static void map_levels(const struct spe_cpu_info *cpu, int want_peer, int want_remote, int want_modified, char *out,
		       size_t size)
{
	struct spe_ds_entry ds[64];
	size_t n_ds = spe_cpu_data_sources(cpu, ds, 64), n = 0;
	unsigned seen = 0; /* levels listed already (bit per level) */
	out[0] = 0;
	for (size_t i = 0; i < n_ds && i < 64; i++) {
		if ((want_peer && !spe_mem_level_is_peer(ds[i].level)) ||
		    (want_remote && !spe_mem_level_is_remote(ds[i].level)) || (want_modified && !ds[i].modified) ||
		    (seen & 1u << ds[i].level))
			continue;
		seen |= 1u << ds[i].level;
		n += (size_t)snprintf(out + n, n < size ? size - n : 0, "%s%s", n ? ", " : "",
				      spe_mem_level_name(ds[i].level));
	}
	if (!n)
		snprintf(out, size, "—");
}

static const char *yes_no(int v)
{
	return v > 0 ? "yes" : v == 0 ? "no" : "?";
}

static void evidence(void)
{
	printf("\n## Sharing, remote and prefetch evidence per CPU part\n\n"
	       "What each part's SPE records can show (derived from the lists above; the memory views\n"
	       "of docs/schema.md use exactly this). A HITM-like load (c2c's \"load that hit a line\n"
	       "another core modified\") is seen through the `cache_data_modified` event (SPEv1.4) or\n"
	       "through a data-source code marked modified; peer and remote levels come from the\n"
	       "data source; the prefetch events are the `recently_fetched` event (SPEv1.4) and named\n"
	       "IMPLEMENTATION DEFINED bits.\n\n"
	       "| Part | SPE | HITM event | Snoop event | Modified-line codes | Peer levels | Remote levels | "
	       "Fill buffer (`recently_fetched`) | Late prefetch |\n|---|---|---|---|---|---|---|---|---|\n");
	static const struct spe_cpu_info parts[] = {
#define SPE_X(impl, part, name, version, map) { impl, part, name, version, SPE_DS_MAP_##map },
		SPE_CPU_LIST(SPE_X)
#undef SPE_X
	};
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		const struct spe_cpu_info *c = &parts[i];
		uint32_t midr = c->implementer << 24 | c->part << 4;
		char mod[128], peer_l[128], remote_l[128], late[64] = "—";
		map_levels(c, 0, 0, 1, mod, sizeof mod);
		map_levels(c, 1, 0, 0, peer_l, sizeof peer_l);
		map_levels(c, 0, 1, 0, remote_l, sizeof remote_l);
		int late_bit = spe_impdef_event_bit(midr, "late_prefetch");
		if (late_bit >= 0)
			snprintf(late, sizeof late, "bit %d", late_bit);
		printf("| `%s` | %s | %s | %s | %s | %s | %s | %s | %s |\n", c->name, or_dash(c->spe_version),
		       yes_no(spe_cpu_has_event(c, SPE_EV_CACHE_DATA_MODIFIED)),
		       yes_no(spe_cpu_has_event(c, SPE_EV_DATA_SNOOPED)), mod, peer_l, remote_l,
		       yes_no(spe_cpu_has_event(c, SPE_EV_RECENTLY_FETCHED)), late);
	}
	printf("\nA part without a data-source map (`—` levels) shows no levels at all: sharing is then\n"
	       "visible only as several CPUs storing to one line. Without physical addresses the NUMA\n"
	       "view counts the remote levels instead of nodes.\n");
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
	const struct cli_command *cmd = &cli_command_facts;
	struct cli_args a;
	int c;
	cli_args_init(&a, cmd, argc, argv);
	while ((c = cli_args_next(&a)) > 0)
		; /* --markdown: the only format */
	if (c < 0)
		return a.status;
	if (a.optind < argc)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[a.optind]);
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
	evidence();
	dump_words();
	printf("\n# OPTIONS\n\n");
	cli_print_markdown_options(cmd, stdout); /* from the table above */
	printf("# EXIT STATUS\n\n0 on success, 64 on a usage error, 74 if standard output cannot be written.\n\n"
	       "# FILES\n\nNone: the facts are compiled into libspe; the command only writes to standard output.\n\n"
	       "# EXAMPLES\n\n```\nspe facts --markdown > docs/spe-facts.1.md\n```\n\n"
	       "# SEE ALSO\n\nlibspe(3), spe-dump(1), docs/spe-format.md (the packet format these facts describe)\n");
	return cli_finish_stdout(cmd->prog, CLI_OK);
}
