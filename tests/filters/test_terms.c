/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every term in every spelling: --snake, --kebab, bare name, arm_spe/.../
 * and arm_spe_0/.../, each compiled on a fixture that has the term and
 * checked against the config word worked out by hand from the format/
 * positions (docs/filters.md, Terms); then a reject case per row.
 */
#include "check.h"
#include "fixture_target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N1 "n1-v1p1-linux6.1"
#define N2 "n2-v1p2-linux6.16"
#define EFT "v1p4-eft-linux6.18"
#define FDS "v1p4-fds-linux6.19"
#define V3P "v1p4-fds-v3patch-linux6.19"

struct row {
	enum spe_term term;
	const char *value;   /* as typed */
	const char *target;  /* fixture, or "cpu:NAME:KERNEL" */
	unsigned word;
	uint64_t expect;     /* by hand */
	const char *reject_target;
	const char *reject_value;
	bool reject_unprivileged;
	enum spe_filter_msg reject_msg;
};

static const struct row rows[] = {
	{ SPE_TERM_TS_ENABLE, "1", N1, 0, 0x1, N1, "2", false, SPE_MSG_VALUE_TOO_BIG },
	{ SPE_TERM_PA_ENABLE, "1", N1, 0, 0x2, N1, "1", true, SPE_MSG_NEEDS_PRIVILEGE },
	{ SPE_TERM_PCT_ENABLE, "1", N1, 0, 0x4, N2, "1", true, SPE_MSG_NEEDS_PRIVILEGE },
	{ SPE_TERM_JITTER, "1", N1, 0, 0x10000, N1, "x", false, SPE_MSG_BAD_VALUE },
	{ SPE_TERM_BRANCH_FILTER, "1", N1, 0, 0x100000000, N1, "0x2", false, SPE_MSG_VALUE_TOO_BIG },
	{ SPE_TERM_LOAD_FILTER, "1", N1, 0, 0x200000000, N1, "yes", false, SPE_MSG_BAD_VALUE },
	{ SPE_TERM_STORE_FILTER, "1", N1, 0, 0x400000000, N1, "-1", false, SPE_MSG_BAD_VALUE },
	{ SPE_TERM_DISCARD, "1", N2, 0, 0x800000000, N1, "1", false, SPE_MSG_NEEDS_KERNEL },
	{ SPE_TERM_DISCARD, "1", "cpu:neoverse-v2:614", 0, 0x800000000, "cpu:neoverse-v1:619", "1", false,
	  SPE_MSG_NEEDS_FEATURE },
	{ SPE_TERM_BRANCH_FILTER_MASK, "1", EFT, 0, 0x1000000000, "cpu:neoverse-v2:619", "1", false,
	  SPE_MSG_NEEDS_FEATURE },
	{ SPE_TERM_LOAD_FILTER_MASK, "1", EFT, 0, 0x2000000000, N2, "1", false, SPE_MSG_NEEDS_KERNEL },
	{ SPE_TERM_STORE_FILTER_MASK, "1", EFT, 0, 0x4000000000, "cpu:neoverse-n3:619", "1", false,
	  SPE_MSG_NEEDS_FEATURE },
	{ SPE_TERM_SIMD_FILTER, "1", EFT, 0, 0x8000000000, FDS, "1", false, SPE_MSG_NEEDS_FEATURE },
	{ SPE_TERM_SIMD_FILTER_MASK, "1", EFT, 0, 0x10000000000, N1, "1", false, SPE_MSG_NEEDS_KERNEL },
	{ SPE_TERM_FLOAT_FILTER, "1", EFT, 0, 0x20000000000, FDS, "1", false, SPE_MSG_NEEDS_FEATURE },
	{ SPE_TERM_FLOAT_FILTER_MASK, "1", EFT, 0, 0x40000000000, "cpu:neoverse-n1:618", "1", false,
	  SPE_MSG_NEEDS_FEATURE },
	{ SPE_TERM_EVENT_FILTER, "retired,l1d_refill", N1, 1, 0xa, N1, "not_taken", false, SPE_MSG_EVENT_BITS },
	{ SPE_TERM_EVENT_FILTER, "0x80", N1, 1, 0x80, N1, "retired,bogus", false, SPE_MSG_BAD_VALUE },
	{ SPE_TERM_EVENT_FILTER, "1,3,5", EFT, 1, 0x2a, EFT, "13", false, SPE_MSG_EVENT_BITS },
	{ SPE_TERM_MIN_LATENCY, "10", N1, 2, 0xa, N1, "ten", false, SPE_MSG_BAD_VALUE },
	{ SPE_TERM_MIN_LATENCY, "0xfff", N2, 2, 0xfff, N2, "1x", false, SPE_MSG_BAD_VALUE },
	{ SPE_TERM_INV_EVENT_FILTER, "not_taken", N2, 3, 0x40, N1, "not_taken", false, SPE_MSG_NEEDS_KERNEL },
	{ SPE_TERM_INV_EVENT_FILTER, "l1d_access,l2d_miss", EFT, 3, 0x100004, "cpu:neoverse-n1:619", "0x2", false,
	  SPE_MSG_NEEDS_FEATURE },
	{ SPE_TERM_INV_DATA_SRC_FILTER, "0x5", FDS, 4, 0x5, EFT, "0x5", false, SPE_MSG_NEEDS_KERNEL },
	{ SPE_TERM_INV_DATA_SRC_FILTER, "0,2", FDS, 4, 0x5, "cpu:neoverse-v2:619", "1", false, SPE_MSG_NEEDS_FEATURE },
	{ SPE_TERM_DATA_SRC_FILTER, "0,3", FDS, 4, 0xfffffffffffffff6, N2, "0,3", false, SPE_MSG_NEEDS_KERNEL },
	{ SPE_TERM_DATA_SRC_FILTER, "0,3", V3P, 4, 0x9, "cpu:neoverse-v2:619", "0x9", false, SPE_MSG_NEEDS_FEATURE },
	{ SPE_TERM_DATA_SRC_FILTER, "0x9", FDS, 4, 0xfffffffffffffff6, FDS, "retired", false, SPE_MSG_BAD_VALUE },
	{ SPE_TERM_CONFIG, "0x1", N1, 0, 0x1, N1, "0x1g", false, SPE_MSG_BAD_VALUE },
	{ SPE_TERM_CONFIG1, "0x80", N1, 1, 0x80, N1, "0x40", false, SPE_MSG_EVENT_BITS },
	{ SPE_TERM_CONFIG2, "0x20", N1, 2, 0x20, N1, "", false, SPE_MSG_BAD_VALUE },
	{ SPE_TERM_CONFIG3, "0x80", N2, 3, 0x80, N2, "0x4", false, SPE_MSG_EVENT_BITS },
	{ SPE_TERM_CONFIG4, "0x1", FDS, 4, 0x1, "cpu:neoverse-v2:619", "1", false, SPE_MSG_NEEDS_FEATURE },
};
#define N_ROWS (sizeof rows / sizeof rows[0])

