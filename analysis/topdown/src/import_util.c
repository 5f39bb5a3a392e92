/* SPDX-License-Identifier: Apache-2.0 */
/* Line, field and number helpers for the importers. */
#include "import_util.h"

#include "topdown/event_name.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void td_lines_begin(struct td_line_iter *it, const char *text, size_t len, long line0)
{
	it->p = text;
	it->end = text + len;
	it->no = line0;
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
		else if (td_node_label_is_amd(s, len))
			seen->amd = 1;
		else if (memchr(s, '_', len))
			seen->bare = 1; /* Arm's and AMD's perf share these names */
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
 * of perf 5.x Intel metrics looks like an Arm name; AMD and Arm share
 * "frontend_bound").  Matched on the event without PMU and modifiers.
 */
static const char *const intel_event_prefixes[] = {
	"topdown-", "topdown.", "topdown_", "cpu_clk_unhalted", "uops_issued", "uops_retired", "idq_uops", "int_misc",
};
static const char *const arm_event_prefixes[] = { "stall_slot", "stall_frontend", "stall_backend" };
static const char *const arm_event_names[] = { "op_retired", "op_spec", "cpu_cycles", "br_mis_pred" };

static int event_is(const char *name, const char *const *prefixes, size_t n)
{
	char base[128], pmu[64];
	td_event_base(name, base, sizeof base, pmu, sizeof pmu);
	if (td_event_hybrid_pmu(name, strlen(name)))
		return prefixes == intel_event_prefixes;
	if (prefixes == intel_event_prefixes && strcmp(base, "slots") == 0)
		return 1;
	for (size_t k = 0; k < n; k++)
		if (strncmp(base, prefixes[k], strlen(prefixes[k])) == 0)
			return 1;
	return 0;
}

static int any_event(const struct td_run *run, int (*pred)(const char *))
{
	for (size_t i = 0; i < run->n_iv; i++)
		for (size_t e = 0; e < run->iv[i].n_events; e++)
			if (pred(run->iv[i].events[e].name))
				return 1;
	return 0;
}

static int intel_event(const char *name)
{
	return event_is(name, intel_event_prefixes, sizeof intel_event_prefixes / sizeof intel_event_prefixes[0]);
}

static int arm_event(const char *name)
{
	char base[128];
	td_event_base(name, base, sizeof base, NULL, 0);
	for (size_t k = 0; k < sizeof arm_event_names / sizeof arm_event_names[0]; k++)
		if (strcmp(base, arm_event_names[k]) == 0)
			return 1;
	return event_is(name, arm_event_prefixes, sizeof arm_event_prefixes / sizeof arm_event_prefixes[0]);
}

int td_event_is_formula_input(const char *name)
{
	return intel_event(name) || arm_event(name) || td_event_is_amd(name);
}

