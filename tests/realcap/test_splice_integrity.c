/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_splice_integrity SPLICE SYSROOT CASES_DIR CASES_TXT WORKDIR
 *
 * What spe-splice promises, checked on every case of cases.txt (each
 * distinct case and plan spliced twice):
 *   - the output is the same bytes both times;
 *   - every record of the input is in the output, byte for byte and in
 *     order (COMPRESSED records included), and nothing else is except the
 *     records spe-splice adds (AUXTRACE_INFO, AUXTRACE, AUX, ITRACE_START,
 *     its TIME_CONV; in pipe mode its HEADER_ATTR, HEADER_BUILD_ID records
 *     and the four features it rewrites);
 *   - the input's attrs and ids come first, unchanged, then one arm_spe attr;
 *   - file mode: every feature section but ARCH, CPUID, EVENT_DESC,
 *     PMU_MAPPINGS, BUILD_ID and AUXTRACE is the input's; the input's
 *     BUILD_ID entries start the output's; ARCH says aarch64, CPUID an
 *     arm64 MIDR; the HEADER_AUXTRACE index lists exactly the AUXTRACE
 *     records, each with size 48;
 *   - libspe's record decoder finds, per CPU, the truth file's records:
 *     same count, PCs, timestamps and CONTEXT values, in time order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "capture.h"
#include "check.h"
#include "run.h"
#include "spe/spe.h"

static const char *splice, *sysroot, *cases_dir, *cases_txt, *workdir;

struct truth_row {
	uint32_t cpu, tid;
	uint64_t ts, pc;
	int ctx; /* the plan line asked for CONTEXT: unknown here, so compared when the record has one */
};

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *b = malloc(n > 0 ? (size_t)n : 1);
	if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return b;
}

static int run_splice(const char *case_dir, const char *plan, const char *out, const char *truth)
{
	char cmd[8192];
	int n = snprintf(cmd, sizeof cmd, "%s'%s' --sysroot='%s' --truth='%s' '%s/input.data' '%s/%s' '%s' 2>/dev/null",
			 spe_run_prefix(), splice, sysroot, truth, case_dir, case_dir, plan, out);
	if (n < 0 || (size_t)n >= sizeof cmd)
		return -1;
	return system(cmd);
}

static int added_type(uint32_t t)
{
	return t == CAP_AUXTRACE_INFO || t == CAP_AUXTRACE || t == CAP_AUX || t == CAP_ITRACE_START;
}

static int rewritten_feature(uint64_t f)
{
	return f == CAP_F_ARCH || f == CAP_F_CPUID || f == CAP_F_EVENT_DESC || f == CAP_F_PMU_MAPPINGS;
}

/* Input records that a pipe-mode output replaces: the features spe-splice rewrites. */
static int replaced(const struct capture *c, const struct cap_record *r)
{
	return c->pipe && r->type == CAP_HEADER_FEATURE && r->len >= 16 && rewritten_feature(cap_u64(r->bytes + 8));
}

static void check_records(const char *label, const struct capture *in, const struct capture *out)
{
	uint32_t i = 0, o = 0, extra_attrs = 0;
	for (; o < out->n_records; o++) {
		const struct cap_record *r = &out->records[o];
		if (added_type(r->type) || (r->type == CAP_TIME_CONV && !in->has_time_conv) ||
		    (out->pipe && r->type == CAP_HEADER_BUILD_ID) || replaced(out, r))
			continue;
		if (out->pipe && r->type == CAP_HEADER_ATTR && (i >= in->n_records || in->records[i].type != CAP_HEADER_ATTR)) {
			extra_attrs++;
			continue;
		}
		while (i < in->n_records && replaced(in, &in->records[i]))
			i++;
		if (i >= in->n_records) {
			printf("  %s: output record at 0x%llx (type %u) is not the input's\n", label,
			       (unsigned long long)r->offset, r->type);
			CHECK(0);
			return;
		}
		const struct cap_record *q = &in->records[i++];
		if (q->len != r->len || memcmp(q->bytes, r->bytes, q->len)) {
			printf("  %s: input record at 0x%llx (type %u) differs at output 0x%llx (type %u)\n", label,
			       (unsigned long long)q->offset, q->type, (unsigned long long)r->offset, r->type);
			CHECK(0);
			return;
		}
	}
	while (i < in->n_records && replaced(in, &in->records[i]))
		i++;
	CHECK_INT_EQ(i, in->n_records);
	CHECK_INT_EQ(extra_attrs, out->pipe ? 1 : 0);
	CHECK_INT_EQ(out->n_compressed, in->n_compressed);
}

