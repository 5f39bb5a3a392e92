/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe_bench: decoder and spe-dump throughput against memcpy and perf.
 *
 *   spe_bench [--mib=N] [--spe-dump=PATH] [--no-perf] [--dir=DIR] [--keep] [--reps=N]
 *
 * Generates a perf.data of N MiB (default 64) of realistic Neoverse-style
 * 64-byte records (loads, stores, branches; encoder-made; 4 CPUs, 1 MiB
 * AUXTRACE chunks), then measures in one run:
 *   - a memcpy of the same trace bytes,
 *   - library decode-only (reader + AUX layer + record decoder): records/s and MB/s,
 *     (these two: the best of three passes, in CPU time)
 *   - peak RSS of spe-dump on this file and on one a quarter of its size,
 *   - `spe-dump -q FILE` and `perf report -D -i FILE`, text to /dev/null and
 *     to a regular file, on this stream and on a realistic one of the same
 *     size (many op types, events and data sources: see make_realistic_record),
 *     --reps=N times each, interleaved; the medians and their ratios.
 * Prints the figures and the ratios; asserts nothing about time.
 * Exit 0 when every ratio was computed, 1 otherwise.
 */
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "spe/encoder.h"
#include "spe/spe.h"

static uint64_t rng = 0x243f6a8885a308d3ull;

static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1Dull;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time of this thread: the machine is shared, so wall time measures the neighbours too. */
static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One record as a Neoverse N1 writes it: PC, CONTEXT, op, EV, latencies, addresses, DS, TS. */
static void make_record(struct spe_record *r, uint64_t ts, uint32_t tid)
{
	memset(r, 0, sizeof *r);
	unsigned kind = (unsigned)(rnd() % 100);
	r->has = SPE_HAS_PC | SPE_HAS_CONTEXT | SPE_HAS_OP_TYPE | SPE_HAS_EVENTS | SPE_HAS_TOTAL_LATENCY |
		 SPE_HAS_ISSUE_LATENCY | SPE_HAS_TIMESTAMP;
	r->pc.addr = 0xaaaac17c3000ull + (rnd() % 0x4000) * 4;
	r->pc.el = 0;
	r->pc.ns = 1;
	r->context = tid;
	r->context_index = 1;
	r->timestamp = ts;
	r->issue_latency = (uint16_t)(rnd() % 8);
	r->events = 1u << SPE_EV_RETIRED;
	if (kind < 75) {
		/* load (60) or store (15) */
		static const uint8_t ds[] = { 0x0, 0x0, 0x0, 0x8, 0x8, 0x9, 0xb, 0xe };
		int store = kind >= 60;
		r->op_raw_class = 1;
		r->op_raw = store ? 0x01 : 0x00;
		r->has |= SPE_HAS_DATA_VA | SPE_HAS_DATA_PA | SPE_HAS_TRANSLATION_LATENCY | SPE_HAS_DATA_SOURCE;
		r->data_va = 0xffffa0000000ull + (rnd() % (1u << 24)) * 8;
		r->data_pa = 0x80000000ull + (r->data_va & 0xfffffff);
		r->data_pa_ns = 1;
		r->translation_latency = 1;
		r->data_source = ds[rnd() % sizeof ds];
		r->events |= 1u << SPE_EV_L1D_ACCESS | 1u << SPE_EV_TLB_ACCESS;
		if (r->data_source)
			r->events |= 1u << SPE_EV_L1D_REFILL;
		if (r->data_source == 0xe)
			r->events |= 1u << SPE_EV_LLC_ACCESS | 1u << SPE_EV_LLC_MISS;
		r->total_latency = (uint16_t)(r->data_source == 0xe ? 200 + rnd() % 200 : 4 + rnd() % 20);
	} else {
		r->op_raw_class = 2;
		r->op_raw = 0x01;
		r->has |= SPE_HAS_BRANCH_TARGET;
		r->branch_target = r->pc;
		r->branch_target.addr += 0x40;
		if (rnd() % 10 == 0)
			r->events |= 1u << SPE_EV_MISPREDICTED;
		r->total_latency = (uint16_t)(2 + rnd() % 8);
	}
}

