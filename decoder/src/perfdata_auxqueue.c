/* SPDX-License-Identifier: Apache-2.0 */
/* AUXTRACE chunks grouped into per-idx queues, sorted by ring offset. */
#include <stdlib.h>

#include "perfdata_internal.h"
#include "util/grow.h"

static struct pd_queue *queue_for(struct spe_perf_file *f, uint32_t idx)
{
	for (uint32_t i = 0; i < f->n_queues; i++)
		if (f->queues[i].idx == idx)
			return &f->queues[i];
	struct pd_queue *nq = realloc(f->queues, (f->n_queues + 1) * sizeof *nq);
	if (!nq)
		return NULL;
	f->queues = nq;
	struct pd_queue *q = &f->queues[f->n_queues++];
	memset(q, 0, sizeof *q);
	q->idx = idx;
	return q;
}

static int by_aux_offset(const void *a, const void *b)
{
	const struct spe_perf_aux_chunk *x = a, *y = b;
	if (x->aux_offset != y->aux_offset)
		return x->aux_offset < y->aux_offset ? -1 : 1;
	return x->file_offset < y->file_offset ? -1 : x->file_offset > y->file_offset;
}

static int by_idx(const void *a, const void *b)
{
	const struct pd_queue *x = a, *y = b;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

int spe_perf_index_aux(struct spe_perf_file *f)
{
	if (!f)
		return -spe_invalid;
	if (f->src.streamed)
		return pd_fail(f, -spe_unsupported, UINT64_MAX, "AUX queues need a file, not a pipe");
	if (f->indexed)
		return 0;
	uint64_t pos = f->info.data_offset, end = f->end < f->src.len ? f->end : f->src.len;
	/* a file cut short (the end of the file comes before the data's): its chunks up to the cut, then the error */
	int cut = f->end >= f->src.len, rc = 0;
	/* the walk reads every record's header: its pages are given back behind it, as the event cursor's are */
	uint64_t released = pos;
	while (pos < end && rc == 0) {
		pd_source_release_behind(&f->src, &released, pos);
		const uint8_t *p;
		if (pd_source_get(&f->src, pos, PD_EVENT_HEADER_SIZE, &p) || end - pos < PD_EVENT_HEADER_SIZE) {
			rc = pd_fail(f, -spe_truncated, pos, "the file ends inside a record header");
			break;
		}
		uint32_t type = pd_le32(p), size = pd_le16(p + 6);
		if (size < PD_EVENT_HEADER_SIZE)
			return pd_fail(f, -spe_bad_file, pos, "record header size %u is smaller than 8", size);
		if (size > end - pos) {
			rc = pd_fail(f, -spe_truncated, pos, "record of %u bytes runs past the end of the data", size);
			break;
		}
		uint64_t total = size;
		/* compressed records hold no AUXTRACE (perf never compresses one): skipped by their size */
		if (type == SPE_PERF_RECORD_HEADER_TRACING_DATA && size >= PD_TRACING_DATA_MIN) {
			uint64_t payload = pd_le32(p + 8);
			if (payload > end - pos - size) {
				rc = pd_fail(f, -spe_truncated, pos,
					     "the %llu bytes after a HEADER_TRACING_DATA record run past the end of the data",
					     (unsigned long long)payload);
				break;
			}
			total += payload;
		}
		if (type == SPE_PERF_RECORD_AUXTRACE && size >= PD_AUXTRACE_SIZE) {
			uint64_t dsize = pd_le64(p + 8);
			if (dsize > end - pos - size) {
				rc = pd_fail(f, -spe_truncated, pos,
					     "AUXTRACE data of 0x%llx bytes runs past the end of the data section",
					     (unsigned long long)dsize);
				if (!cut)
					break;
				dsize = end - pos - size; /* the bytes present are indexed: their records are whole */
			}
			struct pd_queue *q = queue_for(f, pd_le32(p + 32));
			if (!q)
				return -spe_nomem;
			struct spe_perf_aux_chunk *nc = util_grow(q->chunks, &q->cap, (size_t)q->n + 1, sizeof *nc);
			if (!nc)
				return -spe_nomem;
			q->chunks = nc;
			struct spe_perf_aux_chunk *c = &q->chunks[q->n++];
			memset(c, 0, sizeof *c);
			c->idx = q->idx;
			c->aux_offset = pd_le64(p + 16);
			c->tid = (int32_t)pd_le32(p + 36);
			c->cpu = (int32_t)pd_le32(p + 40);
			c->size = dsize;
			c->file_offset = pos + size;
			c->data = f->src.base + pos + size;
			total += dsize;
		}
		pos += total;
	}
	if (f->n_queues) /* qsort's base must not be NULL, even for 0 elements */
		qsort(f->queues, f->n_queues, sizeof f->queues[0], by_idx);
	for (uint32_t i = 0; i < f->n_queues; i++) {
		struct pd_queue *q = &f->queues[i];
		qsort(q->chunks, q->n, sizeof q->chunks[0], by_aux_offset);
		for (uint32_t j = 1; j < q->n; j++)
			q->chunks[j].contiguous = pd_aux_continues(q->chunks[j - 1].aux_offset, q->chunks[j - 1].size,
								   q->chunks[j].aux_offset);
	}
	f->indexed = 1;
	return rc;
}

uint32_t spe_perf_aux_queue_count(const struct spe_perf_file *f)
{
	return f ? f->n_queues : 0;
}

uint32_t spe_perf_aux_chunk_count(const struct spe_perf_file *f, uint32_t q)
{
	return f && q < f->n_queues ? f->queues[q].n : 0;
}

int spe_perf_aux_chunk(const struct spe_perf_file *f, uint32_t q, uint32_t i, struct spe_perf_aux_chunk *chunk,
		       size_t size)
{
	if (!f || q >= f->n_queues || i >= f->queues[q].n || !chunk)
		return -spe_invalid;
	memcpy(chunk, &f->queues[q].chunks[i], size < sizeof *chunk ? size : sizeof *chunk);
	return 0;
}
