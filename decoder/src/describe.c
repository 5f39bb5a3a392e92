/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe_pkt_describe / spe_pkt_dump_line: the `perf report -D` text of one
 * packet (docs/spe-format.md §2.2, §2.3).  Words come from facts.h; dialect
 * differences from the table in dialect.c.
 */
#include "describe_internal.h"
#include "dialect.h"
#include "dump_words.h"
#include "op_text.h"


static const char *const event_words[64] = {
#define SPE_X(bit, id, word, col, since, desc) [bit] = word,
	SPE_EVENT_LIST(SPE_X)
#undef SPE_X
};

static const char *const counter_words[] = {
#define SPE_X(idx, id, word, col, desc) [idx] = word,
	SPE_COUNTER_LIST(SPE_X)
#undef SPE_X
};

static const char *const address_words[] = {
#define SPE_X(idx, id, word, col, desc) [idx] = word,
	SPE_ADDRESS_LIST(SPE_X)
#undef SPE_X
};

/* The lengths of the words above, so the dumper need not strlen them. */
static const uint8_t event_word_len[64] = {
#define SPE_X(bit, id, word, col, since, desc) [bit] = sizeof(word) - 1,
	SPE_EVENT_LIST(SPE_X)
#undef SPE_X
};

static const uint8_t counter_word_len[] = {
#define SPE_X(idx, id, word, col, desc) [idx] = sizeof(word) - 1,
	SPE_COUNTER_LIST(SPE_X)
#undef SPE_X
};

static const uint8_t address_word_len[] = {
#define SPE_X(idx, id, word, col, desc) [idx] = sizeof(word) - 1,
	SPE_ADDRESS_LIST(SPE_X)
#undef SPE_X
};

#define out_dw(o, id) out_mem(o, DW(id), DW_LEN(id))

#define N_COUNTER_WORDS (sizeof counter_words / sizeof counter_words[0])
#define N_ADDRESS_WORDS (sizeof address_words / sizeof address_words[0])

static void describe_events(struct text_out *o, uint64_t p, const struct spe_dialect_rules *r, uint32_t midr)
{
	uint64_t impdef = 0;
	out_dw(o, EVENTS);
	for (uint64_t left = p; left; left &= left - 1) { /* the set bits, lowest first */
		unsigned b = (unsigned)__builtin_ctzll(left);
		if (r->named_events >> b & 1) {
			out_char(o, ' ');
			out_mem(o, event_words[b], event_word_len[b]);
		} else if (r->impdef_events) {
			const char *w = spe_impdef_event_name(midr, b);
			if (w)
				out_word(o, w);
			else
				impdef |= UINT64_C(1) << b;
		}
	}
	if (impdef) {
		out_word(o, DW(IMPDEF));
		char sep = ':';
		for (unsigned b = 0; b < 64; b++) {
			if (impdef >> b & 1) {
				out_char(o, sep);
				out_udec(o, b);
				sep = ',';
			}
		}
	}
}

/* PC / TGT / PBT: "WORD 0x<55:0> el<62:61> ns=<63>". */
static void describe_ip(struct text_out *o, unsigned idx, uint64_t p)
{
	out_mem(o, address_words[idx], address_word_len[idx]);
	out_str(o, " 0x");
	out_hex(o, p & SPE_ADDR_MASK);
	out_str(o, " el");
	out_char(o, (char)('0' + ((p >> 61) & 3))); /* single digits: no division loop */
	out_str(o, " ns=");
	out_char(o, (char)('0' + (p >> 63)));
}

static void describe_address(struct text_out *o, const struct spe_packet *pkt, const struct spe_dialect_rules *r)
{
	uint64_t p = pkt->payload;
	unsigned idx = pkt->index;
	if (idx >= r->named_addresses || idx >= N_ADDRESS_WORDS) {
		out_dw(o, ADDRESS_OTHER);
		out_str(o, " 0x");
		out_hex(o, p);
		out_str(o, " (");
		out_udec(o, idx);
		out_char(o, ')');
		return;
	}
	switch (idx) {
	case SPE_ADDR_DATA_VA:
		out_mem(o, address_words[idx], address_word_len[idx]);
		out_str(o, " 0x");
		out_hex(o, p);
		break;
	case SPE_ADDR_DATA_PA:
		out_mem(o, address_words[idx], address_word_len[idx]);
		out_str(o, " 0x");
		out_hex(o, p & SPE_ADDR_MASK);
		out_str(o, " ns=");
		out_udec(o, p >> 63);
		out_str(o, " ch=");
		out_udec(o, (p >> 62) & 1);
		out_str(o, " pat=");
		out_hex(o, (p >> 56) & 0xF);
		break;
	default:
		describe_ip(o, idx, p);
		break;
	}
}

