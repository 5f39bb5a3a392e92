/* SPDX-License-Identifier: Apache-2.0 */
/* --timeout and --max-memory for the commands that run SQL (cli_sql_limits.h). */
#include "cli_sql_limits.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_signals.h"
#include "cli_util.h"
#include "spe/spe.h"

/* The progress handler runs every this many SQLite VM instructions. */
#define PROGRESS_STEPS 10000

static struct cli_sql_limits limits;
static struct timespec deadline;
static int timed_out;
static volatile sig_atomic_t system_oom; /* the system allocator returned NULL */
static volatile sig_atomic_t cap_hit;    /* an allocation was refused at --max-memory */
static _Atomic long long used;           /* bytes SQLite holds from the allocator */
static sqlite3 *volatile watched;
static sqlite3_mem_methods system_mem;

void cli_sql_limits_default(struct cli_sql_limits *l)
{
	l->timeout = isatty(STDIN_FILENO) ? 0 : CLI_DEFAULT_TIMEOUT_S;
	l->max_memory = CLI_DEFAULT_MAX_MEMORY;
}

int cli_sql_parse_timeout(const char *prog, const char *text, struct cli_sql_limits *l)
{
	char *end;
	errno = 0;
	double v = strtod(text, &end);
	if (!*text || *end || errno || !(v >= 0) || v > 1e9) {
		fprintf(stderr, "%s: --timeout=%s: expected seconds, e.g. 30 or 0.5 (0: no limit) (see %s --help)\n", prog,
			text, prog);
		return CLI_USAGE;
	}
	l->timeout = v;
	return 0;
}

int cli_sql_parse_max_memory(const char *prog, const char *text, struct cli_sql_limits *l)
{
	uint64_t v;
	if (cli_parse_size(text, &v) || (v && v < (1u << 20))) {
		fprintf(stderr, "%s: --max-memory=%s: expected bytes of at least 1M, e.g. 512M (0: no cap) (see %s --help)\n",
			prog, text, prog);
		return CLI_USAGE;
	}
	l->max_memory = v;
	return 0;
}

int cli_sql_limits_option(const char *prog, const char *name, const char *text, struct cli_sql_limits *l)
{
	return !strcmp(name, "timeout") ? cli_sql_parse_timeout(prog, text, l) : cli_sql_parse_max_memory(prog, text, l);
}

/*
 * SQLite's allocator with the cap: it counts what SQLite holds, refuses
 * past --max-memory (cap_hit) and notes when the system's allocator fails
 * (system_oom), so the message says which.  (sqlite3_hard_heap_limit64
 * refuses before calling the allocator, so the two could not be told apart.)
 */
static int over_cap(long long more)
{
	if (!limits.max_memory || more <= 0 || used + more <= (long long)limits.max_memory)
		return 0;
	cap_hit = 1;
	return 1;
}

static void *mem_malloc(int n)
{
	if (over_cap(n))
		return NULL;
	void *p = system_mem.xMalloc(n);
	if (!p)
		system_oom = 1;
	else
		used += system_mem.xSize(p);
	return p;
}

static void mem_free(void *p)
{
	if (p)
		used -= system_mem.xSize(p);
	system_mem.xFree(p);
}

static void *mem_realloc(void *p, int n)
{
	int old = p ? system_mem.xSize(p) : 0;
	if (over_cap((long long)n - old))
		return NULL;
	void *q = system_mem.xRealloc(p, n);
	if (!q) {
		system_oom = 1;
		return NULL;
	}
	used += system_mem.xSize(q) - old;
	return q;
}

void cli_sql_limits_setup(const struct cli_sql_limits *l)
{
	limits = *l;
	/* before SQLite initialises; MISUSE afterwards, when these stay as they were */
	if (sqlite3_config(SQLITE_CONFIG_GETMALLOC, &system_mem) == SQLITE_OK) {
		sqlite3_mem_methods m = system_mem;
		m.xMalloc = mem_malloc;
		m.xFree = mem_free;
		m.xRealloc = mem_realloc;
		sqlite3_config(SQLITE_CONFIG_MALLOC, &m);
	}
	/* the page cache gives memory back before the cap is reached; the statistics count for that */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, l->max_memory ? 1 : 0);
	if (l->max_memory)
		sqlite3_soft_heap_limit64((sqlite3_int64)(l->max_memory - l->max_memory / 8));
}

/* Ends the statement (SQLITE_INTERRUPT) once the deadline has passed, or on a stop signal. */
static int on_progress(void *ctx)
{
	(void)ctx;
	if (limits.timeout > 0 && !timed_out) {
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > deadline.tv_sec || (now.tv_sec == deadline.tv_sec && now.tv_nsec >= deadline.tv_nsec))
			timed_out = 1;
	}
	return timed_out || *cli_stop_flag();
}

static void interrupt_watched(void)
{
	sqlite3 *db = watched;
	if (db)
		sqlite3_interrupt(db);
}

void cli_sql_limits_watch(sqlite3 *db)
{
	watched = db;
	cli_signals_on_stop(db ? interrupt_watched : NULL);
	if (!db)
		return;
	if (limits.timeout > 0) {
		clock_gettime(CLOCK_MONOTONIC, &deadline);
		deadline.tv_sec += (time_t)limits.timeout;
		deadline.tv_nsec += (long)((limits.timeout - (double)(time_t)limits.timeout) * 1e9);
		if (deadline.tv_nsec >= 1000000000L) {
			deadline.tv_sec++;
			deadline.tv_nsec -= 1000000000L;
		}
	}
	sqlite3_progress_handler(db, PROGRESS_STEPS, on_progress, NULL);
}

int cli_sql_timed_out(void)
{
	return timed_out;
}

int cli_sql_out_of_memory(void)
{
	return system_oom;
}

int cli_sql_failure(const char *prog, int rc, const char *msg)
{
	if (cli_stop_signal()) {
		fprintf(stderr, "%s: interrupted\n", prog);
		return cli_stop_status();
	}
	if (timed_out) {
		fprintf(stderr, "%s: ran past --timeout=%g seconds and was stopped (%s)\n", prog, limits.timeout, msg);
		return CLI_UNAVAILABLE;
	}
	if (rc == -spe_nomem) {
		if (!cap_hit)
			fprintf(stderr, "%s: out of memory (%s)\n", prog, msg);
		else
			fprintf(stderr, "%s: needs more than --max-memory=%llu bytes (%s); raise it, or 0 for no cap\n", prog,
				(unsigned long long)limits.max_memory, msg);
		return CLI_UNAVAILABLE;
	}
	fprintf(stderr, "%s: %s\n", prog, msg);
	return cli_exit_status(rc);
}
