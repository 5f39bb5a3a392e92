/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The live path's use of libspe_filters: the PMU that covers the -C CPUs on
 * a heterogeneous sysfs fixture, its CPUs as the open list, and every attr
 * word, attr size, period and exclude flag of the compiled filters in the
 * perf_event_attr spe_live_open() would pass (built, never opened).
 */
#include "check.h"
#include "common/record_run.h"
#include "spe/filters.h"
#include "spe/live.h"
#include "spe/rec_output.h"
#include "spe/spe.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

/* perf_event_attr layout (uapi): offsets and bits of the flags word at 40. */
#define ATTR_FLAG_DISABLED (1ull << 0)
#define ATTR_FLAG_INHERIT (1ull << 1)
#define ATTR_FLAG_EXCLUDE_USER (1ull << 4)
#define ATTR_FLAG_EXCLUDE_KERNEL (1ull << 5)
#define ATTR_FLAG_ENABLE_ON_EXEC (1ull << 12)

static const char *fixtures;
static struct spe_system sys;
static struct spe_target target;
static struct spe_filter_result res;
static uint32_t cpus[SPE_LIVE_MAX_CPUS];

static uint32_t u32_at(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

static uint64_t u64_at(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static int load(const char *name)
{
	char dir[512], err[512];
	snprintf(dir, sizeof dir, "%s/sysfs/%s", fixtures, name);
	int r = spe_system_load_sysfs(dir, 0, false, &sys, err, sizeof err);
	if (r)
		printf("  %s\n", err);
	return r;
}

/* Pick the PMU for @p cpu_text ("" = by name @p pmu) and compile @p terms for it. */
static int pick_and_compile(const char *cpu_text, struct spe_cpuset *set, const char *pmu, const char *terms)
{
	char err[512];
	size_t off;
	if (cpu_text[0] && spe_cpuset_parse(cpu_text, set, &off))
		return -1;
	int i = spe_system_pick(&sys, cpu_text[0] ? set : NULL, pmu, err, sizeof err);
	if (i < 0)
		return -1;
	target = sys.pmu[i];
	target.privileged = true;
	struct spe_filter_request req;
	spe_filter_request_init(&req);
	if (spe_filter_parse_terms(&req, terms))
		return -1;
	return spe_filter_compile(&req, &target, &res);
}

TEST(hetero_cpus_pick_the_pmu)
{
	CHECK_INT_EQ(load("hetero-linux6.16"), 0);
	CHECK_INT_EQ(sys.count, 2);
	struct spe_cpuset set;
	/* -C 5: CPU 5 is arm_spe_1's (type 13), not the lowest-named PMU's. */
	CHECK_INT_EQ(pick_and_compile("5", &set, "", "arm_spe/load_filter=1,period=8192/k"), 0);
	CHECK_STR_EQ(target.pmu, "arm_spe_1");
	struct record_run_opts o = { .prog = "test", .cpus = &set, .target = &target, .filters = &res };
	struct spe_live_config lc;
	CHECK_INT_EQ(cli_record_run_live_config(&o, &lc, cpus), 0);
	CHECK_INT_EQ(lc.mode, SPE_LIVE_CPUS);
	CHECK_INT_EQ(lc.pmu_type, 13);
	CHECK_INT_EQ(lc.n_cpus, 1);
	CHECK_INT_EQ(lc.cpus[0], 5);

	uint8_t a[SPE_LIVE_ATTR_MAX];
	uint32_t size = spe_live_spe_attr(&lc, a);
	CHECK_INT_EQ(size, res.attr.size);
	CHECK_INT_EQ(u32_at(a), 13);                        /* type */
	CHECK_INT_EQ(u32_at(a + 4), size);                  /* size */
	CHECK_U64_EQ(u64_at(a + 8), res.attr.config[0]);    /* config */
	CHECK(u64_at(a + 8) >> 33 & 1);                     /* load_filter: config:33 */
	CHECK_U64_EQ(u64_at(a + 16), 8192);                 /* sample_period */
	uint64_t flags = u64_at(a + 40);
	/* "/k": kernel only, so exclude_user as perf's modifier means */
	CHECK_INT_EQ(!!(flags & ATTR_FLAG_EXCLUDE_USER), res.attr.exclude_user);
	CHECK(res.attr.exclude_user && !res.attr.exclude_kernel);
	CHECK(!(flags & ATTR_FLAG_EXCLUDE_KERNEL));
	CHECK(flags & ATTR_FLAG_DISABLED);
	CHECK(!(flags & ATTR_FLAG_INHERIT));

	/* No -C, the PMU named: its whole cpumask (0-3) is the open list. */
	CHECK_INT_EQ(pick_and_compile("", &set, "arm_spe_0", "arm_spe_0//"), 0);
	o.cpus = NULL;
	CHECK_INT_EQ(cli_record_run_live_config(&o, &lc, cpus), 0);
	CHECK_INT_EQ(lc.mode, SPE_LIVE_SYSTEM_WIDE);
	CHECK_INT_EQ(lc.pmu_type, 12);
	CHECK_INT_EQ(lc.n_cpus, 4);
	CHECK_INT_EQ(lc.cpus[0], 0);
	CHECK_INT_EQ(lc.cpus[3], 3);

	/* CPUs across both clusters: the filter library refuses to pick. */
	CHECK(pick_and_compile("2-5", &set, "", "arm_spe//") < 0);
}

TEST(config4_and_attr_size_reach_the_attr)
{
	CHECK_INT_EQ(load("v1p4-fds-linux6.19"), 0);
	struct spe_cpuset set;
	CHECK_INT_EQ(pick_and_compile("", &set, "", "arm_spe/inv_data_src_filter=0x3,inv_event_filter=2/u"), 0);
	CHECK_INT_EQ(res.attr.size, 144);
	CHECK(res.attr.config[4] != 0);
	char *argv[] = { "true", NULL };
	struct record_run_opts o = { .prog = "test", .command = argv, .target = &target, .filters = &res };
	struct spe_live_config lc;
	CHECK_INT_EQ(cli_record_run_live_config(&o, &lc, cpus), 0);
	CHECK_INT_EQ(lc.mode, SPE_LIVE_COMMAND);
	uint8_t a[SPE_LIVE_ATTR_MAX];
	CHECK_INT_EQ(spe_live_spe_attr(&lc, a), 144);
	CHECK_INT_EQ(u32_at(a + 4), 144);
	CHECK_U64_EQ(u64_at(a + 128), res.attr.config[3]);  /* config3 */
	CHECK(u64_at(a + 128) & 2);                         /* inv_event_filter=2: bit 1 */
	CHECK_U64_EQ(u64_at(a + 136), res.attr.config[4]);  /* config4 */
	uint64_t flags = u64_at(a + 40);
	CHECK(flags & ATTR_FLAG_EXCLUDE_KERNEL);             /* "/u" */
	CHECK(!(flags & ATTR_FLAG_EXCLUDE_USER));
	CHECK(flags & ATTR_FLAG_INHERIT);                    /* a command: its children too */
	CHECK(flags & ATTR_FLAG_ENABLE_ON_EXEC);
	CHECK_U64_EQ(u64_at(a + 16), res.attr.sample_period);

	/* A non-zero config4 gets room even if a caller forgot the size. */
	lc.attr_size = 0;
	CHECK_INT_EQ(spe_live_spe_attr(&lc, a), 144);
}

/*
 * A caller at perf_event_paranoid 2 without CAP_PERFMON: perf core refuses
 * exclude_kernel = 0 and PERF_SAMPLE_PHYS_ADDR (EACCES), so the attr that
 * would be opened has neither (and the file's sample_type is unchanged).
 */
TEST(unprivileged_open_is_user_only)
{
	CHECK_INT_EQ(load("n1-v1p1-linux6.1"), 0);
	char *argv[] = { "true", NULL };
	for (int priv = 0; priv <= 1; priv++) {
		target = sys.pmu[0];
		target.paranoid = 2;
		target.privileged = priv;
		struct spe_filter_request req;
		spe_filter_request_init(&req);
		CHECK_INT_EQ(spe_filter_parse_terms(&req, "arm_spe/load_filter=1/"), 0);
		CHECK_INT_EQ(spe_filter_compile(&req, &target, &res), 0);
		struct record_run_opts o = { .prog = "test", .command = argv, .target = &target, .filters = &res };
		struct spe_live_config lc;
		CHECK_INT_EQ(cli_record_run_live_config(&o, &lc, cpus), 0);
		uint8_t a[SPE_LIVE_ATTR_MAX];
		spe_live_spe_attr(&lc, a);
		uint64_t flags = u64_at(a + 40), sample_type = u64_at(a + 24);
		CHECK_INT_EQ(!!(flags & ATTR_FLAG_EXCLUDE_KERNEL), !priv);
		CHECK_INT_EQ(!!(sample_type & SPE_PERF_SAMPLE_PHYS_ADDR), priv);
		CHECK(sample_type & SPE_PERF_SAMPLE_TID); /* the trailer layout is kept */
		CHECK_U64_EQ(sample_type | SPE_PERF_SAMPLE_PHYS_ADDR, spe_rec_output_sample_type());
	}
}

TEST(sideband_only_uses_online_cpus)
{
	struct record_run_opts o = { .prog = "test", .sideband_only = 1 };
	struct spe_live_config lc;
	CHECK_INT_EQ(cli_record_run_live_config(&o, &lc, cpus), 0);
	CHECK_INT_EQ(lc.with_spe, 0);
	CHECK(lc.n_cpus >= 1);
	for (int i = 1; i < lc.n_cpus; i++)
		CHECK(lc.cpus[i] > lc.cpus[i - 1]);
}

/* On this x86 host the live sysfs has no arm_spe: what spe-record's exit 69 rests on. */
TEST(this_machine)
{
	struct utsname un;
	uname(&un);
	char err[512];
	int r = spe_system_load_sysfs("/sys/bus/event_source/devices", 0, true, &sys, err, sizeof err);
	if (strcmp(un.machine, "aarch64"))
		CHECK_INT_EQ(r, -spe_not_found);
	else
		printf("  aarch64: %s\n", r ? err : "arm_spe found");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s FIXTURES_DIR\n", argv[0]);
		return 2;
	}
	fixtures = argv[1];
	RUN(hetero_cpus_pick_the_pmu);
	RUN(config4_and_attr_size_reach_the_attr);
	RUN(unprivileged_open_is_user_only);
	RUN(sideband_only_uses_online_cpus);
	RUN(this_machine);
	return check_summary();
}
