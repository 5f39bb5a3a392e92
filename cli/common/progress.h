/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The progress line of long work (spe-load, spe-export, spe-report --html,
 * spe-dump --records, the ClickHouse load), one implementation for all:
 *
 *   spe-load: trace.data: 45% of the SPE data, 1.23 M records, 1.9 M records/s, 3 s left
 *
 * on stderr, redrawn in place (carriage return, the line, blanks over what
 * the last one left), at most four times a second, cut to the terminal's
 * width so it never wraps.  Nothing is drawn before the work has run two
 * seconds (SPE_PROGRESS_DELAY=SECONDS sets another delay; the tests use 0):
 * short work prints nothing.
 *
 * When: by default (auto) only when stderr is a terminal, as perf does;
 * never in a pipe, a file or a CI log.  --progress forces it: on a terminal
 * the same line; elsewhere (a log the user asked for) a whole line every
 * five seconds, each ended by a newline, so the log reads line by line.
 * --no-progress: never.
 *
 * Before anything else is printed during the work (a warning), and at the
 * end of it, success or failure or a stop signal, the line is erased, so the
 * next message starts on a clean line.  A third stop signal, which exits at
 * once (cli_signals.h), ends the line with a newline first.
 */
#ifndef SPE_CLI_PROGRESS_H
#define SPE_CLI_PROGRESS_H

#include <stdint.h>

#include "spe/progress.h"

enum cli_progress_mode {
	CLI_PROGRESS_AUTO = 0, /* when stderr is a terminal */
	CLI_PROGRESS_ON,       /* --progress */
	CLI_PROGRESS_OFF,      /* --no-progress */
};

/* The two rows of a command's option table (cli_options.h), with the command's ids; the same on every command. */
#define CLI_PROGRESS_OPTIONS(id_on, id_off)                                                                   \
	{ id_on, "progress", 0, CLI_FLAG,                                                                      \
	  .help = "a progress line on stderr even when it is not a terminal (default: on a terminal, after 2 s)", \
	  .group = "Progress" },                                                                               \
	{ id_off, "no-progress", 0, CLI_FLAG, .help = "no progress line" }

struct cli_progress {
	const char *prog;  /* "spe-load" */
	char what[256];    /* the file or the work, shown after prog ("trace.data") */
	int draw;          /* 0: never (off, or auto off a terminal); 1: in place on a terminal; 2: whole lines */
	double start;      /* monotonic seconds at cli_progress_start */
	double delay;      /* seconds before the first line: 2, or SPE_PROGRESS_DELAY's */
	double last;       /* when the last line was drawn */
	unsigned shown;    /* columns of the line on screen (draw 1), 0 when none */
	const char *step;  /* the step last drawn (spe_progress.step), NULL: counting */
};

/*
 * The mode for a command whose result goes to standard output when
 * @p to_stdout: auto is off when that is a terminal too (the line would
 * land among the result's).
 */
enum cli_progress_mode cli_progress_for_stdout(enum cli_progress_mode mode, int to_stdout);

/* Start timing work: @p what (a file name; NULL: none) is shown after @p prog. */
void cli_progress_start(struct cli_progress *p, const char *prog, const char *what, enum cli_progress_mode mode);

/* The library's callback (spe/progress.h), with @p arg the struct cli_progress. */
void cli_progress_update(void *arg, const struct spe_progress *pr);

/* Erase the line, if one is on screen (before another message; at the end of the work). */
void cli_progress_clear(struct cli_progress *p);

/* The line is shown on a terminal now: a newline ends it (async-signal-safe; the third stop signal's). */
void cli_progress_abandon(void);

#endif
