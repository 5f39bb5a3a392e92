/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The measuring API without hardware: probing fixture sysfs trees, and the
 * read() arithmetic (each metric event reads as its slots).
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "topdown/measure.h"
#include "topdown/perf_metrics.h"

static const char *fixtures;

#define CHECK_NEAR(a, b)                                                                   \
	do {                                                                               \
		double a_ = (a), b_ = (b);                                                 \
		if (fabs(a_ - b_) > 1e-9)                                                  \
			CHECK_FAIL_("%s ~ %s: %.6f != %.6f", #a, #b, a_, b_);              \
	} while (0)

static int probe(const char *tree, int level, struct td_probe *p, char *err, size_t errlen)
{
	char root[1024];
	snprintf(root, sizeof root, "%s/sysroot/%s", fixtures, tree);
	return td_probe(root, level, p, err, errlen);
}

TEST(probe_intel)
{
	struct td_probe p;
	CHECK_INT_EQ(probe("intel-spr", 2, &p, NULL, 0), 0);
	CHECK_INT_EQ(p.kind, TD_PMU_INTEL_METRICS);
	CHECK_INT_EQ(p.level, 2);
	CHECK_INT_EQ(p.n_events, 9);
	CHECK_STR_EQ(p.ev[0].name, "slots");
	CHECK_U64_EQ(p.ev[0].config, 0x0400);
	CHECK_U64_EQ(p.ev[8].config, 0x8700);
	CHECK_STR_EQ(p.cpu, "Intel(R) Xeon(R) Platinum 8480+");
	CHECK_INT_EQ(probe("intel-spr", 1, &p, NULL, 0), 0);
	CHECK_INT_EQ(p.n_events, 5);
	CHECK_INT_EQ(probe("intel-icl", 2, &p, NULL, 0), 0);
	CHECK_INT_EQ(p.level, 1);
}

TEST(probe_arm)
{
	struct td_probe p;
	CHECK_INT_EQ(probe("arm-neoverse-n2", 1, &p, NULL, 0), 0);
	CHECK_INT_EQ(p.kind, TD_PMU_ARM);
	CHECK_INT_EQ(p.slots, 5);
	CHECK_STR_EQ(p.arm_cpu.name, "neoverse-n2");
	CHECK(p.arm_cpu.revision_known && p.arm_cpu.revision == 3); /* MIDR ...d493: r0p3 */
	CHECK_INT_EQ(p.n_events, 7);
	CHECK_U64_EQ(p.ev[3].config, 0x3f);
	CHECK_INT_EQ(p.ev[0].type, 10);
}

TEST(probe_unsupported_names_the_cpu)
{
	struct td_probe p;
	char err[256] = "";
	CHECK_INT_EQ(probe("amd-epyc", 1, &p, err, sizeof err), -spe_unavailable);
	CHECK(strstr(err, "not supported on this CPU (AMD EPYC 7763 64-Core Processor)") != NULL);
	CHECK_INT_EQ(probe("no-such-tree", 1, &p, err, sizeof err), -spe_unavailable);
	CHECK(strstr(err, "(unknown CPU)") != NULL);
}

/*
 * read() path: over 1000 slots the metric events grew by 200 100 300 400
 * (level 1) and 100 100 200 300 (heavy, mispredicts, fetch latency, memory):
 * retiring 0.2 ... memory 0.3; derived light 0.1, clears 0, bandwidth 0.1, core 0.1.
 */
TEST(slot_count_ratios)
{
	double r[8] = { 0.2, 0.1, 0.3, 0.4, 0.1, 0.1, 0.2, 0.3 };
	struct td_values v;
	CHECK_INT_EQ(td_pm_from_ratios(r, 2, &v), 0);
	CHECK_NEAR(v.frac[TD_RETIRING], 0.2);
	CHECK_NEAR(v.frac[TD_BACKEND_BOUND], 0.4);
	CHECK_NEAR(v.frac[TD_LIGHT_OPERATIONS], 0.1);
	CHECK_NEAR(v.frac[TD_MACHINE_CLEARS], 0.0);
	CHECK_NEAR(v.frac[TD_FETCH_BANDWIDTH], 0.1);
	CHECK_NEAR(v.frac[TD_CORE_BOUND], 0.1);
}

/*
 * Opening the fixture's Intel group on this host: without that PMU the kernel
 * refuses, and the error names the event.  An impossible PMU type makes
 * the failure certain on any host.
 */
TEST(open_failure_names_the_event)
{
	struct td_probe p;
	char err[256] = "";
	struct td_session *s = NULL;
	CHECK_INT_EQ(probe("intel-spr", 1, &p, NULL, 0), 0);
	p.ev[0].type = 0x7fff; /* no PMU has this type: the open must fail on any host */
	int rc = td_session_open(&p, 0, 0, &s, err, sizeof err);
	CHECK(rc < 0);
	CHECK(s == NULL);
	CHECK(strstr(err, "perf_event_open(slots): ") != NULL);
	td_session_close(s);
}

int main(int argc, char **argv)
{
	fixtures = argc > 1 ? argv[1] : ".";
	RUN(probe_intel);
	RUN(probe_arm);
	RUN(probe_unsupported_names_the_cpu);
	RUN(slot_count_ratios);
	RUN(open_failure_names_the_event);
	return check_summary();
}
