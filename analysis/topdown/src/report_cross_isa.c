/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The cross-ISA report: for each workload, its topdown runs side by side
 * under the canonical node names (over the intervals, each value clamped
 * to [0, 1] like the views, weighted by the interval's slots, else its cycles,
 * else a plain mean: docs/topdown-formulas.md §8), a note on every row where a run has no equivalent or is an
 * approximation, and the SPE evidence behind backend/memory bound and bad
 * speculation from the SPE capture(s) the workload's runs are linked to
 * (topdown_run.spe_source_id -> spe-load's source table).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_internal.h"
#include "topdown/node.h"

#define MAX_COLS 16
#define COL_W 18  /* narrowest run column; wider when a name, cpu or method needs it */
#define NODE_W 26 /* narrowest node column */

struct column {
	long long run_id;
	int width; /* table form: characters of the column */
	char scope[64], name[64], isa[16], cpu[48], method[32];
	int approx, intervals;
	const char *weight; /* what the intervals are weighted by: "slots", "cycles" or "mean" (none) */
	double v[TD_NODE_COUNT];
	int has[TD_NODE_COUNT];
	int mapped[TD_NODE_COUNT]; /* value mapped from another node (approximate) */
	int summed;                /* backend_bound_bad_speculation summed from its two parts */
};

static void copy_text(char *dst, size_t cap, sqlite3_stmt *st, int col, const char *dflt)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	snprintf(dst, cap, "%s", t ? (const char *)t : dflt);
}

/*
 * The weight of column @p c's intervals: their slots when every one has them,
 * else their cycles (slots over a constant width), else none: a plain mean.
 */
static int column_weight(sqlite3 *db, struct column *c, struct td_diag *diag)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db,
			       "SELECT COUNT(*), COALESCE(SUM(slots > 0), 0), COALESCE(SUM(cycles > 0), 0)\n"
			       "FROM topdown_interval i WHERE run_id = ? AND scope = ?\n"
			       "  AND EXISTS (SELECT 1 FROM topdown_value v WHERE v.interval_id = i.interval_id)",
			       -1, &st, NULL) != SQLITE_OK)
		return td_fail(diag, td_db, 0, "reading topdown intervals: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, c->run_id);
	sqlite3_bind_text(st, 2, c->scope, -1, SQLITE_STATIC);
	c->weight = "mean";
	if (sqlite3_step(st) == SQLITE_ROW) {
		int n = sqlite3_column_int(st, 0);
		if (n && sqlite3_column_int(st, 1) == n)
			c->weight = "slots";
		else if (n && sqlite3_column_int(st, 2) == n)
			c->weight = "cycles";
	}
	sqlite3_finalize(st);
	return 0;
}

