/* SPDX-License-Identifier: Apache-2.0 */
/* Replay through simulated rings and the shared drain loop (see spe/replay.h). */
#include "spe/replay.h"
#include "spe/infile.h"
#include "spe/kernel_records.h"
#include "spe/ring_sim.h"
#include "spe/spe.h"
#include "util/grow.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct replay_cpu {
	struct spe_ring_sim sim;
	const uint8_t *bytes;
	uint64_t len, pos;
	size_t map_len; /* 0: bytes is not mapped */
	struct spe_sid sid;
};

size_t spe_replay_record_ends(const uint8_t *bytes, uint64_t len, uint64_t from, uint64_t limit, uint64_t *cuts,
			      size_t cap)
{
	size_t n = 0;
	uint64_t end = len - from < limit ? len : from + limit;
	uint64_t at = from;
	while (at < end && n < cap) {
		struct spe_packet pkt;
		int r = spe_pkt_read(bytes + at, (size_t)(len - at), at, &pkt);
		if (r == -spe_need_more)
			break;
		if (r <= 0) {
			at++; /* a bad byte: the hardware wrote it, keep going */
			continue;
		}
		at += (uint64_t)r;
		if (at > end)
			break;
		if (pkt.type == SPE_PKT_TIMESTAMP || pkt.type == SPE_PKT_END)
			cuts[n++] = at - from;
	}
	return n;
}

static int load_aux(const char *path, struct replay_cpu *c, char *err, size_t errsize)
{
	int fd = spe_infile_open(path, err, errsize); /* never blocks on a FIFO */
	if (fd < 0)
		return -spe_io;
	struct stat st;
	if (fstat(fd, &st) < 0) {
		snprintf(err, errsize, "%s: cannot stat: %s", path, strerror(errno));
		close(fd);
		return -spe_io;
	}
	c->len = (uint64_t)st.st_size;
	if (c->len) {
		void *p = mmap(NULL, (size_t)c->len, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			snprintf(err, errsize, "%s: cannot map: %s", path, strerror(errno));
			close(fd);
			return -spe_io;
		}
		c->bytes = p;
		c->map_len = (size_t)c->len;
	}
	close(fd);
	return 0;
}

static int is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

/* @p in with its zero fields set to the defaults, then checked. */
static int with_defaults(const struct spe_replay_config *in, struct spe_replay_config *cfg, char *err, size_t errsize)
{
	*cfg = *in;
	if (!cfg->aux_size)
		cfg->aux_size = SPE_REPLAY_DEFAULT_AUX_SIZE;
	if (!cfg->data_size)
		cfg->data_size = SPE_REPLAY_DEFAULT_DATA_SIZE;
	if (!cfg->burst)
		cfg->burst = cfg->aux_size / 2;
	if (errsize)
		err[0] = 0;
	if (!is_pow2(cfg->aux_size) || cfg->aux_size < 4096) {
		snprintf(err, errsize, "AUX size %llu is not a power of two of at least 4096 bytes",
			 (unsigned long long)cfg->aux_size);
		return -spe_invalid;
	}
	return 0;
}

int spe_replay_check_config(const struct spe_replay_config *cfg, char *err, size_t errsize)
{
	struct spe_replay_config full;
	return with_defaults(cfg, &full, err, errsize);
}

/* One replay: the simulated CPUs, the session draining them, scratch space. */
struct replay {
	const struct spe_replay_manifest *m;
	struct spe_replay_config cfg;
	struct spe_session s;
	struct replay_cpu *rc;
	uint64_t *cuts; /* record ends of one burst */
	size_t cap;
	uint8_t *rec;   /* one kernel record */
};

/* One hardware burst on @p c: up to @p burst bytes, ending on a record boundary. */
static void burst_once(struct replay *rp, struct replay_cpu *c, const uint8_t *trailer, size_t tlen)
{
	uint64_t burst = rp->cfg.burst;
	size_t need = (size_t)(burst < 1u << 20 ? burst : 1u << 20) + 1;
	uint64_t *p = util_grow(rp->cuts, &rp->cap, need, sizeof *p);
	if (p)
		rp->cuts = p;
	size_t n = spe_replay_record_ends(c->bytes, c->len, c->pos, burst, rp->cuts, rp->cap);
	uint64_t take;
	if (n) {
		take = rp->cuts[n - 1];
	} else {
		/* No record ends inside the burst (bytes that are not SPE records): cut at the burst size. */
		take = burst < c->len - c->pos ? burst : c->len - c->pos;
		rp->cuts[0] = take;
		n = 1;
	}
	spe_ring_sim_aux_burst(&c->sim, c->bytes + c->pos, take, rp->cuts, n, trailer, tlen);
	c->pos += take;
}

/* A simulated ring per manifest CPU, its AUX bytes mapped, and the session's view of it. */
static int set_up_cpus(struct replay *rp, struct spe_replay_stats *stats, char *err, size_t errsize)
{
	const struct spe_replay_manifest *m = rp->m;
	for (size_t i = 0; i < m->n_cpus; i++) {
		const struct spe_replay_cpu *mc = &m->cpus[i];
		struct replay_cpu *c = &rp->rc[i];
		int r = spe_ring_sim_init(&c->sim, rp->cfg.data_size, rp->cfg.aux_size);
		if (r) {
			snprintf(err, errsize, "cannot set up the simulated ring: %s", spe_errstr(r));
			return r;
		}
		c->sim.lost_id = rp->cfg.sample_id;
		if (mc->aux_path && (r = load_aux(mc->aux_path, c, err, errsize)))
			return r;
		stats->input_bytes += c->len;
		c->sid = (struct spe_sid){ .pid = mc->has_itrace_start ? mc->itrace_pid : UINT32_MAX,
					   .tid = mc->has_itrace_start ? mc->itrace_tid : UINT32_MAX,
					   .id = rp->cfg.sample_id,
					   .cpu = mc->cpu };
		rp->s.cpus[i] = (struct spe_session_cpu){ .cpu = mc->cpu, .idx = (uint32_t)i, .tid = -1,
							  .ring = &c->sim.ring, .spe_fd = -1 };
	}
	return 0;
}

