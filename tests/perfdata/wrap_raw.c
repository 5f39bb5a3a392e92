/* SPDX-License-Identifier: Apache-2.0 */
/*
 * wrap_raw RAW OUT [--midr=0x...] [--chunk=N] [--v2] [--sideband] [--pipe] [--cpu=N [--tid=N]]
 *          [--nr-cpus=N] [--aux-flags=F,F...]: wrap a file of bare SPE bytes into a perf.data (test
 * helper for the differential test, the fuzz seeds and the CPU-range tests).
 * Chunks of N bytes become AUXTRACE records of queue 0, cpu 0 (or --cpu: any
 * 32-bit value, -1 for per-thread, with --tid); --nr-cpus sets HEADER_NRCPUS.
 * --sideband adds COMM, MMAP2, ITRACE_START, AUX, FORK, SWITCH_CPU_WIDE and LOST records
 * and a BUILD_ID.  --aux-flags writes one AUX record per value F (PERF_AUX_FLAG_*
 * bits: 1 truncated, 4 partial, 8 collision), in place of --sideband's one
 * partial AUX record.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "spe/spe.h"

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: wrap_raw RAW OUT [--midr=0x..] [--chunk=N] [--v2]\n");
		return 64;
	}
	uint32_t midr = 0x410fd0c0;
	size_t chunk = 0;
	int v2 = 0, sideband = 0, pipe_mode = 0;
	int32_t aux_cpu = 0, aux_tid = -1;
	uint32_t nr_cpus = 0;
	const char *aux_flags = NULL;
	for (int i = 3; i < argc; i++) {
		if (!strncmp(argv[i], "--midr=", 7))
			midr = (uint32_t)strtoul(argv[i] + 7, NULL, 0);
		else if (!strncmp(argv[i], "--chunk=", 8))
			chunk = strtoul(argv[i] + 8, NULL, 0);
		else if (!strcmp(argv[i], "--v2"))
			v2 = 1;
		else if (!strcmp(argv[i], "--sideband"))
			sideband = 1;
		else if (!strcmp(argv[i], "--pipe"))
			pipe_mode = 1;
		else if (!strncmp(argv[i], "--cpu=", 6))
			aux_cpu = (int32_t)(uint32_t)strtoll(argv[i] + 6, NULL, 0);
		else if (!strncmp(argv[i], "--tid=", 6))
			aux_tid = (int32_t)strtol(argv[i] + 6, NULL, 0);
		else if (!strncmp(argv[i], "--nr-cpus=", 10))
			nr_cpus = (uint32_t)strtoul(argv[i] + 10, NULL, 0);
		else if (!strncmp(argv[i], "--aux-flags=", 12))
			aux_flags = argv[i] + 12;
	}
	FILE *in = fopen(argv[1], "rb");
	if (!in) {
		perror(argv[1]);
		return 66;
	}
	fseek(in, 0, SEEK_END);
	long len = ftell(in);
	fseek(in, 0, SEEK_SET);
	uint8_t *buf = malloc(len ? (size_t)len : 1);
	if (!buf || fread(buf, 1, (size_t)len, in) != (size_t)len) {
		fprintf(stderr, "%s: read failed\n", argv[1]);
		return 74;
	}
	fclose(in);
	int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[2]);
		return 73;
	}
	struct spe_perf_spe_cpu cpu = { .cpu = 0, .midr = midr, .pmu_type = 8, .min_interval = 256 };
	struct spe_perf_writer_config cfg = SPE_OPTS(spe_perf_writer_config, .midr = midr,
						     .auxtrace_info_version = v2 ? 2 : 1, .cpus = &cpu, .n_cpus = 1,
						     .pipe_mode = pipe_mode, .nr_cpus_avail = nr_cpus);
	struct spe_perf_writer *w = spe_perf_writer_open(fd, &cfg);
	if (!w)
		return 70;
	if (!chunk)
		chunk = (size_t)len;
	if (sideband) {
		struct spe_perf_writer_sid sid = { .pid = 1234, .tid = 1234, .time = 1000, .cpu = 0 };
		struct spe_perf_mmap m = { .pid = 1234, .tid = 1234, .start = 0xaaaac17c3000, .len = 0x1000,
					   .pgoff = 0x1000, .prot = 5, .flags = 2, .filename = "/usr/local/bin/memstress" };
		uint8_t id[20] = { 0xde, 0xad, 0xbe, 0xef };
		spe_perf_write_comm(w, 1234, 1234, "memstress", 1, &sid);
		spe_perf_write_mmap2(w, &m, &sid);
		spe_perf_write_itrace_start(w, 1234, 1234, &sid);
		if (!aux_flags)
			spe_perf_write_aux(w, 0, (uint64_t)len, SPE_PERF_AUX_PARTIAL, &sid);
		struct spe_perf_task t = { .pid = 1234, .ppid = 1, .tid = 1235, .ptid = 1234, .time = 1001 };
		spe_perf_write_task(w, SPE_PERF_RECORD_FORK, &t, &sid);
		struct spe_perf_switch sw = { .out = 1, .next_prev_pid = 1234, .next_prev_tid = 1235 };
		spe_perf_write_switch(w, 1, &sw, &sid);
		spe_perf_write_lost(w, 1, 3, &sid);
		spe_perf_writer_add_build_id(w, 1234, id, 20, "/usr/local/bin/memstress");
	}
	for (const char *p = aux_flags; p && *p;) {
		char *end;
		uint64_t flags = strtoull(p, &end, 0);
		if (end == p) /* not a number: the list ends */
			break;
		struct spe_perf_writer_sid sid = { .pid = 1234, .tid = 1234, .time = 1002, .cpu = 0 };
		spe_perf_write_aux(w, 0, (uint64_t)len, flags, &sid);
		p = *end == ',' ? end + 1 : end;
	}
	for (size_t off = 0; off < (size_t)len || off == 0; off += chunk) {
		size_t n = (size_t)len - off < chunk ? (size_t)len - off : chunk;
		spe_perf_write_auxtrace(w, buf + off, n, off, 0x1234, 0, aux_tid, aux_cpu);
		if (!len)
			break;
	}
	spe_perf_write_finished_round(w);
	int err = spe_perf_writer_close(w);
	close(fd);
	free(buf);
	if (err) {
		fprintf(stderr, "wrap_raw: %s\n", spe_errstr(err));
		return 74;
	}
	return 0;
}
