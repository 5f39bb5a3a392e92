/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ClickHouse's tokens, as its lexer cuts a statement (ClickHouse's
 * src/Parsers/Lexer.cpp; the SQL reference's "Syntax" page): whitespace and
 * comments between tokens; words; quoted names ("..." and `...`); string
 * literals ('...' and the heredoc $tag$...$tag$ of current releases); numbers;
 * single punctuation characters.  Every byte of a statement belongs to one
 * token or to the space between two, so what the server reads as a name is a
 * name here (ch_scope.c relies on it), and splitting at ';' (ch_split_statements)
 * never cuts inside a string or a comment.
 *
 * Where releases read the same text differently, the text is CHK_BAD rather
 * than guessed: a block comment holding another comment opener (current
 * releases nest block comments, 18.16 ends one at its first closer), and
 * anything unterminated.
 * A '#' starts a comment to the end of the line (current releases; 18.16
 * refuses the character, so its statements never hold one).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ch_internal.h"
#include "util/grow.h"

static int word_char(unsigned char c)
{
	return isalnum(c) || c == '_' || c >= 0x80;
}

/* The end of a quoted token starting at @p p (its quote), NULL when unterminated: \x escapes, a doubled quote is one. */
static const char *quoted_end(const char *p)
{
	char q = *p++;
	for (; *p; p++) {
		if (*p == '\\' && p[1])
			p++;
		else if (*p == q && p[1] == q)
			p++;
		else if (*p == q)
			return p + 1;
	}
	return NULL;
}

/* "$tag$" at @p p: its length, 0 when not a heredoc delimiter. */
static size_t heredoc_tag(const char *p)
{
	if (*p != '$')
		return 0;
	size_t n = 1;
	while (isalnum((unsigned char)p[n]) || p[n] == '_')
		n++;
	return p[n] == '$' ? n + 1 : 0;
}

struct ch_token ch_token_next(const char *s, const char **next)
{
	const char *p = s;
	for (;;) { /* whitespace and comments */
		if (isspace((unsigned char)*p)) {
			p++;
		} else if ((p[0] == '-' && p[1] == '-') || p[0] == '#') {
			p += strcspn(p, "\n");
		} else if (p[0] == '/' && p[1] == '*') {
			const char *end = strstr(p + 2, "*/"), *inner = strstr(p + 2, "/*");
			if (!end || (inner && inner < end)) {
				*next = p + strlen(p);
				return (struct ch_token){ CHK_BAD, p, strlen(p) };
			}
			p = end + 2;
		} else {
			break;
		}
	}
	struct ch_token t = { CHK_PUNCT, p, 1 };
	size_t tag;
	const char *e;
	if (!*p) {
		t = (struct ch_token){ CHK_END, p, 0 };
	} else if (*p == '\'' || *p == '"' || *p == '`') {
		e = quoted_end(p);
		t = e ? (struct ch_token){ *p == '\'' ? CHK_STRING : CHK_QUOTED, p, (size_t)(e - p) }
		      : (struct ch_token){ CHK_BAD, p, strlen(p) };
	} else if ((tag = heredoc_tag(p)) != 0) {
		char delim[256];
		e = NULL;
		if (tag < sizeof delim) {
			memcpy(delim, p, tag);
			delim[tag] = 0;
			e = strstr(p + tag, delim);
		}
		t = e ? (struct ch_token){ CHK_STRING, p, (size_t)(e + tag - p) } : (struct ch_token){ CHK_BAD, p, strlen(p) };
	} else if (isdigit((unsigned char)*p)) {
		e = p;
		/* digits, '.', an exponent's sign before a digit, hex and binary digits (a word
		   glued to a number is one token here, an error for the server) */
		while (word_char((unsigned char)*e) || *e == '.' ||
		       ((*e == '+' || *e == '-') && strchr("eEpP", e[-1]) && isdigit((unsigned char)e[1])))
			e++;
		t = (struct ch_token){ CHK_NUMBER, p, (size_t)(e - p) };
	} else if (word_char((unsigned char)*p)) {
		e = p;
		while (word_char((unsigned char)*e))
			e++;
		t = (struct ch_token){ CHK_WORD, p, (size_t)(e - p) };
	}
	*next = t.p + t.n;
	return t;
}

int ch_token_is(const struct ch_token *t, const char *word)
{
	return t->kind == CHK_WORD && strlen(word) == t->n && !strncasecmp(t->p, word, t->n);
}

char *ch_token_name(const struct ch_token *t)
{
	if (t->kind == CHK_WORD)
		return strndup(t->p, t->n);
	if (t->kind != CHK_QUOTED)
		return NULL;
	char *out = malloc(t->n), *o = out;
	if (!out)
		return NULL;
	char q = t->p[0];
	for (const char *p = t->p + 1; p < t->p + t->n - 1; p++) {
		if (*p == '\\' && p + 1 < t->p + t->n - 1)
			p++;
		else if (*p == q)
			p++; /* the first of a doubled quote */
		*o++ = *p;
	}
	*o = 0;
	return out;
}

char **ch_split_statements(const char *sql)
{
	size_t cap = 8, n = 0;
	char **list = calloc(cap, sizeof *list);
	const char *start = sql, *p = sql;
	while (list) {
		const char *next;
		struct ch_token t = ch_token_next(p, &next);
		int end = t.kind == CHK_END || t.kind == CHK_BAD; /* unterminated: the rest is one statement */
		if (end || (t.kind == CHK_PUNCT && *t.p == ';')) {
			const char *stop = end ? start + strlen(start) : t.p;
			while (start < stop && isspace((unsigned char)*start))
				start++;
			if (stop > start) {
				char **more = util_grow(list, &cap, n + 2, sizeof *list);
				if (!more)
					break;
				list = more;
				if (!(list[n] = strndup(start, (size_t)(stop - start))))
					break;
				list[++n] = NULL;
			}
			if (end)
				return list;
			start = next;
		}
		p = next;
	}
	ch_free_list(list); /* out of memory */
	return NULL;
}
