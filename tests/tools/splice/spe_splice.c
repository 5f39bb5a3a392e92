/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe-splice [--sysroot=DIR] [--truth=FILE] INPUT PLAN OUTPUT
 *
 * Turn a perf.data that `perf record` wrote on this (x86) host into one
 * that perf 6.1 reads as an arm64 capture with an arm_spe PMU, holding the
 * SPE records the PLAN asks for.  Every record of INPUT is copied byte for
 * byte, in order (COMPRESSED records, perf -z's zstd frames, included); the
 * tool adds the arm_spe attr and its ids, TIME_CONV (unless INPUT has one),
 * AUXTRACE_INFO, then per CPU and per round of INPUT: ITRACE_START, AUX and
 * AUXTRACE records holding the SPE bytes (libspe's encoder).  The header
 * features are INPUT's, with ARCH "aarch64", CPUID an arm64 MIDR,
 * EVENT_DESC and PMU_MAPPINGS naming arm_spe_0, BUILD_ID entries for the
 * mapped aarch64 files and the HEADER_AUXTRACE index added.  Pipe input
 * gives pipe output.
 *
 * Each SPE record's PC comes from the recorded machine's state at its time
 * (model.h): the plan's target file as the task's process had it mapped,
 * the symbol's file offset in it (elfsym.h).  --truth writes what a correct
 * reader must report for each record (pid, tid, file, symbol names), the
 * input of tests/realcap/realcap_score.  The plan format and the tool's
 * limits: tests/realcap/README.md.
 *
 * Exit status: 0; 64 usage; 65 bad input or plan (message: file, offset or
 * line, problem); 66 a file cannot be opened; 69 input perf 6.1 cannot read;
 * 73 the output cannot be created; 74 I/O error.  OUTPUT is written to a
 * temporary file beside it and renamed into place only when complete.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "elfsym.h"
#include "model.h"
#include "plan.h"
#include "spe/encoder.h"
#include "spe/packet.h"
#include "spe/record.h"

#define ARM_SPE_AUXTRACE 4 /* PERF_AUXTRACE_ARM_SPE (tools/perf/util/auxtrace.h) */
#define MISC_USER 2
#define MISC_BUILD_ID_SIZE (1u << 15)
#define NAME_ALIGN 64
#define EV(id) (1ull << SPE_EV_##id)

/* ---- output buffer ---- */

struct obuf {
	uint8_t *p;
	size_t len, cap;
};

static void ob_put(struct obuf *b, const void *src, size_t n)
{
	if (b->len + n > b->cap) {
		size_t ncap = b->cap ? b->cap : 1 << 16;
		while (ncap < b->len + n)
			ncap *= 2;
		uint8_t *q = realloc(b->p, ncap);
		if (!q) {
			perror("spe-splice: realloc");
			exit(70);
		}
		b->p = q;
		b->cap = ncap;
	}
	if (src)
		memcpy(b->p + b->len, src, n);
	else
		memset(b->p + b->len, 0, n);
	b->len += n;
}

static void ob_u64(struct obuf *b, uint64_t v)
{
	uint8_t x[8];
	for (int i = 0; i < 8; i++)
		x[i] = (uint8_t)(v >> (8 * i));
	ob_put(b, x, 8);
}

static void ob_u32(struct obuf *b, uint32_t v)
{
	uint8_t x[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	ob_put(b, x, 4);
}

static void ob_header(struct obuf *b, uint32_t type, uint16_t misc, uint16_t size)
{
	ob_u32(b, type);
	uint8_t x[4] = { (uint8_t)misc, (uint8_t)(misc >> 8), (uint8_t)size, (uint8_t)(size >> 8) };
	ob_put(b, x, 4);
}

static void set_u64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* perf's header string: u32 length (NUL included, rounded up to 64), the bytes, zeros. */
static void ob_string(struct obuf *b, const char *s)
{
	size_t n = strlen(s) + 1, len = (n + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;
	ob_u32(b, (uint32_t)len);
	ob_put(b, s, n);
	ob_put(b, NULL, len - n);
}

/* ---- state ---- */

struct spe_rec {
	unsigned n;          /* number, in plan order */
	const struct plan_spe *sp;
	unsigned index;      /* within its spe line */
	uint64_t time, ts;
	uint32_t cpu, pid, tid;
	uint64_t pc;
	int el;
	int kernel;
	char dso[2 * PLAN_PATH + 32];
	char syms[ELFSYM_ALIASES];
	uint32_t slot;       /* the input record before which its chunk goes; n_records = at the end */
	uint64_t birth;      /* of its thread */
};

struct splice {
	struct capture cap;
	struct plan plan;
	struct model model;
	const char *sysroot;
	char plan_dir[PATH_MAX];
	uint32_t pmu_type;
	uint64_t spe_sample_type;
	uint64_t spe_id_base;
	uint32_t n_cpus;     /* highest CPU of an SPE record + 1 */
	uint32_t nr_cpus_avail; /* HEADER_NRCPUS of the input (4096 without it) */
	struct cap_time_conv tc;
	int own_time_conv;
	struct spe_rec *recs;
	unsigned n_recs;
	struct obuf attr;    /* the SPE perf_event_attr */
	char err[1024];
};

static void die(int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "spe-splice: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(status);
}

/* @p a then @p b into @p out; a path too long for it is an error, never cut. */
static void join(char *out, size_t outlen, const char *a, const char *sep, const char *b)
{
	int n = snprintf(out, outlen, "%s%s%s", a, sep, b);
	if (n < 0 || (size_t)n >= outlen)
		die(65, "path too long: %s%s%s", a, sep, b);
}

/* A file of the plan: relative to the plan's directory. */
static void plan_file(const struct splice *s, const char *name, char *out, size_t outlen)
{
	if (name[0] == '/')
		join(out, outlen, "", "", name);
	else
		join(out, outlen, s->plan_dir, "/", name);
}

/* The file that was mapped at @p mapped: a plan override, else the sysroot's copy. */
static void disk_path(const struct splice *s, const char *mapped, char *out, size_t outlen)
{
	for (unsigned i = 0; i < s->plan.n_binaries; i++)
		if (!strcmp(s->plan.binaries[i].path, mapped)) {
			plan_file(s, s->plan.binaries[i].file, out, outlen);
			return;
		}
	join(out, outlen, s->sysroot, "", mapped);
}

/* Is @p mapped a file of the sysroot (or a plan override)?  The x86 stand-in's own images are not. */
static int known_file(const void *ctx, const char *mapped)
{
	char path[PATH_MAX];
	disk_path(ctx, mapped, path, sizeof path);
	return access(path, R_OK) == 0;
}

/* ---- time: the generic timer through TIME_CONV (perf's tools/perf/util/tsc.c formulas) ---- */

static uint64_t ts_to_time(const struct cap_time_conv *tc, uint64_t cyc)
{
	if (tc->cap_short)
		cyc = tc->cycles + ((cyc - tc->cycles) & tc->mask);
	uint64_t quot = cyc >> tc->shift, rem = cyc & ((1ull << tc->shift) - 1);
	return tc->zero + quot * tc->mult + ((rem * tc->mult) >> tc->shift);
}

static uint64_t time_to_ts(const struct cap_time_conv *tc, uint64_t ns)
{
	uint64_t t = ns - tc->zero, quot = t / tc->mult, rem = t % tc->mult;
	return (quot << tc->shift) + (rem << tc->shift) / tc->mult;
}

static void choose_time_conv(struct splice *s)
{
	if (s->cap.has_time_conv) {
		s->tc = s->cap.time_conv;
		if (!s->tc.mult)
			die(65, "%s: its TIME_CONV has time_mult 0", s->cap.name);
		return;
	}
	s->own_time_conv = 1;
	memset(&s->tc, 0, sizeof s->tc);
	/* ns per tick = 1e9 / hz in 32.24 fixed point (exact for 25 MHz: 40 << 24) */
	s->tc.shift = 24;
	s->tc.mult = (uint64_t)((1000000000.0 * (double)(1ull << 24)) / (double)s->plan.timer_hz + 0.5);
	s->tc.cap_zero = 1;
	/* the counter started a second before the recording, on a millisecond */
	uint64_t zero = s->cap.min_time > 1000000000ull ? s->cap.min_time - 1000000000ull : 0;
	s->tc.zero = zero / 1000000 * 1000000;
}

/* ---- the SPE attr ---- */

static int pmu_type_used(const struct splice *s, uint32_t type)
{
	for (uint32_t i = 0; i < s->cap.n_attrs; i++)
		if (s->cap.attrs[i].type == type)
			return 1;
	const uint8_t *d = s->cap.feat[CAP_F_PMU_MAPPINGS].data;
	uint64_t size = s->cap.feat[CAP_F_PMU_MAPPINGS].size;
	if (d && size >= 4) {
		uint32_t n = cap_u32(d);
		uint64_t pos = 4;
		for (uint32_t i = 0; i < n && pos + 8 <= size; i++) {
			if (cap_u32(d + pos) == type)
				return 1;
			pos += 8 + cap_u32(d + pos + 4);
		}
	}
	return 0;
}

static void build_attr(struct splice *s)
{
	const struct capture *c = &s->cap;
	uint64_t st0 = c->attrs[0].sample_type;
	if (!(st0 & CAP_S_TIME) || !(c->attrs[0].flags & (1ull << 18)))
		die(65, "%s: the events lack sample_id_all or PERF_SAMPLE_TIME: perf cannot order SPE samples with the sideband",
		    c->name);
	if (c->identifier) {
		/* what perf record gives an arm_spe event (tools/perf/arch/arm64/util/arm-spe.c) */
		s->spe_sample_type = CAP_S_IP | CAP_S_TID | CAP_S_TIME | CAP_S_CPU | CAP_S_DATA_SRC | CAP_S_IDENTIFIER |
				     CAP_S_PHYS_ADDR;
	} else {
		/*
		 * Without IDENTIFIER perf finds a record's event by the ID's
		 * position, which must be the same in every attr
		 * (evlist__valid_sample_type): keep the fields before ID.
		 */
		if (c->n_attrs > 1 || (st0 & CAP_S_ID)) {
			if (!(st0 & CAP_S_ID) || !(st0 & CAP_S_IP))
				die(65, "%s: several events without IDENTIFIER and without IP and ID; record with --sample-identifier",
				    c->name);
		} else {
			die(65, "%s: one event without a sample id: perf could not tell its records from the arm_spe event's; "
				"record with --sample-identifier", c->name);
		}
		s->spe_sample_type = (st0 & (CAP_S_IP | CAP_S_TID | CAP_S_TIME | CAP_S_ADDR | CAP_S_ID | CAP_S_STREAM_ID |
					     CAP_S_CPU)) | CAP_S_DATA_SRC | CAP_S_PHYS_ADDR;
	}
	s->pmu_type = s->plan.pmu_type;
	if (!s->pmu_type)
		for (s->pmu_type = 8; pmu_type_used(s, s->pmu_type); s->pmu_type++)
			;
	else if (pmu_type_used(s, s->pmu_type))
		die(65, "%s: pmu-type %u is already an event type of the capture", s->plan.name, s->pmu_type);
	int kernel = 0;
	for (unsigned i = 0; i < s->plan.n_spes; i++)
		kernel |= s->plan.spes[i].target.kind == TGT_KERNEL;
	uint32_t size = c->attrs[0].raw_size;
	uint8_t a[512];
	memset(a, 0, sizeof a);
	memcpy(a, &s->pmu_type, 4);
	a[4] = (uint8_t)size;
	a[5] = (uint8_t)(size >> 8);
	/* config: ts_enable (0), pa_enable (1), jitter (16): arm_spe_0/ts_enable=1,pa_enable=1,jitter=1/ */
	set_u64(a + 8, (1ull << 0) | (1ull << 1) | (1ull << 16));
	set_u64(a + 16, 4096); /* sample_period */
	set_u64(a + 24, s->spe_sample_type);
	set_u64(a + 32, c->attrs[0].read_format);
	/* flags: disabled, inherit, exclude_kernel (user-only plans), exclude_hv, sample_id_all, exclude_guest */
	uint64_t flags = (1ull << 0) | (1ull << 1) | (kernel ? 0 : 1ull << 5) | (1ull << 6) | (1ull << 18) | (1ull << 20);
	set_u64(a + 40, flags);
	s->attr.len = 0;
	ob_put(&s->attr, a, size);
	s->spe_id_base = c->max_id + 1;
}

/* ---- records from the plan ---- */

static const char *jit_map_path(const struct splice *s, uint32_t pid, char *out, size_t outlen)
{
	if (s->plan.perf_map[0])
		plan_file(s, s->plan.perf_map, out, outlen);
	else
		snprintf(out, outlen, "%s/tmp/perf-%u.map", s->sysroot, pid);
	return out;
}

/*
 * perf's map-file format: hex start, hex size, name (the rest of the line,
 * spaces allowed).  @p name matches a line's name, or its start up to a '('
 * ("jit_add" for "jit_add(long, long)": plan words have no spaces); the
 * line's whole name goes to @p full.
 */
static int jit_lookup(const char *path, const char *name, uint64_t *start, uint64_t *size, char *full, size_t fulllen)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char line[1024];
	size_t nl = strlen(name);
	int rc = -1;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = 0;
		char *end1, *end2;
		unsigned long long a = strtoull(line, &end1, 16);
		if (*end1 != ' ')
			continue;
		unsigned long long n = strtoull(end1 + 1, &end2, 16);
		const char *sym = end2 + 1;
		if (*end2 != ' ' || (strcmp(sym, name) && (strncmp(sym, name, nl) || sym[nl] != '(')))
			continue;
		*start = a;
		*size = n;
		snprintf(full, fulllen, "%s", sym);
		rc = 0;
		break;
	}
	fclose(f);
	return rc;
}

/* kallsyms: NAME's address and the names sharing it; its size from the next address. */
static int kallsyms_lookup(const char *path, const char *name, uint64_t *addr, uint64_t *size, char *aliases,
			   size_t alen)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char line[512];
	int found = 0;
	uint64_t next = UINT64_MAX;
	while (fgets(line, sizeof line, f)) {
		unsigned long long a;
		char type, sym[256];
		if (sscanf(line, "%llx %c %255s", &a, &type, sym) != 3)
			continue;
		if (!found && !strcmp(sym, name)) {
			*addr = a;
			found = 1;
		}
	}
	if (!found) {
		fclose(f);
		return -1;
	}
	rewind(f);
	snprintf(aliases, alen, "%s", name);
	while (fgets(line, sizeof line, f)) {
		unsigned long long a;
		char type, sym[256];
		if (sscanf(line, "%llx %c %255s", &a, &type, sym) != 3)
			continue;
		if (a > *addr && a < next)
			next = a;
		if (a == *addr && strcmp(sym, name) && strchr("tTwW", type) && strlen(aliases) + strlen(sym) + 2 < alen)
			strcat(strcat(aliases, "|"), sym);
	}
	fclose(f);
	*size = next == UINT64_MAX ? 0 : next - *addr;
	return 0;
}

static int file_matches(const char *mapped, const char *want)
{
	if (!strcmp(mapped, want))
		return 1;
	const char *base = strrchr(mapped, '/');
	return !strchr(want, '/') && base && !strcmp(base + 1, want);
}

/* The PC, file and symbols of one record of @p sp at time r->time. */
static void resolve_target(struct splice *s, struct spe_rec *r)
{
	const struct plan_spe *sp = r->sp;
	const struct plan_target *t = &sp->target;
	const char *pn = s->plan.name;
	struct maps maps;
	model_maps_at(&s->model, r->pid, r->time, &maps);
	r->syms[0] = 0;
	r->dso[0] = 0;
	char path[PATH_MAX], debug_root[PATH_MAX];
	snprintf(debug_root, sizeof debug_root, "%s/usr/lib/debug", s->sysroot);
	switch (t->kind) {
	case TGT_SYMBOL:
	case TGT_PLT: {
		int any = 0;
		for (uint32_t i = 0; i < maps.n && !r->dso[0]; i++) {
			const struct map_entry *me = &maps.v[i];
			if (me->data || !file_matches(me->filename, t->file))
				continue;
			disk_path(s, me->filename, path, sizeof path);
			if (access(path, R_OK) != 0)
				continue; /* not an aarch64 file of the sysroot (the x86 stand-in's own image) */
			any = 1;
			struct elfsym_hit hit;
			int rc = t->kind == TGT_PLT ? elfsym_plt(path, t->name, &hit, s->err, sizeof s->err)
						    : elfsym_find(path, debug_root, t->name, &hit, s->err, sizeof s->err);
			if (rc < 0)
				die(65, "%s:%d: %s", pn, sp->line, s->err);
			if (hit.size && t->offset >= hit.size)
				die(65, "%s:%d: +0x%" PRIx64 " is past the end of %s (%" PRIu64 " bytes)", pn, sp->line, t->offset,
				    t->name, hit.size);
			char other[256];
			if (t->kind == TGT_SYMBOL && t->offset &&
			    elfsym_next_start(path, debug_root, hit.vaddr, t->offset, other, sizeof other))
				die(65, "%s:%d: %s+0x%" PRIx64 " is inside %s", pn, sp->line, t->name, t->offset, other);
			uint64_t off = hit.file_offset + t->offset;
			if (off < me->pgoff || off >= me->pgoff + (me->end - me->start))
				continue; /* another mapping of the file holds it */
			r->pc = me->start + (off - me->pgoff);
			snprintf(r->dso, sizeof r->dso, "%s", me->filename);
			snprintf(r->syms, sizeof r->syms, "%s", hit.aliases);
		}
		if (!r->dso[0])
			die(65, "%s:%d: %s of %s is not mapped executable in pid %u at %" PRIu64 "%s", pn, sp->line, t->name,
			    t->file, r->pid, r->time, any ? " (the file is, that part is not)" : "");
		break;
	}
	case TGT_KERNEL: {
		if (!s->plan.kallsyms[0])
			die(65, "%s:%d: a kernel target needs a kallsyms line", pn, sp->line);
		plan_file(s, s->plan.kallsyms, path, sizeof path);
		uint64_t addr, size;
		if (kallsyms_lookup(path, t->name, &addr, &size, r->syms, sizeof r->syms) < 0)
			die(65, "%s:%d: no '%s' in %s", pn, sp->line, t->name, path);
		if (size && t->offset >= size)
			die(65, "%s:%d: +0x%" PRIx64 " is past %s (next symbol 0x%" PRIx64 " later)", pn, sp->line, t->offset,
			    t->name, size);
		r->pc = addr + t->offset;
		r->kernel = 1;
		for (uint32_t i = 0; i < s->model.kernel.n; i++)
			if (r->pc >= s->model.kernel.v[i].start && r->pc < s->model.kernel.v[i].end)
				snprintf(r->dso, sizeof r->dso, "[kernel.kallsyms]");
		if (!r->dso[0])
			die(65, "%s:%d: 0x%" PRIx64 " is in no kernel MMAP of the capture (record with a kernel-side event)", pn,
			    sp->line, r->pc);
		break;
	}
	case TGT_JIT: {
		uint64_t start, size;
		jit_map_path(s, r->pid, path, sizeof path);
		if (jit_lookup(path, t->name, &start, &size, r->syms, sizeof r->syms) < 0)
			die(65, "%s:%d: no '%s' in %s", pn, sp->line, t->name, path);
		if (t->offset >= size)
			die(65, "%s:%d: +0x%" PRIx64 " is past %s's %" PRIu64 " bytes", pn, sp->line, t->offset, t->name, size);
		r->pc = start + t->offset;
		for (uint32_t i = 0; i < maps.n; i++)
			if (!maps.v[i].data && r->pc >= maps.v[i].start && r->pc < maps.v[i].end)
				snprintf(r->dso, sizeof r->dso, "%s|/tmp/perf-%u.map", maps.v[i].filename, r->pid);
		if (!r->dso[0])
			die(65, "%s:%d: %s at 0x%" PRIx64 " is in no executable mapping of pid %u", pn, sp->line, t->name, r->pc,
			    r->pid);
		break;
	}
	case TGT_ADDR:
		r->pc = t->addr;
		r->kernel = t->addr >> 63;
		for (uint32_t i = 0; i < maps.n; i++)
			if (!maps.v[i].data && r->pc >= maps.v[i].start && r->pc < maps.v[i].end)
				snprintf(r->dso, sizeof r->dso, "%s", maps.v[i].filename);
		if (!r->dso[0])
			snprintf(r->dso, sizeof r->dso, "-");
		snprintf(r->syms, sizeof r->syms, "-");
		break;
	}
	r->el = sp->el >= 0 ? sp->el : r->kernel ? 1 : 0;
	model_maps_free(&maps);
}

static int by_time(const void *a, const void *b)
{
	const struct spe_rec *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->n < y->n ? -1 : x->n > y->n;
}

static int by_number(const void *a, const void *b)
{
	const struct spe_rec *x = a, *y = b;
	return x->n < y->n ? -1 : x->n > y->n;
}

/* The first tick at or after @p t whose time is free: no sideband record, no other SPE record. */
static void settle_time(struct splice *s, struct spe_rec *r, uint64_t t, uint64_t limit)
{
	uint64_t ts = time_to_ts(&s->tc, t);
	while (ts_to_time(&s->tc, ts) < t)
		ts++;
	for (;;) {
		uint64_t tt = ts_to_time(&s->tc, ts);
		int taken = model_time_taken(&s->model, tt);
		for (unsigned i = 0; i < s->n_recs && !taken; i++)
			taken = &s->recs[i] != r && s->recs[i].time == tt && s->recs[i].ts;
		if (!taken) {
			if (tt >= limit)
				die(65, "%s:%d: no free timer tick left before the end of the interval", s->plan.name, r->sp->line);
			r->ts = ts;
			r->time = tt;
			return;
		}
		ts++;
	}
}

static void plan_records(struct splice *s)
{
	const struct plan *p = &s->plan;
	unsigned total = 0;
	for (unsigned i = 0; i < p->n_spes; i++)
		total += p->spes[i].count;
	s->recs = calloc(total, sizeof *s->recs);
	if (!s->recs)
		die(70, "out of memory");
	for (unsigned i = 0; i < p->n_spes; i++) {
		const struct plan_spe *sp = &p->spes[i];
		const struct task_life *life;
		uint64_t from = 0, to = 0;
		if (model_task(&s->model, p, sp->task, &life, s->err, sizeof s->err) < 0 ||
		    model_event_time(&s->model, p, &sp->from, sp->line, &from, s->err, sizeof s->err) < 0 ||
		    model_event_time(&s->model, p, &sp->to, sp->line, &to, s->err, sizeof s->err) < 0)
			die(65, "%s", s->err);
		uint64_t end = life->death == UINT64_MAX ? s->cap.max_time : life->death;
		if (sp->at)
			to = from + 2000ull * (sp->count + 1); /* at(E): records 2 us apart after E */
		if (from < life->birth)
			from = life->birth;
		if (to > end)
			to = end;
		if (to <= from + sp->count)
			die(65, "%s:%d: the interval [%" PRIu64 ", %" PRIu64 "] is empty for task '%s' (tid %u, alive %" PRIu64
				" to %" PRIu64 ")", p->name, sp->line, from, to, sp->task, life->tid, life->birth, end);
		struct run_interval *runs = NULL;
		uint32_t nruns = sp->cpu < 0 ? model_runs(&s->model, life, from, to, &runs) : 0;
		uint64_t run_total = 0;
		for (uint32_t k = 0; k < nruns; k++)
			run_total += runs[k].end - runs[k].start;
		for (unsigned k = 0; k < sp->count; k++) {
			struct spe_rec *r = &s->recs[s->n_recs];
			r->n = s->n_recs;
			r->sp = sp;
			r->index = k;
			r->tid = life->tid;
			r->pid = life->pid;
			r->birth = life->birth;
			uint64_t t, limit = to;
			if (nruns) {
				/* spread over the time the thread was on a CPU, on that CPU */
				uint64_t pos = run_total * (2 * k + 1) / (2 * sp->count), acc = 0;
				uint32_t j = 0;
				while (j + 1 < nruns && acc + (runs[j].end - runs[j].start) <= pos) {
					acc += runs[j].end - runs[j].start;
					j++;
				}
				t = runs[j].start + (pos - acc);
				limit = runs[j].end;
				r->cpu = runs[j].cpu;
			} else {
				t = from + (to - from) * (k + 1) / (sp->count + 1);
				r->cpu = sp->cpu < 0 ? 0 : (uint32_t)sp->cpu;
			}
			s->n_recs++;
			settle_time(s, r, t, limit);
			resolve_target(s, r);
			if (r->cpu >= s->nr_cpus_avail)
				die(65, "%s:%d: cpu %u, but the capture's machine has %u CPUs (HEADER_NRCPUS)", p->name, sp->line,
				    r->cpu, s->nr_cpus_avail);
			if (r->cpu + 1 > s->n_cpus)
				s->n_cpus = r->cpu + 1;
		}
		free(runs);
	}
}

/* Each record goes before the FINISHED_ROUND closing the first round whose records reach its time. */
static void place_records(struct splice *s, uint64_t *prev_round_max)
{
	const struct capture *c = &s->cap;
	for (unsigned i = 0; i < s->n_recs; i++) {
		struct spe_rec *r = &s->recs[i];
		r->slot = c->n_records;
		uint64_t round_max = 0, before = 0;
		for (uint32_t k = 0; k < c->n_records; k++) {
			if (c->records[k].type != CAP_FINISHED_ROUND) {
				if (c->records[k].max_time > round_max)
					round_max = c->records[k].max_time;
				continue;
			}
			if (round_max >= r->time) {
				r->slot = k;
				break;
			}
			if (round_max > before)
				before = round_max;
			round_max = 0;
		}
		prev_round_max[i] = before;
	}
}

/* ---- output records ---- */

static void trailer(struct splice *s, struct obuf *b, uint32_t pid, uint32_t tid, uint64_t time, uint32_t cpu)
{
	uint64_t st = s->spe_sample_type, id = s->spe_id_base + cpu;
	if (st & CAP_S_TID) {
		ob_u32(b, pid);
		ob_u32(b, tid);
	}
	if (st & CAP_S_TIME)
		ob_u64(b, time);
	if (st & CAP_S_ID)
		ob_u64(b, id);
	if (st & CAP_S_STREAM_ID)
		ob_u64(b, id);
	if (st & CAP_S_CPU) {
		ob_u32(b, cpu);
		ob_u32(b, 0);
	}
	if (st & CAP_S_IDENTIFIER)
		ob_u64(b, id);
}

static uint16_t trailer_len(const struct splice *s)
{
	uint64_t st = s->spe_sample_type;
	return (uint16_t)(8 * (!!(st & CAP_S_TID) + !!(st & CAP_S_TIME) + !!(st & CAP_S_ID) + !!(st & CAP_S_STREAM_ID) +
			       !!(st & CAP_S_CPU) + !!(st & CAP_S_IDENTIFIER)));
}

static void encode(struct spe_enc *enc, const struct spe_rec *r)
{
	const struct plan_spe *sp = r->sp;
	struct spe_record rec;
	memset(&rec, 0, sizeof rec);
	rec.has = SPE_HAS_PC | SPE_HAS_OP_TYPE | SPE_HAS_EVENTS | SPE_HAS_TOTAL_LATENCY | SPE_HAS_ISSUE_LATENCY |
		  SPE_HAS_TIMESTAMP;
	rec.pc.addr = r->pc;
	rec.pc.el = (uint8_t)r->el;
	rec.pc.ns = 1;
	if (sp->ctx) {
		rec.has |= SPE_HAS_CONTEXT;
		rec.context = r->tid;
		rec.context_index = 1; /* CONTEXTIDR_EL2: a VHE kernel (the usual Neoverse setup) */
	}
	rec.timestamp = r->ts;
	rec.total_latency = (uint16_t)(sp->lat + r->index);
	rec.issue_latency = 3;
	rec.events = EV(RETIRED);
	uint64_t va = sp->va ? sp->va + 64 * r->index : 0x7ffc00001000ull + 64 * r->n;
	switch (sp->op) {
	case OP_LOAD:
	case OP_STORE:
		rec.op_raw_class = 1;
		rec.op_raw = sp->op == OP_LOAD ? 0x00 : 0x01; /* LD / ST, GP-REG */
		rec.has |= SPE_HAS_DATA_VA | SPE_HAS_DATA_PA | SPE_HAS_TRANSLATION_LATENCY;
		rec.data_va = va;
		rec.data_pa = 0x880000000ull + (va & 0xfffffff);
		rec.data_pa_ns = 1;
		rec.translation_latency = sp->events & PEV_TLB_MISS ? 30 : 1;
		rec.events |= EV(L1D_ACCESS) | EV(TLB_ACCESS);
		if (sp->events & PEV_L1D_MISS)
			rec.events |= EV(L1D_REFILL) | EV(LLC_ACCESS);
		if (sp->events & PEV_LLC_MISS)
			rec.events |= EV(L1D_REFILL) | EV(LLC_ACCESS) | EV(LLC_MISS);
		if (sp->events & PEV_TLB_MISS)
			rec.events |= EV(TLB_WALK);
		if (sp->events & PEV_REMOTE)
			rec.events |= EV(L1D_REFILL) | EV(LLC_ACCESS) | EV(LLC_MISS) | EV(REMOTE_ACCESS);
		if (sp->op == OP_LOAD) {
			/* Neoverse data source: 0 L1, 8 L2, 0xe DRAM, 0xd remote (spe-format.md) */
			rec.has |= SPE_HAS_DATA_SOURCE;
			rec.data_source = sp->events & PEV_REMOTE ? 0xd : sp->events & PEV_LLC_MISS ? 0xe
								 : sp->events & PEV_L1D_MISS ? 0x8 : 0x0;
		}
		break;
	case OP_BRANCH:
		rec.op_raw_class = 2;
		rec.op_raw = 0x01; /* B COND */
		rec.has |= SPE_HAS_BRANCH_TARGET;
		rec.branch_target = (struct spe_ip){ .addr = r->pc + 0x40, .el = (uint8_t)r->el, .ns = 1 };
		if (sp->events & PEV_MISPRED)
			rec.events |= EV(MISPREDICTED);
		break;
	case OP_OTHER:
		rec.op_raw_class = 0;
		rec.op_raw = 0x00;
		break;
	}
	spe_enc_record(enc, &rec, SPE_ENC_PAD_TO_64);
}

struct itrace_seen {
	uint32_t tid, cpu;
};

struct emit {
	struct splice *s;
	struct obuf out;
	uint64_t data_start;       /* file mode: where the data section starts in out */
	uint64_t *aux_offset;      /* per CPU: AUX ring position */
	uint64_t *index;           /* file offsets of the AUXTRACE records */
	uint32_t n_index;
	struct itrace_seen *seen;
	uint32_t n_seen;
	uint64_t *prev_round_max;  /* per record */
	uint64_t sideband_base;    /* pipe: the offset of out's first byte in the stream */
};

/* All records whose chunk goes in slot @p slot: per CPU, ITRACE_STARTs, AUX, AUXTRACE. */
static void emit_chunks(struct emit *e, uint32_t slot)
{
	struct splice *s = e->s;
	for (uint32_t cpu = 0; cpu < s->n_cpus; cpu++) {
		struct spe_enc enc;
		spe_enc_init(&enc, NULL, 0);
		enc.base = e->aux_offset[cpu];
		uint64_t last_time = 0;
		uint32_t last_pid = 0, last_tid = 0;
		int any = 0;
		for (unsigned i = 0; i < s->n_recs; i++) {
			const struct spe_rec *r = &s->recs[i];
			if (r->slot != slot || r->cpu != cpu)
				continue;
			any = 1;
			int known = 0;
			for (uint32_t k = 0; k < e->n_seen; k++)
				known |= e->seen[k].tid == r->tid && e->seen[k].cpu == cpu;
			if (!known && s->plan.itrace_start) {
				e->seen = realloc(e->seen, (e->n_seen + 1) * sizeof *e->seen);
				if (!e->seen)
					die(70, "out of memory");
				e->seen[e->n_seen++] = (struct itrace_seen){ r->tid, cpu };
				/* just before the record: after the thread's birth and what perf flushed already */
				uint64_t floor = e->prev_round_max[i] > r->birth ? e->prev_round_max[i] : r->birth;
				uint64_t t = r->time - 1;
				if (r->time > floor + 1000)
					t = r->time - 1000;
				else if (floor + 1 < r->time)
					t = floor + 1;
				ob_header(&e->out, CAP_ITRACE_START, MISC_USER, (uint16_t)(16 + trailer_len(s)));
				ob_u32(&e->out, r->pid);
				ob_u32(&e->out, r->tid);
				trailer(s, &e->out, r->pid, r->tid, t, cpu);
			}
			encode(&enc, r);
			last_time = r->time;
			last_pid = r->pid;
			last_tid = r->tid;
		}
		if (!any) {
			spe_enc_fini(&enc);
			continue;
		}
		if (enc.error < 0)
			die(70, "the SPE encoder failed (%d)", enc.error);
		uint64_t size = enc.len; /* 64-byte records: a multiple of 8, no padding */
		ob_header(&e->out, CAP_AUX, 0, (uint16_t)(32 + trailer_len(s)));
		ob_u64(&e->out, e->aux_offset[cpu]);
		ob_u64(&e->out, size);
		ob_u64(&e->out, 0);
		trailer(s, &e->out, last_pid, last_tid, last_time + 1, cpu);
		e->index = realloc(e->index, (e->n_index + 1) * sizeof *e->index);
		if (!e->index)
			die(70, "out of memory");
		e->index[e->n_index++] = e->out.len; /* file mode: out is the whole file */
		ob_header(&e->out, CAP_AUXTRACE, 0, 48);
		ob_u64(&e->out, size);
		ob_u64(&e->out, e->aux_offset[cpu]);
		ob_u64(&e->out, last_time); /* reference */
		ob_u32(&e->out, cpu);       /* idx: the CPU's mmap */
		ob_u32(&e->out, UINT32_MAX); /* tid -1: per-CPU */
		ob_u32(&e->out, cpu);
		ob_u32(&e->out, 0);
		ob_put(&e->out, enc.buf, enc.len);
		e->aux_offset[cpu] += size;
		spe_enc_fini(&enc);
	}
}

static void emit_time_conv(struct emit *e)
{
	const struct cap_time_conv *tc = &e->s->tc;
	ob_header(&e->out, CAP_TIME_CONV, 0, 56);
	ob_u64(&e->out, tc->shift);
	ob_u64(&e->out, tc->mult);
	ob_u64(&e->out, tc->zero);
	ob_u64(&e->out, tc->cycles);
	ob_u64(&e->out, tc->mask);
	uint8_t caps[8] = { tc->cap_zero, tc->cap_short };
	ob_put(&e->out, caps, 8);
}

static void emit_auxtrace_info(struct emit *e)
{
	ob_header(&e->out, CAP_AUXTRACE_INFO, 0, 32);
	ob_u32(&e->out, ARM_SPE_AUXTRACE);
	ob_u32(&e->out, 0);
	ob_u64(&e->out, e->s->pmu_type);
	ob_u64(&e->out, 1); /* per-CPU mmaps */
}

/* ---- features ---- */

struct bid_entry {
	char path[PLAN_PATH];
	uint8_t id[20], size;
};

/* The BUILD_ID entries to add: each mapped file found (plan overrides first), unless the input names it. */
static uint32_t build_id_entries(struct splice *s, struct bid_entry **out)
{
	struct bid_entry *v = NULL;
	uint32_t n = 0;
	const struct capture *c = &s->cap;
	if (!s->plan.header_build_ids) {
		*out = NULL;
		return 0;
	}
	for (uint32_t i = 0; i < c->n_events; i++) {
		const struct cap_event *ev = &c->events[i];
		if ((ev->type != CAP_MMAP && ev->type != CAP_MMAP2) || ev->u.mmap.kernel || ev->u.mmap.data ||
		    ev->u.mmap.filename[0] != '/' || strlen(ev->u.mmap.filename) >= PLAN_PATH)
			continue;
		const char *name = ev->u.mmap.filename;
		int dup = 0;
		for (uint32_t k = 0; k < n; k++)
			dup |= !strcmp(v[k].path, name);
		/* already in the input's BUILD_ID section? */
		const uint8_t *d = c->feat[CAP_F_BUILD_ID].data;
		for (uint64_t pos = 0; d && !dup && pos + 36 < c->feat[CAP_F_BUILD_ID].size;) {
			uint16_t sz = cap_u16(d + pos + 6);
			if (sz < 36)
				break;
			dup |= !strncmp((const char *)d + pos + 36, name, sz - 36);
			pos += sz;
		}
		if (dup)
			continue;
		struct bid_entry b;
		memset(&b, 0, sizeof b);
		snprintf(b.path, sizeof b.path, "%s", name);
		int planned = 0;
		for (unsigned k = 0; k < s->plan.n_build_ids; k++)
			if (!strcmp(s->plan.build_ids[k].path, name)) {
				planned = 1;
				if (s->plan.build_ids[k].none)
					break;
				memcpy(b.id, s->plan.build_ids[k].id, 20);
				b.size = s->plan.build_ids[k].size;
			}
		if (!planned) {
			char path[PATH_MAX];
			disk_path(s, name, path, sizeof path);
			b.size = (uint8_t)elfsym_build_id(path, b.id);
		}
		if (!b.size)
			continue;
		v = realloc(v, (n + 1) * sizeof *v);
		if (!v)
			die(70, "out of memory");
		v[n++] = b;
	}
	*out = v;
	return n;
}

static void build_id_record(struct obuf *b, const struct bid_entry *e, uint32_t type)
{
	size_t nl = strlen(e->path) + 1, padded = (nl + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;
	ob_header(b, type, MISC_USER | MISC_BUILD_ID_SIZE, (uint16_t)(36 + padded));
	ob_u32(b, UINT32_MAX); /* pid -1: the host machine */
	ob_put(b, e->id, 20);
	uint8_t size[4] = { e->size, 0, 0, 0 };
	ob_put(b, size, 4);
	ob_put(b, e->path, nl);
	ob_put(b, NULL, padded - nl);
}

/* The content of feature @p bit in the output; 0 = leave it out. */
static int feature_content(struct splice *s, int bit, struct obuf *b, const struct bid_entry *bids, uint32_t n_bids,
			   const struct emit *e)
{
	const struct capture *c = &s->cap;
	const uint8_t *d = c->feat[bit].data;
	uint64_t size = c->feat[bit].size;
	char cpuid[32];
	switch (bit) {
	case CAP_F_ARCH:
		ob_string(b, "aarch64");
		return 1;
	case CAP_F_CPUID:
		/* arm64 perf writes MIDR_EL1 as 0x%016lx (tools/perf/arch/arm64/util/header.c) */
		snprintf(cpuid, sizeof cpuid, "0x%016" PRIx64, s->plan.midr);
		ob_string(b, cpuid);
		return 1;
	case CAP_F_BUILD_ID:
		if (d)
			ob_put(b, d, size);
		for (uint32_t i = 0; i < n_bids; i++)
			build_id_record(b, &bids[i], 0);
		return b->len > 0;
	case CAP_F_AUXTRACE:
		if (!e)
			return 0;
		ob_u64(b, e->n_index);
		for (uint32_t i = 0; i < e->n_index; i++) {
			ob_u64(b, e->index[i]);
			ob_u64(b, 48);
		}
		return 1;
	case CAP_F_EVENT_DESC:
		if (!d || size < 8)
			return 0;
		{
			uint32_t nre = cap_u32(d), sz = cap_u32(d + 4);
			ob_u32(b, nre + 1);
			ob_u32(b, sz);
			ob_put(b, d + 8, size - 8);
			uint8_t a[512];
			memset(a, 0, sizeof a);
			memcpy(a, s->attr.p, s->attr.len < sz ? s->attr.len : sz);
			ob_put(b, a, sz < sizeof a ? sz : sizeof a);
			ob_u32(b, s->n_cpus);
			ob_string(b, "arm_spe_0//");
			for (uint32_t cpu = 0; cpu < s->n_cpus; cpu++)
				ob_u64(b, s->spe_id_base + cpu);
		}
		return 1;
	case CAP_F_PMU_MAPPINGS:
		if (!d || size < 4)
			return 0;
		ob_u32(b, cap_u32(d) + 1);
		ob_put(b, d + 4, size - 4);
		ob_u32(b, s->pmu_type);
		ob_string(b, "arm_spe_0");
		return 1;
	default:
		if (!d)
			return 0;
		ob_put(b, d, size);
		return 1;
	}
}

static int keeps_feature(const struct splice *s, int bit, uint32_t n_bids)
{
	const struct capture *c = &s->cap;
	return c->feat[bit].data || bit == CAP_F_ARCH || bit == CAP_F_CPUID || (bit == CAP_F_BUILD_ID && n_bids) ||
	       (bit == CAP_F_AUXTRACE && !c->pipe);
}

/* ---- the two layouts ---- */

static uint32_t first_data_record(const struct capture *c)
{
	for (uint32_t i = 0; i < c->n_records; i++) {
		uint32_t t = c->records[i].type;
		if (t != CAP_HEADER_ATTR && t != CAP_HEADER_EVENT_TYPE && t != CAP_HEADER_TRACING_DATA &&
		    t != CAP_HEADER_BUILD_ID && t != CAP_HEADER_FEATURE)
			return i;
	}
	return c->n_records;
}

static uint32_t time_conv_record(const struct capture *c)
{
	for (uint32_t i = 0; i < c->n_records; i++)
		if (c->records[i].type == CAP_TIME_CONV)
			return i;
	return UINT32_MAX;
}

static void spe_setup_records(struct emit *e, const struct bid_entry *bids, uint32_t n_bids)
{
	if (e->s->cap.pipe)
		for (uint32_t i = 0; i < n_bids; i++)
			build_id_record(&e->out, &bids[i], CAP_HEADER_BUILD_ID);
	if (e->s->own_time_conv)
		emit_time_conv(e);
	emit_auxtrace_info(e);
}

static void emit_data(struct emit *e, const struct bid_entry *bids, uint32_t n_bids)
{
	struct splice *s = e->s;
	const struct capture *c = &s->cap;
	uint32_t first = first_data_record(c), tcr = time_conv_record(c);
	uint32_t last_attr = UINT32_MAX;
	for (uint32_t i = 0; i < c->n_records; i++)
		if (c->records[i].type == CAP_HEADER_ATTR)
			last_attr = i;
	int setup_done = 0;
	for (uint32_t i = 0; i < c->n_records; i++) {
		const struct cap_record *rec = &c->records[i];
		if (!setup_done && tcr == UINT32_MAX && i == first) {
			spe_setup_records(e, bids, n_bids);
			setup_done = 1;
		}
		emit_chunks(e, i);
		if (c->pipe && rec->type == CAP_HEADER_FEATURE && rec->len >= 16) {
			uint64_t feat = cap_u64(rec->bytes + 8);
			if (feat == CAP_F_ARCH || feat == CAP_F_CPUID || feat == CAP_F_EVENT_DESC || feat == CAP_F_PMU_MAPPINGS) {
				struct obuf b = { 0 };
				if (feature_content(s, (int)feat, &b, NULL, 0, NULL)) {
					ob_header(&e->out, CAP_HEADER_FEATURE, rec->misc, (uint16_t)(16 + b.len));
					ob_u64(&e->out, feat);
					ob_put(&e->out, b.p, b.len);
				}
				free(b.p);
				continue;
			}
		}
		ob_put(&e->out, rec->bytes, rec->len);
		if (c->pipe && i == last_attr) {
			/* the arm_spe event, then the features the input did not send */
			ob_header(&e->out, CAP_HEADER_ATTR, 0, (uint16_t)(8 + s->attr.len + 8 * s->n_cpus));
			ob_put(&e->out, s->attr.p, s->attr.len);
			for (uint32_t cpu = 0; cpu < s->n_cpus; cpu++)
				ob_u64(&e->out, s->spe_id_base + cpu);
			int add[2] = { CAP_F_ARCH, CAP_F_CPUID };
			for (int k = 0; k < 2; k++) {
				if (c->feat_record[add[k]] != UINT32_MAX)
					continue;
				struct obuf b = { 0 };
				feature_content(s, add[k], &b, NULL, 0, NULL);
				ob_header(&e->out, CAP_HEADER_FEATURE, 0, (uint16_t)(16 + b.len));
				ob_u64(&e->out, (uint64_t)add[k]);
				ob_put(&e->out, b.p, b.len);
				free(b.p);
			}
		}
		if (!setup_done && i == tcr) {
			/* perf's own TIME_CONV: AUXTRACE_INFO right after it (arm_spe copies it then) */
			spe_setup_records(e, bids, n_bids);
			setup_done = 1;
		}
	}
	if (!setup_done)
		spe_setup_records(e, bids, n_bids);
	emit_chunks(e, c->n_records);
}

static void write_output(struct splice *s, const char *path)
{
	const struct capture *c = &s->cap;
	struct emit e;
	memset(&e, 0, sizeof e);
	e.s = s;
	e.aux_offset = calloc(s->n_cpus ? s->n_cpus : 1, sizeof *e.aux_offset);
	e.prev_round_max = calloc(s->n_recs ? s->n_recs : 1, sizeof *e.prev_round_max);
	if (!e.aux_offset || !e.prev_round_max)
		die(70, "out of memory");
	place_records(s, e.prev_round_max);
	struct bid_entry *bids;
	uint32_t n_bids = build_id_entries(s, &bids);
	uint64_t attrs_off = 0;
	if (c->pipe) {
		ob_put(&e.out, c->buf, 16);
		emit_data(&e, bids, n_bids);
	} else {
		/* header, attrs, their ids, the data, the feature table and sections */
		ob_put(&e.out, NULL, 104);
		attrs_off = e.out.len;
		ob_put(&e.out, NULL, (c->n_attrs + 1) * c->attr_size);
		for (uint32_t i = 0; i < c->n_attrs; i++) {
			uint8_t *entry = e.out.p + attrs_off + i * c->attr_size;
			memcpy(entry, c->attrs[i].raw, c->attrs[i].raw_size);
			set_u64(entry + c->attr_size - 16, e.out.len);
			set_u64(entry + c->attr_size - 8, 8ull * c->attrs[i].n_ids);
			ob_put(&e.out, c->attrs[i].ids, 8ull * c->attrs[i].n_ids);
		}
		uint8_t *entry = e.out.p + attrs_off + c->n_attrs * c->attr_size;
		memcpy(entry, s->attr.p, s->attr.len);
		set_u64(entry + c->attr_size - 16, e.out.len);
		set_u64(entry + c->attr_size - 8, 8ull * s->n_cpus);
		for (uint32_t cpu = 0; cpu < s->n_cpus; cpu++)
			ob_u64(&e.out, s->spe_id_base + cpu);
		e.data_start = e.out.len;
		emit_data(&e, bids, n_bids);
		uint64_t data_size = e.out.len - e.data_start;
		/* features: a table of {offset, size}, then the sections */
		uint64_t bits[4] = { 0 };
		int nfeat = 0;
		for (int bit = 0; bit < CAP_F_MAX; bit++)
			if (keeps_feature(s, bit, n_bids)) {
				bits[bit / 64] |= 1ull << (bit % 64);
				nfeat++;
			}
		uint64_t table = e.out.len;
		ob_put(&e.out, NULL, 16ull * nfeat);
		int k = 0;
		for (int bit = 0; bit < CAP_F_MAX; bit++) {
			if (!(bits[bit / 64] >> (bit % 64) & 1))
				continue;
			struct obuf b = { 0 };
			feature_content(s, bit, &b, bids, n_bids, &e);
			set_u64(e.out.p + table + 16 * k, e.out.len);
			set_u64(e.out.p + table + 16 * k + 8, b.len);
			ob_put(&e.out, b.p, b.len);
			free(b.p);
			k++;
		}
		uint8_t *h = e.out.p;
		memcpy(h, c->buf, 8); /* PERFILE2 */
		set_u64(h + 8, 104);
		set_u64(h + 16, c->attr_size);
		set_u64(h + 24, attrs_off);
		set_u64(h + 32, (c->n_attrs + 1) * c->attr_size);
		set_u64(h + 40, e.data_start);
		set_u64(h + 48, data_size);
		set_u64(h + 56, 0);
		set_u64(h + 64, 0);
		for (int i = 0; i < 4; i++)
			set_u64(h + 72 + 8 * i, bits[i]);
	}
	/* a temporary file beside OUTPUT, renamed over it only when whole */
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof tmp, "%s.splice-XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0)
		die(73, "%s: cannot create a file beside it: %s", path, strerror(errno));
	size_t done = 0;
	while (done < e.out.len) {
		ssize_t w = write(fd, e.out.p + done, e.out.len - done);
		if (w <= 0) {
			int saved = errno;
			close(fd);
			unlink(tmp);
			die(74, "%s: write failed: %s", tmp, strerror(saved));
		}
		done += (size_t)w;
	}
	if (fchmod(fd, 0644) < 0 || close(fd) < 0 || rename(tmp, path) < 0) {
		int saved = errno;
		unlink(tmp);
		die(74, "%s: %s", path, strerror(saved));
	}
	fprintf(stderr, "spe-splice: %s: %u SPE records on %u CPU(s) in %u AUXTRACE records, %u input records kept%s\n",
		path, s->n_recs, s->n_cpus, e.n_index, c->n_records,
		c->n_compressed ? " (COMPRESSED ones verbatim)" : "");
	free(bids);
	free(e.out.p);
	free(e.aux_offset);
	free(e.index);
	free(e.seen);
	free(e.prev_round_max);
}

static void write_truth(const struct splice *s, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		die(73, "%s: %s", path, strerror(errno));
	fprintf(f, "# spe-splice truth: one SPE record a line; dso and syms list the right answers, '|'-separated; '-' = not asserted\n");
	fprintf(f, "# n\tcpu\tts\ttime\tpc\tel\tpid\ttid\tdso\tsyms\tplan_line\n");
	for (unsigned i = 0; i < s->n_recs; i++) {
		const struct spe_rec *r = &s->recs[i];
		fprintf(f, "%u\t%u\t%" PRIu64 "\t%" PRIu64 "\t0x%" PRIx64 "\t%d\t%u\t%u\t%s\t%s\t%d\n", r->n, r->cpu, r->ts,
			r->time, r->pc, r->el, r->pid, r->tid, r->dso, r->syms, r->sp->line);
	}
	if (fclose(f) != 0)
		die(74, "%s: write failed", path);
}

static void usage(void)
{
	fprintf(stderr, "usage: spe-splice [--sysroot=DIR] [--truth=FILE] INPUT PLAN OUTPUT\n"
			"  INPUT   a perf.data perf record wrote (file or pipe format, -z allowed)\n"
			"  PLAN    the SPE records to add (tests/realcap/README.md)\n"
			"  OUTPUT  the arm64 capture (written whole, then renamed into place)\n");
	exit(64);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = { { "sysroot", required_argument, NULL, 's' },
					      { "truth", required_argument, NULL, 't' },
					      { "help", no_argument, NULL, 'h' },
					      { NULL, 0, NULL, 0 } };
	struct splice s;
	memset(&s, 0, sizeof s);
	s.sysroot = "";
	const char *truth = NULL;
	int c;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 's')
			s.sysroot = optarg;
		else if (c == 't')
			truth = optarg;
		else
			usage();
	}
	if (argc - optind != 3)
		usage();
	const char *input = argv[optind], *plan_path = argv[optind + 1], *output = argv[optind + 2];
	int status = 0;
	if (cap_read(&s.cap, input, s.err, sizeof s.err, &status) < 0)
		die(status, "%s", s.err);
	FILE *pf = fopen(plan_path, "r");
	if (!pf)
		die(66, "%s: %s", plan_path, strerror(errno));
	static char text[1 << 20];
	size_t tl = fread(text, 1, sizeof text, pf);
	if (ferror(pf) || !feof(pf))
		die(65, "%s: unreadable or larger than 1 MiB", plan_path);
	fclose(pf);
	if (plan_parse(&s.plan, text, tl, plan_path, s.err, sizeof s.err) < 0)
		die(65, "%s", s.err);
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%s", plan_path);
	snprintf(s.plan_dir, sizeof s.plan_dir, "%s", dirname(dir));
	s.nr_cpus_avail = s.cap.feat[CAP_F_NRCPUS].size >= 4 ? cap_u32(s.cap.feat[CAP_F_NRCPUS].data) : 4096;
	model_init(&s.model, &s.cap);
	model_set_known_files(&s.model, known_file, &s);
	build_attr(&s);
	choose_time_conv(&s);
	plan_records(&s);
	qsort(s.recs, s.n_recs, sizeof *s.recs, by_time);
	write_output(&s, output);
	qsort(s.recs, s.n_recs, sizeof *s.recs, by_number);
	if (truth)
		write_truth(&s, truth);
	free(s.recs);
	free(s.attr.p);
	model_free(&s.model);
	plan_free(&s.plan);
	cap_free(&s.cap);
	return 0;
}
