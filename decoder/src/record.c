/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The streaming record decoder: packets → struct spe_record (docs/spe-format.md
 * §3.1 boundaries, §1.4 canonicalisation).  Bytes are decoded in place from
 * the caller's chunk; only a packet cut at a chunk end is copied (the
 * "carry") so that a following chunk can complete it (join = 1) or so that
 * it is decoded on its own, byte by byte, as perf does (join = 0).
 */
#include <stdlib.h>
#include <string.h>

#include "packet_internal.h"

#define ADDR_MASK UINT64_C(0x00FFFFFFFFFFFFFF)
#define TOP_BYTE UINT64_C(0xFF00000000000000)
#define MAX_PACKET 16   /* the longest packet: a 16-byte alignment pad */
#define QUEUE_MAX 64    /* records a held-back tail (< 32 bytes) can produce */

enum carry_state {
	CARRY_NONE,   /* nothing held back */
	CARRY_HELD,   /* carry[] holds the cut tail of the last chunk */
	CARRY_JOINED, /* carry[] holds that tail + the head of the new chunk */
};

struct op_entry {
	uint32_t flags;
	uint16_t evl;
	uint8_t cls;
};

struct spe_rec_decoder {
	struct spe_rec_config cfg;
	struct spe_rec_stats st;

	struct spe_record cur; /* the record being assembled */
	uint64_t cur_bytes;    /* its non-PAD bytes; 0 = no record started */
	/*
	 * A bad byte broke the record in progress: the packets after it, up to
	 * and including the next END or TIMESTAMP, are that record's tail and
	 * are dropped (or returned partial), never taken for a good record.
	 */
	int resync;

	const uint8_t *buf; /* the chunk */
	size_t len, pos;
	uint64_t base;

	enum carry_state carry_state;
	uint8_t carry[2 * MAX_PACKET + 16];
	size_t carry_len, carry_pos, carry_split; /* split: bytes that came from the old tail */
	uint64_t carry_base;

	struct spe_record queue[QUEUE_MAX];
	unsigned q_head, q_count;

	struct op_entry ops[4][256];
};

static void error(struct spe_rec_decoder *dec, uint64_t offset, int err, const char *reason)
{
	if (dec->cfg.on_error)
		dec->cfg.on_error(dec->cfg.ctx, offset, err, reason);
}

/*
 * Back to an all-zero record.  The fixed fields (the first 140 bytes) are
 * cleared in fixed 64-byte pieces, which compile to a few vector stores; one
 * memset of the whole becomes `rep stosq`, whose start-up cost was most of
 * a record's decode time.  The extra arrays only when a packet used them.
 */
static void reset_record(struct spe_rec_decoder *dec, struct spe_record *r)
{
	enum { FIXED = offsetof(struct spe_record, extra_counters) };
	char *z = (char *)r;
	size_t i = 0;
	if (r->n_extra_counters | r->n_extra_addresses) {
		memset(r->extra_counters, 0, sizeof r->extra_counters);
		memset(r->extra_addresses, 0, sizeof r->extra_addresses);
	}
	for (; i + 64 <= FIXED; i += 64)
		memset(z + i, 0, 64);
	memset(z + i, 0, FIXED - i);
	dec->cur_bytes = 0;
}

/* All of @p r to zero, the caller's struct included (no garbage past the extra counts). */
static inline void clear_record(struct spe_record *r)
{
	char *z = (char *)r;
	size_t i = 0;
	for (; i + 64 <= sizeof *r; i += 64)
		memset(z + i, 0, 64);
	memset(z + i, 0, sizeof *r - i);
}

/* PC, TGT, PBT: kernel addresses (NS=1, EL1/EL2) get their top byte filled. */
static inline void set_ip(struct spe_ip *ip, uint64_t p)
{
	ip->el = (uint8_t)((p >> 61) & 3);
	ip->ns = (uint8_t)(p >> 63);
	ip->nse = (uint8_t)((p >> 60) & 1);
	ip->addr = p & ADDR_MASK;
	if (ip->ns && (ip->el == 1 || ip->el == 2))
		ip->addr |= TOP_BYTE;
}

