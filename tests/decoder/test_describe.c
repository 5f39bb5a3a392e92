/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe_pkt_describe / spe_pkt_dump_line / spe_dump_buffer: argument checks,
 * truncation, the column-62 layout, writer errors and statistics.  The text
 * itself is covered by the .spt fixtures and test_op_type.
 */
#include "check.h"
#include "test_util.h"

TEST(describe_arguments_and_truncation)
{
	struct spe_packet pkt = { .type = SPE_PKT_TIMESTAMP, .size = 9, .header_size = 1, .payload_size = 8,
				  .payload = 7969191665714 };
	char buf[SPE_PKT_DESC_MAX];
	CHECK_INT_EQ(spe_pkt_describe(&pkt, SPE_DIALECT_NEWEST, 0, buf, sizeof buf), 16);
	CHECK_STR_EQ(buf, "TS 7969191665714");
	CHECK_INT_EQ(spe_pkt_describe(&pkt, SPE_DIALECT_NEWEST, 0, buf, 6), 5);
	CHECK_STR_EQ(buf, "TS 79");
	CHECK_INT_EQ(spe_pkt_describe(&pkt, SPE_DIALECT_NEWEST, 0, buf, 1), 0);
	CHECK_STR_EQ(buf, "");
	CHECK_INT_EQ(spe_pkt_describe(NULL, SPE_DIALECT_NEWEST, 0, buf, sizeof buf), -spe_invalid);
	CHECK_INT_EQ(spe_pkt_describe(&pkt, (enum spe_dialect)7, 0, buf, sizeof buf), -spe_invalid);
	CHECK_INT_EQ(spe_pkt_describe(&pkt, SPE_DIALECT_NEWEST, 0, NULL, 10), -spe_invalid);
	pkt.type = SPE_PKT_BAD;
	CHECK_INT_EQ(spe_pkt_describe(&pkt, SPE_DIALECT_PERF_6_1, 0, buf, sizeof buf), 11);
	CHECK_STR_EQ(buf, "Bad packet!");
}

/* The longest description (all 64 event bits) fits SPE_PKT_DESC_MAX. */
TEST(longest_description_fits)
{
	struct spe_packet pkt = { .type = SPE_PKT_EVENTS, .size = 9, .header_size = 1, .payload_size = 8,
				  .payload = ~UINT64_C(0) };
	char buf[SPE_PKT_DESC_MAX];
	int n = spe_pkt_describe(&pkt, SPE_DIALECT_NEWEST, 0x410fd0c0, buf, sizeof buf);
	CHECK(n > 300);
	CHECK(n < SPE_PKT_DESC_MAX - 1);
	CHECK(strstr(buf, "IMPDEF:13,14,15,26,") != NULL);
	CHECK(strcmp(buf + n - 3, ",63") == 0);
}

TEST(dump_line_layout)
{
	static const uint8_t bytes[] = { 0x52, 0x82, 0x00 };
	struct spe_packet pkt;
	char line[SPE_DUMP_LINE_MAX];
	CHECK_INT_EQ(spe_pkt_read(bytes, sizeof bytes, 0, &pkt), 3);
	int n = spe_pkt_dump_line(bytes, &pkt, 0x117, SPE_DIALECT_PERF_6_1, 0, line, sizeof line);
	CHECK_STR_EQ(line, ".  00000117:  52 82 00                                        EV RETIRED MISPRED\n");
	CHECK_INT_EQ(n, (int)strlen(line));
	CHECK_STR_EQ(line + 62, "EV RETIRED MISPRED\n"); /* description column */
	/* offsets wider than 8 digits are not cut */
	spe_pkt_dump_line(bytes, &pkt, 0x123456789, SPE_DIALECT_NEWEST, 0, line, sizeof line);
	CHECK(!strncmp(line, ".  123456789:  52", 17));
	/* a bad byte shows one byte whatever size says */
	pkt.type = SPE_PKT_BAD;
	spe_pkt_dump_line(bytes, &pkt, 0, SPE_DIALECT_NEWEST, 0, line, sizeof line);
	CHECK_STR_EQ(line, ".  00000000:  52                                              Bad packet!\n");
	pkt.type = SPE_PKT_PAD;
	pkt.size = 17;
	CHECK_INT_EQ(spe_pkt_dump_line(bytes, &pkt, 0, SPE_DIALECT_NEWEST, 0, line, sizeof line), -spe_invalid);
	CHECK_INT_EQ(spe_pkt_dump_line(NULL, &pkt, 0, SPE_DIALECT_NEWEST, 0, line, sizeof line), -spe_invalid);
}

