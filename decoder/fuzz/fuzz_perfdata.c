/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the perf.data reader: open the bytes from memory, walk every event,
 * touch every field a caller would (names, AUXTRACE data, attrs, build ids,
 * per-CPU metadata), then index the AUX queues and read every chunk.
 * The same bytes are then streamed through a real pipe (the bounded-buffer
 * path, with a small record limit).
 * Seeds: fixtures/fuzz/perfdata/ (writer-made files, truncations, pipe mode,
 * compressed records, real perf captures with compression and tracing data).
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "spe/spe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static void touch(const uint8_t *p, uint64_t n)
{
	uint64_t s = 0;
	for (uint64_t i = 0; i < n; i++)
		s += p[i];
	sink += s;
}

/* Stream @p data through a pipe (it fits the pipe buffer, so no writer thread is needed). */
static void through_pipe(const uint8_t *data, size_t size)
{
	int fds[2];
	if (size > 60000 || pipe(fds) != 0)
		return;
	if (write(fds[1], data, size) != (ssize_t)size) {
		close(fds[0]);
		close(fds[1]);
		return;
	}
	close(fds[1]);
	struct spe_perf_config cfg = SPE_OPTS(spe_perf_config, .max_stream_event = 2048);
	struct spe_perf_file *f = spe_perf_alloc_file(&cfg);
	if (f && spe_perf_open_fd(f, fds[0], "pipe") == 0) {
		struct spe_perf_event ev;
		while (spe_perf_next(f, &ev, sizeof ev) == 0) {
			touch(ev.raw, ev.header_size);
			if (ev.type == SPE_PERF_RECORD_AUXTRACE)
				touch(ev.u.auxtrace.data, ev.u.auxtrace.size);
		}
	}
	if (f)
		sink += strlen(spe_perf_errmsg(f));
	spe_perf_free_file(f);
	close(fds[0]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	through_pipe(data, size);
	struct spe_perf_file *f = spe_perf_alloc_file(NULL);
	if (!f)
		return 0;
	if (spe_perf_open_mem(f, data, size, "fuzz") == 0) {
		struct spe_perf_event ev;
		int n = 0;
		while (spe_perf_next(f, &ev, sizeof ev) == 0 && n++ < 100000) {
			touch(ev.raw, ev.header_size);
			if (ev.type == SPE_PERF_RECORD_AUXTRACE)
				touch(ev.u.auxtrace.data, ev.u.auxtrace.size);
			if (ev.type == SPE_PERF_RECORD_COMM)
				sink += strlen(ev.u.comm.comm);
			if (ev.type == SPE_PERF_RECORD_MMAP || ev.type == SPE_PERF_RECORD_MMAP2)
				sink += strlen(ev.u.mmap.filename);
			if (ev.type == SPE_PERF_RECORD_AUXTRACE_INFO)
				for (uint32_t i = 0; i < ev.u.auxtrace_info.n_cpus; i++) {
					struct spe_perf_spe_cpu c;
					if (spe_perf_spe_cpu(f, i, &c, sizeof c) == 0)
						sink += c.midr;
				}
			sink += spe_perf_midr(f, (int)(ev.sid.cpu & 7) - 1) + ev.stream_offset;
		}
		sink += strlen(spe_perf_errmsg(f));
		struct spe_perf_info info;
		spe_perf_get_info(f, &info, sizeof info);
		for (uint32_t i = 0; i < info.n_warnings && spe_perf_warning(f, i); i++)
			sink += strlen(spe_perf_warning(f, i));
		sink += info.decompressed_bytes;
		for (uint32_t i = 0; i < info.n_attrs; i++) {
			struct spe_perf_attr a;
			if (spe_perf_get_attr(f, i, &a, sizeof a) == 0 && a.n_ids)
				sink += a.ids[a.n_ids - 1];
		}
		for (uint32_t i = 0; i < info.n_build_ids; i++) {
			struct spe_perf_build_id b;
			if (spe_perf_get_build_id(f, i, &b, sizeof b) == 0)
				sink += strlen(b.filename);
		}
		const char *strs[] = { info.cpuid, info.arch, info.hostname, info.osrelease, info.version,
				       info.cpudesc, info.cmdline };
		for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
			if (strs[i])
				sink += strlen(strs[i]);
		if (spe_perf_index_aux(f) == 0) {
			for (uint32_t q = 0; q < spe_perf_aux_queue_count(f); q++)
				for (uint32_t i = 0; i < spe_perf_aux_chunk_count(f, q); i++) {
					struct spe_perf_aux_chunk c;
					if (spe_perf_aux_chunk(f, q, i, &c, sizeof c) == 0)
						touch(c.data, c.size);
				}
		}
	} else {
		sink += strlen(spe_perf_errmsg(f));
	}
	spe_perf_free_file(f);
	return 0;
}
