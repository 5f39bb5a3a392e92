/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Differential test against perf 6.1: random well-formed SPE streams with
 * padding and corrupt bytes (seeded, reproducible), written into perf.data
 * by our writer in random-sized AUXTRACE chunks, are dumped by
 * `perf report -D` and by `spe-dump --perf-compat=6.1`; the AUXTRACE
 * lines, the "ARM SPE data" lines and every packet line must be identical.
 * The public raw samples (the .data and .bin files of fixtures/public) go
 * through the same comparison; finding none is a failure.
 *
 * usage: test_perf_diff SPE_DUMP_BINARY [PUBLIC_RAW_DIR] [SEEDS] [RECORDS]
 * Exits 77 ("SKIP: perf not installed") without perf.
 *
 *        test_perf_diff --golden SPE_DUMP_BINARY FIXDIR
 * compares with perf 6.1 output recorded in FIXDIR/X.perf-6.1.txt (no perf needed);
 *        test_perf_diff --make-fixture OUT SEED RECORDS
 * writes the perf.data of one seed (to record such a fixture);
 *        test_perf_diff --file SPE_DUMP FILE
 * compares on FILE (a pipe-mode one through a pipe), live (77 without perf).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run.h"
#include "spe/encoder.h"
#include "spe/spe.h"

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* xorshift64*: small, seedable, the same on every host */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1Dull;
}

static unsigned below(unsigned n)
{
	return (unsigned)(rnd() % n);
}

/* One random packet that the encoder can write. */
static void random_packet(struct spe_enc *e)
{
	switch (below(9)) {
	case 0: {
		unsigned idx = below(10) < 8 ? below(5) : below(32);
		spe_enc_address(e, idx, rnd(), idx >= 8 || below(8) == 0);
		break;
	}
	case 1: {
		unsigned idx = below(10) < 8 ? below(3) : below(32);
		spe_enc_counter(e, idx, (uint16_t)rnd(), idx >= 8 || below(8) == 0);
		break;
	}
	case 2:
		spe_enc_context(e, below(4), (uint32_t)rnd());
		break;
	case 3:
		spe_enc_op_type(e, below(10) ? below(3) : 3, (uint8_t)rnd());
		break;
	case 4: {
		static const unsigned sizes[] = { 1, 2, 4, 8 };
		unsigned sz = sizes[below(4)];
		uint64_t v = rnd();
		if (sz < 8)
			v &= (1ull << (8 * sz)) - 1;
		spe_enc_events(e, v, sz);
		break;
	}
	case 5: {
		static const unsigned sizes[] = { 1, 2, 4, 8 };
		unsigned sz = sizes[below(10) < 7 ? 0 : below(4)];
		uint64_t v = rnd();
		if (sz < 8)
			v &= (1ull << (8 * sz)) - 1;
		spe_enc_data_source(e, v, sz);
		break;
	}
	case 6:
		spe_enc_pad(e, 1 + below(20));
		break;
	case 7:
		/* alignment pads of 2, 4 or 8 bytes only: 16 depends on perf's host pointer (docs/spe-format.md §1.3) */
		spe_enc_align_pad(e, below(3));
		break;
	default:
		spe_enc_address(e, 0, spe_enc_ip_payload(rnd() & 0xffffffffffffull, below(4), below(2), 0), 0);
		break;
	}
}

/* Bytes that are not valid packets (and never an alignment-pad header followed by 00). */
static void corrupt_bytes(struct spe_enc *e)
{
	static const uint8_t bad[] = { 0x02, 0x03, 0x04, 0x0f, 0x24, 0x3f, 0x44, 0x80, 0xab, 0xcd, 0xef, 0xff };
	unsigned n = 1 + below(4);
	for (unsigned i = 0; i < n; i++) {
		uint8_t b = below(2) ? bad[below(sizeof bad)] : (uint8_t)rnd();
		if (b >= 0x20 && b <= 0x23)
			b = 0xff;
		spe_enc_raw(e, &b, 1);
	}
}

static void random_stream(struct spe_enc *e, unsigned records)
{
	for (unsigned r = 0; r < records; r++) {
		unsigned n = 1 + below(10);
		for (unsigned i = 0; i < n; i++)
			random_packet(e);
		if (below(50) == 0)
			corrupt_bytes(e);
		if (below(4))
			spe_enc_timestamp(e, rnd() >> below(64));
		else
			spe_enc_end(e);
	}
}

static int write_perf_data(const char *path, const uint8_t *data, size_t len, int random_chunks, int pipe_mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	struct spe_perf_writer_config cfg = SPE_OPTS(spe_perf_writer_config, .midr = 0x410fd0c0,
						     .hostname = "diff", .pipe_mode = pipe_mode);
	struct spe_perf_writer *w = spe_perf_writer_open(fd, &cfg);
	size_t off = 0;
	unsigned cpu = 0;
	while (off < len) {
		size_t n = random_chunks ? 1 + below(4096) : len;
		if (n > len - off)
			n = len - off;
		/* two queues: perf dumps each buffer on its own either way */
		spe_perf_write_auxtrace(w, data + off, n, off, rnd(), cpu, -1, (int32_t)cpu);
		cpu ^= random_chunks ? below(2) : 0;
		off += n;
	}
	spe_perf_write_finished_round(w);
	int err = spe_perf_writer_close(w);
	close(fd);
	return err;
}

