/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Event resolution: libpmc and perf spellings of the same event agree.
 * Expected encodings are from the tables of docs/topdown-formulas.md §2 and §5 and pmc.westmere(3).
 */
#include "check.h"
#include "topdown/error.h"
#include "topdown/event_table.h"

static uint64_t config_of(const char *spec, enum td_isa isa, char *canon)
{
	struct td_event_code c;
	if (td_event_resolve(spec, isa, &c, canon, 64) != 0)
		return ~0ull;
	return td_event_config(&c);
}

TEST(generated_westmere_table)
{
	char canon[64];
	/* 272 events in data/westmere_events.tsv, from pmc.westmere(3) (docs/topdown-formulas.md §5). */
	CHECK(td_westmere_event_count() > 250);
	CHECK_U64_EQ(config_of("RESOURCE_STALLS.ANY", TD_ISA_X86, canon), 0x01a2);
	/* libpmc "set invert=1, cmask = 1" is part of the event */
	CHECK_U64_EQ(config_of("UOPS_ISSUED.STALLED_CYCLES", TD_ISA_X86, canon), 0x0180010e);
	/* the corrected entries */
	CHECK_U64_EQ(config_of("OFFCORE_REQUESTS.ANY.RFO", TD_ISA_X86, canon), 0x10b0);
	CHECK_U64_EQ(config_of("BR_MISP_RETIRED.ALL_BRANCHES", TD_ISA_X86, canon), 0x04c5);
}

TEST(libpmc_and_perf_syntax_agree)
{
	char a[64], b[64], c[64], d[64];
	uint64_t x = config_of("UOPS_ISSUED.ANY,cmask=1,inv", TD_ISA_X86, a);
	uint64_t y = config_of("event=0x0e,umask=0x01,cmask=1,inv", TD_ISA_X86, b);
	uint64_t z = config_of("cpu/event=0x0e,umask=0x01,cmask=1,inv/", TD_ISA_X86, c);
	uint64_t w = config_of("UOPS_ISSUED.STALLED_CYCLES", TD_ISA_X86, d);
	/* event 0x0e | umask 0x01 << 8 | inv << 23 | cmask 1 << 24 */
	CHECK_U64_EQ(x, 0x0180010eull);
	CHECK_U64_EQ(y, x);
	CHECK_U64_EQ(z, x);
	CHECK_U64_EQ(w, x);
	CHECK_STR_EQ(a, b);
	CHECK_STR_EQ(a, "UOPS_ISSUED.STALL_CYCLES");
	CHECK_U64_EQ(config_of("r02c2", TD_ISA_X86, a), 0x02c2);
	CHECK_STR_EQ(a, "UOPS_RETIRED.RETIRE_SLOTS");
	CHECK_U64_EQ(config_of("uops_retired.retire_slots", TD_ISA_X86, a), 0x02c2);
}

TEST(arm_names)
{
	char a[64];
	CHECK_U64_EQ(config_of("stall_slot_backend", TD_ISA_ARM, a), 0x3d);
	CHECK_STR_EQ(a, "STALL_SLOT_BACKEND");
	CHECK_U64_EQ(config_of("armv8_pmuv3_0/event=0x3e/", TD_ISA_ARM, a), 0x3e);
	CHECK_STR_EQ(a, "STALL_SLOT_FRONTEND");
	CHECK_U64_EQ(config_of("r8162", TD_ISA_ARM, a), 0x8162);
	CHECK_STR_EQ(a, "STALL_FRONTEND_FLUSH");
	CHECK_U64_EQ(config_of("cycles", TD_ISA_ARM, a), 0x11);
	CHECK_STR_EQ(a, "CPU_CYCLES");
}

TEST(errors)
{
	struct td_event_code c;
	CHECK_INT_EQ(td_event_resolve("NO_SUCH.EVENT", TD_ISA_X86, &c, NULL, 0), -spe_unavailable);
	CHECK_INT_EQ(td_event_resolve("UOPS_ISSUED.ANY,bogus=3", TD_ISA_X86, &c, NULL, 0), -spe_invalid);
	CHECK_INT_EQ(td_event_resolve("event=zz", TD_ISA_X86, &c, NULL, 0), -spe_invalid);
	CHECK_INT_EQ(td_event_resolve("", TD_ISA_X86, &c, NULL, 0), -spe_invalid);
}

int main(void)
{
	RUN(generated_westmere_table);
	RUN(libpmc_and_perf_syntax_agree);
	RUN(arm_names);
	RUN(errors);
	return check_summary();
}
