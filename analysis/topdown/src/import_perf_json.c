/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perf stat -j output (docs/topdown-formulas.md §7 "JSON"): one flat object per line,
 * possibly several per line ("}{").  Handles
 *  - counter objects {"counter-value", "event", ..., "metric-value", "metric-unit"}
 *    (metric-value quoted or not, "nan"), continuation {"metric-value", "metric-unit"},
 *    group markers {"metricgroup" : "TopdownL1 (cpu_core)"}, "interval";
 *  - metric-only >= 6.2: keys are unit strings, {"%  tma_retiring" : "11.5"};
 *  - metric-only <= 6.1: a line of {"unit" : ...} objects, then lines of
 *    {"metric-value" : ...} objects matched by position;
 *  - the early malformed interval prefix {"interval" : x}{...}.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topdown/event_name.h"
#include "import_util.h"

#define MAX_PAIRS 24

struct json_pair {
	char key[96];
	char val[96];
	int quoted;
};

/* Parse one flat object at *p.  Returns the pair count, or -1 if malformed. */
static int parse_object(const char **pp, const char *end, struct json_pair *pairs)
{
	const char *p = *pp;
	int n = 0;
#define SKIP_WS() while (p < end && isspace((unsigned char)*p)) p++
	SKIP_WS();
	if (p >= end || *p != '{')
		return -1;
	p++;
	for (;;) {
		SKIP_WS();
		if (p < end && *p == '}') {
			p++;
			break;
		}
		if (n > 0) {
			if (p >= end || *p != ',')
				return -1;
			p++;
			SKIP_WS();
		}
		if (p >= end || *p != '"')
			return -1;
		const char *ks = ++p;
		while (p < end && *p != '"')
			p++;
		if (p >= end)
			return -1;
		size_t klen = (size_t)(p - ks);
		p++;
		SKIP_WS();
		if (p >= end || *p != ':')
			return -1;
		p++;
		SKIP_WS();
		const char *vs;
		size_t vlen;
		int quoted = 0;
		if (p < end && *p == '"') {
			vs = ++p;
			while (p < end && *p != '"')
				p++;
			if (p >= end)
				return -1;
			vlen = (size_t)(p - vs);
			p++;
			quoted = 1;
		} else {
			vs = p;
			while (p < end && *p != ',' && *p != '}' && !isspace((unsigned char)*p))
				p++;
			vlen = (size_t)(p - vs);
			if (vlen == 0)
				return -1;
		}
		if (n < MAX_PAIRS) {
			snprintf(pairs[n].key, sizeof pairs[n].key, "%.*s", (int)klen, ks);
			snprintf(pairs[n].val, sizeof pairs[n].val, "%.*s", (int)vlen, vs);
			pairs[n].quoted = quoted;
			n++;
		}
	}
#undef SKIP_WS
	*pp = p;
	return n;
}

static const char *get(const struct json_pair *pairs, int n, const char *key)
{
	for (int i = 0; i < n; i++)
		if (strcmp(pairs[i].key, key) == 0)
			return pairs[i].val;
	return NULL;
}

#define MAX_UNITS 32

