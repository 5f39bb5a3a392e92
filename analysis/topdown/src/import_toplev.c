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

int td_parse_toplev_csv(const char *text, size_t len, long line0, struct td_run *run, struct td_diag *diag)
{
	struct td_line_iter it;
	struct td_line line;
	int has_timestamps = 0;
	int rc;

	/* pass 1: are there timestamped rows? */
	td_lines_begin(&it, text, len, line0);
	while (td_lines_next(&it, &line)) {
		struct td_field f[MAX_FIELDS];
		if (!line.len || line.s[0] == '#')
			continue;
		int n = td_split(line.s, line.len, ',', f, MAX_FIELDS);
		int a = area_column(f, n);
		if (a > 0 && f[0].len && isdigit((unsigned char)f[0].s[0]))
			has_timestamps = 1;
	}

	td_lines_begin(&it, text, len, line0);
	while (td_lines_next(&it, &line)) {
		struct td_field f[MAX_FIELDS];
		if (!line.len)
			continue;
		if (line.s[0] == '#') {
			td_toplev_version_line(line.s, line.len, run);
			continue;
		}
		int n = td_split(line.s, line.len, ',', f, MAX_FIELDS);
		int a = area_column(f, n);
		if (a < 0)
			continue; /* header, deeper nodes, info metrics */
		if (a + 1 >= n)
			return td_fail(diag, spe_bad_input, line.no, "toplev row of %.*s has no value column", (int)f[a].len,
				       f[a].s);
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
			return td_fail(diag, spe_bad_input, line.no, "value '%.*s' of %.*s is not a number",
				       (int)f[a + 1].len, f[a + 1].s, (int)f[a].len, f[a].s);
		int percent = a + 2 < n && memchr(f[a + 2].s, '%', f[a + 2].len);
		if ((rc = td_put_value(run, line.no, t, scope, td_node_from_label_n(f[a].s, f[a].len), percent ? v / 100 : v,
				       diag)) < 0)
			return rc;
	}
	td_run_default(run, "x86_64", "toplev");
	return 0;
}


/*
 * toplev's default text output, every era (pmu-tools issues 20, 47, 125,
 * 203, 273, 369, 449; tl_output.py):
 *   S0-C0 FE      Frontend_Bound:                  35.21%
 *   S0-C0    FE             Frontend_Bound:         23.77 % Slots [100.00%] <==
 *   S1-C0    BE             Backend_Bound:   % Slots         59.45 <==
 *   C0    FE             Frontend_Bound                      % Slots    23.86
 *   FE             Frontend_Bound             % Slots                  0.0  <
 *   S0-C0-T1BE/Mem  Backend_Bound.Memory_Bound:       0.00% mismeasured
 *   Info.Thread    SLOTS     Count    1,035,193,342,312      [ 3.8%]
 * [timestamp] [cpu] [area] node[:] [unit] value [unit] [markers] [multiplex];
 * -v description lines (indented prose), "# Level 1" and version comments
 * are skipped; nodes below level 2 have no canonical node and are dropped.
 */

/* The CPU at the start of @p w ("S0-C0", "C0", "S0-C0-T1", "CPU3"); its length, 0 when none. */
static size_t toplev_cpu_prefix(const char *w, size_t n)
{
	size_t i = 0;
	if (n >= 4 && strncmp(w, "CPU", 3) == 0 && isdigit((unsigned char)w[3])) {
		i = 3;
		while (i < n && isdigit((unsigned char)w[i]))
			i++;
		return i;
	}
	const char *parts = "SCT"; /* socket, core, thread, each optional but in order */
	int any = 0;
	for (const char *p = parts; *p && i < n; p++) {
		size_t j = i;
		if (any) {
			if (w[j] != '-')
				continue;
			j++;
		}
		if (j >= n || w[j] != *p || j + 1 >= n || !isdigit((unsigned char)w[j + 1]))
			continue;
		j++;
		while (j < n && isdigit((unsigned char)w[j]))
			j++;
		i = j;
		any = 1;
	}
	return any ? i : 0;
}

