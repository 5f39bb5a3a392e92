/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Whole-file front ends of the loader: perf.data (sideband pass, then the
 * AUX queues in ring order) and raw SPE byte files.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decode_thread.h"
#include "spe/analysis.h"

#define NO_TIME UINT64_MAX

static uint64_t sid_time(const struct spe_perf_event *ev)
{
	return (ev->sid.has & SPE_PERF_SID_TIME) ? ev->sid.time : NO_TIME;
}

static int sid_cpu(const struct spe_perf_event *ev)
{
	return (ev->sid.has & SPE_PERF_SID_CPU) ? (int)ev->sid.cpu : -1;
}

static void hex(const uint8_t *b, unsigned n, char *out)
{
	for (unsigned i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	out[2 * n] = 0;
}

/*
 * User mappings: executable ones for PCs (the kernel resolves through
 * --kallsyms), data ones (perf record -d, spe-record) for data objects.
 */
static int add_mapping(struct spe_loader *ld, const struct spe_perf_event *ev)
{
	const struct spe_perf_mmap *m = &ev->u.mmap;
	if ((int32_t)m->pid < 0)
		return 0;
	int data = (ev->misc & SPE_PERF_MISC_MMAP_DATA) ||
		   (ev->type == SPE_PERF_RECORD_MMAP2 && m->prot && !(m->prot & PROT_EXEC));
	if (data)
		return spe_loader_data_mmap(ld, (int)m->pid, m->start, m->len, m->pgoff,
					    ev->type == SPE_PERF_RECORD_MMAP2 ? m->prot : PROT_READ | PROT_WRITE,
					    ev->type == SPE_PERF_RECORD_MMAP2 ? m->flags : MAP_PRIVATE, m->filename,
					    sid_time(ev));
	if (m->filename && m->filename[0] == '[')
		return 0;
	char bid[41] = "";
	if (m->build_id_size)
		hex(m->build_id, m->build_id_size > 20 ? 20 : m->build_id_size, bid);
	return spe_loader_mmap(ld, (int)m->pid, m->start, m->len, m->pgoff, m->filename, bid, sid_time(ev));
}

/* The NUMA nodes the capture stored (perf's NUMA_TOPOLOGY and MEM_TOPOLOGY features). */
static int load_numa(struct spe_perf_file *f, struct spe_loader *ld, const struct spe_perf_info *info)
{
	if (!info->n_numa_nodes)
		return 0;
	struct spe_perf_numa_node *nodes = calloc(info->n_numa_nodes, sizeof *nodes);
	if (!nodes)
		return -spe_nomem;
	for (uint32_t i = 0; i < info->n_numa_nodes; i++)
		spe_perf_numa_node(f, i, &nodes[i], sizeof nodes[i]);
	int rc = spe_loader_numa(ld, nodes, info->n_numa_nodes, info->memory_block_size);
	free(nodes);
	return rc;
}

static int sideband_pass(struct spe_perf_file *f, struct spe_loader *ld, const struct spe_load_opts *opts)
{
	struct spe_perf_event ev;
	int rc;
	while ((rc = spe_perf_next(f, &ev, sizeof ev)) == 0) {
		if (opts && opts->cancel && *opts->cancel)
			return -SPE_LOAD_CANCELLED;
		switch (ev.type) {
		case SPE_PERF_RECORD_COMM:
			rc = spe_loader_comm(ld, (int)ev.u.comm.pid, (int)ev.u.comm.tid, ev.u.comm.comm, sid_time(&ev));
			break;
		case SPE_PERF_RECORD_MMAP:
		case SPE_PERF_RECORD_MMAP2:
			rc = add_mapping(ld, &ev);
			break;
		case SPE_PERF_RECORD_TIME_CONV:
			spe_loader_time_conv(ld, &ev.u.time_conv);
			break;
		case SPE_PERF_RECORD_ITRACE_START:
			spe_loader_switch_in(ld, sid_cpu(&ev), (int)ev.u.itrace_start.pid, (int)ev.u.itrace_start.tid,
					     sid_time(&ev));
			break;
		case SPE_PERF_RECORD_SWITCH:
			if (!ev.u.sw.out && (ev.sid.has & SPE_PERF_SID_TID))
				spe_loader_switch_in(ld, sid_cpu(&ev), (int)ev.sid.pid, (int)ev.sid.tid, sid_time(&ev));
			break;
		case SPE_PERF_RECORD_SWITCH_CPU_WIDE:
			if (ev.u.sw.out) /* the record names the incoming task */
				spe_loader_switch_in(ld, sid_cpu(&ev), (int)ev.u.sw.next_prev_pid,
						     (int)ev.u.sw.next_prev_tid, sid_time(&ev));
			else if (ev.sid.has & SPE_PERF_SID_TID)
				spe_loader_switch_in(ld, sid_cpu(&ev), (int)ev.sid.pid, (int)ev.sid.tid, sid_time(&ev));
			break;
		case SPE_PERF_RECORD_AUX:
			if (ev.u.aux.flags & SPE_PERF_AUX_TRUNCATED)
				spe_loader_lost(ld, 1);
			break;
		case SPE_PERF_RECORD_LOST:
			spe_loader_lost(ld, ev.u.lost.lost);
			break;
		default:
			break;
		}
		if (rc < 0)
			return rc;
	}
	return rc == -spe_eos ? 0 : rc;
}

/*
 * Drop the pages of bytes already decoded from the file mapping, so the
 * resident size stays flat whatever the trace size.  The mapping is
 * read-only and file-backed: a page needed again is read back in.
 */
static void release_pages(const uint8_t *p, size_t len)
{
	long pg = sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)p & ~(uintptr_t)(pg - 1), end = ((uintptr_t)p + len) & ~(uintptr_t)(pg - 1);
	if (end > start)
		madvise((void *)start, end - start, MADV_DONTNEED);
}

