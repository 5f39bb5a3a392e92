/* SPDX-License-Identifier: Apache-2.0 */
/* Replay through simulated rings and the shared drain loop (see spe/replay.h). */
#include "spe/replay.h"
#include "spe/kernel_records.h"
#include "spe/ring_sim.h"
#include "spe/spe.h"

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
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errsize, "%s: cannot open: %s", path, strerror(errno));
		return -spe_io;
	}
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errsize, "%s: not a regular file", path);
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

/* One hardware burst on @p c: up to @p burst bytes, ending on a record boundary. */
static void burst_once(struct replay_cpu *c, uint64_t burst, uint64_t **cuts, size_t *cap, const uint8_t *trailer,
		       size_t tlen)
{
	size_t need = (size_t)(burst < 1u << 20 ? burst : 1u << 20) + 1;
	if (*cap < need) {
		uint64_t *p = realloc(*cuts, need * sizeof *p);
		if (p) {
			*cuts = p;
			*cap = need;
		}
	}
	size_t n = spe_replay_record_ends(c->bytes, c->len, c->pos, burst, *cuts, *cap);
	uint64_t take;
	if (n) {
		take = (*cuts)[n - 1];
	} else {
		/* No record ends inside the burst (bytes that are not SPE records): cut at the burst size. */
		take = burst < c->len - c->pos ? burst : c->len - c->pos;
		(*cuts)[0] = take;
		n = 1;
	}
	spe_ring_sim_aux_burst(&c->sim, c->bytes + c->pos, take, *cuts, n, trailer, tlen);
	c->pos += take;
}

int spe_replay_run(const struct spe_replay_manifest *m, const struct spe_replay_config *cfg_in,
		   const struct spe_session_sink *sink, struct spe_session_stats *session_stats,
		   struct spe_replay_stats *stats, char *err, size_t errsize)
{
	struct spe_replay_config cfg = { 0 };
	memcpy(&cfg, cfg_in, cfg_in->size < sizeof cfg ? cfg_in->size : sizeof cfg);
	if (!cfg.aux_size)
		cfg.aux_size = SPE_REPLAY_DEFAULT_AUX_SIZE;
	if (!cfg.data_size)
		cfg.data_size = SPE_REPLAY_DEFAULT_DATA_SIZE;
	if (!cfg.burst)
		cfg.burst = cfg.aux_size / 2;
	memset(stats, 0, sizeof *stats);
	if (errsize)
		err[0] = 0;
	if (!is_pow2(cfg.aux_size) || cfg.aux_size < 4096) {
		snprintf(err, errsize, "AUX size %llu is not a power of two of at least 4096 bytes",
			 (unsigned long long)cfg.aux_size);
		return -spe_invalid;
	}

	struct spe_session s = { .sink = *sink };
	struct replay_cpu *rc = calloc(m->n_cpus ? m->n_cpus : 1, sizeof *rc);
	s.cpus = calloc(m->n_cpus ? m->n_cpus : 1, sizeof *s.cpus);
	uint64_t *cuts = NULL;
	size_t cap = 0;
	uint8_t *rec = malloc(SPE_KREC_MAX);
	int r = 0;
	if (!rc || !s.cpus || !rec) {
		r = -spe_nomem;
		goto out;
	}
	s.n_cpus = m->n_cpus;
	for (size_t i = 0; i < m->n_cpus; i++) {
		const struct spe_replay_cpu *mc = &m->cpus[i];
		if ((r = spe_ring_sim_init(&rc[i].sim, cfg.data_size, cfg.aux_size))) {
			snprintf(err, errsize, "cannot set up the simulated ring: %s", spe_errstr(r));
			goto out;
		}
		rc[i].sim.lost_id = cfg.sample_id;
		if (mc->aux_path && (r = load_aux(mc->aux_path, &rc[i], err, errsize)))
			goto out;
		stats->input_bytes += rc[i].len;
		rc[i].sid = (struct spe_sid){ .pid = mc->has_itrace_start ? mc->itrace_pid : UINT32_MAX,
					      .tid = mc->has_itrace_start ? mc->itrace_tid : UINT32_MAX,
					      .id = cfg.sample_id,
					      .cpu = mc->cpu };
		s.cpus[i] = (struct spe_session_cpu){ .cpu = mc->cpu, .idx = (uint32_t)i, .tid = -1,
						      .ring = &rc[i].sim.ring, .spe_fd = -1 };
	}