static void add_unknown(struct spe_rec_decoder *dec, struct spe_record *r)
{
	if (r->n_unknown_packets < UINT8_MAX)
		r->n_unknown_packets++;
	dec->st.unknown_packets++;
}

/*
 * The apply_* functions store one packet's fields into @p r and return the
 * SPE_HAS_* bit it sets (0 for an index the facts table does not name): the
 * caller keeps `has` in a register while it decodes a record.
 */
static inline uint32_t apply_address(struct spe_rec_decoder *dec, struct spe_record *r, unsigned idx, uint64_t p)
{
	switch (idx) {
	case SPE_ADDR_PC:
		set_ip(&r->pc, p);
		return SPE_HAS_PC;
	case SPE_ADDR_BRANCH_TARGET:
		set_ip(&r->branch_target, p);
		return SPE_HAS_BRANCH_TARGET;
	case SPE_ADDR_PREV_BRANCH_TARGET:
		set_ip(&r->prev_branch_target, p);
		return SPE_HAS_PREV_BRANCH_TARGET;
	case SPE_ADDR_DATA_VA: {
		uint64_t va = p & ADDR_MASK;
		if (((va >> 52) & 0xF) == 0xF)
			va |= TOP_BYTE;
		r->data_va_tag = (uint8_t)(p >> 56);
		r->data_va = va;
		return SPE_HAS_DATA_VA;
	}
	case SPE_ADDR_DATA_PA:
		r->data_pa = p & ADDR_MASK;
		r->data_pa_ns = (uint8_t)(p >> 63);
		r->data_pa_ch = (uint8_t)((p >> 62) & 1);
		r->data_pa_pat = (uint8_t)((p >> 56) & 0xF);
		return SPE_HAS_DATA_PA;
	default:
		if (r->n_extra_addresses < SPE_REC_MAX_EXTRA) {
			r->extra_addresses[r->n_extra_addresses].index = (uint8_t)idx;
			r->extra_addresses[r->n_extra_addresses].value = p;
			r->n_extra_addresses++;
		} else {
			dec->st.dropped_extras++;
		}
		add_unknown(dec, r);
		return 0;
	}
}

static inline uint32_t apply_counter(struct spe_rec_decoder *dec, struct spe_record *r, unsigned idx, uint16_t v)
{
	switch (idx) {
	case SPE_CNT_TOTAL:
		r->total_latency = v;
		return SPE_HAS_TOTAL_LATENCY;
	case SPE_CNT_ISSUE:
		r->issue_latency = v;
		return SPE_HAS_ISSUE_LATENCY;
	case SPE_CNT_TRANSLATION:
		r->translation_latency = v;
		return SPE_HAS_TRANSLATION_LATENCY;
	default:
		if (r->n_extra_counters < SPE_REC_MAX_EXTRA) {
			r->extra_counters[r->n_extra_counters].index = (uint8_t)idx;
			r->extra_counters[r->n_extra_counters].value = v;
			r->n_extra_counters++;
		} else {
			dec->st.dropped_extras++;
		}
		add_unknown(dec, r);
		return 0;
	}
}

static inline uint32_t apply_context(struct spe_rec_decoder *dec, struct spe_record *r, unsigned idx, uint32_t v)
{
	r->context = v;
	r->context_index = (uint8_t)idx;
	if (idx > SPE_CTX_EL2)
		add_unknown(dec, r);
	return SPE_HAS_CONTEXT;
}

static inline uint32_t apply_op(struct spe_rec_decoder *dec, struct spe_record *r, unsigned cls, uint8_t p)
{
	const struct op_entry *e = &dec->ops[cls & 3][p];
	r->op_raw_class = (uint8_t)cls;
	r->op_raw = p;
	r->op_class = e->cls;
	r->op_flags = e->flags;
	r->sve_evl = e->evl;
	if (e->cls == SPE_OP_CLASS_UNKNOWN)
		add_unknown(dec, r);
	return SPE_HAS_OP_TYPE;
}

