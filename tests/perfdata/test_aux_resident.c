/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The pages of a mapped perf.data stay bounded while its AUX data is read,
 * whatever the queue layout (issue 33: threads_cpus kept its whole file
 * resident).  A capture of gen_bench's threads_cpus shape, 256 CPUs whose
 * 16 KB chunks interleave in every round, is read in queue order (each
 * queue's chunks, one queue after the other: spe-load) and in file order
 * (spe-dump); after every chunk and every 4096 events the process's
 * resident file pages (/proc/self/status RssFile) are read.  The mapping's
 * share must stay under 16 MB of the 64 MB file.  The same reads with
 * keep_pages (nothing released) show the measure sees the mapping (most of
 * the file resident) and give the same records: released pages are read
 * again correctly.  In queue order the heap holds one queue's record decoder
 * at a time, not one per queue (256 x 18 KB), and the counts of the freed
 * ones are kept.
 *
 * Usage: test_aux_resident GEN_BENCH
 */
#include <fcntl.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "run.h"
#include "spe/spe.h"

#define RECORDS 1000000
#define BOUND_KB (16 * 1024)

static const char *gen_bench;
static char dir[64], path[96];
static uint64_t file_kb;

/* The process's resident pages of mapped files, in KB; -1 if /proc says nothing. */
static long rss_file_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return -1;
	char line[256];
	long kb = -1;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, "RssFile:", 8) == 0)
			kb = atol(line + 8);
	fclose(f);
	return kb;
}

struct reading {
	uint64_t records, chunks, sum; /* sum: of a mix of each record's fields, in any order */
	long peak_kb;                  /* RssFile's highest, less the value before the open */
	long heap_kb;                  /* the heap in use's highest (mallinfo2), less the value before the open */
	struct spe_aux_stats st;
};

