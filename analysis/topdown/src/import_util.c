/* SPDX-License-Identifier: Apache-2.0 */
/* Line, field and number helpers for the importers. */
#include "import_util.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void td_lines_begin(struct td_line_iter *it, const char *text, size_t len)
{
	it->p = text;
	it->end = text + len;
	it->no = 0;
}

int td_lines_next(struct td_line_iter *it, struct td_line *line)
{
	if (it->p >= it->end)
		return 0;
	const char *nl = memchr(it->p, '\n', (size_t)(it->end - it->p));
	const char *stop = nl ? nl : it->end;
	line->s = it->p;
	line->len = (size_t)(stop - it->p);
	if (line->len && line->s[line->len - 1] == '\r')
		line->len--;
	line->no = ++it->no;
	it->p = nl ? nl + 1 : it->end;
	return 1;
}

static void trim(const char **s, size_t *len)
{
	while (*len && isspace((unsigned char)**s))
		(*s)++, (*len)--;
	while (*len && isspace((unsigned char)(*s)[*len - 1]))
		(*len)--;
}

int td_split(const char *s, size_t len, char sep, struct td_field *f, int max)
{
	int n = 0;
	size_t i = 0;
	for (;;) {
		size_t j = i;
		while (j < len && s[j] != sep)
			j++;
		if (n < max) {
			f[n].s = s + i;
			f[n].len = j - i;
			trim(&f[n].s, &f[n].len);
			n++;
		}
		if (j >= len)
			break;
		i = j + 1;
	}
	return n;
}

int td_split_ws(const char *s, size_t len, struct td_field *f, int max)
{
	int n = 0;
	size_t i = 0;
	while (i < len) {
		while (i < len && isspace((unsigned char)s[i]))
			i++;
		if (i >= len)
			break;
		size_t j = i;
		while (j < len && !isspace((unsigned char)s[j]))
			j++;
		if (n < max) {
			f[n].s = s + i;
			f[n].len = j - i;
			n++;
		}
		i = j;
	}
	return n;
}

int td_field_is(const struct td_field *f, const char *word)
{
	return f->len == strlen(word) && strncasecmp(f->s, word, f->len) == 0;
}

int td_parse_value(const char *s, size_t len, double *out)
{
	char buf[64];
	trim(&s, &len);
	if (len && s[len - 1] == '%')
		len--;
	trim(&s, &len);
	if (len == 0 || (len == 3 && strncasecmp(s, "nan", 3) == 0) || (len == 4 && strncasecmp(s, "none", 4) == 0)) {
		*out = NAN;
		return 0;
	}
	if (len >= sizeof buf)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	/* "191,6" (locale decimal comma, docs/topdown-formulas.md §7): a lone comma is the decimal point. */
	char *comma = strchr(buf, ',');
	if (comma && !strchr(buf, '.') && !strchr(comma + 1, ','))
		*comma = '.';
	char *end;
	*out = strtod(buf, &end);
	return *end ? -1 : 0;
}

int td_parse_count(const char *s, size_t len, double *out, int *counted)
{
	char buf[64];
	size_t n = 0;
	trim(&s, &len);
	*counted = 1;
	if (len && s[0] == '<') { /* <not counted>, <not supported> */
		*counted = 0;
		*out = 0;
		return 0;
	}
	if (len == 0)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == ',')
			continue; /* thousands separator (-B / the default std output) */
		if (!isdigit((unsigned char)s[i]) && s[i] != '.' && s[i] != 'e' && s[i] != 'E' && s[i] != '+' && s[i] != '-')
			return -1;
		if (n + 1 >= sizeof buf)
			return -1;
		buf[n++] = s[i];
	}
	buf[n] = '\0';
	char *end;
	*out = strtod(buf, &end);
	return (*end || end == buf) ? -1 : 0;
}

int td_is_interval_stamp(const char *s, size_t len)
{
	size_t i = 0;
	while (i < len && isdigit((unsigned char)s[i]))
		i++;
	if (i == 0 || i >= len || s[i] != '.')
		return 0;
	size_t frac = len - i - 1;
	for (size_t j = i + 1; j < len; j++)
		if (!isdigit((unsigned char)s[j]))
			return 0;
	return frac == 9;
}

int td_is_aggr_id(const char *s, size_t len)
{
	if (len >= 4 && strncmp(s, "CPU", 3) == 0) {
		for (size_t i = 3; i < len; i++)
			if (!isdigit((unsigned char)s[i]))
				return 0;
		return 1;
	}
	if (len < 2 || (s[0] != 'S' && s[0] != 'N') || !isdigit((unsigned char)s[1]))
		return 0;
	for (size_t i = 1; i < len; i++)
		if (!isdigit((unsigned char)s[i]) && s[i] != '-' && s[i] != 'D' && s[i] != 'C')
			return 0;
	return 1;
}

