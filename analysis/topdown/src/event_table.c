/* SPDX-License-Identifier: Apache-2.0 */
/* Event name and encoding resolution for the raw-counter formulas. */
#include "topdown/event_table.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "topdown/error.h"
#include "westmere_events.h"

struct event_row {
	const char *name;
	struct td_event_code code;
};

#define INTEL(ev, um, cm, in, ed, an) { TD_ISA_X86, ev, um, cm, in, ed, an }

/*
 * Intel events the level 1 formulas use, Sandy Bridge..Skylake, with the
 * encodings of docs/topdown-formulas.md §2 (kernel aliases S3, skylake pipeline.json S30)
 * and the perf generic names for the fixed counters.  Listed before the
 * Westmere table, so an encoding both know takes the name used here.
 */
static const struct event_row intel_rows[] = {
	{ "CPU_CLK_UNHALTED.THREAD", INTEL(0x3C, 0x00, 0, 0, 0, 0) },
	{ "cycles", INTEL(0x3C, 0x00, 0, 0, 0, 0) },
	{ "cpu-cycles", INTEL(0x3C, 0x00, 0, 0, 0, 0) },
	{ "CPU_CLK_UNHALTED.THREAD_P", INTEL(0x3C, 0x00, 0, 0, 0, 0) },
	{ "CPU_CLK_UNHALTED.THREAD_ANY", INTEL(0x3C, 0x00, 0, 0, 0, 1) },
	{ "UOPS_ISSUED.ANY", INTEL(0x0E, 0x01, 0, 0, 0, 0) },
	/* perf's spelling of libpmc's UOPS_ISSUED.STALLED_CYCLES (docs/topdown-formulas.md §5) */
	{ "UOPS_ISSUED.STALL_CYCLES", INTEL(0x0E, 0x01, 1, 1, 0, 0) },
	{ "UOPS_RETIRED.RETIRE_SLOTS", INTEL(0xC2, 0x02, 0, 0, 0, 0) },
	{ "UOPS_RETIRED.STALL_CYCLES", INTEL(0xC2, 0x01, 1, 1, 0, 0) },
	{ "IDQ_UOPS_NOT_DELIVERED.CORE", INTEL(0x9C, 0x01, 0, 0, 0, 0) },
	/* Skylake+ encoding first; Sandy Bridge..Broadwell (kernel alias) second. */
	{ "INT_MISC.RECOVERY_CYCLES", INTEL(0x0D, 0x01, 0, 0, 0, 0) },
	{ "INT_MISC.RECOVERY_CYCLES", INTEL(0x0D, 0x03, 1, 0, 0, 0) },
	{ "INT_MISC.RECOVERY_CYCLES_ANY", INTEL(0x0D, 0x01, 0, 0, 0, 1) },
	{ "INT_MISC.RECOVERY_CYCLES_ANY", INTEL(0x0D, 0x03, 1, 0, 0, 1) },
	{ "MACHINE_CLEARS.COUNT", INTEL(0xC3, 0x01, 1, 0, 1, 0) },
	{ "CYCLE_ACTIVITY.STALLS_MEM_ANY", INTEL(0xA3, 0x14, 20, 0, 0, 0) },
	{ "CYCLE_ACTIVITY.STALLS_TOTAL", INTEL(0xA3, 0x04, 4, 0, 0, 0) },
	{ "EXE_ACTIVITY.BOUND_ON_STORES", INTEL(0xA6, 0x40, 0, 0, 0, 0) },
};

static const struct event_row westmere_rows[] = {
#define TD_WSM_ROW(name, ev, um, cm, in, ed) { name, INTEL(ev, um, cm, in, ed, 0) },
	TD_WESTMERE_EVENT_LIST(TD_WSM_ROW)
#undef TD_WSM_ROW
};

#define ARM(code) { TD_ISA_ARM, code, 0, 0, 0, 0, 0 }