/* Remove colour escapes and the trailing newline. */
static void clean(char *s)
{
	char *w = s;
	for (char *r = s; *r; r++) {
		if (*r == '\033') {
			while (*r && *r != 'm')
				r++;
			if (!*r)
				break;
			continue;
		}
		*w++ = *r;
	}
	*w = 0;
	size_t n = strlen(s);
	if (n && s[n - 1] == '\n')
		s[n - 1] = 0;
}

/* Keep the lines both tools must agree on, normalised; NULL otherwise. */
static char *keep(char *line)
{
	clean(line);
	if (!strncmp(line, ". ... ARM SPE data:", 19))
		return line;
	if (line[0] == '.' && line[1] == ' ' && line[2] == ' ' && strlen(line) > 12 && line[11] == ':') {
		for (int i = 3; i < 11; i++)
			if (!strchr("0123456789abcdef", line[i]))
				return NULL;
		return line;
	}
	char *rec = strstr(line, " [0x30]: PERF_RECORD_AUXTRACE size:");
	if (rec) {
		/* drop perf's "<cpu> <time> " prefix: keep from the file-offset token */
		char *tok = rec;
		while (tok > line && tok[-1] != ' ')
			tok--;
		return tok;
	}
	return NULL;
}

struct lines {
	char **v;
	size_t n, cap;
};

static int collect(const char *cmd, struct lines *out)
{
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, p) >= 0) {
		char *k = keep(line);
		if (!k)
			continue;
		if (out->n == out->cap) {
			out->cap = out->cap ? out->cap * 2 : 4096;
			out->v = realloc(out->v, out->cap * sizeof *out->v);
		}
		out->v[out->n++] = strdup(k);
	}
	free(line);
	return pclose(p);
}

static void free_lines(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof *l);
}

/* Compare spe-dump on @p file with perf's -D output: live, or recorded in @p golden. */
static int compare(const char *spe_dump, const char *file, const char *label, int pipe_mode, const char *golden)
{
	char cmd[4096];
	struct lines perf = { 0 }, ours = { 0 };
	/* pipe mode through a real pipe: perf 6.1 misreads AUXTRACE data when stdin is a regular file */
	if (golden)
		snprintf(cmd, sizeof cmd, "cat '%s'", golden);
	else if (pipe_mode)
		snprintf(cmd, sizeof cmd, "cat '%s' | PAGER=cat perf report -f -D -i - 2>/dev/null", file);
	else
		snprintf(cmd, sizeof cmd, "PAGER=cat perf report -f -D -i '%s' 2>/dev/null", file);
	collect(cmd, &perf);
	if (pipe_mode)
		snprintf(cmd, sizeof cmd, "cat '%s' | %s'%s' -q --perf-compat=6.1 -", file, spe_run_prefix(), spe_dump);
	else
		snprintf(cmd, sizeof cmd, "%s'%s' -q --perf-compat=6.1 '%s'", spe_run_prefix(), spe_dump, file);
	int st = collect(cmd, &ours);
	int rc = 0;
	size_t n = perf.n < ours.n ? perf.n : ours.n;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(perf.v[i], ours.v[i])) {
			printf("%s: line %zu differs\n  perf:     %s\n  spe-dump: %s\n", label, i + 1, perf.v[i], ours.v[i]);
			rc = 1;
			break;
		}
	}
	if (!rc && perf.n != ours.n) {
		printf("%s: perf printed %zu lines, spe-dump %zu\n", label, perf.n, ours.n);
		rc = 1;
	}
	if (!rc && perf.n < 3) {
		printf("%s: only %zu comparable lines: perf did not decode the file\n", label, perf.n);
		rc = 1;
	}
	if (st == -1) {
		printf("%s: spe-dump could not run\n", label);
		rc = 1;
	}
	if (!rc) {
		size_t bad = 0, pads = 0;
		for (size_t i = 0; i < perf.n; i++) {
			bad += strstr(perf.v[i], "Bad packet!") != NULL;
			pads += strstr(perf.v[i], " PAD") != NULL;
		}
		printf("%s: %zu lines identical (%zu Bad packet!, %zu PAD)\n", label, perf.n, bad, pads);
	}
	free_lines(&perf);
	free_lines(&ours);
	return rc;
}

/* A pipe-mode perf.data: its header says 16 bytes. */
static int is_pipe_mode(const char *path)
{
	uint8_t h[16] = { 0 };
	FILE *f = fopen(path, "rb");
	if (f) {
		if (fread(h, 1, sizeof h, f) != sizeof h)
			memset(h, 0, sizeof h);
		fclose(f);
	}
	return h[8] == 16 && !memcmp(h + 9, "\0\0\0\0\0\0\0", 7);
}

