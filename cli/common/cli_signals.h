/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The stop signals, one way for every command: SIGINT, SIGTERM, SIGHUP and
 * SIGQUIT all ask the command to stop, as Ctrl-C does.  The handler only
 * records the signal (and interrupts the SQLite statement running, if the
 * command named its connection); the command sees the flag, winds down --
 * a load rolls back, an output's temporary is removed, the file it would
 * replace stays as it was -- and exits 128 + the signal's number (130 for
 * SIGINT, 143 for SIGTERM, 129 for SIGHUP, 131 for SIGQUIT), as a shell
 * reports a command a signal ended.  spe-record, for which a stop is the
 * normal end of a recording, keeps the recording and exits 0.
 *
 * A second signal (timeout(1) and a terminal can send two at once) changes
 * nothing: the wind-down goes on.  A third means the user wants out now: the
 * temporaries of spe/outfile.h are removed and the process exits at once
 * with the same status; a database being appended to keeps its rollback
 * journal, which SQLite replays at the next open.
 *
 * SIGHUP ignored when the command started (nohup) stays ignored; SIGINT
 * and SIGQUIT are caught even when a shell ignored them for a background job.
 */
#ifndef SPE_CLI_SIGNALS_H
#define SPE_CLI_SIGNALS_H

#include <signal.h>

/* Install the handler for the four signals (once; again is a no-op).  0, or -1 if sigaction failed. */
int cli_signals_install(void);

/* The flag a library polls (a cancel or stop flag): nonzero once a stop signal came. */
volatile sig_atomic_t *cli_stop_flag(void);

/* The first stop signal's number, 0 while none came. */
int cli_stop_signal(void);

/* 128 + the first stop signal's number (130 when none came: the status of a cancel). */
int cli_stop_status(void);

/* What a stop signal calls besides setting the flag (async-signal-safe, e.g. sqlite3_interrupt); NULL: none. */
void cli_signals_on_stop(void (*hook)(void));

#endif