enum td_node td_metric_label(const char *s, size_t len, int *percent, struct td_label_seen *seen)
{
	trim(&s, &len);
	int pct = 0;
	if (len && s[0] == '%') {
		s++, len--;
		pct = 1;
	} else if (len >= 16 && strncasecmp(s, "percent of slots", 16) == 0) {
		s += 16, len -= 16;
		pct = 1;
		if (seen)
			seen->arm = 1;
	} else if (len >= 17 && strncasecmp(s, "percent of cycles", 17) == 0) {
		s += 17, len -= 17;
		pct = 1;
	}
	trim(&s, &len);
	enum td_node node = td_node_from_label_n(s, len);
	if (node != TD_NONE && memchr(s, ' ', len))
		pct = 1; /* a perf <= 6.3 label ("bad speculation"): those values were always percent */
	if (node != TD_NONE && seen) {
		if (len > 4 && strncasecmp(s, "tma_", 4) == 0)
			seen->tma = 1;
		else if (memchr(s, ' ', len))
			seen->legacy = 1;
		else if (!seen->tma && !seen->legacy && memchr(s, '_', len))
			seen->arm = 1;
	}
	if (percent)
		*percent = pct;
	return node;
}

int td_parse_metric_value(const char *s, size_t len, int unit_percent, double *out)
{
	trim(&s, &len);
	int own_percent = len && s[len - 1] == '%';
	if (td_parse_value(s, len, out) != 0)
		return -1;
	if (unit_percent || own_percent)
		*out /= 100;
	return 0;
}

/*
 * Event names only one ISA's perf prints (docs/topdown-formulas.md §7, §1, §2, §4):
 * they decide the ISA over metric spellings, which overlap ("Backend_Bound"
 * of perf 5.x Intel metrics looks like an Arm name).
 */
static const char *const intel_event_prefixes[] = {
	"slots", "topdown-", "topdown.", "cpu_core/", "cpu_atom/", "cpu_clk_unhalted", "uops_issued",
	"uops_retired", "idq_uops", "int_misc",
};
static const char *const arm_event_prefixes[] = {
	"stall_slot", "op_retired", "op_spec", "cpu_cycles", "stall_frontend", "stall_backend", "br_mis_pred",
};

static int any_event_with_prefix(const struct td_run *run, const char *const *prefixes, size_t n)
{
	for (size_t i = 0; i < run->n_iv; i++)
		for (size_t e = 0; e < run->iv[i].n_events; e++)
			for (size_t k = 0; k < n; k++) {
				const char *name = run->iv[i].events[e].name;
				size_t pl = strlen(prefixes[k]);
				/* "slots" is a whole name; the others start one */
				if (strcmp(prefixes[k], "slots") == 0 ? strcasecmp(name, "slots") == 0
								     : strncasecmp(name, prefixes[k], pl) == 0)
					return 1;
			}
	return 0;
}

void td_label_finish(struct td_run *run, const struct td_label_seen *seen)
{
	if (!run->isa) {
		if (any_event_with_prefix(run, intel_event_prefixes,
					  sizeof intel_event_prefixes / sizeof intel_event_prefixes[0]))
			td_run_set(&run->isa, "x86_64");
		else if (any_event_with_prefix(run, arm_event_prefixes,
					       sizeof arm_event_prefixes / sizeof arm_event_prefixes[0]))
			td_run_set(&run->isa, "aarch64");
		else if (seen->tma || seen->legacy)
			td_run_set(&run->isa, "x86_64");
		else if (seen->arm)
			td_run_set(&run->isa, "aarch64");
	}
	if (!run->method)
		td_run_set(&run->method, seen->legacy ? "perf_legacy" : "perf_metrics");
}

int td_group_label(const char *s, size_t len, char *scope, size_t cap)
{
	trim(&s, &len);
	if (len < 8 || strncmp(s, "Topdown", 7) != 0)
		return 0;
	const char *open = memchr(s, '(', len);
	if (open) {
		const char *close = memchr(open, ')', len - (size_t)(open - s));
		size_t n = close ? (size_t)(close - open - 1) : 0;
		if (n >= cap)
			n = cap - 1;
		memcpy(scope, open + 1, n);
		scope[n] = '\0';
	} else {
		snprintf(scope, cap, "all");
	}
	return 1;
}

int td_put_value(struct td_run *run, double t, const char *scope, enum td_node node, double v)
{
	struct td_interval *iv = td_run_interval(run, t, scope);
	if (!iv)
		return -td_nomem;
	td_values_set(&iv->values, node, v, 0);
	return 0;
}

int td_put_event(struct td_run *run, double t, const char *scope, const char *name, size_t len, double v,
		 int counted)
{
	char buf[256];
	if (len >= sizeof buf)
		len = sizeof buf - 1;
	memcpy(buf, name, len);
	buf[len] = '\0';
	struct td_interval *iv = td_run_interval(run, t, scope);
	if (!iv)
		return -td_nomem;
	return td_interval_add_event(iv, buf, v, counted);
}