/* A non-PAD packet from spe_pkt_decode (the slow path): its SPE_HAS_* bit. */
static uint32_t apply(struct spe_rec_decoder *dec, struct spe_record *r, const struct spe_packet *pkt)
{
	switch (pkt->type) {
	case SPE_PKT_END:
		return SPE_HAS_END;
	case SPE_PKT_TIMESTAMP:
		r->timestamp = pkt->payload;
		return SPE_HAS_TIMESTAMP;
	case SPE_PKT_ADDRESS:
		return apply_address(dec, r, pkt->index, pkt->payload);
	case SPE_PKT_COUNTER:
		return apply_counter(dec, r, pkt->index, (uint16_t)pkt->payload);
	case SPE_PKT_EVENTS:
		r->events = pkt->payload;
		return SPE_HAS_EVENTS;
	case SPE_PKT_DATA_SOURCE:
		r->data_source = pkt->payload;
		return SPE_HAS_DATA_SOURCE;
	case SPE_PKT_CONTEXT:
		return apply_context(dec, r, pkt->index, (uint32_t)pkt->payload);
	case SPE_PKT_OP_TYPE:
		return apply_op(dec, r, pkt->index, (uint8_t)pkt->payload);
	case SPE_PKT_UNKNOWN:
		add_unknown(dec, r); /* kept in the record's count; the record stays good */
		return 0;
	default:
		return 0; /* PADs never get here */
	}
}

/* The current record ends without a terminator.  Returns 1 if it is to be emitted. */
static int cut_record(struct spe_rec_decoder *dec, struct spe_record *r)
{
	if (!dec->cur_bytes)
		return 0;
	dec->st.partial_records++;
	if (dec->cfg.emit_partial) {
		r->has |= SPE_HAS_PARTIAL;
		return 1;
	}
	dec->st.skipped_bytes += dec->cur_bytes;
	reset_record(dec, r);
	return 0;
}

/*
 * Index just past the run of 0x00 (PAD) bytes that starts at p[i], looking
 * no further than limit.  Eight bytes at a time: in a little-endian word
 * the zero bytes before the first non-zero one are its trailing zero bits / 8.
 */
static inline size_t skip_pads(const uint8_t *p, size_t i, size_t limit)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
	while (i + 8 <= limit) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		if (w)
			return i + ((unsigned)__builtin_ctzll(w) >> 3);
		i += 8;
	}
#endif
	while (i < limit && p[i] == 0)
		i++;
	return i;
}

enum run_result {
	RUN_MORE = 0,   /* *pos reached limit, or a packet cut by len */
	RUN_RECORD = 1, /* a finished (or emitted partial) record is in r */
	RUN_TAIL = 2,   /* the tail of a broken record reached its terminator */
};

/*
 * Decode p[*pos ..) into @p r while *pos < limit (packets may read up to
 * len).  Returns RUN_RECORD with a finished (or emitted partial) record in
 * @p r, RUN_TAIL when the record that ends is a broken record's tail, and
 * RUN_MORE when *pos reaches limit or, unless @p final, stops at a packet
 * cut by len (*pos is left at its first byte).
 *
 * The record's `has` and its byte count live in locals while it is
 * assembled, and short-header packets with 10 bytes in reach (the longest
 * is 9) are decoded straight from the header-kind table.  Everything else
 * (extended headers, bad bytes, the last bytes of the data) goes through
 * spe_pkt_decode.  `restrict`: the record never overlaps the trace bytes,
 * so the compiler need not reload them after each store.
 */
