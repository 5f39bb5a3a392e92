/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The cross-ISA report: for each workload, its topdown runs side by side
 * under the canonical node names (over the intervals, each value clamped
 * to [0, 1] like the views, weighted by the interval's slots, else its cycles,
 * else a plain mean: docs/topdown-formulas.md §8), with what a reader needs to compare
 * them: each run's host, CPU, elapsed time, slots and cycles, IPC and
 * pipeline width; a note on every row where a run has no equivalent or is
 * an approximation; the caveats of the methods mixed (report_caveats.c); a
 * warning when a run's CPU is not the CPU its SPE capture ran on (spe-load's
 * cpu table); and, under each run linked to an SPE capture
 * (topdown_run.spe_source_id), the SPE evidence behind backend/memory bound
 * and bad speculation.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topdown/event_name.h"
#include "text_internal.h"
#include "util/json.h"
#include "util/visible.h"
#include "report_sqlite.h"
#include "topdown/formula.h"
#include "topdown/node.h"

#define MAX_COLS 16
#define COL_W 18  /* narrowest run column; wider when a name, cpu or method needs it */
#define NODE_W 26 /* narrowest node column */

enum cpu_check { CPU_NO_SPE, CPU_MATCH, CPU_MISMATCH, CPU_UNKNOWN };

struct column {
	long long run_id;
	int width; /* table form: characters of the column */
	char scope[64], name[64], isa[16], cpu[48], method[32], host[64];
	int approx, intervals;
	const char *weight;     /* what the intervals are weighted by: "slots", "cycles" or "mean" (none) */
	double slots, cycles, instructions; /* sums over the intervals; 0 unknown */
	double elapsed;         /* seconds the intervals cover; < 0 unknown */
	int pipeline_width;     /* slots per cycle; 0 unknown */
	int width_from_counts;  /* pipeline_width is slots / cycles, not the CPU's */
	long long spe_source;   /* the SPE capture the run is linked to; 0 none */
	char spe_file[256], spe_cpu[64];
	enum cpu_check cpu_check;
	int first_of_run;       /* the run's first column (where its SPE evidence goes) */
	double v[TD_NODE_COUNT];
	int has[TD_NODE_COUNT];
	int mapped[TD_NODE_COUNT]; /* value mapped from another node (approximate) */
	int summed;                /* backend_bound_bad_speculation summed from its two parts */
	int visible;               /* text read for the table: in its visible form */
};

/* A text column into @p dst; for the table (@p visible), in its visible form (util/visible.h). */
static void copy_text(char *dst, size_t cap, sqlite3_stmt *st, int col, const char *dflt, int visible)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	char *v = visible && t ? util_visible((const char *)t, 0, cap - 1) : NULL;
	snprintf(dst, cap, "%s", v ? v : t ? (const char *)t : dflt);
	free(v);
}

/*
 * The weight of column @p c's intervals: their slots when every one has them,
 * else their cycles (slots over a constant width), else none: a plain mean.
 */
static int column_weight(sqlite3 *db, struct column *c, char *err, size_t errlen)
{
	int frc;
	sqlite3_stmt *st = report_prepare(db,
				      "SELECT COUNT(*), COALESCE(SUM(slots > 0), 0), COALESCE(SUM(cycles > 0), 0)\n"
				      "FROM topdown_interval i WHERE run_id = ? AND scope = ?\n"
				      "  AND EXISTS (SELECT 1 FROM topdown_value v WHERE v.interval_id = i.interval_id)",
				      "reading topdown intervals", err, errlen);
	if (!st)
		return report_prepare_code(db);
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
	if ((frc = report_sqlite_finish(db, st, "reading topdown data", err, errlen)) < 0)
		return frc;
	return 0;
}

/*
 * Slots, cycles and instructions over the column's intervals (the counts the
 * importer found, whatever their PMU prefix), the time they cover, and the
 * pipeline width: the CPU's when the run names it, else slots / cycles.
 */
