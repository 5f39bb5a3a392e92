/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Test helper: the message format strings a C source can print, read from
 * the source itself, so that test_docs.c can check each against the man page
 * without a hand-kept list that could drift.
 */
#ifndef SPE_TEST_MSG_SCAN_H
#define SPE_TEST_MSG_SCAN_H

#include <stdbool.h>
#include <stddef.h>

/* One call whose format argument is a message: "filt_diag_add" and argument 4, ... */
struct msg_call {
	const char *name;
	unsigned arg;      /* 0-based index of the format argument */
	bool check_dest;   /* snprintf: skip when argument 0 is in msg_scan_not_messages */
};

/* Called with each format found (escapes decoded) and where it is. */
typedef void (*msg_found)(const char *format, const char *file, unsigned line, void *ctx);

/*
 * Scan @p text (C source named @p file) for calls listed in @p calls and
 * report every string literal group (adjacent literals concatenated; both
 * arms of a ?: separately) in their format argument.  @p text may be one
 * function's body starting at line @p first_line.  Returns the number of
 * formats reported.
 */
unsigned msg_scan(const char *text, const char *file, unsigned first_line, const struct msg_call *calls,
		  size_t ncalls, msg_found found, void *ctx);

/*
 * The body of "static int NAME(" in @p text (from the signature to the
 * closing brace at column 0), copied into @p out.  Returns the line it
 * starts on, 0 when not found.
 */
unsigned msg_scan_function(const char *text, const char *name, char *out, size_t len);

/*
 * Does one line of @p doc hold the fixed parts of @p format in order?
 * Conversions (%s, %llu, %.*s, ...) match anything; fixed parts without a
 * letter or digit are ignored, as is a leading ':' (after a PROG macro).
 * Sets *checked to false when nothing of the format is fixed text ("%s").
 */
bool msg_documented(const char *doc, const char *format, bool *checked);

#endif
