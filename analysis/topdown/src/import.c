/* SPDX-License-Identifier: Apache-2.0 */
/* Format detection and the import entry point. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "import_util.h"
#include "topdown/formula.h"

const char *td_format_name(enum td_format fmt)
{
	switch (fmt) {
	case TD_FMT_PERF_STD: return "perf-stat";
	case TD_FMT_PERF_CSV: return "perf-stat-csv";
	case TD_FMT_PERF_JSON: return "perf-stat-json";
	case TD_FMT_TOPLEV_CSV: return "toplev-csv";
	case TD_FMT_TOPDOWN_TOOL_CSV: return "topdown-tool-csv";
	case TD_FMT_RAW: return "raw";
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

enum td_format td_import_detect(const char *text, size_t len)
{
	struct td_line_iter it;
	struct td_line line;
	int csv_lines = 0, std_hints = 0, lines = 0;

	td_lines_begin(&it, text, len);
	while (td_lines_next(&it, &line) && lines < 400) {
		const char *s = line.s;
		size_t n = line.len;
		while (n && isspace((unsigned char)*s))
			s++, n--;
		if (!n)
			continue;
		lines++;
		if (s[0] == '{')
			return TD_FMT_PERF_JSON;
		if (starts_with_ci(s, n, "time,group,stage,level,metric") || starts_with_ci(s, n, "run,time,event,value"))
			return TD_FMT_TOPDOWN_TOOL_CSV;
		if (contains(s, n, ",Frontend_Bound") || contains(s, n, ",Backend_Bound") ||
		    contains(s, n, ",Bad_Speculation") || contains(s, n, ",Retiring,") || contains(s, n, "Area,Value,Unit"))
			return TD_FMT_TOPLEV_CSV;
		if (contains(s, n, "Performance counter stats") || contains(s, n, "seconds time elapsed"))
			std_hints++;
		if (s[0] == '#') {
			/* "#  time  retiring ..." or "#  time  %  tma_retiring ..." */
			if (contains(s, n, "retiring") || contains(s, n, "tma_") || contains(s, n, "_bound") ||
			    contains(s, n, " bound"))
				std_hints++;
			continue;
		}
		int commas = 0;
		for (size_t i = 0; i < n; i++)
			commas += s[i] == ',';
		if (commas < 3 && (contains(s, n, "  #") || contains(s, n, "%  ") || contains(s, n, "speculation  ")))
			std_hints++;
		if (commas >= 3)
			csv_lines++;
	}
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
	td_lines_begin(&it, text, len);
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
 * their counts (the formulas set them for computed intervals).  perf prints
 * the kernel's topdown-total-slots already scaled to slots (docs/topdown-formulas.md §7).
 */
static void weights_from_events(struct td_run *run)
{
	static const char *const slots_names[] = { "slots", "TOPDOWN.SLOTS", "topdown-total-slots", "cpu_core/slots/",
						   "cpu_core/TOPDOWN.SLOTS/" };
	static const char *const cycles_names[] = { "cycles", "cpu-cycles", "cpu_cycles", "CPU_CYCLES",
						    "CPU_CLK_UNHALTED.THREAD", "cpu_core/cycles/", "cpu_atom/cycles/" };
	for (size_t i = 0; i < run->n_iv; i++) {
		struct td_interval *iv = &run->iv[i];
		const struct td_event_count *e;
		for (size_t k = 0; !iv->slots && k < sizeof slots_names / sizeof slots_names[0]; k++)
			if ((e = td_interval_event(iv, slots_names[k])) && e->counted)
				iv->slots = e->value;
		for (size_t k = 0; !iv->cycles && k < sizeof cycles_names / sizeof cycles_names[0]; k++)
			if ((e = td_interval_event(iv, cycles_names[k])) && e->counted)
				iv->cycles = e->value;
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
		int rc = td_formula_apply(cpu, iv, diag);
		if (rc < 0) {
			if (diag)
				diag->line = 0;
			return rc;
		}
		applied++;
	}
	return applied;
}

int td_import_text(const char *text, size_t len, const struct td_import_opts *opts, struct td_run *run,
		   struct td_diag *diag)
{
	if (!text || !run)
		return -td_invalid;
	enum td_format fmt = opts && opts->format ? opts->format : td_import_detect(text, len);
	int rc;
	if (opts && opts->cpu)
		td_run_set(&run->cpu, opts->cpu);
	else
		cpu_from_comment(text, len, run);
	switch (fmt) {
	case TD_FMT_PERF_STD: rc = td_parse_perf_std(text, len, run, diag); break;
	case TD_FMT_PERF_CSV: rc = td_parse_perf_csv(text, len, run, diag); break;
	case TD_FMT_PERF_JSON: rc = td_parse_perf_json(text, len, run, diag); break;
	case TD_FMT_TOPLEV_CSV: rc = td_parse_toplev_csv(text, len, run, diag); break;
	case TD_FMT_TOPDOWN_TOOL_CSV: rc = td_parse_topdown_tool_csv(text, len, run, diag); break;
	case TD_FMT_RAW: rc = td_parse_raw(text, len, run, diag); break;
	default: return td_fail(diag, td_bad_input, 0, "empty input, or not a format spe-topdown reads");
	}
	if (rc < 0)
		return rc;
	mark_combined_parts_unknown(run);
	weights_from_events(run);
	stamps_to_spans(run);
	if (!run->tool)
		td_run_set(&run->tool, fmt == TD_FMT_TOPLEV_CSV ? "toplev"
				       : fmt == TD_FMT_TOPDOWN_TOOL_CSV ? "topdown-tool"
				       : fmt == TD_FMT_RAW ? "raw"
							   : "perf-stat");

	if (td_run_value_count(run) == 0) {
		/* Raw counts only: the formula of the CPU gives the values. */
		int events = 0;
		for (size_t i = 0; i < run->n_iv; i++)
			events += (int)run->iv[i].n_events;
		if (!events)
			return td_fail(diag, td_no_data, 0, "no topdown metrics or event counts found");
		if (!run->cpu)
			return td_fail(diag, td_no_data, 0,
				       "only raw counts were found: name the CPU (--cpu, or a '# cpu: NAME' line) to apply its formula");
		struct td_cpu_info cpu;
		if (td_cpu_lookup(run->cpu, &cpu) != 0)
			return td_fail(diag, td_unsupported, 0, "no topdown formula for CPU '%s'", run->cpu);
		if ((rc = apply_formulas(run, &cpu, diag)) < 0)
			return rc;
		td_run_set(&run->cpu, cpu.name);
		td_run_set(&run->isa, cpu.isa == TD_ISA_ARM ? "aarch64" : "x86_64");
		td_run_set(&run->method, cpu.method);
		run->approx = cpu.approx;
		run->slots_per_cycle = cpu.slots;
	} else if (run->cpu) {
		struct td_cpu_info cpu;
		if (td_cpu_lookup(run->cpu, &cpu) == 0) {
			td_run_set(&run->cpu, cpu.name);
			if (!run->isa)
				td_run_set(&run->isa, cpu.isa == TD_ISA_ARM ? "aarch64" : "x86_64");
			run->slots_per_cycle = cpu.slots;
		}
	}
	return (int)fmt;
}
