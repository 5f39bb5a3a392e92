/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perf stat's default (std) output, interval or not (docs/topdown-formulas.md §7):
 *  - metric-only tables: a header of labels ("retiring  bad speculation ...",
 *    "%  tma_retiring %  tma_backend_bound ...") and rows of values,
 *    optionally led by the interval stamp and an aggregation id
 *    ("S0-D0-C1  1");
 *  - counter lines "COUNT  EVENT  # VALUE UNIT  NAME [(xx.xx%)]" and the
 *    >= 6.5 metric groups "TopdownL1 (cpu_core)  # 68.7 %  tma_backend_bound"
 *    with continuation lines "# 3.1 %  tma_bad_speculation".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "topdown/event_name.h"
#include "import_util.h"

#define MAX_COLS 32

struct column_header {
	int n;
	int percent; /* a "%" / "percent of slots" unit or a pre-6.4 label: the values are percent */
	enum td_node node[MAX_COLS];
};

/* Position-sorted labels of a metric-only header; 0 when the line is not one. */
static int parse_header(const char *s, size_t len, struct column_header *h, struct td_label_seen *seen)
{
	/* Words a header may hold besides labels. */
	static const char *skip_words[] = { "time", "core", "cpus", "cpu", "socket", "die", "node", "%",
					    "percent of slots", "#" };
	char low[512];
	unsigned char used[512] = { 0 };
	if (len >= sizeof low)
		return 0;
	for (size_t i = 0; i < len; i++)
		low[i] = (char)((s[i] >= 'A' && s[i] <= 'Z') ? s[i] + 32 : s[i]);
	low[len] = '\0';

	struct {
		size_t pos;
		enum td_node node;
	} found[MAX_COLS];
	int nfound = 0, percent = 0;

	/*
	 * At every word start take the longest run of words (joined by single
	 * spaces; columns are two or more apart) that names a node, so
	 * "bad speculation" is one label and "tma_retiring" is not "retiring".
	 */
	size_t i = 0;
	while (i < len) {
		if (low[i] == ' ' || low[i] == '\t') {
			i++;
			continue;
		}
		/* the longest run of label characters (incl. single spaces) that maps to a node */
		size_t best = 0;
		enum td_node best_node = TD_NONE;
		size_t j = i;
		while (j < len) {
			while (j < len && low[j] != ' ' && low[j] != '\t')
				j++;
			enum td_node n = td_node_from_label_n(low + i, j - i);
			if (n != TD_NONE) {
				best = j - i;
				best_node = n;
			}
			/* extend over one single space only (labels have single spaces; columns two+) */
			if (j + 1 < len && low[j] == ' ' && low[j + 1] != ' ' && low[j + 1] != '\t')
				j++;
			else
				break;
		}
		if (best_node != TD_NONE) {
			if (nfound == MAX_COLS)
				return 0;
			found[nfound].pos = i;
			found[nfound++].node = best_node;
			int pct;
			td_metric_label(s + i, best, &pct, seen);
			percent |= pct;
			memset(used + i, 1, best);
			i += best;
			continue;
		}
		/* a word that is not a label must be one of the known filler words */
		size_t k = i;
		while (k < len && low[k] != ' ' && low[k] != '\t')
			k++;
		int ok = 0;
		for (size_t w = 0; w < sizeof skip_words / sizeof skip_words[0]; w++) {
			size_t wl = strlen(skip_words[w]);
			if (wl <= len - i && strncmp(low + i, skip_words[w], wl) == 0 &&
			    (i + wl == len || low[i + wl] == ' ' || low[i + wl] == '\t')) {
				if (strcmp(skip_words[w], "percent of slots") == 0)
					seen->arm = 1;
				if (strcmp(skip_words[w], "percent of slots") == 0 || strcmp(skip_words[w], "%") == 0)
					percent = 1;
				k = i + wl;
				ok = 1;
				break;
			}
		}
		if (!ok)
			return 0;
		i = k;
	}
	if (nfound == 0)
		return 0;
	h->n = nfound;
	h->percent = percent;
	for (int c = 0; c < nfound; c++)
		h->node[c] = found[c].node;
	return 1;
}

