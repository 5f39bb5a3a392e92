/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe-dump end to end: every option and every exit code, with the output
 * asserted.  Inputs are written at run time by the perf.data writer from
 * public bytes (quipper's two Neoverse records, docs/spe-format.md §2.5 / perf
 * 6.1's own dump of them) and from small hand-made streams.
 *
 * usage: test_spe_dump_cli SPE_DUMP_BINARY FIXTURES_DIR
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "run.h"
#include "spe/spe.h"

static const char *spe_dump, *fixtures;
static char dir[] = "/tmp/spe-dump-test-XXXXXX";
static char out[8192 * 8], err[8192];

/* quipper-test_neoverse_2records.bin (google/perf_data_converter, Apache-2.0) */
static const uint8_t quipper[128] = {
	0xb0, 0xd0, 0xc2, 0xa1, 0xed, 0x66, 0xba, 0xff, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x65, 0x80,
	0x5f, 0x00, 0x00, 0x49, 0x00, 0x52, 0x16, 0x00, 0x99, 0x04, 0x00, 0x98, 0x0c, 0x00, 0xb2, 0x28,
	0x6b, 0x09, 0x03, 0x37, 0x0e, 0xff, 0x00, 0x9a, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x43, 0x00, 0x00, 0x00, 0x71, 0x2e, 0x65, 0x2f, 0x6a, 0x0a, 0x00, 0x00, 0x00,
	0xb0, 0xe0, 0xb0, 0xef, 0xed, 0x66, 0xba, 0xff, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x65, 0x0e,
	0x00, 0x00, 0x00, 0x4a, 0x01, 0x52, 0x42, 0x00, 0x99, 0x10, 0x00, 0x98, 0x11, 0x00, 0xb1, 0xe4,
	0xb0, 0xef, 0xed, 0x66, 0xba, 0xff, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x71, 0x8d, 0x65, 0x2f, 0x6a, 0x0a, 0x00, 0x00, 0x00,
};

/* What perf 6.1 prints for it (checked with `perf report -D` on the file this test writes). */
static const char quipper_dump[] =
	"\n"
	"0x158 [0x30]: PERF_RECORD_AUXTRACE size: 0x80  offset: 0  ref: 0x1234  idx: 0  tid: -1  cpu: 0\n"
	".\n"
	". ... ARM SPE data: size 0x80 bytes\n"
	".  00000000:  b0 d0 c2 a1 ed 66 ba ff c0                      PC 0xffba66eda1c2d0 el2 ns=1\n"
	".  00000009:  00 00 00 00 00                                  PAD\n"
	".  0000000e:  65 80 5f 00 00                                  CONTEXT 0x5f80 el2\n"
	".  00000013:  49 00                                           LD GP-REG\n"
	".  00000015:  52 16 00                                        EV RETIRED L1D-ACCESS TLB-ACCESS\n"
	".  00000018:  99 04 00                                        LAT 4 ISSUE\n"
	".  0000001b:  98 0c 00                                        LAT 12 TOT\n"
	".  0000001e:  b2 28 6b 09 03 37 0e ff 00                      VA 0xff0e3703096b28\n"
	".  00000027:  9a 01 00                                        LAT 1 XLAT\n"
	".  0000002a:  00 00 00 00 00 00 00 00 00                      PAD\n"
	".  00000033:  43 00                                           DATA-SOURCE 0\n"
	".  00000035:  00 00                                           PAD\n"
	".  00000037:  71 2e 65 2f 6a 0a 00 00 00                      TS 44731163950\n"
	".  00000040:  b0 e0 b0 ef ed 66 ba ff c0                      PC 0xffba66edefb0e0 el2 ns=1\n"
	".  00000049:  00 00 00 00 00                                  PAD\n"
	".  0000004e:  65 0e 00 00 00                                  CONTEXT 0xe el2\n"
	".  00000053:  4a 01                                           B COND\n"
	".  00000055:  52 42 00                                        EV RETIRED NOT-TAKEN\n"
	".  00000058:  99 10 00                                        LAT 16 ISSUE\n"
	".  0000005b:  98 11 00                                        LAT 17 TOT\n"
	".  0000005e:  b1 e4 b0 ef ed 66 ba ff c0                      TGT 0xffba66edefb0e4 el2 ns=1\n"
	".  00000067:  00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 PAD\n"
	".  00000077:  71 8d 65 2f 6a 0a 00 00 00                      TS 44731164045\n";

static int starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void slurp(const char *path, char *buf, size_t size)
{
	buf[0] = 0;
	FILE *f = fopen(path, "rb");
	if (!f)
		return;
	size_t n = fread(buf, 1, size - 1, f);
	buf[n] = 0;
	fclose(f);
}

/* Run "spe-dump ARGS" through sh; returns the exit status, output in out/err. */
static int run(const char *args)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "%s'%s' %s >'%s/out' 2>'%s/err'", spe_run_prefix(), spe_dump, args, dir, dir);
	int st = system(cmd);
	char p[256];
	snprintf(p, sizeof p, "%s/out", dir);
	slurp(p, out, sizeof out);
	snprintf(p, sizeof p, "%s/err", dir);
	slurp(p, err, sizeof err);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static void write_perf(const char *name, const uint8_t *data, size_t len)
{
	char p[256];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	struct spe_perf_writer_config cfg = SPE_OPTS(spe_perf_writer_config, .midr = 0x410fd0c0);
	struct spe_perf_writer *w = spe_perf_writer_open(fd, &cfg);
	spe_perf_write_auxtrace(w, data, len, 0, 0x1234, 0, -1, 0);
	spe_perf_write_finished_round(w);
	CHECK_INT_EQ(spe_perf_writer_close(w), 0);
	close(fd);
}

