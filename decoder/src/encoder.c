/* SPDX-License-Identifier: Apache-2.0 */
/* The packet encoder (encoder.h): header layouts mirror packet_internal.h. */
#include <stdlib.h>
#include <string.h>

#include "spe/encoder.h"
#include "util/grow.h"

#define ADDR_MASK UINT64_C(0x00FFFFFFFFFFFFFF)

void spe_enc_init(struct spe_enc *enc, uint8_t *buf, size_t cap)
{
	if (!enc)
		return;
	memset(enc, 0, sizeof *enc);
	enc->buf = buf;
	enc->cap = buf ? cap : 0;
	enc->owned = !buf;
}

void spe_enc_fini(struct spe_enc *enc)
{
	if (!enc)
		return;
	if (enc->owned)
		free(enc->buf);
	enc->buf = NULL;
	enc->len = enc->cap = 0;
}

static int reserve(struct spe_enc *enc, size_t n)
{
	if (enc->error)
		return enc->error;
	if (enc->len + n <= enc->cap)
		return 0;
	if (!enc->owned)
		return enc->error = -spe_nomem;
	if (enc->len + n < enc->len)
		return enc->error = -spe_nomem;
	uint8_t *nb = util_grow(enc->buf, &enc->cap, enc->len + n, 1);
	if (!nb)
		return enc->error = -spe_nomem;
	enc->buf = nb;
	return 0;
}

static int put(struct spe_enc *enc, const uint8_t *bytes, size_t n)
{
	int err;
	if (!enc)
		return -spe_invalid;
	if ((err = reserve(enc, n)))
		return err;
	memcpy(enc->buf + enc->len, bytes, n);
	enc->len += n;
	return (int)n;
}

int spe_enc_raw(struct spe_enc *enc, const uint8_t *bytes, size_t n)
{
	if (!enc || (!bytes && n))
		return -spe_invalid;
	return put(enc, bytes, n);
}

int spe_enc_pad(struct spe_enc *enc, size_t n)
{
	int err;
	if (!enc)
		return -spe_invalid;
	if ((err = reserve(enc, n)))
		return err;
	memset(enc->buf + enc->len, 0, n);
	enc->len += n;
	return (int)n;
}

int spe_enc_end(struct spe_enc *enc)
{
	static const uint8_t end = 0x01;
	return put(enc, &end, 1);
}

/* Header byte(s) + little-endian payload.  @p type is the byte that carries bits [5:4]. */
static int put_packet(struct spe_enc *enc, int extended, uint8_t b0, uint8_t type, uint64_t payload)
{
	uint8_t tmp[10];
	size_t n = 0;
	unsigned size = 1u << ((type >> 4) & 3);
	if (extended)
		tmp[n++] = b0;
	tmp[n++] = type;
	for (unsigned i = 0; i < size; i++)
		tmp[n++] = (uint8_t)(payload >> (8 * i));
	return put(enc, tmp, n);
}

static unsigned size_code(uint64_t v, unsigned size)
{
	switch (size) {
	case 1: return 0;
	case 2: return 1;
	case 4: return 2;
	case 8: return 3;
	case 0: return v <= 0xFF ? 0 : v <= 0xFFFF ? 1 : v <= 0xFFFFFFFFu ? 2 : 3;
	default: return 4;
	}
}

int spe_enc_timestamp(struct spe_enc *enc, uint64_t ts)
{
	return put_packet(enc, 0, 0, 0x71, ts);
}

/* ADDRESS (0xB0) and COUNTER (0x98) share the index layout: ext byte 0x20 | idx[4:3], type | idx[2:0]. */
static int put_indexed(struct spe_enc *enc, uint8_t type, unsigned index, uint64_t payload, int extended)
{
	if (index > 31)
		return -spe_invalid;
	extended = extended || index > 7;
	return put_packet(enc, extended, (uint8_t)(0x20 | (index >> 3)), (uint8_t)(type | (index & 7)), payload);
}

int spe_enc_address(struct spe_enc *enc, unsigned index, uint64_t payload, int extended)
{
	return put_indexed(enc, 0xB0, index, payload, extended);
}

int spe_enc_counter(struct spe_enc *enc, unsigned index, uint16_t value, int extended)
{
	return put_indexed(enc, 0x98, index, value, extended);
}

uint64_t spe_enc_ip_payload(uint64_t addr, unsigned el, unsigned ns, unsigned nse)
{
	return (addr & ADDR_MASK) | (uint64_t)(nse & 1) << 60 | (uint64_t)(el & 3) << 61 | (uint64_t)(ns & 1) << 63;
}

uint64_t spe_enc_va_payload(uint64_t va, uint8_t tag)
{
	return (va & ADDR_MASK) | (uint64_t)tag << 56;
}

uint64_t spe_enc_pa_payload(uint64_t pa, unsigned ns, unsigned ch, unsigned pat)
{
	return (pa & ADDR_MASK) | (uint64_t)(pat & 0xF) << 56 | (uint64_t)(ch & 1) << 62 | (uint64_t)(ns & 1) << 63;
}

