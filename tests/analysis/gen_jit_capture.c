/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Test helper for cli_jit.sh: SPE captures on JIT code, and jitdump copies.
 *
 *   gen_jit_capture plan OUT.data < PLAN
 *       a perf.data (our writer) of the sideband and SPE records PLAN lists:
 *         clock monotonic                      every attr with use_clockid, clock 1 (perf record -k 1)
 *         comm PID TID TIME NAME
 *         fork PID PPID TID PTID TIME
 *         mmap2 PID TID TIME START LEN PGOFF PROT FLAGS PATH   (PROT, FLAGS: numbers; PATH the rest)
 *         record TID PC TS                     a load at PC, EL0, CONTEXT = TID, TIMESTAMP = TS
 *       Neoverse N1, identity TIME_CONV (perf time = TS), one CPU.
 *   gen_jit_capture repid IN.dump OUT.dump PID
 *       IN with the header's and every CODE_LOAD's and CODE_MOVE's pid and tid set to PID (perf
 *       inject --jit maps a load into the process its record names), nothing else changed.
 *   gen_jit_capture loads DUMP
 *       one line per CODE_LOAD: ADDR SIZE TIME NAME (hex, hex, decimal), by a walk of its own.
 *   gen_jit_capture lines DUMP
 *       "ADDR 1" for each DEBUG_INFO entry's address and the byte after it (a LIST for pcs).
 *   gen_jit_capture regions PID TIME PATH LIST
 *       mmap2 lines (r-x, MAP_PRIVATE|MAP_ANONYMOUS, named PATH) covering the ranges of LIST, a
 *       file of "ADDR SIZE ..." lines (a perf map, the output of loads): one per 16 MiB the ranges
 *       fall in, page-aligned.
 *   gen_jit_capture pcs TID TS LIST
 *       record lines at the first, middle and last byte of each range of LIST.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spe/encoder.h"
#include "spe/spe.h"

static uint8_t *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *b = malloc(len > 0 ? (size_t)len : 1);
	if (b && fread(b, 1, (size_t)len, f) != (size_t)len) {
		free(b);
		b = NULL;
	}
	fclose(f);
	*n = (size_t)len;
	return b;
}

static int loads(const char *path)
{
	size_t n;
	uint8_t *b = slurp(path, &n);
	if (!b || n < 40)
		return 66;
	uint32_t hsize;
	memcpy(&hsize, b + 8, 4);
	for (size_t at = hsize; at + 16 <= n;) {
		uint32_t id, size;
		uint64_t time, addr, code_size;
		memcpy(&id, b + at, 4);
		memcpy(&size, b + at + 4, 4);
		memcpy(&time, b + at + 8, 8);
		if (size < 16 || size > n - at)
			break;
		if (id == 0) {
			memcpy(&addr, b + at + 32, 8);
			memcpy(&code_size, b + at + 40, 8);
			printf("%" PRIx64 " %" PRIx64 " %" PRIu64 " %s\n", addr, code_size, time, (const char *)b + at + 56);
		}
		at += size;
	}
	free(b);
	return 0;
}

static int lines(const char *path)
{
	size_t n;
	uint8_t *b = slurp(path, &n);
	if (!b || n < 40)
		return 66;
	uint32_t hsize;
	memcpy(&hsize, b + 8, 4);
	for (size_t at = hsize; at + 16 <= n;) {
		uint32_t id, size;
		memcpy(&id, b + at, 4);
		memcpy(&size, b + at + 4, 4);
		if (size < 16 || size > n - at)
			break;
		if (id == 2 && size >= 32) {
			uint64_t nr, addr;
			memcpy(&nr, b + at + 24, 8);
			size_t e = at + 32;
			for (uint64_t i = 0; i < nr && e + 17 <= at + size; i++) {
				memcpy(&addr, b + e, 8);
				printf("%" PRIx64 " 1\n%" PRIx64 " 1\n", addr, addr + 1);
				const uint8_t *nul = memchr(b + e + 16, 0, at + size - (e + 16));
				if (!nul)
					break;
				e = (size_t)(nul - b) + 1;
			}
		}
		at += size;
	}
	free(b);
	return 0;
}

