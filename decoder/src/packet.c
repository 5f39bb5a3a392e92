/* SPDX-License-Identifier: Apache-2.0 */
/* spe_pkt_read: one packet from bytes.  The classifier is in packet_internal.h. */
#include "packet_internal.h"

/*
 * Byte 0 → packet kind, following the classification of docs/spe-format.md §1.1.
 * The kinds' byte sets are disjoint, so the table needs no ordering.
 */
const uint8_t spe_header_kind[256] = {
	[0x00] = SPE_HK_PAD,
	[0x01] = SPE_HK_END,
	[0x71] = SPE_HK_TIMESTAMP,
	[0x42] = SPE_HK_EVENTS, [0x52] = SPE_HK_EVENTS, [0x62] = SPE_HK_EVENTS, [0x72] = SPE_HK_EVENTS,
	[0x43] = SPE_HK_DATA_SOURCE, [0x53] = SPE_HK_DATA_SOURCE,
	[0x63] = SPE_HK_DATA_SOURCE, [0x73] = SPE_HK_DATA_SOURCE,
	[0x64 ... 0x67] = SPE_HK_CONTEXT,
	[0x48 ... 0x4B] = SPE_HK_OP_TYPE,
	[0x20 ... 0x23] = SPE_HK_EXTENDED,
	[0xB0 ... 0xB7] = SPE_HK_ADDRESS,
	[0x98 ... 0x9F] = SPE_HK_COUNTER,
};

int spe_pkt_read(const uint8_t *buf, size_t len, uint64_t offset, struct spe_packet *pkt)
{
	if (!buf || !pkt)
		return -spe_invalid;
	if (!len)
		return -spe_need_more;
	return spe_pkt_decode(buf, len, offset, pkt);
}
