/* SPDX-License-Identifier: Apache-2.0 */
/* jitdump code loads as code of the process model (jit_loads.h). */
#define _GNU_SOURCE /* qsort_r */
#include "jit_loads.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spe/spe.h"

int ana_jit_marker_name(const char *path)
{
	const char *base = path ? strrchr(path, '/') : NULL;
	base = base ? base + 1 : path;
	if (!base || strncmp(base, "jit-", 4))
		return 0;
	const char *p = base + 4;
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	return !strcmp(p, ".dump");
}

/* The end of code @p c: a code of size 0 holds its address alone. */
static uint64_t code_end(const struct jit_code *c)
{
	return c->addr + (c->size ? c->size : 1);
}

/* Two codes that are one: same place, same name (a runtime that logs the same code twice). */
static int same_code(const struct jitdump *d, const struct jit_code *a, const struct jit_code *b)
{
	return a->addr == b->addr && a->size == b->size && !strcmp(d->strings + a->name, d->strings + b->name);
}

static int by_code(const void *a, const void *b, void *ctx)
{
	const struct jitdump *d = ctx;
	const struct jit_code *x = &d->codes[*(const uint32_t *)a], *y = &d->codes[*(const uint32_t *)b];
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return strcmp(d->strings + x->name, d->strings + y->name);
}

struct bound {
	uint64_t at;
	uint32_t code;
	int delta; /* +1 start, -1 end */
};

static int by_at(const void *a, const void *b)
{
	const struct bound *x = a, *y = b;
	return x->at < y->at ? -1 : x->at > y->at;
}

/*
 * Times unknown: the pieces of the address space one code alone held (each
 * named by it) and those two different codes held (JIT_CODE_NONE), all from
 * @p time on.  A sweep over the codes' bounds with the count and the index
 * sum of the codes open: where one is open, the sum is its index.
 */
static int add_untimed(struct attribution *at, size_t row, int pid, uint64_t time, uint32_t dump,
		       const struct jitdump *d)
{
	struct bound *b = malloc(2 * d->n_codes * sizeof *b + 1);
	uint32_t *order = malloc(d->n_codes * sizeof *order + 1);
	if (!b || !order) {
		free(b);
		free(order);
		return -spe_nomem;
	}
	/* the same code logged again (a runtime's repeat, a move back) is one code */
	for (uint32_t i = 0; i < d->n_codes; i++)
		order[i] = i;
	qsort_r(order, d->n_codes, sizeof *order, by_code, (void *)d);
	size_t n = 0;
	for (uint32_t k = 0; k < d->n_codes; k++) {
		uint32_t i = order[k];
		if (k && same_code(d, &d->codes[order[k - 1]], &d->codes[i]))
			continue;
		b[n++] = (struct bound){ d->codes[i].addr, i, +1 };
		b[n++] = (struct bound){ code_end(&d->codes[i]), i, -1 };
	}
	free(order);
	qsort(b, n, sizeof *b, by_at);
	int rc = 0;
	uint64_t open = 0, sum = 0, piece_start = 0;
	uint32_t piece = JIT_CODE_NONE;
	int in_piece = 0;
	for (size_t i = 0; i < n && rc == 0;) {
		uint64_t here = b[i].at;
		for (; i < n && b[i].at == here; i++) {
			open += (uint64_t)(int64_t)b[i].delta;
			sum += b[i].delta > 0 ? b[i].code : -(uint64_t)b[i].code;
		}
		uint32_t now = open == 1 ? (uint32_t)sum : JIT_CODE_NONE;
		if (in_piece && (!open || now != piece)) {
			rc = ana_attrib_add_code(at, row, pid, piece_start, here, time, dump, piece);
			in_piece = 0;
		}
		if (open && !in_piece) {
			piece_start = here;
			piece = now;
			in_piece = 1;
		}
	}
	free(b);
	return rc;
}