static inline int run_packets(struct spe_rec_decoder *dec, struct spe_record *restrict r, const uint8_t *restrict p,
			      size_t len, size_t limit, size_t *pos, uint64_t base, int final)
{
	size_t i = *pos;
	size_t fast_end = len >= 10 ? len - 9 : 0; /* i < fast_end: len - i >= 10 */
	uint32_t has = r->has;
	uint64_t bytes = dec->cur_bytes; /* non-PAD bytes of the record; 0 = not started */
	int done = 0;

	if (fast_end > limit)
		fast_end = limit;
	while (i < limit) {
		uint8_t b0 = p[i];
		unsigned n;
		if (b0 == 0) {
			i = skip_pads(p, i + 1, limit);
			continue;
		}
		if (!bytes)
			r->offset = base + i;
		if (i < fast_end) {
			/* A run of short packets: no PAD between them, and the record has started. */
			for (;;) {
				const uint8_t *q = p + i;
				switch (spe_header_kind[b0]) {
				case SPE_HK_ADDRESS:
					has |= apply_address(dec, r, b0 & 7, spe_load_le(q + 1, 8));
					n = 9;
					break;
				case SPE_HK_COUNTER:
					has |= apply_counter(dec, r, b0 & 7, (uint16_t)spe_load_le(q + 1, 2));
					n = 3;
					break;
				case SPE_HK_OP_TYPE:
					has |= apply_op(dec, r, b0 & 3, q[1]);
					n = 2;
					break;
				case SPE_HK_EVENTS:
					n = spe_payload_size(b0);
					r->events = spe_load_le(q + 1, n);
					has |= SPE_HAS_EVENTS;
					n++;
					break;
				case SPE_HK_DATA_SOURCE:
					n = spe_payload_size(b0);
					r->data_source = spe_load_le(q + 1, n);
					has |= SPE_HAS_DATA_SOURCE;
					n++;
					break;
				case SPE_HK_CONTEXT:
					has |= apply_context(dec, r, b0 & 3, (uint32_t)spe_load_le(q + 1, 4));
					n = 5;
					break;
				case SPE_HK_TIMESTAMP:
					r->timestamp = spe_load_le(q + 1, 8);
					has |= SPE_HAS_TIMESTAMP;
					i += 9;
					bytes += 9;
					done = 1;
					goto out;
				case SPE_HK_END:
					has |= SPE_HAS_END;
					i += 1;
					bytes += 1;
					done = 1;
					goto out;
				default:
					goto slow; /* extended header or a bad byte */
				}
				i += n;
				bytes += n;
				if (i >= fast_end || (b0 = p[i]) == 0)
					break;
			}
			continue;
		}
	slow: {
		struct spe_packet pkt;
		int ret = spe_pkt_decode(p + i, len - i, base + i, &pkt);
		if (ret > 0) {
			i += (size_t)ret;
			if (pkt.type == SPE_PKT_ALIGN_PAD)
				continue;
			bytes += (size_t)ret;
			has |= apply(dec, r, &pkt);
			if (pkt.type == SPE_PKT_END || pkt.type == SPE_PKT_TIMESTAMP) {
				done = 1;
				goto out;
			}
			continue;
		}
		if (ret == -spe_need_more && !final)
			goto out;
		error(dec, base + i, ret,
		      ret == -spe_need_more ? "packet cut by the end of the data; skipped one byte"
					     : "not a packet header; skipped one byte");
		dec->st.bad_bytes++;
		dec->st.skipped_bytes++;
		i++;
		if (dec->resync)
			continue; /* already in a broken record's tail: it goes on to the terminator */
		/* The record in progress is cut here: its head ends, its tail begins. */
		dec->resync = 1;
		r->has = has;
		dec->cur_bytes = bytes;
		if (cut_record(dec, r)) {
			*pos = i;
			return RUN_RECORD;
		}
		has = r->has;
		bytes = dec->cur_bytes;
	}
	}
out:
	r->has = has;
	dec->cur_bytes = bytes;
	*pos = i;
	if (done && dec->resync)
		return RUN_TAIL;
	return done;
}

/*
 * run_packets, with the tail of a broken record dropped (or returned
 * partial) at its terminator.  Resynchronising at the next END or TIMESTAMP
 * rather than at the next PC packet: the Arm ARM defines where a record ends,
 * not how it starts (PC comes first on Neoverse, not on every part), and a
 * false start in the bytes after a bad header would make a good-looking
 * record of garbage, while waiting for the terminator only loses the rest of
 * a record that is broken anyway.
 */
static int run(struct spe_rec_decoder *dec, struct spe_record *restrict r, const uint8_t *restrict p, size_t len,
	       size_t limit, size_t *pos, uint64_t base, int final)
{
	for (;;) {
		int got = run_packets(dec, r, p, len, limit, pos, base, final);
		if (got != RUN_TAIL)
			return got;
		dec->resync = 0;
		if (cut_record(dec, r))
			return RUN_RECORD;
	}
}

