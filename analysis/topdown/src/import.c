/* SPDX-License-Identifier: Apache-2.0 */
/* Format detection and the import entry point. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "topdown/event_name.h"
#include "import_util.h"
#include "topdown/formula.h"
#include "util/grow.h"

const char *td_format_name(enum td_format fmt)
{
	switch (fmt) {
	case TD_FMT_PERF_STD: return "perf-stat";
	case TD_FMT_PERF_CSV: return "perf-stat-csv";
	case TD_FMT_PERF_JSON: return "perf-stat-json";
	case TD_FMT_TOPLEV_CSV: return "toplev-csv";
	case TD_FMT_TOPDOWN_TOOL_CSV: return "topdown-tool-csv";
	case TD_FMT_RAW: return "raw";
	case TD_FMT_TOPLEV_TEXT: return "toplev";
	case TD_FMT_TOPDOWN_TOOL_TEXT: return "topdown-tool";
	case TD_FMT_UNKNOWN: break;
	}
	return "unknown";
}

static int starts_with_ci(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && strncasecmp(s, prefix, n) == 0;
}

static int contains(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	for (size_t i = 0; i + n <= len; i++)
		if (memcmp(s + i, needle, n) == 0)
			return 1;
	return 0;
}

/* A toplev text line: a node in toplev's CamelCase ("Frontend_Bound:", "Backend_Bound.Memory_Bound") before any '#'. */
static int toplev_text_line(const char *s, size_t n)
{
	struct td_field w[12];
	const char *hash = memchr(s, '#', n);
	int nw = td_split_ws(s, hash ? (size_t)(hash - s) : n, w, 12);
	for (int i = 0; i < nw; i++) {
		size_t wl = w[i].len;
		if (wl && w[i].s[wl - 1] == ':')
			wl--;
		if (wl > 3 && isupper((unsigned char)w[i].s[0]) && memchr(w[i].s, '_', wl) &&
		    td_node_from_label_n(w[i].s, wl) != TD_NONE)
			return 1;
	}
	return 0;
}

enum td_format td_import_detect(const char *text, size_t len)
{
	struct td_line_iter it;
	struct td_line line;
	int csv_lines = 0, std_hints = 0, std_strong = 0, toplev_lines = 0, lines = 0;

	td_lines_begin(&it, text, len, 0);
	while (td_lines_next(&it, &line) && lines < 400) {
		const char *s = line.s;
		size_t n = line.len;
		while (n && isspace((unsigned char)*s))
			s++, n--;
		if (!n || td_is_tool_prompt(s, n))
			continue;
		lines++;
		if (s[0] == '{')
			return TD_FMT_PERF_JSON;
		if (starts_with_ci(s, n, "time,group,stage,level,metric") || starts_with_ci(s, n, "run,time,event,value"))
			return TD_FMT_TOPDOWN_TOOL_CSV;
		if (contains(s, n, "(Topdown metrics)") || contains(s, n, "(uarch metrics)") ||
		    contains(s, n, "[Topdown group]") || contains(s, n, "[Topdown Level 1]") ||
		    contains(s, n, "\xe2\x94\x83 Metric") || contains(s, n, "\xe2\x94\x83 Value"))
			return TD_FMT_TOPDOWN_TOOL_TEXT;
		if (contains(s, n, ",Frontend_Bound") || contains(s, n, ",Backend_Bound") ||
		    contains(s, n, ",Bad_Speculation") || contains(s, n, ",Retiring,") || contains(s, n, "Area,Value,Unit"))
			return TD_FMT_TOPLEV_CSV;
		if (contains(s, n, "Performance counter stats") || contains(s, n, "seconds time elapsed"))
			std_strong++;
		if (s[0] == '#') {
			/* "#  time  retiring ..." or "#  time  %  tma_retiring ..." */
			if (contains(s, n, "retiring") || contains(s, n, "tma_") || contains(s, n, "_bound") ||
			    contains(s, n, " bound"))
				std_hints++;
			if (contains(s, n, "-full") && contains(s, n, " on "))
				toplev_lines++; /* "# 4.0-full on Intel(R) ..." */
			continue;
		}
		int commas = 0;
		for (size_t i = 0; i < n; i++)
			commas += s[i] == ',';
		if (commas < 3 && toplev_text_line(s, n))
			toplev_lines++;
		/* "  #" is perf's metric column: a std line even when its counts have thousands separators */
		if (contains(s, n, "  #") || (commas < 3 && (contains(s, n, "%  ") || contains(s, n, "speculation  "))))
			std_hints++;
		else if (commas >= 3)
			csv_lines++;
	}
	if (std_strong)
		return TD_FMT_PERF_STD;
	if (toplev_lines)
		return TD_FMT_TOPLEV_TEXT;
	if (std_hints)
		return TD_FMT_PERF_STD;
	if (csv_lines)
		return TD_FMT_PERF_CSV;
	return lines ? TD_FMT_RAW : TD_FMT_UNKNOWN;
}