static void check_attrs(const struct capture *in, const struct capture *out)
{
	CHECK_INT_EQ(out->n_attrs, in->n_attrs + 1);
	for (uint32_t k = 0; k < in->n_attrs && k < out->n_attrs; k++) {
		CHECK_INT_EQ(out->attrs[k].raw_size, in->attrs[k].raw_size);
		CHECK(!memcmp(out->attrs[k].raw, in->attrs[k].raw, in->attrs[k].raw_size));
		CHECK_INT_EQ(out->attrs[k].n_ids, in->attrs[k].n_ids);
		CHECK(!memcmp(out->attrs[k].ids, in->attrs[k].ids, 8ull * in->attrs[k].n_ids));
	}
}

/* perf's header string: u32 length, then the NUL-terminated text. */
static const char *feature_string(const struct capture *c, int bit)
{
	if (!c->feat[bit].data || c->feat[bit].size < 5)
		return "";
	return (const char *)c->feat[bit].data + 4;
}

static void check_features(const struct capture *in, const struct capture *out)
{
	CHECK(!strcmp(feature_string(out, CAP_F_ARCH), "aarch64"));
	CHECK(!strncmp(feature_string(out, CAP_F_CPUID), "0x00000000410fd", 15) ||
	      !strncmp(feature_string(out, CAP_F_CPUID), "0x00000000413fd", 15));
	if (in->pipe)
		return;
	for (int bit = 0; bit < CAP_F_MAX; bit++) {
		if (!in->feat[bit].data || rewritten_feature((uint64_t)bit) || bit == CAP_F_BUILD_ID || bit == CAP_F_AUXTRACE)
			continue;
		CHECK_U64_EQ(out->feat[bit].size, in->feat[bit].size);
		CHECK(out->feat[bit].data && !memcmp(out->feat[bit].data, in->feat[bit].data, in->feat[bit].size));
	}
	if (in->feat[CAP_F_BUILD_ID].data) {
		CHECK(out->feat[CAP_F_BUILD_ID].size >= in->feat[CAP_F_BUILD_ID].size);
		CHECK(!memcmp(out->feat[CAP_F_BUILD_ID].data, in->feat[CAP_F_BUILD_ID].data, in->feat[CAP_F_BUILD_ID].size));
	}
	/* the AUXTRACE index: one {offset, 48} per AUXTRACE record, in file order */
	const uint8_t *x = out->feat[CAP_F_AUXTRACE].data;
	CHECK(x != NULL);
	if (!x)
		return;
	uint64_t n = cap_u64(x), k = 0;
	for (uint32_t r = 0; r < out->n_records; r++) {
		if (out->records[r].type != CAP_AUXTRACE)
			continue;
		CHECK(k < n);
		if (k < n) {
			CHECK_U64_EQ(cap_u64(x + 8 + 16 * k), out->records[r].offset);
			CHECK_U64_EQ(cap_u64(x + 16 + 16 * k), 48);
		}
		k++;
	}
	CHECK_U64_EQ(k, n);
}

static unsigned read_truth(const char *path, struct truth_row **rows)
{
	FILE *f = fopen(path, "r");
	unsigned n = 0;
	*rows = NULL;
	if (!f)
		return 0;
	char line[2048];
	while (fgets(line, sizeof line, f)) {
		if (line[0] == '#')
			continue;
		unsigned num, cpu, pid, tid;
		unsigned long long ts, time, pc;
		int el;
		if (sscanf(line, "%u %u %llu %llu %llx %d %u %u", &num, &cpu, &ts, &time, &pc, &el, &pid, &tid) != 8)
			continue;
		*rows = realloc(*rows, (n + 1) * sizeof **rows);
		(*rows)[n++] = (struct truth_row){ cpu, tid, ts, pc, 0 };
	}
	fclose(f);
	return n;
}

