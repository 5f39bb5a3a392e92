/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The selection options (cli_select.h): lists of ids and CPU ranges, time
 * windows in perf report's forms (perf-report(1), --time), lists of names.
 */
#include "cli_select.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "spe/aux.h" /* SPE_AUX_MAX_CPUS */

/* Append @p elem (of @p size bytes) to *@p array of *@p n; -1 without memory. */
static int push(void *array, size_t *n, size_t size, const void *elem)
{
	void **a = array;
	void *grown = realloc(*a, (*n + 1) * size);
	if (!grown)
		return -1;
	memcpy((char *)grown + *n * size, elem, size);
	*a = grown;
	(*n)++;
	return 0;
}

/* The comma-separated items of @p text, each passed to @p item; CLI_USAGE after the first refused. */
static int each_item(const struct cli_args *a, const char *text, int (*item)(struct cli_select *, const char *, size_t,
									     char *, size_t),
		     struct cli_select *sel)
{
	char given[256];
	cli_args_given(a, given, sizeof given);
	for (const char *p = text;; p++) {
		size_t len = strcspn(p, ",");
		char why[160] = "";
		int rc = len ? item(sel, p, len, why, sizeof why) : (snprintf(why, sizeof why, "is empty"), -1);
		if (rc == -2) {
			fprintf(stderr, "%s: out of memory\n", a->cmd->prog);
			return CLI_USAGE;
		}
		if (rc < 0)
			return cli_usage_error(a->cmd, "%s: '%.*s' %s", given, (int)len, p, why);
		p += len;
		if (!*p)
			return 1;
	}
}

/* An id or CPU number from @p p (@p len bytes): 0, or -1 with why ("is not a number (ids from 0 to N, e.g. 42,43)"). */
static int number(const char *p, size_t len, int64_t max, int64_t *out, char *why, size_t wl)
{
	char buf[32];
	int is_cpu = max == SPE_AUX_MAX_CPUS - 1;
	int bad = len >= sizeof buf ? -1 : 0;
	if (!bad) {
		snprintf(buf, sizeof buf, "%.*s", (int)len, p);
		bad = cli_int_value(buf, 0, max, out);
	}
	if (bad)
		snprintf(why, wl, "is %s (%s from 0 to %lld, e.g. %s)", bad == -1 ? "not a number" : "out of range",
			 is_cpu ? "CPUs" : "ids", (long long)max, is_cpu ? "0-3,8" : "42,43");
	return bad ? -1 : 0;
}

static int id_item(int64_t **list, size_t *n, const char *p, size_t len, char *why, size_t wl)
{
	int64_t v;
	if (number(p, len, INT32_MAX, &v, why, wl) < 0)
		return -1;
	return push(list, n, sizeof v, &v) < 0 ? -2 : 0;
}

static int source_item(struct cli_select *s, const char *p, size_t len, char *why, size_t wl)
{
	return id_item((int64_t **)&s->s.sources, &s->s.n_sources, p, len, why, wl);
}

static int pid_item(struct cli_select *s, const char *p, size_t len, char *why, size_t wl)
{
	return id_item((int64_t **)&s->s.pids, &s->s.n_pids, p, len, why, wl);
}

static int tid_item(struct cli_select *s, const char *p, size_t len, char *why, size_t wl)
{
	return id_item((int64_t **)&s->s.tids, &s->s.n_tids, p, len, why, wl);
}

/* A CPU or a range of them: 3, 0-3 */
static int cpu_item(struct cli_select *s, const char *p, size_t len, char *why, size_t wl)
{
	const char *dash = memchr(p, '-', len);
	struct spe_select_range r;
	int64_t max = SPE_AUX_MAX_CPUS - 1;
	if (number(p, dash ? (size_t)(dash - p) : len, max, &r.lo, why, wl) < 0 ||
	    (dash ? number(dash + 1, len - (size_t)(dash - p) - 1, max, &r.hi, why, wl) : (r.hi = r.lo, 0)) < 0)
		return -1;
	if (r.hi < r.lo) {
		snprintf(why, wl, "is a range from high to low");
		return -1;
	}
	return push(&s->s.cpus, &s->s.n_cpus, sizeof r, &r) < 0 ? -2 : 0;
}

static int name_item(const char *const **list, size_t *n, const char *p, size_t len)
{
	char *copy = strndup(p, len);
	if (!copy || push(list, n, sizeof copy, &copy) < 0) {
		free(copy);
		return -2;
	}
	return 0;
}

static int comm_item(struct cli_select *s, const char *p, size_t len, char *why, size_t wl)
{
	(void)why, (void)wl;
	return name_item(&s->s.comms, &s->s.n_comms, p, len);
}

static int dso_item(struct cli_select *s, const char *p, size_t len, char *why, size_t wl)
{
	(void)why, (void)wl;
	return name_item(&s->s.dsos, &s->s.n_dsos, p, len);
}

static int symbol_item(struct cli_select *s, const char *p, size_t len, char *why, size_t wl)
{
	(void)why, (void)wl;
	return name_item(&s->s.symbols, &s->s.n_symbols, p, len);
}

/* Seconds with up to nine decimals ("12345.678901") as nanoseconds: 0, or -1. */
static int seconds(const char *p, size_t len, int64_t *ns)
{
	int64_t whole = 0, frac = 0;
	size_t i = 0, digits = 0;
	for (; i < len && isdigit((unsigned char)p[i]); i++) {
		if (whole > (INT64_MAX / 1000000000 - 9) / 10)
			return -1;
		whole = whole * 10 + (p[i] - '0');
		digits++;
	}
	if (i < len && p[i] == '.') {
		size_t d = 0;
		for (i++; i < len && isdigit((unsigned char)p[i]); i++, d++) {
			if (d == 9)
				return -1; /* finer than a nanosecond */
			frac = frac * 10 + (p[i] - '0');
			digits++;
		}
		for (; d < 9; d++)
			frac *= 10;
	}
	if (i != len || !digits)
		return -1;
	*ns = whole * 1000000000 + frac;
	return 0;
}