/* A "# cpu: NAME" line names the CPU of counts in any format. */
static void cpu_from_comment(const char *text, size_t len, struct td_run *run)
{
	struct td_line_iter it;
	struct td_line line;
	td_lines_begin(&it, text, len, 0);
	while (td_lines_next(&it, &line)) {
		char name[64];
		if (line.len > 6 && line.len < 70 && line.s[0] == '#') {
			char buf[72];
			memcpy(buf, line.s, line.len);
			buf[line.len] = '\0';
			if (sscanf(buf, "# cpu: %63s", name) == 1) {
				td_run_set(&run->cpu, name);
				return;
			}
		}
	}
}

/*
 * perf -I, toplev and topdown-tool stamp an interval with its end time.  The
 * parsers key intervals by that stamp (in t0); turn it into [previous stamp, stamp].
 */
static void stamps_to_spans(struct td_run *run)
{
	int stamped = 0;
	for (size_t i = 0; i < run->n_iv; i++)
		stamped |= run->iv[i].t0 > 0;
	if (!stamped)
		return;
	for (size_t i = 0; i < run->n_iv; i++)
		run->iv[i].t1 = run->iv[i].t0; /* the stamps, kept while t0 is rewritten */
	for (size_t i = 0; i < run->n_iv; i++) {
		double end = run->iv[i].t1, start = 0;
		for (size_t j = 0; j < run->n_iv; j++)
			if (run->iv[j].t1 < end && run->iv[j].t1 > start)
				start = run->iv[j].t1;
		run->iv[i].t0 = start;
	}
}

/*
 * perf <= 6.3's "backend bound/bad spec" is the two nodes together: each
 * alone is stored as unknown (NULL), so no one reads the sum as backend_bound.
 */
static void mark_combined_parts_unknown(struct td_run *run)
{
	for (size_t i = 0; i < run->n_iv; i++) {
		struct td_values *v = &run->iv[i].values;
		if (!v->set[TD_BACKEND_BOUND_BAD_SPECULATION])
			continue;
		if (!v->set[TD_BACKEND_BOUND])
			td_values_set(v, TD_BACKEND_BOUND, NAN, 0);
		if (!v->set[TD_BAD_SPECULATION])
			td_values_set(v, TD_BAD_SPECULATION, NAN, 0);
	}
}

/*
 * The slots and cycles of intervals that came with metric values, from
 * their counts whatever the PMU prefix or modifiers ("TOPDOWN.SLOTS:u",
 * "cpu_core/slots/"); the formulas set them for computed intervals.  perf
 * prints the kernel's topdown-total-slots already scaled to slots
 * (docs/topdown-formulas.md §7).
 */
static void weights_from_events(struct td_run *run)
{
	for (size_t i = 0; i < run->n_iv; i++) {
		struct td_interval *iv = &run->iv[i];
		for (size_t e = 0; e < iv->n_events; e++) {
			const struct td_event_count *ev = &iv->events[e];
			if (!ev->counted)
				continue;
			enum td_event_kind kind = td_event_kind_of(ev->name);
			if (kind == TD_EV_SLOTS && !iv->slots)
				iv->slots = ev->value;
			else if (kind == TD_EV_CYCLES && !iv->cycles)
				iv->cycles = ev->value;
		}
	}
}

