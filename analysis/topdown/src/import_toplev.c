/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pmu-tools toplev -x, output (docs/topdown-formulas.md §7):
 *   [Timestamp,][CPUs,]Area,Value,Unit,Description,Sample,Stddev,Multiplex,Bottleneck,Idle
 * Area holds the dotted node ("Backend_Bound.Memory_Bound"); the unit
 * ("% Slots", "% Slots <", "%below") says percent; "# ..." lines are
 * version comments; SUMMARY rows are used only when there are no
 * timestamped rows (they would double count).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_util.h"

#define MAX_FIELDS 16

/* The Area column: the first field naming a node of level <= 2 of the toplev tree. */
static int area_column(const struct td_field *f, int n)
{
	for (int i = 0; i < n; i++) {
		if (f[i].len && isupper((unsigned char)f[i].s[0]) && td_node_from_label_n(f[i].s, f[i].len) != TD_NONE)
			return i;
	}
	return -1;
}

int td_parse_toplev_csv(const char *text, size_t len, struct td_run *run, struct td_diag *diag)
{
	struct td_line_iter it;
	struct td_line line;
	int has_timestamps = 0;
	int rc;

	/* pass 1: are there timestamped rows? */
	td_lines_begin(&it, text, len);
	while (td_lines_next(&it, &line)) {
		struct td_field f[MAX_FIELDS];
		if (!line.len || line.s[0] == '#')
			continue;
		int n = td_split(line.s, line.len, ',', f, MAX_FIELDS);
		int a = area_column(f, n);
		if (a > 0 && f[0].len && isdigit((unsigned char)f[0].s[0]))
			has_timestamps = 1;
	}

	td_lines_begin(&it, text, len);
	while (td_lines_next(&it, &line)) {
		struct td_field f[MAX_FIELDS];
		if (!line.len || line.s[0] == '#')
			continue;
		int n = td_split(line.s, line.len, ',', f, MAX_FIELDS);
		int a = area_column(f, n);
		if (a < 0)
			continue; /* header, deeper nodes, info metrics */
		if (a + 1 >= n)
			return td_fail(diag, td_bad_input, line.no, "node %.*s has no value", (int)f[a].len, f[a].s);
		double t = 0;
		char scope[64] = "all";
		int k = 0;
		if (a > k && td_field_is(&f[k], "SUMMARY")) {
			if (has_timestamps)
				continue;
			k++;
		} else if (a > k && f[k].len && isdigit((unsigned char)f[k].s[0]) &&
			   !(f[k].len > 1 && (f[k].s[0] == 'C' || f[k].s[0] == 'S'))) {
			t = strtod(f[k++].s, NULL);
		}
		if (a > k && f[k].len)
			snprintf(scope, sizeof scope, "%.*s", (int)f[k].len, f[k].s);
		double v;
		if (td_parse_value(f[a + 1].s, f[a + 1].len, &v) != 0)
			return td_fail(diag, td_bad_input, line.no, "value '%.*s' of %.*s is not a number",
				       (int)f[a + 1].len, f[a + 1].s, (int)f[a].len, f[a].s);
		int percent = a + 2 < n && memchr(f[a + 2].s, '%', f[a + 2].len);
		if ((rc = td_put_value(run, t, scope, td_node_from_label_n(f[a].s, f[a].len), percent ? v / 100 : v)) < 0)
			return rc;
	}
	if (!run->isa)
		td_run_set(&run->isa, "x86_64");
	if (!run->method)
		td_run_set(&run->method, "toplev");
	return 0;
}

/*
 * Arm topdown-tool (telemetry-solution, docs/topdown-formulas.md §4):
 *   metrics CSV  time,group,stage,level,metric,value,units
 *   events CSV   run,time,event,value
 * Metric names are snake_case ("frontend_bound") or titles ("Frontend Bound");
 * units "percent of slots", "percent of cycles" or "%".
 */
int td_parse_topdown_tool_csv(const char *text, size_t len, struct td_run *run, struct td_diag *diag)
{
	struct td_line_iter it;
	struct td_line line;
	int col_time = -1, col_metric = -1, col_value = -1, col_units = -1, col_event = -1;
	int rc;

	td_lines_begin(&it, text, len);
	while (td_lines_next(&it, &line)) {
		struct td_field f[MAX_FIELDS];
		if (!line.len || line.s[0] == '#')
			continue;
		int n = td_split(line.s, line.len, ',', f, MAX_FIELDS);
		if (col_value < 0) {
			for (int i = 0; i < n; i++) {
				if (td_field_is(&f[i], "time"))
					col_time = i;
				else if (td_field_is(&f[i], "metric"))
					col_metric = i;
				else if (td_field_is(&f[i], "value"))
					col_value = i;
				else if (td_field_is(&f[i], "units"))
					col_units = i;
				else if (td_field_is(&f[i], "event"))
					col_event = i;
			}
			if (col_value < 0 || (col_metric < 0 && col_event < 0))
				return td_fail(diag, td_bad_input, line.no,
					       "expected a topdown-tool header (time,group,stage,level,metric,value,units "
					       "or run,time,event,value)");
			continue;
		}
		if (col_value >= n)
			return td_fail(diag, td_bad_input, line.no, "row has %d fields, the header more", n);
		double t = 0;
		if (col_time >= 0 && col_time < n && f[col_time].len)
			t = strtod(f[col_time].s, NULL);
		if (col_event >= 0) {
			double c;
			int counted;
			if (td_parse_count(f[col_value].s, f[col_value].len, &c, &counted) != 0)
				return td_fail(diag, td_bad_input, line.no, "count '%.*s' is not a number",
					       (int)f[col_value].len, f[col_value].s);
			if ((rc = td_put_event(run, t, "all", f[col_event].s, f[col_event].len, c, counted)) < 0)
				return rc;
			continue;
		}
		if (col_metric >= n)
			continue;
		enum td_node node = td_node_from_label_n(f[col_metric].s, f[col_metric].len);
		if (node == TD_NONE)
			continue; /* stage 2 effectiveness metrics have no canonical node */
		double v;
		if (td_parse_value(f[col_value].s, f[col_value].len, &v) != 0)
			return td_fail(diag, td_bad_input, line.no, "value '%.*s' is not a number", (int)f[col_value].len,
				       f[col_value].s);
		int percent = col_units < 0 || col_units >= n || memchr(f[col_units].s, '%', f[col_units].len) ||
			      (f[col_units].len >= 7 && strncmp(f[col_units].s, "percent", 7) == 0);
		if ((rc = td_put_value(run, t, "all", node, percent ? v / 100 : v)) < 0)
			return rc;
	}
	if (!run->isa)
		td_run_set(&run->isa, "aarch64");
	if (!run->method)
		td_run_set(&run->method, "arm_topdown");
	return 0;
}
