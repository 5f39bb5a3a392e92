/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Per-host and per-source queries (spe_ch_opts.host, .source_id): the
 * views of the database read every committed capture, and ClickHouse 18.16
 * has no parameterised views, so a scoped session rewrites each statement:
 * a view it reads FROM or JOINs -- the views of ch_views.c and the tables'
 * views of ch_schema.c -- becomes that view's SELECT over the chosen
 * captures, as a subquery under the view's own name.  Only names right
 * after FROM or JOIN (outside quotes and comments) are replaced, so columns
 * named like a table (`symbol`) are left alone.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ch_internal.h"
#include "util/text.h"

/* Words after a table that are not its alias. */
static int is_clause_word(const char *w, size_t n)
{
	static const char *const words[] = { "WHERE",	 "GROUP", "ORDER",  "LIMIT", "JOIN",   "ANY",	  "ALL",
					     "LEFT",	 "RIGHT", "INNER",  "FULL",  "CROSS",  "GLOBAL", "USING",
					     "ON",	 "FORMAT", "UNION", "HAVING", "SETTINGS", "AS",  "PREWHERE",
					     "FINAL",	 "SAMPLE", "ARRAY", "WITH",  "INTO",   NULL };
	for (size_t i = 0; words[i]; i++)
		if (strlen(words[i]) == n && !strncasecmp(w, words[i], n))
			return 1;
	return 0;
}

static int ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The SELECT of view @p name over @p set into @p s; 0 when @p name is no view of ours. */
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

char *ch_scoped_sql(const char *sql, const char *set)
{
	struct util_text out = { 0 };
	const char *p = sql, *copied = sql;
	int after_from = 0; /* the last word was FROM or JOIN */
	while (*p) {
		if (*p == '\'' || *p == '"' || *p == '`') { /* a quoted string or name: as it is */
			char q = *p++;
			while (*p && *p != q)
				p += p[0] == '\\' && p[1] ? 2 : 1;
			p += *p ? 1 : 0;
			after_from = 0;
			continue;
		}
		if (p[0] == '-' && p[1] == '-') {
			p += strcspn(p, "\n");
			continue;
		}
		if (!ident_char(*p) || (p > sql && ident_char(p[-1]))) {
			if (!isspace((unsigned char)*p))
				after_from = 0;
			p++;
			continue;
		}
		const char *w = p;
		while (ident_char(*p))
			p++;
		size_t n = (size_t)(p - w);
		if (after_from && n < 64 && !isdigit((unsigned char)*w)) {
			char name[64];
			memcpy(name, w, n);
			name[n] = 0;
			struct util_text view = { 0 };
			if (view_select(&view, name, set)) {
				/* "(SELECT ...) AS name", or without AS when the query gives an alias */
				const char *next = p + strspn(p, " \t\r\n");
				size_t nn = 0;
				while (ident_char(next[nn]))
					nn++;
				int aliased = nn && !is_clause_word(next, nn);
				util_text_appendf(&out, "%.*s(%s)%s%s", (int)(w - copied), copied, view.buf ? view.buf : "",
					    aliased || (nn == 2 && !strncasecmp(next, "AS", 2)) ? "" : " AS ",
					    aliased || (nn == 2 && !strncasecmp(next, "AS", 2)) ? "" : name);
				copied = p;
			}
			if (view.failed)
				out.failed = 1;
			util_text_fini(&view);
		}
		after_from = (n == 4 && !strncasecmp(w, "FROM", 4)) || (n == 4 && !strncasecmp(w, "JOIN", 4));
	}
	util_text_append(&out, copied);
	if (!util_text_ok(&out)) {
		util_text_fini(&out);
		return NULL;
	}
	return out.buf;
}
