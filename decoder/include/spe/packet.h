/* SPDX-License-Identifier: Apache-2.0 */
/* Packet layer: one SPE packet from a byte buffer, and its dump text. */
#ifndef SPE_PACKET_H
#define SPE_PACKET_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum spe_pkt_type {
	SPE_PKT_BAD = 0,     /* not a packet (only in dumps / error reports) */
	SPE_PKT_PAD,
	SPE_PKT_ALIGN_PAD,   /* extended header 0x2N 0x00: alignment padding */
	SPE_PKT_END,
	SPE_PKT_TIMESTAMP,
	SPE_PKT_EVENTS,
	SPE_PKT_DATA_SOURCE,
	SPE_PKT_CONTEXT,
	SPE_PKT_OP_TYPE,
	SPE_PKT_ADDRESS,
	SPE_PKT_COUNTER,
	SPE_PKT_UNKNOWN,     /* well-formed packet of no known kind (see spe_pkt_read): header and payload kept */
};

/* Event bits, generated from SPE_EVENT_LIST: SPE_EV_RETIRED == 1 etc. */
enum spe_event_bit {
#define SPE_X(bit, id, word, col, since, desc) SPE_EV_##id = bit,
	SPE_EVENT_LIST(SPE_X)
#undef SPE_X
};

enum spe_counter_index {
#define SPE_X(idx, id, word, col, desc) SPE_CNT_##id = idx,
	SPE_COUNTER_LIST(SPE_X)
#undef SPE_X
};

enum spe_address_index {
#define SPE_X(idx, id, word, col, desc) SPE_ADDR_##id = idx,
	SPE_ADDRESS_LIST(SPE_X)
#undef SPE_X
};

enum spe_context_index {
#define SPE_X(idx, id, word, desc) SPE_CTX_##id = idx,
	SPE_CONTEXT_LIST(SPE_X)
#undef SPE_X
};

/* One packet.  Only header and payload: the bytes stay in the caller's buffer. */
struct spe_packet {
	enum spe_pkt_type type;
	uint8_t size;          /* total bytes: header(s) + payload */
	uint8_t header_size;   /* 1, or 2 for an extended header */
	uint8_t payload_size;  /* 0, 1, 2, 4 or 8 */
	uint8_t index;         /* address/counter/context index, op-type class */
	uint8_t header[2];     /* the header byte(s) as in the trace; header[1] = 0 for a 1-byte header */
	uint64_t payload;      /* little-endian payload widened to 64 bits */
};

/*
 * Decode the packet at @p buf (@p len bytes left).  @p offset is the stream
 * offset of @p buf[0]; alignment pads are measured from it.
 * Returns the packet size (> 0), -spe_need_more if the buffer ends inside the
 * packet (an extended header as the last byte included; perf calls that a bad
 * packet, and both print as one bad byte), or -spe_bad_packet for an invalid
 * header.  Never reads past len.
 *
 * SPE_PKT_UNKNOWN is a well-formed packet of no known kind: an extended
 * header 0x20-0x23 followed by the header byte of a kind that has a payload
 * but no extended form (TIMESTAMP, EVENTS, DATA SOURCE, CONTEXT, OPERATION
 * TYPE), e.g. `20 52 02 00`.  Its size follows the generic rule (2 + the
 * payload size in bits [5:4] of the second byte); header[] and payload keep
 * its bytes.  perf has no such packet (see spe_dump_buffer).  Bytes that fit
 * no rule (`20 ff`, `20 01`, `24`) are -spe_bad_packet.
 */
SPE_API int spe_pkt_read(const uint8_t *buf, size_t len, uint64_t offset, struct spe_packet *pkt);

/* Which perf's wording the dump text follows (one table in decoder/src/dialect.c). */
enum spe_dialect {
	SPE_DIALECT_NEWEST = 0,  /* newest upstream perf (default) */
	SPE_DIALECT_PERF_6_1,    /* perf 6.1, quirks included */
};