/* Apply the CPU's formula to every interval that has counts but no level 1 values. */
static int apply_formulas(struct td_run *run, const struct td_cpu_info *cpu, struct td_diag *diag)
{
	int applied = 0;
	for (size_t i = 0; i < run->n_iv; i++) {
		struct td_interval *iv = &run->iv[i];
		int has = 0;
		for (int k = 0; k < TD_NODE_COUNT; k++)
			has |= iv->values.set[k];
		if (has || !iv->n_events)
			continue;
		int rc = diag ? td_formula_apply(cpu, iv, diag->msg, sizeof diag->msg) : td_formula_apply(cpu, iv, NULL, 0);
		if (rc < 0) {
			if (diag)
				diag->line = 0;
			return rc;
		}
		applied++;
	}
	return applied;
}

typedef int (*parse_fn)(const char *, size_t, long, struct td_run *, struct td_diag *);

static parse_fn parser_for(enum td_format fmt)
{
	switch (fmt) {
	case TD_FMT_PERF_STD: return td_parse_perf_std;
	case TD_FMT_PERF_CSV: return td_parse_perf_csv;
	case TD_FMT_PERF_JSON: return td_parse_perf_json;
	case TD_FMT_TOPLEV_CSV: return td_parse_toplev_csv;
	case TD_FMT_TOPDOWN_TOOL_CSV: return td_parse_topdown_tool_csv;
	case TD_FMT_RAW: return td_parse_raw;
	case TD_FMT_TOPLEV_TEXT: return td_parse_toplev_text;
	case TD_FMT_TOPDOWN_TOOL_TEXT: return td_parse_topdown_tool_text;
	case TD_FMT_UNKNOWN: break;
	}
	return NULL;
}

static const char *tool_of(enum td_format fmt)
{
	switch (fmt) {
	case TD_FMT_TOPLEV_CSV:
	case TD_FMT_TOPLEV_TEXT: return "toplev";
	case TD_FMT_TOPDOWN_TOOL_CSV:
	case TD_FMT_TOPDOWN_TOOL_TEXT: return "topdown-tool";
	case TD_FMT_RAW: return "raw";
	default: return "perf-stat";
	}
}

/* One run's worth of the input. */
struct block {
	const char *s;
	size_t len;
	long line0; /* lines before it */
	long last;  /* its last line */
};

/*
 * Cut the input before every "Performance counter stats for" line and every
 * pasted prompt running perf stat, toplev or topdown-tool (a prompt followed
 * by perf's header is one cut).  Returns the block count or -spe_nomem.
 */
static int split_blocks(const char *text, size_t len, struct block **out)
{
	struct td_line_iter it;
	struct td_line line;
	size_t cap = 0, n = 0;
	struct block *b = util_grow(NULL, &cap, 1, sizeof *b);
	if (!b)
		return -spe_nomem;
	b[0] = (struct block){ text, 0, 0, 0 };
	n = 1;
	int content = 0; /* the current block has lines other than prompts and headers */
	td_lines_begin(&it, text, len, 0);
	while (td_lines_next(&it, &line)) {
		int prompt = td_is_tool_prompt(line.s, line.len);
		int header = contains(line.s, line.len, "Performance counter stats for");
		if ((prompt || header) && content) {
			struct block *bigger = util_grow(b, &cap, n + 1, sizeof *b);
			if (!bigger) {
				free(b);
				return -spe_nomem;
			}
			b = bigger;
			b[n - 1].len = (size_t)(line.s - b[n - 1].s);
			b[n++] = (struct block){ line.s, 0, line.no - 1, line.no };
			content = 0;
		}
		if (!prompt && !header) {
			size_t k = 0;
			while (k < line.len && isspace((unsigned char)line.s[k]))
				k++;
			content |= k < line.len && line.s[k] != '#'; /* comments belong to the run below them */
		}
		b[n - 1].last = line.no;
	}
	b[n - 1].len = (size_t)(text + len - b[n - 1].s);
	*out = b;
	return (int)n;
}

