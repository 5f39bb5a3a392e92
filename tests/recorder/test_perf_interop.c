/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Replayed files against perf 6.1 (skipped when perf is not installed):
 *  - `perf report -D` prints exactly the packet lines libspe's dumper prints
 *    for the same AUXTRACE chunks (dialect perf 6.1);
 *  - `perf script --itrace=i1i` synthesizes one `instructions` sample per
 *    record, with our decoder's PC and the TS as time (identity TIME_CONV);
 *  - `perf script` on the public quipper records gives the data_src, tid and
 *    time documented in docs/spe-format.md §4.9 (facts from perf, not from us).
 */
#include "check.h"
#include "spe/encoder.h"
#include "spe/rec_output.h"
#include "spe/replay.h"
#include "spe/spe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[256];
static const char *fixtures;

struct lines {
	char **v;
	size_t n, cap;
};

static void add_line(struct lines *l, const char *s, size_t len)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 1024;
		l->v = realloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n] = malloc(len + 1);
	memcpy(l->v[l->n], s, len);
	l->v[l->n][len] = 0;
	l->n++;
}

static void free_lines(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof *l);
}

/* Lines of a command's stdout for which @p keep is true. */
static int run_lines(const char *cmd, int (*keep)(const char *), struct lines *out)
{
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	char buf[4096];
	while (fgets(buf, sizeof buf, p)) {
		size_t n = strcspn(buf, "\n");
		buf[n] = 0;
		if (!keep || keep(buf))
			add_line(out, buf, n);
	}
	return pclose(p);
}

/* A packet line of perf's dump: ".  " then 8 hex digits and ':'. */
static int is_packet_line(const char *s)
{
	if (strncmp(s, ".  ", 3))
		return 0;
	for (int i = 3; i < 11; i++)
		if (!strchr("0123456789abcdef", s[i]))
			return 0;
	return s[11] == ':';
}

static int collect_dump(void *ctx, const char *text, size_t len)
{
	struct lines *l = ctx;
	while (len) {
		const char *nl = memchr(text, '\n', len);
		size_t n = nl ? (size_t)(nl - text) : len;
		add_line(l, text, n);
		n += nl ? 1 : 0;
		text += n;
		len -= n;
	}
	return 0;
}

/* Our packet lines for every AUXTRACE chunk of @p path, perf 6.1 wording. */
static void our_dump(const char *path, uint32_t midr, struct lines *out)
{
	struct spe_perf_config pc = SPE_OPTS(spe_perf_config);
	struct spe_perf_file *f = spe_perf_alloc_file(&pc);
	CHECK_INT_EQ(spe_perf_open(f, path), 0);
	struct spe_perf_event ev;
	while (spe_perf_next(f, &ev, sizeof ev) == 0) {
		if (ev.type != SPE_PERF_RECORD_AUXTRACE)
			continue;
		struct spe_dump_config dc = SPE_OPTS(spe_dump_config, .dialect = SPE_DIALECT_PERF_6_1, .midr = midr,
						     .write = collect_dump, .ctx = out);
		spe_dump_buffer(&dc, ev.u.auxtrace.data, ev.u.auxtrace.size, NULL);
	}
	spe_perf_free_file(f);
}

static int replay_file(const char *raw_or_manifest, uint64_t midr, const char *out, uint64_t aux_size)
{
	struct spe_replay_manifest *m;
	char err[512];
	int r = spe_replay_is_manifest(raw_or_manifest) == 1
			? spe_replay_manifest_parse(raw_or_manifest, &m, err, sizeof err)
			: spe_replay_manifest_for_raw(raw_or_manifest, 0, midr, &m);
	if (r)
		return r;
	uint32_t cpus[8];
	uint64_t midrs[8];
	for (size_t i = 0; i < m->n_cpus && i < 8; i++) {
		cpus[i] = m->cpus[i].cpu;
		midrs[i] = m->cpus[i].midr;
	}
	struct spe_rec_output_config oc = { .n_cpus = (uint32_t)m->n_cpus,
						   .cpus = cpus, .midrs = midrs };
	struct spe_rec_output *o;
	if ((r = spe_rec_output_open(out, &oc, &o, err, sizeof err)) == 0) {
		struct spe_replay_config rc = { .aux_size = aux_size,
						       .sample_type = spe_rec_output_sample_type(),
						       .sample_id = SPE_REC_OUTPUT_SAMPLE_ID };
		struct spe_session_sink sink = spe_rec_output_sink(o);
		struct spe_session_stats st;
		struct spe_replay_stats rs;
		r = spe_replay_run(m, &rc, &sink, &st, &rs, err, sizeof err);
		int c = spe_rec_output_close(o, err, sizeof err);
		r = r ? r : c;
	}
	spe_replay_manifest_free(m);
	return r;
}