int td_parse_perf_json(const char *text, size_t len, long line0, struct td_run *run, struct td_diag *diag)
{
	struct td_line_iter it;
	struct td_line line;
	struct td_label_seen seen = { 0 };
	char scope[64] = "all";
	double t = 0;
	char units[MAX_UNITS][96];
	int n_units = 0, units_percent = 0;
	int rc;

	td_lines_begin(&it, text, len, line0);
	while (td_lines_next(&it, &line)) {
		const char *p = line.s, *end = line.s + line.len;
		while (p < end && isspace((unsigned char)*p))
			p++;
		if (p >= end || *p != '{')
			continue;
		int col = 0;            /* position among this line's objects, for <= 6.1 metric-only */
		int header_line = 1;    /* every object so far is a lone {"unit"} */
		int n_line_units = 0;
		char line_units[MAX_UNITS][96];
		while (p < end) {
			struct json_pair kv[MAX_PAIRS];
			int n = parse_object(&p, end, kv);
			if (n < 0)
				return td_fail(diag, spe_bad_input, line.no, "malformed JSON object at column %ld",
					       (long)(p - line.s) + 1);
			while (p < end && isspace((unsigned char)*p))
				p++;
			const char *v;

			if (n == 1 && strcmp(kv[0].key, "unit") == 0) {
				if (n_line_units < MAX_UNITS)
					snprintf(line_units[n_line_units++], 96, "%s", kv[0].val);
				continue;
			}
			header_line = 0;
			if ((v = get(kv, n, "interval")))
				t = strtod(v, NULL);
			if ((v = get(kv, n, "metricgroup"))) {
				if (!td_group_label(v, strlen(v), scope, sizeof scope))
					snprintf(scope, sizeof scope, "all");
			}
			const char *mv = get(kv, n, "metric-value"), *mu = get(kv, n, "metric-unit");
			const char *cv = get(kv, n, "counter-value"), *ev = get(kv, n, "event");
			if (cv && ev) {
				/* a metric in an event's object, and the metric-only objects after it, are of its PMU */
				const char *pmu = td_event_hybrid_pmu(ev, strlen(ev));
				snprintf(scope, sizeof scope, "%s", pmu ? pmu : "all");
				double x;
				int counted;
				if (td_parse_count(cv, strlen(cv), &x, &counted) == 0 &&
				    (rc = td_put_event(run, t, "all", ev, strlen(ev), x, counted)) < 0)
					return rc;
			}
			if (mv && mu) {
				int percent; /* "%  tma_backend_bound" is percent; "frontend_bound" (no ScaleUnit) a fraction */
				enum td_node node = td_metric_label(mu, strlen(mu), &percent, &seen);
				if (node != TD_NONE) {
					double x;
					if (td_parse_metric_value(mv, strlen(mv), percent, &x) != 0)
						return td_fail(diag, spe_bad_input, line.no, "metric-value \"%s\" is not a number", mv);
					if ((rc = td_put_value(run, line.no, t, scope, node, x, diag)) < 0)
						return rc;
				}
			} else if (mv && n == 1) {
				/* <= 6.1 metric-only: values match the header's units by position */
				if (col < n_units) {
					enum td_node node = td_metric_label(units[col], strlen(units[col]), NULL, &seen);
					double x;
					if (node != TD_NONE) {
						if (td_parse_metric_value(mv, strlen(mv), units_percent, &x) != 0)
							return td_fail(diag, spe_bad_input, line.no, "metric-value \"%s\" is not a number", mv);
						if ((rc = td_put_value(run, line.no, t, scope, node, x, diag)) < 0)
							return rc;
					}
				}
				col++;
			}
			/* >= 6.2 metric-only: the keys are the unit strings, percent for the whole object if one says so */
			char osc[64] = "";
			int obj_percent = 0;
			for (int i = 0; i < n; i++) {
				int pct;
				if (td_metric_label(kv[i].key, strlen(kv[i].key), &pct, NULL) != TD_NONE)
					obj_percent |= pct;
			}
			for (int i = 0; i < n; i++)
				if (!strcmp(kv[i].key, "socket") || !strcmp(kv[i].key, "core") || !strcmp(kv[i].key, "cpu") ||
				    !strcmp(kv[i].key, "die"))
					snprintf(osc, sizeof osc, "%.63s", kv[i].val);
			for (int i = 0; i < n; i++) {
				enum td_node node = td_metric_label(kv[i].key, strlen(kv[i].key), NULL, &seen);
				if (node == TD_NONE)
					continue;
				double x;
				if (td_parse_metric_value(kv[i].val, strlen(kv[i].val), obj_percent, &x) != 0)
					return td_fail(diag, spe_bad_input, line.no, "\"%s\" : \"%s\" is not a number", kv[i].key,
						       kv[i].val);
				if ((rc = td_put_value(run, line.no, t, osc[0] ? osc : scope, node, x, diag)) < 0)
					return rc;
			}
		}
		if (header_line && n_line_units) {
			n_units = n_line_units;
			memcpy(units, line_units, sizeof line_units[0] * (size_t)n_line_units);
			units_percent = 0; /* a percent unit or a pre-6.4 label makes the table percent */
			for (int i = 0; i < n_units; i++) {
				int pct;
				if (td_metric_label(units[i], strlen(units[i]), &pct, NULL) != TD_NONE)
					units_percent |= pct;
			}
		}
	}
	td_label_finish(run, &seen);
	return 0;
}