static int is_number_word(const struct td_field *f, double *v)
{
	double x;
	int counted;
	if (f->len && (isdigit((unsigned char)f->s[0]) || f->s[0] == '-' || f->s[0] == '.') &&
	    (td_parse_value(f->s, f->len, &x) == 0 || td_parse_count(f->s, f->len, &x, &counted) == 0)) {
		*v = x;
		return 1;
	}
	return 0;
}

int td_parse_toplev_text(const char *text, size_t len, long line0, struct td_run *run, struct td_diag *diag)
{
	struct td_line_iter it;
	struct td_line line;
	int rc;

	td_lines_begin(&it, text, len, line0);
	while (td_lines_next(&it, &line)) {
		struct td_field f[24];
		if (!line.len || line.s[0] == '\t')
			continue; /* -v descriptions are tab-indented */
		const char *s = line.s;
		size_t n = line.len;
		while (n && isspace((unsigned char)*s))
			s++, n--;
		if (n && s[0] == '#') {
			td_toplev_version_line(s, n, run);
			continue;
		}
		int nf = td_split_ws(s, n, f, 24);
		if (nf < 2)
			continue;
		int k = 0;
		double t = 0;
		if (td_is_interval_stamp(f[0].s, f[0].len) || (f[0].len && isdigit((unsigned char)f[0].s[0]) &&
								memchr(f[0].s, '.', f[0].len) && nf > 3)) {
			t = strtod(f[0].s, NULL);
			k = 1;
		}
		char scope[32] = "all";
		size_t cp = toplev_cpu_prefix(f[k].s, f[k].len);
		if (cp) {
			snprintf(scope, sizeof scope, "%.*s", (int)cp, f[k].s);
			if (cp == f[k].len)
				k++;
			else
				f[k].s += cp, f[k].len -= cp; /* "S0-C0-T1BE/Mem": the area is glued on */
		}
		/* the node: the first word naming a canonical node, maybe with a ':' */
		int a = -1;
		enum td_node node = TD_NONE;
		for (int i = k; i < nf && a < 0; i++) {
			size_t wl = f[i].len;
			if (wl && f[i].s[wl - 1] == ':')
				wl--;
			if (!wl || !isupper((unsigned char)f[i].s[0]))
				continue;
			enum td_node nd = td_node_from_label_n(f[i].s, wl);
			if (nd != TD_NONE) {
				a = i;
				node = nd;
			} else if (memchr(f[i].s, '_', wl) || memchr(f[i].s, '.', wl)) {
				break; /* a deeper or unknown node: the line is not one of ours */
			}
		}
		if (a < 0) {
			/* "Info.Thread  SLOTS  Count  1,035,193,342,312": counts the weighting needs */
			if (nf >= k + 4 && strncmp(f[k].s, "Info.", 5) == 0 && td_field_is(&f[k + 2], "Count")) {
				double v;
				if (is_number_word(&f[k + 3], &v) &&
				    (rc = td_put_event(run, t, scope, f[k + 1].s, f[k + 1].len, v, 1)) < 0)
					return rc;
			}
			continue;
		}
		int percent = 0, vi = -1;
		double v = 0;
		for (int i = a + 1; i < nf; i++) {
			if (f[i].s[0] == '[')
				break; /* "[100.00%]", "[ 1.8%]": the multiplexing ratio */
			if (memchr(f[i].s, '%', f[i].len))
				percent = 1;
			if (vi < 0 && is_number_word(&f[i], &v))
				vi = i;
		}
		if (vi < 0)
			return td_fail(diag, spe_bad_input, line.no, "toplev line of %.*s has no value", (int)f[a].len, f[a].s);
		if ((rc = td_put_value(run, line.no, t, scope, node, percent ? v / 100 : v, diag)) < 0)
			return rc;
	}
	td_run_default(run, "x86_64", "toplev");
	return 0;
}