static void compare_dump(const char *perf_data, uint32_t midr)
{
	char cmd[1024];
	struct lines perf = { 0 }, ours = { 0 };
	snprintf(cmd, sizeof cmd, "PAGER=cat perf report -D -i '%s' 2>/dev/null", perf_data);
	CHECK_INT_EQ(run_lines(cmd, is_packet_line, &perf), 0);
	our_dump(perf_data, midr, &ours);
	CHECK(perf.n > 0);
	CHECK_INT_EQ(perf.n, ours.n);
	for (size_t i = 0; i < perf.n && i < ours.n; i++) {
		if (strcmp(perf.v[i], ours.v[i])) {
			CHECK_STR_EQ(perf.v[i], ours.v[i]);
			printf("  first difference at packet line %zu of %s\n", i, perf_data);
			break;
		}
	}
	free_lines(&perf);
	free_lines(&ours);
}

/* 3000 well-formed records (PC, op, events, latency, VA, PA, TS), no alignment pads. */
static uint8_t *gen_stream(size_t *len, uint64_t **pcs, uint64_t **tss, int n)
{
	uint64_t x = 12345;
	struct spe_enc enc;
	spe_enc_init(&enc, NULL, 0);
	*pcs = calloc((size_t)n, sizeof **pcs);
	*tss = calloc((size_t)n, sizeof **tss);
	for (int i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		struct spe_record r;
		memset(&r, 0, sizeof r);
		r.has = SPE_HAS_PC | SPE_HAS_TIMESTAMP | SPE_HAS_OP_TYPE | SPE_HAS_EVENTS | SPE_HAS_TOTAL_LATENCY |
			SPE_HAS_DATA_VA | SPE_HAS_DATA_PA | SPE_HAS_CONTEXT;
		r.pc.addr = 0xaaaac17c3000ull + 4 * (x % 4096);
		r.pc.ns = 1;
		r.context = 1234;
		r.op_raw_class = 1;
		r.op_raw = (x >> 20) & 1; /* LD or ST, GP-REG */
		r.events = 0x2 | ((x >> 8) & 0x1c);
		r.total_latency = (uint16_t)(x % 400);
		r.data_va = 0xffffa0000000ull + ((x >> 12) & 0xffff8);
		r.data_pa = 0x80000000ull + ((x >> 12) & 0xffff8);
		r.data_pa_ns = 1;
		r.timestamp = 1000000 + 40 * (uint64_t)i;
		(*pcs)[i] = r.pc.addr;
		(*tss)[i] = r.timestamp;
		spe_enc_record(&enc, &r, (x >> 30) & 1 ? SPE_ENC_PAD_TO_64 : 0);
	}
	*len = enc.len;
	return enc.buf;
}

TEST(dump_matches_perf)
{
	static const char *public_raw[] = { "quipper-test_neoverse_2records.bin", "spe-b1-ts0.data", "spe-b1-ts1.data",
					    "spe-parser-test_get_frame_fragment.bin" };
	char in[1024], out[1024];
	/* The repository's copy (fixtures/public/PROVENANCE.md): missing is a failure, not a smaller test. */
	for (size_t i = 0; i < sizeof public_raw / sizeof *public_raw; i++) {
		snprintf(in, sizeof in, "%s/../public/%s", fixtures, public_raw[i]);
		CHECK(access(in, R_OK) == 0);
		snprintf(out, sizeof out, "%s/public%zu.data", tmpdir, i);
		CHECK_INT_EQ(replay_file(in, 0x410fd0c0, out, 0), 0);
		compare_dump(out, 0x410fd0c0);
	}
	size_t len;
	uint64_t *pcs, *tss;
	uint8_t *bytes = gen_stream(&len, &pcs, &tss, 3000);
	snprintf(in, sizeof in, "%s/gen.bin", tmpdir);
	FILE *f = fopen(in, "wb");
	fwrite(bytes, 1, len, f);
	fclose(f);
	/* A 16 KiB AUX area: the stream crosses many chunk and wrap boundaries. */
	snprintf(out, sizeof out, "%s/gen.data", tmpdir);
	CHECK_INT_EQ(replay_file(in, 0x410fd0c0, out, 16384), 0);
	compare_dump(out, 0x410fd0c0);

	/* One instructions sample per record, in order, with our PC and TS. */
	char cmd[1200];
	struct lines s = { 0 };
	snprintf(cmd, sizeof cmd, "perf script -i '%s' --itrace=i1i --ns -F time,ip 2>/dev/null", out);
	CHECK_INT_EQ(run_lines(cmd, NULL, &s), 0);
	CHECK_INT_EQ(s.n, 3000);
	for (size_t i = 0; i < s.n && i < 3000; i++) {
		unsigned long long sec, ns, ip;
		if (sscanf(s.v[i], " %llu.%llu: %llx", &sec, &ns, &ip) != 3 || ip != pcs[i] ||
		    sec * 1000000000ull + ns != tss[i]) {
			CHECK_STR_EQ(s.v[i], "(time = TS, ip = PC of the record)");
			printf("  record %zu: pc %llx ts %llu\n", i, (unsigned long long)pcs[i],
			       (unsigned long long)tss[i]);
			break;
		}
	}
	free_lines(&s);
	free(bytes);
	free(pcs);
	free(tss);
}