static int repid(const char *in, const char *out, uint32_t pid)
{
	size_t n;
	uint8_t *b = slurp(in, &n);
	if (!b || n < 40)
		return 66;
	memcpy(b + 20, &pid, 4);
	uint32_t hsize;
	memcpy(&hsize, b + 8, 4);
	for (size_t at = hsize; at + 24 <= n;) {
		uint32_t id, size;
		memcpy(&id, b + at, 4);
		memcpy(&size, b + at + 4, 4);
		if (size < 16 || size > n - at)
			break;
		if (id == 0 || id == 1) {
			memcpy(b + at + 16, &pid, 4);
			memcpy(b + at + 20, &pid, 4);
		}
		at += size;
	}
	FILE *f = fopen(out, "wb");
	int ok = f && fwrite(b, 1, n, f) == n;
	if (f && fclose(f) != 0)
		ok = 0;
	free(b);
	return ok ? 0 : 74;
}

static int plan(const char *out)
{
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return 73;
	char line[4096];
	int monotonic = 0;
	/* the clock goes in the attr, written at open: read the plan first */
	char **lines = NULL;
	size_t n = 0;
	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\n")] = 0;
		if (!strcmp(line, "clock monotonic"))
			monotonic = 1;
		lines = realloc(lines, (n + 1) * sizeof *lines);
		lines[n++] = strdup(line);
	}
	struct spe_perf_spe_cpu cpu = { .cpu = 0, .midr = 0x410fd0c0, .pmu_type = 8, .min_interval = 256 };
	struct spe_perf_writer_config cfg = SPE_OPTS(spe_perf_writer_config, .midr = 0x410fd0c0, .cpus = &cpu,
						     .n_cpus = 1, .use_clockid = monotonic, .clockid = monotonic ? 1 : 0);
	struct spe_perf_writer *w = spe_perf_writer_open(fd, &cfg);
	if (!w)
		return 70;
	struct spe_enc enc;
	spe_enc_init(&enc, NULL, 0);
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *l = lines[i], name[4096];
		unsigned long long a[10];
		int at = 0;
		if (sscanf(l, "comm %llu %llu %llu %n", &a[0], &a[1], &a[2], &at) == 3 && at) {
			struct spe_perf_writer_sid sid = { (uint32_t)a[0], (uint32_t)a[1], a[2], 0 };
			rc = spe_perf_write_comm(w, (uint32_t)a[0], (uint32_t)a[1], l + at, 1, &sid);
		} else if (sscanf(l, "fork %llu %llu %llu %llu %llu", &a[0], &a[1], &a[2], &a[3], &a[4]) == 5) {
			struct spe_perf_task t = { (uint32_t)a[0], (uint32_t)a[1], (uint32_t)a[2], (uint32_t)a[3], a[4] };
			struct spe_perf_writer_sid sid = { (uint32_t)a[0], (uint32_t)a[2], a[4], 0 };
			rc = spe_perf_write_task(w, SPE_PERF_RECORD_FORK, &t, &sid);
		} else if (sscanf(l, "mmap2 %llu %llu %llu %llx %llx %llx %llu %llx %n", &a[0], &a[1], &a[2], &a[3], &a[4],
				  &a[5], &a[6], &a[7], &at) == 8 &&
			   at) {
			snprintf(name, sizeof name, "%s", l + at);
			struct spe_perf_mmap m = { .pid = (uint32_t)a[0], .tid = (uint32_t)a[1], .start = a[3], .len = a[4],
						   .pgoff = a[5], .prot = (uint32_t)a[6], .flags = (uint32_t)a[7],
						   .filename = name };
			struct spe_perf_writer_sid sid = { (uint32_t)a[0], (uint32_t)a[1], a[2], 0 };
			rc = spe_perf_write_mmap2(w, &m, &sid);
		} else if (sscanf(l, "record %llu %llx %llu", &a[0], &a[1], &a[2]) == 3) {
			struct spe_record r;
			memset(&r, 0, sizeof r);
			r.has = SPE_HAS_PC | SPE_HAS_CONTEXT | SPE_HAS_OP_TYPE | SPE_HAS_EVENTS | SPE_HAS_TIMESTAMP |
				SPE_HAS_TOTAL_LATENCY;
			r.pc.addr = a[1];
			r.pc.ns = 1;
			r.context = a[0];
			r.timestamp = a[2];
			r.op_raw_class = 1; /* a load */
			r.events = 1ull << SPE_EV_RETIRED;
			r.total_latency = 4;
			int got = spe_enc_record(&enc, &r, SPE_ENC_PAD_TO_64);
			rc = got < 0 ? got : 0;
		} else if (strcmp(l, "clock monotonic") && l[0] && l[0] != '#') {
			fprintf(stderr, "gen_jit_capture: plan line %zu: %s\n", i + 1, l);
			rc = -spe_bad_input;
		}
	}
	if (rc == 0 && enc.len)
		rc = spe_perf_write_auxtrace(w, enc.buf, enc.len, 0, 0x1234, 0, -1, 0);
	if (rc == 0)
		rc = spe_perf_write_finished_round(w);
	int err = spe_perf_writer_close(w);
	close(fd);
	spe_enc_fini(&enc);
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
	if (rc < 0 || err) {
		fprintf(stderr, "gen_jit_capture: %s\n", spe_errstr(rc < 0 ? rc : err));
		return 74;
	}
	return 0;
}

