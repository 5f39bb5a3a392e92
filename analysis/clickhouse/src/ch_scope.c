/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Per-host and per-source queries (spe_ch_opts.host, .source_id;
 * docs/scaling-out.md, "Scope").  The views read every committed capture;
 * a scoped session runs each statement with every per-capture relation it
 * reads replaced by that relation's SELECT over the chosen captures, a
 * subquery spekit builds (the view's own SQL with the set of source ids in
 * place of "every committed capture") under the relation's name.
 *
 * What is replaced is found the way the server finds it, not by matching
 * text: the statement is cut into ClickHouse's tokens (ch_tokens.c: no name
 * hides in a comment, a string or a quote), and a relation is a name in a
 * position of ClickHouse's grammar where a table is read -- after FROM, after
 * JOIN (not ARRAY JOIN), after a ',' of a FROM list, after IN (the FROM of
 * EXTRACT(), SUBSTRING(), TRIM() and OVERLAY() reads no table) -- bare or
 * quoted, alone or qualified by the session's database.  Whatever in such a
 * position could read captures and cannot be replaced is refused, never
 * passed on: a storage table (_spe_record ... : every capture, uncommitted
 * rows too), a table of another database than the session's and `system`,
 * a table function other than the generators (numbers() ...), and a FROM or
 * JOIN followed by anything but a name or '('.  So a scoped statement either
 * reads only the chosen captures or is not run.  A column named like a
 * relation where a table is read (`x IN cpu`) is replaced too, and the
 * server then refuses the statement.
 *
 * Not taken: ClickHouse's parameterised views (23.1 and later only, and a
 * view then needs its parameters at every use) and custom settings read by
 * getSetting() (20.x and later, and the server's configuration must allow
 * the prefix); 18.16 has neither.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ch_internal.h"
#include "util/text.h"

/* Words that end a FROM list at their depth (a later ',' separates something else). */
static int ends_from_list(const struct ch_token *t)
{
	static const char *const words[] = { "WHERE",	 "PREWHERE", "GROUP",  "ORDER",	  "LIMIT", "HAVING",
					     "SETTINGS", "FORMAT",   "UNION",  "EXCEPT",  "INTERSECT", "WINDOW",
					     "QUALIFY",	 "ARRAY",  "INTO",	  "SELECT", "WITH",
					     "VALUES",	 NULL };
	for (size_t i = 0; words[i]; i++)
		if (ch_token_is(t, words[i]))
			return 1;
	return 0;
}

/* Words after a relation that are not an alias of it. */
static int not_alias(const struct ch_token *t)
{
	static const char *const words[] = { "AS",	"FINAL", "SAMPLE", "OFFSET", "JOIN",  "ANY",	"ALL",	 "ASOF",
					     "SEMI",	"ANTI",	 "LEFT",   "RIGHT",  "INNER", "FULL",	"OUTER", "CROSS",
					     "GLOBAL",	"LOCAL", "PASTE",  "ON",     "USING", NULL };
	if (t->kind != CHK_WORD)
		return t->kind != CHK_QUOTED;
	if (ends_from_list(t))
		return 1;
	for (size_t i = 0; words[i]; i++)
		if (ch_token_is(t, words[i]))
			return 1;
	return 0;
}

/* Table functions that generate rows and read no table. */
static int generator(const char *name)
{
	static const char *const names[] = { "numbers", "numbers_mt", "zeros", "zeros_mt", "values",
					     "generateRandom", "generate_series", "null", NULL };
	for (size_t i = 0; names[i]; i++)
		if (!strcasecmp(name, names[i]))
			return 1;
	return 0;
}

/* The SELECT of relation @p name over @p set into @p s; 0 when @p name is no per-capture relation of ours. */
static int view_select(struct util_text *s, const char *name, const char *set)
{
	int t = ch_table_by_name(name);
	if (t >= 0) {
		ch_table_view_sql(s, (enum ch_table_id)t, set);
		return 1;
	}
	char *v = spe_ch_view_sql(name, set);
	if (!v)
		return 0;
	util_text_append(s, v);
	free(v);
	return 1;
}

/* Functions whose parentheses hold SQL's FROM between two expressions: EXTRACT(DAY FROM t), TRIM(' ' FROM s) ... */
static int from_function(const struct ch_token *t)
{
	return ch_token_is(t, "EXTRACT") || ch_token_is(t, "SUBSTRING") || ch_token_is(t, "TRIM") ||
	       ch_token_is(t, "OVERLAY");
}

enum position { NOWHERE, TABLE, IN_SET };

#define MAX_DEPTH 256

struct scoper {
	const char *sql, *set, *database;
	struct util_text out;
	const char *copied; /* sql up to here is in out */
	char *why;
	size_t whylen;
	int from_list[MAX_DEPTH]; /* per paren depth: a ',' there starts another relation */
	int from_syntax[MAX_DEPTH]; /* per paren depth: the parentheses of from_function(), FROM reads no table there */
	int depth;
};

static int refuse(struct scoper *s, const char *at, const char *fmt, const char *name)
{
	char msg[256];
	snprintf(msg, sizeof msg, fmt, name);
	snprintf(s->why, s->whylen, "with --host/--source, %s (at offset %zu of the statement)", msg, (size_t)(at - s->sql));
	return -spe_bad_input;
}