void td_import_result_init(struct td_import_result *res)
{
	memset(res, 0, sizeof *res);
}

void td_import_result_fini(struct td_import_result *res)
{
	if (!res)
		return;
	for (size_t i = 0; i < res->n_runs; i++)
		td_run_fini(&res->runs[i]);
	for (size_t i = 0; i < res->n_notes; i++)
		free(res->notes[i]);
	free(res->runs);
	free(res->first_line);
	free(res->notes);
	memset(res, 0, sizeof *res);
}

static int add_note(struct td_import_result *res, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int add_note(struct td_import_result *res, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	char **notes = realloc(res->notes, (res->n_notes + 1) * sizeof *notes);
	if (!notes)
		return -spe_nomem;
	res->notes = notes;
	if (!(notes[res->n_notes] = strdup(buf)))
		return -spe_nomem;
	res->n_notes++;
	return 0;
}

static int keep_run(struct td_import_result *res, struct td_run *run, long first_line)
{
	struct td_run *runs = realloc(res->runs, (res->n_runs + 1) * sizeof *runs);
	if (!runs)
		return -spe_nomem;
	res->runs = runs;
	long *lines = realloc(res->first_line, (res->n_runs + 1) * sizeof *lines);
	if (!lines)
		return -spe_nomem;
	res->first_line = lines;
	runs[res->n_runs] = *run;
	lines[res->n_runs] = first_line;
	res->n_runs++;
	td_run_init(run);
	return 0;
}

/* The names of a block's first few events, for a note: "L2D_TLB, L2D_TLB_REFILL, ...". */
static void event_list(const struct td_run *run, char *buf, size_t cap)
{
	size_t n = 0;
	int shown = 0, total = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < run->n_iv; i++)
		for (size_t e = 0; e < run->iv[i].n_events; e++, total++)
			if (shown < 3 && n < cap)
				n += (size_t)snprintf(buf + n, cap - n, "%s%s", shown++ ? ", " : "", run->iv[i].events[e].name);
	if (total > shown && n < cap)
		snprintf(buf + n, cap - n, ", ...");
}

static int any_formula_input(const struct td_run *run)
{
	for (size_t i = 0; i < run->n_iv; i++)
		for (size_t e = 0; e < run->iv[i].n_events; e++)
			if (td_event_is_formula_input(run->iv[i].events[e].name))
				return 1;
	return 0;
}

/*
 * Finish one block's run: the fix-ups every format shares, then, for raw
 * counts only, the CPU's formula.  Returns 1 when the run has values, 0 when
 * it has none (a note says why), or a negative code.
 */
static int finish_run(struct td_run *run, enum td_format fmt, const struct block *b, int many,
		      struct td_import_result *res, struct td_diag *diag)
{
	int rc;
	mark_combined_parts_unknown(run);
	weights_from_events(run);
	stamps_to_spans(run);
	if (!run->tool)
		td_run_set(&run->tool, tool_of(fmt));
	if (td_run_value_count(run) > 0) {
		if (run->cpu) {
			struct td_cpu_info cpu;
			if (td_cpu_lookup(run->cpu, &cpu) == 0) {
				td_run_set(&run->cpu, cpu.name);
				if (!run->isa)
					td_run_set(&run->isa, cpu.isa == TD_ISA_ARM ? "aarch64" : "x86_64");
				run->slots_per_cycle = cpu.slots;
			}
		}
		return 1;
	}
	/* Raw counts only: the formula of the CPU gives the values. */
	int events = 0;
	for (size_t i = 0; i < run->n_iv; i++)
		events += (int)run->iv[i].n_events;
	if (!events)
		return 0; /* prose, prompts, a command's own output */
	char names[160];
	event_list(run, names, sizeof names);
	if (!run->cpu) {
		if (!any_formula_input(run))
			return many ? add_note(res, "lines %ld-%ld: no topdown metrics (%s); skipped", b->line0 + 1, b->last, names)
				    : td_fail(diag, spe_no_data, 0, "no topdown metrics in the input, and its counts (%s) are not "
								   "the inputs of a topdown formula", names);
		if (many)
			return add_note(res, "lines %ld-%ld: topdown event counts but no metrics; skipped (name the CPU with "
					     "--cpu to compute topdown from them)", b->line0 + 1, b->last);
		return td_fail(diag, spe_no_data, 0,
			       "only raw counts were found: name the CPU (--cpu, or a '# cpu: NAME' line) to apply its formula");
	}
	struct td_cpu_info cpu;
	if (td_cpu_lookup(run->cpu, &cpu) != 0)
		return td_fail(diag, spe_unavailable, 0, "no topdown formula for CPU '%s'", run->cpu);
	struct td_diag fdiag = { 0 };
	if ((rc = apply_formulas(run, &cpu, &fdiag)) < 0) {
		if (!many) {
			if (diag)
				*diag = fdiag;
			return rc;
		}
		return add_note(res, "lines %ld-%ld: no topdown metrics and %s; skipped", b->line0 + 1, b->last, fdiag.msg);
	}
	td_run_set(&run->cpu, cpu.name);
	td_run_set(&run->isa, cpu.isa == TD_ISA_ARM ? "aarch64" : "x86_64");
	td_run_set(&run->method, cpu.method);
	run->approx = cpu.approx;
	run->slots_per_cycle = cpu.slots;
	return 1;
}

