/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every kernel rule (event_init's checks, per release) and every strict
 * check, each with an accept and a reject case.  Expected effective values
 * (periods, dropped words) are worked out from docs/filters.md ("How the kernel driver treats a request").
 */
#include "check.h"
#include "fixture_target.h"

#include <string.h>

#define N1 "n1-v1p1-linux6.1"
#define N2 "n2-v1p2-linux6.16"
#define EFT "v1p4-eft-linux6.18"
#define FDS "v1p4-fds-linux6.19"

static struct spe_filter_result out;

/* Accepted, and message @p m absent. */
static bool clean(const struct spe_target *t, const char *event, enum spe_filter_msg m)
{
	int rc = compile_event(t, event, true, &out);
	if (rc != 0 || find_diag(&out.diags, m) >= 0) {
		printf("  %s: rc %d\n", event, rc);
		for (unsigned i = 0; i < out.diags.count; i++)
			printf("    %s\n", out.diags.d[i].text);
	}
	return rc == 0 && find_diag(&out.diags, m) < 0;
}

/* Rejected with @p m (whose text holds @p text when non-NULL). */
static bool rejected(const struct spe_target *t, const char *event, enum spe_filter_msg m, const char *text)
{
	int rc = compile_event(t, event, false, &out);
	int i = find_diag(&out.diags, m);
	/* the return code is the first error's class: -spe_unavailable, -spe_no_permission, -spe_invalid */
	bool ok = rc < 0 && rc == spe_filter_class_code(out.first_error_class) && i >= 0 && out.diags.d[i].error &&
		  (!text || strstr(out.diags.d[i].text, text));
	if (!ok) {
		printf("  %s: rc %d, wanted %s \"%s\"\n", event, rc, spe_filter_msg_id(m), text ? text : "");
		for (unsigned k = 0; k < out.diags.count; k++)
			printf("    %s\n", out.diags.d[k].text);
	}
	return ok;
}

/* A strict check: a warning by default (accepted), an error with --strict. */
static bool strict_only(const struct spe_target *t, const char *event, enum spe_filter_msg m, const char *text)
{
	int rc = compile_event(t, event, false, &out);
	int i = find_diag(&out.diags, m);
	bool warn = rc == 0 && i >= 0 && !out.diags.d[i].error && (!text || strstr(out.diags.d[i].text, text));
	if (!warn) {
		printf("  %s: rc %d, wanted warning %s \"%s\"\n", event, rc, spe_filter_msg_id(m), text ? text : "");
		for (unsigned k = 0; k < out.diags.count; k++)
			printf("    %s\n", out.diags.d[k].text);
	}
	static struct spe_filter_result strict_out;
	int src = compile_event(t, event, true, &strict_out);
	int si = find_diag(&strict_out.diags, m);
	bool err = src == -spe_invalid && si >= 0 && strict_out.diags.d[si].error &&
		   strict_out.first_error_class == SPE_DIAG_STRICT;
	if (!err)
		printf("  %s --strict: rc %d, not an error\n", event, src);
	return warn && err;
}

/* ---- kernel rules ---- */

TEST(event_bits_by_version)
{
	struct spe_target n1 = sysfs_target(N1);
	CHECK(clean(&n1, "arm_spe/event_filter=mispredicted,misaligned/", SPE_MSG_EVENT_BITS));
	CHECK(rejected(&n1, "arm_spe/event_filter=not_taken/", SPE_MSG_EVENT_BITS,
		       "bit 6 (not_taken) needs SPEv1.2; arm_spe_0 is SPEv1.1 (neoverse-n1) on Linux 6.1"));
	CHECK(rejected(&n1, "arm_spe/event_filter=1/", SPE_MSG_EVENT_BITS, "can never be filtered"));
	CHECK_INT_EQ(out.first_error_class, SPE_DIAG_UNSUPPORTED);
}

TEST(event_bits_by_kernel_release)
{
	struct spe_target n2_61 = profile_target("neoverse-n2", 601), n2_63 = profile_target("neoverse-n2", 603);
	CHECK(rejected(&n2_61, "arm_spe/event_filter=not_taken/", SPE_MSG_EVENT_BITS, "needs Linux 6.3"));
	CHECK(clean(&n2_63, "arm_spe/event_filter=not_taken/", SPE_MSG_EVENT_BITS));
	struct spe_target n1_510 = profile_target("neoverse-n1", 510), n1_512 = profile_target("neoverse-n1", 512);
	CHECK(rejected(&n1_510, "arm_spe/event_filter=misaligned/", SPE_MSG_EVENT_BITS, "needs Linux 5.12"));
	CHECK(clean(&n1_512, "arm_spe/event_filter=misaligned/", SPE_MSG_EVENT_BITS));
	/* v1.4 bits need the 6.18 probing even on v1.4 hardware. */
	struct spe_target v14_617, v14_618;
	spe_target_from_regs(0x7, 5, 617, &v14_617);
	spe_target_from_regs(0x7, 5, 618, &v14_618);
	v14_617.privileged = v14_618.privileged = true;
	CHECK(rejected(&v14_617, "arm_spe/event_filter=l1d_access/", SPE_MSG_EVENT_BITS, "needs Linux 6.18"));
	CHECK(clean(&v14_618, "arm_spe/event_filter=l1d_access/", SPE_MSG_EVENT_BITS));
}

TEST(event_bits_probed_on_6_18)
{
	struct spe_target eft = sysfs_target(EFT); /* caps/event_filter = 0xfe1ffe */
		CHECK(clean(&eft, "arm_spe/event_filter=0x1000/", SPE_MSG_EVENT_BITS));
	CHECK(rejected(&eft, "arm_spe/event_filter=0x2000/", SPE_MSG_EVENT_BITS, "IMPDEF bit 13 is not implemented"));
	CHECK(rejected(&eft, "arm_spe/event_filter=0x10000000000/", SPE_MSG_EVENT_BITS, "bit 40 is reserved"));
	CHECK(rejected(&eft, "arm_spe/event_filter=0x8000000/", SPE_MSG_EVENT_BITS, "reserved from SPEv1.4"));
	CHECK(rejected(&eft, "arm_spe/event_filter=transactional/", SPE_MSG_EVENT_BITS, "needs FEAT_TME"));
}

TEST(inv_event_bits_use_the_pmsevfr_mask)
{
	struct spe_target n2 = sysfs_target(N2);
	CHECK(clean(&n2, "arm_spe/inv_event_filter=not_taken/", SPE_MSG_EVENT_BITS));
	CHECK(rejected(&n2, "arm_spe/inv_event_filter=l1d_access/", SPE_MSG_EVENT_BITS, "needs SPEv1.4"));
}

TEST(config4_needs_fds)
{
	struct spe_target fds = sysfs_target(FDS), v2 = profile_target("neoverse-v2", 619);
	CHECK(clean(&fds, "arm_spe/config4=0x1/", SPE_MSG_NEEDS_FEATURE));
	CHECK(rejected(&v2, "arm_spe/config4=0x1/", SPE_MSG_NEEDS_FEATURE, "FEAT_SPE_FDS"));
}

/* The driver extracts fields it hides; raw bits in them fail on hardware without the feature. */
TEST(raw_bits_of_hidden_fields)
{
	struct spe_target v2_618 = profile_target("neoverse-v2", 618), n1_608 = profile_target("neoverse-n1", 608);
	struct spe_target n1_614 = profile_target("neoverse-n1", 614), n2_614 = profile_target("neoverse-n2", 614);
	struct spe_target eft = sysfs_target(EFT);
	CHECK(clean(&eft, "arm_spe/config=0x8000000000/", SPE_MSG_NEEDS_FEATURE));
	CHECK_U64_EQ(out.reg[SPE_REG_PMSFCR], (1ull << 20) | 0x2); /* SIMD + FT */
	CHECK(rejected(&v2_618, "arm_spe/config=0x8000000000/", SPE_MSG_NEEDS_FEATURE,
		       "config: bits 0x8000000000 are simd_filter, which needs FEAT_SPE_EFT"));
	CHECK(rejected(&n1_608, "arm_spe/config3=0x2/", SPE_MSG_NEEDS_FEATURE, "inv_event_filter, which needs FEAT_SPE_FnE"));
	CHECK(clean(&n2_614, "arm_spe/config=0x800000000/", SPE_MSG_NEEDS_FEATURE));
	CHECK(rejected(&n1_614, "arm_spe/config=0x800000000/", SPE_MSG_NEEDS_FEATURE, "discard, which needs"));
	/* Before the release that has the field, the same bit is only ignored. */
	struct spe_target n1_613 = profile_target("neoverse-n1", 613);
	CHECK(strict_only(&n1_613, "arm_spe/config=0x800000000/", SPE_MSG_STRAY_BITS, "0x800000000"));
}

TEST(frequency_mode_is_einval)
{
	struct spe_target n1 = sysfs_target(N1);
	CHECK(clean(&n1, "arm_spe/period=4096/", SPE_MSG_FREQ_MODE));
	CHECK_U64_EQ(out.attr.sample_period, 4096);
	CHECK(rejected(&n1, "arm_spe/freq=4000/", SPE_MSG_FREQ_MODE, "frequency mode"));
	CHECK_INT_EQ(out.first_error_class, SPE_DIAG_INVALID);
}

TEST(features_from_pmsidr)
{
	struct spe_target all, no_fl, no_fe, no_ft, fne, no_fne;
	spe_target_from_regs(0x7, 2, 619, &all);
	spe_target_from_regs(0x3, 2, 619, &no_fl);
	spe_target_from_regs(0x6, 2, 619, &no_fe);
	spe_target_from_regs(0x5, 2, 619, &no_ft);
	spe_target_from_regs(0x47, 3, 619, &fne);
	spe_target_from_regs(0x07, 3, 619, &no_fne);
	all.privileged = no_fl.privileged = no_fe.privileged = no_ft.privileged = true;
	fne.privileged = no_fne.privileged = true;
	CHECK(clean(&all, "arm_spe/min_latency=10,event_filter=2,load_filter=1/", SPE_MSG_NEEDS_FEATURE));
	CHECK(rejected(&no_fl, "arm_spe/min_latency=10/", SPE_MSG_NEEDS_FEATURE, "PMSIDR_EL1.FL"));
	CHECK(rejected(&no_fe, "arm_spe/event_filter=2/", SPE_MSG_NEEDS_FEATURE, "PMSIDR_EL1.FE"));
	CHECK(rejected(&no_ft, "arm_spe/load_filter=1/", SPE_MSG_NEEDS_FEATURE, "PMSIDR_EL1.FT"));
	CHECK(clean(&fne, "arm_spe/inv_event_filter=2/", SPE_MSG_NEEDS_FEATURE));
	CHECK(rejected(&no_fne, "arm_spe/inv_event_filter=2/", SPE_MSG_NEEDS_FEATURE, "FEAT_SPE_FnE"));
}

TEST(feature_message_names_option_feature_and_target)
{
	struct spe_target n1 = profile_target("neoverse-n1", 619);
	CHECK(rejected(&n1, "arm_spe/inv_event_filter=not_taken/", SPE_MSG_NEEDS_FEATURE,
		       "inv_event_filter: needs FEAT_SPE_FnE (SPEv1.2); arm_spe_0 is SPEv1.1 (neoverse-n1)"));
}

TEST(missing_format_file_on_sysfs)
{
	struct spe_target eft = sysfs_target(EFT);
	CHECK(clean(&eft, "arm_spe/float_filter=1/", SPE_MSG_NO_FIELD));
	eft.field[SPE_TERM_FLOAT_FILTER].present = false; /* EFT shown, this file not */
	/* The message names the release and feature of the field and what the target shows instead. */
	CHECK(rejected(&eft, "arm_spe/float_filter=1/", SPE_MSG_NO_FIELD,
		       "float_filter: arm_spe_0 has no format/float_filter, the field Linux 6.18 added for "
		       "FEAT_SPE_EFT (SPEv1.4); it shows FEAT_SPE_EFT only through format/branch_filter_mask; "
		       "arm_spe_0 is SPEv1.4 or later on Linux 6.18"));
	/* A kernel with the early FDS patch: the keep-mask spelling is the way. */
	struct spe_target v3 = sysfs_target("v1p4-fds-v3patch-linux6.19");
	CHECK(rejected(&v3, "arm_spe/inv_data_src_filter=1/", SPE_MSG_NO_FIELD,
		       "inv_data_src_filter: arm_spe_0 has no format/inv_data_src_filter, the field Linux 6.19 "
		       "added for FEAT_SPE_FDS (SPEv1.4); it has format/data_src_filter instead (the keep-mask of "
		       "the early FDS patches): give the sources to keep as data_src_filter"));
	CHECK(clean(&v3, "arm_spe/data_src_filter=0xfe/", SPE_MSG_NO_FIELD));
}

TEST(privilege_by_kernel_release)
{
	struct spe_target t612 = profile_target("neoverse-n1", 612), t611 = profile_target("neoverse-n1", 611);
	t612.privileged = t611.privileged = false;
	t612.paranoid = 1;
	CHECK(clean(&t612, "arm_spe/pa_enable=1/", SPE_MSG_NEEDS_PRIVILEGE));
	t612.paranoid = 2;
	CHECK(rejected(&t612, "arm_spe/pa_enable=1/", SPE_MSG_NEEDS_PRIVILEGE, "perf_event_paranoid=2"));
	CHECK_INT_EQ(out.first_error_class, SPE_DIAG_PRIVILEGE);
	t612.privileged = true;
	CHECK(clean(&t612, "arm_spe/pa_enable=1,pct_enable=1,ts_enable=1/", SPE_MSG_NEEDS_PRIVILEGE));
	t611.paranoid = 1;
	CHECK(rejected(&t611, "arm_spe/pct_enable=1/", SPE_MSG_NEEDS_PRIVILEGE, "needs CAP_PERFMON (Linux 6.11"));
	t611.privileged = true;
	CHECK(clean(&t611, "arm_spe/pct_enable=1,ts_enable=1/", SPE_MSG_NEEDS_PRIVILEGE));
}

/* --list-filters' "yes, if privileged" is exactly where compile refuses for privilege, same text. */
TEST(term_needs_privilege_matches_compile)
{
	static const unsigned kernels[] = { 601, 611, 612, 619 };
	for (size_t k = 0; k < 4; k++) {
		for (int paranoid = -1; paranoid <= 2; paranoid++) {
			for (int priv = 0; priv <= 1; priv++) {
				struct spe_target t = profile_target("neoverse-n2", kernels[k]);
				t.paranoid = paranoid;
				t.privileged = priv;
				for (enum spe_term p = SPE_TERM_TS_ENABLE; p <= SPE_TERM_PCT_ENABLE; p++) {
					char why[256] = "", event[64];
					bool needs = spe_term_needs_privilege(&t, p, why, sizeof why);
					snprintf(event, sizeof event, "arm_spe/%s=1,ts_enable=1/", spe_term_info(p)->name);
					compile_event(&t, event, false, &out);
					int i = find_diag(&out.diags, SPE_MSG_NEEDS_PRIVILEGE);
					CHECK_INT_EQ(needs, i >= 0);
					if (needs && i >= 0)
						CHECK(strstr(out.diags.d[i].text, why) != NULL);
				}
			}
		}
	}
	struct spe_target t = profile_target("neoverse-n2", 612);
	t.privileged = false;
	char why[256];
	CHECK(spe_term_needs_privilege(&t, SPE_TERM_PA_ENABLE, why, sizeof why));
	CHECK(!spe_term_needs_privilege(&t, SPE_TERM_LOAD_FILTER, why, sizeof why));
}

/* ---- strict checks ---- */

TEST(strict_min_latency_width)
{
	struct spe_target n2 = sysfs_target(N2);
	CHECK(clean(&n2, "arm_spe/min_latency=4095/", SPE_MSG_MINLAT_WIDE));
	CHECK(strict_only(&n2, "arm_spe/min_latency=4096/", SPE_MSG_MINLAT_WIDE, "the kernel keeps 0"));
	CHECK_U64_EQ(out.attr.config[2], 0);
}

TEST(strict_event_overlap)
{
	struct spe_target n2 = sysfs_target(N2);
	CHECK(clean(&n2, "arm_spe/event_filter=0x2,inv_event_filter=0x80/", SPE_MSG_EVENT_OVERLAP));
	CHECK(strict_only(&n2, "arm_spe/event_filter=0x82,inv_event_filter=0x80/", SPE_MSG_EVENT_OVERLAP,
			  "bits 0x80"));
}

TEST(strict_mask_without_type)
{
	struct spe_target eft = sysfs_target(EFT);
	CHECK(clean(&eft, "arm_spe/load_filter=1,load_filter_mask=1/", SPE_MSG_MASK_NO_TYPE));
	CHECK(strict_only(&eft, "arm_spe/load_filter_mask=1/", SPE_MSG_MASK_NO_TYPE, "without load_filter"));
	CHECK(strict_only(&eft, "arm_spe/float_filter_mask=1/", SPE_MSG_MASK_NO_TYPE, "without float_filter"));
}

TEST(strict_impdef_before_6_18)
{
	struct spe_target n2 = sysfs_target(N2), eft = sysfs_target(EFT);
	CHECK(clean(&n2, "arm_spe/event_filter=0x2/", SPE_MSG_IMPDEF_UNCHECKED));
	CHECK(clean(&eft, "arm_spe/event_filter=0x1000/", SPE_MSG_IMPDEF_UNCHECKED));
	CHECK(strict_only(&n2, "arm_spe/event_filter=0x1000/", SPE_MSG_IMPDEF_UNCHECKED, "bits 0x1000"));
	CHECK(strict_only(&n2, "arm_spe/inv_event_filter=0x1000000000000/", SPE_MSG_IMPDEF_UNCHECKED, "0x1000000000000"));
}

TEST(strict_stray_bits)
{
	struct spe_target n1 = sysfs_target(N1), n2 = sysfs_target(N2);
	CHECK(clean(&n1, "arm_spe/config=0x1/", SPE_MSG_STRAY_BITS));
	CHECK(strict_only(&n1, "arm_spe/config=0x9/", SPE_MSG_STRAY_BITS, "bits 0x8"));
	/* EFT bit 36 on a kernel without EFT: silently ignored by the driver. */
	CHECK(strict_only(&n2, "arm_spe/config=0x1000000000/", SPE_MSG_STRAY_BITS, "0x1000000000"));
	CHECK(strict_only(&n1, "arm_spe/config2=0x1000/", SPE_MSG_STRAY_BITS, "config2"));
}

TEST(strict_period)
{
	struct spe_target n1 = sysfs_target(N1), n2 = sysfs_target(N2), eft = sysfs_target(EFT);
	struct spe_target n1_617 = profile_target("neoverse-n1", 617);
	CHECK(clean(&n2, "arm_spe/period=1024/", SPE_MSG_PERIOD_ROUNDED));
	CHECK_U64_EQ(out.reg[SPE_REG_PMSIRR], 1024);
	CHECK(strict_only(&eft, "arm_spe/period=1000/", SPE_MSG_PERIOD_ROUNDED, "programs 768"));
	CHECK_U64_EQ(out.effective_period, 768);
	CHECK_U64_EQ(out.attr.sample_period, 1000);
	/* Before 6.17 a period below caps/min_interval is raised to it. */
	CHECK(strict_only(&n1, "arm_spe/period=512/", SPE_MSG_PERIOD_LOW, "raises it to 1024"));
	CHECK_U64_EQ(out.effective_period, 1024);
	CHECK(strict_only(&n1, "arm_spe/period=7/", SPE_MSG_PERIOD_LOW,
			  "7 is below caps/min_interval=1024; Linux 6.1 raises it to 1024"));
	CHECK_U64_EQ(out.effective_period, 1024);
	/* From 6.17 min_interval is a recommendation; 256 is the floor. */
	CHECK(clean(&eft, "arm_spe/period=512/", SPE_MSG_PERIOD_LOW));
	CHECK(strict_only(&n1_617, "arm_spe/period=512/", SPE_MSG_PERIOD_LOW, "programs 512"));
	CHECK_U64_EQ(out.effective_period, 512);
	CHECK(strict_only(&n1_617, "arm_spe/period=100/", SPE_MSG_PERIOD_LOW, "programs 256"));
	CHECK(clean(&n2, "arm_spe/period=0xffffff00/", SPE_MSG_PERIOD_HIGH));
	CHECK(strict_only(&n2, "arm_spe/period=0x100000000/", SPE_MSG_PERIOD_HIGH, "programs 4294967040"));
	CHECK_U64_EQ(out.reg[SPE_REG_PMSIRR], 0xffffff00);
	/* No period: perf's default, caps/min_interval. */
	CHECK(clean(&n2, NULL, SPE_MSG_PERIOD_LOW));
	CHECK_U64_EQ(out.attr.sample_period, 1024);
}

TEST(strict_config_word_too_new)
{
	struct spe_target n1 = sysfs_target(N1), n2 = sysfs_target(N2);
	CHECK(clean(&n2, "arm_spe/config3=0x80/", SPE_MSG_WORD_TOO_NEW));
	CHECK_INT_EQ(out.attr.size, 136);
	CHECK(strict_only(&n1, "arm_spe/config3=0x80/", SPE_MSG_WORD_TOO_NEW, "Linux 6.1 has no config3"));
	CHECK_U64_EQ(out.attr.config[3], 0);
	CHECK_INT_EQ(out.attr.size, 128);
	CHECK(strict_only(&n2, "arm_spe/config4=0x1/", SPE_MSG_WORD_TOO_NEW, "no config4 (added in 6.19)"));
	CHECK_INT_EQ(out.attr.size, 128);
}

TEST(strict_context_dropped)
{
	struct spe_target n2 = sysfs_target(N2);
	CHECK(clean(&n2, NULL, SPE_MSG_CONTEXT_DROPPED));
	CHECK_U64_EQ(out.reg[SPE_REG_PMSCR] & 0x8, 0x8);
	n2.privileged = false;
	n2.paranoid = 2;
	CHECK(strict_only(&n2, NULL, SPE_MSG_CONTEXT_DROPPED, "no CONTEXT packets"));
	CHECK_U64_EQ(out.reg[SPE_REG_PMSCR] & 0x8, 0);
	n2.paranoid = 1; /* 6.16: perf_allow_kernel() */
	CHECK(clean(&n2, NULL, SPE_MSG_CONTEXT_DROPPED));
}

TEST(strict_exclude_all)
{
	struct spe_target n2 = sysfs_target(N2);
	CHECK(clean(&n2, "arm_spe/ts_enable=1/u", SPE_MSG_EXCLUDE_ALL));
	CHECK(out.attr.exclude_kernel && !out.attr.exclude_user);
	CHECK_U64_EQ(out.reg[SPE_REG_PMSCR], 0x29); /* TS, CX, E0SPE */
	static struct spe_filter_request req;
	spe_filter_request_init(&req);
	req.exclude_user = req.exclude_kernel = true;
	CHECK_INT_EQ(spe_filter_compile(&req, &n2, &out), 0);
	CHECK(find_diag(&out.diags, SPE_MSG_EXCLUDE_ALL) >= 0);
	req.strict = true;
	CHECK_INT_EQ(spe_filter_compile(&req, &n2, &out), -spe_invalid);
}

TEST(strict_pct_without_ts)
{
	struct spe_target n2 = sysfs_target(N2);
	CHECK(clean(&n2, "arm_spe/pct_enable=1,ts_enable=1/", SPE_MSG_PCT_WITHOUT_TS));
	CHECK(strict_only(&n2, "arm_spe/pct_enable=1/", SPE_MSG_PCT_WITHOUT_TS, "without ts_enable"));
}

int main(int argc, char **argv)
{
	fixture_init(argc, argv);
	RUN(event_bits_by_version);
	RUN(event_bits_by_kernel_release);
	RUN(event_bits_probed_on_6_18);
	RUN(inv_event_bits_use_the_pmsevfr_mask);
	RUN(config4_needs_fds);
	RUN(raw_bits_of_hidden_fields);
	RUN(frequency_mode_is_einval);
	RUN(features_from_pmsidr);
	RUN(feature_message_names_option_feature_and_target);
	RUN(missing_format_file_on_sysfs);
	RUN(privilege_by_kernel_release);
	RUN(term_needs_privilege_matches_compile);
	RUN(strict_min_latency_width);
	RUN(strict_event_overlap);
	RUN(strict_mask_without_type);
	RUN(strict_impdef_before_6_18);
	RUN(strict_stray_bits);
	RUN(strict_period);
	RUN(strict_config_word_too_new);
	RUN(strict_context_dropped);
	RUN(strict_exclude_all);
	RUN(strict_pct_without_ts);
	return check_summary();
}