void td_label_finish(struct td_run *run, const struct td_label_seen *seen)
{
	int amd = any_event(run, td_event_is_amd) || seen->amd;
	if (!run->isa) {
		if (amd || any_event(run, intel_event))
			td_run_set(&run->isa, "x86_64");
		else if (any_event(run, arm_event))
			td_run_set(&run->isa, "aarch64");
		else if (seen->tma || seen->legacy)
			td_run_set(&run->isa, "x86_64");
		else if (seen->arm)
			td_run_set(&run->isa, "aarch64");
		/* bare level 1 names alone: Arm's or AMD's perf, so the ISA stays unknown */
	}
	if (amd && !run->cpu)
		td_run_set(&run->cpu, "amd");
	if (!run->method)
		td_run_set(&run->method, amd ? "amd_pipeline" : seen->legacy ? "perf_legacy" : "perf_metrics");
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

int td_put_value(struct td_run *run, long line, double t, const char *scope, enum td_node node, double v,
		 struct td_diag *diag)
{
	struct td_interval *iv = td_run_interval(run, t, scope);
	if (!iv)
		return -spe_nomem;
	struct td_values *vals = &iv->values;
	if (node >= 0 && node < TD_NODE_COUNT && vals->set[node]) {
		double old = vals->frac[node];
		if (old == v || (isnan(old) && isnan(v)))
			return 0;
		return td_fail(diag, spe_bad_input, line,
			       "a second %s value (%g%%) for scope %s in the same run; the first (%g%%) is on line %ld. "
			       "A file with several perf stat runs needs each run's \"Performance counter stats\" line",
			       td_node_name(node), 100 * v, iv->scope, 100 * old, vals->line[node]);
	}
	td_values_set(vals, node, v, 0);
	if (node >= 0 && node < TD_NODE_COUNT)
		vals->line[node] = line;
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
	const char *pmu = td_event_hybrid_pmu(buf, len);
	struct td_interval *iv = td_run_interval(run, t, pmu ? pmu : scope);
	if (!iv)
		return -spe_nomem;
	return td_interval_add_event(iv, buf, v, counted);
}

/* The next word from *p (after white space) into *word, advancing past it.  Its length. */
static size_t next_word(const char **p, const char *end, const char **word)
{
	while (*p < end && isspace((unsigned char)**p))
		(*p)++;
	*word = *p;
	while (*p < end && !isspace((unsigned char)**p))
		(*p)++;
	return (size_t)(*p - *word);
}

int td_is_tool_prompt(const char *s, size_t len)
{
	const char *end = s + len, *p = s;
	while (p < end && isspace((unsigned char)*p))
		p++;
	if (p < end && (*p == '$' || *p == '%' || *p == '#')) {
		p++;
	} else {
		/* "user@host:~# " or "[me@box b]$ " within the first columns */
		const char *q = NULL;
		for (const char *c = p; c + 1 < end && c < p + 64; c++)
			if ((*c == '$' || *c == '#') && c[1] == ' ' && c > p && (c[-1] == ']' || c[-1] == '~' || c[-1] == ':')) {
				q = c;
				break;
			}
		if (!q)
			return 0;
		p = q + 1;
	}
	/* the tool within the next few words (after sudo, taskset -c N, VAR=value) */
	for (int w = 0; w < 5 && p < end; w++) {
		const char *word;
		size_t n = next_word(&p, end, &word);
		if (!n)
			break;
		const char *base = word;
		for (const char *c = word; c < word + n; c++)
			if (*c == '/')
				base = c + 1;
		size_t bl = (size_t)(word + n - base);
		if (bl >= 4 && strncmp(base, "perf", 4) == 0 && (bl == 4 || base[4] == '_' || base[4] == '.')) {
			const char *stat;
			size_t sl = next_word(&p, end, &stat);
			return sl == 4 && strncmp(stat, "stat", 4) == 0;
		}
		if ((bl >= 6 && strncmp(base, "toplev", 6) == 0) || (bl >= 12 && strncmp(base, "topdown-tool", 12) == 0) ||
		    (bl >= 12 && strncmp(base, "topdown_tool", 12) == 0))
			return 1;
	}
	return 0;
}

int td_toplev_version_line(const char *s, size_t len, struct td_run *run)
{
	/* "# 4.0-full on Intel(R) Core(TM) i7-8550U CPU @ 1.80GHz" [optional " [skl]" or " [icx/icelake]"] */
	const char *end = s + len, *p = s;
	while (p < end && isspace((unsigned char)*p))
		p++;
	if (p + 2 >= end || p[0] != '#' || p[1] != ' ' || !isdigit((unsigned char)p[2]))
		return 0;
	const char *on = NULL;
	for (const char *c = p; c + 4 <= end; c++)
		if (memcmp(c, " on ", 4) == 0) {
			on = c;
			break;
		}
	if (!on || !memchr(p, '-', (size_t)(on - p)))
		return 0; /* "# 4.0-full on ...": a version with a dash, then "on" */
	const char *open = NULL, *close = NULL;
	for (const char *c = end; c-- > on;) {
		if (*c == ']' && !close)
			close = c;
		else if (*c == '[' && close) {
			open = c;
			break;
		}
	}
	if (open && close && !run->cpu) {
		const char *name = open + 1;
		for (const char *c = open + 1; c < close; c++)
			if (*c == '/')
				name = c + 1;
		char buf[40];
		snprintf(buf, sizeof buf, "%.*s", (int)(close - name), name);
		td_run_set(&run->cpu, buf);
	}
	return 1;
}
