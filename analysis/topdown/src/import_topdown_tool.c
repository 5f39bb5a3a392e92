/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Arm topdown-tool (telemetry-solution, docs/topdown-formulas.md §4), its CSV files and
 * the tables it prints.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_util.h"

#define MAX_FIELDS 16

/*
 * Arm topdown-tool (telemetry-solution, docs/topdown-formulas.md §4):
 *   metrics CSV  time,group,stage,level,metric,value,units
 *   events CSV   run,time,event,value
 * Metric names are snake_case ("frontend_bound") or titles ("Frontend Bound");
 * units "percent of slots", "percent of cycles" or "%".
 */
int td_parse_topdown_tool_csv(const char *text, size_t len, long line0, struct td_run *run, struct td_diag *diag)
{
	struct td_line_iter it;
	struct td_line line;
	int col_time = -1, col_metric = -1, col_value = -1, col_units = -1, col_event = -1;
	int rc;

	td_lines_begin(&it, text, len, line0);
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
				return td_fail(diag, spe_bad_input, line.no,
					       "expected a topdown-tool header (time,group,stage,level,metric,value,units "
					       "or run,time,event,value)");
			continue;
		}
		if (col_value >= n)
			return td_fail(diag, spe_bad_input, line.no, "row has %d fields, the header more", n);
		double t = 0;
		if (col_time >= 0 && col_time < n && f[col_time].len)
			t = strtod(f[col_time].s, NULL);
		if (col_event >= 0) {
			double c = 0;
			int counted = 0; /* a blank value: not counted or not supported */
			if (f[col_value].len && td_parse_count(f[col_value].s, f[col_value].len, &c, &counted) != 0)
				return td_fail(diag, spe_bad_input, line.no, "count '%.*s' is not a number",
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
			return td_fail(diag, spe_bad_input, line.no, "value '%.*s' is not a number", (int)f[col_value].len,
				       f[col_value].s);
		int percent = col_units < 0 || col_units >= n || memchr(f[col_units].s, '%', f[col_units].len) ||
			      (f[col_units].len >= 7 && strncmp(f[col_units].s, "percent", 7) == 0);
		if ((rc = td_put_value(run, line.no, t, "all", node, percent ? v / 100 : v, diag)) < 0)
			return rc;
	}
	td_run_default(run, "aarch64", "arm_topdown");
	return 0;
}

/*
 * topdown-tool's printed tables (README.md and README.CPU.md of
 * telemetry-solution tools/topdown_tool, every release):
 *  - 2023 and earlier: dotted lines under "Stage 1 (Topdown metrics)",
 *      Frontend Bound... 16.48% slots
 *      Frontend Stalled Cycles 0.43% cycles
 *  - 2025 on: rich tables in a tree,
 *      │           ┃ Metric          ┃ Value ┃ Unit ┃
 *      │         » │ Frontend Bound  │ 36.10 │ %    │ «
 *    with one value column per core after -C ("Aggregated (0,2-3)", "#0",
 *    ...), or, in the combined view, a Value/Unit table under the tree line
 *    "Frontend Bound (frontend_bound)".
 * Stage 2 metrics (MPKI, ratios, operation mix) have no canonical node and
 * are skipped; "Run N" lines are capture passes of one measurement.
 */

#define BOX_HEAVY "\xe2\x94\x83" /* ┃ header cell separator */
#define BOX_LIGHT "\xe2\x94\x82" /* │ row cell separator and tree guide */
#define MAX_CELLS 16

/* Split @p s at every occurrence of the 3-byte @p sep; trimmed parts into @p f.  Returns the count. */
static int split_box(const char *s, size_t len, const char *sep, struct td_field *f, int max)
{
	int n = 0;
	size_t i = 0, start = 0;
	while (i + 3 <= len) {
		if (memcmp(s + i, sep, 3) == 0) {
			if (n < max)
				f[n++] = (struct td_field){ s + start, i - start };
			i += 3;
			start = i;
		} else {
			i++;
		}
	}
	if (n < max)
		f[n++] = (struct td_field){ s + start, len - start };
	for (int k = 0; k < n; k++) {
		while (f[k].len && isspace((unsigned char)f[k].s[0]))
			f[k].s++, f[k].len--;
		while (f[k].len && isspace((unsigned char)f[k].s[f[k].len - 1]))
			f[k].len--;
	}
	return n;
}

static int contains_str(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	for (size_t i = 0; i + n <= len; i++)
		if (memcmp(s + i, needle, n) == 0)
			return 1;
	return 0;
}

static int unit_is_percent(const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s))
		s++, len--;
	return (len && s[0] == '%') || (len >= 7 && strncmp(s, "percent", 7) == 0);
}

struct tt_table {
	int open;                 /* between a header and its bottom border */
	int ncols, col_metric, col_unit;
	char scope[MAX_CELLS][32]; /* per value column; "" for the metric and unit columns */
};