/* Bytes of the heap in use; 0 where the allocator does not say (sanitizers replace malloc). */
static size_t heap_in_use(void)
{
	struct mallinfo2 mi = mallinfo2();
	return mi.uordblks + mi.hblkhd;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static void read_capture(enum spe_aux_order order, int keep_pages, struct reading *out)
{
	memset(out, 0, sizeof *out);
	long before = rss_file_kb();
	size_t heap_before = heap_in_use();
	struct spe_perf_config pc = SPE_OPTS(spe_perf_config, .keep_pages = keep_pages);
	struct spe_perf_file *f = spe_perf_alloc_file(&pc);
	CHECK(f != NULL);
	CHECK_INT_EQ(spe_perf_open(f, path), 0);
	struct spe_aux_config ac = SPE_OPTS(spe_aux_config, .perf = f, .order = order,
					    .items = SPE_AUX_WANT_CHUNKS | SPE_AUX_WANT_EVENTS);
	struct spe_aux_decoder *aux = spe_aux_alloc_decoder(&ac);
	CHECK(aux != NULL);
	struct spe_aux_item it;
	uint64_t events = 0;
	int type;
	while ((type = spe_aux_next(aux, &it, sizeof it)) > 0) {
		if (type == SPE_AUX_RECORD) {
			const struct spe_record *r = it.record;
			uint64_t h = mix(mix(mix(mix(0, r->pc.addr), r->timestamp), r->context), it.file_offset);
			out->sum += mix(h, ((uint64_t)it.queue << 32) | (uint32_t)it.cpu);
			out->records++;
			continue;
		}
		if (type == SPE_AUX_CHUNK)
			out->chunks++;
		else if (++events % 4096)
			continue;
		long kb = rss_file_kb() - before;
		if (kb > out->peak_kb)
			out->peak_kb = kb;
		long heap_kb = ((long)heap_in_use() - (long)heap_before) / 1024;
		if (heap_kb > out->heap_kb)
			out->heap_kb = heap_kb;
	}
	CHECK_INT_EQ(type, -spe_eos);
	spe_aux_get_stats(aux, &out->st, sizeof out->st);
	spe_aux_free_decoder(aux);
	spe_perf_free_file(f);
}

static int generate(void)
{
	strcpy(dir, "/tmp/spe-resident-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof path, "%s/t.data", dir);
	pid_t pid = fork();
	if (pid == 0) {
		char opt[128];
		snprintf(opt, sizeof opt, "--perf-data=%s", path);
		char *argv[] = { (char *)gen_bench, opt, dir, "1000000", "--cpus=256", "--threads=10000",
				 "--switch-every=50", "20000", "2000", "10", NULL };
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		spe_run_execv(gen_bench, argv);
		_exit(127);
	}
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return -1;
	struct stat sb;
	if (stat(path, &sb) != 0)
		return -1;
	file_kb = (uint64_t)sb.st_size / 1024;
	return 0;
}

static struct reading released_queue, kept_queue;

TEST(queue_order_keeps_file_pages_bounded)
{
	read_capture(SPE_AUX_ORDER_QUEUE, 0, &released_queue);
	printf("  queue order: %" PRIu64 " records in %" PRIu64 " chunks, file pages resident at most %ld of %" PRIu64
	       " KB\n",
	       released_queue.records, released_queue.chunks, released_queue.peak_kb, file_kb);
	CHECK_U64_EQ(released_queue.records, RECORDS);
	CHECK(released_queue.chunks > 1000); /* 256 queues, each in 16 rounds */
	CHECK(released_queue.peak_kb <= BOUND_KB);
	CHECK_U64_EQ(released_queue.st.queues, 256);
	CHECK_U64_EQ(released_queue.st.records, RECORDS);
	CHECK_U64_EQ(released_queue.st.bad_bytes, 0);
}

TEST(queue_order_holds_one_record_decoder)
{
	if (!heap_in_use()) {
		printf("  (the allocator does not count its heap: not checked)\n");
		return;
	}
	/* the index (4096 chunks) and 256 queues' state take about 0.5 MB; a decoder per queue 4.5 MB more */
	printf("  queue order: heap in use at most %ld KB above the open's\n", released_queue.heap_kb);
	CHECK(released_queue.heap_kb < 2048);
}

TEST(kept_pages_are_seen_and_give_the_same_records)
{
	read_capture(SPE_AUX_ORDER_QUEUE, 1, &kept_queue);
	printf("  queue order, pages kept: file pages resident at most %ld KB\n", kept_queue.peak_kb);
	/* the measure sees the mapping: kept, most of the file is resident */
	CHECK((uint64_t)kept_queue.peak_kb >= file_kb * 3 / 4);
	CHECK_U64_EQ(kept_queue.records, released_queue.records);
	CHECK_U64_EQ(kept_queue.sum, released_queue.sum);
}

TEST(file_order_keeps_file_pages_bounded)
{
	struct reading r;
	read_capture(SPE_AUX_ORDER_FILE, 0, &r);
	printf("  file order: file pages resident at most %ld KB\n", r.peak_kb);
	CHECK(r.peak_kb <= BOUND_KB);
	CHECK_U64_EQ(r.records, released_queue.records);
	CHECK_U64_EQ(r.sum, released_queue.sum);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_aux_resident GEN_BENCH\n");
		return 2;
	}
	gen_bench = argv[1];
	if (*spe_run_prefix()) {
		printf("SKIP: under an emulator, /proc/self/status is the emulator's\n");
		return 77;
	}
	if (rss_file_kb() < 0) {
		printf("SKIP: no RssFile in /proc/self/status\n");
		return 77;
	}
	if (generate() != 0) {
		fprintf(stderr, "test_aux_resident: %s could not write %s\n", gen_bench, path);
		return 1;
	}
	RUN(queue_order_keeps_file_pages_bounded);
	RUN(queue_order_holds_one_record_decoder);
	RUN(kept_pages_are_seen_and_give_the_same_records);
	RUN(file_order_keeps_file_pages_bounded);
	unlink(path);
	char elf[96];
	snprintf(elf, sizeof elf, "%s/bench.elf", dir);
	unlink(elf);
	rmdir(dir);
	return check_summary();
}
