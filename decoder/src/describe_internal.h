/* SPDX-License-Identifier: Apache-2.0 */
/* The describer's cursor-based entry points, shared with the buffer dumper. */
#ifndef SPE_DESCRIBE_INTERNAL_H
#define SPE_DESCRIBE_INTERNAL_H

#include "dialect.h"
#include "text_out.h"

/* Address bits [55:0] of ADDRESS payloads. */
#define SPE_ADDR_MASK UINT64_C(0x00FFFFFFFFFFFFFF)

void spe_describe_out(struct text_out *o, const struct spe_packet *pkt, const struct spe_dialect_rules *r,
		      uint32_t midr);
/* Bytes the dump line of @p pkt shows: 1 for a byte printed as "Bad packet!", else pkt->size. */
unsigned spe_dump_line_bytes(const struct spe_packet *pkt, const struct spe_dialect_rules *r);
void spe_dump_line_out(struct text_out *o, const uint8_t *bytes, const struct spe_packet *pkt, uint64_t offset,
		       const struct spe_dialect_rules *r, uint32_t midr);

#endif