static void write_file(const char *name, const void *data, size_t len)
{
	char p[256];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	FILE *f = fopen(p, "wb");
	fwrite(data, 1, len, f);
	fclose(f);
}

static const char *at(const char *name)
{
	static char p[4][256];
	static int k;
	k = (k + 1) % 4;
	snprintf(p[k], sizeof p[k], "'%s/%s'", dir, name);
	return p[k];
}

/* Run "spe-dump OPTIONS DIR/NAME"; returns the exit status, output in out/err. */
static int run_on(const char *options, const char *name)
{
	char args[512];
	snprintf(args, sizeof args, "%s %s", options, at(name));
	return run(args);
}

TEST(dump_matches_perf_text)
{
	char args[512];
	snprintf(args, sizeof args, "--perf-compat=6.1 %s", at("q.data"));
	CHECK_INT_EQ(run(args), 0);
	CHECK_STR_EQ(out, quipper_dump);
	CHECK(strstr(err, "spe-dump: 2 records, 0 bad bytes, 0 skipped bytes, 0 partial records; 1 AUXTRACE buffers (128 bytes)") == err);
	/* the newest wording is the same for these packets */
	snprintf(args, sizeof args, "-q %s", at("q.data"));
	CHECK_INT_EQ(run(args), 0);
	CHECK_STR_EQ(out, quipper_dump);
	CHECK_STR_EQ(err, "");
}

TEST(dialects_differ)
{
	static const uint8_t sve[] = { 0x49, 0x08, 0x71, 0x01, 0, 0, 0, 0, 0, 0, 0 };
	write_perf("sve.data", sve, sizeof sve);
	char args[512];
	snprintf(args, sizeof args, "-q --perf-compat=6.1 %s", at("sve.data"));
	CHECK_INT_EQ(run(args), 0);
	CHECK(strstr(out, ".  00000000:  49 08                                           LD EVLEN 32\n") != NULL);
	snprintf(args, sizeof args, "-q %s", at("sve.data"));
	CHECK_INT_EQ(run(args), 0);
	CHECK(strstr(out, ".  00000000:  49 08                                           LD SVE-SME-REG EVLEN 32\n") != NULL);
	snprintf(args, sizeof args, "--perf-compat=5.4 %s", at("sve.data"));
	CHECK_INT_EQ(run(args), 64);
	CHECK(strstr(err, "--perf-compat=5.4: use 6.1 or newest") != NULL);
}