/* The finished (or emitted partial) record @p r was handed out: count it, start anew. */
static void count_record(struct spe_rec_decoder *dec, const struct spe_record *r)
{
	if (!(r->has & SPE_HAS_PARTIAL))
		dec->st.records++;
	dec->cur_bytes = 0;
}

/*
 * *out = *in, in 64-byte pieces: a plain struct assignment of this size
 * becomes `rep movsq`, whose start-up cost made it the slowest step of a
 * record on x86 (measured: the pieces are vector moves).
 */
static inline void copy_record(struct spe_record *out, const struct spe_record *in)
{
	char *d = (char *)out;
	const char *s = (const char *)in;
	size_t i = 0;
	for (; i + 64 <= sizeof *out; i += 64)
		memcpy(d + i, s + i, 64);
	memcpy(d + i, s + i, sizeof *out - i);
}

/* Take the finished (or emitted partial) record out of dec->cur. */
static void take(struct spe_rec_decoder *dec, struct spe_record *out)
{
	count_record(dec, &dec->cur);
	copy_record(out, &dec->cur);
	reset_record(dec, &dec->cur);
}

static void enqueue(struct spe_rec_decoder *dec)
{
	if (dec->q_count < QUEUE_MAX) {
		take(dec, &dec->queue[(dec->q_head + dec->q_count) % QUEUE_MAX]);
		dec->q_count++;
	} else {
		reset_record(dec, &dec->cur); /* cannot happen: a tail is shorter than QUEUE_MAX bytes */
	}
}

/* Decode the held-back tail on its own (perf's behaviour); its records go to the queue. */
static void drain_tail(struct spe_rec_decoder *dec)
{
	size_t pos = 0;
	while (pos < dec->carry_len)
		if (run(dec, &dec->cur, dec->carry, dec->carry_len, dec->carry_len, &pos, dec->carry_base, 1))
			enqueue(dec);
	dec->carry_state = CARRY_NONE;
	dec->carry_len = 0;
}

struct spe_rec_decoder *spe_rec_alloc_decoder(const struct spe_rec_config *config)
{
	struct spe_rec_decoder *dec;
	if (config && config->size < offsetof(struct spe_rec_config, midr) + sizeof(uint32_t))
		return NULL;
	dec = calloc(1, sizeof *dec);
	if (!dec)
		return NULL;
	if (config)
		memcpy(&dec->cfg, config, config->size < sizeof dec->cfg ? config->size : sizeof dec->cfg);
	dec->cfg.size = sizeof dec->cfg;
	for (unsigned c = 0; c < 4; c++)
		for (unsigned v = 0; v < 256; v++)
			spe_op_decode((uint8_t)c, (uint8_t)v, &dec->ops[c][v].cls, &dec->ops[c][v].flags,
				      &dec->ops[c][v].evl);
	return dec;
}

void spe_rec_free_decoder(struct spe_rec_decoder *dec)
{
	free(dec);
}

int spe_rec_feed(struct spe_rec_decoder *dec, const uint8_t *buf, size_t len, uint64_t offset, int join)
{
	if (!dec || (!buf && len))
		return -spe_invalid;
	if ((dec->buf && dec->pos < dec->len) || dec->carry_state == CARRY_JOINED)
		return -spe_invalid; /* the previous chunk was not read to -spe_eos */
	if (dec->carry_state == CARRY_HELD) {
		if (join && len && offset == dec->carry_base + dec->carry_len) {
			size_t k = len < MAX_PACKET ? len : MAX_PACKET;
			memcpy(dec->carry + dec->carry_len, buf, k);
			dec->carry_split = dec->carry_len;
			dec->carry_len += k;
			dec->carry_pos = 0;
			dec->carry_state = CARRY_JOINED;
		} else {
			drain_tail(dec);
		}
	}
	dec->buf = buf;
	dec->len = len;
	dec->pos = 0;
	dec->base = offset;
	return 0;
}

