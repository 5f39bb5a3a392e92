/* SPDX-License-Identifier: Apache-2.0 */
/* Targets: sysfs fixtures, heterogeneous PMU choice, CPU profiles, PMSIDR, parsers. */
#include "check.h"
#include "fixture_target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

static struct spe_system sys;
static char err[512];

static int load(const char *name, unsigned kernel)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/sysfs/%s", fixture_dir(), name);
	err[0] = '\0';
	return spe_system_load_sysfs(path, kernel, false, &sys, err, sizeof err);
}

TEST(sysfs_v1p1_linux_6_1)
{
	CHECK_INT_EQ(load("n1-v1p1-linux6.1", 0), 0);
	const struct spe_target *t = &sys.pmu[0];
	CHECK_INT_EQ(sys.count, 1);
	CHECK_INT_EQ(t->type, 8);
	CHECK_INT_EQ(t->kernel, 601);
	CHECK_INT_EQ(t->pmsver, 2); /* from midr_el1 0x413fd0c1: neoverse-n1, SPEv1.1 */
	CHECK(!t->pmsver_is_lower_bound);
	CHECK_STR_EQ(t->cpu_name, "neoverse-n1");
	CHECK_STR_EQ(t->cpumask_text, "0-3");
	CHECK(!(t->features & SPE_FEAT_BIT(FNE)));
	CHECK(!(t->features & SPE_FEAT_BIT(DISCARD)));
	CHECK(t->features & SPE_FEAT_BIT(FE));
	CHECK(!t->field[SPE_TERM_INV_EVENT_FILTER].present);
	CHECK(!t->evf_probed);
	CHECK_INT_EQ(t->min_interval, 1024);
	char who[160];
	spe_target_describe(t, who, sizeof who);
	CHECK_STR_EQ(who, "arm_spe_0 is SPEv1.1 (neoverse-n1) on Linux 6.1");
}

TEST(sysfs_v1p2_linux_6_16)
{
	CHECK_INT_EQ(load("n2-v1p2-linux6.16", 0), 0);
	const struct spe_target *t = &sys.pmu[0];
	CHECK_INT_EQ(t->pmsver, 3);
	CHECK(t->features & SPE_FEAT_BIT(FNE));
	CHECK(t->features & SPE_FEAT_BIT(DISCARD));
	CHECK(!(t->features & SPE_FEAT_BIT(EFT)));
	CHECK(t->field[SPE_TERM_INV_EVENT_FILTER].present);
	CHECK_INT_EQ(t->field[SPE_TERM_INV_EVENT_FILTER].word, 3);
	CHECK_INT_EQ(t->field[SPE_TERM_DISCARD].lo, 35);
}

TEST(sysfs_v1p4_eft_linux_6_18)
{
	CHECK_INT_EQ(load("v1p4-eft-linux6.18", 0), 0);
	const struct spe_target *t = &sys.pmu[0];
	CHECK_INT_EQ(t->pmsver, 5); /* lower bound from the v1.4 bits of caps/event_filter */
	CHECK(t->pmsver_is_lower_bound);
	CHECK(t->evf_probed);
	CHECK_U64_EQ(t->evf_valid, 0xfe1ffe);
	CHECK(t->features & SPE_FEAT_BIT(EFT));
	CHECK(t->features & SPE_FEAT_BIT(ERND));
	CHECK(t->features & SPE_FEAT_BIT(ARCHINST));
	CHECK(!(t->features & SPE_FEAT_BIT(FDS)));
	CHECK_INT_EQ(t->count_size, 16);
	CHECK_INT_EQ(t->min_interval, 256);
	CHECK_INT_EQ(t->field[SPE_TERM_FLOAT_FILTER_MASK].lo, 42);
}

TEST(sysfs_v1p4_fds_linux_6_19)
{
	CHECK_INT_EQ(load("v1p4-fds-linux6.19", 0), 0);
	const struct spe_target *t = &sys.pmu[0];
	CHECK(t->features & SPE_FEAT_BIT(FDS));
	CHECK(!(t->features & SPE_FEAT_BIT(EFT)));
	CHECK(t->field[SPE_TERM_INV_DATA_SRC_FILTER].present);
	CHECK_INT_EQ(t->field[SPE_TERM_INV_DATA_SRC_FILTER].word, 4);
	CHECK(!t->field[SPE_TERM_DATA_SRC_FILTER].present);
	CHECK_INT_EQ(t->kernel, 619);
}

TEST(kernel_argument_overrides_file)
{
	CHECK_INT_EQ(load("n1-v1p1-linux6.1", 603), 0);
	CHECK_INT_EQ(sys.pmu[0].kernel, 603);
}