TEST(json_records)
{
	char args[512];
	snprintf(args, sizeof args, "-q --format=json %s", at("q.data"));
	CHECK_INT_EQ(run(args), 0);
	/* first record: EL2 NS=1 PC sign-filled, VA with bits 55:52 all ones sign-filled (docs/spe-format.md §1.4) */
	CHECK(starts_with(out, "{\"offset\":0,\"file_offset\":392,\"idx\":0,\"cpu\":0,\"tid\":-1,\"timestamp\":44731163950,"));
	CHECK(strstr(out, "\"pc\":\"0xffffba66eda1c2d0\",\"pc_el\":2,\"pc_ns\":1") != NULL);
	CHECK(strstr(out, "\"op_class\":\"load\",\"op\":\"LD GP-REG\"") != NULL);
	CHECK(strstr(out, "\"events\":[\"retired\",\"l1d_access\",\"tlb_access\"],\"events_raw\":\"0x16\"") != NULL);
	CHECK(strstr(out, "\"total_latency\":12,\"issue_latency\":4,\"translation_latency\":1") != NULL);
	CHECK(strstr(out, "\"data_va\":\"0xffff0e3703096b28\"") != NULL);
	CHECK(strstr(out, "\"context\":24448,\"context_el\":2") != NULL); /* 0x5f80 */
	/* second record: the branch, at stream offset 64 = file offset 392 + 64 */
	CHECK(strstr(out, "\n{\"offset\":64,\"file_offset\":456,") != NULL);
	CHECK(strstr(out, "\"branch_target\":\"0xffffba66edefb0e4\"") != NULL);
	CHECK(strstr(out, "\"op_class\":\"branch\",\"op\":\"B COND\"") != NULL);
	int lines = 0;
	for (const char *c = out; *c; c++)
		lines += *c == '\n';
	CHECK_INT_EQ(lines, 2);
}

/* IMPDEF events the CPU names (N1 bit 12, LATE-PREFETCH in the text dump) are in JSON and records lines too. */
TEST(json_impdef_event_names)
{
	static const uint8_t ev[] = { 0x62, 0x02, 0x10, 0x00, 0x00, 0x01 }; /* EV RETIRED + bit 12, END */
	write_perf("impdef.data", ev, sizeof ev); /* MIDR 0x410fd0c0: Neoverse N1 */
	CHECK_INT_EQ(run_on("-q", "impdef.data"), 0);
	CHECK(strstr(out, "EV RETIRED LATE-PREFETCH\n") != NULL);
	CHECK_INT_EQ(run_on("-q --format=json", "impdef.data"), 0);
	CHECK(strstr(out, "\"events\":[\"retired\",\"late_prefetch\"],\"events_raw\":\"0x1002\"") != NULL);
	CHECK_INT_EQ(run_on("-q --records", "impdef.data"), 0);
	CHECK(strstr(out, " ev=retired,late_prefetch") != NULL);
	/* raw input: the name follows --midr; another part (N2) does not name bit 12 */
	write_file("impdef.bin", ev, sizeof ev);
	CHECK_INT_EQ(run_on("-q --raw --midr=0x410fd0c0 --format=json", "impdef.bin"), 0);
	CHECK(strstr(out, "\"events\":[\"retired\",\"late_prefetch\"]") != NULL);
	CHECK_INT_EQ(run_on("-q --raw --midr=0x410fd490 --format=json", "impdef.bin"), 0);
	CHECK(strstr(out, "\"events\":[\"retired\"],\"events_raw\":\"0x1002\"") != NULL);
}

/* JSON lint: every line of a damaged random stream parses, records and errors alike. */
TEST(json_lint)
{
	if (system("python3 -c 'import json' 2>/dev/null") != 0) {
		printf("  python3 not available: JSON lint skipped\n");
		return;
	}
	char cmd[2048];
	snprintf(cmd, sizeof cmd,
		 "%s'%s' -q --format=json '%s/perfdata/random-seed101.data' | python3 -c '"
		 "import json,sys\n"
		 "recs=errs=0\n"
		 "for line in sys.stdin:\n"
		 "    o=json.loads(line)\n"
		 "    assert set(o) >= ({\"error\",\"code\",\"offset\"} if \"error\" in o else {\"offset\",\"idx\",\"cpu\",\"end\"}), o\n"
		 "    recs+= \"error\" not in o; errs+= \"error\" in o\n"
		 "assert recs > 100 and errs > 10, (recs, errs)\n"
		 "'",
		 spe_run_prefix(), spe_dump, fixtures);
	CHECK_INT_EQ(system(cmd), 0);
}