static int load_columns(sqlite3 *db, const char *workload, struct column *cols, int *ncols, struct td_diag *diag)
{
	sqlite3_stmt *st;
	const char *sql =
		"SELECT r.run_id, i.scope, COALESCE(r.name, 'run ' || r.run_id), COALESCE(r.isa, '?'),\n"
		"       COALESCE(r.cpu, '-'), COALESCE(r.method, '-'), r.approx, COUNT(DISTINCT i.interval_id)\n"
		"FROM topdown_run r JOIN topdown_interval i USING (run_id)\n"
		"WHERE r.workload IS ?1 AND EXISTS (SELECT 1 FROM topdown_value v WHERE v.interval_id = i.interval_id)\n"
		"GROUP BY r.run_id, i.scope ORDER BY r.isa, r.run_id, i.scope";
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return td_fail(diag, td_db, 0, "reading topdown runs: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(st, 1, workload, -1, SQLITE_STATIC);
	*ncols = 0;
	while (sqlite3_step(st) == SQLITE_ROW && *ncols < MAX_COLS) {
		struct column *c = &cols[(*ncols)++];
		memset(c, 0, sizeof *c);
		c->run_id = sqlite3_column_int64(st, 0);
		copy_text(c->scope, sizeof c->scope, st, 1, "all");
		copy_text(c->name, sizeof c->name, st, 2, "?");
		copy_text(c->isa, sizeof c->isa, st, 3, "?");
		copy_text(c->cpu, sizeof c->cpu, st, 4, "-");
		copy_text(c->method, sizeof c->method, st, 5, "-");
		c->approx = sqlite3_column_int(st, 6);
		c->intervals = sqlite3_column_int(st, 7);
	}
	sqlite3_finalize(st);

	for (int k = 0; k < *ncols; k++) {
		struct column *c = &cols[k];
		int rc = column_weight(db, c, diag);
		if (rc < 0)
			return rc;
		/* docs/topdown-formulas.md §8: sum(frac x slots) / sum(slots), clamped like the views; 1 = plain mean */
		char vsql[512];
		snprintf(vsql, sizeof vsql,
			 "SELECT v.node, SUM(MIN(1, MAX(0, v.frac)) * %s) / SUM(%s)\n"
			 "FROM topdown_value v JOIN topdown_interval i USING (interval_id)\n"
			 "WHERE i.run_id = ? AND i.scope = ? AND v.frac IS NOT NULL GROUP BY v.node",
			 strcmp(c->weight, "mean") ? c->weight : "1", strcmp(c->weight, "mean") ? c->weight : "1");
		if (sqlite3_prepare_v2(db, vsql, -1, &st, NULL) != SQLITE_OK)
			return td_fail(diag, td_db, 0, "reading topdown values: %s", sqlite3_errmsg(db));
		sqlite3_bind_int64(st, 1, c->run_id);
		sqlite3_bind_text(st, 2, c->scope, -1, SQLITE_STATIC);
		while (sqlite3_step(st) == SQLITE_ROW) {
			enum td_node n = td_node_from_label((const char *)sqlite3_column_text(st, 0));
			if (n == TD_NONE)
				continue;
			c->v[n] = sqlite3_column_double(st, 1);
			c->has[n] = 1;
		}
		/*
		 * Arm V3/N3 split backend stall cycles into memory and core; times
		 * backend_bound that approximates Intel's slot-based memory/core bound
		 * (docs/topdown-formulas.md §4 "L2 / stage 2", a flagged [proposal]).
		 */
		static const enum td_node map[][2] = { { TD_MEMORY_BOUND, TD_BACKEND_MEM_BOUND },
						       { TD_CORE_BOUND, TD_BACKEND_CORE_BOUND } };
		for (size_t m = 0; m < sizeof map / sizeof map[0]; m++) {
			enum td_node to = map[m][0], from = map[m][1];
			if (!c->has[to] && c->has[from] && c->has[TD_BACKEND_BOUND]) {
				c->v[to] = c->v[TD_BACKEND_BOUND] * c->v[from];
				c->has[to] = c->mapped[to] = 1;
			}
		}
		sqlite3_finalize(st);
	}
	return 0;
}

/*
 * When a run of the workload has only perf <= 6.3's backend_bound_bad_speculation,
 * the runs with both parts show their sum on that row, to compare with.
 */
static void fill_combined(struct column *cols, int ncols)
{
	int any = 0;
	for (int k = 0; k < ncols; k++)
		any |= cols[k].has[TD_BACKEND_BOUND_BAD_SPECULATION];
	for (int k = 0; any && k < ncols; k++) {
		struct column *c = &cols[k];
		if (!c->has[TD_BACKEND_BOUND_BAD_SPECULATION] && c->has[TD_BACKEND_BOUND] && c->has[TD_BAD_SPECULATION]) {
			c->v[TD_BACKEND_BOUND_BAD_SPECULATION] = c->v[TD_BACKEND_BOUND] + c->v[TD_BAD_SPECULATION];
			c->has[TD_BACKEND_BOUND_BAD_SPECULATION] = c->summed = 1;
		}
	}
}

/* "run" or "run[scope]" for hybrid and per-core columns. */
static const char *col_label(const struct column *c, char *buf, size_t cap)
{
	if (strcmp(c->scope, "all") == 0)
		return c->name;
	snprintf(buf, cap, "%s[%s]", c->name, c->scope);
	return buf;
}

static int is_arm_only(enum td_node n)
{
	return strcmp(td_node_basis(n), "slots") != 0;
}

/* The note of row @p n, or "" when the row compares like with like. */
static void row_note(const struct column *cols, int ncols, enum td_node n, char *note, size_t cap)
{
	note[0] = '\0';
#define ADD(...) snprintf(note + strlen(note), cap - strlen(note), __VA_ARGS__)
	for (int k = 0; k < ncols; k++) {
		const struct column *c = &cols[k];
		const char *sep = note[0] ? "; " : "";
		char buf[160];
		const char *label = col_label(c, buf, sizeof buf);
		int combined_only = (n == TD_BACKEND_BOUND || n == TD_BAD_SPECULATION) &&
				    c->has[TD_BACKEND_BOUND_BAD_SPECULATION] && !c->summed;
		if (c->has[n] && n == TD_BACKEND_BOUND_BAD_SPECULATION && c->summed) {
			ADD("%s%s: backend_bound + bad_speculation", sep, label);
		} else if (!c->has[n] && combined_only) {
			ADD("%s%s: only backend_bound + bad_speculation together (perf <= 6.3 without recovery bubbles)",
			    sep, label);
		} else if (c->has[n] && c->mapped[n]) {
			ADD("%s%s: approximation, backend_bound x %s (a share of stall cycles, not slots)", sep, label,
			    td_node_name(n == TD_MEMORY_BOUND ? TD_BACKEND_MEM_BOUND : TD_BACKEND_CORE_BOUND));
		} else if (c->has[n] && c->approx && !is_arm_only(n)) {
			ADD("%s%s: approximation (%s)", sep, label, c->method);
		} else if (!c->has[n]) {
			int x86 = strcmp(c->isa, "x86_64") == 0;
			if (is_arm_only(n) && x86)
				ADD("%s%s: no equivalent on x86_64 (Arm stall-cycle accounting)", sep, label);
			else if (!is_arm_only(n) && !x86 && td_node_level(n) == 2)
				ADD("%s%s: no equivalent on %s (no level 2 slot tree)", sep, label, c->isa);
			else if (!is_arm_only(n) && !x86 && strcmp(c->method, "arm_n1_cycles") == 0)
				ADD("%s%s: no slot level 1 on %s; see the *_stalled_cycles rows", sep, label, c->cpu);
			else
				ADD("%s%s: not measured", sep, label);
		}
	}
	if (is_arm_only(n)) {
		const char *sep = note[0] ? "; " : "";
		ADD("%sbasis: %s", sep, strcmp(td_node_basis(n), "cycles") == 0 ? "share of cycles" : "share of the parent's stall cycles");
	}
#undef ADD
}

/*
 * The SPE sources linked to the runs of @p workload (topdown_run.spe_source_id,
 * set by spe-topdown import --spe-source) as "source_id IN (1, 2)" in @p where,
 * and their ids and files for the title in @p names.  Returns the count.
 */
static int workload_sources(sqlite3 *db, const char *workload, char *where, size_t wcap, char *names, size_t ncap,
			    struct td_diag *diag)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db,
			       "SELECT s.id, s.file FROM source s WHERE s.id IN\n"
			       "  (SELECT spe_source_id FROM topdown_run WHERE workload IS ?1) ORDER BY s.id",
			       -1, &st, NULL) != SQLITE_OK)
		return td_fail(diag, td_db, 0, "reading the SPE sources: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(st, 1, workload, -1, SQLITE_STATIC);
	int n = 0;
	size_t wl = (size_t)snprintf(where, wcap, "source_id IN ("), nl = 0;
	names[0] = '\0';
	while (sqlite3_step(st) == SQLITE_ROW) {
		long long id = sqlite3_column_int64(st, 0);
		const unsigned char *file = sqlite3_column_text(st, 1);
		wl += (size_t)snprintf(where + wl, wl < wcap ? wcap - wl : 0, "%s%lld", n ? ", " : "", id);
		nl += (size_t)snprintf(names + nl, nl < ncap ? ncap - nl : 0, "%s%lld %s", n ? ", " : "", id,
				       file ? (const char *)file : "?");
		n++;
	}
	sqlite3_finalize(st);
	wl += (size_t)snprintf(where + wl, wl < wcap ? wcap - wl : 0, ")");
	if (wl >= wcap)
		return td_fail(diag, td_invalid, 0, "workload '%s' links too many SPE sources", workload);
	return n;
}

