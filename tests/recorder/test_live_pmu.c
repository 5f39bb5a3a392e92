/* SPDX-License-Identifier: Apache-2.0 */
/* PMU discovery (fake sysfs trees and this machine's) and CPU lists. */
#include "check.h"
#include "spe/live.h"
#include "spe/spe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

static char root[256];

static void put(const char *rel, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void dir(const char *rel)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	mkdir(path, 0755);
}

TEST(fake_sysfs)
{
	struct spe_live_pmu pmu;
	dir("cpu");
	put("cpu/type", "4\n");
	CHECK_INT_EQ(spe_live_find_pmu(root, &pmu), -spe_unsupported);
	dir("arm_spe_1");
	put("arm_spe_1/type", "9\n");
	dir("arm_spe_0");
	put("arm_spe_0/type", "8\n");
	put("arm_spe_0/cpumask", "0-3\n");
	dir("arm_spe_0/caps");
	put("arm_spe_0/caps/min_interval", "1024\n");
	CHECK_INT_EQ(spe_live_find_pmu(root, &pmu), 0);
	CHECK_STR_EQ(pmu.name, "arm_spe_0");
	CHECK_INT_EQ(pmu.type, 8);
	CHECK_U64_EQ(pmu.min_interval, 1024);
	CHECK_STR_EQ(pmu.cpumask, "0-3");
	CHECK_INT_EQ(spe_live_find_pmu("/nonexistent", &pmu), -spe_unsupported);
}

/* On a machine without SPE (this x86 CI host) the real sysfs has no arm_spe. */
TEST(this_machine)
{
	struct utsname un;
	uname(&un);
	struct spe_live_pmu pmu;
	int r = spe_live_find_pmu(NULL, &pmu);
	if (strcmp(un.machine, "aarch64"))
		CHECK_INT_EQ(r, -spe_unsupported);
	else
		printf("  aarch64: find_pmu = %d (%s)\n", r, r ? "no SPE" : pmu.name);
}

TEST(cpu_lists)
{
	uint32_t c[16];
	CHECK_INT_EQ(spe_live_parse_cpu_list("0-3,8,10-11", c, 16), 7);
	CHECK_INT_EQ(c[4], 8);
	CHECK_INT_EQ(c[6], 11);
	CHECK_INT_EQ(spe_live_parse_cpu_list("3,1,3,2\n", c, 16), 3);
	CHECK_INT_EQ(c[0], 1);
	CHECK_INT_EQ(c[2], 3);
	CHECK_INT_EQ(spe_live_parse_cpu_list("", c, 16), -spe_invalid);
	CHECK_INT_EQ(spe_live_parse_cpu_list("1-", c, 16), -spe_invalid);
	CHECK_INT_EQ(spe_live_parse_cpu_list("3-1", c, 16), -spe_invalid);
	CHECK_INT_EQ(spe_live_parse_cpu_list("a", c, 16), -spe_invalid);
	CHECK_INT_EQ(spe_live_parse_cpu_list("0-20", c, 16), -spe_invalid);
}

int main(void)
{
	snprintf(root, sizeof root, "/tmp/spe-test-pmu-XXXXXX");
	if (!mkdtemp(root))
		return 1;
	RUN(fake_sysfs);
	RUN(this_machine);
	RUN(cpu_lists);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd))
		printf("could not remove %s\n", root);
	return check_summary();
}