/* "12.5%" as 0.125: 0, or -1. */
static int percent(const char *p, size_t len, double *out)
{
	char buf[32], *end;
	if (len < 2 || len >= sizeof buf || p[len - 1] != '%')
		return -1;
	snprintf(buf, sizeof buf, "%.*s", (int)len - 1, p);
	if (!isdigit((unsigned char)buf[0]))
		return -1;
	double v = strtod(buf, &end);
	if (*end || !(v >= 0 && v <= 100))
		return -1;
	*out = v / 100;
	return 0;
}

int cli_select_parse_time(const char *text, struct spe_select_time **w, size_t *n, char *why, size_t whylen)
{
	int pct = strchr(text, '%') != NULL;
	/* percent windows are separated by commas, absolute ones (START,END) by spaces */
	const char *sep = pct ? "," : " ";
	for (const char *p = text;; p++) {
		p += strspn(p, " ");
		size_t len = strcspn(p, sep);
		if (!len && !*p)
			break;
		struct spe_select_time t = { .percent = pct, .lo = INT64_MIN, .hi = INT64_MAX };
		const char *mid;
		int bad = 0;
		if (pct && (mid = memchr(p, '/', len))) { /* P%/N: the N-th slice of P % */
			double size;
			char nbuf[16], *end;
			size_t nl = len - (size_t)(mid - p) - 1;
			snprintf(nbuf, sizeof nbuf, "%.*s", (int)(nl < 15 ? nl : 15), mid + 1);
			long k = strtol(nbuf, &end, 10);
			bad = percent(p, (size_t)(mid - p), &size) < 0 || size <= 0 || nl == 0 || nl > 9 || *end || k < 1;
			if (!bad) {
				t.from = size * (double)(k - 1);
				t.to = size * (double)k;
				bad = t.to > 1 + 1e-9;
			}
		} else if (pct && (mid = memchr(p, '-', len))) { /* A%-B% */
			bad = percent(p, (size_t)(mid - p), &t.from) < 0 ||
			      percent(mid + 1, len - (size_t)(mid - p) - 1, &t.to) < 0 || t.to < t.from;
		} else if (!pct && (mid = memchr(p, ',', len))) { /* START,END */
			size_t a = (size_t)(mid - p), b = len - a - 1;
			bad = (a && seconds(p, a, &t.lo) < 0) || (b && seconds(mid + 1, b, &t.hi) < 0) || t.hi < t.lo;
		} else {
			bad = 1;
		}
		if (bad) {
			snprintf(why, whylen, "'%.*s' is not %s", (int)len, p,
				 pct ? "A%-B% or P%/N (e.g. 0%-10%, 10%/2)" : "START,END in seconds (e.g. 1234.5,1234.75; 1234.5,)");
			return -1;
		}
		if (push(w, n, sizeof t, &t) < 0) {
			snprintf(why, whylen, "out of memory");
			return -1;
		}
		p += len;
		if (!*p)
			break;
	}
	if (!*n) {
		snprintf(why, whylen, "no time window");
		return -1;
	}
	return 0;
}

int cli_select_option(struct cli_select *sel, const struct cli_args *a)
{
	int rc;
	switch (a->opt->id) {
	case CLI_SEL_SOURCE:
		rc = each_item(a, a->value, source_item, sel);
		if (rc == 1) {
			free(sel->source_text);
			sel->source_text = strdup(a->value);
		}
		return rc;
	case CLI_SEL_PID: sel->given = 1; return each_item(a, a->value, pid_item, sel);
	case CLI_SEL_TID: sel->given = 1; return each_item(a, a->value, tid_item, sel);
	case CLI_SEL_CPU: sel->given = 1; return each_item(a, a->value, cpu_item, sel);
	case CLI_SEL_COMM: sel->given = 1; return each_item(a, a->value, comm_item, sel);
	case CLI_SEL_DSO: sel->given = 1; return each_item(a, a->value, dso_item, sel);
	case CLI_SEL_SYMBOL: sel->given = 1; return each_item(a, a->value, symbol_item, sel);
	case CLI_SEL_TIME: {
		char why[200], given[256];
		sel->given = 1;
		if (cli_select_parse_time(a->value, (struct spe_select_time **)&sel->s.times, &sel->s.n_times, why,
					  sizeof why) < 0)
			return cli_usage_error(a->cmd, "%s: %s", cli_args_given(a, given, sizeof given), why);
		return 1;
	}
	}
	return 0;
}

void cli_select_fini(struct cli_select *sel)
{
	const char *const *lists[] = { sel->s.comms, sel->s.dsos, sel->s.symbols };
	size_t ns[] = { sel->s.n_comms, sel->s.n_dsos, sel->s.n_symbols };
	for (int l = 0; l < 3; l++) {
		for (size_t i = 0; i < ns[l]; i++)
			free((char *)lists[l][i]);
		free((void *)lists[l]);
	}
	free((void *)sel->s.sources);
	free((void *)sel->s.pids);
	free((void *)sel->s.tids);
	free((void *)sel->s.cpus);
	free((void *)sel->s.times);
	free(sel->source_text);
	memset(sel, 0, sizeof *sel);
}