static struct spe_target target_named(const char *name)
{
	if (!strncmp(name, "cpu:", 4)) {
		char cpu[64];
		const char *colon = strrchr(name, ':');
		snprintf(cpu, sizeof cpu, "%.*s", (int)(colon - name - 4), name + 4);
		return profile_target(cpu, (unsigned)atoi(colon + 1));
	}
	return sysfs_target(name);
}

enum spelling { SNAKE_OPT, KEBAB_OPT, BARE_NAME, EVENT_PMU, EVENT_PMU0, N_SPELLINGS };

static void spell(struct spe_filter_request *req, enum spelling s, const char *name, const char *value)
{
	char buf[256], kebab[64];
	snprintf(kebab, sizeof kebab, "%s", name);
	for (char *p = kebab; *p; p++)
		if (*p == '_')
			*p = '-';
	switch (s) {
	case SNAKE_OPT:
		snprintf(buf, sizeof buf, "--%s", name);
		spe_filter_set_term(req, buf, value);
		break;
	case KEBAB_OPT:
		snprintf(buf, sizeof buf, "--%s", kebab);
		spe_filter_set_term(req, buf, value);
		break;
	case BARE_NAME:
		spe_filter_set_term(req, name, value);
		break;
	case EVENT_PMU:
	case EVENT_PMU0:
		snprintf(buf, sizeof buf, "%s/%s%s%s/", s == EVENT_PMU ? "arm_spe" : "arm_spe_0", name, value ? "=" : "",
			 value ? value : "");
		spe_filter_parse_terms(req, buf);
		break;
	default:
		break;
	}
}

