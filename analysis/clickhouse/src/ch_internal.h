/* SPDX-License-Identifier: Apache-2.0 */
/* Internal: the session, its HTTP requests, and the pieces the schema, sink and views share. */
#ifndef SPE_CH_INTERNAL_H
#define SPE_CH_INTERNAL_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include <curl/curl.h>

#include "spe/clickhouse.h"

/* A growable byte buffer (request bodies, responses). */
struct ch_buf {
	char *p;
	size_t len, cap;
};
/* 0, or -spe_nomem. */
int ch_buf_reserve(struct ch_buf *b, size_t more);
int ch_buf_add(struct ch_buf *b, const void *data, size_t n);
void ch_buf_fini(struct ch_buf *b);

struct spe_ch {
	CURL *curl;
	char *scheme, *host, *port; /* of the URL; the port every server of a cluster answers HTTP on */
	char *user, *password;      /* NULL: none (the server's default user) */
	char *database;
	char *settings;             /* the URL's other parameters, "a=1&b=2" as given */
	char *cluster;
	char *cluster_http;         /* spe_ch_opts.cluster_http, or NULL */
	char *scope;                /* the source ids queries read ("(SELECT id FROM source WHERE ...)"), or NULL */
	int readonly, replace;
	long timeout_s;
	const volatile sig_atomic_t *cancel;
	size_t max_answer;          /* bytes of an answer held whole (spe_ch_opts.max_result_bytes) */
	int too_big;                /* the last answer passed max_answer */
	int release[2];             /* the server's version, major and minor (ch_release.c); [0] 0: not asked yet */
	char name[512];             /* "http://host:port database DB" */
	char err[2048];
	struct ch_buf resp;
};