/* --jobs: the decode thread produces, this thread writes SQLite; same record order. */
static int aux_pass_threaded(struct spe_perf_file *f, struct spe_loader *ld)
{
	uint32_t nq = spe_perf_aux_queue_count(f);
	for (uint32_t q = 0; q < nq; q++) {
		struct spe_perf_aux_chunk ch;
		if (spe_perf_aux_chunk_count(f, q) && spe_perf_aux_chunk(f, q, 0, &ch, sizeof ch) == 0)
			spe_loader_cpu(ld, ch.cpu >= 0 ? ch.cpu : 0, spe_perf_midr(f, ch.cpu));
	}
	struct decode_thread *t;
	int rc = decode_thread_start(f, &t);
	if (rc < 0)
		return rc;
	const struct decoded_record *recs;
	int n;
	while ((n = decode_thread_next(t, &recs)) > 0) {
		for (int i = 0; i < n && rc == 0; i++)
			rc = spe_loader_record(ld, recs[i].cpu, -1, recs[i].tid, &recs[i].rec);
		if (rc < 0)
			break;
	}
	if (rc == 0 && n < 0)
		rc = n;
	if (rc == 0) {
		struct spe_rec_stats s;
		decode_thread_stats(t, &s);
		spe_loader_add_decoder_stats(ld, &s);
	}
	decode_thread_free(t);
	return rc;
}

static int aux_pass(struct spe_perf_file *f, struct spe_loader *ld, int jobs)
{
	int rc = spe_perf_index_aux(f);
	if (rc < 0)
		return rc;
	if (jobs > 1)
		return aux_pass_threaded(f, ld);
	uint32_t nq = spe_perf_aux_queue_count(f);
	for (uint32_t q = 0; q < nq; q++) {
		uint32_t n = spe_perf_aux_chunk_count(f, q);
		int cpu_set = -2;
		for (uint32_t i = 0; i < n; i++) {
			struct spe_perf_aux_chunk ch;
			if ((rc = spe_perf_aux_chunk(f, q, i, &ch, sizeof ch)) < 0)
				return rc;
			int cpu = ch.cpu >= 0 ? ch.cpu : 0;
			if (cpu != cpu_set) {
				spe_loader_cpu(ld, cpu, spe_perf_midr(f, ch.cpu));
				cpu_set = cpu;
			}
			int tid = ch.tid;
			rc = spe_loader_aux(ld, cpu, -1, tid, ch.data, (size_t)ch.size, ch.aux_offset,
					    i > 0 && ch.contiguous);
			if (rc < 0)
				return rc;
			release_pages(ch.data, (size_t)ch.size);
		}
	}
	return 0;
}

/*
 * After the sideband pass: a perf.data recorded without arm_spe (cpu-clock,
 * Intel PT, CoreSight) would otherwise load as "0 records" and look like a
 * success.  AUX data with no AUXTRACE_INFO at all is still decoded as SPE
 * (a writer may leave the record out); an SPE AUXTRACE_INFO with no AUX data
 * is an SPE session that sampled nothing, and loads as 0 records.
 */
static int check_spe_data(const struct spe_perf_file *f, const char *path, char *err, size_t errlen)
{
	struct spe_perf_info info;
	memset(&info, 0, sizeof info);
	info.size = sizeof info;
	spe_perf_get_info(f, &info, sizeof info);
	if (info.has_auxtrace_info && info.auxtrace_info.kind == SPE_PERF_AUXTRACE_ARM_SPE)
		return 0;
	if (info.has_auxtrace_info) {
		snprintf(err, errlen,
			 "%s: no Arm SPE data: its AUXTRACE_INFO is of kind %" PRIu32 ", not arm_spe (%d)", path,
			 info.auxtrace_info.kind, SPE_PERF_AUXTRACE_ARM_SPE);
		return -spe_bad_file;
	}
	if (info.n_auxtrace == 0) {
		snprintf(err, errlen,
			 "%s: no Arm SPE data: no AUXTRACE_INFO of kind arm_spe and no AUX data"
			 " (record with perf record -e arm_spe//, or spe-record)",
			 path);
		return -spe_bad_file;
	}
	return 0;
}