static int compile_one(const struct spe_target *t, enum spelling s, enum spe_term term, const char *value,
		       struct spe_filter_result *out)
{
	static struct spe_filter_request req;
	spe_filter_request_init(&req);
	spell(&req, s, spe_term_info(term)->name, value);
	return spe_filter_compile(&req, t, out);
}

TEST(every_term_every_spelling_accepts)
{
	static struct spe_filter_result out;
	for (size_t i = 0; i < N_ROWS; i++) {
		const struct row *r = &rows[i];
		struct spe_target t = target_named(r->target);
		for (int s = 0; s < N_SPELLINGS; s++) {
			int rc = compile_one(&t, s, r->term, r->value, &out);
			if (rc != 0 || out.attr.config[r->word] != r->expect) {
				printf("  row %zu %s=%s on %s, spelling %d: rc %d config%u 0x%llx\n", i,
				       spe_term_info(r->term)->name, r->value, r->target, s, rc, r->word,
				       (unsigned long long)out.attr.config[r->word]);
				for (unsigned k = 0; k < out.diags.count; k++)
					printf("    %s\n", out.diags.d[k].text);
			}
			CHECK_INT_EQ(rc, 0);
			CHECK_U64_EQ(out.attr.config[r->word], r->expect);
			for (unsigned w = 0; w < SPE_CONFIG_WORDS; w++)
				if (w != r->word)
					CHECK_U64_EQ(out.attr.config[w], 0);
			/* Flags also work with no value. */
			if (spe_term_info(r->term)->kind == SPE_TERM_FLAG) {
				CHECK_INT_EQ(compile_one(&t, s, r->term, NULL, &out), 0);
				CHECK_U64_EQ(out.attr.config[r->word], r->expect);
			}
		}
	}
}

TEST(every_term_every_spelling_rejects)
{
	static struct spe_filter_result out;
	for (size_t i = 0; i < N_ROWS; i++) {
		const struct row *r = &rows[i];
		struct spe_target t = target_named(r->reject_target);
		if (r->reject_unprivileged)
			t.privileged = false;
		for (int s = 0; s < N_SPELLINGS; s++) {
			int rc = compile_one(&t, s, r->term, r->reject_value, &out);
			if (rc == 0 || find_diag(&out.diags, r->reject_msg) < 0)
				printf("  row %zu %s=%s on %s, spelling %d: rc %d, wanted %s\n", i,
				       spe_term_info(r->term)->name, r->reject_value, r->reject_target, s, rc,
				       spe_filter_msg_id(r->reject_msg));
			CHECK(rc < 0);
			CHECK_INT_EQ(rc, spe_filter_class_code(out.first_error_class));
			CHECK(find_diag(&out.diags, r->reject_msg) >= 0);
		}
	}
}

TEST(every_term_has_rows)
{
	for (int t = 0; t < SPE_TERM_COUNT; t++) {
		bool found = false;
		for (size_t i = 0; i < N_ROWS; i++)
			found |= rows[i].term == (enum spe_term)t;
		if (!found)
			printf("  no test row for %s\n", spe_term_info(t)->name);
		CHECK(found);
	}
}

