/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Encoder: the decoder's mirror.  Appends SPE packets to a byte buffer, for
 * fixtures, differential tests, benchmarks and synthetic traces.  Every
 * function returns the number of bytes appended (> 0) or a negative
 * -spe_<code>; after the first error the encoder keeps failing with it.
 */
#ifndef SPE_ENCODER_H
#define SPE_ENCODER_H

#include <stddef.h>
#include <stdint.h>

#include "spe/spe.h"

#ifdef __cplusplus
extern "C" {
#endif

struct spe_enc {
	uint8_t *buf;
	size_t len;      /* bytes written */
	size_t cap;
	uint64_t base;   /* stream offset of buf[0] (alignment pads are measured from it) */
	int error;       /* first error, sticky */
	int owned;       /* buf is malloc'd by the encoder and grows */
};

/* Write into @p buf of @p cap bytes; with buf == NULL the encoder allocates and grows its own. */
SPE_API void spe_enc_init(struct spe_enc *enc, uint8_t *buf, size_t cap);
/* Free an encoder-owned buffer (no-op for a caller's buffer). */
SPE_API void spe_enc_fini(struct spe_enc *enc);

SPE_API int spe_enc_raw(struct spe_enc *enc, const uint8_t *bytes, size_t n);
/* @p n PAD bytes (0x00). */
SPE_API int spe_enc_pad(struct spe_enc *enc, size_t n);
SPE_API int spe_enc_end(struct spe_enc *enc);
SPE_API int spe_enc_timestamp(struct spe_enc *enc, uint64_t ts);
/*
 * ADDRESS packet with a raw 64-bit payload.  Indices 0-31; index >= 8, or
 * @p extended != 0, uses the 2-byte extended header.
 */
SPE_API int spe_enc_address(struct spe_enc *enc, unsigned index, uint64_t payload, int extended);
/* The payload of an instruction address (PC, TGT, PBT): bits 55:0, NSE, EL, NS. */
SPE_API uint64_t spe_enc_ip_payload(uint64_t addr, unsigned el, unsigned ns, unsigned nse);
/* The payload of a data VA: bits 55:0 and the top-byte tag. */
SPE_API uint64_t spe_enc_va_payload(uint64_t va, uint8_t tag);
/* The payload of a data PA: bits 55:0, PAT, CH, NS. */
SPE_API uint64_t spe_enc_pa_payload(uint64_t pa, unsigned ns, unsigned ch, unsigned pat);
/* COUNTER packet; same header rules as spe_enc_address. */
SPE_API int spe_enc_counter(struct spe_enc *enc, unsigned index, uint16_t value, int extended);
/* CONTEXT packet, index 0-3. */
SPE_API int spe_enc_context(struct spe_enc *enc, unsigned index, uint32_t value);
/* OPERATION TYPE packet, class 0-3. */
SPE_API int spe_enc_op_type(struct spe_enc *enc, unsigned op_class, uint8_t payload);
/* EVENTS / DATA SOURCE with a payload of @p size 1, 2, 4 or 8 bytes (0 = smallest that holds it). */
SPE_API int spe_enc_events(struct spe_enc *enc, uint64_t events, unsigned size);
SPE_API int spe_enc_data_source(struct spe_enc *enc, uint64_t value, unsigned size);
/*
 * Alignment pad to 2 << @p n (n = 0..3) bytes: header 0x2n 0x00, then zero
 * bytes up to the alignment, measured from the stream offset.
 */
SPE_API int spe_enc_align_pad(struct spe_enc *enc, unsigned n);

enum spe_enc_record_flags {
	SPE_ENC_PAD_TO_64 = 1u << 0, /* pad the record to 64 bytes before its terminator (N1 style) */
};

/*
 * Encode the fields of @p rec marked in rec->has, in Neoverse order (PC,
 * CONTEXT, OP, EV, ISSUE, TOT, VA/TGT, XLAT, PA, PBT, extras, DATA SOURCE),
 * terminated by TS if SPE_HAS_TIMESTAMP else END.  Addresses are written
 * from the canonical values and EL/NS bits; op type from op_raw_class/op_raw.
 */
SPE_API int spe_enc_record(struct spe_enc *enc, const struct spe_record *rec, unsigned flags);

#ifdef __cplusplus
}
#endif

#endif /* SPE_ENCODER_H */
