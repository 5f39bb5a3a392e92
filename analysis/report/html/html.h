/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writing HTML text: markup as given, text escaped.  The page is also
 * well-formed XML (the tests read it with an XML parser), so every element
 * is closed and text never carries a raw '<' or '&'.
 */
#ifndef SPE_REPORT_HTML_H
#define SPE_REPORT_HTML_H

#include <stdio.h>

struct html {
	FILE *out;
};

/* Markup, as is. */
void report_html_raw(struct html *h, const char *s);
void report_html_printf(struct html *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Text (element content or an attribute value in double quotes), escaped; NULL prints as an en dash. */
void report_html_text(struct html *h, const char *s);
void report_html_textf(struct html *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A table cell: <td data-col="COL" class="n">TEXT</td> (@p col may be NULL; @p numeric right-aligns). */
void report_html_td(struct html *h, const char *col, const char *text, int numeric);
/* Open a section: id, heading, and the sentence that says how to read it. */
void report_html_section(struct html *h, const char *id, const char *title, const char *how);

/* A part of a section: <h3 id=ID>TITLE</h3> and its own sentence on how to read it (p.how.sub). */
void report_html_subsection(struct html *h, const char *id, const char *title, const char *how);

/* "#rrggbb" of white blended towards @p rgb by @p t in [0, 1]. */
void report_html_blend(char out[8], unsigned rgb, double t);

#endif
