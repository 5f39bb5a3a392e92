/* SPDX-License-Identifier: Apache-2.0 */
/* The splice plan's parser (plan.h; the format: tests/realcap/README.md). */
#include "plan.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOKENS 32
#define MAX_LINE 1024

struct parser {
	struct plan *p;
	const char *name;
	int line;
	char *err;
	size_t errlen;
};

static int bad(struct parser *ps, const char *fmt, ...)
{
	char msg[320];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(ps->err, ps->errlen, "%s:%d: %s", ps->name, ps->line, msg);
	return -1;
}

static int copy(struct parser *ps, char *dst, size_t cap, const char *src, size_t n, const char *what)
{
	if (n == 0)
		return bad(ps, "empty %s", what);
	if (n >= cap)
		return bad(ps, "%s longer than %zu bytes", what, cap - 1);
	memcpy(dst, src, n);
	dst[n] = 0;
	return 0;
}

static int parse_u64(const char *s, uint64_t *v)
{
	if (!*s || *s == '-')
		return -1;
	char *end;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}

static int yes_no(struct parser *ps, const char *s, int *v)
{
	if (!strcmp(s, "yes"))
		*v = 1;
	else if (!strcmp(s, "no"))
		*v = 0;
	else
		return bad(ps, "'%s': expected yes or no", s);
	return 0;
}

static void *append(void *arr, unsigned n, size_t elem)
{
	/* grow by powers of two: capacities 1, 2, 4, ... */
	if (n & (n - 1))
		return arr;
	void *q = realloc(arr, (n ? 2 * n : 1) * elem);
	if (!q) {
		perror("spe-splice: realloc");
		exit(70);
	}
	return q;
}

/* "NAME(ARGS)" -> ARGS (the text between the first '(' and the last ')'). */
static int call_args(struct parser *ps, const char *s, const char *fn, const char **args, size_t *n)
{
	size_t fl = strlen(fn), sl = strlen(s);
	if (strncmp(s, fn, fl) || s[fl] != '(' || sl < fl + 2 || s[sl - 1] != ')')
		return bad(ps, "'%s': expected %s(...)", s, fn);
	*args = s + fl + 1;
	*n = sl - fl - 2;
	return 0;
}

static int parse_event(struct parser *ps, const char *s, size_t n, struct plan_event *ev)
{
	char buf[PLAN_PATH + 2 * PLAN_NAME];
	if (copy(ps, buf, sizeof buf, s, n, "event") < 0)
		return -1;
	memset(ev, 0, sizeof *ev);
	/* an offset after the closing parenthesis (or after a number): +12us, -3ms, +500ns */
	char *close = strrchr(buf, ')');
	char *sign = close ? close + 1 : strpbrk(buf, "+-");
	if (sign && *sign) {
		if (*sign != '+' && *sign != '-')
			return bad(ps, "'%s': unexpected text after the event", buf);
		char *end;
		errno = 0;
		long long v = strtoll(sign + 1, &end, 10);
		long long unit = !strcmp(end, "ns") ? 1 : !strcmp(end, "us") ? 1000 : !strcmp(end, "ms") ? 1000000 : 0;
		if (errno || end == sign + 1 || !unit || v > 1000000000000ll)
			return bad(ps, "'%s': offset must be +N or -N with ns, us or ms", sign);
		ev->delta_ns = (*sign == '-' ? -1 : 1) * v * unit;
		*sign = 0;
	}
	const char *a;
	size_t al;
	static const struct {
		const char *fn;
		enum plan_event_kind kind;
	} kinds[] = { { "start", EV_START }, { "end", EV_END }, { "exec", EV_EXEC }, { "mmap", EV_MMAP } };
	if (isdigit((unsigned char)buf[0])) {
		if (parse_u64(buf, &ev->time) < 0)
			return bad(ps, "'%s': not a time in ns", buf);
		ev->kind = EV_TIME;
		return 0;
	}
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		size_t fl = strlen(kinds[i].fn);
		if (strncmp(buf, kinds[i].fn, fl) || buf[fl] != '(')
			continue;
		if (call_args(ps, buf, kinds[i].fn, &a, &al) < 0)
			return -1;
		ev->kind = kinds[i].kind;
		if (ev->kind == EV_MMAP) {
			const char *comma = memchr(a, ',', al);
			if (!comma)
				return bad(ps, "'%s': expected mmap(TASK,FILE)", buf);
			if (copy(ps, ev->task, sizeof ev->task, a, (size_t)(comma - a), "task name") < 0 ||
			    copy(ps, ev->file, sizeof ev->file, comma + 1, al - (size_t)(comma - a) - 1, "file name") < 0)
				return -1;
		} else if (copy(ps, ev->task, sizeof ev->task, a, al, "task name") < 0) {
			return -1;
		}
		if (!plan_task(ps->p, ev->task))
			return bad(ps, "unknown task '%s' (declare it with a task line first)", ev->task);
		return 0;
	}
	return bad(ps, "'%s': expected start(T), end(T), exec(T), mmap(T,FILE) or a time in ns", buf);
}

