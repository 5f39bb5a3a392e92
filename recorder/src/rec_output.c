/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Session sink over the perf.data writer.  Kernel records arrive from a data
 * ring with their sample_id trailer; the writer re-emits them with the
 * file's single attr id, so records of the SPE event and of the dummy
 * tracking event end up under one attr with one trailer layout.
 */
#include "spe/rec_output.h"
#include "spe/kernel_records.h"
#include "spe/outfile.h"
#include "spe/spe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_BUILD_IDS 4096

struct spe_rec_output {
	struct spe_outfile *file; /* a temporary beside path until the close */
	char *path;
	struct spe_perf_writer *w;
	uint64_t reference;
	uint64_t unwritten;
	uint32_t first_unwritten_type;
	char errmsg[512];
	size_t n_bids;
	struct { uint8_t size, id[20]; } bids[MAX_BUILD_IDS];
};

uint64_t spe_rec_output_sample_type(void)
{
	return SPE_PERF_WRITER_SAMPLE_TYPE;
}

static int writer_failed(struct spe_rec_output *o)
{
	int saved = 0;
	int r = spe_perf_writer_error(o->w, &saved);
	if (r)
		snprintf(o->errmsg, sizeof o->errmsg, "%s: %s", o->path, spe_perf_writer_errmsg(o->w));
	return r;
}

int spe_rec_output_open(const char *path, const struct spe_rec_output_config *cfg_in, struct spe_rec_output **out,
			char *err, size_t errsize)
{
	struct spe_rec_output_config cfg = *cfg_in;
	*out = NULL;
	struct spe_rec_output *o = calloc(1, sizeof *o);
	if (!o || !(o->path = strdup(path))) {
		free(o);
		snprintf(err, errsize, "%s: out of memory", path);
		return -spe_nomem;
	}
	int r = spe_outfile_open(path, "spe-record", SPE_OUTFILE_KEEP_OLD, &o->file, err, errsize);
	if (r) {
		free(o->path);
		free(o);
		return r;
	}

	long online = sysconf(_SC_NPROCESSORS_ONLN), conf = sysconf(_SC_NPROCESSORS_CONF);

	/* v1 unless the CPUs' MIDRs differ (perf 6.1 reads only v1). */
	int differ = 0;
	for (uint32_t i = 1; i < cfg.n_cpus && cfg.midrs; i++)
		differ |= cfg.midrs[i] != cfg.midrs[0];
	struct spe_perf_spe_cpu *pc = NULL;
	if (differ) {
		pc = calloc(cfg.n_cpus, sizeof *pc);
		for (uint32_t i = 0; pc && i < cfg.n_cpus; i++)
			pc[i] = (struct spe_perf_spe_cpu){ .cpu = cfg.cpus[i], .midr = cfg.midrs[i],
							   .pmu_type = cfg.pmu_type ? cfg.pmu_type : 8 };
	}
	struct spe_perf_time_conv tc = { .time_mult = 1, .cap_user_time_zero = 1 };
	if (cfg.time_conv) {
		tc.time_shift = cfg.time_conv->time_shift;
		tc.time_mult = cfg.time_conv->time_mult;
		tc.time_zero = cfg.time_conv->time_zero;
		tc.time_cycles = cfg.time_conv->time_cycles;
		tc.time_mask = cfg.time_conv->time_mask;
		tc.cap_user_time_zero = cfg.time_conv->cap_user_time_zero;
		tc.cap_user_time_short = cfg.time_conv->cap_user_time_short;
	}
	struct spe_perf_writer_config wc = SPE_OPTS(spe_perf_writer_config,
		.pmu_type = cfg.pmu_type,
		.config = cfg.config, .config1 = cfg.config1, .config2 = cfg.config2,
		.exclude_user = cfg.exclude_user, .exclude_kernel = cfg.exclude_kernel,
		.sample_type = SPE_PERF_WRITER_SAMPLE_TYPE,
		.sample_period = cfg.sample_period,
		.sample_id = SPE_REC_OUTPUT_SAMPLE_ID,
		.midr = cfg.n_cpus && cfg.midrs ? (uint32_t)cfg.midrs[0] : 0,
		.auxtrace_info_version = pc ? 2 : 1,
		.cpus = pc, .n_cpus = pc ? cfg.n_cpus : 0,
		.nr_cpus_avail = cfg.nr_cpus_avail ? cfg.nr_cpus_avail : (uint32_t)(conf > 0 ? conf : 1),
		.nr_cpus_online = cfg.nr_cpus_online ? cfg.nr_cpus_online : (uint32_t)(online > 0 ? online : 1),
		.arch = cfg.arch,
		.hostname = cfg.hostname, .osrelease = cfg.osrelease,
		.argc = cfg.argc, .argv = cfg.argv,
		.time_conv = &tc,
		.numa_nodes = cfg.numa_nodes, .n_numa_nodes = cfg.n_numa_nodes,
		.memory_block_size = cfg.memory_block_size);
	o->w = spe_perf_writer_open(spe_outfile_fd(o->file), &wc);
	free(pc);
	if (!o->w) {
		snprintf(err, errsize, "%s: out of memory", path);
		spe_outfile_abort(o->file);
		free(o->path);
		free(o);
		return -spe_nomem;
	}
	r = writer_failed(o);
	if (r) {
		snprintf(err, errsize, "%s", o->errmsg);
		spe_rec_output_abort(o);
		return r;
	}
	*out = o;
	return 0;
}