void spe_describe_out(struct text_out *o, const struct spe_packet *pkt, const struct spe_dialect_rules *r,
		      uint32_t midr)
{
	switch (pkt->type) {
	case SPE_PKT_PAD:
	case SPE_PKT_ALIGN_PAD:
		out_dw(o, PAD);
		break;
	case SPE_PKT_END:
		out_dw(o, END);
		break;
	case SPE_PKT_TIMESTAMP:
		out_dw(o, TIMESTAMP);
		out_char(o, ' ');
		out_sdec(o, (int64_t)pkt->payload);
		break;
	case SPE_PKT_EVENTS:
		describe_events(o, pkt->payload, r, midr);
		break;
	case SPE_PKT_DATA_SOURCE:
		out_dw(o, DATA_SOURCE);
		out_char(o, ' ');
		out_sdec(o, (int64_t)pkt->payload);
		break;
	case SPE_PKT_CONTEXT:
		out_dw(o, CONTEXT);
		out_str(o, " 0x");
		out_hex(o, pkt->payload);
		out_str(o, " el");
		out_udec(o, pkt->index + 1u); /* perf prints index + 1, unchecked: el3/el4 for reserved */
		break;
	case SPE_PKT_OP_TYPE: {
		uint8_t cls;
		uint32_t f, evl;
		uint8_t p = (uint8_t)pkt->payload;
		spe_op_decode_rules(r, pkt->index, p, &cls, &f, &evl);
		spe_op_text_out(o, pkt->index, p, cls, f, evl);
		break;
	}
	case SPE_PKT_ADDRESS:
		describe_address(o, pkt, r);
		break;
	case SPE_PKT_COUNTER:
		out_dw(o, COUNTER);
		out_char(o, ' ');
		out_udec(o, pkt->payload & 0xFFFF);
		out_char(o, ' ');
		if (pkt->index < N_COUNTER_WORDS && counter_words[pkt->index])
			out_mem(o, counter_words[pkt->index], counter_word_len[pkt->index]);
		break;
	case SPE_PKT_UNKNOWN:
		if (!r->unknown_lines) {
			out_dw(o, BAD);
			break;
		}
		/* "UNKNOWN 0x<payload> (header 20 52)": the header bytes say what it may be */
		out_dw(o, UNKNOWN);
		out_str(o, " 0x");
		out_hex(o, pkt->payload);
		out_str(o, " (header");
		for (unsigned i = 0; i < pkt->header_size && i < 2; i++) {
			out_char(o, ' ');
			out_mem(o, spe_hex_pairs + 2 * pkt->header[i], 2);
		}
		out_char(o, ')');
		break;
	case SPE_PKT_BAD:
	default:
		out_dw(o, BAD);
		break;
	}
}

unsigned spe_dump_line_bytes(const struct spe_packet *pkt, const struct spe_dialect_rules *r)
{
	if (pkt->type == SPE_PKT_BAD || (pkt->type == SPE_PKT_UNKNOWN && !r->unknown_lines))
		return 1;
	return pkt->size;
}

int spe_pkt_describe(const struct spe_packet *pkt, enum spe_dialect dialect, uint32_t midr, char *buf, size_t size)
{
	const struct spe_dialect_rules *r = spe_dialect_rules_get(dialect);
	struct text_out o;
	if (!pkt || !r || (!buf && size))
		return -spe_invalid;
	out_init(&o, buf, size);
	spe_describe_out(&o, pkt, r, midr);
	out_finish(&o);
	return (int)(o.p - buf);
}

void spe_dump_line_out(struct text_out *o, const uint8_t *bytes, const struct spe_packet *pkt, uint64_t offset,
		       const struct spe_dialect_rules *r, uint32_t midr)
{
	static const char hex[] = "0123456789abcdef";
	static const char spaces[] = "                                                 "; /* 49 */
	unsigned n = spe_dump_line_bytes(pkt, r);
	out_str(o, ".  ");
	out_hex_width(o, offset, 8);
	out_str(o, ": ");
	if ((size_t)(o->end - o->p) > 49) {
		/* the common case: room for the 16 byte columns, written without checks */
		char *q = o->p;
		memcpy(q, spaces, 49); /* fixed size: a few vector stores, then the bytes over it */
		for (unsigned i = 0; i < n; i++)
			memcpy(q + 3 * i + 1, spe_hex_pairs + 2 * bytes[i], 2);
		o->p += 49;
		o->len += 49;
	} else {
		for (unsigned i = 0; i < n; i++) {
			char t[3] = { ' ', hex[bytes[i] >> 4], hex[bytes[i] & 15] };
			out_mem(o, t, 3);
		}
		for (unsigned i = n; i < 16; i++)
			out_mem(o, "   ", 3);
		out_char(o, ' ');
	}
	spe_describe_out(o, pkt, r, midr);
	out_char(o, '\n');
}

int spe_pkt_dump_line(const uint8_t *bytes, const struct spe_packet *pkt, uint64_t offset, enum spe_dialect dialect,
		      uint32_t midr, char *buf, size_t size)
{
	const struct spe_dialect_rules *r = spe_dialect_rules_get(dialect);
	struct text_out o;
	if (!bytes || !pkt || !r || (!buf && size))
		return -spe_invalid;
	if (pkt->type != SPE_PKT_BAD && (pkt->size == 0 || pkt->size > 16))
		return -spe_invalid;
	out_init(&o, buf, size);
	spe_dump_line_out(&o, bytes, pkt, offset, r, midr);
	out_finish(&o);
	return (int)(o.p - buf);
}
