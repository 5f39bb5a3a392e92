/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OPERATION TYPE packets: payload bits → class and SPE_OPF flags, and the
 * flags → `-D` words.  Bit tests follow docs/spe-format.md §1.7; where perf 6.1
 * and the newest perf disagree, the dialect row decides.
 */
#include "dialect.h"
#include "dump_words.h"
#include "op_text.h"
#include "text_out.h"

static const char *const op_words[SPE_OPF_BIT_COUNT] = {
#define SPE_X(id, word, desc) [SPE_OPF_BIT_##id] = word,
	SPE_OP_FLAG_LIST(SPE_X)
#undef SPE_X
};


static uint32_t sve_evlen(uint8_t p)
{
	return 32u << ((p >> 4) & 7);
}

static uint32_t decode_other(const struct spe_dialect_rules *r, uint8_t p, uint32_t *evl)
{
	uint32_t f = 0;
	if ((p & 0x89) == 0x08) {
		f = SPE_OPF(SVE_OTHER);
		if (p & 0x02)
			f |= SPE_OPF(FP);
		if (p & 0x04)
			f |= SPE_OPF(PREDICATED);
		*evl = sve_evlen(p);
		return f;
	}
	if (!r->other_ase_sme)
		return p & 1 ? SPE_OPF(COND_SELECT) : SPE_OPF(INSN_OTHER);
	if ((p & 0x89) == 0x88) {
		/* Effective tile size: 128 << (p[6:4]:p[2]). */
		f = SPE_OPF(SME_OTHER);
		if (p & 0x02)
			f |= SPE_OPF(FP);
		*evl = 128u << ((((p >> 4) & 7) << 1) | ((p >> 2) & 1));
		return f;
	}
	if ((p & 0xF8) == 0) {
		if (p & 0x04)
			f |= SPE_OPF(ASE);
		if (p & 0x02)
			f |= SPE_OPF(FP);
		f |= p & 1 ? SPE_OPF(COND_SELECT) : SPE_OPF(INSN_OTHER);
	}
	return f; /* unassigned encoding: no flags, empty text */
}

static uint32_t gp_extended(uint8_t p)
{
	uint32_t f = 0;
	if (p & 0x04)
		f |= SPE_OPF(ATOMIC);
	if (p & 0x08)
		f |= SPE_OPF(EXCLUSIVE);
	if (p & 0x10)
		f |= SPE_OPF(ACQ_REL);
	return f;
}

static uint32_t sve_sme_reg(uint8_t p, uint32_t *evl)
{
	uint32_t f = 0;
	if (p & 0x04)
		f |= SPE_OPF(PREDICATED);
	if (p & 0x80)
		f |= SPE_OPF(SCATTER_GATHER);
	*evl = sve_evlen(p);
	return f;
}

static uint32_t decode_ldst(const struct spe_dialect_rules *r, uint8_t p, uint32_t *evl)
{
	uint32_t f = p & 1 ? SPE_OPF(STORE) : SPE_OPF(LOAD);
	uint8_t sub = p & 0xFE;

	if (!r->ldst_chain) {
		/* perf 6.1: three independent tests, no MTE/MEMCPY/MEMSET/GCS, no SVE-SME-REG word. */
		if ((p & 0xE2) == 0x02)
			f |= gp_extended(p);
		if (sub == 0x04)
			f |= SPE_OPF(SIMD_FP);
		else if (sub == 0x00)
			f |= SPE_OPF(GP_REG);
		else if (sub == 0x10)
			f |= SPE_OPF(UNSPEC_REG);
		else if (sub == 0x30)
			f |= SPE_OPF(NV_SYSREG);
		if ((p & 0x0A) == 0x08)
			f |= sve_sme_reg(p, evl);
		return f;
	}
	if ((p & 0xE2) == 0x02)
		f |= gp_extended(p);
	else if (sub == 0x04)
		f |= SPE_OPF(SIMD_FP);
	else if (sub == 0x00)
		f |= SPE_OPF(GP_REG);
	else if (sub == 0x10)
		f |= SPE_OPF(UNSPEC_REG);
	else if (sub == 0x30)
		f |= SPE_OPF(NV_SYSREG);
	else if (sub == 0x14)
		f |= SPE_OPF(MTE_TAG);
	else if (sub == 0x20)
		f |= SPE_OPF(MEMCPY);
	else if (p == 0x25)
		f |= SPE_OPF(MEMSET);
	else if ((p & 0x0A) == 0x08)
		f |= SPE_OPF(SVE_SME_REG) | sve_sme_reg(p, evl);
	else if ((p & 0xFA) == 0x40)
		f |= SPE_OPF(GCS) | (p & 0x04 ? SPE_OPF(GCS_COMM) : 0);
	return f;
}

static uint32_t decode_branch(const struct spe_dialect_rules *r, uint8_t p)
{
	uint32_t f = 0;
	if (p & 0x01)
		f |= SPE_OPF(BR_COND);
	if (!r->branch_bits) {
		if ((p & 0xFE) == 0x02)
			f |= SPE_OPF(BR_INDIRECT);
		return f;
	}
	if (p & 0x02)
		f |= SPE_OPF(BR_INDIRECT);
	if (p & 0x04)
		f |= SPE_OPF(BR_GCS);
	switch ((p >> 3) & 3) {
	case 1: f |= SPE_OPF(CR_BL); break;
	case 2: f |= SPE_OPF(CR_RET); break;
	case 3: f |= SPE_OPF(CR_NON_BL_RET); break;
	}
	return f;
}

