/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The --clickhouse=URL option of spe-load, spe-query and spe-report
 * (docs/scaling-out.md).  One file for the three, so a build without
 * spe_clickhouse (no libcurl, e.g. a cross build) keeps the commands and
 * answers --clickhouse with exit status 69 and the reason.
 *
 * Exit statuses: 69 when the server cannot be reached or refuses a
 * statement, 65 for the store's data (another schema version or layout, a
 * capture already loaded), 64 for a URL that does not parse, 74 without
 * memory, 130 when interrupted.
 */
#ifndef SPE_CLICKHOUSE_CLI_H
#define SPE_CLICKHOUSE_CLI_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "spe/analysis.h"
#include "load_status.h"

struct cli_ch_load_args {
	const char *url, *cluster;
	const char *cluster_http; /* --cluster-http: the servers' HTTP ports (spe_ch_opts.cluster_http) */
	int replace;
	int raw;            /* the files are raw SPE bytes of @p midr, recorded as @p cpu */
	uint32_t midr;
	int cpu;
	const struct spe_load_opts *opts;
	volatile sig_atomic_t *interrupted;
	/* called for each file loaded and committed */
	void (*loaded)(const char *file, const struct spe_load_counts *counts);
	/* called before each file is loaded (its progress line starts), and with NULL before a failure is said; or NULL */
	void (*loading)(const char *file);
};

/* spe-load FILE... --clickhouse=URL: each file one capture, committed in turn.  The exit status. */
int cli_ch_load(const struct cli_ch_load_args *a, char **files, int n);

/*
 * spe-query --clickhouse=URL "SQL": a readonly=1 session, @p timeout_s per
 * request (0: none); with @p host and/or @p source (a source id) the views
 * read only those captures (NULL: every capture).  The exit status.
 */
int cli_ch_query(const char *prog, const char *url, const char *host, const char *source, const char *sql,
		 enum spe_result_format fmt, double timeout_s, volatile sig_atomic_t *interrupted);

/*
 * spe-report --clickhouse=URL: the report's sections from the views of the
 * captures @p host / @p source choose, as cli_ch_query, as tables or JSON,
 * to @p out.  The exit status.
 */
int cli_ch_report(const char *prog, const char *url, const char *host, const char *source, int top, int json,
		  FILE *out, volatile sig_atomic_t *interrupted);

struct spe_report_opts;
/*
 * spe-report --clickhouse=URL --html=FILE or --annotate=SYMBOL: the HTML
 * page (@p symbol NULL) or one function's annotation, text or JSON
 * (spe_report_html_ch, spe_report_annotate_ch), from the captures @p host /
 * @p source choose, with @p so's options (title: the server and database
 * when NULL), to @p out.  The exit status: 69 when the server or a shard
 * stops answering (messages name the server, never the password), 65 for no
 * records or no such function, 130 when interrupted.
 */
int cli_ch_report_page(const char *prog, const char *url, const char *host, const char *source, const char *symbol,
		       int json, const struct spe_report_opts *so, FILE *out, volatile sig_atomic_t *interrupted);

#endif