/*
 * One record of a realistic mix, as a Neoverse core writes it under a real
 * workload: user and kernel samples; GP, SIMD&FP, SVE (predicated, gather)
 * and atomic/exclusive loads and stores; SVE and plain other ops; direct,
 * conditional and indirect branches; tagged VAs; every N1 data source; the
 * cache, TLB, remote, misalignment and predicate events that go with them.
 * The synthetic mix above has three op types and few events, so its dump
 * text repeats far more than a real one.
 */
static void make_realistic_record(struct spe_record *r, uint64_t ts, uint32_t tid)
{
	static const uint8_t ds[] = { 0x0, 0x0, 0x0, 0x0, 0x8, 0x8, 0x9, 0xa, 0xb, 0xb, 0xc, 0xd, 0xe, 0xe };
	unsigned kind = (unsigned)(rnd() % 100);
	int kernel = rnd() % 10 == 0;
	make_record(r, ts, tid); /* PC, CONTEXT, EV, latencies, TS */
	r->has &= ~(uint32_t)(SPE_HAS_DATA_VA | SPE_HAS_DATA_PA | SPE_HAS_TRANSLATION_LATENCY | SPE_HAS_DATA_SOURCE |
			      SPE_HAS_BRANCH_TARGET);
	r->events = 1u << SPE_EV_RETIRED;
	if (kernel) {
		r->pc.addr = 0xffff800008010000ull + (rnd() % 0x100000) * 4;
		r->pc.el = 1;
	}
	if (kind < 72) {
		/* loads and stores: GP, SIMD&FP, SVE (contiguous, predicated, gather), atomics, exclusives */
		static const uint8_t ldst[] = { 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x01, 0x04, 0x05, 0x08,
						0x0c, 0x2c, 0x8c, 0x0d, 0x06, 0x07, 0x0a, 0x0b, 0x16, 0x12 };
		r->op_raw_class = 1;
		r->op_raw = ldst[rnd() % sizeof ldst];
		r->has |= SPE_HAS_DATA_VA | SPE_HAS_DATA_PA | SPE_HAS_TRANSLATION_LATENCY | SPE_HAS_DATA_SOURCE;
		r->data_va = kernel ? 0xffff000080000000ull + (rnd() % (1u << 26)) * 8
				    : rnd() % 4 ? 0xaaab20000000ull + (rnd() % (1u << 26)) * 8 /* heap */
						: 0xfffff0000000ull + (rnd() % (1u << 20)) * 8; /* stack */
		r->data_va_tag = !kernel && rnd() % 8 == 0 ? (uint8_t)(0xb0 + rnd() % 16) : 0;
		r->data_pa = 0x80000000ull + (r->data_va & 0x3fffffff);
		r->data_pa_ns = 1;
		r->translation_latency = (uint16_t)(rnd() % 4 == 0 ? 20 + rnd() % 100 : 1);
		r->data_source = ds[rnd() % sizeof ds];
		r->events |= 1u << SPE_EV_L1D_ACCESS | 1u << SPE_EV_TLB_ACCESS;
		if (r->translation_latency > 1)
			r->events |= 1u << SPE_EV_TLB_WALK;
		if (r->data_source)
			r->events |= 1u << SPE_EV_L1D_REFILL;
		if (r->data_source >= 0xb)
			r->events |= 1u << SPE_EV_LLC_ACCESS;
		if (r->data_source >= 0xc)
			r->events |= 1u << SPE_EV_LLC_MISS;
		if (r->data_source == 0xc || r->data_source == 0xd)
			r->events |= 1u << SPE_EV_REMOTE_ACCESS;
		if (rnd() % 50 == 0)
			r->events |= 1u << SPE_EV_MISALIGNED;
		if ((r->op_raw & 0x0c) == 0x0c && rnd() % 3 == 0)
			r->events |= 1u << (rnd() % 4 ? SPE_EV_SVE_PARTIAL_PRED : SPE_EV_SVE_EMPTY_PRED);
		r->total_latency = (uint16_t)(r->data_source >= 0xc ? 150 + rnd() % 400
							  : r->data_source ? 10 + rnd() % 60 : 4 + rnd() % 8);
	} else if (kind < 78) {
		/* other: SVE data processing (some predicated), plain, conditional */
		static const uint8_t other[] = { 0x08, 0x0c, 0x2e, 0x00, 0x01 };
		r->op_raw_class = 0;
		r->op_raw = other[rnd() % sizeof other];
		if (r->op_raw == 0x01 && rnd() % 3 == 0)
			r->events |= 1u << SPE_EV_NOT_TAKEN;
		r->total_latency = (uint16_t)(2 + rnd() % 12);
	} else {
		/* branches: unconditional, conditional, indirect, conditional-indirect */
		static const uint8_t br[] = { 0x00, 0x01, 0x01, 0x01, 0x02, 0x03 };
		r->op_raw_class = 2;
		r->op_raw = br[rnd() % sizeof br];
		r->has |= SPE_HAS_BRANCH_TARGET;
		r->branch_target = r->pc;
		r->branch_target.addr = (r->op_raw & 2) ? r->pc.addr + 0x100000 + (rnd() % 0x1000) * 4
							 : r->pc.addr + (rnd() % 64) * 4 - 128;
		if ((r->op_raw & 1) && rnd() % 3 == 0)
			r->events |= 1u << SPE_EV_NOT_TAKEN;
		if (rnd() % 10 == 0)
			r->events |= 1u << SPE_EV_MISPREDICTED;
		r->total_latency = (uint16_t)(2 + rnd() % 8);
	}
}