int ana_jit_loads_add(struct attribution *at, struct jit_symbols *js, int64_t *next_mapping, int pid,
		      const char *path, uint64_t time, const struct jit_clock *clock)
{
	long di = ana_jit_dump_open(js, pid, path);
	if (di < 0)
		return (int)di;
	struct jit_dump_file *f = &js->dumps[di];
	const struct jitdump *d = &f->d;
	if (f->note[0]) /* unreadable: said once */
		return 0;
	uint64_t lo = UINT64_MAX, hi = 0;
	for (size_t i = 0; i < d->n_codes; i++) {
		if (d->codes[i].addr < lo)
			lo = d->codes[i].addr;
		if (code_end(&d->codes[i]) > hi)
			hi = code_end(&d->codes[i]);
	}
	if (!d->n_codes)
		lo = hi = 0;
	struct attrib_mapping *m = ana_attrib_add_mapping(at, *next_mapping, pid, lo, 0, 0, path, NULL, time, -1);
	if (!m)
		return -spe_nomem;
	m->end = hi;
	size_t row = at->n_maps - 1;
	f->mapping_id = (*next_mapping)++;
	f->timed = d->arch_timestamp ? clock->tc != NULL : clock->monotonic;
	int rc = 0;
	if (f->timed) {
		for (uint32_t i = 0; i < d->n_codes && rc == 0; i++) {
			const struct jit_code *c = &d->codes[i];
			uint64_t t = d->arch_timestamp ? spe_perf_tsc_to_time(clock->tc, c->time) : c->time;
			rc = ana_attrib_add_code(at, row, pid, c->addr, code_end(c), t, (uint32_t)di, i);
		}
		/* read up to a record of known time: from then on, what code is where is not known */
		if (d->has_horizon) {
			uint64_t t = d->arch_timestamp ? spe_perf_tsc_to_time(clock->tc, d->horizon) : d->horizon;
			for (uint32_t i = 0; i < d->n_codes && rc == 0; i++)
				rc = ana_attrib_add_code(at, row, pid, d->codes[i].addr, code_end(&d->codes[i]), t,
							 (uint32_t)di, JIT_CODE_NONE);
		}
	} else {
		rc = add_untimed(at, row, pid, time, (uint32_t)di, d);
	}
	if (rc < 0)
		return rc;
	char what[256] = "";
	size_t w = 0;
	if (!f->timed)
		w += (size_t)snprintf(what + w, sizeof what - w,
				      "; its times (%s) cannot be related to the recording's (%s): its code is placed "
				      "from its marker on, unnamed where two loads held one address",
				      d->arch_timestamp ? "the CPU counter" : "CLOCK_MONOTONIC",
				      d->arch_timestamp ? "no TIME_CONV" : "record with perf record -k 1");
	if (d->stopped[0] && w < sizeof what)
		w += (size_t)snprintf(what + w, sizeof what - w, "; read up to %s%s", d->stopped,
				      f->timed && d->has_horizon ? " (its code unnamed from that record's time on)" : "");
	if ((d->bad_records || d->moves_unknown || d->debug_unmatched) && w < sizeof what)
		w += (size_t)snprintf(what + w, sizeof what - w,
				      "; %" PRIu64 " records skipped (%" PRIu64 " malformed, %" PRIu64
				      " moves of unknown code, %" PRIu64 " debug infos not of the next load's code)",
				      d->bad_records + d->moves_unknown + d->debug_unmatched, d->bad_records,
				      d->moves_unknown, d->debug_unmatched);
	if (d->lines_dropped && w < sizeof what)
		w += (size_t)snprintf(what + w, sizeof what - w, "; %" PRIu64 " debug entries past %u dropped",
				      d->lines_dropped, (unsigned)JITDUMP_MAX_LINES);
	if (w)
		snprintf(f->note, sizeof f->note, "pid %d: %s: %zu code loads%s", pid, f->path, d->n_codes, what);
	return 0;
}
