/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The public raw samples in fixtures/public/ decode to the values their
 * publishers assert (spe-public-data/decoded/, fixtures/public/PROVENANCE.md).
 */
#include "check.h"
#include "test_util.h"

static const char *dir;

static uint8_t *load(const char *name, size_t *len)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	uint8_t *buf = test_read_file(path, len);
	if (!buf)
		CHECK_FAIL_("cannot read %s", path);
	return buf;
}

/* Descriptions of the dump lines, in order, joined by " | " (the published form). */
static void descriptions(const uint8_t *buf, size_t len, enum spe_dialect d, char *out, size_t size)
{
	static struct test_text t;
	size_t n = 0;
	out[0] = '\0';
	test_dump(buf, len, d, 0, &t);
	for (char *line = strtok(t.buf, "\n"); line; line = strtok(NULL, "\n")) {
		const char *desc = line + 62; /* perf's description column */
		if (!strcmp(desc, "PAD"))
			continue;
		n += (size_t)snprintf(out + n, size - n, "%s%s", n ? " | " : "", desc);
		if (n >= size)
			break;
	}
}

TEST(quipper_two_records)
{
	size_t len;
	uint8_t *buf = load("quipper-test_neoverse_2records.bin", &len);
	struct spe_record r[4];
	struct spe_rec_stats st;
	char text[2048];
	if (!buf)
		return;
	CHECK_INT_EQ(len, 128);
	descriptions(buf, len, SPE_DIALECT_PERF_6_1, text, sizeof text);
	CHECK_STR_EQ(text, "PC 0xffba66eda1c2d0 el2 ns=1 | CONTEXT 0x5f80 el2 | LD GP-REG | EV RETIRED L1D-ACCESS TLB-ACCESS"
			   " | LAT 4 ISSUE | LAT 12 TOT | VA 0xff0e3703096b28 | LAT 1 XLAT | DATA-SOURCE 0 | TS 44731163950"
			   " | PC 0xffba66edefb0e0 el2 ns=1 | CONTEXT 0xe el2 | B COND | EV RETIRED NOT-TAKEN"
			   " | LAT 16 ISSUE | LAT 17 TOT | TGT 0xffba66edefb0e4 el2 ns=1 | TS 44731164045");
	CHECK_INT_EQ(test_records(buf, len, r, 4, &st), 2);
	CHECK_U64_EQ(st.bad_bytes, 0);
	CHECK_U64_EQ(r[0].pc.addr, 0xffffba66eda1c2d0);
	CHECK_INT_EQ(r[0].total_latency, 12);
	CHECK_INT_EQ(r[0].issue_latency, 4);
	CHECK_INT_EQ(r[0].translation_latency, 1);
	CHECK_INT_EQ(r[0].op_class, SPE_OP_CLASS_LOAD);
	CHECK_U64_EQ(r[0].context, 0x5f80);
	CHECK_INT_EQ(r[0].context_index, SPE_CTX_EL2);
	CHECK_U64_EQ(r[0].timestamp, 44731163950);
	CHECK_U64_EQ(r[0].data_source, 0);
	CHECK(r[0].has & SPE_HAS_DATA_SOURCE);
	CHECK_U64_EQ(r[0].events, (1u << SPE_EV_RETIRED) | (1u << SPE_EV_L1D_ACCESS) | (1u << SPE_EV_TLB_ACCESS));
	/* branch-stack entry quipper asserts: from 0xffffba66edefb0e0 to 0xffffba66edefb0e4 */
	CHECK_U64_EQ(r[1].pc.addr, 0xffffba66edefb0e0);
	CHECK_U64_EQ(r[1].branch_target.addr, 0xffffba66edefb0e4);
	CHECK_INT_EQ(r[1].total_latency, 17);
	CHECK_INT_EQ(r[1].issue_latency, 16);
	CHECK_INT_EQ(r[1].op_class, SPE_OP_CLASS_BRANCH);
	CHECK(r[1].op_flags & SPE_OPF(BR_COND));
	CHECK(r[1].events & (1u << SPE_EV_NOT_TAKEN));
	CHECK_U64_EQ(r[1].timestamp, 44731164045);
	CHECK_U64_EQ(r[1].offset, 64);
	free(buf);
}