/*
 * The relation named at @p t (a word or quoted name) in position @p pos;
 * @p *next is moved past what was read.  Replaced, left, or refused.
 */
static int relation(struct scoper *s, struct ch_token t, enum position pos, const char **next)
{
	char *first = ch_token_name(&t), *db = NULL, *name = first;
	const char *end = *next, *after;
	struct ch_token n = ch_token_next(end, &after);
	if (!first)
		return -spe_nomem;
	if (n.kind == CHK_PUNCT && *n.p == '.') { /* db.name */
		const char *a2;
		struct ch_token t2 = ch_token_next(after, &a2);
		name = ch_token_name(&t2);
		if (!name) {
			free(first);
			return refuse(s, t.p, "%s. is not followed by a name", "a database");
		}
		db = first;
		end = a2;
		n = ch_token_next(end, &after);
	}
	int rc = 0;
	int call = n.kind == CHK_PUNCT && *n.p == '(';
	if (call) { /* a table function after FROM; after IN a function's value (tuple(...)), no table */
		if (pos == TABLE && (db || !generator(name)))
			rc = refuse(s, t.p, "the table function %s() could read outside the chosen captures", name);
		goto out;
	}
	if (db && strcmp(db, s->database)) {
		if (strcmp(db, "system") && strcasecmp(db, "information_schema"))
			rc = refuse(s, t.p, "a table of another database (%s) cannot be scoped", db);
		goto out;
	}
	struct util_text view = { 0 };
	if (!view_select(&view, name, s->set)) {
		util_text_fini(&view);
		if (name[0] == '_')
			rc = refuse(s, t.p,
				    "the storage table %s holds every capture and uncommitted rows: read its view (the name without '_')",
				    name);
		goto out;
	}
	if (view.failed) {
		util_text_fini(&view);
		rc = -spe_nomem;
		goto out;
	}
	util_text_appendf(&s->out, "%.*s(%s)", (int)(t.p - s->copied), s->copied, view.buf);
	if (pos == TABLE && not_alias(&n) && !ch_token_is(&n, "AS"))
		util_text_appendf(&s->out, " AS %s", name); /* columns read as name.col keep working */
	util_text_fini(&view);
	s->copied = end;
out:
	*next = end;
	if (name != first)
		free(name);
	free(first);
	return rc;
}

int ch_scoped_sql(const char *sql, const char *set, const char *database, char **out, char *why, size_t whylen)
{
	struct scoper s = { .sql = sql, .set = set, .database = database, .copied = sql, .why = why, .whylen = whylen };
	*out = NULL;
	enum position pos = NOWHERE;
	struct ch_token prev = { CHK_END, sql, 0 };
	int rc = 0;
	for (const char *p = sql, *next; rc == 0; p = next) {
		struct ch_token t = ch_token_next(p, &next);
		if (t.kind == CHK_END)
			break;
		if (t.kind == CHK_BAD) {
			rc = refuse(&s, t.p, "%s", "an unterminated quote or comment, or a comment inside a comment, cannot be read "
						     "the same way by every ClickHouse release");
			break;
		}
		enum position at = pos;
		pos = NOWHERE;
		if (at != NOWHERE && (t.kind == CHK_WORD || t.kind == CHK_QUOTED)) {
			rc = relation(&s, t, at, &next);
			if (at == TABLE)
				s.from_list[s.depth] = 1;
		} else if (at == TABLE && !(t.kind == CHK_PUNCT && *t.p == '(')) {
			rc = refuse(&s, t.p, "%s", "FROM or JOIN is not followed by a name or a subquery");
		} else if (t.kind == CHK_PUNCT && *t.p == '(') {
			if (at == TABLE)
				s.from_list[s.depth] = 1;
			if (s.depth + 1 >= MAX_DEPTH)
				rc = refuse(&s, t.p, "%s", "parentheses nest too deep");
			else {
				s.from_list[++s.depth] = 0;
				s.from_syntax[s.depth] = from_function(&prev);
			}
		} else if (t.kind == CHK_PUNCT && *t.p == ')') {
			if (s.depth > 0)
				s.depth--;
		} else if (t.kind == CHK_PUNCT && *t.p == ',') {
			if (s.from_list[s.depth])
				pos = TABLE;
		} else if (ch_token_is(&t, "FROM")) {
			if (!s.from_syntax[s.depth])
				pos = TABLE;
		} else if (ch_token_is(&t, "JOIN")) {
			if (!ch_token_is(&prev, "ARRAY"))
				pos = TABLE;
		} else if (ch_token_is(&t, "IN")) {
			pos = IN_SET;
		} else if (ch_token_is(&t, "USING")) {
			/* USING (a, b) ends with its ')': a ',' after it starts another relation; USING a, b lists columns */
			const char *after;
			struct ch_token n = ch_token_next(next, &after);
			if (!(n.kind == CHK_PUNCT && *n.p == '('))
				s.from_list[s.depth] = 0;
		} else if (ends_from_list(&t)) {
			s.from_list[s.depth] = 0;
		}
		prev = t;
	}
	if (rc == 0)
		util_text_append(&s.out, s.copied);
	if (rc == 0 && !util_text_ok(&s.out))
		rc = -spe_nomem;
	if (rc < 0) {
		if (rc == -spe_nomem)
			snprintf(why, whylen, "out of memory");
		util_text_fini(&s.out);
		return rc;
	}
	*out = s.out.buf;
	return 0;
}