/* TIME_CONV applied to "time"; AUX flags counted in the summary. */
TEST(time_conv_and_aux_summary)
{
	char p[256];
	snprintf(p, sizeof p, "%s/tc.data", dir);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	struct spe_perf_time_conv tc = { .time_shift = 1, .time_mult = 3, .time_zero = 100, .cap_user_time_zero = 1 };
	struct spe_perf_writer_config cfg = SPE_OPTS(spe_perf_writer_config, .midr = 0x410fd0c0, .time_conv = &tc);
	struct spe_perf_writer *w = spe_perf_writer_open(fd, &cfg);
	spe_perf_write_auxtrace(w, quipper, 64, 0, 1, 0, -1, 0);
	spe_perf_write_aux(w, 0, 64, SPE_PERF_AUX_TRUNCATED | SPE_PERF_AUX_PARTIAL, NULL);
	spe_perf_write_aux(w, 64, 64, SPE_PERF_AUX_COLLISION, NULL);
	CHECK_INT_EQ(spe_perf_writer_close(w), 0);
	close(fd);
	char args[512];
	snprintf(args, sizeof args, "--format=json %s", at("tc.data"));
	CHECK_INT_EQ(run(args), 0);
	/* TS 44731163950 is even: 100 + (44731163950 >> 1) * 3 = 67096746025 */
	CHECK(strstr(out, "\"timestamp\":44731163950,\"time\":67096746025,") != NULL);
	CHECK(strstr(err, "AUX lost data 1 of 2 times (truncated), 1 partial, 1 collisions") != NULL);
}

TEST(records_lines)
{
	char args[512];
	snprintf(args, sizeof args, "-q --records %s", at("q.data"));
	CHECK_INT_EQ(run(args), 0);
	CHECK_STR_EQ(out,
		     "0x00000000 cpu=0 ts=44731163950 pc=0xffffba66eda1c2d0 el=2 op=\"LD GP-REG\" "
		     "ev=retired,l1d_access,tlb_access total_latency=12 issue_latency=4 translation_latency=1 "
		     "data_va=0xffff0e3703096b28 data_source=0 context=24448\n"
		     "0x00000040 cpu=0 ts=44731164045 pc=0xffffba66edefb0e0 el=2 op=\"B COND\" ev=retired,not_taken "
		     "total_latency=17 issue_latency=16 branch_target=0xffffba66edefb0e4 context=14\n");
}

TEST(raw_input)
{
	write_file("q.bin", quipper, sizeof quipper);
	char args[512];
	snprintf(args, sizeof args, "--raw --midr=0x410fd0c0 --records %s", at("q.bin"));
	CHECK_INT_EQ(run(args), 0);
	CHECK(starts_with(out, "0x00000000 cpu=-1 ts=44731163950 pc=0xffffba66eda1c2d0 "));
	CHECK(strstr(err, "spe-dump: 2 records, 0 bad bytes") == err);
	snprintf(args, sizeof args, "--raw -q %s", at("q.bin"));
	CHECK_INT_EQ(run(args), 0);
	/* the same packet lines as in the perf.data, without the AUXTRACE line */
	CHECK_STR_EQ(out, strstr(quipper_dump, ".\n. ... ARM SPE data"));
	snprintf(args, sizeof args, "--raw --midr=banana %s", at("q.bin"));
	CHECK_INT_EQ(run(args), 64);
	CHECK(strstr(err, "--midr=banana: expected a 32-bit number") != NULL);
	snprintf(args, sizeof args, "--midr=0x410fd0c0 %s", at("q.data"));
	CHECK_INT_EQ(run(args), 64);
	CHECK(strstr(err, "--midr applies to --raw input only") != NULL);
}

