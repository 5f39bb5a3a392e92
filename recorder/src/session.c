/* SPDX-License-Identifier: Apache-2.0 */
/* The drain loop body shared by live recording and replay. */
#include "spe/session.h"
#include "spe/spe.h"

#include <stdlib.h>
#include <string.h>

struct drain_ctx {
	struct spe_session *s;
	struct spe_session_cpu *cpu;
	int saw_truncation;
};

static int on_event(void *ctx, const struct perf_event_header *ev)
{
	struct drain_ctx *d = ctx;
	struct spe_session_stats *st = &d->s->stats;
	const uint64_t *body = (const uint64_t *)(ev + 1);

	if (ev->type == PERF_RECORD_AUX && ev->size >= 32) {
		uint64_t flags = body[2];
		st->aux_records++;
		if (flags & PERF_AUX_FLAG_TRUNCATED) {
			st->aux_truncated++;
			d->cpu->truncated++;
			d->saw_truncation = 1;
		}
		if (flags & PERF_AUX_FLAG_PARTIAL)
			st->aux_partial++;
		if (flags & PERF_AUX_FLAG_COLLISION)
			st->aux_collision++;
	} else if (ev->type == PERF_RECORD_LOST && ev->size >= 24) {
		st->lost_events += body[1];
	}
	st->kernel_events++;
	return d->s->sink.kernel_event(d->s->sink.ctx, ev);
}

static int on_aux(void *ctx, uint64_t offset, const uint8_t *p1, size_t n1, const uint8_t *p2, size_t n2)
{
	struct drain_ctx *d = ctx;
	struct spe_session *s = d->s;
	const uint8_t *data = p1;
	size_t n = n1 + n2;

	/* perf's decoder does not join packets across AUXTRACE records: keep one record per drain. */
	if (n2) {
		if (s->scratch_size < n) {
			uint8_t *b = realloc(s->scratch, n);
			if (!b)
				return -spe_nomem;
			s->scratch = b;
			s->scratch_size = n;
		}
		memcpy(s->scratch, p1, n1);
		memcpy(s->scratch + n1, p2, n2);
		data = s->scratch;
	}
	int r = s->sink.auxtrace(s->sink.ctx, data, n, offset, d->cpu->idx, d->cpu->tid, (int32_t)d->cpu->cpu);
	if (r < 0)
		return r;
	s->stats.auxtrace_records++;
	s->stats.aux_bytes += n;
	return 0;
}

int64_t spe_session_drain(struct spe_session *s)
{
	int64_t moved = 0;
	s->stats.drains++;
	for (size_t i = 0; i < s->n_cpus; i++) {
		struct drain_ctx d = { s, &s->cpus[i], 0 };
		int n = spe_ring_read_events(s->cpus[i].ring, on_event, &d);
		if (n < 0)
			return n;
		int64_t bytes = spe_ring_drain_aux(s->cpus[i].ring, on_aux, &d);
		if (bytes < 0)
			return bytes;
		moved += n + bytes;
		if (d.saw_truncation && s->on_truncated)
			s->on_truncated(s, &s->cpus[i]);
	}
	return moved;
}

void spe_session_fini(struct spe_session *s)
{
	free(s->scratch);
	s->scratch = NULL;
	s->scratch_size = 0;
}