static int evidence(sqlite3 *db, FILE *out, const char *workload, const struct td_report_opts *o,
		    struct td_diag *diag)
{
	int json = o->format == TD_REPORT_JSON;
	char where[512], names[1024];
	int rc = workload_sources(db, workload, where, sizeof where, names, sizeof names, diag);
	if (rc < 0)
		return rc;
	long long records = rc ? td_spe_record_count(db, where) : 0;
	if (records == 0) {
		if (json)
			fprintf(out, ", \"spe_evidence\": null");
		else
			fprintf(out, "\nNo SPE evidence: %s.\n",
				rc ? "the SPE source of this workload has no records"
				   : "no run of this workload is linked to an SPE capture (spe-topdown import --spe-source)");
		return 0;
	}
	if (json) {
		const char *ids = strchr(where, '(') + 1; /* "1, 2)" of "source_id IN (1, 2)" */
		fprintf(out, ", \"spe_evidence\": {\"spe_records\": %lld, \"spe_sources\": [%.*s], ", records,
			(int)(strlen(ids) - 1), ids);
	} else {
		fprintf(out, "\nSPE evidence (%lld records of SPE source %s)\n", records, names);
		fprintf(out, "\nBehind backend_bound and memory_bound:\n\n");
	}
	if ((rc = td_spe_mem_levels(db, where, out, o, diag)) < 0)
		return rc;
	fprintf(out, json ? ", " : "\n");
	if ((rc = td_spe_hot_symbols(db, where, out, o, diag)) < 0)
		return rc;
	fprintf(out, json ? ", " : "\n");
	if ((rc = td_spe_tlb_walks(db, where, out, o, diag)) < 0)
		return rc;
	fprintf(out, json ? ", " : "\nBehind bad_speculation:\n\n");
	if ((rc = td_spe_mispredicts(db, where, out, o, diag)) < 0)
		return rc;
	if (json)
		fprintf(out, "}");
	return 0;
}

