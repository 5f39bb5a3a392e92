/* SPDX-License-Identifier: Apache-2.0 */
/* The stop signals (cli_signals.h). */
#include "cli_signals.h"

#include <string.h>
#include <unistd.h>

#include "progress.h"
#include "spe/outfile.h"

static volatile sig_atomic_t stop_flag;  /* nonzero once a stop signal came */
static volatile sig_atomic_t first_sig;  /* its number */
static volatile sig_atomic_t count;      /* signals so far */
static void (*volatile stop_hook)(void); /* the command's (cli_signals_on_stop) */

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

static void on_stop(int sig)
{
	if (!first_sig)
		first_sig = sig;
	stop_flag = 1;
	void (*hook)(void) = stop_hook;
	if (hook)
		hook(); /* e.g. the SQLite statement running ends at its next step */
	if (++count >= 3) { /* the third: now, without the wind-down */
		cli_progress_abandon(); /* a progress line on the terminal is ended */
		spe_outfile_remove_temporaries();
		_exit(128 + first_sig);
	}
}

int cli_signals_install(void)
{
	static int installed;
	if (installed)
		return 0;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	/* one handler at a time: a signal during the handler waits for it; no SA_RESTART, so a blocked read returns */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof stop_signals / sizeof stop_signals[0]; i++)
		sigaddset(&sa.sa_mask, stop_signals[i]);
	for (size_t i = 0; i < sizeof stop_signals / sizeof stop_signals[0]; i++) {
		struct sigaction old;
		if (sigaction(stop_signals[i], NULL, &old) != 0)
			return -1;
		/*
		 * nohup ignores SIGHUP on purpose: kept.  SIGINT and SIGQUIT are
		 * ignored by a shell for a job it starts with '&'; they are caught
		 * all the same, as spekit's commands always did, so a script can
		 * stop its background job with kill -INT.
		 */
		if (stop_signals[i] == SIGHUP && old.sa_handler == SIG_IGN)
			continue;
		if (sigaction(stop_signals[i], &sa, NULL) != 0)
			return -1;
	}
	installed = 1;
	return 0;
}

volatile sig_atomic_t *cli_stop_flag(void)
{
	return &stop_flag;
}

int cli_stop_signal(void)
{
	return first_sig;
}

int cli_stop_status(void)
{
	return 128 + (first_sig ? first_sig : SIGINT);
}

void cli_signals_on_stop(void (*hook)(void))
{
	stop_hook = hook;
}
