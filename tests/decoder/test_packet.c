/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe_pkt_read against a reference classifier written straight from the
 * if-chain of docs/spe-format.md §1.1, for every header byte (and every second
 * byte of extended headers); cut buffers; alignment pads; bad arguments.
 */
#include <stdlib.h>

#include "check.h"
#include "spe/spe.h"

struct ref {
	enum spe_pkt_type type;
	int size;        /* total bytes, or -spe_bad_packet */
	int index;
	int hsize;
};

/* The classification table of §1.1, in its order; alignment pads excluded (tested apart). */
static struct ref reference(uint8_t b0, uint8_t b1)
{
	struct ref r = { SPE_PKT_BAD, -spe_bad_packet, 0, 1 };
	uint8_t h = b0;
	if (b0 == 0x00)
		return (struct ref){ SPE_PKT_PAD, 1, 0, 1 };
	if (b0 == 0x01)
		return (struct ref){ SPE_PKT_END, 1, 0, 1 };
	if (b0 == 0x71)
		return (struct ref){ SPE_PKT_TIMESTAMP, 9, 0, 1 };
	if ((b0 & 0xCF) == 0x42)
		return (struct ref){ SPE_PKT_EVENTS, 1 + (1 << ((b0 >> 4) & 3)), 0, 1 };
	if ((b0 & 0xCF) == 0x43)
		return (struct ref){ SPE_PKT_DATA_SOURCE, 1 + (1 << ((b0 >> 4) & 3)), 0, 1 };
	if ((b0 & 0xFC) == 0x64)
		return (struct ref){ SPE_PKT_CONTEXT, 5, b0 & 3, 1 };
	if ((b0 & 0xFC) == 0x48)
		return (struct ref){ SPE_PKT_OP_TYPE, 2, b0 & 3, 1 };
	int ext = (b0 & 0xFC) == 0x20;
	if (ext)
		h = b1;
	if ((h & 0xF8) == 0xB0)
		return (struct ref){ SPE_PKT_ADDRESS, ext ? 10 : 9, ext ? ((b0 & 3) << 3) | (b1 & 7) : (h & 7), ext ? 2 : 1 };
	if ((h & 0xF8) == 0x98)
		return (struct ref){ SPE_PKT_COUNTER, ext ? 4 : 3, ext ? ((b0 & 3) << 3) | (b1 & 7) : (h & 7), ext ? 2 : 1 };
	/* Well-formed, no known kind: an extended header before a payload-carrying short header. */
	if (ext && (b1 == 0x71 || (b1 & 0xCF) == 0x42 || (b1 & 0xCF) == 0x43 || (b1 & 0xFC) == 0x64 ||
		    (b1 & 0xFC) == 0x48))
		return (struct ref){ SPE_PKT_UNKNOWN, 2 + (1 << ((b1 >> 4) & 3)), 0, 2 };
	return r;
}

TEST(every_header_matches_reference)
{
	uint8_t buf[16];
	for (unsigned i = 2; i < sizeof buf; i++)
		buf[i] = (uint8_t)(0x11 * i);
	for (unsigned b0 = 0; b0 < 256; b0++) {
		for (unsigned b1 = 0; b1 < 256; b1++) {
			if ((b0 & 0xFC) != 0x20 && b1 != 0)
				continue; /* b1 only matters for extended headers */
			if ((b0 & 0xFC) == 0x20 && b1 == 0)
				continue; /* alignment pad: see below */
			struct spe_packet pkt;
			struct ref r = reference((uint8_t)b0, (uint8_t)b1);
			buf[0] = (uint8_t)b0;
			buf[1] = (uint8_t)b1;
			int ret = spe_pkt_read(buf, sizeof buf, 0, &pkt);
			if (ret != r.size) {
				CHECK_FAIL_("header %02x %02x: got %d, expected %d", b0, b1, ret, r.size);
				continue;
			}
			if (ret < 0)
				continue;
			CHECK_INT_EQ(pkt.type, r.type);
			CHECK_INT_EQ(pkt.size, r.size);
			CHECK_INT_EQ(pkt.index, r.index);
			CHECK_INT_EQ(pkt.header_size, r.hsize);
			CHECK_INT_EQ(pkt.header[0], b0);
			CHECK_INT_EQ(pkt.header[1], r.hsize == 2 ? b1 : 0);
			CHECK_INT_EQ(pkt.payload_size, r.size - r.hsize);
			uint64_t expect = 0;
			for (int i = r.size - 1; i >= r.hsize; i--)
				expect = expect << 8 | buf[i];
			CHECK_U64_EQ(pkt.payload, expect);
		}
	}
}