/* A header row "┃ Metric ┃ Aggregated (0,2-3) ┃ #0 ┃ Unit ┃" or "┃ Value ┃ Unit ┃". */
static void table_header(const char *s, size_t len, struct tt_table *t)
{
	struct td_field c[MAX_CELLS + 2];
	int n = split_box(s, len, BOX_HEAVY, c, MAX_CELLS + 2);
	memset(t, 0, sizeof *t);
	t->col_metric = t->col_unit = -1;
	/* c[0] is the tree guide before the table, c[n-1] what follows it */
	for (int i = 1; i + 1 < n && t->ncols < MAX_CELLS; i++) {
		int col = t->ncols++;
		if (td_field_is(&c[i], "Metric"))
			t->col_metric = col;
		else if (td_field_is(&c[i], "Unit"))
			t->col_unit = col;
		else if (c[i].len >= 2 && c[i].s[0] == '#' && isdigit((unsigned char)c[i].s[1]))
			snprintf(t->scope[col], sizeof t->scope[col], "CPU%.*s", (int)(c[i].len - 1), c[i].s + 1);
		else
			snprintf(t->scope[col], sizeof t->scope[col], "all"); /* "Value", "Aggregated (...)" */
	}
	t->open = t->ncols > 0;
}

/* The "(frontend_bound)" key of a tree line "├── Frontend Bound (frontend_bound)". */
static enum td_node tree_node(const char *s, size_t len)
{
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	if (!len || s[len - 1] != ')')
		return TD_NONE;
	size_t i = len - 1;
	while (i > 0 && s[i - 1] != '(')
		i--;
	if (i == 0)
		return TD_NONE;
	for (size_t k = i; k < len - 1; k++)
		if (isupper((unsigned char)s[k]) || s[k] == ' ')
			return TD_NONE; /* "(Topdown_L1)", "(Topdown metrics)": groups, not metrics */
	return td_node_from_label_n(s + i, len - 1 - i);
}

/* "Frontend Bound... 16.48% slots", "Frontend Stalled Cycles 0.43% cycles". */
static int dotted_line(const struct td_line *line, struct td_run *run, struct td_diag *diag, int *rc)
{
	struct td_field w[16];
	int nw = td_split_ws(line->s, line->len, w, 16);
	for (int i = 1; i < nw; i++) {
		double v;
		if (!isdigit((unsigned char)w[i].s[0]) || td_parse_value(w[i].s, w[i].len, &v) != 0)
			continue;
		/* the label: everything before the value, without the dot leader */
		size_t ll = (size_t)(w[i].s - line->s);
		while (ll && (line->s[ll - 1] == ' ' || line->s[ll - 1] == '.'))
			ll--;
		const char *label = line->s;
		while (ll && isspace((unsigned char)*label))
			label++, ll--;
		enum td_node node = td_node_from_label_n(label, ll);
		if (node == TD_NONE)
			return 0;
		const char *unit = w[i].s + w[i].len;
		int percent = w[i].s[w[i].len - 1] == '%' ||
			      unit_is_percent(unit, (size_t)(line->s + line->len - unit));
		*rc = td_put_value(run, line->no, 0, "all", node, percent ? v / 100 : v, diag);
		return 1;
	}
	return 0;
}

int td_parse_topdown_tool_text(const char *text, size_t len, long line0, struct td_run *run, struct td_diag *diag)
{
	struct td_line_iter it;
	struct td_line line;
	struct tt_table table = { 0 };
	enum td_node pending = TD_NONE; /* the tree line above a Value/Unit table */
	int rc = 0;

	td_lines_begin(&it, text, len, line0);
	while (td_lines_next(&it, &line)) {
		const char *s = line.s;
		size_t n = line.len;
		if (contains_str(s, n, BOX_HEAVY)) {
			table_header(s, n, &table);
			continue;
		}
		if (contains_str(s, n, "\xe2\x94\x8f") || contains_str(s, n, "\xe2\x94\xa1"))
			continue; /* ┏ ┡: a table's top border and header rule */
		if (contains_str(s, n, "\xe2\x94\xb4") || contains_str(s, n, "\xe2\x94\x98")) {
			table.open = 0; /* ┴ ┘: the bottom border */
			continue;
		}
		if (table.open && contains_str(s, n, BOX_LIGHT)) {
			struct td_field c[MAX_CELLS + 8];
			int nc = split_box(s, n, BOX_LIGHT, c, MAX_CELLS + 8);
			if (nc < table.ncols + 2)
				continue;
			struct td_field *cell = &c[nc - 1 - table.ncols];
			enum td_node node = table.col_metric >= 0 ? td_node_from_label_n(cell[table.col_metric].s,
										   cell[table.col_metric].len)
								 : pending;
			if (node == TD_NONE)
				continue;
			int percent = table.col_unit >= 0 && unit_is_percent(cell[table.col_unit].s, cell[table.col_unit].len);
			for (int k = 0; k < table.ncols; k++) {
				double v;
				if (!table.scope[k][0])
					continue;
				if (td_parse_value(cell[k].s, cell[k].len, &v) != 0)
					return td_fail(diag, spe_bad_input, line.no, "topdown-tool table: value '%.*s' of %s is not a number",
						       (int)cell[k].len, cell[k].s, td_node_name(node));
				if ((rc = td_put_value(run, line.no, 0, table.scope[k], node, percent ? v / 100 : v, diag)) < 0)
					return rc;
			}
			continue;
		}
		enum td_node tn = tree_node(s, n);
		if (tn != TD_NONE || contains_str(s, n, "\xe2\x94\x80\xe2\x94\x80 ")) /* "── " starts a tree line */
			pending = tn;
		if (!contains_str(s, n, "\xe2\x94") && dotted_line(&line, run, diag, &rc) && rc < 0)
			return rc;
	}
	td_run_default(run, "aarch64", "arm_topdown");
	return 0;
}
