/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every row of a ranked table, once, as JSON in a data block
 * (<script type="application/json" data-table="ID">), for the page's
 * script to sort, filter and page over (html_page.c).  The table's own
 * markup holds the first rows, drawn here in C with their charts and
 * links, so the page reads without its script; the script draws the others
 * from the JSON on demand.
 *
 * A data block is not run, so the Content-Security-Policy has nothing to
 * allow; but the values are the database's (names from binaries), so
 * nothing in them may end the block or the XML: '<', '>' and '&' are
 * written \u003c, \u003e, \u0026, control characters \u00XX, bytes that
 * are not UTF-8 U+FFFD; U+2028/2029 as escapes too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sections.h"
#include "util/visible.h"

void report_rows_open(struct html *h, const char *table_id, int page_rows)
{
	report_html_printf(h, "<script type=\"application/json\" class=\"rows\" data-table=\"%s\" data-page=\"%d\">[",
			   table_id, page_rows);
}

void report_rows_row(struct html *h, size_t r)
{
	report_html_raw(h, r ? "],\n[" : "\n[");
}

void report_rows_close(struct html *h, size_t n)
{
	report_html_raw(h, n ? "]]</script>\n" : "]</script>\n");
}

void report_rows_str(struct html *h, int first, const char *s)
{
	if (!first)
		report_html_raw(h, ",");
	if (!s) {
		report_html_raw(h, "null");
		return;
	}
	char buf[UTIL_VISIBLE_MAX * 6 + 16];
	size_t n = 0, chars = 0;
	buf[n++] = '"';
	for (; *s && n < sizeof buf - 16; chars++) {
		if (chars == UTIL_VISIBLE_MAX - 1 && s[1]) { /* cut as report_html_text cuts */
			memcpy(buf + n, "\xe2\x80\xa6", 3);
			n += 3;
			h->cut++;
			util_visible_count_cut();
			break;
		}
		unsigned char ch = (unsigned char)*s;
		if (ch >= 0x80) {
			int len = report_utf8_len((const unsigned char *)s);
			if (!len) {
				n += (size_t)snprintf(buf + n, 8, "\\ufffd");
				s++;
			} else if (len == 3 && ch == 0xe2 && (unsigned char)s[1] == 0x80 &&
				   ((unsigned char)s[2] == 0xa8 || (unsigned char)s[2] == 0xa9)) {
				n += (size_t)snprintf(buf + n, 8, "\\u%04x", 0x2000 + ((unsigned char)s[2] - 0x80));
				s += 3;
			} else {
				memcpy(buf + n, s, (size_t)len);
				n += (size_t)len;
				s += len;
			}
			continue;
		}
		if (ch < 0x20 || ch == '<' || ch == '>' || ch == '&' || ch == 0x7f)
			n += (size_t)snprintf(buf + n, 8, "\\u%04x", ch);
		else if (ch == '"' || ch == '\\') {
			buf[n++] = '\\';
			buf[n++] = (char)ch;
		} else {
			buf[n++] = (char)ch;
		}
		s++;
	}
	buf[n++] = '"';
	buf[n] = 0;
	report_html_raw(h, buf);
}

/* Whether @p s is a JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int json_number(const char *s)
{
	const char *p = s;
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return 0;
	if (*p == '.') {
		if (!(*++p >= '0' && *p <= '9'))
			return 0;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!(*p >= '0' && *p <= '9'))
			return 0;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return !*p && p - s < 40;
}

void report_rows_num(struct html *h, int first, const char *s)
{
	if (s && json_number(s)) {
		if (!first)
			report_html_raw(h, ",");
		report_html_raw(h, s);
	} else {
		report_rows_str(h, first, s); /* NULL, or text where a number was expected: a string, never markup */
	}
}

/* "19,955" */
void report_thousands(char *out, size_t size, long long v)
{
	char digits[32];
	int n = snprintf(digits, sizeof digits, "%lld", v < 0 ? -v : v), o = 0;
	if (v < 0 && o < (int)size - 1)
		out[o++] = '-';
	for (int i = 0; i < n && o < (int)size - 1; i++) {
		if (i && (n - i) % 3 == 0 && o < (int)size - 2)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = 0;
}

void report_rows_int(struct html *h, int first, long long v)
{
	char buf[32];
	snprintf(buf, sizeof buf, first ? "%lld" : ",%lld", v);
	report_html_raw(h, buf);
}

void report_rows_more(struct html *h, const char *table_id, size_t shown, size_t embedded, size_t total,
		      double share_left, double share_absent, const char *noun, const char *view)
{
	report_html_printf(h, "<p class=\"more\" data-table=\"%s\" data-noun=\"%s\" data-absent=\"%zu\" "
			      "data-absent-share=\"%.4f\" data-view=\"%s\">",
			   table_id, noun, total - embedded, share_absent, view);
	char count[32], reach[32], text[640];
	if (total > shown) {
		report_thousands(count, sizeof count, (long long)(total - shown));
		int n = snprintf(text, sizeof text, "%s more %s", count, noun);
		if (share_left >= 0)
			n += snprintf(text + n, sizeof text - (size_t)n, ", %.1f %% of the latency", share_left);
		if (total <= embedded) {
			snprintf(text + n, sizeof text - (size_t)n, ", not drawn above (the search box, the column headings "
				 "and the pages reach every row).");
		} else {
			report_thousands(reach, sizeof reach, (long long)(embedded > shown ? embedded - shown : 0));
			report_thousands(count, sizeof count, (long long)(total - embedded));
			snprintf(text + n, sizeof text - (size_t)n,
				 ", not drawn above; the search box, the column headings and the pages reach %s of them; %s "
				 "(%.1f %% of the latency) are not in this page, which holds at most %zu rows of this table: "
				 "spe-query \"SELECT * FROM %s\" lists them.",
				 reach, count, share_absent, embedded, view);
		}
		report_html_text_whole(h, text);
	}
	report_html_raw(h, "</p>\n");
}

