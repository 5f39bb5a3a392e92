/* SPDX-License-Identifier: Apache-2.0 */
#define _GNU_SOURCE /* asprintf */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "html.h"

void report_html_raw(struct html *h, const char *s)
{
	fputs(s, h->out);
}

void report_html_printf(struct html *h, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(h->out, fmt, ap);
	va_end(ap);
}

/* Length of the well-formed UTF-8 sequence at @p s, or 0 (overlong forms are not checked). */
static int utf8_len(const unsigned char *s)
{
	int n = s[0] >= 0xf5 ? 0 : s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

void report_html_text(struct html *h, const char *s)
{
	if (!s) {
		fputs("\xe2\x80\x93", h->out); /* U+2013: unknown */
		return;
	}
	for (; *s; s++) {
		if ((unsigned char)*s >= 0x80) {
			/* a source file in another encoding: its bytes become U+FFFD, the page stays UTF-8 */
			int n = utf8_len((const unsigned char *)s);
			if (n) {
				fwrite(s, 1, (size_t)n, h->out);
				s += n - 1;
			} else {
				fputs("\xef\xbf\xbd", h->out);
			}
			continue;
		}
		switch (*s) {
		case '&': fputs("&amp;", h->out); break;
		case '<': fputs("&lt;", h->out); break;
		case '>': fputs("&gt;", h->out); break;
		case '"': fputs("&quot;", h->out); break;
		case '\'': fputs("&#39;", h->out); break;
		default:
			/* control characters are not allowed in XML 1.0 text */
			if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n')
				fputc('?', h->out);
			else
				fputc(*s, h->out);
		}
	}
}

void report_html_textf(struct html *h, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) >= 0) {
		report_html_text(h, s);
		free(s);
	}
	va_end(ap);
}

void report_html_td(struct html *h, const char *col, const char *text, int numeric)
{
	report_html_raw(h, "<td");
	if (col) {
		report_html_raw(h, " data-col=\"");
		report_html_text(h, col);
		report_html_raw(h, "\"");
	}
	report_html_raw(h, numeric ? " class=\"n\">" : ">");
	report_html_text(h, text);
	report_html_raw(h, "</td>");
}

/* A heading and its how-to-read sentence: <TAG [id=ID]>TITLE</TAG><p class=CLASS>HOW</p>. */
static void heading(struct html *h, const char *tag, const char *id, const char *title, const char *how,
		    const char *how_class)
{
	if (id)
		report_html_printf(h, "<%s id=\"%s\">", tag, id);
	else
		report_html_printf(h, "<%s>", tag);
	report_html_text(h, title);
	report_html_printf(h, "</%s>\n<p class=\"%s\">", tag, how_class);
	report_html_text(h, how);
	report_html_raw(h, "</p>\n");
}

void report_html_section(struct html *h, const char *id, const char *title, const char *how)
{
	report_html_printf(h, "\n<section id=\"%s\">\n", id);
	heading(h, "h2", NULL, title, how, "how");
}

void report_html_subsection(struct html *h, const char *id, const char *title, const char *how)
{
	report_html_raw(h, "\n");
	heading(h, "h3", id, title, how, "how sub");
}

void report_html_blend(char out[8], unsigned rgb, double t)
{
	if (t < 0)
		t = 0;
	if (t > 1)
		t = 1;
	unsigned c[3] = { rgb >> 16 & 0xff, rgb >> 8 & 0xff, rgb & 0xff };
	for (int i = 0; i < 3; i++)
		c[i] = (unsigned)(255 - (255 - (double)c[i]) * t + 0.5);
	snprintf(out, 8, "#%02x%02x%02x", c[0] & 0xff, c[1] & 0xff, c[2] & 0xff);
}