int td_import_runs(const char *text, size_t len, const struct td_import_opts *opts, struct td_import_result *res,
		   struct td_diag *diag)
{
	if (!text || !res)
		return -spe_invalid;
	enum td_format fmt = opts && opts->format ? opts->format : td_import_detect(text, len);
	parse_fn parse = parser_for(fmt);
	if (!parse)
		return td_fail(diag, spe_bad_input, 0, "empty input, or not a format spe-topdown reads");
	res->format = fmt;
	struct td_run comment_cpu;
	td_run_init(&comment_cpu);
	if (!(opts && opts->cpu))
		cpu_from_comment(text, len, &comment_cpu);
	const char *cpu = opts && opts->cpu ? opts->cpu : comment_cpu.cpu;

	struct block *blocks = NULL;
	int nb = split_blocks(text, len, &blocks);
	int rc = nb < 0 ? nb : 0;
	for (int i = 0; i < nb && rc >= 0; i++) {
		struct td_run run;
		td_run_init(&run);
		if (cpu)
			td_run_set(&run.cpu, cpu);
		rc = parse(blocks[i].s, blocks[i].len, blocks[i].line0, &run, diag);
		if (rc >= 0)
			rc = finish_run(&run, fmt, &blocks[i], nb > 1, res, diag);
		if (rc == 1)
			rc = keep_run(res, &run, blocks[i].line0 + 1);
		td_run_fini(&run);
	}
	free(blocks);
	td_run_fini(&comment_cpu);
	if (rc < 0)
		return rc;
	if (res->n_runs == 0)
		return td_fail(diag, spe_no_data, 0, "no topdown metrics or event counts found%s%s",
			       res->n_notes ? ": " : "", res->n_notes ? res->notes[0] : "");
	return (int)fmt;
}

int td_import_text(const char *text, size_t len, const struct td_import_opts *opts, struct td_run *run,
		   struct td_diag *diag)
{
	if (!text || !run)
		return -spe_invalid;
	struct td_import_result res;
	td_import_result_init(&res);
	int rc = td_import_runs(text, len, opts, &res, diag);
	if (rc > 0 && res.n_runs > 1) {
		char where[128];
		size_t n = 0;
		for (size_t i = 0; i < res.n_runs && n < sizeof where; i++)
			n += (size_t)snprintf(where + n, sizeof where - n, "%s%ld", i ? ", " : "", res.first_line[i]);
		rc = td_fail(diag, spe_bad_input, 0, "the input holds %zu runs (starting on lines %s); import them one by one",
			     res.n_runs, where);
	}
	if (rc > 0) {
		td_run_fini(run);
		*run = res.runs[0];
		td_run_init(&res.runs[0]);
	}
	td_import_result_fini(&res);
	return rc;
}