static int column_counts(sqlite3 *db, struct column *c, char *err, size_t errlen)
{
	int frc;
	sqlite3_stmt *st = report_prepare(db,
				      "SELECT COALESCE(SUM(slots), 0), COALESCE(SUM(cycles), 0), MIN(t0), MAX(t1),\n"
				      "  COALESCE(SUM(CASE WHEN slots > 0 AND cycles > 0 THEN slots END), 0),\n"
				      "  COALESCE(SUM(CASE WHEN slots > 0 AND cycles > 0 THEN cycles END), 0)\n"
				      "FROM topdown_interval i WHERE run_id = ? AND scope = ?\n"
				      "  AND EXISTS (SELECT 1 FROM topdown_value v WHERE v.interval_id = i.interval_id)",
				      "reading topdown intervals", err, errlen);
	if (!st)
		return report_prepare_code(db);
	sqlite3_bind_int64(st, 1, c->run_id);
	sqlite3_bind_text(st, 2, c->scope, -1, SQLITE_STATIC);
	c->elapsed = -1;
	double both_slots = 0, both_cycles = 0;
	if (sqlite3_step(st) == SQLITE_ROW) {
		c->slots = sqlite3_column_double(st, 0);
		c->cycles = sqlite3_column_double(st, 1);
		if (sqlite3_column_type(st, 3) != SQLITE_NULL)
			c->elapsed = sqlite3_column_double(st, 3) - sqlite3_column_double(st, 2);
		both_slots = sqlite3_column_double(st, 4);
		both_cycles = sqlite3_column_double(st, 5);
	}
	if ((frc = report_sqlite_finish(db, st, "reading topdown data", err, errlen)) < 0)
		return frc;
	if (!c->pipeline_width && both_slots > 0 && both_cycles > 0) {
		c->pipeline_width = (int)lround(both_slots / both_cycles);
		c->width_from_counts = 1;
	}

	/* instructions: the first counted instructions event of each interval */
	if (!(st = report_prepare(db,
			      "SELECT e.interval_id, e.name, e.value FROM topdown_event e JOIN topdown_interval i\n"
			      "  USING (interval_id) WHERE i.run_id = ? AND i.scope = ? AND e.value IS NOT NULL\n"
			      "  AND EXISTS (SELECT 1 FROM topdown_value v WHERE v.interval_id = i.interval_id)\n"
			      "ORDER BY e.interval_id",
			      "reading topdown events", err, errlen)))
		return report_prepare_code(db);
	sqlite3_bind_int64(st, 1, c->run_id);
	sqlite3_bind_text(st, 2, c->scope, -1, SQLITE_STATIC);
	long long counted_in = -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		long long iv = sqlite3_column_int64(st, 0);
		const char *name = (const char *)sqlite3_column_text(st, 1);
		if (iv != counted_in && name && td_event_kind_of(name) == TD_EV_INSTRUCTIONS) {
			c->instructions += sqlite3_column_double(st, 2);
			counted_in = iv;
		}
	}
	if ((frc = report_sqlite_finish(db, st, "reading topdown data", err, errlen)) < 0)
		return frc;
	return 0;
}

/* Canonical model name of a CPU as runs and spe-load spell it ("neoverse-n2", "0x410fd490"), or @p cpu. */
static const char *canonical_cpu(const char *cpu, struct td_cpu_info *info)
{
	return td_cpu_lookup(cpu, info) == 0 ? info->name : cpu;
}

/*
 * The CPU of the SPE capture the column's run is linked to (spe-load's cpu
 * table: the part of each CPU's MIDR), and whether the run's CPU is that one.
 */
static int column_spe_cpu(sqlite3 *db, struct column *c, char *err, size_t errlen)
{
	int frc;
	if (!c->spe_source)
		return 0;
	sqlite3_stmt *st = report_prepare(db,
				      "SELECT (SELECT file FROM source WHERE id = ?1),\n"
				      "  (SELECT group_concat(p, ',') FROM (SELECT DISTINCT COALESCE(part, printf('0x%08x', midr)) AS p\n"
				      "   FROM cpu WHERE source_id = ?1 AND (part IS NOT NULL OR midr IS NOT NULL) ORDER BY p))",
				      "reading the SPE capture's CPUs", err, errlen);
	if (!st)
		return report_prepare_code(db);
	sqlite3_bind_int64(st, 1, c->spe_source);
	if (sqlite3_step(st) == SQLITE_ROW) {
		copy_text(c->spe_file, sizeof c->spe_file, st, 0, "?", c->visible);
		copy_text(c->spe_cpu, sizeof c->spe_cpu, st, 1, "", c->visible);
	}
	if ((frc = report_sqlite_finish(db, st, "reading topdown data", err, errlen)) < 0)
		return frc;
	struct td_cpu_info a, b;
	if (!strcmp(c->cpu, "-") || !c->spe_cpu[0])
		c->cpu_check = CPU_UNKNOWN;
	else if (!strchr(c->spe_cpu, ',') && !strcmp(canonical_cpu(c->cpu, &a), canonical_cpu(c->spe_cpu, &b)))
		c->cpu_check = CPU_MATCH;
	else
		c->cpu_check = CPU_MISMATCH;
	return 0;
}

