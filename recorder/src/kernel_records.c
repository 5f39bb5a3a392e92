/* SPDX-License-Identifier: Apache-2.0 */
/* sample_id trailers and the kernel records replay synthesizes (see spe/kernel_records.h). */
#include "spe/kernel_records.h"
#include "spe/spe.h"

#include <string.h>
#include <sys/mman.h>

size_t spe_sid_size(uint64_t st)
{
	size_t n = 0;
	n += (st & PERF_SAMPLE_TID) ? 8 : 0;
	n += (st & PERF_SAMPLE_TIME) ? 8 : 0;
	n += (st & PERF_SAMPLE_ID) ? 8 : 0;
	n += (st & PERF_SAMPLE_STREAM_ID) ? 8 : 0;
	n += (st & PERF_SAMPLE_CPU) ? 8 : 0;
	n += (st & PERF_SAMPLE_IDENTIFIER) ? 8 : 0;
	return n;
}

static uint8_t *put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
	return p + 4;
}

static uint8_t *put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
	return p + 8;
}

/* Trailer order: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER (always last). */
size_t spe_sid_encode(uint64_t st, const struct spe_sid *sid, uint8_t *out)
{
	uint8_t *p = out;
	if (st & PERF_SAMPLE_TID)
		p = put32(put32(p, sid->pid), sid->tid);
	if (st & PERF_SAMPLE_TIME)
		p = put64(p, sid->time);
	if (st & PERF_SAMPLE_ID)
		p = put64(p, sid->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		p = put64(p, sid->stream_id);
	if (st & PERF_SAMPLE_CPU)
		p = put32(put32(p, sid->cpu), 0);
	if (st & PERF_SAMPLE_IDENTIFIER)
		p = put64(p, sid->id);
	return (size_t)(p - out);
}

int spe_sid_decode(uint64_t st, const struct perf_event_header *ev, size_t body_min, struct spe_sid *sid)
{
	size_t n = spe_sid_size(st);
	memset(sid, 0, sizeof *sid);
	if (ev->size < sizeof *ev + body_min + n)
		return -spe_bad_file;
	const uint8_t *p = (const uint8_t *)ev + ev->size - n;
	if (st & PERF_SAMPLE_TID) {
		memcpy(&sid->pid, p, 4);
		memcpy(&sid->tid, p + 4, 4);
		p += 8;
	}
	if (st & PERF_SAMPLE_TIME) {
		memcpy(&sid->time, p, 8);
		p += 8;
	}
	if (st & PERF_SAMPLE_ID) {
		memcpy(&sid->id, p, 8);
		p += 8;
	}
	if (st & PERF_SAMPLE_STREAM_ID) {
		memcpy(&sid->stream_id, p, 8);
		p += 8;
	}
	if (st & PERF_SAMPLE_CPU) {
		memcpy(&sid->cpu, p, 4);
		p += 8;
	}
	if (st & PERF_SAMPLE_IDENTIFIER)
		memcpy(&sid->id, p, 8);
	return 0;
}

/* NUL-terminated string padded with zeros to a multiple of 8. */
static uint8_t *put_str(uint8_t *p, const char *s, size_t max)
{
	size_t n = strnlen(s, max - 1);
	size_t padded = (n + 8) & ~(size_t)7;
	memset(p, 0, padded);
	memcpy(p, s, n);
	return p + padded;
}

static size_t finish(uint8_t *buf, uint8_t *p, uint32_t type, uint16_t misc, uint64_t st, const struct spe_sid *sid)
{
	p += spe_sid_encode(st, sid, p);
	struct perf_event_header h = { type, misc, (uint16_t)(p - buf) };
	memcpy(buf, &h, sizeof h);
	return (size_t)(p - buf);
}

size_t spe_krec_comm(uint8_t *buf, uint32_t pid, uint32_t tid, const char *comm, int exec, uint64_t st,
		     const struct spe_sid *sid)
{
	uint8_t *p = put32(put32(buf + 8, pid), tid);
	p = put_str(p, comm, 16);
	return finish(buf, p, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0, st, sid);
}

size_t spe_krec_mmap2(uint8_t *buf, const struct spe_krec_mmap2 *m, uint64_t st, const struct spe_sid *sid)
{
	uint16_t misc = PERF_RECORD_MISC_USER;
	if (!(m->prot & PROT_EXEC))
		misc |= PERF_RECORD_MISC_MMAP_DATA; /* as the kernel marks a data mapping (perf record -d) */
	uint8_t *p = put32(put32(buf + 8, m->pid), m->tid);
	p = put64(put64(put64(p, m->start), m->len), m->pgoff);
	memset(p, 0, 24); /* maj, min, ino, ino_generation -- or the build-id form */
	if (!(m->build_id && m->build_id_size)) {
		put64(put64(put32(put32(p, m->maj), m->min), m->ino), m->ino_generation);
	} else {
		uint8_t n = m->build_id_size > 20 ? 20 : m->build_id_size;
		p[0] = n;
		memcpy(p + 4, m->build_id, n);
		misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	}
	p = put32(put32(p + 24, m->prot), m->flags);
	p = put_str(p, m->filename, 4096);
	return finish(buf, p, PERF_RECORD_MMAP2, misc, st, sid);
}

size_t spe_krec_itrace_start(uint8_t *buf, uint32_t pid, uint32_t tid, uint64_t st, const struct spe_sid *sid)
{
	uint8_t *p = put32(put32(buf + 8, pid), tid);
	return finish(buf, p, PERF_RECORD_ITRACE_START, 0, st, sid);
}
