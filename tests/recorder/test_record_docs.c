/* SPDX-License-Identifier: Apache-2.0 */
/*
 * docs/spe-record-messages.md lists every message spe-record's recording code can
 * print.  The messages are taken from the sources: the format string of each
 * fprintf(stderr, ...), usage_error(...), set_err(..., FMT, ...) and
 * snprintf(err..., FMT, ...) call (adjacent literals joined, PROG read as
 * "spe-record").  Each run of fixed text between conversions that is at least
 * MIN_FRAGMENT characters long must appear in that page (whitespace
 * collapsed), so an example with values filled in documents it.
 *   test_record_docs SOURCE_ROOT
 */
#include "check.h"
#include "text_file.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIN_FRAGMENT 10

static const char *const sources[] = { "cli/cmd_record.c", "cli/common/record_run.c", "cli/common/cli_options.c",
				       "recorder/src/live.c", "recorder/src/replay.c", "recorder/src/rec_output.c" };

/* The calls whose format argument is a message, and how many arguments precede it. */
static const struct {
	const char *call;
	int skip_args;
} calls[] = {
	{ "fprintf(stderr,", 0 }, { "usage_error(", 0 }, { "set_err(", 3 }, { "snprintf(err,", 1 },
	{ "snprintf(o->errmsg,", 1 },
};

/* Collapse every run of whitespace to one space, in place. */
static void collapse(char *s)
{
	char *d = s;
	for (const char *p = s; *p; p++) {
		if (isspace((unsigned char)*p)) {
			if (d > s && d[-1] != ' ')
				*d++ = ' ';
		} else {
			*d++ = *p;
		}
	}
	*d = 0;
}

/*
 * From @p p (just after the call's opening text), skip @p skip top-level
 * arguments, then join the string literals (and PROG) that form the next
 * one into @p out.  Returns 0 when that argument is no literal.
 */
static int format_arg(const char *p, int skip, char *out, size_t cap)
{
	int depth = 0;
	while (skip > 0 && *p) {
		if (*p == '"') { /* a literal among the skipped arguments */
			for (p++; *p && *p != '"'; p++)
				if (*p == '\\' && p[1])
					p++;
		} else if (*p == '(') {
			depth++;
		} else if (*p == ')') {
			if (depth-- == 0)
				return 0;
		} else if (*p == ',' && depth == 0) {
			skip--;
		}
		p++;
	}
	size_t n = 0;
	int any = 0;
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (!strncmp(p, "PROG", 4) && !isalnum((unsigned char)p[4]) && p[4] != '_') {
			n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "spe-record");
			p += 4;
			any = 1;
			continue;
		}
		if (*p != '"')
			break;
		for (p++; *p && *p != '"'; p++) {
			char c = *p;
			if (c == '\\' && p[1]) {
				p++;
				c = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
			}
			if (n + 1 < cap)
				out[n++] = c;
		}
		if (*p)
			p++;
		any = 1;
	}
	out[n < cap ? n : cap - 1] = 0;
	return any;
}

/* Is the conversion at @p p (a '%') complete at the returned pointer? */
static const char *skip_conversion(const char *p)
{
	p++;
	if (*p == '%')
		return p + 1;
	while (*p && strchr("-+ #0123456789.*", *p))
		p++;
	while (*p && strchr("hlLqjzt", *p))
		p++;
	return *p ? p + 1 : p;
}

/* Check each long enough fixed fragment of @p fmt against @p doc; returns the failures. */
static int check_format(const char *file, const char *fmt, const char *doc)
{
	int bad = 0;
	const char *p = fmt;
	if (!strncmp(p, "spe-record: ", 12))
		p += 12; /* the prefix every message has */
	while (*p) {
		const char *end = strchr(p, '%');
		if (!end)
			end = p + strlen(p);
		char frag[1024];
		size_t n = (size_t)(end - p) < sizeof frag - 1 ? (size_t)(end - p) : sizeof frag - 1;
		memcpy(frag, p, n);
		frag[n] = 0;
		collapse(frag);
		/* Trim the separators a fragment shares with its neighbours. */
		char *f = frag;
		while (*f && strchr(" :;,.()'", *f))
			f++;
		size_t len = strlen(f);
		while (len && strchr(" :;,.()'", f[len - 1]))
			f[--len] = 0;
		if (len >= MIN_FRAGMENT && !strstr(doc, f)) {
			printf("  %s: \"%s\": docs/spe-record-messages.md lacks \"%s\"\n", file, fmt, f);
			bad++;
		}
		p = *end ? skip_conversion(end) : end;
	}
	return bad;
}

static const char *root = ".";

TEST(man_page_lists_every_message)
{
	char *doc = test_read_text(root, "docs/spe-record-messages.md", NULL);
	CHECK(doc != NULL);
	if (!doc)
		return;
	collapse(doc);
	int messages = 0, missing = 0;
	for (size_t i = 0; i < sizeof sources / sizeof *sources; i++) {
		char *text = test_read_text(root, sources[i], NULL);
		CHECK(text != NULL);
		for (size_t c = 0; text && c < sizeof calls / sizeof *calls; c++) {
			size_t clen = strlen(calls[c].call);
			for (const char *p = strstr(text, calls[c].call); p; p = strstr(p + clen, calls[c].call)) {
				if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
					continue; /* e.g. vsnprintf(err, ... */
				char fmt[2048];
				if (!format_arg(p + clen, calls[c].skip_args, fmt, sizeof fmt))
					continue;
				messages++;
				missing += check_format(sources[i], fmt, doc);
			}
		}
		free(text);
	}
	printf("  %d message formats, %d fragments missing from docs/spe-record-messages.md\n", messages, missing);
	CHECK(messages > 80); /* the extractor still finds the calls */
	CHECK_INT_EQ(missing, 0);
	free(doc);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		root = argv[1];
	RUN(man_page_lists_every_message);
	return check_summary();
}