	/* Sideband first, at time 0, so every sample can see its COMM and MMAP2. */
	for (size_t i = 0; i < m->n_side && m->n_cpus; i++) {
		const struct spe_replay_side *sd = &m->side[i];
		struct spe_sid sid = { .id = cfg.sample_id, .cpu = m->cpus[0].cpu };
		size_t len;
		if (sd->kind == SPE_REPLAY_COMM) {
			sid.pid = sd->u.comm.pid;
			sid.tid = sd->u.comm.tid;
			len = spe_krec_comm(rec, sd->u.comm.pid, sd->u.comm.tid, sd->u.comm.name, 1, cfg.sample_type, &sid);
		} else {
			const struct spe_replay_mmap2 *mm = &sd->u.mmap2;
			struct spe_krec_mmap2 k = { .pid = mm->pid, .tid = mm->tid, .start = mm->start, .len = mm->len,
						    .pgoff = mm->pgoff, .prot = mm->prot,
						    .flags = mm->flags, .build_id = mm->build_id,
						    .build_id_size = mm->build_id_size, .filename = mm->path };
			sid.pid = mm->pid;
			sid.tid = mm->tid;
			len = spe_krec_mmap2(rec, &k, cfg.sample_type, &sid);
		}
		spe_ring_sim_emit(&rc[0].sim, rec, len);
		if (spe_ring_data_pending(&rc[0].sim.ring) > cfg.data_size / 2) {
			int64_t d = spe_session_drain(&s);
			if (d < 0) {
				r = (int)d;
				goto drain_failed;
			}
		}
	}
	for (size_t i = 0; i < m->n_cpus; i++) {
		if (!m->cpus[i].has_itrace_start)
			continue;
		size_t len = spe_krec_itrace_start(rec, m->cpus[i].itrace_pid, m->cpus[i].itrace_tid, cfg.sample_type,
						   &rc[i].sid);
		spe_ring_sim_emit(&rc[i].sim, rec, len);
	}
	int64_t first = spe_session_drain(&s);
	if (first < 0) {
		r = (int)first;
		goto drain_failed;
	}

	uint8_t trailer[64];
	for (;;) {
		int busy = 0;
		for (size_t i = 0; i < m->n_cpus; i++) {
			struct replay_cpu *c = &rc[i];
			if (c->pos >= c->len)
				continue;
			size_t tlen = spe_sid_encode(cfg.sample_type, &c->sid, trailer);
			burst_once(c, cfg.burst, &cuts, &cap, trailer, tlen);
			busy = 1;
		}
		int64_t d = spe_session_drain(&s);
		if (d < 0) {
			r = (int)d;
			goto drain_failed;
		}
		if (!busy)
			break;
		if (cfg.stop && *cfg.stop) {
			stats->stopped = 1;
			break;
		}
	}
	goto out;

drain_failed:
	snprintf(err, errsize, "draining the rings failed: %s", spe_errstr(r));
out:
	if (rc) {
		for (size_t i = 0; i < m->n_cpus; i++) {
			stats->aux_written += rc[i].sim.aux_written;
			stats->aux_dropped += rc[i].sim.aux_dropped;
			stats->records_dropped += rc[i].sim.records_dropped;
			if (rc[i].map_len)
				munmap((void *)rc[i].bytes, rc[i].map_len);
			spe_ring_sim_fini(&rc[i].sim);
		}
	}
	if (session_stats)
		*session_stats = s.stats;
	spe_session_fini(&s);
	free(s.cpus);
	free(rc);
	free(cuts);
	free(rec);
	return r;
}
