/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Summary: what was captured (sources, hosts, CPUs and their parts, time
 * span, records) and what the load lost or could not place (load_stats).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sections.h"

static void fact(struct html *h, const char *value, const char *label, int bad)
{
	report_html_printf(h, "<div class=\"fact%s\"><b>", bad ? " bad" : "");
	report_html_text(h, value);
	report_html_raw(h, "</b><span>");
	report_html_text(h, label);
	report_html_raw(h, "</span></div>");
}

static void fact_count(struct html *h, long long v, const char *label, int bad_if_nonzero)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%lld", v);
	fact(h, buf, label, bad_if_nonzero && v > 0);
}

/* The SPE event terms of a recording command line (perf's or spe-record's -e arm_spe.../), if any. */
static void print_filters(struct html *h, const char *cmdline)
{
	int any = 0;
	for (const char *p = cmdline ? strstr(cmdline, "arm_spe") : NULL; p; p = strstr(p, "arm_spe")) {
		size_t n = strcspn(p, " \t");
		report_html_raw(h, any ? ", <code>" : "<code>");
		char term[512];
		snprintf(term, sizeof term, "%.*s", (int)(n < sizeof term ? n : sizeof term - 1), p);
		report_html_text(h, term);
		report_html_raw(h, "</code>");
		any = 1;
		p += n;
	}
	if (!any)
		report_html_raw(h, "<span class=\"none\">not in the command line (default event, no filters known)</span>");
}

enum {
	S_ID, S_FILE, S_KIND, S_HOST, S_CMDLINE, S_CPUS, S_LOADED, S_RECORDS, S_BAD_BYTES, S_SKIPPED, S_PARTIAL,
	S_UNKNOWN, S_LOST, S_NO_MAPPING, S_NO_SYMBOL, S_NO_TIME, S_NO_PID, S_KERNEL_NO_SYMBOL, S_OUT_OF_ORDER, S_COLUMNS
};

static const char *const source_cols[S_COLUMNS] = {
	[S_RECORDS] = "records",         [S_LOST] = "lost_aux",         [S_PARTIAL] = "partial_records",
	[S_BAD_BYTES] = "bad_bytes",     [S_SKIPPED] = "skipped_bytes", [S_UNKNOWN] = "unknown_packets",
	[S_NO_MAPPING] = "no_mapping",   [S_NO_SYMBOL] = "no_symbol",   [S_NO_TIME] = "no_time",
	[S_NO_PID] = "no_pid",           [S_KERNEL_NO_SYMBOL] = "kernel_no_symbol", [S_OUT_OF_ORDER] = "out_of_order",
};

/* RQ_SOURCES, or RQ_SOURCES_BEFORE on a database whose load_stats predates no_pid ... (those shown empty). */
static int sources_query(struct report_ctx *c, enum report_query *id)
{
	struct rq q;
	int rc = report_rq_begin(c, &q, RQ_LOAD_COUNTS);
	long long have = 0;
	if (rc == 0 && (rc = report_rq_next(&q)) == 1) {
		have = report_rq_int(&q, 0);
		rc = 0;
	}
	report_rq_end(&q);
	*id = have ? RQ_SOURCES : RQ_SOURCES_BEFORE;
	return rc < 0 ? rc : 0;
}

/*
 * The sources' rows; their counts added up in @p totals, and @p uncounted[k]
 * set when a source has no count k (NULL: a load_stats column its load did
 * not write, which spekit reads as NULL through its own view of the table).
 */