static int by_cpu_ts(const void *a, const void *b)
{
	const struct truth_row *x = a, *y = b;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* Decode every CPU's AUXTRACE data with libspe and compare with the truth, in (cpu, time) order. */
static void check_spe(const char *label, const struct capture *out, const char *truth_path)
{
	struct truth_row *want;
	unsigned n = read_truth(truth_path, &want);
	CHECK(n > 0);
	qsort(want, n, sizeof *want, by_cpu_ts);
	unsigned got = 0;
	for (uint32_t cpu = 0; cpu < 256; cpu++) {
		struct spe_rec_config cfg = SPE_OPTS(spe_rec_config, .midr = 0x413fd0c1);
		struct spe_rec_decoder *dec = spe_rec_alloc_decoder(&cfg);
		int first = 1;
		for (uint32_t r = 0; r < out->n_records; r++) {
			const struct cap_record *rec = &out->records[r];
			if (rec->type != CAP_AUXTRACE || cap_u32(rec->bytes + 40) != cpu)
				continue;
			spe_rec_feed(dec, rec->bytes + 48, rec->len - 48, cap_u64(rec->bytes + 16), !first);
			first = 0;
			struct spe_record sr;
			while (spe_rec_next(dec, &sr, sizeof sr) == 0) {
				if (got >= n || want[got].cpu != cpu) {
					printf("  %s: cpu %u: a record more than the truth has\n", label, cpu);
					CHECK(0);
					break;
				}
				CHECK_U64_EQ(sr.pc.addr, want[got].pc);
				CHECK_U64_EQ(sr.timestamp, want[got].ts);
				if (sr.has & SPE_HAS_CONTEXT)
					CHECK_INT_EQ(sr.context, want[got].tid);
				got++;
			}
		}
		struct spe_rec_stats st;
		spe_rec_get_stats(dec, &st, sizeof st);
		CHECK_INT_EQ(st.bad_bytes, 0);
		spe_rec_free_decoder(dec);
	}
	CHECK_INT_EQ(got, n);
	free(want);
}

static void check_case(const char *case_name, const char *plan)
{
	char case_dir[1024], out1[1024], out2[1024], truth[1024], label[256];
	snprintf(label, sizeof label, "%s/%s", case_name, plan);
	snprintf(case_dir, sizeof case_dir, "%s/%s", cases_dir, case_name);
	snprintf(out1, sizeof out1, "%s/%s-%s.1.data", workdir, case_name, plan);
	snprintf(out2, sizeof out2, "%s/%s-%s.2.data", workdir, case_name, plan);
	snprintf(truth, sizeof truth, "%s/%s-%s.truth", workdir, case_name, plan);
	CHECK_INT_EQ(run_splice(case_dir, plan, out1, truth), 0);
	CHECK_INT_EQ(run_splice(case_dir, plan, out2, truth), 0);
	size_t l1, l2, li;
	uint8_t *b1 = slurp(out1, &l1), *b2 = slurp(out2, &l2);
	char in_path[1100];
	snprintf(in_path, sizeof in_path, "%s/input.data", case_dir);
	uint8_t *bi = slurp(in_path, &li);
	CHECK(b1 && b2 && bi);
	if (!b1 || !b2 || !bi) {
		free(b1), free(b2), free(bi);
		return;
	}
	CHECK(l1 == l2 && !memcmp(b1, b2, l1));
	free(b2);
	struct capture in, out;
	char err[512];
	int status;
	int ri = cap_parse(&in, bi, li, in_path, err, sizeof err, &status);
	if (ri < 0)
		printf("  %s: %s\n", label, err);
	int ro = cap_parse_output(&out, b1, l1, out1, err, sizeof err, &status);
	if (ro < 0)
		printf("  %s: %s\n", label, err);
	CHECK(ri == 0 && ro == 0);
	if (ri == 0 && ro == 0) {
		check_attrs(&in, &out);
		check_records(label, &in, &out);
		check_features(&in, &out);
		check_spe(label, &out, truth);
	}
	cap_free(&in);
	cap_free(&out);
}

TEST(every_case)
{
	FILE *f = fopen(cases_txt, "r");
	CHECK(f != NULL);
	if (!f)
		return;
	char line[512], seen[64][128];
	int nseen = 0;
	while (fgets(line, sizeof line, f)) {
		char test[64], name[64], opt1[64] = "", opt2[64] = "";
		if (line[0] == '#' || sscanf(line, "%63s %63s %63s %63s", test, name, opt1, opt2) < 2)
			continue;
		const char *plan = "plan";
		if (!strncmp(opt1, "--plan=", 7))
			plan = opt1 + 7;
		char key[128];
		snprintf(key, sizeof key, "%s/%s", name, plan);
		int dup = 0;
		for (int i = 0; i < nseen; i++)
			dup |= !strcmp(seen[i], key);
		if (dup || nseen == 64)
			continue;
		snprintf(seen[nseen++], sizeof seen[0], "%s", key);
		int before = check_failures;
		check_case(name, plan);
		printf("%s %s\n", check_failures > before ? "FAIL" : "ok  ", key);
	}
	fclose(f);
	CHECK(nseen >= 10);
}

int main(int argc, char **argv)
{
	if (argc != 6) {
		fprintf(stderr, "usage: test_splice_integrity SPLICE SYSROOT CASES_DIR CASES_TXT WORKDIR\n");
		return 64;
	}
	splice = argv[1];
	sysroot = argv[2];
	cases_dir = argv[3];
	cases_txt = argv[4];
	workdir = argv[5];
	mkdir(workdir, 0755);
	RUN(every_case);
	printf("%d passed, %d failed\n", check_passed, check_failed);
	return check_failed ? 1 : 0;
}