/* Raw input dumped in small windows prints exactly what one whole-buffer dump prints. */
TEST(raw_windows_do_not_change_output)
{
	static uint8_t junk[200000];
	uint64_t x = 88172645463325252ull;
	for (size_t i = 0; i < sizeof junk; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* many PADs, alignment-pad headers and packet headers among random bytes */
		static const uint8_t common[] = { 0x00, 0x00, 0x00, 0x20, 0x21, 0x22, 0x23, 0x71, 0x49, 0xb0, 0x99, 0x01 };
		junk[i] = x % 3 ? common[(x >> 8) % sizeof common] : (uint8_t)(x >> 16);
	}
	write_file("junk.bin", junk, sizeof junk);
	static char whole[1 << 22], windowed[1 << 22];
	char cmd[1024], p[256];
	snprintf(p, sizeof p, "%s/out", dir);
	snprintf(cmd, sizeof cmd, "%s'%s' -q --raw --window=1000000 %s > '%s'", spe_run_prefix(), spe_dump, at("junk.bin"), p);
	CHECK_INT_EQ(WEXITSTATUS(system(cmd)), 1);
	slurp(p, whole, sizeof whole);
	snprintf(cmd, sizeof cmd, "%s'%s' -q --raw --window=64 %s > '%s'", spe_run_prefix(), spe_dump, at("junk.bin"), p);
	CHECK_INT_EQ(WEXITSTATUS(system(cmd)), 1);
	slurp(p, windowed, sizeof windowed);
	CHECK(strlen(whole) > 1000000);
	CHECK(strstr(whole, "Bad packet!") != NULL);
	CHECK(strstr(whole, "  20 00") != NULL); /* alignment pads were exercised */
	CHECK(strcmp(whole, windowed) == 0);
	/* records mode too */
	snprintf(cmd, sizeof cmd, "%s'%s' -q --raw --records %s > '%s'", spe_run_prefix(), spe_dump, at("junk.bin"), p);
	system(cmd);
	slurp(p, whole, sizeof whole);
	snprintf(cmd, sizeof cmd, "%s'%s' -q --raw --records --window=64 %s > '%s'", spe_run_prefix(), spe_dump, at("junk.bin"), p);
	system(cmd);
	slurp(p, windowed, sizeof windowed);
	CHECK(strlen(whole) > 1000);
	CHECK(strcmp(whole, windowed) == 0);
}

/* A pipe-mode perf.data (`perf record -o -`): 16-byte header, attr event, SPE data. */
TEST(pipe_mode_stdin)
{
	uint8_t b[1024] = { 0 };
	size_t n = 0;
	memcpy(b, "PERFILE2", 8);
	uint64_t sixteen = 16;
	memcpy(b + 8, &sixteen, 8);
	n = 16;
	/* HEADER_ATTR: header, 128-byte attr (type 8, sample_id_all), one id */
	uint32_t t = 64, sz = 8 + 128 + 8;
	memcpy(b + n, &t, 4);
	memcpy(b + n + 6, &sz, 2);
	uint32_t type = 8, asz = 128;
	memcpy(b + n + 8, &type, 4);
	memcpy(b + n + 12, &asz, 4);
	uint64_t flags = 1ull << 18, id = 1;
	memcpy(b + n + 8 + 40, &flags, 8);
	memcpy(b + n + 8 + 128, &id, 8);
	n += sz;
	/* AUXTRACE_INFO v1 */
	t = 70;
	sz = 32;
	memcpy(b + n, &t, 4);
	memcpy(b + n + 6, &sz, 2);
	uint32_t kind = 4;
	memcpy(b + n + 8, &kind, 4);
	memcpy(b + n + 16, &type, 4);
	n += sz;
	/* AUXTRACE + the quipper bytes */
	size_t aux_at = n;
	t = 71;
	sz = 48;
	memcpy(b + n, &t, 4);
	memcpy(b + n + 6, &sz, 2);
	uint64_t size = sizeof quipper, ref = 0x1234;
	memcpy(b + n + 8, &size, 8);
	memcpy(b + n + 24, &ref, 8);
	int32_t tid = -1;
	memcpy(b + n + 36, &tid, 4);
	n += 48;
	memcpy(b + n, quipper, sizeof quipper);
	n += sizeof quipper;
	write_file("pipe.data", b, n);
	char args[512];
	snprintf(args, sizeof args, "-q - < %s", at("pipe.data"));
	CHECK_INT_EQ(run(args), 0);
	char want[8192];
	/* perf prints pipe-mode offsets counted after the 16-byte pipe header */
	snprintf(want, sizeof want, "\n0x%zx%s", aux_at - 16, strstr(quipper_dump, " [0x30]"));
	CHECK_STR_EQ(out, want);
	/* and through a real pipe */
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "cat %s | %s'%s' -q --records - >'%s/out'", at("pipe.data"), spe_run_prefix(), spe_dump, dir);
	CHECK_INT_EQ(system(cmd), 0);
	char p[256];
	snprintf(p, sizeof p, "%s/out", dir);
	slurp(p, out, sizeof out);
	CHECK(starts_with(out, "0x00000000 cpu=0 ts=44731163950 pc=0xffffba66eda1c2d0 "));
}