TEST(bad_format_names_file_and_offset)
{
	CHECK_INT_EQ(load("bad-format", 0), -spe_bad_input);
	CHECK(strstr(err, "bad-format/format/load_filter: offset 7: expected configN:lo") != NULL);
	CHECK_INT_EQ(load("no-such-fixture", 0), -spe_not_found);
	CHECK(strstr(err, "no-such-fixture") != NULL);
}

TEST(heterogeneous_pick)
{
	CHECK_INT_EQ(load("hetero-linux6.16", 0), 0);
	CHECK_INT_EQ(sys.count, 2);
	CHECK_STR_EQ(sys.pmu[0].pmu, "arm_spe_0");
	CHECK_STR_EQ(sys.pmu[1].pmu, "arm_spe_1");
	CHECK_STR_EQ(sys.pmu[1].cpu_name, "cortex-x3");
	CHECK(sys.pmu[1].features & SPE_FEAT_BIT(FNE));
	CHECK(!(sys.pmu[0].features & SPE_FEAT_BIT(FNE)));
	struct spe_cpuset cpus;
	CHECK_INT_EQ(spe_cpuset_parse("0-1", &cpus, NULL), 0);
	CHECK_INT_EQ(spe_system_pick(&sys, &cpus, "", err, sizeof err), 0);
	CHECK_INT_EQ(spe_cpuset_parse("4-7", &cpus, NULL), 0);
	CHECK_INT_EQ(spe_system_pick(&sys, &cpus, "arm_spe", err, sizeof err), 1);
	CHECK_INT_EQ(spe_system_pick(&sys, &cpus, "arm_spe_1", err, sizeof err), 1);
	CHECK_INT_EQ(spe_system_pick(&sys, &cpus, "arm_spe_0", err, sizeof err), -spe_invalid);
	CHECK(strstr(err, "covers CPUs 0-3 only") != NULL);
	CHECK_INT_EQ(spe_cpuset_parse("3-4", &cpus, NULL), 0);
	CHECK_INT_EQ(spe_system_pick(&sys, &cpus, "", err, sizeof err), -spe_invalid);
	CHECK(strstr(err, "span more than one") != NULL);
	CHECK_INT_EQ(spe_cpuset_parse("9", &cpus, NULL), 0);
	CHECK_INT_EQ(spe_system_pick(&sys, &cpus, "", err, sizeof err), -spe_invalid);
	CHECK(strstr(err, "no SPE PMU covers") != NULL);
	CHECK_INT_EQ(spe_system_pick(&sys, NULL, "", err, sizeof err), -spe_invalid);
	CHECK(strstr(err, "arm_spe_0 (CPUs 0-3) arm_spe_1 (CPUs 4-7)") != NULL);
	CHECK_INT_EQ(spe_system_pick(&sys, NULL, "arm_spe_7", err, sizeof err), -spe_invalid);
	/* The same request, checked against the PMU of the chosen CPUs. */
	static struct spe_filter_result out;
	CHECK_INT_EQ(compile_event(&sys.pmu[1], "arm_spe/inv_event_filter=not_taken/", false, &out), 0);
	CHECK_INT_EQ(compile_event(&sys.pmu[0], "arm_spe/inv_event_filter=not_taken/", false, &out), -spe_unavailable);
}

TEST(profiles)
{
	struct spe_target t;
	for (unsigned i = 0; i < spe_profile_count(); i++) {
		CHECK_INT_EQ(spe_target_from_profile(spe_profile_name(i), 0, &t, err, sizeof err), 0);
		CHECK(t.pmsver >= 2);
		CHECK(spe_profile_source(i) != NULL);
	}
	CHECK_INT_EQ(spe_target_from_profile("neoverse-v2", 0, &t, err, sizeof err), 0);
	CHECK_INT_EQ(t.kernel, SPE_KERNEL_NEWEST);
	CHECK(t.features & SPE_FEAT_BIT(FNE));
	CHECK(t.field[SPE_TERM_INV_EVENT_FILTER].present);
	CHECK(t.field[SPE_TERM_DISCARD].present);
	CHECK(!t.field[SPE_TERM_SIMD_FILTER].present);
	CHECK_INT_EQ(spe_target_from_profile("neoverse-v2", 613, &t, err, sizeof err), 0);
	CHECK(!t.field[SPE_TERM_DISCARD].present); /* discard from 6.14 */
	CHECK_INT_EQ(spe_target_from_profile("neoverse-n1", 0, &t, err, sizeof err), 0);
	CHECK(!(t.features & SPE_FEAT_BIT(FNE)));
	CHECK_INT_EQ(spe_target_from_profile("pentium-4", 0, &t, err, sizeof err), -spe_invalid);
	CHECK(strstr(err, "unknown CPU 'pentium-4'") != NULL);
}

