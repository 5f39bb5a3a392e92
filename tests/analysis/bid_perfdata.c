/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bid_perfdata RAW OUT PATH START [options]: a perf.data of the raw SPE
 * bytes RAW (one CPU, Neoverse N1) whose one process (pid 4242, "symwork")
 * maps PATH at START, with the build-ids where the test wants them
 * (cli_symbols.sh): perf's spe-record --replay always writes an id in both
 * the MMAP2 and the header table; this writes either, both or none.
 *   --len=N              the mapping's length (default 0x10000)
 *   --mmap-id=HEX        the MMAP2 in its build-id form with HEX
 *   --header-id=PID:HEX  an entry of the BUILD_ID table for PATH (PID -1: the
 *                        host, as perf writes it; 4242: the process, as
 *                        spe-record writes it); may be repeated
 *   --pipe               perf's pipe layout (the table as HEADER_BUILD_ID records)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spe/spe.h"

#define PID 4242

static int hex_bytes(const char *hex, uint8_t *out)
{
	size_t n = strlen(hex);
	if (n == 0 || n % 2 || n > 40)
		return -1;
	for (size_t i = 0; i < n / 2; i++) {
		unsigned v;
		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			return -1;
		out[i] = (uint8_t)v;
	}
	return (int)(n / 2);
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: bid_perfdata RAW OUT PATH START [--len=N] [--mmap-id=HEX] [--header-id=PID:HEX] "
				"[--pipe]\n");
		return 64;
	}
	FILE *in = fopen(argv[1], "rb");
	static uint8_t raw[1 << 22];
	size_t len = in ? fread(raw, 1, sizeof raw, in) : 0;
	if (!in || ferror(in)) {
		perror(argv[1]);
		return 66;
	}
	fclose(in);
	struct spe_perf_mmap m = { .pid = PID, .tid = PID, .start = strtoull(argv[4], NULL, 0), .len = 0x10000,
				   .prot = 5, .flags = 2, .filename = argv[3] };
	int pipe_mode = 0;
	for (int i = 5; i < argc; i++) {
		if (!strncmp(argv[i], "--len=", 6))
			m.len = strtoull(argv[i] + 6, NULL, 0);
		else if (!strncmp(argv[i], "--mmap-id=", 10)) {
			int n = hex_bytes(argv[i] + 10, m.build_id);
			if (n < 0)
				return 64;
			m.build_id_size = (uint8_t)n;
		} else if (!strcmp(argv[i], "--pipe"))
			pipe_mode = 1;
		else if (strncmp(argv[i], "--header-id=", 12)) {
			fprintf(stderr, "bid_perfdata: unknown option %s\n", argv[i]);
			return 64;
		}
	}
	int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[2]);
		return 73;
	}
	struct spe_perf_spe_cpu cpu = { .cpu = 0, .midr = 0x410fd0c0, .pmu_type = 8, .min_interval = 256 };
	struct spe_perf_writer_config cfg = SPE_OPTS(spe_perf_writer_config, .midr = 0x410fd0c0, .cpus = &cpu,
						     .n_cpus = 1, .pipe_mode = pipe_mode);
	struct spe_perf_writer *w = spe_perf_writer_open(fd, &cfg);
	if (!w)
		return 70;
	struct spe_perf_writer_sid sid = { .pid = PID, .tid = PID, .time = 0, .cpu = 0 };
	spe_perf_write_comm(w, PID, PID, "symwork", 1, &sid);
	spe_perf_write_mmap2(w, &m, &sid);
	spe_perf_write_itrace_start(w, PID, PID, &sid);
	spe_perf_write_aux(w, 0, len, 0, &sid);
	spe_perf_write_auxtrace(w, raw, len, 0, 0x1234, 0, -1, 0);
	spe_perf_write_finished_round(w);
	for (int i = 5; i < argc; i++) {
		uint8_t id[20];
		char *colon;
		if (strncmp(argv[i], "--header-id=", 12) || !(colon = strchr(argv[i] + 12, ':')))
			continue;
		int n = hex_bytes(colon + 1, id);
		if (n < 0)
			return 64;
		spe_perf_writer_add_build_id(w, (uint32_t)strtol(argv[i] + 12, NULL, 0), id, (uint8_t)n, argv[3]);
	}
	char msg[256];
	int err = spe_perf_writer_close_msg(w, msg, sizeof msg);
	close(fd);
	if (err) {
		fprintf(stderr, "bid_perfdata: %s\n", *msg ? msg : spe_errstr(err));
		return 74;
	}
	return 0;
}