enum stream { STREAM_SYNTHETIC, STREAM_REALISTIC };

/* Write a perf.data of about @p mib MiB of @p kind records; returns trace bytes written. */
static uint64_t generate(const char *path, unsigned mib, enum stream kind)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(path);
		exit(2);
	}
	struct spe_perf_writer_config cfg = SPE_OPTS(spe_perf_writer_config, .midr = 0x410fd0c0, .nr_cpus_avail = 4);
	struct spe_perf_writer *w = spe_perf_writer_open(fd, &cfg);
	const size_t chunk = 1u << 20;
	uint8_t *buf = malloc(chunk);
	uint64_t total = 0, ts = 1000000, ring[4] = { 0 };
	struct spe_record r;
	for (unsigned c = 0; total < (uint64_t)mib << 20; c++) {
		struct spe_enc e;
		spe_enc_init(&e, buf, chunk);
		while (e.len + 64 <= chunk && !e.error) {
			if (kind == STREAM_REALISTIC)
				make_realistic_record(&r, ts += 40, 1000 + (uint32_t)(rnd() % 8));
			else
				make_record(&r, ts += 40, 1000 + (uint32_t)(rnd() % 8));
			spe_enc_record(&e, &r, SPE_ENC_PAD_TO_64);
		}
		unsigned cpu = c % 4;
		spe_perf_write_auxtrace(w, buf, e.len, ring[cpu], c, cpu, -1, (int32_t)cpu);
		ring[cpu] += e.len;
		total += e.len;
		if (cpu == 3)
			spe_perf_write_finished_round(w);
	}
	free(buf);
	if (spe_perf_writer_close(w) != 0) {
		fprintf(stderr, "spe_bench: writing %s failed\n", path);
		exit(2);
	}
	close(fd);
	return total;
}

struct decode_result {
	double seconds;
	uint64_t records, bytes;
};

/* The whole file in memory, so neither loop below pays for page faults. */
static uint8_t *load(const char *path, size_t *len)
{
	FILE *in = fopen(path, "rb");
	if (!in) {
		perror(path);
		exit(2);
	}
	fseek(in, 0, SEEK_END);
	*len = (size_t)ftell(in);
	fseek(in, 0, SEEK_SET);
	uint8_t *buf = malloc(*len);
	if (!buf || fread(buf, 1, *len, in) != *len) {
		fprintf(stderr, "spe_bench: cannot read %s\n", path);
		exit(2);
	}
	fclose(in);
	return buf;
}

