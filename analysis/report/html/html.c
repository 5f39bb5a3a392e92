/* SPDX-License-Identifier: Apache-2.0 */
#define _GNU_SOURCE /* asprintf */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "html.h"
#include "util/visible.h"

/* Every byte of the page goes through here: counted, and stopped at REPORT_PAGE_MAX. */
static void emit(struct html *h, const char *s, size_t n)
{
	if (h->over)
		return;
	if (h->written + n > REPORT_PAGE_MAX) {
		h->over = 1;
		return;
	}
	h->written += n;
	fwrite(s, 1, n, h->out);
}

void report_html_raw(struct html *h, const char *s)
{
	emit(h, s, strlen(s));
}

/*
 * One conversion of @p fmt at @p spec (after its '%'), its argument taken
 * from @p ap: strings escaped as text (report_html_text), everything else
 * formatted as printf would.  Returns the character after the conversion.
 */
static const char *one_conversion(struct html *h, const char *spec, va_list *ap)
{
	char sub[32] = "%";
	size_t n = 1;
	const char *p = spec;
	int width = 0, prec = -1, star_w = 0, star_p = 0, longs = 0, size_t_ = 0;
	while (*p && strchr("-+ #0", *p) && n < 8)
		sub[n++] = *p++;
	if (*p == '*') {
		star_w = 1;
		sub[n++] = *p++;
	}
	while (*p >= '0' && *p <= '9' && n < 16)
		sub[n++] = *p++;
	if (*p == '.') {
		sub[n++] = *p++;
		if (*p == '*') {
			star_p = 1;
			sub[n++] = *p++;
		}
		while (*p >= '0' && *p <= '9' && n < 24)
			sub[n++] = *p++;
	}
	for (; *p == 'l' || *p == 'z' || *p == 'h'; p++) {
		longs += *p == 'l';
		size_t_ |= *p == 'z';
		if (n < 28)
			sub[n++] = *p;
	}
	char conv = *p ? *p++ : 0;
	sub[n++] = conv;
	sub[n] = 0;
	if (star_w)
		width = va_arg(*ap, int);
	if (star_p)
		prec = va_arg(*ap, int);
	/* format the one argument (with its '*' values) into a buffer, then write it */
	char buf[512];
	switch (conv) {
	case 's': {
		const char *str = va_arg(*ap, const char *);
		if (star_p && prec >= 0 && str) { /* "%.*s": a bounded piece of a string */
			char *cut = strndup(str, (size_t)prec);
			report_html_text(h, cut ? cut : "");
			free(cut);
		} else {
			report_html_text(h, str);
		}
		return p;
	}
	case 'c':
		buf[0] = (char)va_arg(*ap, int);
		buf[1] = 0;
		report_html_text(h, buf);
		return p;
	default:
		break;
	}
	/* numbers: the conversion with its argument, by type; '*' values passed as given */
#define EMIT(type)                                                                     \
	do {                                                                           \
		type v_ = va_arg(*ap, type);                                           \
		if (star_w && star_p)                                                  \
			snprintf(buf, sizeof buf, sub, width, prec, v_);               \
		else if (star_w)                                                       \
			snprintf(buf, sizeof buf, sub, width, v_);                     \
		else if (star_p)                                                       \
			snprintf(buf, sizeof buf, sub, prec, v_);                      \
		else                                                                   \
			snprintf(buf, sizeof buf, sub, v_);                            \
	} while (0)
	switch (conv) {
	case 'd': case 'i':
		if (size_t_)
			EMIT(ssize_t);
		else if (longs >= 2)
			EMIT(long long);
		else if (longs == 1)
			EMIT(long);
		else
			EMIT(int);
		break;
	case 'u': case 'x': case 'X': case 'o':
		if (size_t_)
			EMIT(size_t);
		else if (longs >= 2)
			EMIT(unsigned long long);
		else if (longs == 1)
			EMIT(unsigned long);
		else
			EMIT(unsigned);
		break;
	case 'f': case 'F': case 'e': case 'E': case 'g': case 'G':
		EMIT(double);
		break;
	case '%':
		strcpy(buf, "%");
		break;
	default: /* a conversion this page never uses: nothing of it is written */
		buf[0] = 0;
		break;
	}
#undef EMIT
	report_html_text(h, buf);
	return p;
}