TEST(decode_errors_exit_1)
{
	/*
	 * 0xff is no packet: "Bad packet!" inline, decoding resumes at the next
	 * byte.  The packets after it up to the TS are the tail of a broken
	 * record: dropped, counted partial; the record after it is whole.
	 */
	static const uint8_t bad[] = { 0xff, 0x49, 0x00, 0x71, 0x05, 0, 0, 0, 0, 0, 0, 0,
				       0x49, 0x01, 0x71, 0x06, 0, 0, 0, 0, 0, 0, 0 };
	write_perf("bad.data", bad, sizeof bad);
	char args[512];
	snprintf(args, sizeof args, "%s", at("bad.data"));
	CHECK_INT_EQ(run(args), 1);
	CHECK(strstr(out, ".  00000000:  ff                                              Bad packet!\n"
			  ".  00000001:  49 00                                           LD GP-REG\n") != NULL);
	CHECK(strstr(err, "spe-dump: 1 records, 1 bad bytes, 12 skipped bytes, 1 partial records") == err);
	snprintf(args, sizeof args, "--records %s", at("bad.data"));
	CHECK_INT_EQ(run(args), 1);
	CHECK(strstr(out, "error idx=0 offset=0x00000000: ") == out);
	CHECK(strstr(out, "ts=5") == NULL);
	CHECK(strstr(out, "\n0x0000000c cpu=0 ts=6 op=\"ST GP-REG\"\n") != NULL);
	snprintf(args, sizeof args, "--format=json %s", at("bad.data"));
	CHECK_INT_EQ(run(args), 1);
	CHECK(strstr(out, "{\"error\":\"") == out);
	CHECK(strstr(out, "\"offset\":0,\"idx\":0,\"cpu\":0}\n{\"offset\":12,") != NULL);
}

TEST(unknown_packet_keeps_record_exit_0)
{
	/* 20 52 02 00: an EVENTS header behind an extended header, a well-formed packet of no known kind */
	static const uint8_t unk[] = { 0xb0, 0x00, 0x10, 0, 0, 0, 0, 0, 0x80, 0x20, 0x52, 0x02, 0x00,
				       0x71, 0x05, 0, 0, 0, 0, 0, 0, 0 };
	write_perf("unknown.data", unk, sizeof unk);
	CHECK_INT_EQ(run_on("", "unknown.data"), 0);
	CHECK(strstr(out, ".  00000009:  20 52 02 00                                     UNKNOWN 0x2 (header 20 52)\n"
			  ".  0000000d:  71 05") != NULL);
	CHECK(strstr(err, "spe-dump: 1 records, 0 bad bytes, 0 skipped bytes, 0 partial records, 1 unknown packets") ==
	      err);
	/* perf 6.1 prints the 20 as a bad byte and decodes on from the 52: so does --perf-compat=6.1 */
	CHECK_INT_EQ(run_on("--perf-compat=6.1", "unknown.data"), 0);
	CHECK(strstr(out, ".  00000009:  20                                              Bad packet!\n"
			  ".  0000000a:  52 02 00                                        EV RETIRED\n") != NULL);
	CHECK_INT_EQ(run_on("--records", "unknown.data"), 0);
	CHECK_STR_EQ(out, "0x00000000 cpu=0 ts=5 pc=0x1000 el=0\n");
	CHECK_INT_EQ(run_on("--format=json", "unknown.data"), 0);
	CHECK(strstr(out, "\"pc\":\"0x1000\"") != NULL);
	CHECK(strstr(out, "\"unknown_packets\":1") != NULL);
}

TEST(dropped_extras_in_summary)
{
	/* a record with 11 counters of unnamed indices (3-7 short, 8-13 extended): 8 kept, 3 dropped */
	uint8_t b[64];
	size_t n = 0;
	for (unsigned idx = 3; idx <= 13; idx++) {
		if (idx >= 8)
			b[n++] = (uint8_t)(0x20 | (idx >> 3));
		b[n++] = (uint8_t)(0x98 | (idx & 7));
		b[n++] = (uint8_t)idx;
		b[n++] = 0;
	}
	b[n++] = 0x01; /* END */
	write_perf("extras.data", b, n);
	CHECK_INT_EQ(run_on("--records", "extras.data"), 0);
	CHECK(strstr(err, ", 3 extra counters/addresses dropped (more than 8 in a record)") != NULL);
	/* none dropped: not mentioned */
	CHECK_INT_EQ(run_on("--records", "unknown.data"), 0);
	CHECK(strstr(err, "dropped") == NULL);
}