/* The hiperf example: 0x0000_0007_0001_0007 (docs/filters.md, sysfs). */
TEST(worked_example_config)
{
	static struct spe_filter_result out;
	struct spe_target t = sysfs_target(N1);
	CHECK_INT_EQ(compile_event(&t,
				   "arm_spe/ts_enable=1,pa_enable=1,pct_enable=1,jitter=1,branch_filter=1,"
				   "load_filter=1,store_filter=1/",
				   false, &out),
		     0);
	CHECK_U64_EQ(out.attr.config[0], 0x0000000700010007ull);

	static struct spe_filter_request req;
	spe_filter_request_init(&req);
	const char *opts[] = { "--ts-enable", "--pa_enable", "--pct-enable", "--jitter", "--branch-filter",
			       "--load_filter", "--store-filter" };
	for (size_t i = 0; i < 7; i++)
		CHECK_INT_EQ(spe_filter_set_term(&req, opts[i], NULL), 0);
	CHECK_INT_EQ(spe_filter_compile(&req, &t, &out), 0);
	CHECK_U64_EQ(out.attr.config[0], 0x0000000700010007ull);
	/* PMSCR: TS(5) PA(4) PCT=01(7:6) CX(3) E1SPE(1) E0SPE(0) = 0x7b; PMSFCR: B LD ST (16-18) + FT(1). */
	CHECK_U64_EQ(out.reg[SPE_REG_PMSCR], 0x7b);
	CHECK_U64_EQ(out.reg[SPE_REG_PMSFCR], 0x70002);
	/* PMSIRR: default period = caps/min_interval 1024, RND(0) from jitter. */
	CHECK_U64_EQ(out.reg[SPE_REG_PMSIRR], 0x401);
}

TEST(terms_combine_into_registers)
{
	static struct spe_filter_result out;
	struct spe_target t = sysfs_target(EFT);
	CHECK_INT_EQ(compile_event(&t,
				   "arm_spe/store_filter=1,simd_filter=1,store_filter_mask=1,simd_filter_mask=1,"
				   "event_filter=retired,l1d_refill,inv_event_filter=mispredicted,min_latency=64/",
				   false, &out),
		     0);
	/* config: ST(34) STm(38) SIMD(39) SIMDm(40). */
	CHECK_U64_EQ(out.attr.config[0], (1ull << 34) | (1ull << 38) | (1ull << 39) | (1ull << 40));
	CHECK_U64_EQ(out.attr.config[1], 0xa);
	CHECK_U64_EQ(out.attr.config[2], 64);
	CHECK_U64_EQ(out.attr.config[3], 0x80);
	CHECK_INT_EQ(out.attr.size, 136);
	/* PMSFCR: ST(18) SIMD(20) STm(50) SIMDm(52) FT(1) FE(0) FL(2) FnE(3). */
	CHECK_U64_EQ(out.reg[SPE_REG_PMSFCR],
		     (1ull << 18) | (1ull << 20) | (1ull << 50) | (1ull << 52) | 0xf);
	CHECK_U64_EQ(out.reg[SPE_REG_PMSEVFR], 0xa);
	CHECK_U64_EQ(out.reg[SPE_REG_PMSNEVFR], 0x80);
	CHECK_U64_EQ(out.reg[SPE_REG_PMSLATFR], 64);
	CHECK_U64_EQ(out.reg[SPE_REG_PMSDSFR], ~0ull);
}

TEST(data_source_keep_mask_registers)
{
	static struct spe_filter_result out;
	struct spe_target fds = sysfs_target(FDS), old = sysfs_target(V3P);
	CHECK_INT_EQ(compile_event(&fds, "arm_spe/data_src_filter=0,3/", false, &out), 0);
	CHECK_INT_EQ(out.attr.size, 144);
	CHECK_U64_EQ(out.reg[SPE_REG_PMSDSFR], 0x9); /* NOT of config4 */
	CHECK_U64_EQ(out.reg[SPE_REG_PMSFCR], 0x10); /* FDS */
	CHECK_INT_EQ(compile_event(&old, "arm_spe/data_src_filter=0,3/", false, &out), 0);
	CHECK_U64_EQ(out.reg[SPE_REG_PMSDSFR], 0x9); /* written as given */
	/* 0 means "no filtering" in both spellings. */
	CHECK_INT_EQ(compile_event(&fds, "arm_spe/data_src_filter=0/", false, &out), 0);
	CHECK_U64_EQ(out.attr.config[4], 0);
	CHECK_INT_EQ(out.attr.size, 128);
	CHECK_U64_EQ(out.reg[SPE_REG_PMSFCR], 0);
}

int main(int argc, char **argv)
{
	fixture_init(argc, argv);
	RUN(every_term_every_spelling_accepts);
	RUN(every_term_every_spelling_rejects);
	RUN(every_term_has_rows);
	RUN(worked_example_config);
	RUN(terms_combine_into_registers);
	RUN(data_source_keep_mask_registers);
	return check_summary();
}