/* An unknown packet: one UNKNOWN line in the newest dialect; perf 6.1's one bad byte, then the rest decoded. */
TEST(unknown_packet_lines_and_stats)
{
	static const uint8_t bytes[] = { 0x20, 0x52, 0x02, 0x00 };
	struct spe_packet pkt;
	char line[SPE_DUMP_LINE_MAX];
	CHECK_INT_EQ(spe_pkt_read(bytes, sizeof bytes, 0, &pkt), 4);
	CHECK_INT_EQ(pkt.type, SPE_PKT_UNKNOWN);
	CHECK_INT_EQ(pkt.header[0], 0x20);
	CHECK_INT_EQ(pkt.header[1], 0x52);
	CHECK_U64_EQ(pkt.payload, 2);
	spe_pkt_dump_line(bytes, &pkt, 0, SPE_DIALECT_NEWEST, 0, line, sizeof line);
	CHECK_STR_EQ(line, ".  00000000:  20 52 02 00                                     UNKNOWN 0x2 (header 20 52)\n");
	spe_pkt_dump_line(bytes, &pkt, 0, SPE_DIALECT_PERF_6_1, 0, line, sizeof line);
	CHECK_STR_EQ(line, ".  00000000:  20                                              Bad packet!\n");

	static struct test_text t;
	struct spe_dump_stats st;
	for (int d = 0; d < 2; d++) {
		struct spe_dump_config cfg = SPE_OPTS(spe_dump_config, .dialect = (enum spe_dialect)d,
						      .write = test_text_write, .ctx = &t);
		t.len = 0;
		CHECK_INT_EQ(spe_dump_buffer(&cfg, bytes, sizeof bytes, &st), 0);
		CHECK_U64_EQ(st.unknown_packets, 1);
		CHECK_U64_EQ(st.bad_bytes, 0);
		CHECK_U64_EQ(st.packets, d == SPE_DIALECT_PERF_6_1 ? 1 : 0); /* 6.1: the EV after the 20 */
		CHECK_INT_EQ(t.len, d == SPE_DIALECT_PERF_6_1 ? 2 * 63 + 11 + 10 : 63 + 26);
	}
}

static int fail_second(void *ctx, const char *text, size_t len)
{
	int *calls = ctx;
	(void)text;
	(void)len;
	return ++*calls >= 2 ? -spe_io : 0;
}

TEST(dump_buffer_writer_errors_and_stats)
{
	/* 4000 END packets: 4000 lines of 66 bytes, more than one 16 KiB piece */
	static uint8_t ends[4000];
	memset(ends, 0x01, sizeof ends);
	int calls = 0;
	struct spe_dump_config cfg = SPE_OPTS(spe_dump_config, .write = fail_second, .ctx = &calls);
	CHECK_INT_EQ(spe_dump_buffer(&cfg, ends, sizeof ends, NULL), -spe_io);
	CHECK_INT_EQ(calls, 2);

	static struct test_text t;
	static const uint8_t mixed[] = { 0x00, 0x00, 0x02, 0x01, 0x71, 0x05 };
	struct spe_dump_stats st;
	cfg = (struct spe_dump_config)SPE_OPTS(spe_dump_config, .write = test_text_write, .ctx = &t);
	CHECK_INT_EQ(spe_dump_buffer(&cfg, mixed, sizeof mixed, &st), 0);
	CHECK_U64_EQ(st.packets, 2);   /* PAD run, END */
	CHECK_U64_EQ(st.bad_bytes, 3); /* 02, 71 (cut), 05 */
	CHECK_INT_EQ(t.len, 3 * (62 + 12) + 2 * (62 + 4)); /* 62 columns, then "Bad packet!" x3, "PAD", "END" + newline */

	CHECK_INT_EQ(spe_dump_buffer(NULL, mixed, 1, NULL), -spe_invalid);
	cfg.write = NULL;
	CHECK_INT_EQ(spe_dump_buffer(&cfg, mixed, 1, NULL), -spe_invalid);
	cfg.write = test_text_write;
	cfg.dialect = (enum spe_dialect)9;
	CHECK_INT_EQ(spe_dump_buffer(&cfg, mixed, 1, NULL), -spe_invalid);
	cfg.dialect = SPE_DIALECT_NEWEST;
	CHECK_INT_EQ(spe_dump_buffer(&cfg, NULL, 1, NULL), -spe_invalid);
	CHECK_INT_EQ(spe_dump_buffer(&cfg, NULL, 0, NULL), 0);
}

int main(void)
{
	RUN(describe_arguments_and_truncation);
	RUN(longest_description_fits);
	RUN(dump_line_layout);
	RUN(unknown_packet_lines_and_stats);
	RUN(dump_buffer_writer_errors_and_stats);
	return check_summary();
}