static int parse_when(struct parser *ps, const char *s, struct plan_spe *sp)
{
	const char *a;
	size_t al;
	if (!strncmp(s, "at(", 3)) {
		if (call_args(ps, s, "at", &a, &al) < 0 || parse_event(ps, a, al, &sp->from) < 0)
			return -1;
		sp->to = sp->from;
		sp->at = 1;
		return 0;
	}
	if (call_args(ps, s, "between", &a, &al) < 0)
		return bad(ps, "'%s': expected between(EVENT,EVENT) or at(EVENT)", s);
	/* the comma at parenthesis depth 0 splits the two events */
	int depth = 0;
	for (size_t i = 0; i < al; i++) {
		if (a[i] == '(')
			depth++;
		else if (a[i] == ')')
			depth--;
		else if (a[i] == ',' && depth == 0)
			return parse_event(ps, a, i, &sp->from) < 0 ? -1 : parse_event(ps, a + i + 1, al - i - 1, &sp->to);
	}
	return bad(ps, "'%s': between needs two events", s);
}

static int parse_target(struct parser *ps, const char *s, struct plan_target *t)
{
	memset(t, 0, sizeof *t);
	if (!strncmp(s, "0x", 2)) {
		t->kind = TGT_ADDR;
		return parse_u64(s, &t->addr) < 0 ? bad(ps, "'%s': not an address", s) : 0;
	}
	const char *colon = strchr(s, ':');
	if (!colon)
		return bad(ps, "'%s': expected FILE:SYMBOL[+OFF], FILE:NAME@plt, kernel:SYMBOL, perf-map:NAME or 0xADDR", s);
	char name[PLAN_PATH];
	if (copy(ps, name, sizeof name, colon + 1, strlen(colon + 1), "symbol") < 0)
		return -1;
	char *plus = strrchr(name, '+');
	if (plus) {
		if (parse_u64(plus + 1, &t->offset) < 0)
			return bad(ps, "'%s': +OFF must be a number", s);
		*plus = 0;
		if (!name[0])
			return bad(ps, "'%s': empty symbol", s);
	}
	size_t fl = (size_t)(colon - s);
	if (fl == 6 && !strncmp(s, "kernel", 6)) {
		t->kind = TGT_KERNEL;
	} else if (fl == 8 && !strncmp(s, "perf-map", 8)) {
		t->kind = TGT_JIT;
	} else {
		t->kind = TGT_SYMBOL;
		if (copy(ps, t->file, sizeof t->file, s, fl, "file name") < 0)
			return -1;
		size_t nl = strlen(name);
		if (nl > 4 && !strcmp(name + nl - 4, "@plt")) {
			t->kind = TGT_PLT;
			name[nl - 4] = 0;
		}
	}
	strcpy(t->name, name);
	return 0;
}