TEST(pmsidr_decode)
{
	struct spe_target t;
	/* FE FT FL ERnd FnE FDS, Interval=5 (1536), CountSize=3 (16-bit), EFT(26), SME(32). */
	uint64_t pmsidr = 0x7 | 1u << 5 | 1u << 6 | 1u << 7 | 5u << 8 | 3u << 16 | 1u << 26 | 1ull << 32;
	CHECK_INT_EQ(spe_target_from_regs(pmsidr, 5, 619, &t), 0);
	CHECK_INT_EQ(t.min_interval, 1536);
	CHECK_INT_EQ(t.count_size, 16);
	uint32_t want = SPE_FEAT_BIT(NONE) | SPE_FEAT_BIT(FE) | SPE_FEAT_BIT(FT) | SPE_FEAT_BIT(FL) |
			SPE_FEAT_BIT(ERND) | SPE_FEAT_BIT(FNE) | SPE_FEAT_BIT(FDS) | SPE_FEAT_BIT(EFT) |
			SPE_FEAT_BIT(SME) | SPE_FEAT_BIT(DISCARD);
	CHECK_U64_EQ(t.features, want);
	CHECK(t.evf_valid & (1ull << 24)); /* SME events */
	CHECK(t.field[SPE_TERM_INV_DATA_SRC_FILTER].present);
	CHECK_INT_EQ(spe_target_from_regs(0x7, 2, 619, &t), 0);
	CHECK_INT_EQ(t.min_interval, 256);
	CHECK_INT_EQ(t.count_size, 12);
	CHECK(!(t.features & SPE_FEAT_BIT(DISCARD)));
	CHECK_INT_EQ(spe_target_from_regs(0x7, 0, 619, &t), -spe_invalid);
	CHECK_INT_EQ(spe_target_from_regs(0x7, 7, 619, &t), -spe_invalid);
}

TEST(kernel_release_parse)
{
	CHECK_INT_EQ(spe_kernel_parse("6.1"), 601);
	CHECK_INT_EQ(spe_kernel_parse("6.19.0-rc3"), 619);
	CHECK_INT_EQ(spe_kernel_parse("5.15.0-91-generic\n"), 515);
	CHECK_INT_EQ(spe_kernel_parse("6"), 0);
	CHECK_INT_EQ(spe_kernel_parse("x.1"), 0);
	CHECK_INT_EQ(spe_kernel_parse("6.100"), 0);
}