static int parse_metric_row(const struct td_line *line, const struct column_header *h, struct td_run *run,
			    struct td_diag *diag)
{
	struct td_field f[MAX_COLS + 4];
	int n = td_split_ws(line->s, line->len, f, MAX_COLS + 4);
	if (n < h->n)
		return td_fail(diag, spe_bad_input, line->no, "expected %d metric values, found %d fields", h->n, n);
	double t = 0;
	char scope[64] = "all";
	int first = 0;
	if (first < n - h->n && td_is_interval_stamp(f[first].s, f[first].len))
		t = strtod(f[first++].s, NULL);
	if (first < n - h->n && td_is_aggr_id(f[first].s, f[first].len)) {
		snprintf(scope, sizeof scope, "%.*s", (int)f[first].len, f[first].s);
		first++;
	}
	for (int c = 0; c < h->n; c++) {
		const struct td_field *v = &f[n - h->n + c];
		double x;
		if (td_parse_metric_value(v->s, v->len, h->percent, &x) != 0)
			return td_fail(diag, spe_bad_input, line->no, "metric value '%.*s' is not a number", (int)v->len,
				       v->s);
		int rc = td_put_value(run, line->no, t, scope, h->node[c], x, diag);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/*
 * Drop what perf (and people) append after a metric: the multiplexing
 * "(63.54%)", perf -r's noise "( +-  1.35% )", toplev-style markers a user
 * pasted ("<==", "<", "?").
 */
static size_t strip_trailers(const char *s, size_t len)
{
	for (;;) {
		while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
			len--;
		if (len && s[len - 1] == ')') {
			size_t i = len - 1;
			while (i > 0 && s[i - 1] != '(')
				i--;
			if (i == 0)
				return len;
			len = i - 1;
			continue;
		}
		if (len >= 3 && memcmp(s + len - 3, "<==", 3) == 0) {
			len -= 3;
			continue;
		}
		if (len && (s[len - 1] == '<' || s[len - 1] == '?')) {
			len--;
			continue;
		}
		return len;
	}
}

/* "VALUE UNIT NAME [(xx.xx%)] [( +- x% )]" after the '#'.  Returns the node or TD_NONE. */
static enum td_node parse_comment_metric(const char *s, size_t len, double *value, struct td_label_seen *seen)
{
	struct td_field f[2];
	len = strip_trailers(s, len);
	if (td_split_ws(s, len, f, 1) < 1)
		return TD_NONE;
	/*
	 * "23.0%" carries its own percent sign, "68.7 %" has it in the unit, and
	 * "0.31 frontend_bound" (a metric without ScaleUnit) is a fraction.
	 */
	const char *rest = f[0].s + f[0].len;
	size_t rlen = len - (size_t)(rest - s);
	int percent;
	enum td_node node = td_metric_label(rest, rlen, &percent, seen);
	if (node != TD_NONE && td_parse_metric_value(f[0].s, f[0].len, percent, value) != 0)
		return TD_NONE;
	return node;
}

/*
 * The hybrid PMUs this block counts on, in the order perf first prints them
 * ("cpu_core/cycles/" before "cpu_atom/cycles/"), for metric groups printed
 * without their PMU.  Returns how many (0..3).
 */
static int hybrid_pmus(const char *text, size_t len, long line0, const char *pmus[3])
{
	static const char *const names[] = { "cpu_core", "cpu_atom", "cpu_lowpower" };
	int n = 0;
	struct td_line_iter it;
	struct td_line line;
	td_lines_begin(&it, text, len, line0);
	while (td_lines_next(&it, &line) && n < 3) {
		for (size_t k = 0; k < 3; k++) {
			size_t nl = strlen(names[k]);
			int found = 0;
			for (size_t i = 0; i + nl < line.len && !found; i++)
				found = memcmp(line.s + i, names[k], nl) == 0 && (line.s[i + nl] == '/' || line.s[i + nl] == ')');
			int dup = 0;
			for (int j = 0; j < n; j++)
				dup |= pmus[j] == names[k];
			if (found && !dup)
				pmus[n++] = names[k];
		}
	}
	return n;
}

/* How many times each unlabeled group name came, to give its k-th block the k-th hybrid PMU. */
struct group_count {
	char name[32];
	int n;
};

static const char *unlabeled_group_scope(struct group_count *groups, int *n_groups, const char *name, size_t len,
					 const char *const *pmus, int n_pmus)
{
	int g;
	for (g = 0; g < *n_groups; g++)
		if (strlen(groups[g].name) == len && strncmp(groups[g].name, name, len) == 0)
			break;
	if (g == *n_groups) {
		if (*n_groups == 8)
			return "all";
		snprintf(groups[g].name, sizeof groups[g].name, "%.*s", (int)len, name);
		groups[g].n = 0;
		(*n_groups)++;
	}
	int k = groups[g].n++;
	return n_pmus && k < n_pmus ? pmus[k] : "all";
}

int td_parse_perf_std(const char *text, size_t len, long line0, struct td_run *run, struct td_diag *diag)
{
	struct td_line_iter it;
	struct td_line line;
	struct column_header header = { 0 };
	struct td_label_seen seen = { 0 };
	char scope[64] = "all";
	const char *pmus[3];
	int n_pmus = hybrid_pmus(text, len, line0, pmus);
	struct group_count groups[8];
	int n_groups = 0;
	int rc;

	td_lines_begin(&it, text, len, line0);
	while (td_lines_next(&it, &line)) {
		struct td_field f[8];
		const char *s = line.s;
		size_t n = line.len;
		int nf = td_split_ws(s, n, f, 8);
		if (nf == 0)
			continue;
		/* "1.006529767 seconds time elapsed", "7.739760343 +- 0.045801207 seconds time elapsed  ( +-  0.59% )" */
		if (nf >= 3 && (td_field_is(&f[1], "seconds") || (nf >= 5 && td_field_is(&f[1], "+-") &&
								   td_field_is(&f[3], "seconds")))) {
			int k = td_field_is(&f[1], "seconds") ? 1 : 3;
			if (k + 2 < nf && td_field_is(&f[k + 1], "time") && td_field_is(&f[k + 2], "elapsed")) {
				double el;
				if (td_parse_value(f[0].s, f[0].len, &el) == 0)
					for (size_t i = 0; i < run->n_iv; i++)
						if (run->iv[i].t1 < 0)
							run->iv[i].t1 = el;
			}
			continue;
		}
		const char *hash = memchr(s, '#', n);
		size_t before = hash ? (size_t)(hash - s) : n;

		/* A header line: only labels and filler words (leading '#' allowed). */
		{
			const char *hs = s;
			size_t hl = n;
			while (hl && (*hs == ' ' || *hs == '#'))
				hs++, hl--;
			struct column_header h;
			if (parse_header(hs, hl, &h, &seen)) {
				header = h;
				continue;
			}
		}
		/* A metric-only row under a header. */
		if (header.n && !hash) {
			double x;
			if (td_parse_value(f[nf - 1].s, f[nf - 1].len, &x) == 0 && nf >= header.n) {
				if ((rc = parse_metric_row(&line, &header, run, diag)) < 0)
					return rc;
				continue;
			}
		}

		/* Counter or metric-group line. */
		struct td_field left[8];
		int nl = td_split_ws(s, before, left, 8);
		double t = 0;
		int k = 0;
		if (k < nl && td_is_interval_stamp(left[k].s, left[k].len))
			t = strtod(left[k++].s, NULL);
		char aggr[64] = "";
		if (k + 1 < nl && td_is_aggr_id(left[k].s, left[k].len)) {
			snprintf(aggr, sizeof aggr, "%.*s", (int)left[k].len, left[k].s);
			k += 2; /* aggregation id and its cpu count */
		}
		if (k < nl) {
			const char *ls = left[k].s;
			size_t ll = (size_t)(s + before - ls);
			char group[64];
			if (td_group_label(ls, ll, group, sizeof group)) {
				if (strcmp(group, "all") == 0)
					snprintf(scope, sizeof scope, "%s",
						 unlabeled_group_scope(groups, &n_groups, left[k].s, left[k].len, pmus, n_pmus));
				else
					snprintf(scope, sizeof scope, "%s", group);
			} else {
				double count, v;
				int counted;
				enum td_node bare = hash ? TD_NONE : parse_comment_metric(ls, ll, &v, &seen);
				if (bare != TD_NONE) {
					/* a metric line without its counts, as people trim it: "  6.1 %  frontend_bound  (20.00%)" */
					if ((rc = td_put_value(run, line.no, t, aggr[0] ? aggr : scope, bare, v, diag)) < 0)
						return rc;
				} else if (td_parse_count(left[k].s, left[k].len, &count, &counted) == 0 ||
					   (left[k].s[0] == '<' && k + 1 < nl)) {
					int e = k + 1;
					if (left[k].s[0] == '<') /* "<not counted>" is two words */
						while (e < nl && left[e - 1].s[left[e - 1].len - 1] != '>')
							e++;
					if (e < nl && (td_field_is(&left[e], "msec") || td_field_is(&left[e], "ms")))
						e++;
					if (e < nl) {
						/* metrics on this line and the '#' lines under it are of the event's PMU */
						const char *pmu = td_event_hybrid_pmu(left[e].s, left[e].len);
						snprintf(scope, sizeof scope, "%s", pmu ? pmu : aggr[0] ? aggr : "all");
						rc = td_put_event(run, t, aggr[0] ? aggr : "all", left[e].s, left[e].len,
								  count, counted);
						if (rc < 0)
							return rc;
					}
				}
			}
		}
		if (hash) {
			double v;
			enum td_node node = parse_comment_metric(hash + 1, n - before - 1, &v, &seen);
			if (node != TD_NONE) {
				const char *sc = aggr[0] ? aggr : scope;
				if ((rc = td_put_value(run, line.no, t, sc, node, v, diag)) < 0)
					return rc;
			}
		}
	}
	td_label_finish(run, &seen);
	return 0;
}
