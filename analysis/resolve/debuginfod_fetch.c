/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Bounded debuginfod fetches (debuginfod_fetch.h).  elfutils 0.188's client
 * calls the progress function once per turn of its transfer loop (at least
 * once a second: debuginfod/debuginfod-client.c waits at most 1 s per turn)
 * with the bytes received once a server answers; debuginfod_get_url is NULL
 * until then.  A non-zero return ends the transfer; the find then fails
 * with -ENOENT and the client writes an empty file in its cache, its mark
 * of a miss, which is removed here for a fetch that was only given up.
 */
#include "debuginfod_fetch.h"

#include <elfutils/debuginfod.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct dbgd {
	debuginfod_client *client;
	int timeout;
	const volatile sig_atomic_t *cancel;
	void (*on_fetch)(void *arg, const struct spe_sym_fetch *f);
	void *arg;
	int gave_up;            /* a fetch timed out: no more */
	/* the fetch under way */
	struct timespec start, last_byte;
	long bytes;
	int answered, cancelled, timed_out;
};

static double since(const struct timespec *t)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

struct dbgd *ana_dbgd_new(const struct spe_sym_opts *opts)
{
	if (!opts->debuginfod)
		return NULL;
	struct dbgd *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->timeout = opts->debuginfod_timeout;
	const char *env = getenv("DEBUGINFOD_TIMEOUT");
	if (d->timeout <= 0 && env && atoi(env) > 0)
		d->timeout = atoi(env);
	if (d->timeout <= 0)
		d->timeout = SPE_SYM_DEBUGINFOD_TIMEOUT;
	d->cancel = opts->cancel;
	d->on_fetch = opts->on_fetch;
	d->arg = opts->arg;
	return d;
}

void ana_dbgd_free(struct dbgd *d)
{
	if (!d)
		return;
	if (d->client)
		debuginfod_end(d->client);
	free(d);
}

/* Non-zero ends the transfer: cancelled, or no byte for the timeout. */
static int progress(debuginfod_client *c, long a, long b)
{
	(void)b;
	struct dbgd *d = debuginfod_get_user_data(c);
	if (d->cancel && *d->cancel) {
		d->cancelled = 1;
		return 1;
	}
	if (debuginfod_get_url(c)) { /* a server answers: a counts bytes */
		if (!d->answered || a != d->bytes) {
			d->answered = 1;
			d->bytes = a;
			clock_gettime(CLOCK_MONOTONIC, &d->last_byte);
		}
	}
	if (since(d->answered ? &d->last_byte : &d->start) >= d->timeout) {
		d->timed_out = 1;
		return 1;
	}
	return 0;
}

/*
 * The client's cache directory, as debuginfod-client-config(7) gives it:
 * $DEBUGINFOD_CACHE_PATH, else $HOME/.debuginfod_client_cache if it exists,
 * else $XDG_CACHE_HOME/debuginfod_client, else $HOME/.cache/debuginfod_client.
 */
static void cache_dir(char *buf, size_t size)
{
	const char *env = getenv("DEBUGINFOD_CACHE_PATH"), *home = getenv("HOME"), *xdg = getenv("XDG_CACHE_HOME");
	struct stat st;
	if (!home)
		home = "/";
	if (env && *env) {
		snprintf(buf, size, "%s", env);
		return;
	}
	snprintf(buf, size, "%s/.debuginfod_client_cache", home);
	if (stat(buf, &st) == 0)
		return;
	if (xdg && *xdg)
		snprintf(buf, size, "%s/debuginfod_client", xdg);
	else
		snprintf(buf, size, "%s/.cache/debuginfod_client", home);
}

/* The miss the client recorded for a fetch given up: an empty file no older than the fetch. */
static void forget_miss(const char *hex, const char *what, time_t started)
{
	char dir[4096], file[4200];
	struct stat st;
	cache_dir(dir, sizeof dir);
	snprintf(file, sizeof file, "%s/%s/%s", dir, hex, what);
	if (lstat(file, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0 && st.st_mtime >= started) {
		unlink(file);
		snprintf(file, sizeof file, "%s/%s", dir, hex);
		rmdir(file); /* only when empty */
	}
}

int ana_dbgd_fetch(struct dbgd *d, const char *hex, const char *what, const char *for_path, char **file)
{
	*file = NULL;
	const char *urls = getenv("DEBUGINFOD_URLS");
	if (!d || d->gave_up || !urls || !*urls)
		return -spe_unavailable;
	if (d->cancel && *d->cancel)
		return -spe_cancelled;
	if (!d->client) {
		if (!(d->client = debuginfod_begin()))
			return -spe_unavailable;
		debuginfod_set_user_data(d->client, d);
		debuginfod_set_progressfn(d->client, progress);
	}
	struct spe_sym_fetch ev = { .what = what, .build_id = hex, .path = for_path, .timeout = d->timeout };
	if (d->on_fetch)
		d->on_fetch(d->arg, &ev);
	d->answered = d->cancelled = d->timed_out = 0;
	d->bytes = 0;
	clock_gettime(CLOCK_MONOTONIC, &d->start);
	time_t started = time(NULL);
	int fd = strcmp(what, "executable") == 0
			 ? debuginfod_find_executable(d->client, (const unsigned char *)hex, 0, file)
			 : debuginfod_find_debuginfo(d->client, (const unsigned char *)hex, 0, file);
	ev.done = 1;
	ev.seconds = since(&d->start);
	ev.url = debuginfod_get_url(d->client);
	ev.timed_out = d->timed_out;
	if (fd >= 0) {
		ev.file = *file;
	} else if (d->cancelled || d->timed_out) {
		forget_miss(hex, what, started);
		ev.status = d->cancelled ? -spe_cancelled : -spe_unavailable;
		d->gave_up |= d->timed_out;
	} else {
		ev.error = -fd;
		ev.status = fd == -ENOENT ? -spe_not_found : -spe_unavailable;
	}
	if (d->on_fetch)
		d->on_fetch(d->arg, &ev);
	if (fd < 0) {
		free(*file);
		*file = NULL;
		return ev.status;
	}
	return fd;
}
