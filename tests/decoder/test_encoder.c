/* SPDX-License-Identifier: Apache-2.0 */
/* The encoder's byte layouts (checked against docs/spe-format.md §1), limits and errors. */
#include "check.h"
#include "spe/spe.h"

static int bytes_are(const struct spe_enc *e, const uint8_t *want, size_t n)
{
	return e->len == n && !memcmp(e->buf, want, n);
}

TEST(layouts)
{
	uint8_t buf[64];
	struct spe_enc e;
	spe_enc_init(&e, buf, sizeof buf);
	CHECK_INT_EQ(spe_enc_address(&e, SPE_ADDR_PC, spe_enc_ip_payload(0xffb7ee29f38200, 2, 1, 0), 0), 9);
	static const uint8_t pc[] = { 0xb0, 0x00, 0x82, 0xf3, 0x29, 0xee, 0xb7, 0xff, 0xc0 };
	CHECK(bytes_are(&e, pc, sizeof pc));

	spe_enc_init(&e, buf, sizeof buf);
	CHECK_INT_EQ(spe_enc_counter(&e, SPE_CNT_TOTAL, 5, 1), 4);
	static const uint8_t lat[] = { 0x20, 0x98, 0x05, 0x00 };
	CHECK(bytes_are(&e, lat, sizeof lat));

	spe_enc_init(&e, buf, sizeof buf);
	CHECK_INT_EQ(spe_enc_address(&e, 13, 0, 0), 10); /* index 13 = 0b01:101 */
	CHECK(buf[0] == 0x21 && buf[1] == 0xb5);

	spe_enc_init(&e, buf, sizeof buf);
	CHECK_INT_EQ(spe_enc_events(&e, 0x0302, 0), 3);
	CHECK(buf[0] == 0x52 && buf[1] == 0x02 && buf[2] == 0x03);
	CHECK_INT_EQ(spe_enc_events(&e, 0x10000, 0), 5);
	CHECK(buf[3] == 0x62);
	CHECK_INT_EQ(spe_enc_data_source(&e, 7, 8), 9);
	CHECK(buf[8] == 0x73 && buf[9] == 7);
	CHECK_INT_EQ(spe_enc_context(&e, 1, 0x5f80), 5);
	CHECK(buf[17] == 0x65 && buf[18] == 0x80 && buf[19] == 0x5f);
	CHECK_INT_EQ(spe_enc_op_type(&e, 2, 0x01), 2);
	CHECK(buf[22] == 0x4a && buf[23] == 0x01);
	CHECK_INT_EQ(spe_enc_timestamp(&e, 1), 9);
	CHECK(buf[24] == 0x71 && buf[25] == 1);
	CHECK_U64_EQ(spe_enc_va_payload(0xff000801488008, 0xff), 0xffff000801488008);
	CHECK_U64_EQ(spe_enc_pa_payload(0x1234, 0, 1, 0xa), 0x4a00000000001234);
	CHECK_U64_EQ(spe_enc_ip_payload(0xffff800010, 1, 0, 1), 0x300000ffff800010);
}

TEST(alignment_pads)
{
	uint8_t buf[64];
	struct spe_enc e;
	spe_enc_init(&e, buf, sizeof buf);
	e.base = 0x1004;
	CHECK_INT_EQ(spe_enc_align_pad(&e, 3), 12);
	CHECK(buf[0] == 0x23 && buf[1] == 0x00 && buf[11] == 0x00);
	CHECK_INT_EQ(spe_enc_align_pad(&e, 0), 2); /* already aligned: a full 2-byte pad */
	spe_enc_end(&e);
	CHECK_INT_EQ(spe_enc_align_pad(&e, 1), 2); /* 1-byte pad; the 00 that follows is a PAD */
	CHECK_INT_EQ(spe_enc_align_pad(&e, 4), -spe_invalid);
}

TEST(errors)
{
	uint8_t buf[4];
	struct spe_enc e;
	spe_enc_init(&e, buf, sizeof buf);
	CHECK_INT_EQ(spe_enc_address(&e, 32, 0, 0), -spe_invalid);
	CHECK_INT_EQ(spe_enc_counter(&e, 40, 0, 0), -spe_invalid);
	CHECK_INT_EQ(spe_enc_context(&e, 4, 0), -spe_invalid);
	CHECK_INT_EQ(spe_enc_op_type(&e, 4, 0), -spe_invalid);
	CHECK_INT_EQ(spe_enc_events(&e, 0x100, 1), -spe_invalid); /* does not fit 1 byte */
	CHECK_INT_EQ(spe_enc_events(&e, 1, 3), -spe_invalid);     /* no 3-byte payloads */
	CHECK_INT_EQ(spe_enc_raw(&e, NULL, 1), -spe_invalid);
	CHECK_INT_EQ(spe_enc_end(NULL), -spe_invalid);
	CHECK_INT_EQ(spe_enc_pad(NULL, 1), -spe_invalid);
	CHECK_INT_EQ(spe_enc_address(NULL, 0, 0, 0), -spe_invalid);
	CHECK_INT_EQ(spe_enc_counter(NULL, 0, 0, 0), -spe_invalid);
	CHECK_INT_EQ(spe_enc_timestamp(NULL, 0), -spe_invalid);
	CHECK_INT_EQ(spe_enc_events(NULL, 0, 0), -spe_invalid);
	CHECK_INT_EQ(spe_enc_align_pad(NULL, 0), -spe_invalid);
	spe_enc_init(NULL, buf, sizeof buf); /* ignored */
	/* a fixed buffer overflows with -spe_nomem, and stays failed */
	CHECK_INT_EQ(spe_enc_timestamp(&e, 1), -spe_nomem);
	CHECK_INT_EQ(spe_enc_end(&e), -spe_nomem);
	CHECK_INT_EQ(e.len, 0);
	/* an owned buffer grows */
	spe_enc_init(&e, NULL, 0);
	for (int i = 0; i < 1000; i++)
		CHECK_INT_EQ(spe_enc_timestamp(&e, (uint64_t)i), 9);
	CHECK_INT_EQ(e.len, 9000);
	CHECK(e.buf[8991] == 0x71 && e.buf[8992] == (999 & 0xFF));
	spe_enc_fini(&e);
	spe_enc_fini(NULL);
	CHECK_INT_EQ(spe_enc_record(&e, NULL, 0), -spe_invalid);
}

TEST(record_pad_to_64)
{
	struct spe_enc e;
	struct spe_record r = { .has = SPE_HAS_PC | SPE_HAS_TIMESTAMP, .timestamp = 3 };
	spe_enc_init(&e, NULL, 0);
	CHECK_INT_EQ(spe_enc_record(&e, &r, SPE_ENC_PAD_TO_64), 64);
	CHECK(e.buf[0] == 0xb0 && e.buf[9] == 0x00 && e.buf[55] == 0x71);
	CHECK_INT_EQ(spe_enc_record(&e, &r, 0), 18);
	spe_enc_fini(&e);
}

int main(void)
{
	RUN(layouts);
	RUN(alignment_pads);
	RUN(errors);
	RUN(record_pad_to_64);
	return check_summary();
}