int spe_load_perf_file(struct spe_db *db, const char *path, const struct spe_load_opts *opts,
		       struct spe_load_counts *counts, char *err, size_t errlen)
{
	struct spe_perf_config cfg = SPE_OPTS(spe_perf_config);
	struct spe_perf_file *f = spe_perf_alloc_file(&cfg);
	if (!f) {
		snprintf(err, errlen, "out of memory");
		return -spe_nomem;
	}
	int rc = spe_perf_open(f, path);
	if (rc < 0) {
		/* a file that is not perf.data at all may be raw SPE bytes */
		snprintf(err, errlen, "%s%s", spe_perf_errmsg(f),
			 rc == -spe_bad_file && spe_perf_err_offset(f) == 0 ? " (raw SPE bytes? use --raw --midr=PART)" : "");
		spe_perf_free_file(f);
		return rc;
	}
	struct spe_perf_info info;
	memset(&info, 0, sizeof info);
	info.size = sizeof info;
	spe_perf_get_info(f, &info, sizeof info);
	struct spe_source_info src = { .size = sizeof src,
				       .file = path,
				       .host = info.hostname,
				       .command_line = info.cmdline,
				       .kind = "perf.data",
				       .nr_cpus = info.nr_cpus_avail ? (int)info.nr_cpus_avail : -1 };
	struct spe_loader *ld;
	rc = spe_loader_new(db, &src, opts, &ld, err, errlen);
	if (rc < 0) {
		spe_perf_free_file(f);
		return rc;
	}
	if (info.has_time_conv)
		spe_loader_time_conv(ld, &info.time_conv);
	rc = load_numa(f, ld, &info);
	if (rc == 0)
		rc = sideband_pass(f, ld, opts);
	if (rc == 0 && (rc = check_spe_data(f, path, err, errlen)) < 0) {
		spe_loader_free(ld);
		spe_perf_free_file(f);
		return rc;
	}
	if (rc == 0)
		rc = aux_pass(f, ld, opts ? opts->jobs : 1);
	if (rc == 0)
		rc = spe_loader_finish(ld, counts);
	if (rc < 0) {
		if (rc == -SPE_LOAD_CANCELLED)
			snprintf(err, errlen, "%s: interrupted", path);
		else if (*spe_perf_errmsg(f))
			snprintf(err, errlen, "%s", spe_perf_errmsg(f));
		else
			snprintf(err, errlen, "%s: %s", path,
				 *spe_loader_error(ld) ? spe_loader_error(ld) : spe_errstr(rc));
	}
	spe_loader_free(ld);
	spe_perf_free_file(f);
	return rc;
}

/*
 * Raw files are mapped and fed in windows (the decoder carries a packet cut
 * by a window edge over to the next one).
 */
#define RAW_WINDOW (16u << 20)

int spe_load_raw_file(struct spe_db *db, const char *path, uint32_t midr, int cpu, const struct spe_load_opts *opts,
		      struct spe_load_counts *counts, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -spe_io;
	}
	size_t size = (size_t)st.st_size;
	const uint8_t *map = NULL;
	if (size) {
		map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map == MAP_FAILED) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			close(fd);
			return -spe_io;
		}
	}
	close(fd);
	struct spe_source_info src = { .size = sizeof src, .file = path, .kind = "raw", .nr_cpus = -1 };
	struct spe_loader *ld;
	int rc = spe_loader_new(db, &src, opts, &ld, err, errlen);
	if (rc == 0) {
		spe_loader_cpu(ld, cpu, midr);
		for (size_t off = 0; off < size && rc == 0; off += RAW_WINDOW) {
			size_t len = size - off < RAW_WINDOW ? size - off : RAW_WINDOW;
			rc = spe_loader_aux(ld, cpu, -1, -1, map + off, len, off, off > 0);
			release_pages(map + off, len);
		}
		if (rc == 0)
			rc = spe_loader_finish(ld, counts);
		if (rc < 0)
			snprintf(err, errlen, "%s: %s", path,
				 rc == -SPE_LOAD_CANCELLED ? "interrupted"
				 : *spe_loader_error(ld) ? spe_loader_error(ld) : spe_errstr(rc));
		spe_loader_free(ld);
	}
	if (map)
		munmap((void *)map, size);
	return rc;
}