/* Printf-style message into ch->err; returns @p code. */
int ch_fail(struct spe_ch *ch, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A session with the same credentials, database and settings on @p host at HTTP @p port (a server of the cluster). */
int ch_open_host(const struct spe_ch *proto, const char *host, const char *port, struct spe_ch **out);

/* ---- the cluster's servers over HTTP (ch_cluster_http.c) --------------------- */

struct ch_endpoint {
	char *name, *address; /* system.clusters' host_name and host_address */
	char *port;           /* its HTTP port */
	int given;            /* the port is spe_ch_opts.cluster_http's, not the URL's */
};
/*
 * Every server of the session's cluster (system.clusters) at its HTTP port
 * (spe_ch_opts.cluster_http, else the URL's).  -spe_invalid for a cluster the
 * server does not know, a cluster_http entry that does not parse or names
 * no server of the cluster.
 */
int ch_cluster_endpoints(struct spe_ch *ch, struct ch_endpoint **out, size_t *n);
void ch_endpoints_free(struct ch_endpoint *e, size_t n);

/* Run one statement that returns nothing.  0, -spe_io (transport), -spe_invalid (the server refused it). */
int ch_exec(struct spe_ch *ch, const char *sql);
/* The same outside the session's database (in `system`): CREATE DATABASE before the database exists. */
int ch_exec_server(struct spe_ch *ch, const char *sql);
/*
 * Run one SELECT; its output (FORMAT as the statement says) in ch->resp,
 * complete: the server holds it until the query ended, so an error is never
 * half a result.
 */
int ch_select(struct spe_ch *ch, const char *sql);
int ch_select_server(struct spe_ch *ch, const char *sql); /* outside the session's database */
/* One integer from a one-row, one-column SELECT (0 when there is no row). */
int ch_select_int(struct spe_ch *ch, const char *sql, long long *value);
int ch_select_int_server(struct spe_ch *ch, const char *sql, long long *value);
/*
 * INSERT with the rows of @p body (gzip-compressed): @p insert is
 * "INSERT INTO t(...) FORMAT RowBinary".  With the setting that makes a
 * Distributed table return once every shard has its rows
 * (ch_insert_wait_setting).
 */
int ch_insert(struct spe_ch *ch, const char *insert, const void *body, size_t len);

/* ---- what differs by ClickHouse release (ch_release.c) ----------------------- */

/*
 * The server's release, from SELECT version(), asked once per session:
 * @p major and @p minor ("26.7.2.1": 26, 7).  Every form spekit writes that
 * is not the same for 18.16 and current releases is picked from it, here.
 */
int ch_release(struct spe_ch *ch, int *major, int *minor);
/* "distributed_foreground_insert=1" (23.10 and later), "insert_distributed_sync=1" (its name before). */
int ch_insert_wait_setting(struct spe_ch *ch, const char **setting);
/*
 * The type to declare a column of repeated names as (op classes, paths,
 * mnemonics: few distinct values, many rows): LowCardinality(@p type) from
 * 19.3, @p type itself before (18.16's DDL as it always was); in @p out.
 */
int ch_repeated_name_type(struct spe_ch *ch, const char *type, char *out, size_t size);

/* ---- the schema (ch_schema.c) ------------------------------------------- */

/*
 * A column of a table the sink fills: name, ClickHouse type, and where its
 * value comes from: column `from` of the table's description (spe/tables.h),
 * or one of CH_FROM_*.
 */
struct ch_column {
	const char *name, *type;
	int from;
	int nullable; /* the type is Nullable(...) */
};
#define CH_FROM_SOURCE_ID (-1) /* the capture's source id (ClickHouse's dimension tables carry it) */
#define CH_FROM_SINK (-2)      /* written by the sink itself (source.committed_ns, at commit); last */

/*
 * The ClickHouse tables: one per table of spe/tables.h that ClickHouse
 * stores (the same number; not time_conv), and ClickHouse's own summaries
 * for hot_symbol.  pc_histogram is stored as pc_latency, one row per (PC,
 * latency); _spe_record as the spe_record view's wide rows (ch_widen.c).
 */
enum ch_table_id {
#define SPE_X(name, NAME, flags, key, order, title) CHT_##NAME = SPE_TABLE_##NAME,
	SPE_TABLES(SPE_X)
#undef SPE_X
	CHT_RECORD = SPE_TABLE_RECORD,
	CHT_PC_LATENCY = SPE_TABLE_PC_HISTOGRAM,
	/* the summaries (ch_functions.c) hot_symbol reads instead of the records */
	CHT_FUNCTION_STAT = SPE_TABLE_COUNT,
	CHT_FUNCTION_LATENCY,
	CHT_COUNT
};

/* 1 when ClickHouse has table @p t (every ch_table_id but time_conv's). */
int ch_table_exists(enum ch_table_id t);
/* The storage table of a per-capture table: "_symbol" (Distributed over "_symbol_shard" on a cluster). */
const char *ch_table_name(enum ch_table_id t);
/* "INSERT INTO _t(c1, c2, ...) FORMAT RowBinary" (static storage). */
const char *ch_insert_sql(enum ch_table_id t);
/* The columns of table @p t, in insert order; their count in @p n (0 for a table ClickHouse lacks). */
const struct ch_column *ch_table_columns(enum ch_table_id t, int *n);
/*
 * _spe_record's columns (ch_table_columns(CHT_RECORD)) are the spe_record
 * view's, SPE_RECORD_VIEW_COLUMNS without the event columns: id first, then
 * source_id (Int64), op_class, op and mem_level (Nullable(String)), the rest
 * Nullable(Int64).
 */

struct util_text;
/*
 * The SELECT of the view over per-capture table @p t (spe_record excepted):
 * its rows of the captures in @p set (an SQL subquery of source ids; NULL:
 * every committed capture).
 */
void ch_table_view_sql(struct util_text *s, enum ch_table_id t, const char *set);
/* The table whose view is @p name ("symbol"), or -1. */
int ch_table_by_name(const char *name);

/* ---- the views (ch_views.c) ---------------------------------------------- */

/* CREATE VIEW statements of every view, in dependency order; NULL-terminated, free with ch_free_list. */
char **ch_view_statements(void);
void ch_free_list(char **list);

/* ---- ClickHouse's tokens (ch_tokens.c) --------------------------------------- */

enum ch_token_kind {
	CHK_END,    /* the end of the text */
	CHK_WORD,   /* a bare word: keyword or name */
	CHK_QUOTED, /* a quoted name: "..." or `...` */
	CHK_STRING, /* a string literal: '...' or $tag$...$tag$ */
	CHK_NUMBER,
	CHK_PUNCT,  /* one character: ( ) , . ; and operators */
	CHK_BAD,    /* the rest of the text: unterminated, or a comment releases read differently */
};
struct ch_token {
	enum ch_token_kind kind;
	const char *p; /* in the text */
	size_t n;
};
/* The token at @p s, after whitespace and comments; @p next is set after it. */
struct ch_token ch_token_next(const char *s, const char **next);
/* 1 when @p t is the bare word @p word (any case). */
int ch_token_is(const struct ch_token *t, const char *word);
/* The name a word or quoted name stands for (quotes and escapes removed), malloc'ed; NULL for another kind. */
char *ch_token_name(const struct ch_token *t);
/* Split @p sql into statements at ';' tokens; NULL-terminated, free with ch_free_list. */
char **ch_split_statements(const char *sql);

/* ---- scope (ch_scope.c) ---------------------------------------------------- */

/*
 * @p sql with every per-capture relation it reads -- a view or table view
 * of ours named after FROM, JOIN, a ',' of a FROM list or IN, bare, quoted
 * or qualified by @p database -- replaced by that view's SELECT over the
 * captures in @p set only, into *@p out.  -spe_bad_input, with the reason in
 * @p why, for a statement that could read captures outside the set in a way
 * not replaced: storage tables (_name), another database's tables, table
 * functions other than numbers() and the like, and text whose tokens current
 * and old releases read differently.  -spe_nomem.
 */
int ch_scoped_sql(const char *sql, const char *set, const char *database, char **out, char *why, size_t whylen);

/*
 * Print a server's answer in TabSeparatedWithNamesAndTypes (@p body, @p len
 * bytes, modified in place) as spe_ch_print does: 0, or negative when it is
 * not the table its header announces (the fuzz target's entry).
 */
int ch_answer_print(char *body, size_t len, enum spe_result_format fmt, FILE *out);

/* ---- record rows (ch_widen.c) ---------------------------------------------- */

/* What a record's instruction gives its row: pc, mapping_id, symbol_id (0: NULL). */
struct ch_insn_pc {
	int64_t pc, mapping_id, symbol_id;
	int known;
};
/*
 * Append the wide _spe_record row of the loader's record row @p r, with id
 * @p id, to @p b; @p insns[insn_id - @p base] are the capture's
 * instructions.  0, or -spe_nomem.
 */
int ch_put_record(struct ch_buf *b, int64_t id, const struct spe_row_record *r, const struct ch_insn_pc *insns,
		  size_t n_insns, int64_t base);

/* ---- sending blocks (ch_sender.c) ------------------------------------------ */

/* gzip of @p in into @p out (0, or -spe_nomem). */
int ch_gzip(const struct ch_buf *in, struct ch_buf *out);
/* Compress @p rows (RowBinary of table @p t) into @p gz and INSERT them; the message names the table. */
int ch_send_block(struct spe_ch *ch, enum ch_table_id t, const struct ch_buf *rows, struct ch_buf *gz);

/*
 * The sending thread: blocks are compressed and inserted by a thread with
 * its own session, one in flight.  Errors are reported into @p ch.
 */
struct ch_sender;
int ch_sender_new(struct spe_ch *ch, struct ch_sender **out);
/* Hand over @p rows (emptied: its memory swapped for the last block's); the first failure of an earlier block. */
int ch_sender_put(struct ch_sender *s, enum ch_table_id t, struct ch_buf *rows, struct spe_ch *ch);
/* Wait for the block in flight; the first failure of any block. */
int ch_sender_wait(struct ch_sender *s, struct spe_ch *ch);
/* Wait, and forget failures (a new capture). */
void ch_sender_reset(struct ch_sender *s);
void ch_sender_free(struct ch_sender *s);

#endif