/* Arm PMUv3 event numbers used by the topdown formulas (docs/topdown-formulas.md §4, S36). */
static const struct event_row arm_rows[] = {
	{ "CPU_CYCLES", ARM(0x0011) },
	{ "cycles", ARM(0x0011) },
	{ "cpu-cycles", ARM(0x0011) },
	{ "BR_MIS_PRED", ARM(0x0010) },
	{ "branch-misses", ARM(0x0010) },
	{ "STALL_FRONTEND", ARM(0x0023) },
	{ "stalled-cycles-frontend", ARM(0x0023) },
	{ "STALL_BACKEND", ARM(0x0024) },
	{ "stalled-cycles-backend", ARM(0x0024) },
	{ "OP_RETIRED", ARM(0x003A) },
	{ "OP_SPEC", ARM(0x003B) },
	{ "STALL", ARM(0x003C) },
	{ "STALL_SLOT_BACKEND", ARM(0x003D) },
	{ "STALL_SLOT_FRONTEND", ARM(0x003E) },
	{ "STALL_SLOT", ARM(0x003F) },
	{ "STALL_FRONTEND_FLUSH", ARM(0x8162) },
	{ "STALL_FRONTEND_MEMBOUND", ARM(0x8158) },
	{ "STALL_FRONTEND_CPUBOUND", ARM(0x8160) },
	{ "STALL_BACKEND_MEMBOUND", ARM(0x8164) },
	{ "STALL_BACKEND_CPUBOUND", ARM(0x816A) },
};

#define N_ROWS(a) (sizeof(a) / sizeof((a)[0]))

size_t td_westmere_event_count(void)
{
	return N_ROWS(westmere_rows);
}

uint64_t td_event_config(const struct td_event_code *c)
{
	if (c->isa == TD_ISA_ARM)
		return c->event;
	return (uint64_t)c->event | (uint64_t)c->umask << 8 | (uint64_t)(c->edge & 1) << 18 |
	       (uint64_t)(c->any & 1) << 21 | (uint64_t)(c->inv & 1) << 23 | (uint64_t)c->cmask << 24;
}

int td_event_code_equal(const struct td_event_code *a, const struct td_event_code *b)
{
	return a->isa == b->isa && td_event_config(a) == td_event_config(b);
}

static const struct event_row *find_by_name(const char *name, size_t len, enum td_isa isa)
{
	const struct event_row *tables[2];
	size_t sizes[2];
	int n = 0;
	if (isa == TD_ISA_ARM) {
		tables[n] = arm_rows, sizes[n++] = N_ROWS(arm_rows);
	} else {
		tables[n] = intel_rows, sizes[n++] = N_ROWS(intel_rows);
		tables[n] = westmere_rows, sizes[n++] = N_ROWS(westmere_rows);
	}
	for (int t = 0; t < n; t++)
		for (size_t i = 0; i < sizes[t]; i++)
			if (strlen(tables[t][i].name) == len && strncasecmp(tables[t][i].name, name, len) == 0)
				return &tables[t][i];
	return NULL;
}

static const struct event_row *find_by_code(const struct td_event_code *code)
{
	if (code->isa == TD_ISA_ARM) {
		for (size_t i = 0; i < N_ROWS(arm_rows); i++)
			if (td_event_code_equal(&arm_rows[i].code, code))
				return &arm_rows[i];
		return NULL;
	}
	for (size_t i = 0; i < N_ROWS(intel_rows); i++)
		if (td_event_code_equal(&intel_rows[i].code, code))
			return &intel_rows[i];
	for (size_t i = 0; i < N_ROWS(westmere_rows); i++)
		if (td_event_code_equal(&westmere_rows[i].code, code))
			return &westmere_rows[i];
	return NULL;
}

/* A number in C syntax (0x.., decimal); the whole token must be used. */
static int parse_num(const char *s, size_t len, unsigned long *out)
{
	char buf[32];
	if (len == 0 || len >= sizeof buf)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	char *end;
	*out = strtoul(buf, &end, 0);
	return *end ? -1 : 0;
}

/*
 * Apply one "key[=value]" term.  Both perf (event=, umask=, cmask=, inv, edge,
 * any=) and libpmc (cmask=, inv, edge, anythread, usr, os) keys are accepted.
 */