/* Keep p[pos .. len) (a cut packet) for the next feed. */
static void hold_tail(struct spe_rec_decoder *dec, const uint8_t *p, size_t pos, size_t len, uint64_t base)
{
	memmove(dec->carry, p + pos, len - pos);
	dec->carry_len = len - pos;
	dec->carry_base = base + pos;
	dec->carry_state = CARRY_HELD;
}

int spe_rec_next(struct spe_rec_decoder *dec, struct spe_record *rec, size_t size)
{
	if (!dec || !rec || size < offsetof(struct spe_record, op_flags))
		return -spe_invalid;
	if (size > sizeof *rec)
		size = sizeof *rec;
	if (dec->q_count) {
		memcpy(rec, &dec->queue[dec->q_head], size);
		dec->q_head = (dec->q_head + 1) % QUEUE_MAX;
		dec->q_count--;
		return 0;
	}
	if (dec->carry_state == CARRY_JOINED) {
		int got = run(dec, &dec->cur, dec->carry, dec->carry_len, dec->carry_split, &dec->carry_pos, dec->carry_base, 0);
		if (dec->carry_pos >= dec->carry_split) {
			dec->pos = dec->carry_pos - dec->carry_split;
			dec->carry_state = CARRY_NONE;
			dec->carry_len = 0;
		} else if (!got) {
			/* Still cut: the new chunk was too short to complete the packet. */
			hold_tail(dec, dec->carry, dec->carry_pos, dec->carry_len, dec->carry_base);
			dec->pos = dec->len;
			return -spe_eos;
		}
		if (got) {
			struct spe_record tmp;
			take(dec, &tmp);
			memcpy(rec, &tmp, size);
			return 0;
		}
	}
	if (dec->buf && dec->pos < dec->len) {
		if (!dec->cur_bytes && size == sizeof *rec) {
			/*
			 * No record in progress: assemble straight into the caller's
			 * struct, so a finished record is not copied out of dec->cur
			 * (that copy was a sixth of the decode time).  A record the
			 * chunk end cuts moves to dec->cur, once per chunk.
			 */
			clear_record(rec);
			if (run(dec, rec, dec->buf, dec->len, dec->len, &dec->pos, dec->base, 0)) {
				count_record(dec, rec);
				return 0;
			}
			if (dec->cur_bytes) {
				uint64_t started = dec->cur_bytes;
				copy_record(&dec->cur, rec);
				dec->cur_bytes = started;
			}
		} else if (run(dec, &dec->cur, dec->buf, dec->len, dec->len, &dec->pos, dec->base, 0)) {
			if (size == sizeof *rec) {
				take(dec, rec);
			} else {
				struct spe_record tmp;
				take(dec, &tmp);
				memcpy(rec, &tmp, size);
			}
			return 0;
		}
		if (dec->pos < dec->len) {
			hold_tail(dec, dec->buf, dec->pos, dec->len, dec->base);
			dec->pos = dec->len;
		}
	}
	return -spe_eos;
}

void spe_rec_flush(struct spe_rec_decoder *dec)
{
	if (!dec)
		return;
	if (dec->carry_state == CARRY_JOINED) {
		/* Flushed without reading to -spe_eos: what is left is not decoded. */
		dec->st.skipped_bytes += dec->carry_split - dec->carry_pos;
		dec->carry_state = CARRY_NONE;
		dec->carry_len = 0;
	}
	if (dec->buf && dec->pos < dec->len)
		dec->st.skipped_bytes += dec->len - dec->pos;
	dec->buf = NULL;
	dec->len = dec->pos = 0;
	if (dec->carry_state == CARRY_HELD)
		drain_tail(dec);
	dec->resync = 0; /* the stream ends: a tail in progress is cut below */
	if (cut_record(dec, &dec->cur))
		enqueue(dec);
}

void spe_rec_get_stats(const struct spe_rec_decoder *dec, struct spe_rec_stats *stats, size_t size)
{
	if (!dec || !stats)
		return;
	memcpy(stats, &dec->st, size < sizeof dec->st ? size : sizeof dec->st);
}
