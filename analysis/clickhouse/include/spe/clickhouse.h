/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe_clickhouse: a spekit database on a ClickHouse server or cluster
 * (docs/scaling-out.md).  The same tables and views as the SQLite database
 * of docs/schema.md, over ClickHouse's HTTP interface:
 *
 *   spe_ch_open         a session with a server (URL, credentials, database);
 *   spe_ch_schema       the tables and views, created when absent (spe-load),
 *                       or checked (readers);
 *   spe_ch_sink_new     the row sink of spe-load (spe/row_sink.h): typed rows
 *                       into RowBinary blocks, gzip-compressed, a capture made
 *                       visible by one last insert (its source row);
 *   spe_ch_print        a query's rows as table, CSV or JSON lines, as
 *                       spe_result_print prints SQLite's.
 *
 * Credentials come from the URL (http://user:password@host:8123/) or
 * SPE_CLICKHOUSE_USER / SPE_CLICKHOUSE_PASSWORD, and appear in no message.
 * Functions return 0 (or a count) or a negative spe_* code with the reason
 * in spe_ch_errmsg():
 *   -spe_unavailable  the server cannot be reached, the transfer failed or
 *                     timed out;
 *   -spe_bad_input    the server refused a statement (its message follows);
 *   -spe_no_permission  the session may not do it: a write in a readonly
 *                     session, credentials refused;
 *   -spe_cancelled    *opts.cancel was set during a request;
 *   -spe_invalid      a URL that does not parse, or a --cluster the server
 *                     does not know;
 *   -spe_unsupported  the database holds another schema version, or was made
 *                     for another cluster layout; an answer larger than
 *                     spe_ch_opts.max_result_bytes;
 *   -spe_bad_file     a capture is already loaded (see spe_ch_opts.replace);
 *   -spe_nomem.
 */
#ifndef SPE_CLICKHOUSE_H
#define SPE_CLICKHOUSE_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "spe/analysis.h"
#include "spe/row_sink.h"

#ifdef __cplusplus
extern "C" {
#endif

struct spe_ch;

struct spe_ch_opts {
	const char *url;     /* http[s]://[user[:password]@]host[:port]/[?database=DB&setting=value...] */
	const char *cluster; /* local tables on every shard and Distributed tables over them; NULL: one server */
	/*
	 * With cluster: the HTTP port of each server of the cluster, where its
	 * tables are created: "HOST:PORT" entries (HOST as system.clusters'
	 * host_name or host_address; "[IPV6]:PORT"), and ":PORT" for every server
	 * not named, ',' between.  NULL: every server at the URL's port.
	 */
	const char *cluster_http;
	int readonly;        /* a query session: every request carries readonly=1 */
	int replace;         /* the sink loads a capture already loaded in place of the old one, not refusing it */
	long timeout_s;      /* per request; 0: none */
	const volatile sig_atomic_t *cancel; /* a request in flight stops (-spe_cancelled) once *cancel != 0 */
	/*
	 * Queries (spe_ch_print, spe_ch_json_array) read only the captures of
	 * this host (source.host) and/or this source id: every view a statement
	 * reads is that view over those captures.  NULL / 0: every capture.
	 */
	const char *host;
	long long source_id;
	/*
	 * Bytes of one answer held in memory (spe_ch_print, spe_ch_rows_open: an
	 * answer is held whole); a larger one stops the transfer and fails with
	 * -spe_unsupported, saying so.  0: SPE_CH_DEFAULT_MAX_RESULT.
	 */
	size_t max_result_bytes;
};

/* The default of spe_ch_opts.max_result_bytes: 1 GiB. */
#define SPE_CH_DEFAULT_MAX_RESULT ((size_t)1 << 30)

/* The database a URL without ?database= names. */
#define SPE_CH_DEFAULT_DATABASE "spe"

int spe_ch_open(const struct spe_ch_opts *opts, struct spe_ch **out, char *err, size_t errlen);
void spe_ch_close(struct spe_ch *ch);
const char *spe_ch_errmsg(const struct spe_ch *ch);
/* The server and database for messages: "http://host:8123 database spe" (never credentials). */
const char *spe_ch_name(const struct spe_ch *ch);

/*
 * Loads: create the database, tables and views where absent (with the
 * session's cluster: local tables on every server of the cluster, reached
 * over HTTP at the URL's port), or check that those present are this
 * schema version and layout.
 */
int spe_ch_schema_create(struct spe_ch *ch);
/* Readers: 0 when the database holds this schema version, else -spe_unsupported, or a code above. */
int spe_ch_schema_check(struct spe_ch *ch);

/*
 * The ClickHouse row sink: one begin .. commit per capture.  Each capture
 * gets a random 31-bit key (checked unused); its source id is key << 32 and
 * every other id of its rows key << 32 | n, so ids never collide across hosts
 * and each row names its capture.  Rows are buffered per table and sent in
 * large compressed blocks; commit sends the rest, then the source row, which
 * makes the capture visible to every view at once.  A capture whose content
 * digest is already loaded is refused at begin (-spe_bad_file) unless
 * opts.replace.  Free with out->free(out->ctx).
 */
int spe_ch_sink_new(struct spe_ch *ch, struct spe_row_sink *out);
/* 1 when the sink's last capture was refused because it is already loaded (-spe_bad_file). */
int spe_ch_sink_already_loaded(const struct spe_row_sink *sink);
/* The source id the sink's last begin chose (0 before). */
long long spe_ch_sink_source_id(const struct spe_row_sink *sink);

/*
 * Run @p sql (statements separated by ';') and print the rows of each to
 * @p out as spe_result_print does for SQLite: the same text for the same
 * values.  In a readonly session the server refuses statements that write.
 */
int spe_ch_print(struct spe_ch *ch, const char *sql, enum spe_result_format fmt, FILE *out);

/* The rows of one SELECT as a JSON array of objects, the same text spe-query --format=json prints per row. */
int spe_ch_json_array(struct spe_ch *ch, const char *sql, FILE *out);

/*
 * The rows of one SELECT (in the session's scope, as spe_ch_print), for a
 * caller that reads the cells itself (the HTML report): each cell as text
 * in the form SQLite's sqlite3_column_text gives for the same value (floats
 * as "%!.15g"), NULL for SQL NULL.  The whole answer is held (the server
 * sends it once the query ended, so an error is never half a result); the
 * cursor owns it, so other queries may run while it is open.
 */
struct spe_ch_rows;
int spe_ch_rows_open(struct spe_ch *ch, const char *sql, struct spe_ch_rows **out);
int spe_ch_rows_ncols(const struct spe_ch_rows *r);
/* 1 with a row, 0 at the end, negative (-spe_bad_file: not the table announced; -spe_nomem). */
int spe_ch_rows_next(struct spe_ch_rows *r);
/* Column @p col of the current row, valid until the next call; NULL for NULL (or a column out of range). */
const char *spe_ch_rows_text(struct spe_ch_rows *r, int col);
void spe_ch_rows_free(struct spe_ch_rows *r);

/*
 * round(NUM / DEN, digits) in ClickHouse SQL as SQLite shows it, NULL when
 * DEN is 0 or NULL: exact half-up on integers (SCALE "1000": 3 digits).
 * The divisor is never 0, not even under a NULL (ClickHouse computes
 * functions of Nullable values on defaults too), and no if() has a Nullable
 * constant branch (18.16 returns garbage).  The views and the HTML report's
 * ClickHouse statements use it.
 */
#define SPE_CH_ROUNDED(num, den, scale)                                                                   \
	"if(ifNull(" den ", 0) = 0, NULL, intDiv(2 * toInt64(" num ") * " scale " + toInt64(ifNull(" den ", 0)), 2 * " \
	"greatest(toInt64(ifNull(" den ", 0)), 1)) / " scale ")"

/* ---- the schema as text, for docs and tests ----------------------------- */

/* Names of the views (SQLite's views, by the same names), NULL-terminated. */
extern const char *const spe_ch_view_names[];
/*
 * The SELECT of view @p name reading the captures @p sources (an SQL
 * subquery of source ids; NULL: every visible capture, "(SELECT id FROM
 * source)").  Free with free(); NULL for an unknown name or without memory.
 */
char *spe_ch_view_sql(const char *name, const char *sources);

#ifdef __cplusplus
}
#endif

#endif /* SPE_CLICKHOUSE_H */
