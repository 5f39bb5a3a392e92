/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Topdown: the cross-ISA report drawn.  The numbers are the ones
 * spe-report --cross-isa --format=json prints (report_cross_isa: the
 * same roll-up over intervals, the same notes, caveats and warnings, the
 * same SPE evidence of each run's linked capture); this file only reads that
 * JSON (json-c) and draws level 1 and level 2 as bars per run, the SPE
 * evidence below.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sections.h"
#include "svg_chart.h"
#include "report/text.h"

#define NODE_RGB 0x1e88e5
#define APPROX_RGB 0x90caf9

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;
	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static const char *get_str(json_object *o, const char *key)
{
	json_object *v = get(o, key);
	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static void runs_table(struct html *h, json_object *wl)
{
	json_object *runs = get(wl, "runs"), *nodes = get(wl, "nodes");
	size_t nruns = runs ? json_object_array_length(runs) : 0;
	report_html_raw(h, "<table class=\"topdown wide\"><thead><tr><th>node</th>");
	for (size_t k = 0; k < nruns; k++) {
		json_object *r = json_object_array_get_idx(runs, k);
		report_html_raw(h, "<th>");
		report_html_text(h, get_str(r, "run"));
		if (get_str(r, "scope") && strcmp(get_str(r, "scope"), "all")) {
			report_html_raw(h, "[");
			report_html_text(h, get_str(r, "scope"));
			report_html_raw(h, "]");
		}
		report_html_raw(h, "<br/><span class=\"none\">");
		report_html_textf(h, "%s %s, %s", get_str(r, "isa") ? get_str(r, "isa") : "?",
			   get_str(r, "cpu") ? get_str(r, "cpu") : "", get_str(r, "method") ? get_str(r, "method") : "");
		report_html_raw(h, "</span></th>");
	}
	report_html_raw(h, "<th>note</th></tr></thead><tbody>");
	for (size_t n = 0; nodes && n < json_object_array_length(nodes); n++) {
		json_object *node = json_object_array_get_idx(nodes, n), *values = get(node, "values");
		int level = json_object_get_int(get(node, "level"));
		report_html_raw(h, "<tr data-node=\"");
		report_html_text(h, get_str(node, "node") ? get_str(node, "node") : "");
		report_html_raw(h, "\"><td>");
		report_html_textf(h, "L%d %s", level, get_str(node, "node") ? get_str(node, "node") : "?");
		report_html_raw(h, "</td>");
		const char *note = get_str(node, "note");
		for (size_t k = 0; k < nruns; k++) {
			json_object *v = values ? json_object_array_get_idx(values, k) : NULL;
			report_html_raw(h, "<td>");
			if (v && !json_object_is_type(v, json_type_null)) {
				double f = json_object_get_double(v);
				/* the text's "~": an approximation, drawn paler */
				int approx = note && strstr(note, "approximation");
				report_html_raw(h, "<div class=\"flexrow\">");
				report_svg_fraction_bar(h, f, approx ? APPROX_RGB : NODE_RGB, 110, 10);
				report_html_textf(h, "%s%.1f%%", approx ? "~" : "", 100 * f);
				report_html_raw(h, "</div>");
			} else {
				report_html_text(h, NULL);
			}
			report_html_raw(h, "</td>");
		}
		report_html_raw(h, "<td class=\"wrap\">");
		report_html_text(h, note ? note : "");
		report_html_raw(h, "</td></tr>");
	}
	report_html_raw(h, "</tbody></table>");
}

/* A column of a JSON array of objects: key, heading, 0 text, 1 integer, 2 fraction shown as a percentage. */
struct json_col {
	const char *key, *head;
	int kind;
};

static void json_table(struct html *h, json_object *rows, const struct json_col *cols, int n)
{
	report_html_raw(h, "<table class=\"wide\"><thead><tr>");
	for (int k = 0; k < n; k++)
		report_html_printf(h, cols[k].kind ? "<th class=\"n\">%s</th>" : "<th>%s</th>", cols[k].head);
	report_html_raw(h, "</tr></thead><tbody>");
	for (size_t i = 0; rows && i < json_object_array_length(rows); i++) {
		json_object *r = json_object_array_get_idx(rows, i);
		report_html_raw(h, "<tr>");
		for (int k = 0; k < n; k++) {
			char cell[64];
			if (cols[k].kind == 1)
				snprintf(cell, sizeof cell, "%lld", (long long)json_object_get_int64(get(r, cols[k].key)));
			else if (cols[k].kind == 2)
				snprintf(cell, sizeof cell, "%.1f%%", 100 * json_object_get_double(get(r, cols[k].key)));
			report_html_td(h, NULL, cols[k].kind ? cell : get_str(r, cols[k].key), cols[k].kind != 0);
		}
		report_html_raw(h, "</tr>");
	}
	report_html_raw(h, "</tbody></table>");
}

/* The evidence of one run's linked capture (its "spe_evidence" object). */
static void evidence(struct html *h, json_object *run, json_object *ev)
{
	report_html_raw(h, "<h3>");
	report_html_textf(h, "SPE evidence for run %s", get_str(run, "run") ? get_str(run, "run") : "?");
	report_html_raw(h, "</h3><p>");
	report_html_textf(h, "%lld records of SPE source %lld %s, CPU %s.", (long long)json_object_get_int64(get(ev, "spe_records")),
		   (long long)json_object_get_int64(get(ev, "spe_source")),
		   get_str(ev, "spe_file") ? get_str(ev, "spe_file") : "",
		   get_str(run, "spe_cpu") ? get_str(run, "spe_cpu") : "unknown");
	json_object *tlb = get(ev, "tlb_walk");
	if (tlb)
		report_html_textf(h, "  TLB walks: %lld of %lld load/store samples (%.1f%%), %.1f%% of their total latency.",
			   (long long)json_object_get_int64(get(tlb, "walks")),
			   (long long)json_object_get_int64(get(tlb, "samples")),
			   100 * json_object_get_double(get(tlb, "sample_share")),
			   100 * json_object_get_double(get(tlb, "latency_share")));
	report_html_raw(h, "</p>");
	json_object *levels = get(ev, "mem_levels");
	size_t n = levels ? json_object_array_length(levels) : 0;
	if (n) {
		struct bar_segment segs[32];
		char tips[32][96];
		int k = 0;
		for (size_t i = 0; i < n && k < 32; i++, k++) {
			json_object *l = json_object_array_get_idx(levels, i);
			const char *name = get_str(l, "mem_level");
			double share = json_object_get_double(get(l, "share"));
			snprintf(tips[k], sizeof tips[k], "%s: %lld loads, %.1f%% of load latency", name ? name : "?",
				 (long long)json_object_get_int64(get(l, "loads")), 100 * share);
			segs[k] = (struct bar_segment){ .label = name, .value = share,
							.rgb = report_mem_level_rgb(report_mem_level_index(name)), .tooltip = tips[k] };
		}
		report_html_raw(h, "<figure class=\"m0\"><figcaption>Behind backend_bound and memory_bound: "
			    "load latency by memory level</figcaption>");
		report_svg_stacked_bar(h, segs, k, 1000, 26);
		report_html_raw(h, "</figure>");
	}
	static const struct json_col syms[] = { { "symbol", "function", 0 },
						{ "samples", "samples", 1 },
						{ "total_latency", "total latency", 1 },
						{ "share", "share", 2 } };
	static const struct json_col mis[] = { { "symbol", "function", 0 },
					       { "branches", "branches", 1 },
					       { "mispredicts", "mispredicts", 1 },
					       { "rate", "rate", 2 } };
	report_html_raw(h, "<div class=\"two\"><div><h3>Hot functions</h3>");
	json_table(h, get(ev, "hot_symbols"), syms, 4);
	report_html_raw(h, "</div><div><h3>Behind bad_speculation: mispredicts</h3>");
	json_table(h, get(ev, "mispredicts"), mis, 4);
	report_html_raw(h, "</div></div>");
}

/* The report's caveats or warnings: an array of sentences. */
static void notes(struct html *h, json_object *list, const char *cls)
{
	for (size_t i = 0; list && i < json_object_array_length(list); i++) {
		json_object *v = json_object_array_get_idx(list, i);
		if (!json_object_is_type(v, json_type_string))
			continue;
		report_html_printf(h, "<p class=\"%s\">", cls);
		report_html_text(h, json_object_get_string(v));
		report_html_raw(h, "</p>");
	}
}

int report_section_topdown(struct report_ctx *c)
{
	struct html *h = &c->h;
	report_html_section(h, "topdown", "Topdown",
		     "Topdown runs of each workload side by side (the table of spe-report --cross-isa): level 1 and "
		     "level 2 as the share of slots (or of cycles, where noted), paler bars approximations; below, "
		     "the SPE samples of the capture a run is linked to, the evidence behind backend and memory bound "
		     "and bad speculation.");
	static const char none[] =
		"<p class=\"none\">No topdown runs in this database.  Import one measured on the same workload with "
		"spe-topdown import FILE -d DB --spe-source=CAPTURE to see it here beside the SPE evidence.</p>"
		"</section>\n";
	long long tables = 0;
	int rc = report_rq_scalar(c, RQ_TOPDOWN_RUNS, &tables);
	if (rc < 0)
		return rc;
	if (tables == 0) {
		report_html_raw(h, none);
		return 0;
	}
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (!mem)
		return report_fail(c, -spe_nomem, "out of memory");
	struct report_text_opts o = { .format = REPORT_TEXT_JSON, .top = c->o.top };
	char err[256] = "";
	rc = report_cross_isa(c->db, mem, &o, err, sizeof err);
	fclose(mem);
	if (rc == -spe_no_data) {
		free(text);
		report_html_raw(h, none);
		return 0;
	}
	if (rc < 0) {
		free(text);
		return report_fail(c, rc == -spe_nomem ? -spe_nomem : -spe_bad_file, "topdown: %s",
				   err[0] ? err : spe_errstr(rc));
	}
	/* one JSON object per workload, one a line */
	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		json_object *wl = json_tokener_parse(line);
		if (!wl)
			continue;
		json_object *runs_j = get(wl, "runs");
		report_html_raw(h, "<h3>Workload ");
		report_html_text(h, get_str(wl, "workload") ? get_str(wl, "workload") : "(none)");
		report_html_textf(h, ": %zu column%s", runs_j ? json_object_array_length(runs_j) : 0,
			   runs_j && json_object_array_length(runs_j) == 1 ? "" : "s");
		report_html_raw(h, "</h3>");
		runs_table(h, wl);
		notes(h, get(wl, "caveats"), "note");
		notes(h, get(wl, "warnings"), "note warn");
		int linked = 0;
		for (size_t k = 0; runs_j && k < json_object_array_length(runs_j); k++) {
			json_object *run = json_object_array_get_idx(runs_j, k), *ev = get(run, "spe_evidence");
			if (ev && !json_object_is_type(ev, json_type_null)) {
				evidence(h, run, ev);
				linked++;
			}
		}
		if (!linked)
			report_html_raw(h, "<p class=\"none\">No SPE evidence: no run of this workload is linked to an SPE "
				    "capture (spe-topdown import --spe-source).</p>");
		json_object_put(wl);
	}
	free(text);
	report_html_raw(h, "</section>\n");
	return 0;
}