static int sources_table(struct report_ctx *c, long long totals[S_COLUMNS], int uncounted[S_COLUMNS], char *hosts,
			 size_t hcap, enum report_query *which)
{
	struct html *h = &c->h;
	struct rq q;
	enum report_query sources;
	int rc = sources_query(c, &sources);
	*which = sources;
	if (rc < 0)
		return rc;
	rc = report_rq_begin(c, &q, sources);
	report_html_raw(h, "<h3>Sources</h3><div class=\"scroll\"><table id=\"sources\"><thead><tr><th>id</th><th>file</th>"
		    "<th>host</th><th class=\"n\">records</th><th class=\"n\">lost AUX</th><th class=\"n\">partial</th>"
		    "<th class=\"n\">bad bytes</th><th class=\"n\">skipped bytes</th><th class=\"n\">unknown packets</th>"
		    "<th class=\"n\">no mapping</th><th class=\"n\">no symbol</th><th class=\"n\">no time</th>"
		    "<th class=\"n\">no process</th><th class=\"n\">kernel, no symbol</th>"
		    "<th class=\"n\">sideband out of order</th></tr></thead><tbody>");
	size_t hlen = 0;
	hosts[0] = '\0';
	while (rc == 0 && (rc = report_rq_next(&q)) == 1) {
		rc = 0;
		report_html_raw(h, "<tr>");
		report_html_td(h, "source_id", report_rq_text(&q, S_ID), 1);
		report_html_td(h, "file", report_rq_text(&q, S_FILE), 0);
		report_html_td(h, "host", report_rq_text(&q, S_HOST), 0);
		static const int order[] = { S_RECORDS,   S_LOST,    S_PARTIAL,	 S_BAD_BYTES,	     S_SKIPPED,
					     S_UNKNOWN,	  S_NO_MAPPING, S_NO_SYMBOL, S_NO_TIME,	     S_NO_PID,
					     S_KERNEL_NO_SYMBOL, S_OUT_OF_ORDER };
		for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
			report_html_td(h, source_cols[order[k]], report_rq_text(&q, order[k]), 1);
			totals[order[k]] += report_rq_int(&q, order[k]);
			uncounted[order[k]] |= report_rq_null(&q, order[k]);
		}
		report_html_raw(h, "</tr>");
		const char *host = report_rq_text(&q, S_HOST);
		if (host && !strstr(hosts, host) && hlen < hcap)
			hlen += (size_t)snprintf(hosts + hlen, hcap - hlen, "%s%s", hlen ? ", " : "", host);
		totals[S_ID]++;
	}
	report_rq_end(&q);
	report_table_end(h);
	if (rc < 0)
		return rc;
	/* how each source was recorded, and with which SPE filters */
	rc = report_rq_begin(c, &q, sources);
	report_html_raw(h, "<h3>How it was recorded</h3><table id=\"recorded\" class=\"wide\"><thead><tr><th>id</th>"
		    "<th>kind</th><th class=\"n\">CPUs</th><th>loaded</th><th>SPE event and filters</th>"
		    "<th>command line</th></tr></thead><tbody>");
	while (rc == 0 && (rc = report_rq_next(&q)) == 1) {
		rc = 0;
		report_html_raw(h, "<tr>");
		report_html_td(h, "source_id", report_rq_text(&q, S_ID), 1);
		report_html_td(h, "kind", report_rq_text(&q, S_KIND), 0);
		report_html_td(h, "cpus", report_rq_text(&q, S_CPUS), 1);
		report_html_td(h, "loaded_at", report_rq_text(&q, S_LOADED), 0);
		report_html_raw(h, "<td class=\"wrapn\">");
		print_filters(h, report_rq_text(&q, S_CMDLINE));
		report_html_raw(h, "</td><td class=\"wrap mono\">");
		report_html_text(h, report_rq_text(&q, S_CMDLINE));
		report_html_raw(h, "</td></tr>");
	}
	report_rq_end(&q);
	report_html_raw(h, "</tbody></table>");
	return rc < 0 ? rc : 0;
}

static int cpus_table(struct report_ctx *c, char *parts, size_t pcap, long long *ncpus)
{
	struct html *h = &c->h;
	struct rq q;
	int rc = report_rq_begin(c, &q, RQ_CPUS);
	size_t plen = 0;
	parts[0] = '\0';
	*ncpus = 0;
	report_html_raw(h, "<h3>CPUs</h3><table id=\"cpus\"><thead><tr><th>part</th><th>MIDR</th><th>SPE</th>"
		    "<th class=\"n\">CPUs</th><th>which</th></tr></thead><tbody>");
	while (rc == 0 && (rc = report_rq_next(&q)) == 1) {
		rc = 0;
		report_html_raw(h, "<tr>");
		report_html_td(h, "part", report_rq_text(&q, 0) ? report_rq_text(&q, 0) : "unknown part", 0);
		report_html_td(h, "midr", report_rq_text(&q, 1), 0);
		report_html_td(h, "spe_version", report_rq_text(&q, 2), 0);
		report_html_td(h, "cpus", report_rq_text(&q, 3), 1);
		report_html_td(h, "cpu_list", report_rq_text(&q, 4), 0);
		report_html_raw(h, "</tr>");
		*ncpus += report_rq_int(&q, 3);
		if (plen < pcap)
			plen += (size_t)snprintf(parts + plen, pcap - plen, "%s%s x %s", plen ? ", " : "",
						 report_rq_text(&q, 3), report_rq_text(&q, 0) ? report_rq_text(&q, 0) : "unknown");
	}
	report_rq_end(&q);
	report_html_raw(h, "</tbody></table>");
	return rc < 0 ? rc : 0;
}