/* Library only: reader + AUX layer (one record decoder per queue), on the in-memory file. */
static struct decode_result decode(const uint8_t *file, size_t len)
{
	struct decode_result res = { 0 };
	struct spe_perf_file *f = spe_perf_alloc_file(NULL);
	double t0 = cpu_now();
	if (spe_perf_open_mem(f, file, len, "bench") != 0) {
		fprintf(stderr, "spe_bench: %s\n", spe_perf_errmsg(f));
		exit(2);
	}
	struct spe_aux_config cfg = SPE_OPTS(spe_aux_config, .perf = f, .order = SPE_AUX_ORDER_FILE);
	struct spe_aux_decoder *aux = spe_aux_alloc_decoder(&cfg);
	struct spe_aux_item it;
	while (spe_aux_next(aux, &it, sizeof it) == SPE_AUX_RECORD)
		res.records++;
	struct spe_aux_stats st;
	spe_aux_get_stats(aux, &st, sizeof st);
	res.bytes = st.bytes;
	res.seconds = cpu_now() - t0;
	spe_aux_free_decoder(aux);
	spe_perf_free_file(f);
	return res;
}

/* memcpy of the same trace bytes, chunk by chunk, into one buffer. */
static double copy_all(const uint8_t *file, size_t len, uint64_t *bytes)
{
	struct spe_perf_file *f = spe_perf_alloc_file(NULL);
	spe_perf_open_mem(f, file, len, "bench");
	uint8_t *dst = malloc(2u << 20);
	struct spe_perf_event ev;
	volatile uint8_t sink = 0;
	*bytes = 0;
	double t0 = cpu_now();
	while (spe_perf_next(f, &ev, sizeof ev) == 0) {
		if (ev.type != SPE_PERF_RECORD_AUXTRACE || ev.u.auxtrace.size > (2u << 20))
			continue;
		memcpy(dst, ev.u.auxtrace.data, ev.u.auxtrace.size);
		sink ^= dst[ev.u.auxtrace.size / 2];
		*bytes += ev.u.auxtrace.size;
	}
	double t = cpu_now() - t0;
	(void)sink;
	free(dst);
	spe_perf_free_file(f);
	return t;
}

struct child_result {
	double seconds;          /* wall */
	double cpu;              /* user + system */
	long maxrss_kb;
	int status;
};

/*
 * Run a command with stdout to @p out (NULL: /dev/null) and stderr to
 * /dev/null; wall and CPU time and the child's peak RSS.  @p out is removed
 * first, in this process, so the child's time never includes truncating the
 * previous run's output.  Then everything written so far is flushed to disk
 * (sync, also in this process): a gigabyte of text a previous command left
 * dirty is otherwise written back during the next one, whose writes then
 * wait for memory and whose CPU time the kernel's flusher threads share on
 * a small machine.  Without it the same spe-dump to a file measured 0.56 s
 * right after a run of its own and 1.2-2.5 s right after perf's.
 */
static struct child_result run_child_to(char *const argv[], const char *out)
{
	struct child_result r = { 0 };
	if (out)
		unlink(out);
	sync();
	double t0 = now();
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		int fd = out ? open(out, O_WRONLY | O_CREAT | O_EXCL, 0644) : null;
		if (fd < 0)
			_exit(126);
		dup2(fd, 1);
		dup2(null, 2);
		setenv("PAGER", "cat", 1);
		execvp(argv[0], argv);
		_exit(127);
	}
	struct rusage ru;
	int status = 0;
	wait4(pid, &status, 0, &ru);
	r.seconds = now() - t0;
	r.cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
		(double)ru.ru_stime.tv_usec * 1e-6;
	r.maxrss_kb = ru.ru_maxrss;
	r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
	if (out)
		unlink(out);
	return r;
}