int spe_enc_context(struct spe_enc *enc, unsigned index, uint32_t value)
{
	if (index > 3)
		return -spe_invalid;
	return put_packet(enc, 0, 0, (uint8_t)(0x64 | index), value);
}

int spe_enc_op_type(struct spe_enc *enc, unsigned op_class, uint8_t payload)
{
	if (op_class > 3)
		return -spe_invalid;
	return put_packet(enc, 0, 0, (uint8_t)(0x48 | op_class), payload);
}

static int put_sized(struct spe_enc *enc, uint8_t type, uint64_t v, unsigned size)
{
	unsigned code = size_code(v, size);
	if (code > 3 || (code < 3 && (v >> (8u << code)) != 0))
		return -spe_invalid;
	return put_packet(enc, 0, 0, (uint8_t)(type | code << 4), v);
}

int spe_enc_events(struct spe_enc *enc, uint64_t events, unsigned size)
{
	return put_sized(enc, 0x42, events, size);
}

int spe_enc_data_source(struct spe_enc *enc, uint64_t value, unsigned size)
{
	return put_sized(enc, 0x43, value, size);
}

int spe_enc_align_pad(struct spe_enc *enc, unsigned n)
{
	if (!enc || n > 3)
		return -spe_invalid;
	unsigned align = 2u << n;
	unsigned len = align - (unsigned)((enc->base + enc->len) & (align - 1));
	uint8_t tmp[16] = { (uint8_t)(0x20 | n), 0x00 };
	return put(enc, tmp, len < 2 ? 2 : len);
}

static int ip_packet(struct spe_enc *enc, unsigned index, const struct spe_ip *ip)
{
	return spe_enc_address(enc, index, spe_enc_ip_payload(ip->addr, ip->el, ip->ns, ip->nse), 0);
}

int spe_enc_record(struct spe_enc *enc, const struct spe_record *r, unsigned flags)
{
	size_t start;
	int err;
	if (!enc || !r)
		return -spe_invalid;
	start = enc->len;
	if (r->has & SPE_HAS_PC)
		ip_packet(enc, SPE_ADDR_PC, &r->pc);
	if (r->has & SPE_HAS_CONTEXT)
		spe_enc_context(enc, r->context_index & 3, r->context);
	if (r->has & SPE_HAS_OP_TYPE)
		spe_enc_op_type(enc, r->op_raw_class & 3, r->op_raw);
	if (r->has & SPE_HAS_EVENTS)
		spe_enc_events(enc, r->events, 0);
	if (r->has & SPE_HAS_ISSUE_LATENCY)
		spe_enc_counter(enc, SPE_CNT_ISSUE, r->issue_latency, 0);
	if (r->has & SPE_HAS_TOTAL_LATENCY)
		spe_enc_counter(enc, SPE_CNT_TOTAL, r->total_latency, 0);
	if (r->has & SPE_HAS_DATA_VA)
		spe_enc_address(enc, SPE_ADDR_DATA_VA, spe_enc_va_payload(r->data_va, r->data_va_tag), 0);
	if (r->has & SPE_HAS_BRANCH_TARGET)
		ip_packet(enc, SPE_ADDR_BRANCH_TARGET, &r->branch_target);
	if (r->has & SPE_HAS_TRANSLATION_LATENCY)
		spe_enc_counter(enc, SPE_CNT_TRANSLATION, r->translation_latency, 0);
	if (r->has & SPE_HAS_DATA_PA)
		spe_enc_address(enc, SPE_ADDR_DATA_PA,
				spe_enc_pa_payload(r->data_pa, r->data_pa_ns, r->data_pa_ch, r->data_pa_pat), 0);
	if (r->has & SPE_HAS_PREV_BRANCH_TARGET)
		ip_packet(enc, SPE_ADDR_PREV_BRANCH_TARGET, &r->prev_branch_target);
	for (unsigned i = 0; i < r->n_extra_counters && i < SPE_REC_MAX_EXTRA; i++)
		spe_enc_counter(enc, r->extra_counters[i].index, r->extra_counters[i].value, 0);
	for (unsigned i = 0; i < r->n_extra_addresses && i < SPE_REC_MAX_EXTRA; i++)
		spe_enc_address(enc, r->extra_addresses[i].index, r->extra_addresses[i].value, 0);
	if (r->has & SPE_HAS_DATA_SOURCE)
		spe_enc_data_source(enc, r->data_source, 0);
	if (enc->error)
		return enc->error;
	size_t term = r->has & SPE_HAS_TIMESTAMP ? 9 : 1;
	if ((flags & SPE_ENC_PAD_TO_64) && enc->len - start + term < 64)
		spe_enc_pad(enc, 64 - (enc->len - start + term));
	err = r->has & SPE_HAS_TIMESTAMP ? spe_enc_timestamp(enc, r->timestamp) : spe_enc_end(enc);
	if (err < 0)
		return err;
	return (int)(enc->len - start);
}