TEST(cpuset_parse)
{
	struct spe_cpuset s;
	size_t off = 99;
	CHECK_INT_EQ(spe_cpuset_parse("0-3,8\n", &s, &off), 0);
	CHECK_U64_EQ(s.bits[0], 0x10f);
	CHECK_INT_EQ(spe_cpuset_parse("1023", &s, &off), 0);
	CHECK_U64_EQ(s.bits[15], 1ull << 63);
	CHECK_INT_EQ(spe_cpuset_parse("3-1", &s, &off), -spe_invalid);
	CHECK_INT_EQ(spe_cpuset_parse("0,x", &s, &off), -spe_invalid);
	CHECK_INT_EQ(off, 2);
	CHECK_INT_EQ(spe_cpuset_parse("", &s, &off), -spe_invalid);
	CHECK_INT_EQ(spe_cpuset_parse("1024", &s, &off), -spe_invalid);
	/* From the recorder's former CPU-list parser: repeats, unordered, open ranges. */
	CHECK_INT_EQ(spe_cpuset_parse("3,1,3,2\n", &s, &off), 0);
	CHECK_U64_EQ(s.bits[0], 0xe);
	CHECK_INT_EQ(spe_cpuset_parse("1-", &s, &off), -spe_invalid);
	CHECK_INT_EQ(off, 2);
	CHECK_INT_EQ(spe_cpuset_parse("a", &s, &off), -spe_invalid);
	CHECK_INT_EQ(off, 0);
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* mkdtemp(@p dir) with @p subdir in it; on failure false and dir[0] = 0. */
static bool make_tree(char *dir, const char *subdir)
{
	char path[600];
	if (!mkdtemp(dir)) {
		dir[0] = '\0';
		return false;
	}
	snprintf(path, sizeof path, "%s/%s", dir, subdir);
	return mkdir(path, 0700) == 0;
}

/* Remove @p files (NULL-terminated), then @p subdir, then @p dir itself. */
static void remove_tree(const char *dir, const char *const *files, const char *subdir)
{
	char path[600];
	for (; *files; files++) {
		snprintf(path, sizeof path, "%s/%s", dir, *files);
		unlink(path);
	}
	snprintf(path, sizeof path, "%s/%s", dir, subdir);
	rmdir(path);
	rmdir(dir);
}

/* A PMU without our `kernel` file, read as the live system: uname and /proc. */
TEST(live_kernel_and_privilege)
{
	char dir[] = "/tmp/spe-sysfs-XXXXXX";
	CHECK(make_tree(dir, "format"));
	if (!dir[0])
		return;
	write_file(dir, "type", "8\n");
	write_file(dir, "cpumask", "0\n");
	write_file(dir, "format/load_filter", "config:33\n");
	CHECK_INT_EQ(spe_system_load_sysfs(dir, 0, true, &sys, err, sizeof err), 0);
	CHECK(!sys.pmu[0].kernel_assumed);
	CHECK_STR_EQ(sys.warning, "");
	struct utsname u;
	uname(&u);
	CHECK_INT_EQ(sys.pmu[0].kernel, spe_kernel_parse(u.release));
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int paranoid;
	if (f && fscanf(f, "%d", &paranoid) == 1)
		CHECK_INT_EQ(sys.pmu[0].paranoid, paranoid);
	if (f)
		fclose(f);
	CHECK(sys.pmu[0].field[SPE_TERM_LOAD_FILTER].present);
	CHECK(!sys.pmu[0].field[SPE_TERM_EVENT_FILTER].present);
	/* A broken number names the file and offset. */
	write_file(dir, "type", "8x\n");
	CHECK_INT_EQ(spe_system_load_sysfs(dir, 0, true, &sys, err, sizeof err), -spe_bad_input);
	CHECK(strstr(err, "/type: offset 1: expected one number") != NULL);
	write_file(dir, "type", "8\n");
	write_file(dir, "cpumask", "0-\n");
	CHECK_INT_EQ(spe_system_load_sysfs(dir, 0, true, &sys, err, sizeof err), -spe_bad_input);
	CHECK(strstr(err, "/cpumask: offset 2") != NULL);
	static const char *const files[] = { "type", "cpumask", "format/load_filter", NULL };
	remove_tree(dir, files, "format");
}

/* caps/ values no driver prints are refused, naming the file and the value. */
TEST(caps_values_are_checked)
{
	char dir[] = "/tmp/spe-caps-XXXXXX", sub[600];
	CHECK(make_tree(dir, "caps"));
	if (!dir[0])
		return;
	write_file(dir, "type", "8\n");
	static const struct {
		const char *file, *value, *msg; /* msg NULL: accepted */
	} cases[] = {
		{ "caps/min_interval", "7\n", "caps/min_interval: 7 is not a minimum interval PMSIDR_EL1.Interval encodes" },
		{ "caps/min_interval", "1280\n", "caps/min_interval: 1280 is not a minimum interval" },
		{ "caps/min_interval", "3072\n", NULL },
		{ "caps/count_size", "99999\n", "caps/count_size: 99999 is not a counter size the driver shows (12 or 16)" },
		{ "caps/count_size", "16\n", NULL },
		{ "caps/ernd", "2\n", "caps/ernd: 2 is not 0 or 1" },
		{ "caps/arch_inst", "1\n", NULL },
		{ "caps/event_filter", "0x100000002\n", "caps/event_filter: 0x100000002 sets bits 0x100000000 that are RAZ/WI" },
		{ "caps/event_filter", "0x3\n", "sets bits 0x1 that are RAZ/WI" },
		{ "caps/event_filter", "0xffff0000fefffffe\n", NULL },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		write_file(dir, cases[i].file, cases[i].value);
		err[0] = '\0';
		int rc = spe_system_load_sysfs(dir, 619, false, &sys, err, sizeof err);
		CHECK_INT_EQ(rc, cases[i].msg ? -spe_bad_input : 0);
		if (cases[i].msg && !strstr(err, cases[i].msg))
			printf("  %s=%s: got '%s'\n", cases[i].file, cases[i].value, err);
		CHECK(!cases[i].msg || strstr(err, cases[i].msg) != NULL);
		if (cases[i].msg) { /* put a valid value back for the next case */
			snprintf(sub, sizeof sub, "%s/%s", dir, cases[i].file);
			unlink(sub);
		}
	}
	CHECK_INT_EQ(sys.pmu[0].min_interval, 3072);
	CHECK_INT_EQ(sys.pmu[0].count_size, 16);
	static const char *const files[] = { "caps/min_interval", "caps/count_size", "caps/arch_inst",
					     "caps/event_filter", "type", NULL };
	remove_tree(dir, files, "caps");
}

/*
 * A copy holding only what the kernel shows (type, cpumask, format/, caps/):
 * the newest modelled rules, flagged so the caller warns.
 */
TEST(copy_without_kernel_file_assumes_newest)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/sysfs/n1-v1p1-no-kernel-file", fixture_dir());
	CHECK_INT_EQ(spe_system_load_sysfs(path, 0, false, &sys, err, sizeof err), 0);
	CHECK_INT_EQ(sys.pmu[0].kernel, SPE_KERNEL_NEWEST);
	CHECK(sys.pmu[0].kernel_assumed);
	CHECK(strstr(sys.warning, "n1-v1p1-no-kernel-file: no 'kernel' file and not under /sys: assuming Linux 6.19") != NULL);
	CHECK(strstr(sys.warning, "--kernel=X.Y") != NULL);
	/* --kernel wins, and then there is nothing to warn about */
	CHECK_INT_EQ(spe_system_load_sysfs(path, 601, false, &sys, err, sizeof err), 0);
	CHECK_INT_EQ(sys.pmu[0].kernel, 601);
	CHECK(!sys.pmu[0].kernel_assumed);
	CHECK_STR_EQ(sys.warning, "");
	/* a fixture with the file: no warning either */
	CHECK_INT_EQ(load("n1-v1p1-linux6.1", 0), 0);
	CHECK_STR_EQ(sys.warning, "");
}