/* The writer's message for a failed call, else the call's own code. */
static int fail_from(struct spe_rec_output *o, int r)
{
	if (!r)
		return 0;
	int w = writer_failed(o);
	return w ? w : r;
}

static void note_build_id(struct spe_rec_output *o, const struct spe_perf_mmap *m)
{
	for (size_t i = 0; i < o->n_bids; i++)
		if (o->bids[i].size == m->build_id_size && !memcmp(o->bids[i].id, m->build_id, m->build_id_size))
			return;
	if (o->n_bids == MAX_BUILD_IDS)
		return;
	o->bids[o->n_bids].size = m->build_id_size;
	memcpy(o->bids[o->n_bids].id, m->build_id, m->build_id_size);
	o->n_bids++;
	spe_perf_writer_add_build_id(o->w, m->pid, m->build_id, m->build_id_size, m->filename);
}

static uint32_t u32_at(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

static uint64_t u64_at(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* Copy a NUL-padded string field of at most @p max bytes. */
static void str_field(char *dst, size_t cap, const uint8_t *p, size_t max)
{
	size_t n = strnlen((const char *)p, max < cap - 1 ? max : cap - 1);
	memcpy(dst, p, n);
	dst[n] = 0;
}

static int on_kernel_event(void *ctx, const struct perf_event_header *ev)
{
	struct spe_rec_output *o = ctx;
	const uint64_t st = SPE_PERF_WRITER_SAMPLE_TYPE;
	const uint8_t *b = (const uint8_t *)(ev + 1);
	size_t tsz = spe_sid_size(st);
	struct spe_sid s;
	int r = 0;

	size_t body_min;
	switch (ev->type) {
	case PERF_RECORD_AUX: body_min = 24; break;
	case PERF_RECORD_MMAP2: body_min = 64; break;
	case PERF_RECORD_COMM:
	case PERF_RECORD_ITRACE_START: body_min = 8; break;
	default: body_min = 0; break; /* SWITCH has no body at all */
	}
	if (spe_sid_decode(st, ev, body_min, &s) < 0) {
		o->unwritten++;
		if (!o->first_unwritten_type)
			o->first_unwritten_type = ev->type;
		return 0;
	}
	struct spe_perf_writer_sid sid = { .pid = s.pid, .tid = s.tid, .time = s.time, .cpu = s.cpu };
	size_t body = ev->size - sizeof *ev - tsz;

	switch (ev->type) {
	case PERF_RECORD_AUX:
		r = spe_perf_write_aux(o->w, u64_at(b), u64_at(b + 8), u64_at(b + 16), &sid);
		break;
	case PERF_RECORD_ITRACE_START:
		r = spe_perf_write_itrace_start(o->w, u32_at(b), u32_at(b + 4), &sid);
		break;
	case PERF_RECORD_COMM: {
		char comm[64];
		str_field(comm, sizeof comm, b + 8, body - 8);
		r = spe_perf_write_comm(o->w, u32_at(b), u32_at(b + 4), comm, !!(ev->misc & PERF_RECORD_MISC_COMM_EXEC),
					&sid);
		break;
	}
	case PERF_RECORD_MMAP2: {
		char name[4096];
		struct spe_perf_mmap m = { .pid = u32_at(b), .tid = u32_at(b + 4), .start = u64_at(b + 8),
					   .len = u64_at(b + 16), .pgoff = u64_at(b + 24),
					   .prot = u32_at(b + 56), .flags = u32_at(b + 60), .filename = name };
		if (ev->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			m.build_id_size = b[32] > 20 ? 20 : b[32];
			memcpy(m.build_id, b + 36, m.build_id_size);
		} else {
			m.maj = u32_at(b + 32);
			m.min = u32_at(b + 36);
			m.ino = u64_at(b + 40);
			m.ino_generation = u64_at(b + 48);
		}
		str_field(name, sizeof name, b + 64, body - 64);
		r = spe_perf_write_mmap2(o->w, &m, &sid);
		if (!r && m.build_id_size)
			note_build_id(o, &m);
		break;
	}
	default:
		/* FORK, EXIT, SWITCH, SWITCH_CPU_WIDE, LOST, MMAP, ...: the body as the kernel wrote it. */
		if (body % 8) {
			o->unwritten++;
			if (!o->first_unwritten_type)
				o->first_unwritten_type = ev->type;
			return 0;
		}
		r = spe_perf_write_kernel_record(o->w, ev->type, ev->misc, b, body, &sid);
		break;
	}
	return fail_from(o, r);
}

static int on_auxtrace(void *ctx, const void *data, uint64_t size, uint64_t offset, uint32_t idx, int32_t tid,
		       int32_t cpu)
{
	struct spe_rec_output *o = ctx;
	int r = spe_perf_write_auxtrace(o->w, data, size, offset, ++o->reference, idx, tid, cpu);
	return fail_from(o, r);
}

struct spe_session_sink spe_rec_output_sink(struct spe_rec_output *o)
{
	return (struct spe_session_sink){ .ctx = o, .kernel_event = on_kernel_event, .auxtrace = on_auxtrace };
}

uint64_t spe_rec_output_unwritten(const struct spe_rec_output *o, uint32_t *first_type)
{
	if (first_type)
		*first_type = o->first_unwritten_type;
	return o->unwritten;
}

const char *spe_rec_output_errmsg(const struct spe_rec_output *o)
{
	return o->errmsg;
}

int spe_rec_output_close(struct spe_rec_output *o, char *err, size_t errsize)
{
	if (!o)
		return 0;
	int r = writer_failed(o);
	char wmsg[256];
	int c = spe_perf_writer_close_msg(o->w, wmsg, sizeof wmsg);
	if (!r && c) {
		r = c;
		snprintf(o->errmsg, sizeof o->errmsg, "%s: %s", o->path, wmsg);
	}
	if (r) {
		/* Whatever went wrong, the file the user had stays as it was. */
		spe_outfile_abort(o->file);
	} else if ((r = spe_outfile_commit(o->file, o->errmsg, sizeof o->errmsg)) != 0) {
		r = r == -spe_invalid ? -spe_io : r;
	}
	if (r && err && errsize)
		snprintf(err, errsize, "%s", o->errmsg);
	free(o->path);
	free(o);
	return r;
}

void spe_rec_output_abort(struct spe_rec_output *o)
{
	if (!o)
		return;
	spe_perf_writer_close(o->w);
	spe_outfile_abort(o->file);
	free(o->path);
	free(o);
}
