/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Text for a terminal: a value from a database or a file (a name, a path, a
 * source line) shown as what it is, never as commands to the terminal.  A
 * name holding ESC sequences could otherwise set the window title, clear
 * the screen or move the cursor, and a newline could fake a row of the
 * report.  Every text printer (spe-report's text, --annotate, --diff,
 * --cross-isa, spe-query's table) writes values through these calls; CSV
 * and JSON keep their own quoting and escapes (util/json.h).
 *
 * The visible form of a byte string:
 *  - newline, carriage return and tab as \n, \r and \t (a tab is kept as it
 *    is with UTIL_VISIBLE_TABS: source lines, whose tabs the printer expands);
 *  - every other C0 control (0x00-0x1f) and DEL (0x7f) as \xNN;
 *  - well-formed UTF-8 as it is, except the C1 controls U+0080-U+009F
 *    (C2 80 .. C2 9F; a terminal may take 0x9b as CSI) as \xc2\xNN, and
 *    the bidirectional overrides and isolates (U+202A-U+202E,
 *    U+2066-U+2069) and the line and paragraph separators (U+2028,
 *    U+2029) as \u202e and so on: they reorder or break what is shown;
 *  - every byte that is not part of well-formed UTF-8 (a stray
 *    continuation byte, a truncated or overlong sequence, a surrogate, a
 *    code point above U+10FFFF) as \xNN.
 * A backslash already in the value is shown as it is, so a name that reads
 * "\x1b" in the output may hold those four characters or one escape byte:
 * spe-query's CSV or JSON output tells them apart.
 *
 * Columns: every character of the visible form counts as one (wide CJK
 * characters are not measured), so aligned tables pad on that count.
 *
 * Length: a value of more than @p max columns (visible form) is cut at
 * @p max columns and ends in "…" (U+2026); each cut is counted in a
 * process-wide counter (util_visible_cuts) the command reports.
 * UTIL_VISIBLE_MAX is the length spe-report uses.
 */
#ifndef SPE_UTIL_VISIBLE_H
#define SPE_UTIL_VISIBLE_H

#include <stddef.h>
#include <stdio.h>

#define UTIL_VISIBLE_TABS 1u      /* a tab stays a tab (the caller expands it) */
#define UTIL_VISIBLE_UNCOUNTED 2u /* a cut to fit a narrow column: shown by its "…", not counted */

/* The longest value spe-report's text and page show, in columns; longer ones are cut with "…". */
#define UTIL_VISIBLE_MAX 4096

/*
 * The visible form of @p s (NULL: "") cut at @p max columns (0: no cut), as
 * a string the caller frees; NULL without memory.
 */
char *util_visible(const char *s, unsigned flags, size_t max);

/* The columns util_visible(@p s, @p flags, @p max) would take. */
size_t util_visible_columns(const char *s, unsigned flags, size_t max);

/*
 * Write the visible form of @p s cut at @p max columns to @p out, padded
 * with spaces to @p width columns: on the right when @p width > 0 (as
 * "%-*s"), on the left when negative (as "%*s", right-aligned); 0: no
 * padding.  Returns the columns written.
 */
size_t util_visible_put(FILE *out, const char *s, unsigned flags, size_t max, int width);

/* How many values the calls above have cut since the program started. */
unsigned long util_visible_cuts(void);

/* Count one cut made elsewhere (the HTML page cuts its values at UTIL_VISIBLE_MAX too). */
void util_visible_count_cut(void);

#endif
