/* SPDX-License-Identifier: Apache-2.0 */
#include "msg_scan.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * snprintf destinations that hold a name, a path or a fragment of one, not
 * a message.  Every other snprintf destination in a scanned file is taken to
 * be a message: a new buffer fails the docs test until it is listed here or
 * documented, which is the safe way round.
 */
static const char *const not_messages[] = { "path", "rel", "out", "t->pmu", "t->cpu_name", "t->cpumask_text",
					    "ver", "cpu", "word", "name", "d->option", "d->text" };

static bool is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Skip a string or char literal starting at *p (the quote); returns the char after it. */
static const char *skip_literal(const char *p)
{
	char q = *p++;
	while (*p && *p != q) {
		if (*p == '\\' && p[1])
			p++;
		p++;
	}
	return *p ? p + 1 : p;
}

/* Skip whitespace and comments. */
static const char *skip_space(const char *p)
{
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			p = e ? e + 2 : p + strlen(p);
		} else if (p[0] == '/' && p[1] == '/') {
			p += strcspn(p, "\n");
		} else {
			return p;
		}
	}
}

/* Append the decoded literal at *p (a '"') to out; returns the char after it. */
static const char *decode_literal(const char *p, char *out, size_t len)
{
	size_t n = strlen(out);
	p++;
	while (*p && *p != '"') {
		char c = *p++;
		if (c == '\\' && *p) {
			char e = *p++;
			c = e == 'n' ? '\n' : e == 't' ? '\t' : e;
		}
		if (n + 1 < len)
			out[n++] = c;
	}
	out[n] = '\0';
	return *p ? p + 1 : p;
}

/*
 * Split the argument list that starts after '(' at @p p: argument k is
 * [start[k], end[k]).  Returns the number of arguments, 0 when unbalanced.
 */
static unsigned split_args(const char *p, const char **start, const char **end, unsigned max)
{
	unsigned n = 0, depth = 0;
	start[0] = p;
	for (; *p; p++) {
		if (*p == '"' || *p == '\'') {
			p = skip_literal(p) - 1;
		} else if (*p == '(' || *p == '[' || *p == '{') {
			depth++;
		} else if ((*p == ')' || *p == ']' || *p == '}') && depth) {
			depth--;
		} else if (*p == ')' || (*p == ',' && !depth)) {
			if (n < max)
				end[n] = p;
			n++;
			if (*p == ')')
				return n <= max ? n : max;
			if (n < max)
				start[n] = p + 1;
		}
	}
	return 0;
}

static unsigned line_of(const char *text, const char *p)
{
	unsigned line = 1;
	for (const char *q = text; q < p; q++)
		line += *q == '\n';
	return line;
}

unsigned msg_scan(const char *text, const char *file, unsigned first_line, const struct msg_call *calls,
		  size_t ncalls, msg_found found, void *ctx)
{
	unsigned count = 0;
	for (size_t c = 0; c < ncalls; c++) {
		size_t nl = strlen(calls[c].name);
		for (const char *p = strstr(text, calls[c].name); p; p = strstr(p + 1, calls[c].name)) {
			if ((p > text && is_ident(p[-1])) || p[nl] != '(')
				continue;
			const char *s[8], *e[8];
			unsigned nargs = split_args(p + nl + 1, s, e, 8);
			if (nargs <= calls[c].arg)
				continue; /* a declaration or a call with the format elsewhere */
			if (calls[c].check_dest) {
				const char *d = skip_space(s[0]);
				size_t dl = (size_t)(e[0] - d);
				while (dl && isspace((unsigned char)d[dl - 1]))
					dl--;
				bool skip = false;
				for (size_t k = 0; k < sizeof not_messages / sizeof not_messages[0]; k++)
					skip |= strlen(not_messages[k]) == dl && !strncmp(not_messages[k], d, dl);
				if (skip)
					continue;
			}
			/* Each run of adjacent literals in the argument is one format. */
			const char *q = s[calls[c].arg], *stop = e[calls[c].arg];
			while (q < stop) {
				if (*q == '\'') {
					q = skip_literal(q);
					continue;
				}
				if (*q != '"') {
					q++;
					continue;
				}
				static char fmt[1024];
				fmt[0] = '\0';
				const char *at = q;
				while (q < stop && *q == '"')
					q = skip_space(decode_literal(q, fmt, sizeof fmt));
				found(fmt, file, first_line - 1 + line_of(text, at), ctx);
				count++;
			}
		}
	}
	return count;
}

unsigned msg_scan_function(const char *text, const char *name, char *out, size_t len)
{
	char sig[128];
	snprintf(sig, sizeof sig, "\nstatic int %s(", name);
	const char *b = strstr(text, sig);
	if (!b)
		return 0;
	b++;
	const char *e = strstr(b, "\n}\n");
	if (!e || (size_t)(e - b) + 3 >= len)
		return 0;
	memcpy(out, b, (size_t)(e - b) + 3);
	out[e - b + 3] = '\0';
	return line_of(text, b);
}

/* Fixed parts of @p format, each trimmed; those without a letter or digit are dropped. */
static unsigned fixed_parts(const char *format, char parts[][256], unsigned max)
{
	unsigned n = 0;
	char cur[256];
	size_t cl = 0;
	for (const char *p = format;; p++) {
		bool conv = *p == '%' && p[1] != '%';
		if (*p == '%' && p[1] == '%') {
			if (cl + 1 < sizeof cur)
				cur[cl++] = '%';
			p++;
			continue;
		}
		if (conv || !*p) {
			cur[cl] = '\0';
			char *a = cur, *z = cur + cl;
			/* leading ": " of a first part follows a PROG macro: not in the docs' text */
			while (*a && (isspace((unsigned char)*a) || (*a == ':' && p == format + cl)))
				a++;
			while (z > a && isspace((unsigned char)z[-1]))
				*--z = '\0';
			bool word = false;
			for (char *w = a; *w; w++)
				word |= isalnum((unsigned char)*w) != 0;
			if (word && n < max)
				snprintf(parts[n++], 256, "%s", a);
			cl = 0;
			if (!*p)
				return n;
			p++;
			while (*p && strchr("-+ #0123456789.*hlzjtL", *p))
				p++;
			if (!*p)
				return n;
			continue;
		}
		if (cl + 1 < sizeof cur)
			cur[cl++] = *p;
	}
}

bool msg_documented(const char *doc, const char *format, bool *checked)
{
	static char parts[32][256];
	unsigned n = fixed_parts(format, parts, 32);
	*checked = n > 0;
	if (!n)
		return true;
	static char line[16384];
	for (const char *l = doc; *l;) {
		size_t ll = strcspn(l, "\n");
		snprintf(line, sizeof line, "%.*s", (int)ll, l);
		const char *p = line;
		unsigned k = 0;
		while (k < n && (p = strstr(p, parts[k])))
			p += strlen(parts[k++]);
		if (k == n)
			return true;
		l += ll + (l[ll] != '\0');
	}
	return false;
}