int report_section_summary(struct report_ctx *c, const struct capture_span *span)
{
	struct html *h = &c->h;
	report_html_section(h, "summary", "Summary",
		     "What was captured and loaded.  Figures in amber are data the load lost or could not place: lost AUX "
		     "buffers and partial records are samples that never reached the database; records without a "
		     "mapping or symbol count in the totals but in no function.");
	/* the tables are written below the facts, but their numbers are needed first */
	char *tables = NULL;
	size_t tlen = 0;
	FILE *mem = open_memstream(&tables, &tlen);
	if (!mem)
		return report_fail(c, -spe_nomem, "out of memory");
	struct html page = c->h;
	c->h.out = mem;
	long long totals[S_COLUMNS] = { 0 }, ncpus = 0;
	int uncounted[S_COLUMNS] = { 0 };
	enum report_query sources = RQ_SOURCES;
	char hosts[512], parts[512];
	int rc = cpus_table(c, parts, sizeof parts, &ncpus);
	if (rc == 0)
		rc = sources_table(c, totals, uncounted, hosts, sizeof hosts, &sources);
	fclose(mem);
	c->h = page;
	if (rc < 0) {
		free(tables);
		return rc;
	}
	char buf[128];
	report_html_raw(h, "<div class=\"facts\">");
	fact_count(h, span->records, "SPE records", 0);
	if (span->t1 > span->t0) {
		if (span->raw_ts)
			snprintf(buf, sizeof buf, "%lld ticks", span->t1 - span->t0);
		else
			snprintf(buf, sizeof buf, "%.3f ms", (double)(span->t1 - span->t0) / 1e6);
	} else {
		snprintf(buf, sizeof buf, "unknown");
	}
	fact(h, buf, span->raw_ts ? "time span (SPE timestamps, no perf time)" : "time span", 0);
	snprintf(buf, sizeof buf, "%lld", ncpus);
	fact(h, buf, parts[0] ? parts : "CPUs", 0);
	fact(h, hosts[0] ? hosts : "unknown", "host", 0);
	fact_count(h, totals[S_ID], "sources loaded", 0);
	/* what the load lost or could not place: a tile each when not zero, the zeros folded into one line */
	static const struct {
		int col;
		const char *label;
		int counted_since; /* 1: counted only by loads of load_stats' later columns */
	} losses[] = { { S_LOST, "lost AUX buffers", 0 },
		       { S_PARTIAL, "partial records", 0 },
		       { S_BAD_BYTES, "bad bytes", 0 },
		       { S_NO_MAPPING, "records without a mapping", 0 },
		       { S_NO_SYMBOL, "records without a symbol", 0 },
		       { S_NO_PID, "records of unknown processes", 1 },
		       { S_KERNEL_NO_SYMBOL, "kernel records without a symbol", 1 },
		       { S_OUT_OF_ORDER, "sideband events out of order", 1 } };
	const size_t nlosses = sizeof losses / sizeof losses[0];
	char zeros[512] = "";
	size_t zlen = 0;
	for (size_t k = 0; k < nlosses; k++) {
		if (losses[k].counted_since && (sources != RQ_SOURCES || uncounted[losses[k].col]))
			continue; /* not counted by the loads that wrote the database: not shown as 0 */
		if (totals[losses[k].col])
			fact_count(h, totals[losses[k].col], losses[k].label, 1);
		else if (zlen < sizeof zeros)
			zlen += (size_t)snprintf(zeros + zlen, sizeof zeros - zlen, "%s%s", zlen ? ", " : "", losses[k].label);
	}
	report_html_raw(h, "</div>");
	if (zeros[0]) {
		report_html_raw(h, "<p class=\"none\" id=\"zero-losses\">None: ");
		report_html_text(h, zeros);
		report_html_raw(h, ".</p>");
	}
	fwrite(tables, 1, tlen, h->out);
	free(tables);
	report_html_raw(h, "</section>\n");
	return 0;
}
