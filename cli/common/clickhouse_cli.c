/* SPDX-License-Identifier: Apache-2.0 */
/* The --clickhouse=URL option of spe-load, spe-query and spe-report (clickhouse_cli.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli_util.h"
#include "common/clickhouse_cli.h"

#ifndef SPE_HAVE_CLICKHOUSE

static int unavailable(const char *prog)
{
	fprintf(stderr, "%s: --clickhouse: this spekit was built without ClickHouse support (it needs libcurl: "
			"scripts/deps.sh installs libcurl4-openssl-dev)\n",
		prog);
	return CLI_UNAVAILABLE;
}

int cli_ch_load(const struct cli_ch_load_args *a, char **files, int n)
{
	(void)a, (void)files, (void)n;
	return unavailable("spe-load");
}

int cli_ch_query(const char *prog, const char *url, const char *host, const char *source, const char *sql,
		 enum spe_result_format fmt, double timeout_s, volatile sig_atomic_t *interrupted)
{
	(void)url, (void)host, (void)source, (void)sql, (void)fmt, (void)timeout_s, (void)interrupted;
	return unavailable(prog);
}

int cli_ch_report(const char *prog, const char *url, const char *host, const char *source, int top, int json,
		  FILE *out, volatile sig_atomic_t *interrupted)
{
	(void)url, (void)host, (void)source, (void)top, (void)json, (void)out, (void)interrupted;
	return unavailable(prog);
}

int cli_ch_report_page(const char *prog, const char *url, const char *host, const char *source, const char *symbol,
		       int json, const struct spe_report_opts *so, FILE *out, volatile sig_atomic_t *interrupted)
{
	(void)url, (void)host, (void)source, (void)symbol, (void)json, (void)so, (void)out, (void)interrupted;
	return unavailable(prog);
}

#else

#include "report/report.h"
#include "spe/clickhouse.h"

/*
 * The exit status of a failed load or schema step: a statement the server
 * refused there is the server's or a shard's state, not the user's input
 * (69); everything else as cli_exit_status says.
 */
static int load_status(int rc)
{
	return rc == -spe_bad_input ? CLI_UNAVAILABLE : cli_exit_status(rc);
}

/*
 * Open the session and create (loads) or check (readers) the schema; prints
 * "PROG: message" on failure.  SPE_CLICKHOUSE_MAX_RESULT caps an answer held
 * in memory (spe_ch_opts.max_result_bytes).
 */
static int open_session(const char *prog, const struct spe_ch_opts *opts, int create, struct spe_ch **out)
{
	char err[1024];
	struct spe_ch_opts o = *opts;
	const char *cap = getenv("SPE_CLICKHOUSE_MAX_RESULT");
	uint64_t bytes = 0;
	if (cap && *cap) {
		if (cli_parse_size(cap, &bytes) || bytes < 4096 || bytes > SIZE_MAX / 2) {
			fprintf(stderr, "%s: SPE_CLICKHOUSE_MAX_RESULT=%s: expected bytes of at least 4K, e.g. 4G\n", prog, cap);
			return CLI_USAGE;
		}
		o.max_result_bytes = (size_t)bytes;
	}
	int rc = spe_ch_open(&o, out, err, sizeof err);
	if (rc < 0) {
		fprintf(stderr, "%s: --clickhouse: %s\n", prog, err);
		return cli_exit_status(rc);
	}
	rc = create ? spe_ch_schema_create(*out) : spe_ch_schema_check(*out);
	if (rc < 0) {
		fprintf(stderr, "%s: %s\n", prog, spe_ch_errmsg(*out));
		spe_ch_close(*out);
		*out = NULL;
		return load_status(rc);
	}
	return CLI_OK;
}

/*
 * Each file is one capture, visible once its load committed (spe/clickhouse.h);
 * a failure stops at that file, leaving the ones before it loaded and nothing
 * of it visible, and says so.
 */