static int parse_key(struct parser *ps, const char *tok, struct plan_spe *sp)
{
	const char *eq = strchr(tok, '=');
	if (!eq)
		return bad(ps, "'%s': expected key=value", tok);
	size_t kl = (size_t)(eq - tok);
	const char *v = eq + 1;
	uint64_t n;
#define KEY(k) (kl == strlen(k) && !strncmp(tok, k, kl))
	if (KEY("count")) {
		if (parse_u64(v, &n) < 0 || n == 0 || n > 100000)
			return bad(ps, "count=%s: 1 to 100000", v);
		sp->count = (unsigned)n;
	} else if (KEY("cpu")) {
		if (!strcmp(v, "auto"))
			sp->cpu = -1;
		else if (parse_u64(v, &n) < 0 || n > 4095)
			return bad(ps, "cpu=%s: auto or 0 to 4095", v);
		else
			sp->cpu = (int)n;
	} else if (KEY("op")) {
		if (!strcmp(v, "load"))
			sp->op = OP_LOAD;
		else if (!strcmp(v, "store"))
			sp->op = OP_STORE;
		else if (!strcmp(v, "branch"))
			sp->op = OP_BRANCH;
		else if (!strcmp(v, "other"))
			sp->op = OP_OTHER;
		else
			return bad(ps, "op=%s: load, store, branch or other", v);
	} else if (KEY("lat")) {
		if (parse_u64(v, &n) < 0 || n > 4095)
			return bad(ps, "lat=%s: 0 to 4095 cycles", v);
		sp->lat = (unsigned)n;
	} else if (KEY("ev")) {
		char list[128];
		if (copy(ps, list, sizeof list, v, strlen(v), "event list") < 0)
			return -1;
		for (char *save = NULL, *e = strtok_r(list, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
			if (!strcmp(e, "l1d-miss"))
				sp->events |= PEV_L1D_MISS;
			else if (!strcmp(e, "llc-miss"))
				sp->events |= PEV_LLC_MISS;
			else if (!strcmp(e, "tlb-miss"))
				sp->events |= PEV_TLB_MISS;
			else if (!strcmp(e, "mispred"))
				sp->events |= PEV_MISPRED;
			else if (!strcmp(e, "remote"))
				sp->events |= PEV_REMOTE;
			else
				return bad(ps, "ev=%s: events are l1d-miss, llc-miss, tlb-miss, mispred, remote", e);
		}
	} else if (KEY("ctx")) {
		return yes_no(ps, v, &sp->ctx);
	} else if (KEY("el")) {
		if (parse_u64(v, &n) < 0 || n > 2)
			return bad(ps, "el=%s: 0, 1 or 2", v);
		sp->el = (int)n;
	} else if (KEY("va")) {
		if (parse_u64(v, &sp->va) < 0)
			return bad(ps, "va=%s: not an address", v);
	} else {
		return bad(ps, "unknown key '%.*s' (count, cpu, op, lat, ev, ctx, el, va)", (int)kl, tok);
	}
#undef KEY
	return 0;
}

static int parse_ref(struct parser *ps, const char *s, struct plan_task *t)
{
	const char *colon = strchr(s, ':');
	if (!colon)
		return bad(ps, "'%s': expected comm:NAME[#N], child:TASK[#N], thread:TASK[#N] or tid:N", s);
	size_t kl = (size_t)(colon - s);
	const char *v = colon + 1;
	if (kl == 3 && !strncmp(s, "tid", 3)) {
		uint64_t n;
		if (parse_u64(v, &n) < 0 || n > UINT32_MAX)
			return bad(ps, "'%s': not a tid", s);
		t->ref = REF_TID;
		t->tid = (uint32_t)n;
		return 0;
	}
	if (kl == 4 && !strncmp(s, "comm", 4))
		t->ref = REF_COMM;
	else if (kl == 5 && !strncmp(s, "child", 5))
		t->ref = REF_CHILD;
	else if (kl == 6 && !strncmp(s, "thread", 6))
		t->ref = REF_THREAD;
	else
		return bad(ps, "'%.*s': a task is comm:, child:, thread: or tid:", (int)kl, s);
	const char *hash = strrchr(v, '#');
	size_t vl = hash ? (size_t)(hash - v) : strlen(v);
	t->nth = 1;
	if (hash) {
		uint64_t n;
		if (parse_u64(hash + 1, &n) < 0 || n == 0 || n > 100000)
			return bad(ps, "'%s': #N counts from 1", s);
		t->nth = (unsigned)n;
	}
	if (copy(ps, t->arg, sizeof t->arg, v, vl, "name") < 0)
		return -1;
	if (t->ref != REF_COMM && !plan_task(ps->p, t->arg))
		return bad(ps, "unknown parent task '%s'", t->arg);
	return 0;
}

static int hex_id(struct parser *ps, const char *s, struct plan_build_id *b)
{
	size_t n = strlen(s);
	if (n % 2 || n == 0 || n > 40)
		return bad(ps, "'%s': a build-id is 1 to 20 bytes of hex", s);
	for (size_t i = 0; i < n; i += 2) {
		if (!isxdigit((unsigned char)s[i]) || !isxdigit((unsigned char)s[i + 1]))
			return bad(ps, "'%s': not hex", s);
		char two[3] = { s[i], s[i + 1], 0 };
		b->id[i / 2] = (uint8_t)strtoul(two, NULL, 16);
	}
	b->size = (uint8_t)(n / 2);
	return 0;
}

static int parse_line(struct parser *ps, char **tok, int n)
{
	struct plan *p = ps->p;
	const char *kw = tok[0];
	uint64_t v;
	if (!strcmp(kw, "midr") || !strcmp(kw, "pmu-type") || !strcmp(kw, "timer-hz")) {
		if (n != 2 || parse_u64(tok[1], &v) < 0)
			return bad(ps, "%s takes one number", kw);
		if (!strcmp(kw, "midr"))
			p->midr = v;
		else if (!strcmp(kw, "pmu-type")) {
			if (v < 6 || v > 0xffff)
				return bad(ps, "pmu-type %llu: 6 to 65535 (0-5 are perf's fixed types)", (unsigned long long)v);
			p->pmu_type = (uint32_t)v;
		} else {
			if (v < 1000 || v > 10000000000ull)
				return bad(ps, "timer-hz %llu: 1 kHz to 10 GHz", (unsigned long long)v);
			p->timer_hz = v;
		}
		return 0;
	}
	if (!strcmp(kw, "itrace-start")) {
		if (n != 2)
			return bad(ps, "itrace-start yes|no");
		return yes_no(ps, tok[1], &p->itrace_start);
	}
	if (!strcmp(kw, "build-ids")) {
		if (n != 2 || (strcmp(tok[1], "header") && strcmp(tok[1], "none")))
			return bad(ps, "build-ids header|none");
		p->header_build_ids = !strcmp(tok[1], "header");
		return 0;
	}
	if (!strcmp(kw, "kallsyms") || !strcmp(kw, "perf-map")) {
		if (n != 2)
			return bad(ps, "%s takes one file", kw);
		char *dst = !strcmp(kw, "kallsyms") ? p->kallsyms : p->perf_map;
		return copy(ps, dst, PLAN_PATH, tok[1], strlen(tok[1]), "file name");
	}
	if (!strcmp(kw, "build-id")) {
		if (n != 3)
			return bad(ps, "build-id PATH HEX|none");
		p->build_ids = append(p->build_ids, p->n_build_ids, sizeof *p->build_ids);
		struct plan_build_id *b = &p->build_ids[p->n_build_ids++];
		memset(b, 0, sizeof *b);
		b->line = ps->line;
		if (copy(ps, b->path, sizeof b->path, tok[1], strlen(tok[1]), "path") < 0)
			return -1;
		if (!strcmp(tok[2], "none")) {
			b->none = 1;
			return 0;
		}
		return hex_id(ps, tok[2], b);
	}
	if (!strcmp(kw, "binary")) {
		if (n != 3)
			return bad(ps, "binary PATH FILE");
		p->binaries = append(p->binaries, p->n_binaries, sizeof *p->binaries);
		struct plan_binary *b = &p->binaries[p->n_binaries++];
		memset(b, 0, sizeof *b);
		b->line = ps->line;
		if (copy(ps, b->path, sizeof b->path, tok[1], strlen(tok[1]), "path") < 0)
			return -1;
		return copy(ps, b->file, sizeof b->file, tok[2], strlen(tok[2]), "file");
	}
	if (!strcmp(kw, "task")) {
		if (n != 3)
			return bad(ps, "task NAME REF");
		if (plan_task(p, tok[1]))
			return bad(ps, "task '%s' declared twice", tok[1]);
		struct plan_task t;
		memset(&t, 0, sizeof t);
		t.line = ps->line;
		if (copy(ps, t.name, sizeof t.name, tok[1], strlen(tok[1]), "task name") < 0 || parse_ref(ps, tok[2], &t) < 0)
			return -1;
		p->tasks = append(p->tasks, p->n_tasks, sizeof *p->tasks);
		p->tasks[p->n_tasks++] = t;
		return 0;
	}
	if (!strcmp(kw, "spe")) {
		if (n < 4)
			return bad(ps, "spe TASK WHEN TARGET [key=value...]");
		struct plan_spe sp;
		memset(&sp, 0, sizeof sp);
		sp.line = ps->line;
		sp.count = 1;
		sp.cpu = -1;
		sp.lat = 20;
		sp.ctx = 1;
		sp.el = -1;
		if (copy(ps, sp.task, sizeof sp.task, tok[1], strlen(tok[1]), "task name") < 0)
			return -1;
		if (!plan_task(p, sp.task))
			return bad(ps, "unknown task '%s'", sp.task);
		if (parse_when(ps, tok[2], &sp) < 0 || parse_target(ps, tok[3], &sp.target) < 0)
			return -1;
		for (int i = 4; i < n; i++)
			if (parse_key(ps, tok[i], &sp) < 0)
				return -1;
		p->spes = append(p->spes, p->n_spes, sizeof *p->spes);
		p->spes[p->n_spes++] = sp;
		return 0;
	}
	return bad(ps, "unknown directive '%s'", kw);
}

int plan_parse(struct plan *p, const char *text, size_t len, const char *name, char *err, size_t errlen)
{
	memset(p, 0, sizeof *p);
	p->name = name;
	p->midr = 0x413fd0c1;
	p->timer_hz = 25000000;
	p->itrace_start = 1;
	p->header_build_ids = 1;
	struct parser ps = { p, name, 0, err, errlen };
	size_t pos = 0;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t ll = nl ? (size_t)(nl - (text + pos)) : len - pos;
		ps.line++;
		char line[MAX_LINE];
		if (ll >= sizeof line)
			return bad(&ps, "line longer than %d bytes", MAX_LINE - 1);
		memcpy(line, text + pos, ll);
		line[ll] = 0;
		pos += ll + (nl ? 1 : 0);
		if (memchr(line, 0, ll))
			return bad(&ps, "NUL byte in the line");
		char *tok[MAX_TOKENS];
		int n = 0;
		for (char *save = NULL, *t = strtok_r(line, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
			if (t[0] == '#') /* a comment starts a token */
				break;
			if (n == MAX_TOKENS)
				return bad(&ps, "more than %d words", MAX_TOKENS);
			tok[n++] = t;
		}
		if (n && parse_line(&ps, tok, n) < 0)
			return -1;
	}
	if (p->n_spes == 0) {
		ps.line = 0;
		snprintf(err, errlen, "%s: no spe lines: nothing to add", name);
		return -1;
	}
	return 0;
}

void plan_free(struct plan *p)
{
	free(p->tasks);
	free(p->spes);
	free(p->build_ids);
	free(p->binaries);
	memset(p, 0, sizeof *p);
}

const struct plan_task *plan_task(const struct plan *p, const char *name)
{
	for (unsigned i = 0; i < p->n_tasks; i++)
		if (!strcmp(p->tasks[i].name, name))
			return &p->tasks[i];
	return NULL;
}