static int apply_term(struct td_event_code *c, const char *term, size_t len)
{
	const char *eq = memchr(term, '=', len);
	size_t klen = eq ? (size_t)(eq - term) : len;
	unsigned long v = 1;
	if (eq && parse_num(eq + 1, len - klen - 1, &v) != 0)
		return -1;
#define KEY(k) (klen == strlen(k) && strncasecmp(term, k, klen) == 0)
	if (KEY("event") && v <= 0xffff)
		c->event = (uint16_t)v;
	else if (KEY("umask") && v <= 0xff)
		c->umask = (uint8_t)v;
	else if ((KEY("cmask") || KEY("cmsk")) && v <= 0xff)
		c->cmask = (uint8_t)v;
	else if (KEY("inv") || KEY("invert"))
		c->inv = v != 0;
	else if (KEY("edge"))
		c->edge = v != 0;
	else if (KEY("any") || KEY("anythread"))
		c->any = v != 0;
	else if (KEY("usr") || KEY("os") || KEY("period"))
		; /* privilege filters and sampling do not change what is counted */
	else
		return -1;
#undef KEY
	return 0;
}

static int apply_terms(struct td_event_code *c, const char *s, size_t len)
{
	size_t i = 0;
	while (i < len) {
		size_t j = i;
		while (j < len && s[j] != ',')
			j++;
		if (j > i && apply_term(c, s + i, j - i) != 0)
			return -1;
		i = j + 1;
	}
	return 0;
}

int td_event_resolve(const char *spec, enum td_isa isa, struct td_event_code *code,
		     char *canon, size_t canon_len)
{
	if (!spec || !code || isa == TD_ISA_UNKNOWN)
		return -spe_invalid;
	while (isspace((unsigned char)*spec))
		spec++;
	size_t len = strlen(spec);
	while (len && isspace((unsigned char)spec[len - 1]))
		len--;
	if (!len)
		return -spe_invalid;

	struct td_event_code c = { .isa = isa };
	const char *slash = memchr(spec, '/', len);
	if (slash) {
		/* pmu/terms/ */
		const char *body = slash + 1;
		size_t blen = len - (size_t)(body - spec);
		if (blen && body[blen - 1] == '/')
			blen--;
		if (memchr(body, '/', blen) || apply_terms(&c, body, blen) != 0)
			return -spe_invalid;
	} else if ((spec[0] == 'r' || spec[0] == 'R') && len > 1 && strspn(spec + 1, "0123456789abcdefABCDEF") >= len - 1) {
		/* rXXXX: raw config in hex */
		char buf[24];
		if (len - 1 >= sizeof buf)
			return -spe_invalid;
		memcpy(buf, spec + 1, len - 1);
		buf[len - 1] = '\0';
		unsigned long long cfg = strtoull(buf, NULL, 16);
		if (isa == TD_ISA_ARM) {
			c.event = (uint16_t)cfg;
		} else {
			c.event = cfg & 0xff;
			c.umask = (cfg >> 8) & 0xff;
			c.edge = (cfg >> 18) & 1;
			c.any = (cfg >> 21) & 1;
			c.inv = (cfg >> 23) & 1;
			c.cmask = (cfg >> 24) & 0xff;
		}
	} else if (len > 6 && strncasecmp(spec, "event=", 6) == 0) {
		if (apply_terms(&c, spec, len) != 0)
			return -spe_invalid;
	} else {
		/* NAME[,qualifier...] (libpmc) */
		const char *comma = memchr(spec, ',', len);
		size_t nlen = comma ? (size_t)(comma - spec) : len;
		const struct event_row *row = find_by_name(spec, nlen, isa);
		if (!row)
			return -spe_unavailable;
		c = row->code;
		if (comma && apply_terms(&c, comma + 1, len - nlen - 1) != 0)
			return -spe_invalid;
	}
	*code = c;
	if (canon && canon_len) {
		const struct event_row *row = find_by_code(&c);
		const char *name = row ? row->name : spec;
		size_t n = row ? strlen(name) : len;
		if (n >= canon_len)
			n = canon_len - 1;
		memcpy(canon, name, n);
		canon[n] = '\0';
	}
	return 0;
}
