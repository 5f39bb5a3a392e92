/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kernel_perfdata SPEC OUT: a perf.data with kernel sideband as perf record
 * writes it (test helper for cli_kernel.sh), and one SPE record per `pc`
 * line.  SPEC, one directive a line ('#' comments):
 *
 *   osrelease R                      HEADER_OSRELEASE
 *   kernel START LEN PGOFF NAME      MMAP, misc kernel, pid -1: NAME as
 *                                    perf writes it ([kernel.kallsyms]_text)
 *   module START LEN PATH            MMAP, misc kernel, pid -1, pgoff 0
 *   comm PID NAME                    COMM (tid = pid)
 *   mmap2 PID START LEN PGOFF PATH   MMAP2 r-xp, misc user
 *   ksymbol TIME ADDR LEN TYPE FLAGS NAME   PERF_RECORD_KSYMBOL
 *   bpf TIME TYPE ID                 PERF_RECORD_BPF_EVENT (tag 0)
 *   buildid kernel|user PID HEX NAME a BUILD_ID entry (cpumode kernel or user)
 *   pc TIME ADDR EL PID              an SPE record: PC at EL, CONTEXT PID,
 *                                    a retired "other" op, TS = TIME
 *
 * Sideband records carry time 0 but for ksymbol and bpf; the AUX data is
 * one AUXTRACE record of CPU 0.  The writer writes BUILD_ID entries with
 * cpumode user: kernel ones get cpumode kernel in the file afterwards, as
 * perf writes them (tools/perf/util/build-id.c, write_buildid).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "spe/encoder.h"
#include "spe/spe.h"

#define MAX_KERNEL_IDS 16

static int hexbytes(const char *hex, uint8_t *out, size_t max)
{
	size_t n = strlen(hex) / 2;
	if (n > max)
		return -1;
	for (size_t i = 0; i < n; i++) {
		unsigned v;
		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			return -1;
		out[i] = (uint8_t)v;
	}
	return (int)n;
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* A kernel MMAP (type 1): pid, tid, start, len, pgoff, name padded to 8. */
static int write_kernel_mmap(struct spe_perf_writer *w, uint64_t start, uint64_t len, uint64_t pgoff,
			     const char *name)
{
	uint8_t body[4096 + 40] = { 0 };
	size_t n = strlen(name) + 1;
	size_t size = 32 + (n + 7) / 8 * 8;
	if (size > sizeof body)
		return -1;
	uint32_t pid = UINT32_MAX, tid = 0;
	memcpy(body, &pid, 4);
	memcpy(body + 4, &tid, 4);
	put64(body + 8, start);
	put64(body + 16, len);
	put64(body + 24, pgoff);
	memcpy(body + 32, name, n);
	struct spe_perf_writer_sid sid = { .pid = UINT32_MAX, .tid = 0, .time = 0, .cpu = 0 };
	return spe_perf_write_kernel_record(w, SPE_PERF_RECORD_MMAP, SPE_PERF_MISC_KERNEL, body, size, &sid);
}

/* The BUILD_ID entries of @p ids (20 bytes each, then a name) get cpumode kernel. */
static int mark_kernel_ids(const char *path, uint8_t (*ids)[20], char **names, int n)
{
	int fd = open(path, O_RDWR);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0)
		return -1;
	uint8_t *p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -1;
	int done = 0;
	for (int i = 0; i < n; i++) {
		for (size_t o = 12; o + 24 + strlen(names[i]) < (size_t)st.st_size; o++) {
			if (memcmp(p + o, ids[i], 20) || strcmp((char *)p + o + 24, names[i]))
				continue;
			p[o - 12 + 4] = (uint8_t)((p[o - 12 + 4] & ~7u) | SPE_PERF_MISC_KERNEL);
			done++;
			break;
		}
	}
	munmap(p, (size_t)st.st_size);
	return done == n ? 0 : -1;
}