/* The manifest's COMM and MMAP2 on the first CPU's ring (drained as it fills). */
static int emit_side(struct replay *rp, const struct spe_replay_side *sd)
{
	struct spe_sid sid = { .id = rp->cfg.sample_id, .cpu = rp->m->cpus[0].cpu };
	size_t len;
	if (sd->kind == SPE_REPLAY_COMM) {
		sid.pid = sd->u.comm.pid;
		sid.tid = sd->u.comm.tid;
		len = spe_krec_comm(rp->rec, sd->u.comm.pid, sd->u.comm.tid, sd->u.comm.name, 1, rp->cfg.sample_type,
				    &sid);
	} else {
		const struct spe_replay_mmap2 *mm = &sd->u.mmap2;
		struct spe_krec_mmap2 k = { .pid = mm->pid, .tid = mm->tid, .start = mm->start, .len = mm->len,
					    .pgoff = mm->pgoff, .prot = mm->prot,
					    .flags = mm->flags, .build_id = mm->build_id,
					    .build_id_size = mm->build_id_size, .filename = mm->path };
		sid.pid = mm->pid;
		sid.tid = mm->tid;
		len = spe_krec_mmap2(rp->rec, &k, rp->cfg.sample_type, &sid);
	}
	struct spe_ring_sim *sim = &rp->rc[0].sim;
	spe_ring_sim_emit(sim, rp->rec, len);
	if (spe_ring_data_pending(&sim->ring) > rp->cfg.data_size / 2) {
		int64_t d = spe_session_drain(&rp->s);
		if (d < 0)
			return (int)d;
	}
	return 0;
}

/* Sideband first, at time 0, so every sample can see its COMM and MMAP2; then each CPU's ITRACE_START. */
static int emit_sideband(struct replay *rp)
{
	const struct spe_replay_manifest *m = rp->m;
	for (size_t i = 0; i < m->n_side && m->n_cpus; i++) {
		int r = emit_side(rp, &m->side[i]);
		if (r)
			return r;
	}
	for (size_t i = 0; i < m->n_cpus; i++) {
		if (!m->cpus[i].has_itrace_start)
			continue;
		size_t len = spe_krec_itrace_start(rp->rec, m->cpus[i].itrace_pid, m->cpus[i].itrace_tid,
						   rp->cfg.sample_type, &rp->rc[i].sid);
		spe_ring_sim_emit(&rp->rc[i].sim, rp->rec, len);
	}
	int64_t d = spe_session_drain(&rp->s);
	return d < 0 ? (int)d : 0;
}

/* A burst on every CPU with data left, then a drain, until all is written or the caller stops it. */
static int replay_bursts(struct replay *rp, struct spe_replay_stats *stats)
{
	uint8_t trailer[64];
	for (;;) {
		int busy = 0;
		for (size_t i = 0; i < rp->m->n_cpus; i++) {
			struct replay_cpu *c = &rp->rc[i];
			if (c->pos >= c->len)
				continue;
			size_t tlen = spe_sid_encode(rp->cfg.sample_type, &c->sid, trailer);
			burst_once(rp, c, trailer, tlen);
			busy = 1;
		}
		int64_t d = spe_session_drain(&rp->s);
		if (d < 0)
			return (int)d;
		if (!busy)
			return 0;
		if (rp->cfg.stop && *rp->cfg.stop) {
			stats->stopped = 1;
			return 0;
		}
	}
}

int spe_replay_run(const struct spe_replay_manifest *m, const struct spe_replay_config *cfg_in,
		   const struct spe_session_sink *sink, struct spe_session_stats *session_stats,
		   struct spe_replay_stats *stats, char *err, size_t errsize)
{
	struct replay rp = { .m = m, .s = { .sink = *sink } };
	memset(stats, 0, sizeof *stats);
	int r = with_defaults(cfg_in, &rp.cfg, err, errsize);
	if (r)
		return r;
	size_t n = m->n_cpus ? m->n_cpus : 1;
	rp.rc = calloc(n, sizeof *rp.rc);
	rp.s.cpus = calloc(n, sizeof *rp.s.cpus);
	rp.rec = malloc(SPE_KREC_MAX);
	if (!rp.rc || !rp.s.cpus || !rp.rec) {
		r = -spe_nomem;
	} else {
		rp.s.n_cpus = m->n_cpus;
		if (!(r = set_up_cpus(&rp, stats, err, errsize)) &&
		    ((r = emit_sideband(&rp)) || (r = replay_bursts(&rp, stats))))
			snprintf(err, errsize, "draining the rings failed: %s", spe_errstr(r));
	}
	for (size_t i = 0; rp.rc && i < m->n_cpus; i++) {
		stats->aux_written += rp.rc[i].sim.aux_written;
		stats->aux_dropped += rp.rc[i].sim.aux_dropped;
		stats->records_dropped += rp.rc[i].sim.records_dropped;
		if (rp.rc[i].map_len)
			munmap((void *)rp.rc[i].bytes, rp.rc[i].map_len);
		spe_ring_sim_fini(&rp.rc[i].sim);
	}
	if (session_stats)
		*session_stats = rp.s.stats;
	spe_session_fini(&rp.s);
	free(rp.s.cpus);
	free(rp.rc);
	free(rp.cuts);
	free(rp.rec);
	return r;
}
