/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The page around the sections: head with the whole style sheet, the
 * navigation bar, the appendix of queries, and the one script
 * (html/page/page.js behind the d3-flame-graph bundle, page_assets.c): it
 * sorts, filters and pages the tables, draws the flame graph and switches
 * the heatmap between CPUs; the page reads without it but for the graph.
 * Everything is inline: the page opens from disk with no network.  The
 * page's Content-Security-Policy allows nothing but its own style sheet and
 * script, by their SHA-256 hashes: no other script, style attribute,
 * image, frame, font or connection, so a name in the data that slipped
 * past escaping could still do nothing (docs/security.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nettle/base64.h>
#include <nettle/sha2.h>

#include "sections.h"
#include "util/visible.h"

static const char style[] =
	":root{--fg:#1d232a;--muted:#5f6b76;--line:#e3e7eb;--accent:#1565c0}\n"
	"*{box-sizing:border-box}\n"
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;"
	"color:var(--fg);background:#f4f5f7;margin:0}\n"
	"header{background:#1d232a;color:#fff;padding:14px 28px}\n"
	"header h1{margin:0;font-size:20px;font-weight:600}\n"
	"header p{margin:4px 0 0;color:#b8c2cc;font-size:13px}\n"
	"nav{position:sticky;top:0;background:#fff;border-bottom:1px solid var(--line);padding:6px 28px;z-index:2}\n"
	"nav a{margin-right:16px;color:var(--accent);text-decoration:none;font-size:13px}\n"
	"main{max-width:1400px;margin:0 auto;padding:4px 28px 40px}\n"
	"section{background:#fff;border:1px solid var(--line);border-radius:6px;padding:14px 18px;margin:16px 0}\n"
	"h2{font-size:17px;margin:0 0 2px}\n"
	"h3{font-size:14px;margin:16px 0 6px}\n"
	"p.how{color:var(--muted);margin:0 0 10px;font-size:13px;max-width:80em}\n"
	"p.how.sub{margin-top:-2px}\n"
	"table.matrix td{min-width:190px;border:1px solid var(--line)}\n"
	"table.matrix th{border:1px solid var(--line)}\n"
	"table{border-collapse:collapse;font-size:12.5px}\n"
	"table.wide{width:100%}\n"
	"th,td{padding:3px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:middle;"
	"white-space:nowrap}\n"
	"th{font-weight:600;color:var(--muted);font-size:11px;text-transform:uppercase;letter-spacing:.03em}\n"
	"td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	"td.wrap{white-space:normal;word-break:break-all}\n"
	"td[data-col=data_objects],td[data-col=symbols]{white-space:normal;overflow-wrap:anywhere;min-width:100px;"
	"max-width:200px}\n"
	"code,pre,.mono,td.src,td.insn{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,'DejaVu Sans Mono',"
	"monospace;font-size:12px}\n"
	"a{color:var(--accent)}\n"
	".facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(170px,1fr));gap:8px;margin:6px 0 12px}\n"
	".fact{border:1px solid var(--line);border-radius:4px;padding:6px 10px}\n"
	".fact b{display:block;font-size:18px;font-weight:600}\n"
	".fact span{color:var(--muted);font-size:12px}\n"
	".fact.bad b{color:#b26a00}\n"
	".multiples{display:flex;flex-wrap:wrap;gap:10px}\n"
	".multiples figure{margin:0;border:1px solid var(--line);border-radius:4px;padding:6px 8px}\n"
	"figure figcaption{font-size:12px;color:var(--muted);margin-bottom:2px}\n"
	"figure figcaption b{color:var(--fg)}\n"
	".legend{display:flex;flex-wrap:wrap;gap:4px 16px;margin:6px 0;font-size:12px}\n"
	"svg.sw{display:inline-block;width:10px;height:10px;margin-right:5px;vertical-align:-1px}\n"
	".m0,figure.hm{margin:0}\n"
	"td.wrapn{white-space:normal}\n"
	".flexrow{display:flex;gap:6px;align-items:center}\n"
	"svg{display:block}\n"
	"svg text{font-family:system-ui,sans-serif}\n"
	"svg .tick{font-size:10px;fill:#5f6b76}\n"
	"svg .seg{font-size:12px;font-weight:600}\n"
	"svg .axis{stroke:#9aa5b1;stroke-width:1}\n"
	"svg .track{fill:#f0f2f4}\n"
	"svg .whisker{stroke:#263238;stroke-width:1.5;shape-rendering:crispEdges}\n"
	".where{color:var(--muted);font-size:11px;margin-left:4px}\n"
	".tag.verdict-faster{background:#e8f5e9;color:#1b5e20}\n"
	".tag.verdict-slower{background:#fdecea;color:#b71c1c}\n"
	".tag.verdict-noise{background:#eceff1;color:#546e7a}\n"
	"tr[data-verdict=noise] td{color:#78858f}\n"
	"p.verdicts{margin:0 0 8px;font-weight:600}\n"
	"td>svg.frac:first-child{display:inline-block;vertical-align:middle;margin-right:6px}\n"

	"figure>svg.stacked{width:100%;height:auto}\n"
	"svg.heatmap{width:100%;height:auto}\n"
	".ann{margin:10px 0 22px}\n"
	".ann h3 code{font-size:14px}\n"
	".scroll{overflow-x:auto}\n"
	".ann-grid{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:14px;align-items:start}\n"
	".ann-grid>div{overflow-x:auto;border:1px solid var(--line);border-radius:4px}\n"
	".ann-grid table{width:100%}\n"
	".ann-grid td{padding:1px 6px;border-bottom:none}\n"
	"td.src{white-space:pre;tab-size:4}\n"
	".ann-grid td.src,.ann-grid td.insn{width:100%}\n"
	"td.ln{color:var(--muted);text-align:right}\n"
	"tr.gap td{color:var(--muted);font-style:italic;text-align:center}\n"
	".tag{display:inline-block;padding:0 6px;border-radius:8px;font-size:11px;font-weight:600;"
	"background:#e8eaf6;color:#283593;margin-left:6px}\n"
	".tag.hot{background:#fff3e0;color:#8a4b00}\n"
	".note{color:#6d5200;background:#fff8e1;padding:4px 8px;border-radius:4px;display:inline-block;margin:4px 0}\n"
	".note.warn{color:#8a4b00;background:#fff3e0}\n"
	"#findings ol{margin:4px 0 0;padding-left:22px}\n"
	"#findings li{margin:0 0 8px}\n"
	"#findings li b{display:block}\n"
	"#findings .fix{color:var(--fg)}\n"
	".none{color:var(--muted);font-style:italic}\n"
	".two{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:18px}\n"
	"details summary{cursor:pointer;color:var(--accent)}\n"
	"pre{white-space:pre-wrap;background:#f6f8fa;padding:6px 8px;border-radius:4px;margin:2px 0 8px}\n"
	"select{font:inherit;font-size:13px}\n"
	".tbar{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:4px 0;font-size:12px}\n"
	".tbar input{font:inherit;padding:2px 6px;min-width:16em;border:1px solid #c5ccd3;border-radius:4px}\n"
	".tbar button,.fg-bar button{font:inherit;font-size:12px;padding:1px 8px}\n"
	".pgstat{color:var(--muted)}\n"
	"th.sortable{cursor:pointer}\n"
	"th.sortable:hover{color:var(--fg)}\n"
	"th.asc::after{content:' \\25b2'}\n"
	"th.desc::after{content:' \\25bc'}\n"
	"p.more{color:var(--muted);font-size:12px;margin:2px 0 10px}\n"
	"table.drillable tbody tr[data-i]{cursor:pointer}tr.open>td{background:#eef3f8}\n"
	"tr.drill>td{background:#f6f8fa;padding:4px 12px 8px}table.drill-list{width:auto;margin:0}\n"
	".pc-lists{display:flex;flex-wrap:wrap;gap:4px 24px}.pc-lists table.pc-list{width:auto;margin:0}"
	".ann-od h4{margin:10px 0 2px}.ann-asm tr[data-pc]{cursor:pointer}\n"
	".fg-bar{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:4px 0 6px;font-size:12px}\n"
	".fg-bar input{font:inherit;padding:2px 6px;min-width:18em}\n"
	".fg{overflow-x:auto}\n"
	"@media (max-width:900px){.ann-grid,.two{grid-template-columns:1fr}}\n"
	"@media print{nav,select{display:none}body{background:#fff}main{max-width:none;padding:0}"
	"section{border:none;padding:0;break-inside:avoid-page}header{background:#fff;color:#000}"
	"header p{color:#444}}\n";

static const struct nav_item report_nav[] = {
	{ "findings", "Findings" }, { "summary", "Summary" },   { "latency", "Where the latency goes" }, { "flame", "Flame graph" },
	{ "hot-code", "Hot code" },
	{ "annotations", "Annotation" }, { "time", "Over time" },        { "memory", "Memory" },
	{ "branches", "Branches" }, { "topdown", "Topdown" },               { "queries", "Queries" },
};

/* 'sha256-BASE64' of @p text, as a CSP source expression. */
static void csp_hash(const char *text, char out[64])
{
	struct sha256_ctx ctx;
	uint8_t digest[SHA256_DIGEST_SIZE];
	sha256_init(&ctx);
	sha256_update(&ctx, strlen(text), (const uint8_t *)text);
	sha256_digest(&ctx, sizeof digest, digest);
	char b64[BASE64_ENCODE_RAW_LENGTH(SHA256_DIGEST_SIZE) + 1];
	base64_encode_raw(b64, sizeof digest, digest);
	b64[sizeof b64 - 1] = 0;
	snprintf(out, 64, "'sha256-%s'", b64);
}

/* The whole style sheet: the fixed rules and the generated shade classes.  NULL without memory. */
static char *style_sheet(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	fputs("\n", f);
	fputs(style, f);
	report_html_shade_css(f);
	fputs(report_flame_css, f);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* The script between the tags, exactly as the page has it (its hash is over these bytes). */
static const char *page_script(void)
{
	return report_page_script;
}

void report_page_open(struct report_ctx *c, const char *heading, const char *subtitle, const struct nav_item *nav, size_t n)
{
	struct html *h = &c->h;
	char *sheet = style_sheet();
	char style_hash[64], script_hash[64];
	csp_hash(sheet ? sheet : "", style_hash);
	csp_hash(page_script(), script_hash);
	report_html_raw(h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
		    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src ");
	report_html_raw(h, style_hash);
	report_html_raw(h, "; script-src ");
	report_html_raw(h, script_hash);
	report_html_raw(h, "; base-uri 'none'; form-action 'none'\"/>\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
		    "<meta name=\"generator\" content=\"spekit spe-report\"/>\n<meta name=\"referrer\" content=\"no-referrer\"/>\n<title>");
	report_html_text(h, heading);
	report_html_raw(h, ": ");
	report_html_text(h, c->o.title);
	report_html_raw(h, "</title>\n<style>");
	report_html_raw(h, sheet ? sheet : "");
	report_html_raw(h, "</style>\n</head>\n<body>\n<header><h1>");
	free(sheet);
	report_html_text(h, heading);
	report_html_raw(h, ": ");
	report_html_text(h, c->o.title);
	report_html_raw(h, "</h1><p>");
	report_html_text(h, subtitle);
	report_html_raw(h, "</p>");
	if (c->o.selection && *c->o.selection) { /* every number below is of these records only */
		report_html_raw(h, "<p class=\"selection\">selection: ");
		report_html_text(h, c->o.selection);
		report_html_raw(h, " (only the records it chooses were loaded: every section is of them)</p>");
	}
	report_html_raw(h, "</header>\n<nav>");
	for (size_t i = 0; i < n; i++)
		report_html_printf(h, "<a href=\"#%s\">%s</a>", nav[i].id, nav[i].label);
	report_html_raw(h, "</nav>\n<main>");
}

void report_page_head(struct report_ctx *c)
{
	report_page_open(c, "SPE report",
		  "Arm Statistical Profiling Extension samples: where load latency goes, in which code, from which "
		  "memory, and when.",
		  report_nav, sizeof report_nav / sizeof report_nav[0]);
}

void report_page_queries(struct report_ctx *c)
{
	struct html *h = &c->h;
	report_html_section(h, "queries", "Queries",
		     "Every number on this page comes from these queries over the database's views and tables "
		     "(docs/schema.md); run any of them with spe-query to check or extend it.  Times are this "
		     "report's.");
	report_html_raw(h, "<table><thead><tr><th>query</th><th class=\"n\">runs</th><th class=\"n\">rows</th>"
		    "<th class=\"n\">seconds</th></tr></thead><tbody>");
	double total = 0;
	for (int q = 0; q < RQ_COUNT; q++) {
		const struct query_log *l = &c->log[q];
		if (!l->runs)
			continue;
		char runs[16], rows[32], secs[32];
		snprintf(runs, sizeof runs, "%d", l->runs);
		snprintf(rows, sizeof rows, "%lld", l->rows);
		snprintf(secs, sizeof secs, "%.3f", l->seconds);
		total += l->seconds;
		report_html_raw(h, "<tr>");
		report_html_td(h, "query", report_query_name((enum report_query)q), 0);
		report_html_td(h, "runs", runs, 1);
		report_html_td(h, "rows", rows, 1);
		report_html_td(h, "seconds", secs, 1);
		report_html_raw(h, "</tr>");
	}
	report_html_printf(h, "</tbody></table>\n<p class=\"none\">%.3f s in queries.</p>\n<details><summary>SQL</summary>",
		    total);
	for (int q = 0; q < RQ_COUNT; q++) {
		if (!c->log[q].runs)
			continue;
		char *sql = report_query_sql((enum report_query)q, c->ch ? REPORT_CLICKHOUSE : REPORT_SQLITE, c->stored);
		report_html_raw(h, "<h3>");
		report_html_text(h, report_query_name((enum report_query)q));
		report_html_raw(h, "</h3><pre>");
		report_html_text_whole(h, sql ? sql : "(out of memory)");
		report_html_raw(h, "</pre>");
		free(sql);
	}
	report_html_raw(h, "</details>\n</section>\n");
}

void report_page_cuts(struct html *h)
{
	if (!h->cut)
		return;
	char text[256];
	snprintf(text, sizeof text,
		 "%lu value%s of the database %s longer than %d characters: shown cut, ending in \xe2\x80\xa6 "
		 "(spe-query shows %s whole).",
		 h->cut, h->cut == 1 ? "" : "s", h->cut == 1 ? "was" : "were", UTIL_VISIBLE_MAX, h->cut == 1 ? "it" : "them");
	report_html_raw(h, "<p class=\"none\" id=\"cut-values\">");
	report_html_text_whole(h, text);
	report_html_raw(h, "</p>\n");
}

void report_page_tail(struct report_ctx *c)
{
	report_html_raw(&c->h, "</main>\n<script>");
	report_html_raw(&c->h, page_script());
	report_html_raw(&c->h, "</script>\n</body>\n</html>\n");
}
