/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Whole-file front ends of the loader: perf.data (sideband pass, then the
 * AUX queues in ring order) and raw SPE byte files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ana/file_digest.h"
#include "loader_internal.h"
#include "spe/analysis.h"

#define NO_TIME UINT64_MAX

static uint64_t sid_time(const struct spe_perf_event *ev)
{
	return (ev->sid.has & SPE_PERF_SID_TIME) ? ev->sid.time : NO_TIME;
}

/* FORK and EXIT carry their own time (the sample_id's is the same when present). */
static uint64_t task_time(const struct spe_perf_event *ev)
{
	return (ev->sid.has & SPE_PERF_SID_TIME) ? ev->sid.time : ev->u.task.time;
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
 * Executable mappings for PCs (the kernel's and its modules' too), data
 * ones (perf record -d, spe-record) for data objects.
 */
static int add_mapping(struct spe_loader *ld, const struct spe_perf_event *ev)
{
	const struct spe_perf_mmap *m = &ev->u.mmap;
	unsigned cpumode = ev->misc & SPE_PERF_MISC_CPUMODE_MASK;
	char bid[41] = "";
	if (ev->type == SPE_PERF_RECORD_MMAP2 && m->build_id_size)
		hex(m->build_id, m->build_id_size > 20 ? 20 : m->build_id_size, bid);
	if (cpumode == SPE_PERF_MISC_KERNEL || cpumode == SPE_PERF_MISC_GUEST_KERNEL) {
		if (cpumode == SPE_PERF_MISC_GUEST_KERNEL || (ev->misc & SPE_PERF_MISC_MMAP_DATA))
			return 0; /* a guest's kernel, or kernel data: not this machine's code */
		/* `[kernel.kallsyms]_text` (the image, _text at pgoff), or a module's path: the loader tells them apart */
		return spe_loader_mmap(ld, -1, m->start, m->len, m->pgoff, m->filename, bid, sid_time(ev));
	}
	if ((int32_t)m->pid < 0)
		return 0;
	int data = (ev->misc & SPE_PERF_MISC_MMAP_DATA) ||
		   (ev->type == SPE_PERF_RECORD_MMAP2 && m->prot && !(m->prot & PROT_EXEC));
	if (data)
		return spe_loader_data_mmap(ld, (int)m->pid, m->start, m->len, m->pgoff,
					    ev->type == SPE_PERF_RECORD_MMAP2 ? m->prot : PROT_READ | PROT_WRITE,
					    ev->type == SPE_PERF_RECORD_MMAP2 ? m->flags : MAP_PRIVATE, m->filename,
					    sid_time(ev));
	/* [vdso], [vsyscall], [uprobes]: no file; [heap], [stack...] and [anon:NAME] may hold JIT code */
	if (m->filename && m->filename[0] == '[' && strcmp(m->filename, "[heap]") && strncmp(m->filename, "[stack", 6) &&
	    strncmp(m->filename, "[anon:", 6))
		return 0;
	return spe_loader_exec_mmap(ld, (int)m->pid, m->start, m->len, m->pgoff, m->filename, bid, sid_time(ev),
				    ev->type == SPE_PERF_RECORD_MMAP2 ? m->flags : 0);
}

/* Whether every event was recorded with CLOCK_MONOTONIC (perf record -k 1): jitdump times are perf time then. */
static int monotonic_clock(struct spe_perf_file *f, const struct spe_perf_info *info)
{
	if (!info->n_attrs)
		return 0;
	for (uint32_t i = 0; i < info->n_attrs; i++) {
		struct spe_perf_attr a;
		memset(&a, 0, sizeof a);
		if (spe_perf_get_attr(f, i, &a, sizeof a) < 0 || !a.use_clockid || a.clockid != 1 /* CLOCK_MONOTONIC */)
			return 0;
	}
	return 1;
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

/*
 * Sideband into the loader.  Times come with each record from the AUX layer
 * (TIME_CONV is its), lost data from its statistics at the end.
 */
static int load_event(struct spe_loader *ld, const struct spe_perf_event *ev)
{
	switch (ev->type) {
	case SPE_PERF_RECORD_COMM:
		return spe_loader_comm(ld, (int)ev->u.comm.pid, (int)ev->u.comm.tid, ev->u.comm.comm, sid_time(ev));
	case SPE_PERF_RECORD_FORK:
		return spe_loader_fork(ld, (int)ev->u.task.pid, (int)ev->u.task.ppid, (int)ev->u.task.tid,
				       (int)ev->u.task.ptid, task_time(ev), !!(ev->misc & SPE_PERF_MISC_FORK_EXEC));
	case SPE_PERF_RECORD_EXIT:
		return spe_loader_exit(ld, (int)ev->u.task.pid, (int)ev->u.task.tid, task_time(ev));
	case SPE_PERF_RECORD_MMAP:
	case SPE_PERF_RECORD_MMAP2:
		return add_mapping(ld, ev);
	case SPE_PERF_RECORD_KSYMBOL:
		return spe_loader_ksymbol(ld, ev->u.ksymbol.addr, ev->u.ksymbol.len,
					  !!(ev->u.ksymbol.flags & SPE_PERF_KSYMBOL_UNREGISTER), ev->u.ksymbol.name,
					  sid_time(ev));
	case SPE_PERF_RECORD_BPF_EVENT:
		if (ev->u.bpf_event.type == SPE_PERF_BPF_PROG_LOAD || ev->u.bpf_event.type == SPE_PERF_BPF_PROG_UNLOAD)
			spe_loader_bpf_event(ld, ev->u.bpf_event.type == SPE_PERF_BPF_PROG_UNLOAD);
		return 0;
	case SPE_PERF_RECORD_TIME_CONV: /* the AUX layer converts with it; the loader stores it */
		spe_loader_time_conv(ld, &ev->u.time_conv);
		return 0;
	case SPE_PERF_RECORD_ITRACE_START:
		spe_loader_switch_in(ld, sid_cpu(ev), (int)ev->u.itrace_start.pid, (int)ev->u.itrace_start.tid,
				     sid_time(ev));
		return 0;
	case SPE_PERF_RECORD_SWITCH:
		if (!ev->u.sw.out && (ev->sid.has & SPE_PERF_SID_TID))
			spe_loader_switch_in(ld, sid_cpu(ev), (int)ev->sid.pid, (int)ev->sid.tid, sid_time(ev));
		return 0;
	case SPE_PERF_RECORD_SWITCH_CPU_WIDE:
		if (ev->u.sw.out) /* the record names the incoming task */
			spe_loader_switch_in(ld, sid_cpu(ev), (int)ev->u.sw.next_prev_pid, (int)ev->u.sw.next_prev_tid,
					     sid_time(ev));
		else if (ev->sid.has & SPE_PERF_SID_TID)
			spe_loader_switch_in(ld, sid_cpu(ev), (int)ev->sid.pid, (int)ev->sid.tid, sid_time(ev));
		return 0;
	default:
		return 0;
	}
}

/*
 * The recording's build-id table into the loader: entries [*fed, n) of
 * @p f (the BUILD_ID feature at open; in a pipe, each HEADER_BUILD_ID record
 * adds one as it is read).
 */
static int feed_build_ids(struct spe_loader *ld, const struct spe_perf_file *f, uint32_t *fed)
{
	struct spe_perf_info info;
	memset(&info, 0, sizeof info);
	spe_perf_get_info(f, &info, sizeof info);
	for (; *fed < info.n_build_ids; ++*fed) {
		struct spe_perf_build_id b;
		memset(&b, 0, sizeof b);
		if (spe_perf_get_build_id(f, *fed, &b, sizeof b) < 0)
			continue;
		int rc = spe_loader_build_id(ld, (int)(int32_t)b.pid, b.misc, b.id, b.size, b.filename);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/*
 * Start loading the PC memo entry a record will look up, a few records
 * ahead (spe_loader_prefetch): records are taken from the AUX layer in
 * batches for that.
 */
enum { BATCH = 32, AHEAD = 8 };

struct pending {
	int cpu, tid;
	uint64_t time;
	struct spe_record rec;
};

static int flush_batch(struct spe_loader *ld, const struct pending *p, int n)
{
	/* the first AHEAD records' too: their misses then overlap instead of coming one by one */
	for (int i = 0; i < AHEAD && i < n; i++)
		spe_loader_prefetch(ld, &p[i].rec, p[i].time);
	for (int i = 0; i < n; i++) {
		if (i + AHEAD < n)
			spe_loader_prefetch(ld, &p[i + AHEAD].rec, p[i + AHEAD].time);
		int rc = spe_loader_record_at(ld, p[i].cpu, -1, p[i].tid, &p[i].rec, p[i].time);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/*
 * The load's progress (spe_load_opts.on_progress): the SPE bytes decoded, as
 * the chunks before the current one and the current record's place in it,
 * of all the file's (its AUX chunks summed, or a raw file's size).
 */
enum { PROGRESS_EVERY = 65536 }; /* records between calls: a few tens of milliseconds of loading */

struct progress {
	const struct spe_load_opts *opts;
	const struct spe_perf_file *perf;
	uint64_t total;         /* SPE bytes of the file; 0 until known */
	uint64_t base;          /* bytes of the chunks before the current one */
	uint64_t chunk_offset;  /* the current chunk's stream offset, and its size */
	uint64_t chunk_size;
	uint64_t records, next; /* records so far; the count at which to call next */
};

/* The AUX chunks of a perf.data, summed once its queues are indexed (the decoder indexed them for its first chunk). */
static uint64_t perf_aux_bytes(const struct spe_perf_file *perf)
{
	uint64_t sum = 0;
	uint32_t nq = spe_perf_aux_queue_count(perf);
	for (uint32_t q = 0; q < nq; q++)
		for (uint32_t i = 0; i < spe_perf_aux_chunk_count(perf, q); i++) {
			struct spe_perf_aux_chunk c;
			if (spe_perf_aux_chunk(perf, q, i, &c, sizeof c) == 0)
				sum += c.size;
		}
	return sum;
}

static void progress_chunk(struct progress *p, const struct spe_aux_item *it)
{
	if (!p->opts || !p->opts->on_progress)
		return;
	if (!p->total && p->perf)
		p->total = perf_aux_bytes(p->perf);
	p->base += p->chunk_size;
	p->chunk_offset = it->offset;
	p->chunk_size = it->size;
}

/* A call every PROGRESS_EVERY records, placed by the last record's stream offset. */
static void progress_records(struct progress *p, int n, uint64_t last_offset)
{
	p->records += (uint64_t)n;
	if (!p->opts || !p->opts->on_progress || p->records < p->next)
		return;
	p->next = p->records + PROGRESS_EVERY;
	uint64_t in = last_offset > p->chunk_offset ? last_offset - p->chunk_offset : 0;
	struct spe_progress pr = { .unit = "records",
				   .count = p->records,
				   .done = p->base + (in < p->chunk_size ? in : p->chunk_size),
				   .total = p->total };
	if (pr.total && pr.done > pr.total)
		pr.done = pr.total;
	p->opts->on_progress(p->opts->progress_arg, &pr);
}

/* spe_load_aux, with the build-id table of @p perf (NULL: none) fed in as it grows; @p total: the SPE bytes, if known. */
static int load_aux(struct spe_loader *ld, struct spe_aux_decoder *aux, const struct spe_load_opts *opts,
		    const struct spe_perf_file *perf, uint64_t total)
{
	struct pending batch[BATCH];
	struct spe_aux_item it;
	struct progress prog = { .opts = opts, .perf = perf, .total = total, .next = PROGRESS_EVERY };
	uint64_t last_offset = 0; /* the stream offset of the last record taken, for the progress */
	uint32_t fed = 0;
	int n = 0, type = 0, rc = perf ? feed_build_ids(ld, perf, &fed) : 0;
	while (rc == 0 && (type = spe_aux_next(aux, &it, sizeof it)) > 0) {
		if (type == SPE_AUX_RECORD) {
			/* per-thread queues (cpu -1) are stored as cpu 0, as before the AUX layer */
			batch[n].cpu = it.cpu >= 0 ? it.cpu : 0;
			batch[n].tid = it.tid;
			batch[n].time = it.time;
			batch[n].rec = *it.record;
			last_offset = it.offset;
			if (++n == BATCH) {
				rc = flush_batch(ld, batch, n);
				progress_records(&prog, n, last_offset);
				n = 0;
			}
			continue;
		}
		if (n) {
			rc = flush_batch(ld, batch, n);
			progress_records(&prog, n, last_offset);
			n = 0;
		}
		if (type == SPE_AUX_CHUNK)
			progress_chunk(&prog, &it);
		if (opts && opts->cancel && *opts->cancel)
			rc = -spe_cancelled;
		else if (type == SPE_AUX_EVENT && it.event->type == SPE_PERF_RECORD_HEADER_BUILD_ID)
			rc = perf ? feed_build_ids(ld, perf, &fed) : 0;
		else if (type == SPE_AUX_EVENT)
			rc = load_event(ld, it.event);
		else if (type == SPE_AUX_CHUNK && (it.chunk_flags & SPE_AUX_CHUNK_FIRST))
			spe_loader_cpu(ld, it.cpu >= 0 ? it.cpu : 0, it.midr);
	}
	if (rc == 0 && n)
		rc = flush_batch(ld, batch, n);
	if (rc < 0)
		return rc;
	if (opts && opts->on_progress) {
		struct spe_progress pr = { .unit = "records", .count = prog.records + (uint64_t)n, .done = prog.total,
					   .total = prog.total, .step = "writing the summaries" };
		opts->on_progress(opts->progress_arg, &pr);
	}
	struct spe_aux_stats st;
	memset(&st, 0, sizeof st);
	spe_aux_get_stats(aux, &st, sizeof st);
	/* a file cut short ends in -spe_truncated after its last whole record: partial data, loaded */
	if (type != -spe_eos && !(type == -spe_truncated && st.cut))
		return type;
	if (st.cut)
		spe_loader_note_cut(ld, spe_aux_errmsg(aux));
	spe_loader_add_aux_stats(ld, &st);
	return 0;
}

int spe_load_aux(struct spe_loader *ld, struct spe_aux_decoder *aux, const struct spe_load_opts *opts)
{
	return load_aux(ld, aux, opts, NULL, 0);
}

/* The message of a failed load: the AUX layer's (file, offset, problem), else the loader's. */
static void load_error(char *err, size_t errlen, const char *path, int rc, struct spe_aux_decoder *aux,
		       struct spe_loader *ld)
{
	if (rc == -spe_cancelled)
		snprintf(err, errlen, "%s: interrupted", path);
	else if (aux && *spe_aux_errmsg(aux))
		snprintf(err, errlen, "%s", spe_aux_errmsg(aux));
	else
		snprintf(err, errlen, "%s: %s", path, ld && *spe_loader_error(ld) ? spe_loader_error(ld) : spe_errstr(rc));
}

/* Load every item of a decoder over @p f or @p raw into a new loader: into @p sink, else @p db's SQLite sink. */
static int load_input(struct spe_db *db, const struct spe_row_sink *sink, struct spe_source_info *src,
		      const struct spe_load_opts *opts, const struct spe_aux_config *cfg, struct spe_load_counts *counts,
		      char *err, size_t errlen)
{
	/* the file's identity first: a sink refuses a file it holds before anything is decoded */
	char digest[SPE_FILE_DIGEST_SIZE];
	int rc = ana_file_digest(src->file, digest, sizeof digest, err, errlen);
	if (rc < 0)
		return rc;
	src->digest = digest;
	struct spe_loader *ld;
	rc = sink ? spe_loader_new_sink(sink, src, opts, &ld, err, errlen)
		  : spe_loader_new(db, src, opts, &ld, err, errlen);
	if (rc < 0)
		return rc;
	struct spe_aux_decoder *aux = spe_aux_alloc_decoder(cfg);
	rc = aux ? 0 : -spe_nomem;
	if (rc == 0 && cfg->perf) {
		struct spe_perf_info info;
		memset(&info, 0, sizeof info);
		spe_perf_get_info(cfg->perf, &info, sizeof info);
		rc = load_numa(cfg->perf, ld, &info);
		if (rc == 0 && info.osrelease)
			rc = spe_loader_osrelease(ld, info.osrelease);
		spe_loader_clock(ld, monotonic_clock(cfg->perf, &info));
	}
	if (rc == 0)
		rc = load_aux(ld, aux, opts, cfg->perf, cfg->raw ? spe_raw_size(cfg->raw) : 0);
	if (rc == 0)
		rc = spe_loader_finish(ld, counts);
	if (rc < 0)
		load_error(err, errlen, src->file, rc, aux, ld);
	spe_aux_free_decoder(aux);
	spe_loader_free(ld);
	return rc;
}

/* The reader's warnings (skipped feature sections: pipe mode finds them while reading) for the command to print. */
static void keep_warnings(const struct spe_perf_file *f, struct spe_load_counts *counts)
{
	struct spe_perf_info info;
	memset(&info, 0, sizeof info);
	spe_perf_get_info(f, &info, sizeof info);
	counts->n_warnings = info.n_warnings;
	size_t kept = sizeof counts->warnings / sizeof counts->warnings[0];
	for (uint32_t i = 0; i < info.n_warnings && i < kept; i++)
		snprintf(counts->warnings[i], sizeof counts->warnings[i], "%s",
			 spe_perf_warning(f, i) ? spe_perf_warning(f, i) : "");
}

static int load_perf_file(struct spe_db *db, const struct spe_row_sink *sink, const char *path,
			  const struct spe_load_opts *opts, struct spe_load_counts *counts, char *err, size_t errlen)
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
	struct spe_source_info src = {
				       .file = path,
				       .host = info.hostname,
				       .command_line = info.cmdline,
				       .kind = "perf.data",
				       .nr_cpus = info.nr_cpus_avail ? (int)info.nr_cpus_avail : -1 };
	/* queue order: the sideband is all known before the first record */
	struct spe_aux_config ac = SPE_OPTS(spe_aux_config, .perf = f, .order = SPE_AUX_ORDER_QUEUE,
					    .items = SPE_AUX_WANT_EVENTS | SPE_AUX_WANT_CHUNKS);
	rc = load_input(db, sink, &src, opts, &ac, counts, err, errlen);
	if (rc == 0 && counts)
		keep_warnings(f, counts);
	spe_perf_free_file(f);
	return rc;
}

int spe_load_perf_file(struct spe_db *db, const char *path, const struct spe_load_opts *opts,
		       struct spe_load_counts *counts, char *err, size_t errlen)
{
	return load_perf_file(db, NULL, path, opts, counts, err, errlen);
}

int spe_load_perf_file_sink(const struct spe_row_sink *sink, const char *path, const struct spe_load_opts *opts,
			    struct spe_load_counts *counts, char *err, size_t errlen)
{
	return load_perf_file(NULL, sink, path, opts, counts, err, errlen);
}

static int load_raw_file(struct spe_db *db, const struct spe_row_sink *sink, const char *path, uint32_t midr, int cpu,
			 const struct spe_load_opts *opts, struct spe_load_counts *counts, char *err, size_t errlen)
{
	struct spe_raw_config rcfg = SPE_OPTS(spe_raw_config, .midr = midr);
	struct spe_raw_input *raw = spe_raw_alloc_input(&rcfg);
	int rc = raw ? spe_raw_open(raw, path) : -spe_nomem;
	if (rc < 0) {
		snprintf(err, errlen, "%s", raw ? spe_raw_errmsg(raw) : "out of memory");
		spe_raw_free_input(raw);
		return rc;
	}
	struct spe_source_info src = { .file = path, .kind = "raw", .nr_cpus = -1 };
	struct spe_aux_config ac = SPE_OPTS(spe_aux_config, .raw = raw, .raw_cpu = cpu, .items = SPE_AUX_WANT_CHUNKS);
	rc = load_input(db, sink, &src, opts, &ac, counts, err, errlen);
	spe_raw_free_input(raw);
	return rc;
}

int spe_load_raw_file(struct spe_db *db, const char *path, uint32_t midr, int cpu, const struct spe_load_opts *opts,
		      struct spe_load_counts *counts, char *err, size_t errlen)
{
	return load_raw_file(db, NULL, path, midr, cpu, opts, counts, err, errlen);
}

int spe_load_raw_file_sink(const struct spe_row_sink *sink, const char *path, uint32_t midr, int cpu,
			   const struct spe_load_opts *opts, struct spe_load_counts *counts, char *err, size_t errlen)
{
	return load_raw_file(NULL, sink, path, midr, cpu, opts, counts, err, errlen);
}