static int has_data_src(const char *s)
{
	return strstr(s, "l1d-access") != NULL;
}

static int has_l1_hit(const char *s)
{
	return strstr(s, "L1 or L1 hit") && strstr(s, "Walker hit");
}

static int is_l1d_access_header(const char *s)
{
	return strstr(s, "# Samples: 1  of event 'l1d-access'") != NULL;
}

TEST(script_quipper_as_documented)
{
	char in[1024], out[1024], cmd[1200];
	snprintf(in, sizeof in, "%s/two-records.replay", fixtures);
	snprintf(out, sizeof out, "%s/two.data", tmpdir);
	CHECK_INT_EQ(replay_file(in, 0, out, 0), 0);
	struct lines s = { 0 };
	snprintf(cmd, sizeof cmd,
		 "perf script -i '%s' --ns -F tid,time,event,data_src 2>/dev/null", out);
	CHECK_INT_EQ(run_lines(cmd, has_data_src, &s), 0);
	/* docs/spe-format.md §4.9: 288100142 |OP LOAD|LVL L1 or L1 hit|SNP None|TLB Walker hit, tid 24448, 44.731163950 */
	CHECK_INT_EQ(s.n, 1);
	if (s.n) {
		CHECK(strstr(s.v[0], "24448") != NULL);
		CHECK(strstr(s.v[0], "44.731163950") != NULL);
		CHECK(strstr(s.v[0], "288100142 |OP LOAD|LVL L1 or L1 hit|SNP None|TLB Walker hit") != NULL);
		if (check_failures)
			printf("  got: %s\n", s.v[0]);
	}
	free_lines(&s);

	/* perf report and perf mem report accept the file too (DATA_SRC in the attr, docs/spe-format.md §4.9). */
	snprintf(cmd, sizeof cmd, "perf mem report --stdio -i '%s' 2>/dev/null", out);
	CHECK_INT_EQ(run_lines(cmd, has_l1_hit, &s), 0);
	CHECK(s.n >= 1);
	free_lines(&s);
	snprintf(cmd, sizeof cmd, "perf report --stdio -i '%s' 2>/dev/null", out);
	CHECK_INT_EQ(run_lines(cmd, is_l1d_access_header, &s), 0);
	CHECK_INT_EQ(s.n, 1);
	free_lines(&s);
}

/*
 * The analysis engineer's memwork fixture (fixtures/workloads): perf resolves
 * every sample to the function the generator put it in, with the counts its
 * header documents: chase 400, stream_sum 300, branchy 200 (tid 4242, comm
 * memwork) and bump_shared 2 x 150 (the bumper threads).
 */
TEST(workload_fixture_symbolizes)
{
	char in[1024], out[1024], cmd[2400];
	snprintf(in, sizeof in, "%s/../workloads/traces/memwork.replay", fixtures);
	if (access(in, R_OK)) {
		printf("  (no %s: skipped)\n", in);
		return;
	}
	snprintf(out, sizeof out, "%s/memwork.data", tmpdir);
	CHECK_INT_EQ(replay_file(in, 0, out, 0), 0);
	char elf[1100], *symfs;
	snprintf(elf, sizeof elf, "%s/../elf", fixtures);
	symfs = realpath(elf, NULL); /* perf wants a plain --symfs path */
	struct lines s = { 0 };
	snprintf(cmd, sizeof cmd,
		 "perf script -i '%s' --symfs='%s' --itrace=i1i -F comm,ip,sym 2>/dev/null | "
		 "awk '{print $1, $3}' | sort | uniq -c | awk '{print $2, $3, $1}'",
		 out, symfs ? symfs : elf);
	free(symfs);
	CHECK_INT_EQ(run_lines(cmd, NULL, &s), 0);
	static const char *want[] = { "bumper bump_shared 300", "memwork branchy 200", "memwork chase 400",
				      "memwork stream_sum 300" };
	CHECK_INT_EQ(s.n, 4);
	for (size_t i = 0; i < s.n && i < 4; i++)
		CHECK_STR_EQ(s.v[i], want[i]);
	free_lines(&s);
}

int main(int argc, char **argv)
{
	fixtures = argc > 1 ? argv[1] : "fixtures/replay";
	if (system("command -v perf >/dev/null 2>&1") != 0) {
		printf("SKIP: perf not installed\n");
		return 77;
	}
	snprintf(tmpdir, sizeof tmpdir, "/tmp/spe-test-interop-XXXXXX");
	if (!mkdtemp(tmpdir))
		return 1;
	RUN(dump_matches_perf);
	RUN(script_quipper_as_documented);
	RUN(workload_fixture_symbolizes);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		printf("could not remove %s\n", tmpdir);
	return check_summary();
}