/* The ranges of a LIST file: START SIZE (hex, 0x optional) at the head of each line. */
static size_t ranges(const char *path, uint64_t **start, uint64_t **size)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	size_t n = 0, cap = 0;
	*start = *size = NULL;
	while (f && fgets(line, sizeof line, f)) {
		unsigned long long a, z;
		if (sscanf(line, "%llx %llx", &a, &z) != 2)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			*start = realloc(*start, cap * sizeof **start);
			*size = realloc(*size, cap * sizeof **size);
		}
		(*start)[n] = a;
		(*size)[n++] = z;
	}
	if (f)
		fclose(f);
	return n;
}

static int regions(int pid, unsigned long long time, const char *name, const char *list)
{
	uint64_t *s, *z;
	size_t n = ranges(list, &s, &z);
	uint64_t lo[4096], hi[4096], key[4096];
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t b = s[i] >> 24, e = s[i] + (z[i] ? z[i] : 1);
		size_t j = 0;
		while (j < k && key[j] != b)
			j++;
		if (j == k) {
			if (k == 4096)
				return 65;
			key[k] = b, lo[k] = s[i], hi[k++] = e;
		}
		if (s[i] < lo[j])
			lo[j] = s[i];
		if (e > hi[j])
			hi[j] = e;
	}
	for (size_t j = 0; j < k; j++) {
		uint64_t a = lo[j] & ~UINT64_C(0xfff), b = (hi[j] + 0xfff) & ~UINT64_C(0xfff);
		printf("mmap2 %d %d %llu %" PRIx64 " %" PRIx64 " 0 5 22 %s\n", pid, pid, time, a, b - a, name);
	}
	free(s);
	free(z);
	return 0;
}

static int pcs(int tid, unsigned long long ts, const char *list)
{
	uint64_t *s, *z;
	size_t n = ranges(list, &s, &z);
	for (size_t i = 0; i < n; i++) {
		printf("record %d %" PRIx64 " %llu\n", tid, s[i], ts);
		if (z[i] > 2)
			printf("record %d %" PRIx64 " %llu\nrecord %d %" PRIx64 " %llu\n", tid, s[i] + z[i] / 2, ts, tid,
			       s[i] + z[i] - 1, ts);
	}
	free(s);
	free(z);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "regions"))
		return regions(atoi(argv[2]), strtoull(argv[3], NULL, 0), argv[4], argv[5]);
	if (argc == 5 && !strcmp(argv[1], "pcs"))
		return pcs(atoi(argv[2]), strtoull(argv[3], NULL, 0), argv[4]);
	if (argc == 3 && !strcmp(argv[1], "plan"))
		return plan(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "repid"))
		return repid(argv[2], argv[3], (uint32_t)strtoul(argv[4], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "lines"))
		return lines(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "loads"))
		return loads(argv[2]);
	fprintf(stderr, "usage: gen_jit_capture plan OUT.data < PLAN | repid IN OUT PID | loads DUMP\n");
	return 64;
}
