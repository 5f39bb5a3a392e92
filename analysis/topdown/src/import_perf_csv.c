/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perf stat -x, output (docs/topdown-formulas.md §7 "CSV"):
 *  - metric-only: a header row of labels (maybe led by "time", "core",
 *    "cpus", "cpu"; >= 6.4 cells carry the unit, "%  tma_retiring"), then
 *    rows of values, each row ending with a separator;
 *  - otherwise: [interval,][aggr,ncpus,]count,unit,event,run-time,pcnt,
 *    [variance,]metric-value,metric-unit[,threshold]; continuation rows
 *    have empty leading fields; >= 6.5 metric-group rows end with
 *    "TopdownL1 (cpu_atom)".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "topdown/event_name.h"
#include "import_util.h"

#define MAX_FIELDS 40

struct csv_header {
	int n;
	int time_col, scope_col;
	int percent; /* a cell with a percent unit or a pre-6.4 label: the values are percent */
	enum td_node node[MAX_FIELDS]; /* TD_NONE for non-metric columns */
};

static int is_threshold(const struct td_field *f)
{
	return td_field_is(f, "good") || td_field_is(f, "bad") || td_field_is(f, "nearly bad") ||
	       td_field_is(f, "less good");
}

/* A metric-only header row: every non-empty cell a label or a key column. */
static int parse_header(const struct td_field *f, int n, struct csv_header *h, struct td_label_seen *seen)
{
	int metrics = 0;
	if (n < 1 || f[0].len == 0)
		return 0; /* continuation rows start empty; headers never do */
	h->n = n;
	h->time_col = h->scope_col = -1;
	h->percent = 0;
	for (int i = 0; i < n; i++) {
		h->node[i] = TD_NONE;
		if (f[i].len == 0)
			continue;
		if (td_field_is(&f[i], "time")) {
			h->time_col = i;
			continue;
		}
		if (td_field_is(&f[i], "core") || td_field_is(&f[i], "cpu") || td_field_is(&f[i], "socket") ||
		    td_field_is(&f[i], "die") || td_field_is(&f[i], "node")) {
			if (h->scope_col < 0)
				h->scope_col = i;
			continue;
		}
		if (td_field_is(&f[i], "cpus"))
			continue;
		int pct;
		enum td_node node = td_metric_label(f[i].s, f[i].len, &pct, seen);
		if (node == TD_NONE)
			return 0;
		h->percent |= pct;
		h->node[i] = node;
		metrics++;
	}
	return metrics > 0;
}

int td_parse_perf_csv(const char *text, size_t len, long line0, struct td_run *run, struct td_diag *diag)
{
	struct td_line_iter it;
	struct td_line line;
	struct csv_header header = { 0 };
	struct td_label_seen seen = { 0 };
	char scope[64] = "all";
	int rc;

	td_lines_begin(&it, text, len, line0);
	while (td_lines_next(&it, &line)) {
		struct td_field f[MAX_FIELDS];
		if (line.len == 0 || line.s[0] == '#')
			continue;
		int n = td_split(line.s, line.len, ',', f, MAX_FIELDS);
		if (n < 2)
			continue;

		struct csv_header h;
		if (parse_header(f, n, &h, &seen)) {
			header = h;
			continue;
		}
		if (header.n) {
			/* metric-only value row */
			double t = 0;
			char sc[64] = "all";
			if (header.time_col >= 0 && header.time_col < n)
				t = strtod(f[header.time_col].s, NULL);
			if (header.scope_col >= 0 && header.scope_col < n)
				snprintf(sc, sizeof sc, "%.*s", (int)f[header.scope_col].len, f[header.scope_col].s);
			for (int i = 0; i < header.n && i < n; i++) {
				if (header.node[i] == TD_NONE)
					continue;
				double v;
				if (td_parse_metric_value(f[i].s, f[i].len, header.percent, &v) != 0)
					return td_fail(diag, spe_bad_input, line.no, "column %d: '%.*s' is not a number",
						       i + 1, (int)f[i].len, f[i].s);
				if ((rc = td_put_value(run, line.no, t, sc, header.node[i], v, diag)) < 0)
					return rc;
			}
			continue;
		}

		/* Non-metric-only row. */
		int k = 0;
		double t = 0;
		char aggr[64] = "";
		if (td_is_interval_stamp(f[k].s, f[k].len))
			t = strtod(f[k++].s, NULL);
		if (k + 1 < n && td_is_aggr_id(f[k].s, f[k].len)) {
			snprintf(aggr, sizeof aggr, "%.*s", (int)f[k].len, f[k].s);
			k += 2;
		}
		int last = n - 1;
		if (last > k && is_threshold(&f[last]))
			last--;
		while (last > k && f[last].len == 0)
			last--; /* metric-only rows end with a separator */

		char group[64];
		if (td_group_label(f[last].s, f[last].len, group, sizeof group)) {
			snprintf(scope, sizeof scope, "%s", group);
			continue;
		}
		/* count,unit,event,...: metrics on an event's row and the rows under it are of its PMU */
		if (k + 2 < n && f[k].len && f[k + 2].len) {
			double count;
			int counted;
			if (td_parse_count(f[k].s, f[k].len, &count, &counted) == 0) {
				const char *pmu = td_event_hybrid_pmu(f[k + 2].s, f[k + 2].len);
				snprintf(scope, sizeof scope, "%s", pmu ? pmu : "all");
				rc = td_put_event(run, t, aggr[0] ? aggr : "all", f[k + 2].s, f[k + 2].len, count, counted);
				if (rc < 0)
					return rc;
			}
		}
		int percent; /* the unit column: "%  tma_backend_bound" is percent, "frontend_bound" a fraction */
		enum td_node node = td_metric_label(f[last].s, f[last].len, &percent, &seen);
		if (node != TD_NONE && last - 1 >= k) {
			double v;
			if (td_parse_metric_value(f[last - 1].s, f[last - 1].len, percent, &v) != 0)
				return td_fail(diag, spe_bad_input, line.no, "metric value '%.*s' is not a number",
					       (int)f[last - 1].len, f[last - 1].s);
			if ((rc = td_put_value(run, line.no, t, aggr[0] ? aggr : scope, node, v, diag)) < 0)
				return rc;
		}
	}
	td_label_finish(run, &seen);
	return 0;
}