static struct child_result run_child(char *const argv[])
{
	return run_child_to(argv, NULL);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

#define MAX_REPS 9

/* CPU seconds of each run of one command; the median is what we report. */
struct runs {
	double cpu[MAX_REPS];
	int n, failed;
};

static void add_run(struct runs *r, struct child_result c)
{
	r->cpu[r->n++] = c.cpu;
	if (c.status != 0 || c.cpu <= 0)
		r->failed = 1;
}

static double median(const struct runs *r)
{
	double v[MAX_REPS];
	memcpy(v, r->cpu, sizeof v);
	qsort(v, (size_t)r->n, sizeof v[0], cmp_double);
	return v[r->n / 2];
}

/*
 * spe-dump and `perf report -D` on one file, text to /dev/null and to a
 * regular file (@p out, in the bench directory), @p reps times, the four
 * commands interleaved so a neighbour's burst hits all of them alike.
 * Prints medians and the perf/spe-dump ratios; returns 0 when all were computed.
 */
static int compare_with_perf(const char *label, const char *path, const char *spe_dump, const char *out,
			     int use_perf, int reps, double mb)
{
	char *dump_argv[] = { (char *)spe_dump, "-q", (char *)path, NULL };
	char *perf_argv[] = { "perf", "report", "-f", "-D", "-i", (char *)path, NULL };
	struct runs sd_null = { 0 }, sd_file = { 0 }, pr_null = { 0 }, pr_file = { 0 };
	for (int rep = 0; rep < reps; rep++) {
		add_run(&sd_null, run_child(dump_argv));
		add_run(&sd_file, run_child_to(dump_argv, out));
		if (use_perf) {
			add_run(&pr_null, run_child(perf_argv));
			add_run(&pr_file, run_child_to(perf_argv, out));
		}
	}
	printf("%s stream (median of %d, CPU s):\n", label, reps);
	printf("  spe-dump > /dev/null: %7.3f s  %8.1f MB/s\n", median(&sd_null), mb / median(&sd_null));
	printf("  spe-dump > file:      %7.3f s  %8.1f MB/s\n", median(&sd_file), mb / median(&sd_file));
	if (!use_perf) {
		printf("  perf report -D: skipped (perf not installed or --no-perf)\n");
		return sd_null.failed || sd_file.failed;
	}
	printf("  perf -D > /dev/null:  %7.3f s  %8.1f MB/s\n", median(&pr_null), mb / median(&pr_null));
	printf("  perf -D > file:       %7.3f s  %8.1f MB/s\n", median(&pr_file), mb / median(&pr_file));
	printf("  ratio perf/spe-dump time, %s, to /dev/null: %.1fx\n", label, median(&pr_null) / median(&sd_null));
	printf("  ratio perf/spe-dump time, %s, to a file:    %.1fx\n", label, median(&pr_file) / median(&sd_file));
	return sd_null.failed || sd_file.failed || pr_null.failed || pr_file.failed;
}

static int have_perf(void)
{
	char *argv[] = { "perf", "version", NULL };
	return run_child(argv).status == 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mib", required_argument, NULL, 'm' },
		{ "spe-dump", required_argument, NULL, 's' },
		{ "no-perf", no_argument, NULL, 'n' },
		{ "dir", required_argument, NULL, 'd' },
		{ "keep", no_argument, NULL, 'k' },
		{ "reps", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned mib = 64;
	const char *spe_dump = "spe-dump", *dir = "/tmp";
	int use_perf = 1, keep = 0, reps = 1, c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'm': mib = (unsigned)atoi(optarg); break;
		case 's': spe_dump = optarg; break;
		case 'n': use_perf = 0; break;
		case 'd': dir = optarg; break;
		case 'k': keep = 1; break;
		case 'r': reps = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: spe_bench [--mib=N] [--spe-dump=PATH] [--no-perf] [--dir=DIR] [--keep] "
					"[--reps=N]\n");
			return 64;
		}
	}
	if (mib < 1)
		mib = 1;
	if (reps < 1 || reps > MAX_REPS)
		reps = reps < 1 ? 1 : MAX_REPS;
	char big[512], small[512], real[512], out[512];
	snprintf(big, sizeof big, "%s/spe-bench-%u.data", dir, mib);
	snprintf(small, sizeof small, "%s/spe-bench-%u-quarter.data", dir, mib);
	snprintf(real, sizeof real, "%s/spe-bench-%u-realistic.data", dir, mib);
	snprintf(out, sizeof out, "%s/spe-bench-%u.dump.txt", dir, mib);
	uint64_t trace = generate(big, mib, STREAM_SYNTHETIC);
	generate(small, mib / 4 ? mib / 4 : 1, STREAM_SYNTHETIC);
	uint64_t trace_real = generate(real, mib, STREAM_REALISTIC);
	printf("file: %s, %.1f MiB of SPE trace (synthetic: loads, stores, branches)\n", big,
	       (double)trace / (1 << 20));
	printf("file: %s, %.1f MiB of SPE trace (realistic: many op types, events, data sources)\n", real,
	       (double)trace_real / (1 << 20));

	uint64_t copied;
	size_t file_len;
	uint8_t *file = load(big, &file_len);
	copy_all(file, file_len, &copied); /* warm the caches and the destination */
	/* Best of three: one pass takes tens of ms, and the neighbours on a shared machine skew any one of them. */
	double t_copy = copy_all(file, file_len, &copied);
	struct decode_result dr = decode(file, file_len);
	for (int rep = 1; rep < 3; rep++) {
		double t = copy_all(file, file_len, &copied);
		struct decode_result d2 = decode(file, file_len);
		if (t < t_copy)
			t_copy = t;
		if (d2.seconds < dr.seconds)
			dr = d2;
	}
	free(file);
	double mb = (double)dr.bytes / 1e6;
	printf("(times are CPU seconds; wall time in brackets for the child processes)\n");
	printf("memcpy:        %8.3f s  %8.0f MB/s\n", t_copy, (double)copied / 1e6 / t_copy);
	printf("decode (lib):  %8.3f s  %8.0f MB/s  %10.0f records/s  (%" PRIu64 " records)\n", dr.seconds,
	       mb / dr.seconds, (double)dr.records / dr.seconds, dr.records);

	char *dump_big[] = { (char *)spe_dump, "-q", big, NULL };
	char *dump_small[] = { (char *)spe_dump, "-q", small, NULL };
	struct child_result sd = run_child(dump_big);
	struct child_result sd_small = run_child(dump_small);
	printf("spe-dump:      %8.3f s  %8.0f MB/s  [%.3f s]  peak RSS %ld KiB (exit %d)\n", sd.cpu, mb / sd.cpu,
	       sd.seconds, sd.maxrss_kb, sd.status);
	printf("spe-dump 1/4:  %8.3f s  [%.3f s]  peak RSS %ld KiB\n", sd_small.cpu, sd_small.seconds,
	       sd_small.maxrss_kb);

	int ok = dr.records > 0 && t_copy > 0 && sd.status == 0 && sd_small.status == 0 && sd.cpu > 0;
	double ratio_decode = dr.seconds / t_copy;
	printf("ratio decode/memcpy time:  %.1fx\n", ratio_decode);
	printf("ratio spe-dump RSS full/quarter: %.2f\n", (double)sd.maxrss_kb / (double)sd_small.maxrss_kb);
	use_perf = use_perf && have_perf();
	ok = compare_with_perf("synthetic", big, spe_dump, out, use_perf, reps, mb) == 0 && ok;
	ok = compare_with_perf("realistic", real, spe_dump, out, use_perf, reps, (double)trace_real / 1e6) == 0 && ok;
	if (!keep) {
		unlink(big);
		unlink(small);
		unlink(real);
	}
	printf("%s\n", ok ? "ratios computed" : "ratios NOT computed");
	return ok ? 0 : 1;
}
