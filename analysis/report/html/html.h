/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writing HTML text: markup as given, text escaped.  The page is also
 * well-formed XML (the tests read it with an XML parser), so every element
 * is closed and text never carries a raw '<' or '&'.
 */
#ifndef SPE_REPORT_HTML_H
#define SPE_REPORT_HTML_H

#include <stdio.h>

/*
 * Bounds, so that a database holding a huge value cannot make a huge page:
 * every value is cut at UTIL_VISIBLE_MAX characters (util/visible.h) with
 * an ellipsis, counted in @p cut; once the page has REPORT_PAGE_MAX bytes,
 * nothing more is written and @p over is set (the report then fails).
 */
#define REPORT_PAGE_MAX (256ull << 20)
struct html {
	FILE *out;
	unsigned long long written; /* bytes written */
	unsigned long cut;          /* values cut at UTIL_VISIBLE_MAX characters */
	int over;                   /* the page reached REPORT_PAGE_MAX: writing stopped */
};

/*
 * Markup, as is: only the page's own text (literals, its style sheet and
 * script, markup this library built), never a value read from a database or
 * a file.
 */
void report_html_raw(struct html *h, const char *s);
/*
 * Markup from a format: @p fmt is markup, as report_html_raw's; every
 * argument is a value, escaped as text (report_html_text), strings and
 * numbers alike.  So a name from a database can go in an attribute or an
 * element ("<tr title=\"%s\">") and stays text: there is no way to print
 * one as markup through this function.
 */
void report_html_printf(struct html *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * Text (element content or an attribute value in double quotes), escaped;
 * NULL prints as an en dash.  At most UTIL_VISIBLE_MAX characters, then
 * "…" (counted in h->cut).
 */
void report_html_text(struct html *h, const char *s);
/* The same, whole: for the page's own long text (the SQL of its queries), never a database's value. */
void report_html_text_whole(struct html *h, const char *s);
/* Length of the well-formed UTF-8 sequence at @p s, or 0 (overlong forms are not checked): what the page's
   text and its JSON rows pass through whole. */
int report_utf8_len(const unsigned char *s);
void report_html_textf(struct html *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A table cell: <td data-col="COL" class="n">TEXT</td> (@p col may be NULL; @p numeric right-aligns). */
void report_html_td(struct html *h, const char *col, const char *text, int numeric);
/* Open a section: id, heading, and the sentence that says how to read it. */
void report_html_section(struct html *h, const char *id, const char *title, const char *how);

/* A part of a section: <h3 id=ID>TITLE</h3> and its own sentence on how to read it (p.how.sub). */
void report_html_subsection(struct html *h, const char *id, const char *title, const char *how);

/* "#rrggbb" of white blended towards @p rgb by @p t in [0, 1]. */
void report_html_blend(char out[8], unsigned rgb, double t);

/*
 * Shaded backgrounds go through classes of the style sheet, not style
 * attributes (the page's Content-Security-Policy allows its own style
 * sheet only): a shade family's colour blended from white in 20 steps.
 */
enum report_shade {
	REPORT_SHADE_HOT,    /* annotation rows by their share of the latency */
	REPORT_SHADE_LOCAL,  /* NUMA: loads served by the CPU's own node */
	REPORT_SHADE_REMOTE, /* NUMA: by another node */
	REPORT_SHADE_COUNT
};
#define REPORT_SHADE_STEPS 20
/* The class of @p family's shade nearest to blending by @p t in [0, 1] ("sh1-13"). */
void report_html_shade_class(char out[16], enum report_shade family, double t);
/* The style sheet's rules of every shade class. */
void report_html_shade_css(FILE *out);
/* A colour swatch: a small SVG square (SVG's fill, not a style attribute). */
void report_html_swatch(struct html *h, unsigned rgb);

#endif
