/* SPDX-License-Identifier: Apache-2.0 */
/*
 * --timeout and --max-memory, one implementation for the commands that run
 * SQL over a database someone may have crafted (spe-query, spe-report,
 * spe-export): a recursive view that never ends is stopped at the deadline,
 * a view that builds a huge string at SQLite's heap cap.
 *
 *  - --timeout=SECONDS: a progress handler ends the statement running
 *    (SQLITE_INTERRUPT) once the deadline has passed.  Default: none when
 *    standard input is a terminal (someone is there to press Ctrl-C), else
 *    CLI_DEFAULT_TIMEOUT_S; 0: none.
 *  - --max-memory=BYTES: SQLite's hard heap limit (sqlite3_hard_heap_limit64),
 *    default CLI_DEFAULT_MAX_MEMORY, 0: none.  Sorts beyond the page cache
 *    spill to temporary files.
 *  - Out of memory is told apart: SQLite's allocator is wrapped, so a
 *    failure of the system allocator (a real shortage, ulimit -v) is "out
 *    of memory", and a refusal at the cap (SQLite refuses before asking the
 *    system) is "needs more than --max-memory".
 * A stop signal (cli_signals.h) interrupts the statement too.
 */
#ifndef SPE_CLI_SQL_LIMITS_H
#define SPE_CLI_SQL_LIMITS_H

#include <stdint.h>

#include <sqlite3.h>

#define CLI_DEFAULT_TIMEOUT_S 600
#define CLI_DEFAULT_MAX_MEMORY (512ull << 20)
#define CLI_STRINGIFY_(x) #x
#define CLI_STRINGIFY(x) CLI_STRINGIFY_(x)
#define CLI_TIMEOUT_HELP "stop after SECONDS (default: none on a terminal, else " CLI_STRINGIFY(CLI_DEFAULT_TIMEOUT_S) "; 0: none)"
#define CLI_MAX_MEMORY_HELP "cap SQLite's memory, e.g. 512M (default 512M; 0: no cap)"

struct cli_sql_limits {
	double timeout;      /* seconds, 0: none */
	uint64_t max_memory; /* bytes, 0: no cap */
};

/* The defaults: CLI_DEFAULT_MAX_MEMORY, and the timeout by whether standard input is a terminal. */
void cli_sql_limits_default(struct cli_sql_limits *l);

/* --@p name=@p text, name "timeout" or "max-memory": 0, or a usage error printed for @p prog (CLI_USAGE). */
int cli_sql_limits_option(const char *prog, const char *name, const char *text, struct cli_sql_limits *l);
/* --timeout=@p text and --max-memory=@p text: 0, or a usage error printed for @p prog (CLI_USAGE). */
int cli_sql_parse_timeout(const char *prog, const char *text, struct cli_sql_limits *l);
int cli_sql_parse_max_memory(const char *prog, const char *text, struct cli_sql_limits *l);

/*
 * Before SQLite initialises (before the first open): memory statistics on
 * when capped, the cap, and the allocator that tells a real shortage from
 * the cap.
 */
void cli_sql_limits_setup(const struct cli_sql_limits *l);

/* From now on, the deadline and stop signals end @p db's statements; NULL: stop watching. */
void cli_sql_limits_watch(sqlite3 *db);

/* What ended a statement that failed: the deadline, a real allocation failure, or the memory cap. */
int cli_sql_timed_out(void);
int cli_sql_out_of_memory(void); /* the system allocator failed (not the cap) */

/*
 * After a failed run with spe_* code @p rc and message @p msg: one line on
 * stderr ("PROG: MSG", or the limit that stopped it, said as what it is)
 * and the exit status: a stop signal 128+N, the deadline or memory 69
 * (EX_UNAVAILABLE: more time or memory is needed), otherwise
 * cli_exit_status(@p rc) (a database that is corrupt or not what it says 65,
 * the disk 74).
 */
int cli_sql_failure(const char *prog, int rc, const char *msg);

#endif