static const char *weight_label(const char *weight)
{
	return !strcmp(weight, "slots") ? "slot-weighted" : !strcmp(weight, "cycles") ? "cycle-weighted" : "plain mean";
}

/* Say when a run's intervals could not be weighted (and it matters: more than one). */
static void mean_footnote(FILE *out, const struct column *cols, int ncols)
{
	for (int k = 0; k < ncols; k++) {
		if (strcmp(cols[k].weight, "mean") == 0 && cols[k].intervals > 1) {
			fprintf(out, "\nplain mean: the input has no slot or cycle counts, so the intervals are averaged\n"
				     "unweighted, not as sum(fraction x slots) / sum(slots).\n");
			return;
		}
	}
}

static void print_cell_text(FILE *out, const char *s, int width)
{
	fprintf(out, " %*s", width, s);
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

/* Widths that fit every header cell of the columns (no truncation), and the node column's. */
static int size_columns(struct column *cols, int ncols)
{
	for (int k = 0; k < ncols; k++) {
		struct column *c = &cols[k];
		char buf[160];
		c->width = max_int(COL_W, (int)strlen(col_label(c, buf, sizeof buf)));
		c->width = max_int(c->width, max_int((int)strlen(c->isa), max_int((int)strlen(c->cpu), (int)strlen(c->method))));
	}
	int node_w = NODE_W;
	for (int n = 0; n < TD_NODE_COUNT; n++)
		for (int k = 0; k < ncols; k++)
			if (cols[k].has[n])
				node_w = max_int(node_w, 3 + (int)strlen(td_node_name(n))); /* "L1 name" */
	return node_w;
}

static int report_workload(sqlite3 *db, FILE *out, const char *workload, const struct td_report_opts *o,
			   struct td_diag *diag)
{
	struct column *cols = calloc(MAX_COLS, sizeof *cols);
	int ncols = 0, rc;
	if (!cols)
		return -td_nomem;
	if ((rc = load_columns(db, workload, cols, &ncols, diag)) < 0)
		goto out;
	fill_combined(cols, ncols);
	int json = o->format == TD_REPORT_JSON;
	int node_w = NODE_W;
	char note[1024];

	if (json) {
		fprintf(out, "{\"workload\": ");
		td_json_string(out, workload);
		fprintf(out, ", \"runs\": [");
		for (int k = 0; k < ncols; k++) {
			fprintf(out, "%s{\"run\": ", k ? ", " : "");
			td_json_string(out, cols[k].name);
			fprintf(out, ", \"scope\": ");
			td_json_string(out, cols[k].scope);
			fprintf(out, ", \"isa\": ");
			td_json_string(out, cols[k].isa);
			fprintf(out, ", \"cpu\": ");
			td_json_string(out, cols[k].cpu);
			fprintf(out, ", \"method\": ");
			td_json_string(out, cols[k].method);
			fprintf(out, ", \"approx\": %s, \"intervals\": %d, \"weight\": \"%s\"}", cols[k].approx ? "true" : "false",
				cols[k].intervals, cols[k].weight);
		}
		fprintf(out, "], \"nodes\": [");
	} else {
		int nruns = 0;
		for (int k = 0; k < ncols; k++)
			nruns += k == 0 || cols[k].run_id != cols[k - 1].run_id;
		fprintf(out, "Workload %s: %d run%s", workload, nruns, nruns == 1 ? "" : "s");
		if (ncols != nruns)
			fprintf(out, " in %d columns (one per scope)", ncols);
		node_w = size_columns(cols, ncols);
		fprintf(out, "\n\n  %-*s", node_w, "node");
		for (int k = 0; k < ncols; k++) {
			char buf[160];
			print_cell_text(out, col_label(&cols[k], buf, sizeof buf), cols[k].width);
		}
		fprintf(out, "\n  %-*s", node_w, "");
		for (int k = 0; k < ncols; k++)
			print_cell_text(out, cols[k].isa, cols[k].width);
		fprintf(out, "\n  %-*s", node_w, "");
		for (int k = 0; k < ncols; k++)
			print_cell_text(out, cols[k].cpu, cols[k].width);
		fprintf(out, "\n  %-*s", node_w, "");
		for (int k = 0; k < ncols; k++)
			print_cell_text(out, cols[k].method, cols[k].width);
		fprintf(out, "\n  %-*s", node_w, "");
		for (int k = 0; k < ncols; k++)
			print_cell_text(out, weight_label(cols[k].weight), cols[k].width);
		fprintf(out, "  note\n");
	}

	int first = 1;
	for (int n = 0; n < TD_NODE_COUNT; n++) {
		int any = 0;
		for (int k = 0; k < ncols; k++)
			any |= cols[k].has[n];
		if (!any)
			continue;
		row_note(cols, ncols, n, note, sizeof note);
		if (json) {
			fprintf(out, "%s{\"node\": \"%s\", \"level\": %d, \"basis\": \"%s\", \"values\": [", first ? "" : ", ",
				td_node_name(n), td_node_level(n), td_node_basis(n));
			for (int k = 0; k < ncols; k++) {
				if (cols[k].has[n])
					fprintf(out, "%s%.4f", k ? ", " : "", cols[k].v[n]);
				else
					fprintf(out, "%snull", k ? ", " : "");
			}
			fprintf(out, "], \"note\": ");
			if (note[0])
				td_json_string(out, note);
			else
				fprintf(out, "null");
			fprintf(out, "}");
		} else {
			char label[64];
			snprintf(label, sizeof label, "L%d %s", td_node_level(n), td_node_name(n));
			fprintf(out, "  %-*s", node_w, label);
			for (int k = 0; k < ncols; k++) {
				char cell[32];
				if (cols[k].has[n])
					snprintf(cell, sizeof cell, "%s%.1f%%", cols[k].mapped[n] || (cols[k].approx && !is_arm_only(n)) ? "~" : "",
						 100 * cols[k].v[n]);
				else
					snprintf(cell, sizeof cell, "-");
				print_cell_text(out, cell, cols[k].width);
			}
			fprintf(out, "%s%s\n", note[0] ? "  " : "", note);
		}
		first = 0;
	}
	if (json)
		fprintf(out, "]");
	else
		mean_footnote(out, cols, ncols);
	rc = evidence(db, out, workload, o, diag);
	if (json)
		fprintf(out, "}\n");
out:
	free(cols);
	return rc;
}

int td_report_cross_isa(sqlite3 *db, FILE *out, const struct td_report_opts *opts, struct td_diag *diag)
{
	struct td_report_opts o = *opts;
	if (o.top <= 0)
		o.top = 10;
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db,
			       "SELECT DISTINCT workload FROM topdown_run WHERE ?1 IS NULL OR workload = ?1 ORDER BY workload",
			       -1, &st, NULL) != SQLITE_OK)
		return td_fail(diag, td_no_data, 0, "no topdown data in the database (import some with spe-topdown import)");
	if (o.workload)
		sqlite3_bind_text(st, 1, o.workload, -1, SQLITE_STATIC);
	int n = 0, rc = 0;
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
		const unsigned char *w = sqlite3_column_text(st, 0);
		char *workload = strdup(w ? (const char *)w : "");
		if (!workload) {
			rc = -td_nomem;
			break;
		}
		if (n && o.format == TD_REPORT_TABLE)
			fprintf(out, "\n");
		rc = report_workload(db, out, workload, &o, diag);
		free(workload);
		n++;
	}
	sqlite3_finalize(st);
	if (rc < 0)
		return rc;
	if (n == 0)
		return td_fail(diag, td_no_data, 0, o.workload ? "no topdown run for workload '%s'" : "no topdown runs%s",
			       o.workload ? o.workload : "");
	return 0;
}
