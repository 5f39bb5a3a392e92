/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writer -> reader round trip: every record kind the writer emits comes back
 * from spe_perf_next() with the values written, in file order, with its
 * sample_id trailer; features and AUXTRACE_INFO v1/v2 survive; AUX queues
 * come back in ring order; a writer that never closes leaves a readable file;
 * write errors are reported.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "run.h"
#include "spe/spe.h"

static char path[64];

static int tmpfile_fd(void)
{
	strcpy(path, "/tmp/spe-pd-XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0) {
		perror("mkstemp");
		exit(1);
	}
	return fd;
}

static const uint8_t bytes_a[13] = { 0xb0, 1, 2, 3, 4, 5, 6, 7, 0x80, 0x49, 0x00, 0x71, 0x01 };
static uint8_t bytes_b[32];

static const struct spe_perf_writer_sid sid1 = { .pid = 1234, .tid = 1235, .time = 1000100, .cpu = 3 };

/* Write the file every test here reads. */
static void write_sample_file(int fd, int version)
{
	static char *argv[] = { "spe-record", "-e", "arm_spe//", NULL };
	struct spe_perf_time_conv tc = { .time_shift = 2, .time_mult = 5, .time_zero = 77, .cap_user_time_zero = 1 };
	struct spe_perf_spe_cpu cpus[2] = {
		{ .cpu = 0, .midr = 0x410fd0c0, .pmu_type = 9, .min_interval = 1024, .event_filter = 0xff },
		{ .cpu = 1, .midr = 0x410fd490, .pmu_type = 9, .min_interval = 512 },
	};
	struct spe_perf_writer_config cfg = SPE_OPTS(spe_perf_writer_config, .pmu_type = 9, .config = 0x42,
						     .midr = 0x410fd0c0, .hostname = "box", .osrelease = "6.1.0",
						     .argc = 3, .argv = argv, .time_conv = &tc, .nr_cpus_avail = 4,
						     .nr_cpus_online = 2, .auxtrace_info_version = version,
						     .cpus = cpus, .n_cpus = 2, .exclude_kernel = 1);
	struct spe_perf_writer *w = spe_perf_writer_open(fd, &cfg);
	CHECK(w != NULL);
	for (size_t i = 0; i < sizeof bytes_b; i++)
		bytes_b[i] = (uint8_t)(0x10 + i);
	CHECK_INT_EQ(spe_perf_write_comm(w, 1234, 1235, "memstress", 1, &sid1), 0);
	struct spe_perf_mmap m = { .pid = 1234, .tid = 1235, .start = 0xaaaac17c3000, .len = 0x1000, .pgoff = 0x1000,
				   .maj = 8, .min = 1, .ino = 99, .prot = 5, .flags = 2,
				   .filename = "/usr/local/bin/memstress" };
	CHECK_INT_EQ(spe_perf_write_mmap2(w, &m, &sid1), 0);
	struct spe_perf_mmap mb = { .pid = 1, .tid = 1, .start = 0x1000, .len = 0x2000, .build_id_size = 20,
				    .filename = "/lib/libc.so.6" };
	memset(mb.build_id, 0xab, 20);
	CHECK_INT_EQ(spe_perf_write_mmap2(w, &mb, NULL), 0);
	CHECK_INT_EQ(spe_perf_write_itrace_start(w, 1234, 1235, &sid1), 0);
	/* queue 1 chunk at ring offset 0x20 first, then queue 0, then queue 1 at 0 */
	CHECK_INT_EQ(spe_perf_write_auxtrace(w, bytes_b, 20, 0x20, 7, 1, -1, 1), 0);
	CHECK_INT_EQ(spe_perf_write_aux(w, 0, 13, SPE_PERF_AUX_TRUNCATED | SPE_PERF_AUX_PARTIAL, &sid1), 0);
	CHECK_INT_EQ(spe_perf_write_auxtrace(w, bytes_a, sizeof bytes_a, 0, 8, 0, -1, 0), 0);
	CHECK_INT_EQ(spe_perf_write_auxtrace(w, bytes_b, 32, 0, 9, 1, -1, 1), 0);
	struct spe_perf_task fork = { .pid = 1234, .ppid = 1, .tid = 1236, .ptid = 1235, .time = 1000200 };
	CHECK_INT_EQ(spe_perf_write_task(w, SPE_PERF_RECORD_FORK, &fork, &sid1), 0);
	struct spe_perf_switch sw = { .out = 1, .preempt = 1, .next_prev_pid = 7, .next_prev_tid = 8 };
	CHECK_INT_EQ(spe_perf_write_switch(w, 1, &sw, &sid1), 0);
	CHECK_INT_EQ(spe_perf_write_lost(w, 1, 42, &sid1), 0);
	static const uint8_t ns_body[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	CHECK_INT_EQ(spe_perf_write_kernel_record(w, 16 /* NAMESPACES */, 0, ns_body, sizeof ns_body, &sid1), 0);
	CHECK_INT_EQ(spe_perf_write_finished_round(w), 0);
	uint8_t id[20];
	memset(id, 0x5a, sizeof id);
	CHECK_INT_EQ(spe_perf_writer_add_build_id(w, 1234, id, 20, "/usr/local/bin/memstress"), 0);
	CHECK_INT_EQ(spe_perf_writer_close(w), 0);
}

static struct spe_perf_file *open_path(void)
{
	struct spe_perf_file *f = spe_perf_alloc_file(NULL);
	int err = spe_perf_open(f, path);
	if (err)
		printf("  open: %s\n", spe_perf_errmsg(f));
	CHECK_INT_EQ(err, 0);
	return f;
}

TEST(header_and_features)
{
	int fd = tmpfile_fd();
	write_sample_file(fd, 1);
	close(fd);
	struct spe_perf_file *f = open_path();
	struct spe_perf_info info;
	spe_perf_get_info(f, &info, sizeof info);
	CHECK_INT_EQ(info.pipe_format, 0);
	CHECK_INT_EQ(info.unfinished, 0);
	CHECK_INT_EQ(info.n_attrs, 1);
	CHECK_INT_EQ(info.data_offset, 256);
	CHECK_STR_EQ(info.cpuid, "0x00000000410fd0c0");
	CHECK_U64_EQ(info.midr, 0x410fd0c0);
	CHECK_STR_EQ(info.arch, "aarch64");
	CHECK_STR_EQ(info.hostname, "box");
	CHECK_STR_EQ(info.osrelease, "6.1.0");
	CHECK_STR_EQ(info.cmdline, "spe-record -e arm_spe//");
	CHECK_INT_EQ(info.nr_cpus_avail, 4);
	CHECK_INT_EQ(info.nr_cpus_online, 2);
	CHECK_INT_EQ(info.n_auxtrace_index, 3);
	CHECK_INT_EQ(info.n_build_ids, 1);
	struct spe_perf_build_id bid;
	CHECK_INT_EQ(spe_perf_get_build_id(f, 0, &bid, sizeof bid), 0);
	CHECK_INT_EQ(bid.pid, 1234);
	CHECK_INT_EQ(bid.size, 20);
	CHECK_INT_EQ(bid.id[19], 0x5a);
	CHECK_STR_EQ(bid.filename, "/usr/local/bin/memstress");
	struct spe_perf_attr a;
	CHECK_INT_EQ(spe_perf_get_attr(f, 0, &a, sizeof a), 0);
	CHECK_INT_EQ(a.type, 9);
	CHECK_INT_EQ(a.size, 128);
	CHECK_U64_EQ(a.config, 0x42);
	CHECK_U64_EQ(a.sample_type, 0x98087);
	CHECK_INT_EQ(a.sample_id_all, 1);
	/* flags word: sample_id_all (bit 18) and exclude_kernel (bit 5), nothing else */
	CHECK_U64_EQ(a.flags, (1ull << 18) | (1ull << 5));
	CHECK_INT_EQ(a.n_ids, 1);
	CHECK_U64_EQ(a.ids[0], 1);
	CHECK_INT_EQ(spe_perf_get_attr(f, 1, &a, sizeof a), -spe_invalid);
	spe_perf_free_file(f);
	unlink(path);
}

TEST(events_in_file_order)
{
	int fd = tmpfile_fd();
	write_sample_file(fd, 1);
	close(fd);
	struct spe_perf_file *f = open_path();
	struct spe_perf_event ev;
	static const uint32_t want[] = { 79, 70, 3, 10, 10, 12, 71, 11, 71, 71, 7, 15, 2, 16, 68 };
	size_t n = 0;
	uint64_t expect_off = 256;
	int rc;
	while ((rc = spe_perf_next(f, &ev, sizeof ev)) == 0) {
		CHECK(n < sizeof want / sizeof want[0]);
		if (n >= sizeof want / sizeof want[0])
			break;
		CHECK_INT_EQ(ev.type, want[n]);
		CHECK_U64_EQ(ev.file_offset, expect_off);
		expect_off += ev.total_size;
		switch (ev.type) {
		case SPE_PERF_RECORD_TIME_CONV:
			CHECK_INT_EQ(ev.u.time_conv.time_shift, 2);
			CHECK_INT_EQ(ev.u.time_conv.time_mult, 5);
			CHECK_INT_EQ(ev.u.time_conv.time_zero, 77);
			CHECK_INT_EQ(ev.u.time_conv.long_form, 1);
			break;
		case SPE_PERF_RECORD_AUXTRACE_INFO:
			CHECK_INT_EQ(ev.u.auxtrace_info.kind, 4);
			CHECK_INT_EQ(ev.u.auxtrace_info.version, 1);
			CHECK_INT_EQ(ev.u.auxtrace_info.pmu_type, 9);
			CHECK_INT_EQ(ev.header_size, 32);
			break;
		case SPE_PERF_RECORD_COMM:
			CHECK_STR_EQ(ev.u.comm.comm, "memstress");
			CHECK_INT_EQ(ev.u.comm.exec, 1);
			CHECK_INT_EQ(ev.u.comm.pid, 1234);
			CHECK_INT_EQ(ev.sid.has, SPE_PERF_SID_TID | SPE_PERF_SID_TIME | SPE_PERF_SID_CPU | SPE_PERF_SID_ID);
			CHECK_INT_EQ(ev.sid.pid, 1234);
			CHECK_INT_EQ(ev.sid.tid, 1235);
			CHECK_U64_EQ(ev.sid.time, 1000100);
			CHECK_INT_EQ(ev.sid.cpu, 3);
			CHECK_U64_EQ(ev.sid.id, 1);
			CHECK_INT_EQ(ev.attr_index, 0);
			break;
		case SPE_PERF_RECORD_MMAP2:
			if (n == 3) {
				CHECK_STR_EQ(ev.u.mmap.filename, "/usr/local/bin/memstress");
				CHECK_U64_EQ(ev.u.mmap.start, 0xaaaac17c3000);
				CHECK_U64_EQ(ev.u.mmap.pgoff, 0x1000);
				CHECK_INT_EQ(ev.u.mmap.maj, 8);
				CHECK_INT_EQ(ev.u.mmap.ino, 99);
				CHECK_INT_EQ(ev.u.mmap.prot, 5);
				CHECK_INT_EQ(ev.u.mmap.build_id_size, 0);
			} else {
				CHECK_STR_EQ(ev.u.mmap.filename, "/lib/libc.so.6");
				CHECK_INT_EQ(ev.u.mmap.build_id_size, 20);
				CHECK_INT_EQ(ev.u.mmap.build_id[7], 0xab);
				CHECK_INT_EQ(ev.sid.pid, 0);
			}
			break;
		case SPE_PERF_RECORD_ITRACE_START:
			CHECK_INT_EQ(ev.u.itrace_start.tid, 1235);
			break;
		case SPE_PERF_RECORD_FORK:
			CHECK_INT_EQ(ev.u.task.tid, 1236);
			CHECK_INT_EQ(ev.u.task.ppid, 1);
			CHECK_U64_EQ(ev.u.task.time, 1000200);
			CHECK_INT_EQ(ev.sid.cpu, 3);
			break;
		case SPE_PERF_RECORD_SWITCH_CPU_WIDE:
			CHECK_INT_EQ(ev.u.sw.out, 1);
			CHECK_INT_EQ(ev.u.sw.preempt, 1);
			CHECK_INT_EQ(ev.u.sw.next_prev_tid, 8);
			break;
		case SPE_PERF_RECORD_LOST:
			CHECK_INT_EQ(ev.u.lost.lost, 42);
			break;
		case 16:
			CHECK_INT_EQ(ev.header_size, 8 + 8 + 32);
			CHECK_INT_EQ(ev.raw[15], 8);
			CHECK_INT_EQ(ev.sid.tid, 1235);
			break;
		case SPE_PERF_RECORD_AUX:
			CHECK_INT_EQ(ev.u.aux.aux_size, 13);
			CHECK_INT_EQ(ev.u.aux.flags, SPE_PERF_AUX_TRUNCATED | SPE_PERF_AUX_PARTIAL);
			break;
		case SPE_PERF_RECORD_AUXTRACE:
			if (n == 8) {
				/* 13 bytes padded to 16 with zeros */
				CHECK_INT_EQ(ev.u.auxtrace.size, 16);
				CHECK(memcmp(ev.u.auxtrace.data, bytes_a, 13) == 0);
				CHECK_INT_EQ(ev.u.auxtrace.data[13] | ev.u.auxtrace.data[14] | ev.u.auxtrace.data[15], 0);
				CHECK_INT_EQ(ev.u.auxtrace.idx, 0);
				CHECK_INT_EQ(ev.u.auxtrace.tid, -1);
				CHECK_INT_EQ(ev.u.auxtrace.reference, 8);
				CHECK_U64_EQ(ev.u.auxtrace.data_offset, ev.file_offset + 48);
				CHECK_INT_EQ(ev.total_size, 48 + 16);
			}
			if (n == 6) {
				CHECK_INT_EQ(ev.u.auxtrace.size, 24);
				CHECK_INT_EQ(ev.u.auxtrace.idx, 1);
				CHECK_INT_EQ(ev.u.auxtrace.cpu, 1);
				CHECK_U64_EQ(ev.u.auxtrace.offset, 0x20);
			}
			break;
		}
		n++;
	}
	CHECK_INT_EQ(rc, -spe_eos);
	CHECK_INT_EQ(n, sizeof want / sizeof want[0]);
	CHECK_INT_EQ(spe_perf_next(f, &ev, sizeof ev), -spe_eos);
	struct spe_perf_info info;
	spe_perf_get_info(f, &info, sizeof info);
	CHECK_INT_EQ(info.n_auxtrace, 3);
	CHECK_INT_EQ(info.auxtrace_bytes, 24 + 16 + 32);
	CHECK_INT_EQ(info.n_aux, 1);
	CHECK_INT_EQ(info.n_aux_truncated, 1);
	CHECK_INT_EQ(info.n_aux_partial, 1);
	CHECK_INT_EQ(info.n_aux_collision, 0);
	CHECK_INT_EQ(info.has_time_conv, 1);
	CHECK_INT_EQ(info.n_lost_events, 42);
	CHECK_INT_EQ(info.n_skipped, 1); /* NAMESPACES is not parsed */
	spe_perf_free_file(f);
	unlink(path);
}

TEST(aux_queues_in_ring_order)
{
	int fd = tmpfile_fd();
	write_sample_file(fd, 1);
	close(fd);
	struct spe_perf_file *f = open_path();
	CHECK_INT_EQ(spe_perf_index_aux(f), 0);
	CHECK_INT_EQ(spe_perf_aux_queue_count(f), 2);
	CHECK_INT_EQ(spe_perf_aux_chunk_count(f, 0), 1);
	CHECK_INT_EQ(spe_perf_aux_chunk_count(f, 1), 2);
	struct spe_perf_aux_chunk c0, c1;
	CHECK_INT_EQ(spe_perf_aux_chunk(f, 1, 0, &c0, sizeof c0), 0);
	CHECK_INT_EQ(spe_perf_aux_chunk(f, 1, 1, &c1, sizeof c1), 0);
	CHECK_INT_EQ(c0.idx, 1);
	CHECK_U64_EQ(c0.aux_offset, 0);   /* written last, comes first */
	CHECK_INT_EQ(c0.size, 32);
	CHECK_U64_EQ(c1.aux_offset, 0x20);
	CHECK_INT_EQ(c1.contiguous, 1);    /* 0 + 32 == 0x20 */
	CHECK_INT_EQ(c1.data[0], 0x10);
	CHECK_INT_EQ(spe_perf_aux_chunk(f, 2, 0, &c0, sizeof c0), -spe_invalid);
	/* the iterator is not disturbed */
	struct spe_perf_event ev;
	CHECK_INT_EQ(spe_perf_next(f, &ev, sizeof ev), 0);
	CHECK_INT_EQ(ev.type, SPE_PERF_RECORD_TIME_CONV);
	spe_perf_free_file(f);
	unlink(path);
}

/* Left to the writer, NRCPUS covers every AUXTRACE cpu written (perf's highest CPU + 1); a pipe omits it. */
TEST(nrcpus_follows_the_cpus_written)
{
	static const uint8_t end = 0x01;
	for (int pipe_mode = 0; pipe_mode <= 1; pipe_mode++) {
		int fd = tmpfile_fd();
		struct spe_perf_writer_config cfg = SPE_OPTS(spe_perf_writer_config, .pipe_mode = pipe_mode);
		struct spe_perf_writer *w = spe_perf_writer_open(fd, &cfg);
		CHECK_INT_EQ(spe_perf_write_auxtrace(w, &end, 1, 0, 0, 0, -1, 5), 0);
		CHECK_INT_EQ(spe_perf_write_auxtrace(w, &end, 1, 0, 0, 1, -1, 2), 0);
		CHECK_INT_EQ(spe_perf_write_auxtrace(w, &end, 1, 0, 0, 2, 77, -1), 0);
		CHECK_INT_EQ(spe_perf_writer_close(w), 0);
		close(fd);
		struct spe_perf_file *f = open_path();
		struct spe_perf_event ev;
		while (spe_perf_next(f, &ev, sizeof ev) == 0)
			;
		struct spe_perf_info info;
		spe_perf_get_info(f, &info, sizeof info);
		CHECK_INT_EQ(info.nr_cpus_avail, pipe_mode ? 0 : 6);
		CHECK_INT_EQ(info.nr_cpus_online, pipe_mode ? 0 : 6);
		spe_perf_free_file(f);
		unlink(path);
	}
}

TEST(auxtrace_info_v2)
{
	int fd = tmpfile_fd();
	write_sample_file(fd, 2);
	close(fd);
	struct spe_perf_file *f = open_path();
	struct spe_perf_event ev;
	CHECK_INT_EQ(spe_perf_next(f, &ev, sizeof ev), 0);
	CHECK_INT_EQ(spe_perf_next(f, &ev, sizeof ev), 0);
	CHECK_INT_EQ(ev.type, SPE_PERF_RECORD_AUXTRACE_INFO);
	CHECK_INT_EQ(ev.header_size, 16 + 8 * (4 + 7 * 2));
	CHECK_INT_EQ(ev.u.auxtrace_info.version, 2);
	CHECK_INT_EQ(ev.u.auxtrace_info.pmu_type, 9);
	CHECK_INT_EQ(ev.u.auxtrace_info.n_cpus, 2);
	struct spe_perf_spe_cpu c;
	CHECK_INT_EQ(spe_perf_spe_cpu(f, 1, &c, sizeof c), 0);
	CHECK_U64_EQ(c.midr, 0x410fd490);
	CHECK_INT_EQ(c.min_interval, 512);
	CHECK_INT_EQ(c.n_params, 4);
	CHECK_INT_EQ(spe_perf_spe_cpu(f, 0, &c, sizeof c), 0);
	CHECK_U64_EQ(c.event_filter, 0xff);
	CHECK_U64_EQ(spe_perf_midr(f, 1), 0x410fd490);
	CHECK_U64_EQ(spe_perf_midr(f, 0), 0x410fd0c0);
	/* CPUs disagree: per-thread data falls back to HEADER_CPUID */
	CHECK_U64_EQ(spe_perf_midr(f, -1), 0x410fd0c0);
	spe_perf_free_file(f);
	unlink(path);
}

TEST(unfinished_writer_file_opens)
{
	int fd = tmpfile_fd();
	struct spe_perf_writer_config cfg = SPE_OPTS(spe_perf_writer_config, .midr = 0x410fd0c0);
	struct spe_perf_writer *w = spe_perf_writer_open(fd, &cfg);
	CHECK_INT_EQ(spe_perf_write_auxtrace(w, bytes_a, sizeof bytes_a, 0, 0, 0, -1, 0), 0);
	/* a writer killed here: flush what is buffered without closing */
	uint8_t big[300 << 10] = { 0 };
	CHECK_INT_EQ(spe_perf_write_auxtrace(w, big, sizeof big, 16, 0, 0, -1, 0), 0);
	struct stat st;
	fstat(fd, &st);
	struct spe_perf_file *f = open_path();
	struct spe_perf_info info;
	spe_perf_get_info(f, &info, sizeof info);
	CHECK_INT_EQ(info.unfinished, 1);
	CHECK_U64_EQ(info.data_size, (uint64_t)st.st_size - 256);
	struct spe_perf_event ev;
	int n = 0, rc;
	while ((rc = spe_perf_next(f, &ev, sizeof ev)) == 0)
		n++;
	CHECK_INT_EQ(n, 4); /* TIME_CONV, AUXTRACE_INFO, 2 x AUXTRACE */
	CHECK_INT_EQ(rc, -spe_eos);
	spe_perf_free_file(f);
	CHECK_INT_EQ(spe_perf_writer_close(w), 0);
	close(fd);
	unlink(path);
}

TEST(write_errors_are_reported)
{
	int fd = open("/dev/full", O_WRONLY);
	if (fd < 0)
		return;
	struct spe_perf_writer_config cfg = SPE_OPTS(spe_perf_writer_config, .midr = 0x410fd0c0);
	struct spe_perf_writer *w = spe_perf_writer_open(fd, &cfg);
	CHECK(w != NULL);
	int saved = 0;
	CHECK_INT_EQ(spe_perf_writer_error(w, &saved), -spe_io);
	CHECK_INT_EQ(saved, ENOSPC);
	CHECK(strstr(spe_perf_writer_errmsg(w), "write failed") != NULL);
	CHECK_INT_EQ(spe_perf_write_auxtrace(w, bytes_a, sizeof bytes_a, 0, 0, 0, -1, 0), -spe_io);
	CHECK_INT_EQ(spe_perf_writer_close(w), -spe_io);
	close(fd);
}

TEST(tsc_to_time)
{
	struct spe_perf_time_conv id = { .time_mult = 1 };
	CHECK_U64_EQ(spe_perf_tsc_to_time(&id, 1000040), 1000040);
	/* shift 1, mult 3, zero 100, cyc 5: quot 2, rem 1 -> 100 + 6 + (3 >> 1) = 107 */
	struct spe_perf_time_conv t = { .time_shift = 1, .time_mult = 3, .time_zero = 100 };
	CHECK_U64_EQ(spe_perf_tsc_to_time(&t, 5), 107);
	/* short counter: 1000 + ((0x10 - 1000) & 0xff) = 1000 + 40 */
	struct spe_perf_time_conv s = { .time_mult = 1, .time_cycles = 1000, .time_mask = 0xff,
					.cap_user_time_short = 1 };
	CHECK_U64_EQ(spe_perf_tsc_to_time(&s, 0x10), 1040);
	/* a 19.2 MHz generic timer: mult/2^shift = 52.083..ns; 19200000 ticks = 1 s */
	struct spe_perf_time_conv g = { .time_shift = 21, .time_mult = 109226667 };
	uint64_t ns = spe_perf_tsc_to_time(&g, 19200000);
	CHECK(ns > 999999000 && ns < 1000001000);
}

/* EXIT, SWITCH (not CPU-wide) and the old MMAP record, with trailers. */
TEST(exit_switch_mmap)
{
	int fd = tmpfile_fd();
	struct spe_perf_writer_config cfg = SPE_OPTS(spe_perf_writer_config, .midr = 0x410fd0c0);
	struct spe_perf_writer *w = spe_perf_writer_open(fd, &cfg);
	struct spe_perf_task ex = { .pid = 9, .ppid = 1, .tid = 10, .ptid = 1, .time = 555 };
	CHECK_INT_EQ(spe_perf_write_task(w, SPE_PERF_RECORD_EXIT, &ex, &sid1), 0);
	CHECK_INT_EQ(spe_perf_write_task(w, SPE_PERF_RECORD_COMM, &ex, &sid1), -spe_invalid);
	struct spe_perf_switch in = { .out = 0 };
	CHECK_INT_EQ(spe_perf_write_switch(w, 0, &in, &sid1), 0);
	/* MMAP body: pid, tid, start, len, pgoff, "/bin/x" padded to 8 */
	uint8_t body[32 + 8] = { 0 };
	uint32_t pid = 9;
	uint64_t start = 0x400000, len = 0x2000;
	memcpy(body, &pid, 4);
	memcpy(body + 4, &pid, 4);
	memcpy(body + 8, &start, 8);
	memcpy(body + 16, &len, 8);
	memcpy(body + 32, "/bin/x", 7);
	CHECK_INT_EQ(spe_perf_write_kernel_record(w, SPE_PERF_RECORD_MMAP, 2, body, sizeof body, &sid1), 0);
	CHECK_INT_EQ(spe_perf_write_kernel_record(w, SPE_PERF_RECORD_AUXTRACE, 0, body, 8, &sid1), -spe_invalid);
	CHECK_INT_EQ(spe_perf_writer_close(w), 0);
	close(fd);
	struct spe_perf_file *f = open_path();
	struct spe_perf_event ev;
	CHECK_INT_EQ(spe_perf_next(f, &ev, sizeof ev), 0); /* TIME_CONV */
	CHECK_INT_EQ(spe_perf_next(f, &ev, sizeof ev), 0); /* AUXTRACE_INFO */
	CHECK_INT_EQ(spe_perf_next(f, &ev, sizeof ev), 0);
	CHECK_INT_EQ(ev.type, SPE_PERF_RECORD_EXIT);
	CHECK_INT_EQ(ev.u.task.pid, 9);
	CHECK_INT_EQ(ev.u.task.tid, 10);
	CHECK_U64_EQ(ev.u.task.time, 555);
	CHECK_U64_EQ(ev.sid.time, 1000100);
	CHECK_INT_EQ(spe_perf_next(f, &ev, sizeof ev), 0);
	CHECK_INT_EQ(ev.type, SPE_PERF_RECORD_SWITCH);
	CHECK_INT_EQ(ev.u.sw.out, 0);
	CHECK_INT_EQ(ev.header_size, 8 + 32);
	CHECK_INT_EQ(ev.sid.cpu, 3);
	CHECK_INT_EQ(spe_perf_next(f, &ev, sizeof ev), 0);
	CHECK_INT_EQ(ev.type, SPE_PERF_RECORD_MMAP);
	CHECK_STR_EQ(ev.u.mmap.filename, "/bin/x");
	CHECK_U64_EQ(ev.u.mmap.start, 0x400000);
	CHECK_U64_EQ(ev.u.mmap.len, 0x2000);
	CHECK_INT_EQ(ev.sid.tid, 1235);
	CHECK_INT_EQ(spe_perf_next(f, &ev, sizeof ev), -spe_eos);
	spe_perf_free_file(f);
	unlink(path);
}

/* Pipe mode: the writer streams into a real pipe, the reader streams out of it. */
TEST(pipe_mode_writer)
{
	int fds[2];
	CHECK_INT_EQ(pipe(fds), 0);
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		static char *argv[] = { "spe-record", "--", "./app" };
		struct spe_perf_writer_config cfg = SPE_OPTS(spe_perf_writer_config, .midr = 0x410fd490, .pmu_type = 12,
							     .hostname = "h", .argc = 3, .argv = argv, .pipe_mode = 1,
							     .nr_cpus_avail = 2);
		struct spe_perf_writer *w = spe_perf_writer_open(fds[1], &cfg);
		uint8_t big[100000];
		for (size_t i = 0; i < sizeof big; i++)
			big[i] = (uint8_t)(i * 7);
		spe_perf_write_comm(w, 5, 6, "app", 0, &sid1);
		spe_perf_write_auxtrace(w, big, sizeof big, 0, 1, 0, -1, 0);
		uint8_t id[20] = { 1, 2, 3 };
		spe_perf_writer_add_build_id(w, 5, id, 20, "/app");
		_exit(spe_perf_writer_close(w) == 0 ? 0 : 1);
	}
	close(fds[1]);
	struct spe_perf_file *f = spe_perf_alloc_file(NULL);
	CHECK_INT_EQ(spe_perf_open_fd(f, fds[0], "(pipe)"), 0);
	struct spe_perf_event ev;
	uint32_t types[16];
	int n = 0, rc;
	uint64_t sum = 0;
	while ((rc = spe_perf_next(f, &ev, sizeof ev)) == 0 && n < 16) {
		types[n++] = ev.type;
		if (ev.type == SPE_PERF_RECORD_AUXTRACE) {
			CHECK_INT_EQ(ev.u.auxtrace.size, 100000);
			for (uint64_t i = 0; i < ev.u.auxtrace.size; i++)
				sum += ev.u.auxtrace.data[i] == (uint8_t)(i * 7);
		}
		if (ev.type == SPE_PERF_RECORD_COMM) {
			CHECK_STR_EQ(ev.u.comm.comm, "app");
			CHECK_INT_EQ(ev.sid.tid, 1235);
		}
	}
	CHECK_INT_EQ(rc, -spe_eos);
	CHECK_U64_EQ(sum, 100000);
	/* HEADER_ATTR, 5 features (hostname, arch, nrcpus, cpuid, cmdline), TIME_CONV, AUXTRACE_INFO, COMM, AUXTRACE, BUILD_ID */
	CHECK_INT_EQ(n, 11);
	CHECK_INT_EQ(types[0], SPE_PERF_RECORD_HEADER_ATTR);
	CHECK_INT_EQ(types[1], SPE_PERF_RECORD_HEADER_FEATURE);
	CHECK_INT_EQ(types[6], SPE_PERF_RECORD_TIME_CONV);
	CHECK_INT_EQ(types[10], SPE_PERF_RECORD_HEADER_BUILD_ID);
	struct spe_perf_info info;
	spe_perf_get_info(f, &info, sizeof info);
	CHECK_INT_EQ(info.pipe_format, 1);
	CHECK_U64_EQ(info.midr, 0x410fd490);
	CHECK_STR_EQ(info.hostname, "h");
	CHECK_STR_EQ(info.cmdline, "spe-record -- ./app");
	CHECK_INT_EQ(info.nr_cpus_avail, 2);
	CHECK_INT_EQ(info.nr_cpus_online, 2);
	CHECK_INT_EQ(info.n_build_ids, 1);
	struct spe_perf_attr a;
	CHECK_INT_EQ(spe_perf_get_attr(f, 0, &a, sizeof a), 0);
	CHECK_INT_EQ(a.type, 12);
	CHECK_U64_EQ(a.sample_type, 0x98087);
	struct spe_perf_build_id bid;
	CHECK_INT_EQ(spe_perf_get_build_id(f, 0, &bid, sizeof bid), 0);
	CHECK_STR_EQ(bid.filename, "/app");
	CHECK_INT_EQ(bid.id[2], 3);
	spe_perf_free_file(f);
	close(fds[0]);
	int status;
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* Two nodes: node 0 has CPUs 0-1 and blocks 0-7, node 1 CPUs 2-3 and blocks 8-15 and 64. */
static const uint64_t node0_blocks[1] = { 0xff }, node1_blocks[2] = { 0xff00, 0x1 };
static const struct spe_perf_numa_node numa_nodes[2] = {
	{ .node = 0, .mem_total_kb = 1048576, .mem_free_kb = 524288, .cpus = "0-1", .n_block_bits = 8,
	  .blocks = node0_blocks },
	{ .node = 1, .mem_total_kb = 1179648, .mem_free_kb = 1000, .cpus = "2-3", .n_block_bits = 65,
	  .blocks = node1_blocks },
};

static void check_numa(struct spe_perf_file *f)
{
	struct spe_perf_info info;
	spe_perf_get_info(f, &info, sizeof info);
	CHECK_INT_EQ(info.n_numa_nodes, 2);
	CHECK_U64_EQ(info.memory_block_size, 0x8000000);
	struct spe_perf_numa_node n;
	CHECK_INT_EQ(spe_perf_numa_node(f, 1, &n, sizeof n), 0);
	CHECK_INT_EQ(n.node, 1);
	CHECK_STR_EQ(n.cpus, "2-3");
	CHECK_U64_EQ(n.mem_total_kb, 1179648);
	CHECK_U64_EQ(n.mem_free_kb, 1000);
	CHECK_U64_EQ(n.n_block_bits, 65);
	CHECK_U64_EQ(n.blocks[0], 0xff00);
	CHECK_U64_EQ(n.blocks[1], 0x1);
	CHECK_INT_EQ(spe_perf_numa_node(f, 0, &n, sizeof n), 0);
	CHECK_STR_EQ(n.cpus, "0-1");
	CHECK_U64_EQ(n.blocks[0], 0xff);
	CHECK_INT_EQ(spe_perf_numa_node(f, 2, &n, sizeof n), -spe_invalid);
}

/* NUMA_TOPOLOGY and MEM_TOPOLOGY come back; perf 6.1 (when installed) prints both. */
TEST(numa_features)
{
	int fd = tmpfile_fd();
	struct spe_perf_writer_config cfg = SPE_OPTS(spe_perf_writer_config, .midr = 0x410fd0c0, .numa_nodes = numa_nodes,
						     .n_numa_nodes = 2, .memory_block_size = 0x8000000);
	struct spe_perf_writer *w = spe_perf_writer_open(fd, &cfg);
	CHECK_INT_EQ(spe_perf_write_auxtrace(w, bytes_a, sizeof bytes_a, 0, 1, 0, -1, 0), 0);
	CHECK_INT_EQ(spe_perf_writer_close(w), 0);
	close(fd);
	struct spe_perf_file *f = open_path();
	check_numa(f);
	spe_perf_free_file(f);
	if (!*spe_run_prefix() && system("perf --version >/dev/null 2>&1") == 0) {
		char cmd[256];
		snprintf(cmd, sizeof cmd, "perf report --header-only -I -i %s 2>&1", path);
		FILE *p = popen(cmd, "r");
		char line[256];
		int cpus0 = 0, cpus1 = 0, mem = 0, mem0 = 0, mem1 = 0;
		while (p && fgets(line, sizeof line, p)) {
			cpus0 |= strstr(line, "node0 cpu list : 0-1") != NULL;
			cpus1 |= strstr(line, "node1 cpu list : 2-3") != NULL;
			mem |= strstr(line, "memory nodes (nr 2, block size 0x8000000)") != NULL;
			mem0 |= strstr(line, "0 [1024M]: 0-7") != NULL;
			mem1 |= strstr(line, "1 [1152M]: 8-15,64") != NULL;
		}
		if (p)
			pclose(p);
		CHECK(cpus0 && cpus1);
		CHECK(mem && mem0 && mem1);
	}
	unlink(path);
}

int main(void)
{
	RUN(numa_features);
	RUN(header_and_features);
	RUN(events_in_file_order);
	RUN(aux_queues_in_ring_order);
	RUN(nrcpus_follows_the_cpus_written);
	RUN(auxtrace_info_v2);
	RUN(unfinished_writer_file_opens);
	RUN(write_errors_are_reported);
	RUN(tsc_to_time);
	RUN(pipe_mode_writer);
	RUN(exit_switch_mmap);
	return check_summary();
}