int cli_ch_load(const struct cli_ch_load_args *a, char **files, int n)
{
	struct spe_ch_opts o = { .url = a->url, .cluster = a->cluster, .cluster_http = a->cluster_http,
				 .replace = a->replace, .cancel = a->interrupted };
	struct spe_ch *ch;
	int status = open_session("spe-load", &o, 1, &ch);
	if (status != CLI_OK)
		return status;
	struct spe_row_sink sink = { 0 };
	int rc = spe_ch_sink_new(ch, &sink);
	char err[2048] = "";
	int done = 0; /* files committed */
	for (; done < n && rc == 0 && !*a->interrupted; done += rc == 0) {
		struct spe_load_counts k = { 0 };
		if (a->loading)
			a->loading(files[done]);
		rc = a->raw ? spe_load_raw_file_sink(&sink, files[done], a->midr, a->cpu, a->opts, &k, err, sizeof err)
			    : spe_load_perf_file_sink(&sink, files[done], a->opts, &k, err, sizeof err);
		if (rc == 0) {
			a->loaded(files[done], &k);
			fprintf(stderr, "spe-load: %s: source %lld in %s\n", files[done], spe_ch_sink_source_id(&sink),
				spe_ch_name(ch));
			if (cli_load_is_partial(&k))
				status = CLI_PARTIAL;
		}
	}
	if (rc == 0 && *a->interrupted && done < n)
		rc = -spe_cancelled;
	if (rc < 0) {
		int cancelled = rc == -spe_cancelled;
		const char *file = files[done < n ? done : n - 1]; /* the file that is not loaded */
		int refused = spe_ch_sink_already_loaded(&sink);
		if (a->loading)
			a->loading(NULL);
		if (cancelled)
			fprintf(stderr, "spe-load: interrupted");
		else
			fprintf(stderr, "spe-load: %s", *err ? err : spe_ch_errmsg(ch));
		if (refused)
			fputc('\n', stderr); /* nothing was written: the message says what to run */
		else
			fprintf(stderr,
				"\nspe-load: nothing of %s is visible in %s (its capture was not committed)%s; to load it, "
				"run spe-load %s --clickhouse=URL%s%s again%s\n",
				file, spe_ch_name(ch), done ? "; the files before it are loaded" : "", file,
				a->cluster ? " --cluster=" : "", a->cluster ? a->cluster : "",
				rc == -spe_unavailable || rc == -spe_bad_input ? " once the server and every shard answer" : "");
		status = load_status(rc);
	}
	if (sink.free)
		sink.free(sink.ctx);
	spe_ch_close(ch);
	return status;
}

/* A read-only session (readonly=1: the server refuses DDL and INSERT) over the captures of @p host / @p source. */
static int open_reader(const char *prog, const char *url, const char *host, const char *source, double timeout_s,
		       volatile sig_atomic_t *interrupted, struct spe_ch **out)
{
	long long source_id = 0;
	if (source) {
		char *end;
		source_id = strtoll(source, &end, 10);
		if (!*source || *end || source_id <= 0) {
			fprintf(stderr, "%s: --source=%s: expected a source id (SELECT id, host, file FROM source)\n", prog,
				source);
			return CLI_USAGE;
		}
	}
	struct spe_ch_opts o = {
				 .url = url,
				 .readonly = 1,
				 .timeout_s = timeout_s > 0 ? (long)timeout_s + (timeout_s > (long)timeout_s) : 0,
				 .cancel = interrupted,
				 .host = host,
				 .source_id = source_id };
	return open_session(prog, &o, 0, out);
}

/* Ctrl-C drops the request in flight. */
int cli_ch_query(const char *prog, const char *url, const char *host, const char *source, const char *sql,
		 enum spe_result_format fmt, double timeout_s, volatile sig_atomic_t *interrupted)
{
	struct spe_ch *ch;
	int status = open_reader(prog, url, host, source, timeout_s, interrupted, &ch);
	if (status != CLI_OK)
		return status;
	int rc = spe_ch_print(ch, sql, fmt, stdout);
	if (rc < 0) {
		fflush(stdout);
		fprintf(stderr, "%s: %s\n", prog, rc == -spe_cancelled ? "interrupted" : spe_ch_errmsg(ch));
		/* as on SQLite: a statement the read-only session refuses is 65, like any refused SQL */
		status = rc == -spe_no_permission ? CLI_DATAERR : cli_exit_status(rc);
	}
	spe_ch_close(ch);
	return cli_finish_stdout(prog, status);
}

/* The report's sections: a title, and the query of each (its rows as a table, or a JSON array under its key). */
struct section {
	const char *key, *title;
	const char *sql; /* %d: --top */
};

