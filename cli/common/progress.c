/* SPDX-License-Identifier: Apache-2.0 */
/* The progress line (progress.h). */
#include "progress.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "util/visible.h"

enum { NAME_COLUMNS = 60 };               /* a longer file name is cut, with "…" */
static const double DELAY = 2.0;          /* seconds of work before the first line (SPE_PROGRESS_DELAY) */
static const double REDRAW = 0.25;        /* seconds between redraws on a terminal */
static const double LOG_EVERY = 5.0;      /* seconds between whole lines off a terminal (--progress) */

/* A line is on the terminal now (for cli_progress_abandon, from a signal handler). */
static volatile sig_atomic_t on_screen;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

enum cli_progress_mode cli_progress_for_stdout(enum cli_progress_mode mode, int to_stdout)
{
	return mode == CLI_PROGRESS_AUTO && to_stdout && isatty(STDOUT_FILENO) ? CLI_PROGRESS_OFF : mode;
}

void cli_progress_start(struct cli_progress *p, const char *prog, const char *what, enum cli_progress_mode mode)
{
	memset(p, 0, sizeof *p);
	p->prog = prog;
	int tty = isatty(STDERR_FILENO);
	p->draw = mode == CLI_PROGRESS_OFF ? 0 : tty ? 1 : mode == CLI_PROGRESS_ON ? 2 : 0;
	if (what) {
		/* a path is shown as text, never as terminal commands (util/visible.h) */
		char *v = util_visible(what, UTIL_VISIBLE_UNCOUNTED, NAME_COLUMNS);
		snprintf(p->what, sizeof p->what, "%s", v ? v : "");
		free(v);
	}
	/* SPE_PROGRESS_DELAY=S: another delay (0: from the first update; the tests' short work) */
	const char *d = getenv("SPE_PROGRESS_DELAY");
	char *end;
	double v = d && *d ? strtod(d, &end) : -1;
	p->delay = d && *d && !*end && v >= 0 && v <= 86400 ? v : DELAY;
	p->start = now();
}

/* "987", "12.3 k", "1.23 M", "4.56 G" */
static void amount(char *buf, size_t size, double v)
{
	if (v < 10000)
		snprintf(buf, size, "%.0f", v);
	else if (v < 1e6)
		snprintf(buf, size, "%.1f k", v / 1e3);
	else if (v < 1e9)
		snprintf(buf, size, "%.2f M", v / 1e6);
	else
		snprintf(buf, size, "%.2f G", v / 1e9);
}

/* "42 s", "3 min 5 s", "2 h 10 min" */
static void duration(char *buf, size_t size, double s)
{
	unsigned long t = (unsigned long)(s + 0.5);
	if (t < 60)
		snprintf(buf, size, "%lu s", t);
	else if (t < 3600)
		snprintf(buf, size, "%lu min %lu s", t / 60, t % 60);
	else
		snprintf(buf, size, "%lu h %lu min", t / 3600, t / 60 % 60);
}

/* The terminal's columns (80 when unknown). */
static unsigned columns(void)
{
	struct winsize ws;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

/* Cut @p line at @p max columns (a column per character: UTF-8 continuation bytes take none); its columns. */
static unsigned cut_columns(char *line, unsigned max)
{
	unsigned cols = 0;
	for (char *c = line; *c; c++) {
		if (((unsigned char)*c & 0xc0) == 0x80)
			continue;
		if (cols == max) {
			*c = 0;
			break;
		}
		cols++;
	}
	return cols;
}

void cli_progress_update(void *arg, const struct spe_progress *pr)
{
	struct cli_progress *p = arg;
	if (!p->draw)
		return;
	double t = now(), elapsed = t - p->start;
	/* a new step is drawn at once: the line never says the last count while something else runs */
	int new_step = pr->step && pr->step != p->step;
	if (elapsed <= 0 || elapsed < p->delay || (!new_step && t - p->last < (p->draw == 1 ? REDRAW : LOG_EVERY)))
		return;
	p->last = t;
	p->step = pr->step;
	char line[512], count[32], rate[32], left[32];
	int n = snprintf(line, sizeof line, "%s: %s%s", p->prog, p->what, *p->what ? ": " : "");
	amount(count, sizeof count, (double)pr->count);
	if (pr->step) {
		duration(left, sizeof left, elapsed);
		if (pr->total)
			n += snprintf(line + n, sizeof line - n, "%.0f%%, ", 100.0 * (double)pr->done / (double)pr->total);
		snprintf(line + n, sizeof line - n, "%s %s; %s (%s so far)", count, pr->unit, pr->step, left);
	} else {
		amount(rate, sizeof rate, (double)pr->count / elapsed);
		if (pr->total && pr->done) {
			duration(left, sizeof left, elapsed * (double)(pr->total - pr->done) / (double)pr->done);
			n += snprintf(line + n, sizeof line - n, "%.0f%%, ", 100.0 * (double)pr->done / (double)pr->total);
			snprintf(line + n, sizeof line - n, "%s %s, %s %s/s, %s left", count, pr->unit, rate, pr->unit,
				 left);
		} else {
			snprintf(line + n, sizeof line - n, "%s %s, %s %s/s", count, pr->unit, rate, pr->unit);
		}
	}
	if (p->draw == 2) {
		fprintf(stderr, "%s\n", line);
		return;
	}
	/* in place: never as wide as the terminal, whose last column would wrap */
	unsigned width = columns(), cols = cut_columns(line, width > 1 ? width - 1 : 1);
	on_screen = 1; /* before the line: a signal's exit in between still ends it */
	fprintf(stderr, "\r%s%*s", line, p->shown > cols ? (int)(p->shown - cols) : 0, "");
	fflush(stderr);
	p->shown = cols;
}

void cli_progress_clear(struct cli_progress *p)
{
	if (!p || !p->shown)
		return;
	fprintf(stderr, "\r%*s\r", (int)p->shown, "");
	fflush(stderr);
	p->shown = 0;
	on_screen = 0;
	p->last = 0; /* the next update redraws at once */
}

void cli_progress_abandon(void)
{
	if (on_screen) {
		ssize_t w = write(STDERR_FILENO, "\n", 1);
		(void)w;
		on_screen = 0;
	}
}