static int have_perf(void)
{
	FILE *p = popen("perf version 2>/dev/null", "r");
	if (!p)
		return 0;
	char buf[128] = "";
	if (!fgets(buf, sizeof buf, p))
		buf[0] = 0;
	pclose(p);
	return strstr(buf, "perf version") != NULL;
}

/* Write the perf.data of seed @p seed (file mode, random chunks) to @p out. */
static int make_fixture(const char *out, unsigned seed, unsigned records)
{
	rng_state = 0x9e3779b97f4a7c15ull * seed;
	struct spe_enc e;
	spe_enc_init(&e, NULL, 0);
	random_stream(&e, records);
	int err = write_perf_data(out, e.buf, e.len, 1, 0);
	spe_enc_fini(&e);
	return err ? 1 : 0;
}

/* Every FIXDIR/X.data with a recorded FIXDIR/X.perf-6.1.txt (perf 6.1's -D output). */
static int golden(const char *spe_dump, const char *fixdir)
{
	DIR *d = opendir(fixdir);
	if (!d) {
		printf("no fixture directory %s\n", fixdir);
		return 1;
	}
	struct dirent *de;
	int failed = 0, n = 0;
	while ((de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);
		if (len < 6 || strcmp(de->d_name + len - 5, ".data"))
			continue;
		char data[4096], txt[4096];
		snprintf(data, sizeof data, "%s/%s", fixdir, de->d_name);
		snprintf(txt, sizeof txt, "%s/%.*s.perf-6.1.txt", fixdir, (int)(len - 5), de->d_name);
		if (access(txt, R_OK))
			continue;
		failed |= compare(spe_dump, data, de->d_name, 0, txt);
		n++;
	}
	closedir(d);
	printf("golden files compared: %d\n", n);
	return failed || n == 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "--make-fixture"))
		return make_fixture(argv[2], (unsigned)atoi(argv[3]), (unsigned)atoi(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "--golden"))
		return golden(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "--file")) {
		if (!have_perf()) {
			printf("SKIP: perf not installed\n");
			return 77;
		}
		return compare(argv[2], argv[3], argv[3], is_pipe_mode(argv[3]), NULL);
	}
	if (argc < 2) {
		fprintf(stderr, "usage: test_perf_diff SPE_DUMP [PUBLIC_RAW_DIR] [SEEDS] [RECORDS]\n");
		return 2;
	}
	if (!have_perf()) {
		printf("SKIP: perf not installed\n");
		return 77;
	}
	const char *spe_dump = argv[1];
	unsigned seeds = argc > 3 ? (unsigned)atoi(argv[3]) : 4;
	unsigned records = argc > 4 ? (unsigned)atoi(argv[4]) : 3000;
	char path[] = "/tmp/spe-diff-XXXXXX";
	int tfd = mkstemp(path);
	if (tfd < 0)
		return 2;
	close(tfd);
	int failed = 0;
	for (unsigned s = 1; s <= seeds; s++) {
		rng_state = 0x9e3779b97f4a7c15ull * s;
		struct spe_enc e;
		spe_enc_init(&e, NULL, 0);
		random_stream(&e, records);
		if (e.error) {
			printf("seed %u: encoder error %s\n", s, spe_errstr(e.error));
			failed = 1;
		}
		char label[64];
		snprintf(label, sizeof label, "seed %u (%zu bytes)", s, e.len);
		/* odd seeds in file mode, even seeds as a pipe-mode stream */
		int pipe_mode = s % 2 == 0;
		if (pipe_mode)
			strcat(label, " pipe");
		if (write_perf_data(path, e.buf, e.len, 1, pipe_mode) != 0) {
			printf("%s: writer failed\n", label);
			failed = 1;
		} else {
			failed |= compare(spe_dump, path, label, pipe_mode, NULL);
		}
		spe_enc_fini(&e);
	}
	if (argc > 2) {
		DIR *d = opendir(argv[2]);
		struct dirent *de;
		int n = 0;
		while (d && (de = readdir(d)) != NULL) {
			size_t nl = strlen(de->d_name);
			int raw_sample = (nl > 5 && strcmp(de->d_name + nl - 5, ".data") == 0) ||
					 (nl > 4 && strcmp(de->d_name + nl - 4, ".bin") == 0);
			if (!raw_sample)
				continue;
			char raw[4096];
			snprintf(raw, sizeof raw, "%s/%s", argv[2], de->d_name);
			FILE *in = fopen(raw, "rb");
			if (!in)
				continue;
			uint8_t buf[1 << 16];
			size_t len = fread(buf, 1, sizeof buf, in);
			fclose(in);
			if (write_perf_data(path, buf, len, 0, 0) != 0) {
				failed = 1;
				continue;
			}
			failed |= compare(spe_dump, path, de->d_name, 0, NULL);
			n++;
		}
		if (d)
			closedir(d);
		printf("public raw samples compared: %d\n", n);
		if (n == 0) {
			fprintf(stderr, "no .data or .bin samples in %s\n", argv[2]);
			failed = 1;
		}
	}
	unlink(path);
	return failed;
}
