/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The record selection options spe-report and spe-export share, as perf
 * report spells them: --source, --pid, --tid, --comm, -C/--cpu, --time,
 * --dso, --symbol.  CLI_SELECT_OPTIONS are their rows for a command's option
 * table (cli_options.h); cli_select_option parses one into struct
 * cli_select, whose .s is the analysis library's struct spe_select
 * (spe/select.h), which makes the SQL condition with bound values.
 */
#ifndef SPE_CLI_SELECT_H
#define SPE_CLI_SELECT_H

#include <stdint.h>

#include "cli_options.h"
#include "spe/select.h"

enum {
	CLI_SEL_SOURCE = CLI_ID(200),
	CLI_SEL_PID,
	CLI_SEL_TID,
	CLI_SEL_COMM,
	CLI_SEL_TIME,
	CLI_SEL_DSO,
	CLI_SEL_SYMBOL,
	CLI_SEL_CPU = 'C',
};

#define CLI_SELECT_TIME_HELP "only the records in START,END (perf time, seconds; a side may be empty) or A%-B%, P%/N"

/* The rows, the first starting the --help group @p heading. */
#define CLI_SELECT_OPTIONS(heading)                                                                                 \
	{ CLI_SEL_SOURCE, "source", 0, CLI_TEXT, "LIST", .help = "only the records of these sources (source.id: a loaded file)", \
	  .group = heading },                                                                                                  \
	{ CLI_SEL_PID, "pid", 0, CLI_TEXT, "LIST", .help = "only the records of these processes, e.g. 42 or 42,43" },        \
	{ CLI_SEL_TID, "tid", 0, CLI_TEXT, "LIST", .help = "only the records of these threads, e.g. 42 or 42,43" },          \
	{ CLI_SEL_COMM, "comm", 0, CLI_TEXT, "LIST", .help = "only the records of threads with these command names at the record's time" },      \
	{ CLI_SEL_CPU, "cpu", 'C', CLI_TEXT, "LIST", .help = "only the records of these CPUs, e.g. 1 or 0-3,8" },            \
	{ CLI_SEL_TIME, "time", 0, CLI_TEXT, "START,END", .help = CLI_SELECT_TIME_HELP },                                   \
	{ CLI_SEL_DSO, "dso", 0, CLI_TEXT, "LIST", .help = "only the records whose PC is in these files (path or base name)" }, \
	{ CLI_SEL_SYMBOL, "symbol", 0, CLI_TEXT, "LIST", .help = "only the records whose PC is in these functions" }

/* The parsed options; cli_select_fini frees what cli_select_option allocated. */
struct cli_select {
	struct spe_select s;
	char *source_text; /* --source as given (ClickHouse takes one id as text) */
	int given;         /* options other than --source were given */
};

/*
 * Take the option cli_args_next returned when it is one of the selection's:
 * 1 (taken), 0 (not a selection option), or CLI_USAGE after a message
 * naming the option and the value ("--cpu=0-x: 'x' is not a number").
 * Repeating an option adds to its list.
 */
int cli_select_option(struct cli_select *sel, const struct cli_args *a);

/*
 * Parse a --time value into @p w: "START,END" (seconds with up to nine
 * decimals, either side empty), "A%-B%" or "P%/N" (the P-th... perf's
 * forms).  0, or -1 with the problem in @p why.  For tests and the option.
 */
int cli_select_parse_time(const char *text, struct spe_select_time **w, size_t *n, char *why, size_t whylen);

void cli_select_fini(struct cli_select *sel);

#endif