static int load_columns(sqlite3 *db, const char *workload, struct column *cols, int *ncols, int vis, char *err,
			size_t errlen)
{
	int frc;
	sqlite3_stmt *st;
	const char *sql =
		"SELECT r.run_id, i.scope, COALESCE(r.name, 'run ' || r.run_id), COALESCE(r.isa, '?'),\n"
		"       COALESCE(r.cpu, '-'), COALESCE(r.method, '-'), r.approx, COUNT(DISTINCT i.interval_id),\n"
		"       COALESCE(r.host, '-'), COALESCE(r.slots_per_cycle, 0), COALESCE(r.spe_source_id, 0)\n"
		"FROM topdown_run r JOIN topdown_interval i USING (run_id)\n"
		"WHERE r.workload IS ?1 AND EXISTS (SELECT 1 FROM topdown_value v WHERE v.interval_id = i.interval_id)\n"
		"GROUP BY r.run_id, i.scope ORDER BY r.isa, r.run_id, i.scope";
	if (!(st = report_prepare(db, sql, "reading topdown runs", err, errlen)))
		return report_prepare_code(db);
	sqlite3_bind_text(st, 1, workload, -1, SQLITE_STATIC);
	*ncols = 0;
	while (sqlite3_step(st) == SQLITE_ROW && *ncols < MAX_COLS) {
		struct column *c = &cols[(*ncols)++];
		memset(c, 0, sizeof *c);
		c->visible = vis;
		c->run_id = sqlite3_column_int64(st, 0);
		copy_text(c->scope, sizeof c->scope, st, 1, "all", vis);
		copy_text(c->name, sizeof c->name, st, 2, "?", vis);
		copy_text(c->isa, sizeof c->isa, st, 3, "?", vis);
		copy_text(c->cpu, sizeof c->cpu, st, 4, "-", vis);
		copy_text(c->method, sizeof c->method, st, 5, "-", vis);
		c->approx = sqlite3_column_int(st, 6);
		c->intervals = sqlite3_column_int(st, 7);
		copy_text(c->host, sizeof c->host, st, 8, "-", vis);
		c->pipeline_width = sqlite3_column_int(st, 9);
		c->spe_source = sqlite3_column_int64(st, 10);
		c->first_of_run = *ncols == 1 || cols[*ncols - 2].run_id != c->run_id;
	}
	if ((frc = report_sqlite_finish(db, st, "reading topdown data", err, errlen)) < 0)
		return frc;

	for (int k = 0; k < *ncols; k++) {
		struct column *c = &cols[k];
		int rc = column_weight(db, c, err, errlen);
		if (rc == 0)
			rc = column_counts(db, c, err, errlen);
		if (rc == 0)
			rc = column_spe_cpu(db, c, err, errlen);
		if (rc < 0)
			return rc;
		/* docs/topdown-formulas.md §8: sum(frac x slots) / sum(slots), clamped like the views; 1 = plain mean */
		char vsql[512];
		snprintf(vsql, sizeof vsql,
			 "SELECT v.node, SUM(MIN(1, MAX(0, v.frac)) * %s) / SUM(%s)\n"
			 "FROM topdown_value v JOIN topdown_interval i USING (interval_id)\n"
			 "WHERE i.run_id = ? AND i.scope = ? AND v.frac IS NOT NULL GROUP BY v.node",
			 strcmp(c->weight, "mean") ? c->weight : "1", strcmp(c->weight, "mean") ? c->weight : "1");
		if (!(st = report_prepare(db, vsql, "reading topdown values", err, errlen)))
			return report_prepare_code(db);
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
		if ((frc = report_sqlite_finish(db, st, "reading topdown data", err, errlen)) < 0)
			return frc;
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

/*
 * The SPE evidence of capture @p source (the records of one spe-load
 * source), in table form under a title naming the runs linked to it, in
 * JSON form as an object.
 */
static int evidence(sqlite3 *db, FILE *out, const struct column *cols, int ncols, int k, const struct report_text_opts *o,
		    char *err, size_t errlen)
{
	int json = o->format == REPORT_TEXT_JSON;
	const struct column *c = &cols[k];
	char where[64];
	snprintf(where, sizeof where, "source_id IN (%lld)", c->spe_source);
	long long records;
	int rc = report_spe_record_count(db, where, &records, err, errlen);
	if (rc < 0)
		return rc;
	if (json) {
		fprintf(out, "{\"spe_source\": %lld, \"spe_file\": ", c->spe_source);
		util_json_string(out, c->spe_file);
		fprintf(out, ", \"spe_records\": %lld", records);
		if (!records) {
			fprintf(out, "}");
			return 0;
		}
		fprintf(out, ", ");
	} else {
		fprintf(out, "\nSPE evidence for ");
		int named = 0;
		for (int j = 0; j < ncols; j++)
			if (cols[j].first_of_run && cols[j].spe_source == c->spe_source)
				fprintf(out, "%s%s", named++ ? ", " : "run ", cols[j].name);
		fprintf(out, " (%lld records of SPE source %lld %s%s%s)\n", records, c->spe_source, c->spe_file,
			c->spe_cpu[0] ? ", CPU " : "", c->spe_cpu);
		if (!records) {
			fprintf(out, "\nThe SPE capture has no records.\n");
			return 0;
		}
		fprintf(out, "\nBehind backend_bound and memory_bound:\n\n");
	}
	if ((rc = report_spe_mem_levels(db, where, out, o, err, errlen)) < 0)
		return rc;
	fprintf(out, json ? ", " : "\n");
	if ((rc = report_spe_hot_symbols(db, where, out, o, err, errlen)) < 0)
		return rc;
	fprintf(out, json ? ", " : "\n");
	if ((rc = report_spe_tlb_walks(db, where, out, o, err, errlen)) < 0)
		return rc;
	fprintf(out, json ? ", " : "\nBehind bad_speculation:\n\n");
	if ((rc = report_spe_mispredicts(db, where, out, o, err, errlen)) < 0)
		return rc;
	if (json)
		fprintf(out, "}");
	return 0;
}

/* The first column (a run's first) linked to SPE capture @p source, or -1. */
static int first_column_of_source(const struct column *cols, int ncols, long long source)
{
	for (int k = 0; k < ncols; k++)
		if (cols[k].first_of_run && cols[k].spe_source == source)
			return k;
	return -1;
}

/*
 * What the weighting of a column's intervals is, said only where it is
 * true: one interval is not weighted at all.
 */
static const char *weight_label(const struct column *c)
{
	if (c->intervals <= 1)
		return "single interval";
	return !strcmp(c->weight, "slots") ? "slot-weighted" : !strcmp(c->weight, "cycles") ? "cycle-weighted" : "plain mean";
}

/* "45.94 M", "1.04 G": counts as a reader scans them. */
static void fmt_count(char *buf, size_t cap, double v)
{
	if (v <= 0)
		snprintf(buf, cap, "-");
	else if (v >= 1e12)
		snprintf(buf, cap, "%.2f T", v / 1e12);
	else if (v >= 1e9)
		snprintf(buf, cap, "%.2f G", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, cap, "%.2f M", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, cap, "%.2f k", v / 1e3);
	else
		snprintf(buf, cap, "%.0f", v);
}

static double ipc_of(const struct column *c)
{
	return c->instructions > 0 && c->cycles > 0 ? c->instructions / c->cycles : -1;
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
		c->width = max_int(c->width, (int)strlen(c->host));
	}
	int node_w = NODE_W;
	for (int n = 0; n < TD_NODE_COUNT; n++)
		for (int k = 0; k < ncols; k++)
			if (cols[k].has[n])
				node_w = max_int(node_w, 3 + (int)strlen(td_node_name(n))); /* "L1 name" */
	return node_w;
}

/* One header row of the table: a label in the node column, a cell per run. */
static void header_row(FILE *out, const char *label, const struct column *cols, int ncols, int node_w, int what)
{
	fprintf(out, "  %-*s", node_w, label);
	for (int k = 0; k < ncols; k++) {
		const struct column *c = &cols[k];
		char cell[160], name[160];
		switch (what) {
		case 0: snprintf(cell, sizeof cell, "%s", col_label(c, name, sizeof name)); break;
		case 1: snprintf(cell, sizeof cell, "%s", c->isa); break;
		case 2: snprintf(cell, sizeof cell, "%s", c->cpu); break;
		case 3: snprintf(cell, sizeof cell, "%s", c->method); break;
		case 4: snprintf(cell, sizeof cell, "%s", c->host); break;
		case 5:
			if (c->elapsed >= 0)
				snprintf(cell, sizeof cell, "%.3f s", c->elapsed);
			else
				snprintf(cell, sizeof cell, "-");
			break;
		case 6: fmt_count(cell, sizeof cell, c->slots); break;
		case 7: fmt_count(cell, sizeof cell, c->cycles); break;
		case 8:
			if (ipc_of(c) >= 0)
				snprintf(cell, sizeof cell, "%.2f", ipc_of(c));
			else
				snprintf(cell, sizeof cell, "-");
			break;
		case 9:
			if (c->pipeline_width)
				snprintf(cell, sizeof cell, "%s%d", c->width_from_counts ? "~" : "", c->pipeline_width);
			else
				snprintf(cell, sizeof cell, "?");
			break;
		default: snprintf(cell, sizeof cell, "%s", weight_label(c)); break;
		}
		print_cell_text(out, cell, c->width);
	}
	fprintf(out, "\n");
}

/* The sentence about a column's CPU against its SPE capture's, or NULL when they agree or there is no capture. */
static const char *cpu_check_text(const struct column *c, char *buf, size_t cap)
{
	char buf_label[160];
	const char *label = col_label(c, buf_label, sizeof buf_label);
	switch (c->cpu_check) {
	case CPU_MISMATCH:
		snprintf(buf, cap,
			 "WARNING: %s was measured on %s but its SPE capture (source %lld) ran on %s: the SPE evidence "
			 "does not explain this run's numbers",
			 label, !strcmp(c->cpu, "-") ? "an unnamed CPU" : c->cpu, c->spe_source, c->spe_cpu);
		return buf;
	case CPU_UNKNOWN:
		snprintf(buf, cap,
			 "note: %s names no CPU%s, so it cannot be checked against its SPE capture's (source %lld%s%s); "
			 "import it with --cpu",
			 label, !c->spe_cpu[0] ? " or its capture has none" : "", c->spe_source,
			 c->spe_cpu[0] ? ", " : "", c->spe_cpu);
		return buf;
	default: return NULL;
	}
}

/* Pipeline widths, when the workload compares cores: a percentage is a share of each core's own slots. */
static int widths_differ(const struct column *cols, int ncols)
{
	int first = 0, isas = 0;
	for (int k = 0; k < ncols; k++) {
		if (k && strcmp(cols[k].isa, cols[0].isa))
			isas = 1;
		if (!cols[k].pipeline_width)
			continue;
		if (first && first != cols[k].pipeline_width)
			return 1;
		first = cols[k].pipeline_width;
	}
	return isas;
}

static void json_number_or_null(FILE *out, const char *key, double v, const char *fmt)
{
	fprintf(out, ", \"%s\": ", key);
	if (v < 0)
		fprintf(out, "null");
	else
		fprintf(out, fmt, v);
}

static int report_workload(sqlite3 *db, FILE *out, const char *workload, const struct report_text_opts *o,
			   char *err, size_t errlen)
{
	struct column *cols = calloc(MAX_COLS, sizeof *cols);
	int ncols = 0, rc;
	if (!cols)
		return -spe_nomem;
	if ((rc = load_columns(db, workload, cols, &ncols, o->format != REPORT_TEXT_JSON, err, errlen)) < 0)
		goto out;
	fill_combined(cols, ncols);
	int json = o->format == REPORT_TEXT_JSON;
	int node_w = NODE_W;
	char note[1024];

	const char *methods[MAX_COLS], *isas[MAX_COLS], *caveats[8];
	for (int k = 0; k < ncols; k++) {
		methods[k] = cols[k].method;
		isas[k] = cols[k].isa;
	}
	int n_caveats = report_method_caveats(methods, isas, ncols, caveats, 8);

	if (json) {
		fprintf(out, "{\"workload\": ");
		util_json_string(out, workload);
		fprintf(out, ", \"runs\": [");
		for (int k = 0; k < ncols; k++) {
			const struct column *c = &cols[k];
			fprintf(out, "%s{\"run\": ", k ? ", " : "");
			util_json_string(out, c->name);
			fprintf(out, ", \"scope\": ");
			util_json_string(out, c->scope);
			fprintf(out, ", \"isa\": ");
			util_json_string(out, c->isa);
			fprintf(out, ", \"vendor\": \"%s\", \"cpu\": ", report_method_vendor(c->method, c->isa));
			util_json_string(out, c->cpu);
			fprintf(out, ", \"method\": ");
			util_json_string(out, c->method);
			fprintf(out, ", \"approx\": %s, \"host\": ", c->approx ? "true" : "false");
			util_json_string(out, c->host);
			fprintf(out, ", \"intervals\": %d, \"weight\": \"%s\", \"weighting\": \"%s\"", c->intervals, c->weight,
				weight_label(c));
			json_number_or_null(out, "elapsed_s", c->elapsed, "%.6f");
			json_number_or_null(out, "slots", c->slots > 0 ? c->slots : -1, "%.0f");
			json_number_or_null(out, "cycles", c->cycles > 0 ? c->cycles : -1, "%.0f");
			json_number_or_null(out, "instructions", c->instructions > 0 ? c->instructions : -1, "%.0f");
			json_number_or_null(out, "ipc", ipc_of(c), "%.4f");
			json_number_or_null(out, "width", c->pipeline_width ? c->pipeline_width : -1, "%.0f");
			fprintf(out, ", \"width_from\": %s",
				!c->pipeline_width ? "null" : c->width_from_counts ? "\"slots/cycles\"" : "\"cpu\"");
			if (c->spe_source) {
				static const char *const checks[] = { "none", "match", "mismatch", "unknown" };
				fprintf(out, ", \"spe_source\": %lld, \"spe_cpu\": ", c->spe_source);
				util_json_string(out, c->spe_cpu);
				fprintf(out, ", \"cpu_check\": \"%s\", \"spe_evidence\": ", checks[c->cpu_check]);
				if (c->first_of_run) {
					if ((rc = evidence(db, out, cols, ncols, k, o, err, errlen)) < 0)
						goto out;
				} else {
					int f = k;
					while (f > 0 && !cols[f].first_of_run)
						f--;
					char as[96];
					snprintf(as, sizeof as, "as for scope %s", cols[f].scope);
					util_json_string(out, as);
				}
			} else {
				fprintf(out, ", \"spe_source\": null, \"spe_evidence\": null");
			}
			fprintf(out, "}");
		}
		fprintf(out, "], \"nodes\": [");
	} else {
		int nruns = 0;
		for (int k = 0; k < ncols; k++)
			nruns += k == 0 || cols[k].run_id != cols[k - 1].run_id;
		fputs("Workload ", out);
		util_visible_put(out, workload, 0, UTIL_VISIBLE_MAX, 0);
		fprintf(out, ": %d run%s", nruns, nruns == 1 ? "" : "s");
		if (ncols != nruns)
			fprintf(out, " in %d columns (one per scope)", ncols);
		node_w = size_columns(cols, ncols);
		fprintf(out, "\n\n");
		static const char *const labels[] = { "node", "isa", "cpu", "method", "host", "elapsed",
						      "slots", "cycles", "IPC", "width (slots/cycle)", "weighting" };
		for (int r = 0; r < (int)(sizeof labels / sizeof labels[0]); r++)
			header_row(out, labels[r], cols, ncols, node_w, r);
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
				util_json_string(out, note);
			else
				fprintf(out, "null");
			fprintf(out, "}");
		} else {
			if (first)
				fprintf(out, "\n");
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

	/* what a reader must keep in mind: widths, methods, CPUs */
	char buf[512];
	if (json) {
		fprintf(out, "], \"caveats\": [");
		for (int i = 0; i < n_caveats; i++) {
			fprintf(out, "%s", i ? ", " : "");
			util_json_string(out, caveats[i]);
		}
		fprintf(out, "], \"warnings\": [");
		int w = 0;
		for (int k = 0; k < ncols; k++) {
			const char *t = cols[k].first_of_run ? cpu_check_text(&cols[k], buf, sizeof buf) : NULL;
			if (t) {
				fprintf(out, "%s", w++ ? ", " : "");
				util_json_string(out, t);
			}
		}
		fprintf(out, "]}\n");
		goto out;
	}
	mean_footnote(out, cols, ncols);
	if (widths_differ(cols, ncols)) {
		fprintf(out, "\nPipeline width: each percentage is a share of its own core's slots per cycle (");
		for (int k = 0; k < ncols; k++) {
			char label[160];
			if (k && cols[k].run_id == cols[k - 1].run_id)
				continue;
			fprintf(out, "%s%s %s", k ? ", " : "", col_label(&cols[k], label, sizeof label),
				cols[k].pipeline_width ? "" : "unknown");
			if (cols[k].pipeline_width)
				fprintf(out, "%s%d", cols[k].width_from_counts ? "~" : "", cols[k].pipeline_width);
		}
		fprintf(out, "),\nso equal percentages are not equal work.\n");
	}
	if (n_caveats) {
		fprintf(out, "\nThe runs count differently:\n");
		for (int i = 0; i < n_caveats; i++)
			fprintf(out, "  - %s\n", caveats[i]);
	}
	int warned = 0;
	for (int k = 0; k < ncols; k++) {
		const char *t = cols[k].first_of_run ? cpu_check_text(&cols[k], buf, sizeof buf) : NULL;
		if (t)
			fprintf(out, "%s%s\n", warned++ ? "" : "\n", t);
	}
	int linked = 0;
	for (int k = 0; k < ncols && rc >= 0; k++) {
		if (!cols[k].spe_source || first_column_of_source(cols, ncols, cols[k].spe_source) != k)
			continue;
		linked++;
		rc = evidence(db, out, cols, ncols, k, o, err, errlen);
	}
	if (!linked && rc >= 0)
		fprintf(out, "\nNo SPE evidence: no run of this workload is linked to an SPE capture (spe-topdown import "
			     "--spe-source).\n");
out:
	free(cols);
	return rc < 0 ? rc : 0;
}

static int cross_isa(sqlite3 *db, FILE *out, const struct report_text_opts *opts, char *err, size_t errlen);

int report_cross_isa(sqlite3 *db, FILE *out, const struct report_text_opts *opts, char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = 0;
	int snap = report_snapshot_begin(db, err, errlen); /* one state of the database (report_sqlite.h) */
	if (snap < 0)
		return snap;
	int rc = cross_isa(db, out, opts, err, errlen);
	report_snapshot_end(db, snap);
	return rc;
}

static int cross_isa(sqlite3 *db, FILE *out, const struct report_text_opts *opts, char *err, size_t errlen)
{
	struct report_text_opts o = *opts;
	if (o.top <= 0)
		o.top = 10;
	sqlite3_stmt *st;
	int prc = sqlite3_prepare_v2(db,
				     "SELECT DISTINCT workload FROM topdown_run WHERE ?1 IS NULL OR workload = ?1 ORDER BY workload",
				     -1, &st, NULL);
	if (prc != SQLITE_OK && (prc != SQLITE_ERROR || !strstr(sqlite3_errmsg(db), "no such table")))
		return report_sqlite_fail(db, prc, "reading topdown runs", err, errlen);
	if (prc != SQLITE_OK)
		return td_failf(err, errlen, spe_no_data, "no topdown data in the database (import some with spe-topdown import)");
	if (o.workload)
		sqlite3_bind_text(st, 1, o.workload, -1, SQLITE_STATIC);
	int n = 0, rc = 0;
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
		const unsigned char *w = sqlite3_column_text(st, 0);
		char *workload = strdup(w ? (const char *)w : "");
		if (!workload) {
			rc = -spe_nomem;
			break;
		}
		if (n && o.format == REPORT_TEXT_TABLE)
			fprintf(out, "\n");
		rc = report_workload(db, out, workload, &o, err, errlen);
		free(workload);
		n++;
	}
	if (rc < 0)
		sqlite3_finalize(st);
	else
		rc = report_sqlite_finish(db, st, "reading topdown runs", err, errlen);
	if (rc < 0)
		return rc;
	if (n == 0)
		return td_failf(err, errlen, spe_no_data, o.workload ? "no topdown run for workload '%s'" : "no topdown runs%s",
			       o.workload ? o.workload : "");
	return 0;
}