void spe_op_decode_rules(const struct spe_dialect_rules *r, uint8_t raw_class, uint8_t p, uint8_t *op_class,
			 uint32_t *op_flags, uint32_t *sve_evl)
{
	uint8_t cls;
	uint32_t f;
	uint32_t evl = 0;
	switch (raw_class & 3) {
	case 0:
		cls = SPE_OP_CLASS_OTHER;
		f = decode_other(r, p, &evl);
		break;
	case 1:
		cls = p & 1 ? SPE_OP_CLASS_STORE : SPE_OP_CLASS_LOAD;
		f = decode_ldst(r, p, &evl);
		break;
	case 2:
		cls = SPE_OP_CLASS_BRANCH;
		f = decode_branch(r, p);
		break;
	default:
		cls = SPE_OP_CLASS_UNKNOWN;
		f = 0;
		break;
	}
	if (op_class)
		*op_class = cls;
	if (op_flags)
		*op_flags = f;
	if (sve_evl)
		*sve_evl = evl;
}

void spe_op_decode(uint8_t raw_class, uint8_t payload, uint8_t *op_class, uint32_t *op_flags, uint16_t *sve_evl)
{
	uint32_t evl;
	spe_op_decode_rules(spe_dialect_rules_get(SPE_DIALECT_NEWEST), raw_class, payload, op_class, op_flags, &evl);
	if (sve_evl)
		*sve_evl = evl > UINT16_MAX ? UINT16_MAX : (uint16_t)evl; /* SME tile sizes above 64 Kibit saturate */
}

/* Append the words of the flags in [first, last] that are set, in list order. */
static void out_flag_words(struct text_out *o, uint32_t f, int first, int last)
{
	for (int b = first; b <= last; b++)
		if (f & (1u << b))
			out_word(o, op_words[b]);
}

void spe_op_text_out(struct text_out *o, uint8_t raw_class, uint8_t p, uint8_t cls, uint32_t f, uint32_t evl)
{
	switch (raw_class & 3) {
	case 0:
		if (f & SPE_OPF(SVE_OTHER)) {
			out_str(o, op_words[SPE_OPF_BIT_SVE_OTHER]);
			out_word(o, DW(EVLEN));
			out_char(o, ' ');
			out_udec(o, evl);
			out_flag_words(o, f, SPE_OPF_BIT_FP, SPE_OPF_BIT_FP);
			out_flag_words(o, f, SPE_OPF_BIT_PREDICATED, SPE_OPF_BIT_PREDICATED);
		} else if (f & SPE_OPF(SME_OTHER)) {
			out_str(o, op_words[SPE_OPF_BIT_SME_OTHER]);
			out_word(o, DW(ETS));
			out_char(o, ' ');
			out_udec(o, evl);
			out_flag_words(o, f, SPE_OPF_BIT_FP, SPE_OPF_BIT_FP);
		} else if (f & (SPE_OPF(COND_SELECT) | SPE_OPF(INSN_OTHER))) {
			out_str(o, DW(OP_OTHER));
			out_flag_words(o, f, SPE_OPF_BIT_ASE, SPE_OPF_BIT_INSN_OTHER);
		}
		break;
	case 1:
		out_str(o, op_words[cls == SPE_OP_CLASS_STORE ? SPE_OPF_BIT_STORE : SPE_OPF_BIT_LOAD]);
		out_flag_words(o, f, SPE_OPF_BIT_ATOMIC, SPE_OPF_BIT_SVE_SME_REG);
		if (evl) {
			out_word(o, DW(EVLEN));
			out_char(o, ' ');
			out_udec(o, evl);
		}
		out_flag_words(o, f, SPE_OPF_BIT_GCS, SPE_OPF_BIT_SCATTER_GATHER);
		break;
	case 2:
		out_str(o, DW(OP_BRANCH));
		out_flag_words(o, f, SPE_OPF_BIT_BR_COND, SPE_OPF_BIT_CR_NON_BL_RET);
		break;
	default:
		out_str(o, DW(OP_UNKNOWN));
		out_str(o, " 0x");
		out_hex(o, p);
		out_str(o, " (");
		out_udec(o, raw_class & 3);
		out_char(o, ')');
		break;
	}
}

int spe_record_op_text(const struct spe_record *rec, char *buf, size_t size)
{
	struct text_out o;
	if (!rec || (!buf && size))
		return -spe_invalid;
	out_init(&o, buf, size);
	if (rec->has & SPE_HAS_OP_TYPE) {
		uint8_t cls;
		uint32_t f, evl;
		spe_op_decode_rules(spe_dialect_rules_get(SPE_DIALECT_NEWEST), rec->op_raw_class, rec->op_raw, &cls, &f,
				    &evl);
		spe_op_text_out(&o, rec->op_raw_class, rec->op_raw, cls, f, evl);
	}
	out_finish(&o);
	return (int)o.len;
}