static const struct section sections[] = {
	{ "sources", "Captures",
	  "SELECT s.id AS source_id, host, file, kind, loaded_at, records, lost_aux, bad_bytes FROM source AS s"
	  " ANY LEFT JOIN (SELECT source_id AS id, records, lost_aux, bad_bytes FROM load_stats) AS ls USING id"
	  " ORDER BY host, file" },
	{ "hot_symbols", "Hot functions by total latency",
	  "SELECT symbol, mapping, samples, total_latency, mean_latency, p50, p90, p99, latency_share FROM hot_symbol"
	  " LIMIT %d" },
	{ "hot_pcs", "Hot instructions by total latency",
	  "SELECT pc, symbol, symbol_offset, mnemonic, operands, samples, total_latency, p99, latency_share FROM hot_pc"
	  " LIMIT %d" },
	{ "memory_levels", "Where the loads were served from", "SELECT * FROM mem_level_summary" },
	{ "latency_histogram", "Latency histogram (cycles)", "SELECT * FROM latency_histogram" },
	{ "branch_mispredicts", "Mispredicted branches",
	  "SELECT pc, symbol, symbol_offset, mnemonic, branches, mispredicted, mispredict_rate FROM branch_mispredict"
	  " WHERE mispredicted > 0 LIMIT %d" },
	{ "tlb_hotspots", "TLB walks by page",
	  "SELECT source_id, pid, page, accesses, tlb_walks, walk_ratio, mean_translation_latency FROM tlb_hotspot"
	  " WHERE tlb_walks > 0 LIMIT %d" },
	{ "cacheline_sharing", "Cache lines shared between threads",
	  "SELECT source_id, pid, line, symbols, threads, loads, stores, hitm, peer_hits FROM cacheline_sharing LIMIT %d" },
};

static int report_sections(struct spe_ch *ch, int top, int json, FILE *out)
{
	int rc = 0;
	if (json)
		fputc('{', out);
	for (size_t i = 0; i < sizeof sections / sizeof *sections && rc == 0; i++) {
		char sql[1024];
		snprintf(sql, sizeof sql, sections[i].sql, top);
		if (json) {
			fprintf(out, "%s\"%s\": ", i ? ", " : "", sections[i].key);
			rc = spe_ch_json_array(ch, sql, out);
		} else {
			fprintf(out, "%s%s\n", i ? "\n" : "", sections[i].title);
			rc = spe_ch_print(ch, sql, SPE_FORMAT_TABLE, out);
		}
	}
	if (json && rc == 0)
		fputs("}\n", out);
	return rc;
}

int cli_ch_report(const char *prog, const char *url, const char *host, const char *source, int top, int json,
		  FILE *out, volatile sig_atomic_t *interrupted)
{
	struct spe_ch *ch;
	int status = open_reader(prog, url, host, source, 0, interrupted, &ch);
	if (status != CLI_OK)
		return status;
	int rc = report_sections(ch, top, json, out);
	if (rc < 0) {
		fflush(out);
		fprintf(stderr, "%s: %s\n", prog, rc == -spe_cancelled ? "interrupted" : spe_ch_errmsg(ch));
		status = cli_exit_status(rc);
	}
	spe_ch_close(ch);
	return status;
}

int cli_ch_report_page(const char *prog, const char *url, const char *host, const char *source, const char *symbol,
		       int json, const struct spe_report_opts *so, FILE *out, volatile sig_atomic_t *interrupted)
{
	struct spe_ch *ch;
	int status = open_reader(prog, url, host, source, 0, interrupted, &ch);
	if (status != CLI_OK)
		return status;
	struct spe_report_opts o = *so;
	if (!o.title)
		o.title = spe_ch_name(ch);
	char err[2048] = "";
	int rc = symbol ? spe_report_annotate_ch(ch, symbol, json ? SPE_REPORT_JSON : SPE_REPORT_TEXT, out, &o, err,
						 sizeof err)
			: spe_report_html_ch(ch, out, &o, err, sizeof err);
	if (rc < 0) {
		fflush(out);
		fprintf(stderr, "%s: %s\n", prog,
			rc == -spe_cancelled ? "interrupted" : err[0] ? err : spe_errstr(rc));
		/* as on SQLite: no records or no such function is the data's (65); the server's state is 69 */
		status = rc == -spe_invalid || rc == -spe_bad_input ? CLI_DATAERR : cli_exit_status(rc);
	}
	spe_ch_close(ch);
	return status;
}

#endif