void report_html_printf(struct html *h, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	const char *p = fmt;
	while (*p) {
		const char *pct = strchr(p, '%');
		if (!pct) {
			emit(h, p, strlen(p));
			break;
		}
		emit(h, p, (size_t)(pct - p));
		p = one_conversion(h, pct + 1, &ap);
	}
	va_end(ap);
}

int report_utf8_len(const unsigned char *s)
{
	int n = s[0] >= 0xf5 ? 0 : s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* @p s escaped as text, at most @p max characters (0: all) then "…"; whether it was cut. */
static int text_escaped(struct html *h, const char *s, size_t max)
{
	if (!s) {
		emit(h, "\xe2\x80\x93", 3); /* U+2013: unknown */
		return 0;
	}
	char buf[512];
	size_t n = 0, chars = 0;
#define PUT(str, len)                                          \
	do {                                                   \
		if (n + (len) > sizeof buf) {                  \
			emit(h, buf, n);                       \
			n = 0;                                 \
		}                                              \
		memcpy(buf + n, (str), (len));                 \
		n += (len);                                    \
	} while (0)
	int cut = 0;
	for (; *s; s++, chars++) {
		if (max && chars == max - 1 && s[1]) { /* room for the ellipsis only, and more follows */
			size_t rest = 0; /* one more character fits when it is the last */
			int len = (unsigned char)*s >= 0x80 ? report_utf8_len((const unsigned char *)s) : 1;
			rest = len ? (size_t)len : 1;
			if (s[rest]) {
				PUT("\xe2\x80\xa6", 3);
				cut = 1;
				break;
			}
		}
		if ((unsigned char)*s >= 0x80) {
			/* a source file in another encoding: its bytes become U+FFFD, the page stays UTF-8 */
			int len = report_utf8_len((const unsigned char *)s);
			if (len) {
				PUT(s, (size_t)len);
				s += len - 1;
			} else {
				PUT("\xef\xbf\xbd", 3);
			}
			continue;
		}
		switch (*s) {
		case '&': PUT("&amp;", 5); break;
		case '<': PUT("&lt;", 4); break;
		case '>': PUT("&gt;", 4); break;
		case '"': PUT("&quot;", 6); break;
		case '\'': PUT("&#39;", 5); break;
		default:
			/* control characters are not allowed in XML 1.0 text */
			if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n')
				PUT("?", 1);
			else
				PUT(s, 1);
		}
	}
#undef PUT
	emit(h, buf, n);
	return cut;
}

void report_html_text(struct html *h, const char *s)
{
	if (text_escaped(h, s, UTIL_VISIBLE_MAX)) {
		h->cut++;
		util_visible_count_cut();
	}
}

void report_html_text_whole(struct html *h, const char *s)
{
	text_escaped(h, s, 0);
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

static const unsigned shade_rgb[REPORT_SHADE_COUNT] = {
	[REPORT_SHADE_HOT] = 0x1e88e5, /* blue, as the share bars: red is kept for slow memory */
	[REPORT_SHADE_LOCAL] = 0x43a047,
	[REPORT_SHADE_REMOTE] = 0x8e24aa,
};

static int shade_step(double t)
{
	if (!(t > 0)) /* NaN too */
		return 0;
	if (t > 1)
		t = 1;
	return (int)(t * REPORT_SHADE_STEPS + 0.5);
}

void report_html_shade_class(char out[16], enum report_shade family, double t)
{
	snprintf(out, 16, "sh%d-%d", (int)family, shade_step(t));
}

void report_html_shade_css(FILE *out)
{
	for (int f = 0; f < REPORT_SHADE_COUNT; f++)
		for (int i = 0; i <= REPORT_SHADE_STEPS; i++) {
			char c[8];
			report_html_blend(c, shade_rgb[f], (double)i / REPORT_SHADE_STEPS);
			fprintf(out, ".sh%d-%d{background:%s}\n", f, i, c);
		}
}

void report_html_swatch(struct html *h, unsigned rgb)
{
	report_html_printf(h, "<svg class=\"sw\" width=\"10\" height=\"10\" viewBox=\"0 0 10 10\"><rect width=\"10\" "
			      "height=\"10\" rx=\"2\" fill=\"#%06x\"/></svg>",
			   rgb & 0xffffff);
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