TEST(truncated_file_exit_1)
{
	char p[256];
	snprintf(p, sizeof p, "%s/q.data", dir);
	FILE *f = fopen(p, "rb");
	uint8_t buf[4096];
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	/* cut in the middle of the AUXTRACE data, and mark data.size 0 as a killed recorder leaves it */
	memset(buf + 48, 0, 8);
	write_file("cut.data", buf, 0x158 + 48 + 40);
	CHECK(n > 0x158 + 88);
	char args[512];
	snprintf(args, sizeof args, "%s", at("cut.data"));
	CHECK_INT_EQ(run(args), 1);
	/* the 40 data bytes present are decoded; then where and what was cut */
	CHECK(strstr(err, "cut.data: offset 0x158: the file ends inside a 176-byte AUXTRACE record: 40 of its 128 data "
			  "bytes are present\n") != NULL);
	CHECK(strstr(err, "; 1 AUXTRACE buffers (40 bytes);") != NULL);
	CHECK(strstr(err, "; the file is cut short at offset 0x158, 88 bytes missing\n") != NULL);
	/* cut inside the file header: nothing usable, bad data (65) */
	write_file("cut-header.data", buf, 60);
	snprintf(args, sizeof args, "%s", at("cut-header.data"));
	CHECK_INT_EQ(run(args), 65);
	CHECK(strstr(err, "cut-header.data: offset 0x0: file ends inside the perf.data header") != NULL);
}

TEST(exit_codes_of_bad_inputs)
{
	CHECK_INT_EQ(run(""), 64);
	CHECK(strstr(err, "spe-dump: expected one input file") == err);
	CHECK_INT_EQ(run("--format=xml x"), 64);
	CHECK(strstr(err, "--format=xml: use dump, json or records") != NULL);
	CHECK_INT_EQ(run("--help"), 0);
	CHECK(strstr(out, "usage: spe-dump") == out);
	char args[512];
	snprintf(args, sizeof args, "%s", at("nonexistent.data"));
	CHECK_INT_EQ(run(args), 66);
	CHECK(strstr(err, "nonexistent.data: cannot open: No such file or directory\n") != NULL);
	write_file("text.data", "hello, world\nthis is not perf.data\n", 35);
	snprintf(args, sizeof args, "%s", at("text.data"));
	CHECK_INT_EQ(run(args), 65);
	CHECK(strstr(err, "text.data: offset 0x0: not a perf.data file (magic is not PERFILE2)\n") != NULL);
	snprintf(args, sizeof args, "--raw %s", at("nonexistent.bin"));
	CHECK_INT_EQ(run(args), 66);
	char cmd[1024], p[256];
	snprintf(cmd, sizeof cmd, "%s'%s' %s >/dev/full 2>'%s/err'", spe_run_prefix(), spe_dump, at("q.data"), dir);
	int st = system(cmd);
	CHECK_INT_EQ(WIFEXITED(st) ? WEXITSTATUS(st) : -1, 74);
	snprintf(p, sizeof p, "%s/err", dir);
	slurp(p, err, sizeof err);
	CHECK(strstr(err, "spe-dump: error writing standard output: No space left on device") != NULL);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: test_spe_dump_cli SPE_DUMP FIXTURES_DIR\n");
		return 2;
	}
	spe_dump = argv[1];
	fixtures = argv[2];
	if (!mkdtemp(dir))
		return 2;
	write_perf("q.data", quipper, sizeof quipper);
	RUN(dump_matches_perf_text);
	RUN(dialects_differ);
	RUN(json_records);
	RUN(json_impdef_event_names);
	RUN(json_lint);
	RUN(time_conv_and_aux_summary);
	RUN(records_lines);
	RUN(raw_input);
	RUN(raw_windows_do_not_change_output);
	RUN(pipe_mode_stdin);
	RUN(decode_errors_exit_1);
	RUN(unknown_packet_keeps_record_exit_0);
	RUN(dropped_extras_in_summary);
	RUN(truncated_file_exit_1);
	RUN(exit_codes_of_bad_inputs);
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("could not remove %s\n", dir);
	return check_summary();
}