/*
 * Write the `perf report -D` description of @p pkt (no offset, no hex bytes)
 * into @p buf.  @p midr selects CPU-specific wording (IMPDEF event names);
 * pass 0 when unknown.  Returns the length written (NUL excluded), or a
 * negative error.  The text is truncated to fit @p size.
 */
SPE_API int spe_pkt_describe(const struct spe_packet *pkt, enum spe_dialect dialect, uint32_t midr,
			     char *buf, size_t size);

/*
 * Write one full dump line: ".  %08x: " + hex bytes padded to 16 + " " +
 * description + "\n".  Returns the length written, or a negative error.
 * For a bad byte pass pkt->type = SPE_PKT_BAD and pkt->size = 1.  An
 * SPE_PKT_UNKNOWN packet is an UNKNOWN line in the newest dialect; in
 * SPE_DIALECT_PERF_6_1 it is its first byte alone as "Bad packet!", as perf
 * prints it (perf then decodes from the next byte).
 */
SPE_API int spe_pkt_dump_line(const uint8_t *bytes, const struct spe_packet *pkt, uint64_t offset,
			      enum spe_dialect dialect, uint32_t midr, char *buf, size_t size);

/* Room that always suffices for spe_pkt_describe() and spe_pkt_dump_line(). */
#define SPE_PKT_DESC_MAX 512
#define SPE_DUMP_LINE_MAX (64 + SPE_PKT_DESC_MAX)

/*
 * The dump's PAD coalescing (docs/spe-format.md §1.1): after a PAD or alignment
 * pad of @p pkt_size bytes at @p buf, the following 0x00 bytes join it, up
 * to 16 bytes in all.  Returns the coalesced size (>= pkt_size).
 */
SPE_API unsigned spe_pad_coalesce(const uint8_t *buf, size_t len, unsigned pkt_size);

/* Options of spe_dump_buffer(); initialise with SPE_OPTS(spe_dump_config, ...). */
struct spe_dump_config {
	size_t size;
	enum spe_dialect dialect;
	uint32_t midr;          /* CPU of the trace, 0 = unknown */
	uint64_t offset;        /* offset printed for buf[0]; perf restarts at 0 per AUXTRACE buffer */
	uint64_t align_offset;  /* stream/file offset of buf[0], for alignment pads (perf: host address) */
	/*
	 * Receives the text in pieces of whole lines (@p len bytes, not NUL
	 * terminated).  A negative return stops the dump and is passed back.
	 */
	int (*write)(void *ctx, const char *text, size_t len);
	void *ctx;
};

struct spe_dump_stats {
	uint64_t packets;   /* lines printed for good packets (a coalesced PAD run counts once) */
	uint64_t bad_bytes; /* "Bad packet!" lines for bytes that start no packet */
	uint64_t unknown_packets; /* SPE_PKT_UNKNOWN packets (in the perf-6.1 dialect: a "Bad packet!" line each) */
};

/*
 * Dump @p len bytes the way `perf report -D` prints an AUXTRACE buffer:
 * one line per packet, PAD runs coalesced to at most 16 bytes per line, a
 * byte that starts no valid packet (or a packet cut by the end of the
 * buffer) printed alone as "Bad packet!" and decoding resumed at the next
 * byte.  An SPE_PKT_UNKNOWN packet is one "UNKNOWN" line in the newest
 * dialect (no perf prints that: perf has no unknown packets); in the
 * perf-6.1 dialect it prints as perf does, its first byte as "Bad packet!"
 * and decoding resumed at the next byte.  @p stats may be NULL.  Returns 0,
 * or the negative value returned by config->write, or -spe_invalid.
 */
SPE_API int spe_dump_buffer(const struct spe_dump_config *config, const uint8_t *buf, size_t len,
			    struct spe_dump_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* SPE_PACKET_H */
