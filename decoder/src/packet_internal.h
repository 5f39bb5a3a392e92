/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The packet classifier, inline so that the record decoder and the dumper
 * share it without a function call per packet.  Rules: docs/spe-format.md §1.1
 * (classification order), §1.3 (extended headers, alignment pads).
 */
#ifndef SPE_PACKET_INTERNAL_H
#define SPE_PACKET_INTERNAL_H

#include <string.h>

#include "spe/spe.h"

/* What byte 0 of a packet says; the table is spe_header_kind[] in packet.c. */
enum spe_hdr_kind {
	SPE_HK_BAD = 0,
	SPE_HK_PAD,
	SPE_HK_END,
	SPE_HK_TIMESTAMP,
	SPE_HK_EVENTS,
	SPE_HK_DATA_SOURCE,
	SPE_HK_CONTEXT,
	SPE_HK_OP_TYPE,
	SPE_HK_EXTENDED,
	SPE_HK_ADDRESS,
	SPE_HK_COUNTER,
};

extern const uint8_t spe_header_kind[256];

/* Little-endian load of 1, 2, 4 or 8 bytes; compilers turn this into one load. */
static inline uint64_t spe_load_le(const uint8_t *p, unsigned n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	switch (n) {
	case 1:
		return p[0];
	case 2: {
		uint16_t v;
		memcpy(&v, p, 2);
		return v;
	}
	case 4: {
		uint32_t v;
		memcpy(&v, p, 4);
		return v;
	}
	default: {
		uint64_t v;
		memcpy(&v, p, 8);
		return v;
	}
	}
#else
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
#endif
}

/* Payload size encoded in bits [5:4] of the byte that carries the type. */
static inline unsigned spe_payload_size(uint8_t type_byte)
{
	return 1u << ((type_byte >> 4) & 3);
}

/*
 * A well-formed packet of no known kind (SPE_PKT_UNKNOWN): an extended
 * header 0x20-0x23 (docs/spe-format.md §1.3) whose second byte is the header of
 * a kind that carries a payload but takes no extended header (TIMESTAMP,
 * EVENTS, DATA SOURCE, CONTEXT, OPERATION TYPE).  The layout is the generic
 * one, so its length is known: 2 + the payload size in bits [5:4] of that
 * byte (§1.1).  Any other second byte (END, PAD's 00 aside, another
 * extended header, a byte of no kind) fits no rule and stays a bad byte:
 * accepting it would turn random bytes into packets.  perf has no such
 * packet: it prints the 0x2N as a bad byte and decodes from the next one,
 * which is the same extent, since the second byte and the payload make up
 * a valid short packet.
 */
static inline int spe_ext_unknown_ok(uint8_t b1)
{
	switch (spe_header_kind[b1]) {
	case SPE_HK_TIMESTAMP:
	case SPE_HK_EVENTS:
	case SPE_HK_DATA_SOURCE:
	case SPE_HK_CONTEXT:
	case SPE_HK_OP_TYPE:
		return 1;
	default:
		return 0;
	}
}

/* Fill @p pkt from a header of @p hsize bytes whose type byte is @p tb. */
static inline int spe_pkt_finish(const uint8_t *buf, size_t len, enum spe_pkt_type type, unsigned hsize,
				 uint8_t tb, uint8_t index, struct spe_packet *pkt)
{
	unsigned psize = spe_payload_size(tb);
	if (len < hsize + psize)
		return -spe_need_more;
	pkt->type = type;
	pkt->header[0] = buf[0];
	pkt->header[1] = hsize == 2 ? buf[1] : 0;
	pkt->header_size = (uint8_t)hsize;
	pkt->payload_size = (uint8_t)psize;
	pkt->size = (uint8_t)(hsize + psize);
	pkt->index = index;
	pkt->payload = spe_load_le(buf + hsize, psize);
	return (int)(hsize + psize);
}

static inline int spe_pkt_decode(const uint8_t *buf, size_t len, uint64_t offset, struct spe_packet *pkt)
{
	uint8_t b0 = buf[0];
	switch (spe_header_kind[b0]) {
	case SPE_HK_PAD:
	case SPE_HK_END:
		pkt->type = b0 == 0 ? SPE_PKT_PAD : SPE_PKT_END;
		pkt->header[0] = b0;
		pkt->header[1] = 0;
		pkt->size = 1;
		pkt->header_size = 1;
		pkt->payload_size = 0;
		pkt->index = 0;
		pkt->payload = 0;
		return 1;
	case SPE_HK_TIMESTAMP:
		return spe_pkt_finish(buf, len, SPE_PKT_TIMESTAMP, 1, b0, 0, pkt);
	case SPE_HK_EVENTS:
		return spe_pkt_finish(buf, len, SPE_PKT_EVENTS, 1, b0, 0, pkt);
	case SPE_HK_DATA_SOURCE:
		return spe_pkt_finish(buf, len, SPE_PKT_DATA_SOURCE, 1, b0, 0, pkt);
	case SPE_HK_CONTEXT:
		return spe_pkt_finish(buf, len, SPE_PKT_CONTEXT, 1, b0, b0 & 3, pkt);
	case SPE_HK_OP_TYPE:
		return spe_pkt_finish(buf, len, SPE_PKT_OP_TYPE, 1, b0, b0 & 3, pkt);
	case SPE_HK_ADDRESS:
		return spe_pkt_finish(buf, len, SPE_PKT_ADDRESS, 1, b0, b0 & 7, pkt);
	case SPE_HK_COUNTER:
		return spe_pkt_finish(buf, len, SPE_PKT_COUNTER, 1, b0, b0 & 7, pkt);
	case SPE_HK_EXTENDED: {
		if (len < 2)
			return -spe_need_more; /* perf: BAD; both print one bad byte */
		uint8_t b1 = buf[1];
		uint8_t index = (uint8_t)(((b0 & 3) << 3) | (b1 & 7));
		if (b1 == 0) {
			/* Alignment pad: up to the next multiple of A = 2^(N+1). */
			unsigned align = 2u << (b0 & 3);
			if (len < align)
				return -spe_need_more;
			unsigned n = align - (unsigned)(offset & (align - 1));
			pkt->type = SPE_PKT_ALIGN_PAD;
			pkt->header[0] = b0;
			pkt->header[1] = 0;
			pkt->size = (uint8_t)n;
			pkt->header_size = 2;
			pkt->payload_size = 0;
			pkt->index = (uint8_t)(b0 & 3);
			pkt->payload = 0;
			return (int)n;
		}
		if ((b1 & 0xF8) == 0xB0)
			return spe_pkt_finish(buf, len, SPE_PKT_ADDRESS, 2, b1, index, pkt);
		if ((b1 & 0xF8) == 0x98)
			return spe_pkt_finish(buf, len, SPE_PKT_COUNTER, 2, b1, index, pkt);
		if (spe_ext_unknown_ok(b1))
			return spe_pkt_finish(buf, len, SPE_PKT_UNKNOWN, 2, b1, 0, pkt);
		return -spe_bad_packet;
	}
	default:
		return -spe_bad_packet;
	}
}

#endif