/* spe-b1-ts0/ts1.expected.csv: op B, pc, el 0, condition true, indirect false, RETIRED, latencies, br_tgt, ts. */
static void check_b1(const char *name, unsigned issue, unsigned total, uint64_t ts, const char *last)
{
	size_t len;
	uint8_t *buf = load(name, &len);
	struct spe_record r[2];
	char text[1024], expect[1024];
	if (!buf)
		return;
	CHECK_INT_EQ(len, 64);
	descriptions(buf, len, SPE_DIALECT_NEWEST, text, sizeof text);
	snprintf(expect, sizeof expect,
		 "PC 0x7ffdbf2143e0 el0 ns=1 | B COND | EV RETIRED | LAT %u ISSUE | LAT %u TOT | TGT 0x7ffdbf214408 el0 ns=1 | %s",
		 issue, total, last);
	CHECK_STR_EQ(text, expect);
	CHECK_INT_EQ(test_records(buf, len, r, 2, NULL), 1);
	CHECK_U64_EQ(r[0].pc.addr, 0x7ffdbf2143e0);
	CHECK_INT_EQ(r[0].pc.el, 0);
	CHECK_INT_EQ(r[0].op_class, SPE_OP_CLASS_BRANCH);
	CHECK(r[0].op_flags & SPE_OPF(BR_COND));
	CHECK(!(r[0].op_flags & SPE_OPF(BR_INDIRECT)));
	CHECK_U64_EQ(r[0].events, 1u << SPE_EV_RETIRED);
	CHECK_INT_EQ(r[0].issue_latency, issue);
	CHECK_INT_EQ(r[0].total_latency, total);
	CHECK_U64_EQ(r[0].branch_target.addr, 0x7ffdbf214408);
	CHECK_INT_EQ(r[0].branch_target.el, 0);
	CHECK(!(r[0].has & (SPE_HAS_PREV_BRANCH_TARGET | SPE_HAS_CONTEXT)));
	CHECK_U64_EQ(r[0].timestamp, ts);
	free(buf);
}

TEST(windowsperf_b1_ts0)
{
	check_b1("spe-b1-ts0.data", 39, 40, 0, "END");
}

TEST(windowsperf_b1_ts1)
{
	check_b1("spe-b1-ts1.data", 41, 42, 3913207673451, "TS 3913207673451");
}

TEST(spe_parser_get_frame_fragment)
{
	size_t len;
	uint8_t *buf = load("spe-parser-test_get_frame_fragment.bin", &len);
	struct spe_record r[2];
	struct spe_rec_stats st;
	char text[2048];
	if (!buf)
		return;
	descriptions(buf, len, SPE_DIALECT_PERF_6_1, text, sizeof text);
	CHECK_STR_EQ(text, "TS 13196304120239 | PC 0xaaaae4a9b600 el0 ns=1 | LD GP-REG | EV RETIRED L1D-ACCESS TLB-ACCESS"
			   " | LAT 4 ISSUE | LAT 8 TOT | VA 0xaaaae65dda43 | LAT 1 XLAT | PA 0x8032c955a43 ns=1 ch=0 pat=0"
			   " | DATA-SOURCE 0");
	/* The leading TS closes an (empty) record; the load has no TS and is dropped at the end. */
	CHECK_INT_EQ(test_records(buf, len, r, 2, &st), 1);
	CHECK_U64_EQ(r[0].timestamp, 13196304120239);
	CHECK_INT_EQ(r[0].has, SPE_HAS_TIMESTAMP);
	CHECK_U64_EQ(st.partial_records, 1);
	free(buf);
}

int main(int argc, char **argv)
{
	dir = argc > 1 ? argv[1] : "fixtures/public";
	RUN(quipper_two_records);
	RUN(windowsperf_b1_ts0);
	RUN(windowsperf_b1_ts1);
	RUN(spe_parser_get_frame_fragment);
	return check_summary();
}