/* A tree under /sys is the running system's, whatever the caller says: uname's release. */
TEST(tree_under_sys_uses_uname)
{
	CHECK(spe_sysfs_is_live("/sys/bus/event_source/devices"));
	CHECK(spe_sysfs_is_live("/sys/../sys/bus"));
	CHECK(!spe_sysfs_is_live(fixture_dir()));
	CHECK(!spe_sysfs_is_live("/sysx"));
	CHECK(!spe_sysfs_is_live("no/such/dir"));
	/* Any PMU under /sys has `type`; its format/ and caps/ may be absent. */
	const char *pmu = "/sys/bus/event_source/devices/software";
	if (access(pmu, R_OK) != 0)
		return;
	CHECK_INT_EQ(spe_system_load_sysfs(pmu, 0, false, &sys, err, sizeof err), 0);
	struct utsname u;
	uname(&u);
	CHECK_INT_EQ(sys.pmu[0].kernel, spe_kernel_parse(u.release));
	CHECK(!sys.pmu[0].kernel_assumed);
	CHECK_STR_EQ(sys.warning, "");
}

/*
 * Every part the issue names has a row in filters/src/profile.c: a row's
 * name that drifted from facts.h would silently give the architectural
 * defaults (minimum interval 4096) instead of the row's 1024.
 */
TEST(profile_rows_match_facts_names)
{
	static const char *const parts[] = { "neoverse-n1", "neoverse-n2", "neoverse-n3",
					     "neoverse-v1", "neoverse-v2", "neoverse-v3" };
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		struct spe_target t;
		char msg[256];
		CHECK_INT_EQ(spe_target_from_profile(parts[i], 601, &t, msg, sizeof msg), 0);
		CHECK_STR_EQ(t.cpu_name, parts[i]);
		CHECK_INT_EQ(t.min_interval, 1024);
	}
	/* a facts.h part without a profile row: the architectural minimum */
	struct spe_target t;
	char msg[256];
	CHECK_INT_EQ(spe_target_from_profile("cortex-a720", 601, &t, msg, sizeof msg), 0);
	CHECK_INT_EQ(t.min_interval, 4096);
}

int main(int argc, char **argv)
{
	fixture_init(argc, argv);
	RUN(sysfs_v1p1_linux_6_1);
	RUN(profile_rows_match_facts_names);
	RUN(sysfs_v1p2_linux_6_16);
	RUN(sysfs_v1p4_eft_linux_6_18);
	RUN(sysfs_v1p4_fds_linux_6_19);
	RUN(kernel_argument_overrides_file);
	RUN(bad_format_names_file_and_offset);
	RUN(heterogeneous_pick);
	RUN(profiles);
	RUN(pmsidr_decode);
	RUN(kernel_release_parse);
	RUN(cpuset_parse);
	RUN(live_kernel_and_privilege);
	RUN(copy_without_kernel_file_assumes_newest);
	RUN(caps_values_are_checked);
	RUN(tree_under_sys_uses_uname);
	return check_summary();
}