/* A packet cut anywhere gives -spe_need_more; the buffer is exactly len bytes (ASan checks reads). */
TEST(cut_packets_need_more)
{
	static const uint8_t headers[][2] = { { 0x71, 0 }, { 0x42, 0 }, { 0x52, 0 }, { 0x62, 0 }, { 0x72, 0 },
					      { 0x43, 0 }, { 0x73, 0 }, { 0x65, 0 }, { 0x49, 0 }, { 0xb0, 0 },
					      { 0x9a, 0 }, { 0x20, 0xb1 }, { 0x23, 0x9f }, { 0x21, 0x71 }, { 0x20, 0x52 } };
	for (size_t h = 0; h < sizeof headers / sizeof headers[0]; h++) {
		struct ref r = reference(headers[h][0], headers[h][1]);
		for (int len = 1; len < r.size; len++) {
			uint8_t *buf = calloc(1, (size_t)len);
			struct spe_packet pkt;
			buf[0] = headers[h][0];
			if (len > 1)
				buf[1] = headers[h][1];
			int ret = spe_pkt_read(buf, (size_t)len, 0, &pkt);
			if (ret != -spe_need_more)
				CHECK_FAIL_("header %02x len %d: got %d", headers[h][0], len, ret);
			free(buf);
		}
	}
}

TEST(alignment_pad_length_from_offset)
{
	uint8_t buf[16] = { 0 };
	struct spe_packet pkt;
	for (unsigned n = 0; n < 4; n++) {
		unsigned align = 2u << n;
		buf[0] = (uint8_t)(0x20 | n);
		for (uint64_t off = 0; off < 40; off++) {
			int ret = spe_pkt_read(buf, align, off, &pkt);
			CHECK_INT_EQ(ret, (int)(align - off % align));
			CHECK_INT_EQ(pkt.type, SPE_PKT_ALIGN_PAD);
			CHECK_INT_EQ(pkt.header_size, 2);
			/* fewer than `align` bytes left: cut */
			CHECK_INT_EQ(spe_pkt_read(buf, align - 1, off, &pkt), -spe_need_more);
		}
	}
}

TEST(bad_arguments)
{
	uint8_t b = 0x01;
	struct spe_packet pkt;
	CHECK_INT_EQ(spe_pkt_read(NULL, 1, 0, &pkt), -spe_invalid);
	CHECK_INT_EQ(spe_pkt_read(&b, 1, 0, NULL), -spe_invalid);
	CHECK_INT_EQ(spe_pkt_read(&b, 0, 0, &pkt), -spe_need_more);
	CHECK_INT_EQ(spe_pkt_read(&b, 1, 0, &pkt), 1);
	CHECK_INT_EQ(pkt.type, SPE_PKT_END);
}

TEST(pad_coalesce)
{
	uint8_t buf[40] = { 0 };
	buf[20] = 0x01;
	CHECK_INT_EQ(spe_pad_coalesce(buf, sizeof buf, 1), 16);
	CHECK_INT_EQ(spe_pad_coalesce(buf + 10, sizeof buf - 10, 1), 10); /* stops at the END */
	CHECK_INT_EQ(spe_pad_coalesce(buf, 3, 1), 3);                     /* stops at the buffer end */
	CHECK_INT_EQ(spe_pad_coalesce(buf, sizeof buf, 12), 16);          /* an alignment pad joins too */
	CHECK_INT_EQ(spe_pad_coalesce(NULL, 0, 2), 2);
}

int main(void)
{
	RUN(every_header_matches_reference);
	RUN(cut_packets_need_more);
	RUN(alignment_pad_length_from_offset);
	RUN(bad_arguments);
	RUN(pad_coalesce);
	return check_summary();
}