/* Every 0x number of @p line in decimal, so sscanf's %llu reads all 64 bits of it. */
static void decimal(char *line)
{
	char out[4200];
	size_t o = 0;
	for (char *p = line; *p && o + 24 < sizeof out;) {
		if (p[0] == '0' && p[1] == 'x' && (p == line || p[-1] == ' ')) {
			char *end;
			unsigned long long v = strtoull(p, &end, 16);
			o += (size_t)snprintf(out + o, sizeof out - o, "%llu", v);
			p = end;
		} else {
			out[o++] = *p++;
		}
	}
	out[o] = 0;
	memcpy(line, out, o + 1);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: kernel_perfdata SPEC OUT\n");
		return 64;
	}
	FILE *spec = fopen(argv[1], "r");
	if (!spec) {
		perror(argv[1]);
		return 66;
	}
	/* the header's strings first: the writer takes them at open */
	char line[4200], osrelease[256] = "";
	while (fgets(line, sizeof line, spec))
		if (sscanf(line, "osrelease %255s", osrelease) == 1)
			break;
	rewind(spec);
	int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[2]);
		return 73;
	}
	uint32_t midr = 0x410fd0c0;
	struct spe_perf_spe_cpu cpu = { .cpu = 0, .midr = midr, .pmu_type = 8, .min_interval = 256 };
	struct spe_perf_writer_config cfg = SPE_OPTS(spe_perf_writer_config, .midr = midr, .cpus = &cpu, .n_cpus = 1,
						     .osrelease = *osrelease ? osrelease : NULL, .hostname = "kernel-test");
	struct spe_perf_writer *w = spe_perf_writer_open(fd, &cfg);
	if (!w)
		return 70;
	struct spe_enc enc;
	spe_enc_init(&enc, NULL, 0);
	uint8_t kids[MAX_KERNEL_IDS][20];
	char *knames[MAX_KERNEL_IDS];
	int n_kids = 0, lineno = 0, bad = 0;
	while (!bad && fgets(line, sizeof line, spec)) {
		lineno++;
		line[strcspn(line, "\n")] = 0;
		decimal(line);
		char name[4096], kind[16], hex[64];
		unsigned long long a, b, c, d;
		unsigned pid, type, flags;
		unsigned el;
		struct spe_perf_writer_sid sid = { .pid = UINT32_MAX, .tid = UINT32_MAX, .time = 0, .cpu = 0 };
		if (!*line || *line == '#' || !strncmp(line, "osrelease ", 10))
			continue;
		if (sscanf(line, "kernel %llu %llu %llu %4095s", &a, &b, &c, name) == 4) {
			bad = write_kernel_mmap(w, a, b, c, name) < 0;
		} else if (sscanf(line, "module %llu %llu %4095s", &a, &b, name) == 3) {
			bad = write_kernel_mmap(w, a, b, 0, name) < 0;
		} else if (sscanf(line, "comm %u %4095s", &pid, name) == 2) {
			sid.pid = sid.tid = pid;
			bad = spe_perf_write_comm(w, pid, pid, name, 1, &sid) < 0;
		} else if (sscanf(line, "mmap2 %u %llu %llu %llu %4095s", &pid, &a, &b, &c, name) == 5) {
			struct spe_perf_mmap m = { .pid = pid, .tid = pid, .start = a, .len = b, .pgoff = c,
						   .prot = 5, .flags = 2, .filename = name };
			sid.pid = sid.tid = pid;
			bad = spe_perf_write_mmap2(w, &m, &sid) < 0;
		} else if (sscanf(line, "ksymbol %llu %llu %llu %u %u %4095s", &d, &a, &b, &type, &flags, name) == 6) {
			/* addr u64, len u32, ksym_type u16, flags u16, name padded to 8 */
			uint8_t body[4096 + 24] = { 0 };
			size_t n = strlen(name) + 1;
			put64(body, a);
			uint32_t len32 = (uint32_t)b;
			uint16_t t16 = (uint16_t)type, f16 = (uint16_t)flags;
			memcpy(body + 8, &len32, 4);
			memcpy(body + 12, &t16, 2);
			memcpy(body + 14, &f16, 2);
			memcpy(body + 16, name, n);
			sid.time = d;
			bad = spe_perf_write_kernel_record(w, 17, 0, body, 16 + (n + 7) / 8 * 8, &sid) < 0;
		} else if (sscanf(line, "bpf %llu %u %llu", &d, &type, &a) == 3) {
			/* type u16, flags u16, id u32, tag[8] */
			uint8_t body[16] = { 0 };
			uint16_t t16 = (uint16_t)type;
			uint32_t id = (uint32_t)a;
			memcpy(body, &t16, 2);
			memcpy(body + 4, &id, 4);
			sid.time = d;
			bad = spe_perf_write_kernel_record(w, 18, 0, body, sizeof body, &sid) < 0;
		} else if (sscanf(line, "buildid %15s %u %63s %4095s", kind, &pid, hex, name) == 4) {
			uint8_t id[20] = { 0 };
			int n = hexbytes(hex, id, sizeof id);
			bad = n < 0 || spe_perf_writer_add_build_id(w, pid, id, (uint8_t)n, name) < 0;
			if (!bad && !strcmp(kind, "kernel")) {
				if (n_kids == MAX_KERNEL_IDS || n != 20) {
					bad = 1;
				} else {
					memcpy(kids[n_kids], id, 20);
					knames[n_kids++] = strdup(name);
				}
			}
		} else if (sscanf(line, "pc %llu %llu %u %u", &d, &a, &el, &pid) == 4) {
			spe_enc_address(&enc, 0, spe_enc_ip_payload(a, el, 1, 0), 0);
			spe_enc_context(&enc, 0, pid);
			spe_enc_op_type(&enc, 0, 0x00); /* other */
			spe_enc_events(&enc, 1u << 1, 0); /* retired */
			spe_enc_counter(&enc, 0, 5, 0);  /* total latency */
			bad = spe_enc_timestamp(&enc, d) < 0;
		} else {
			bad = 1;
		}
		if (bad)
			fprintf(stderr, "%s:%d: cannot write: %s\n", argv[1], lineno, line);
	}
	fclose(spec);
	struct spe_perf_writer_sid sid = { .pid = UINT32_MAX, .tid = UINT32_MAX, .time = 0, .cpu = 0 };
	if (!bad)
		bad = spe_perf_write_aux(w, 0, enc.len, 0, &sid) < 0 ||
		      spe_perf_write_auxtrace(w, enc.buf, enc.len, 0, 0x1234, 0, -1, 0) < 0 ||
		      spe_perf_write_finished_round(w) < 0;
	int err = spe_perf_writer_close(w);
	close(fd);
	spe_enc_fini(&enc);
	if (bad || err) {
		fprintf(stderr, "kernel_perfdata: %s\n", err ? spe_errstr(err) : "bad spec");
		return 65;
	}
	if (n_kids && mark_kernel_ids(argv[2], kids, knames, n_kids) < 0) {
		fprintf(stderr, "kernel_perfdata: cannot find the kernel BUILD_ID entries in %s\n", argv[2]);
		return 70;
	}
	for (int i = 0; i < n_kids; i++)
		free(knames[i]);
	return 0;
}
