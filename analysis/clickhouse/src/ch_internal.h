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
	char *scope;                /* the source ids queries read ("(SELECT id FROM source WHERE ...)"), or NULL */
	int readonly, replace;
	long timeout_s;
	const volatile sig_atomic_t *cancel;
	char name[512];             /* "http://host:port database DB" */
	char err[2048];
	struct ch_buf resp;
};

/* Printf-style message into ch->err; returns @p code. */
int ch_fail(struct spe_ch *ch, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A session with the same credentials, database, port and settings on @p host (a shard of the cluster). */
int ch_open_host(const struct spe_ch *proto, const char *host, struct spe_ch **out);

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
 * "INSERT INTO t(...) FORMAT RowBinary".  With insert_distributed_sync=1, so
 * a Distributed table returns once every shard has its rows.
 */
int ch_insert(struct spe_ch *ch, const char *insert, const void *body, size_t len);

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

/* ---- scope (ch_scope.c) ---------------------------------------------------- */

/*
 * @p sql with every view it reads FROM or JOINs (hot_symbol, symbol, ...)
 * replaced by that view's SELECT over the captures in @p set only.  NULL
 * without memory.
 */
char *ch_scoped_sql(const char *sql, const char *set);

/* Split @p sql into statements at ';' outside quotes and comments; NULL-terminated, free with ch_free_list. */
char **ch_split_statements(const char *sql);

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
