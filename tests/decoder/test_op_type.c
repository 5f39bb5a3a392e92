/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Op-type decoding: spe_op_decode for a few dozen hand-checked payloads, and
 * the dump text of all 4 x 256 op-type packets in both dialects against a
 * second, independent implementation of the tables of docs/spe-format.md §1.7
 * written here with snprintf, plus invariants over the flags.
 */
#include "check.h"
#include "spe/spe.h"

static void cat(char *buf, size_t size, const char *s)
{
	size_t n = strlen(buf);
	snprintf(buf + n, size - n, "%s", s);
}

static void catn(char *buf, size_t size, const char *fmt, unsigned v)
{
	char tmp[32];
	snprintf(tmp, sizeof tmp, fmt, v);
	cat(buf, size, tmp);
}

/* §1.7 as tables, newest column (newest != 0) or the 6.1 column. */
static void reference_text(unsigned cls, unsigned p, int newest, char *out, size_t size)
{
	out[0] = '\0';
	if (cls == 0) {
		if ((p & 0x89) == 0x08) {
			catn(out, size, "SVE-OTHER EVLEN %u", 32u << ((p >> 4) & 7));
			if (p & 2)
				cat(out, size, " FP");
			if (p & 4)
				cat(out, size, " PRED");
		} else if (newest && (p & 0x89) == 0x88) {
			catn(out, size, "SME-OTHER ETS %u", 128u << ((((p >> 4) & 7) << 1) | ((p >> 2) & 1)));
			if (p & 2)
				cat(out, size, " FP");
		} else if (!newest || (p & 0xF8) == 0) {
			cat(out, size, "OTHER");
			if (newest && (p & 4))
				cat(out, size, " ASE");
			if (newest && (p & 2))
				cat(out, size, " FP");
			cat(out, size, p & 1 ? " COND-SELECT" : " INSN-OTHER");
		}
	} else if (cls == 1) {
		cat(out, size, p & 1 ? "ST" : "LD");
		int ext = (p & 0xE2) == 0x02;
		if (ext) {
			if (p & 4)
				cat(out, size, " AT");
			if (p & 8)
				cat(out, size, " EXCL");
			if (p & 16)
				cat(out, size, " AR");
		}
		if (newest && ext)
			return;
		const char *sub = NULL;
		switch (p & 0xFE) {
		case 0x04: sub = " SIMD-FP"; break;
		case 0x00: sub = " GP-REG"; break;
		case 0x10: sub = " UNSPEC-REG"; break;
		case 0x30: sub = " NV-SYSREG"; break;
		case 0x14: sub = newest ? " MTE-TAG" : NULL; break;
		case 0x20: sub = newest ? " MEMCPY" : NULL; break;
		}
		if (newest && p == 0x25)
			sub = " MEMSET";
		if (sub) {
			cat(out, size, sub);
			if (newest)
				return;
		}
		if ((p & 0x0A) == 0x08) {
			if (newest)
				cat(out, size, " SVE-SME-REG");
			catn(out, size, " EVLEN %u", 32u << ((p >> 4) & 7));
			if (p & 4)
				cat(out, size, " PRED");
			if (p & 0x80)
				cat(out, size, " SG");
		} else if (newest && (p & 0xFA) == 0x40) {
			cat(out, size, " GCS");
			if (p & 4)
				cat(out, size, " COMM");
		}
	} else if (cls == 2) {
		cat(out, size, "B");
		if (p & 1)
			cat(out, size, " COND");
		if (newest ? (p & 2) : (p & 0xFE) == 0x02)
			cat(out, size, " IND");
		if (newest) {
			static const char *const cr[] = { "", " CR-BL", " CR-RET", " CR-NON-BL-RET" };
			if (p & 4)
				cat(out, size, " GCS");
			cat(out, size, cr[(p >> 3) & 3]);
		}
	} else {
		catn(out, size, "OP-TYPE 0x%x (3)", p);
	}
}

TEST(dump_text_all_payloads_both_dialects)
{
	for (unsigned cls = 0; cls < 4; cls++) {
		for (unsigned p = 0; p < 256; p++) {
			struct spe_packet pkt = { .type = SPE_PKT_OP_TYPE, .size = 2, .header_size = 1, .payload_size = 1,
						  .index = (uint8_t)cls, .payload = p };
			char got[128], want[128];
			for (int newest = 0; newest < 2; newest++) {
				enum spe_dialect d = newest ? SPE_DIALECT_NEWEST : SPE_DIALECT_PERF_6_1;
				reference_text(cls, p, newest, want, sizeof want);
				int n = spe_pkt_describe(&pkt, d, 0, got, sizeof got);
				CHECK_INT_EQ(n, (int)strlen(want));
				if (strcmp(got, want))
					CHECK_FAIL_("class %u payload 0x%02x %s: \"%s\" != \"%s\"", cls, p,
						    newest ? "newest" : "6.1", got, want);
			}
			/* spe_record_op_text is the newest text of the same packet. */
			struct spe_record rec = { .has = SPE_HAS_OP_TYPE, .op_raw_class = (uint8_t)cls, .op_raw = (uint8_t)p };
			reference_text(cls, p, 1, want, sizeof want);
			spe_record_op_text(&rec, got, sizeof got);
			CHECK_STR_EQ(got, want);
		}
	}
}

struct op_case {
	uint8_t cls, p, op_class;
	uint32_t flags;
	uint16_t evl;
};

/* Worked out by hand from §1.7 (newest rules). */
static const struct op_case cases[] = {
	{ 0, 0x00, SPE_OP_CLASS_OTHER, SPE_OPF(INSN_OTHER), 0 },
	{ 0, 0x01, SPE_OP_CLASS_OTHER, SPE_OPF(COND_SELECT), 0 },
	{ 0, 0x06, SPE_OP_CLASS_OTHER, SPE_OPF(ASE) | SPE_OPF(FP) | SPE_OPF(INSN_OTHER), 0 },
	{ 0, 0x0e, SPE_OP_CLASS_OTHER, SPE_OPF(SVE_OTHER) | SPE_OPF(FP) | SPE_OPF(PREDICATED), 32 },
	{ 0, 0x7a, SPE_OP_CLASS_OTHER, SPE_OPF(SVE_OTHER) | SPE_OPF(FP), 4096 },
	{ 0, 0x9e, SPE_OP_CLASS_OTHER, SPE_OPF(SME_OTHER) | SPE_OPF(FP), 1024 },
	{ 0, 0x88, SPE_OP_CLASS_OTHER, SPE_OPF(SME_OTHER), 128 },
	{ 0, 0xfe, SPE_OP_CLASS_OTHER, SPE_OPF(SME_OTHER) | SPE_OPF(FP), 65535 }, /* 4194304 saturated */
	{ 0, 0x10, SPE_OP_CLASS_OTHER, 0, 0 },
	{ 0, 0x81, SPE_OP_CLASS_OTHER, 0, 0 },
	{ 1, 0x00, SPE_OP_CLASS_LOAD, SPE_OPF(LOAD) | SPE_OPF(GP_REG), 0 },
	{ 1, 0x01, SPE_OP_CLASS_STORE, SPE_OPF(STORE) | SPE_OPF(GP_REG), 0 },
	{ 1, 0x02, SPE_OP_CLASS_LOAD, SPE_OPF(LOAD), 0 },
	{ 1, 0x16, SPE_OP_CLASS_LOAD, SPE_OPF(LOAD) | SPE_OPF(ATOMIC) | SPE_OPF(ACQ_REL), 0 },
	{ 1, 0x1f, SPE_OP_CLASS_STORE, SPE_OPF(STORE) | SPE_OPF(ATOMIC) | SPE_OPF(EXCLUSIVE) | SPE_OPF(ACQ_REL), 0 },
	{ 1, 0x05, SPE_OP_CLASS_STORE, SPE_OPF(STORE) | SPE_OPF(SIMD_FP), 0 },
	{ 1, 0x10, SPE_OP_CLASS_LOAD, SPE_OPF(LOAD) | SPE_OPF(UNSPEC_REG), 0 },
	{ 1, 0x31, SPE_OP_CLASS_STORE, SPE_OPF(STORE) | SPE_OPF(NV_SYSREG), 0 },
	{ 1, 0x14, SPE_OP_CLASS_LOAD, SPE_OPF(LOAD) | SPE_OPF(MTE_TAG), 0 },
	{ 1, 0x21, SPE_OP_CLASS_STORE, SPE_OPF(STORE) | SPE_OPF(MEMCPY), 0 },
	{ 1, 0x25, SPE_OP_CLASS_STORE, SPE_OPF(STORE) | SPE_OPF(MEMSET), 0 },
	{ 1, 0x24, SPE_OP_CLASS_LOAD, SPE_OPF(LOAD), 0 },
	{ 1, 0x08, SPE_OP_CLASS_LOAD, SPE_OPF(LOAD) | SPE_OPF(SVE_SME_REG), 32 },
	{ 1, 0xfc, SPE_OP_CLASS_LOAD,
	  SPE_OPF(LOAD) | SPE_OPF(SVE_SME_REG) | SPE_OPF(PREDICATED) | SPE_OPF(SCATTER_GATHER), 4096 },
	{ 1, 0x5d, SPE_OP_CLASS_STORE, SPE_OPF(STORE) | SPE_OPF(SVE_SME_REG) | SPE_OPF(PREDICATED), 1024 },
	{ 1, 0x40, SPE_OP_CLASS_LOAD, SPE_OPF(LOAD) | SPE_OPF(GCS), 0 },
	{ 1, 0x45, SPE_OP_CLASS_STORE, SPE_OPF(STORE) | SPE_OPF(GCS) | SPE_OPF(GCS_COMM), 0 },
	{ 1, 0x42, SPE_OP_CLASS_LOAD, SPE_OPF(LOAD), 0 },
	{ 2, 0x00, SPE_OP_CLASS_BRANCH, 0, 0 },
	{ 2, 0x01, SPE_OP_CLASS_BRANCH, SPE_OPF(BR_COND), 0 },
	{ 2, 0x0b, SPE_OP_CLASS_BRANCH, SPE_OPF(BR_COND) | SPE_OPF(BR_INDIRECT) | SPE_OPF(CR_BL), 0 },
	{ 2, 0x12, SPE_OP_CLASS_BRANCH, SPE_OPF(BR_INDIRECT) | SPE_OPF(CR_RET), 0 },
	{ 2, 0x1c, SPE_OP_CLASS_BRANCH, SPE_OPF(BR_GCS) | SPE_OPF(CR_NON_BL_RET), 0 },
	{ 2, 0xe0, SPE_OP_CLASS_BRANCH, 0, 0 },
	{ 3, 0x00, SPE_OP_CLASS_UNKNOWN, 0, 0 },
	{ 3, 0xff, SPE_OP_CLASS_UNKNOWN, 0, 0 },
};

TEST(hand_checked_cases)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint8_t cls = 0xEE;
		uint32_t flags = 0xDEAD;
		uint16_t evl = 0xBEEF;
		spe_op_decode(cases[i].cls, cases[i].p, &cls, &flags, &evl);
		if (cls != cases[i].op_class || flags != cases[i].flags || evl != cases[i].evl)
			CHECK_FAIL_("class %u payload 0x%02x: got class %u flags 0x%x evl %u, want %u 0x%x %u",
				    cases[i].cls, cases[i].p, cls, flags, evl, cases[i].op_class, cases[i].flags,
				    cases[i].evl);
	}
}

TEST(invariants_all_payloads)
{
	const uint32_t ldst_groups[] = {
		SPE_OPF(ATOMIC) | SPE_OPF(EXCLUSIVE) | SPE_OPF(ACQ_REL), SPE_OPF(SIMD_FP), SPE_OPF(GP_REG),
		SPE_OPF(UNSPEC_REG), SPE_OPF(NV_SYSREG), SPE_OPF(MTE_TAG), SPE_OPF(MEMCPY), SPE_OPF(MEMSET),
		SPE_OPF(SVE_SME_REG) | SPE_OPF(PREDICATED) | SPE_OPF(SCATTER_GATHER), SPE_OPF(GCS) | SPE_OPF(GCS_COMM),
	};
	const uint32_t branch_flags = SPE_OPF(BR_COND) | SPE_OPF(BR_INDIRECT) | SPE_OPF(BR_GCS) | SPE_OPF(CR_BL) |
				      SPE_OPF(CR_RET) | SPE_OPF(CR_NON_BL_RET);
	for (unsigned c = 0; c < 4; c++) {
		for (unsigned p = 0; p < 256; p++) {
			uint8_t cls;
			uint32_t f;
			uint16_t evl;
			spe_op_decode((uint8_t)c, (uint8_t)p, &cls, &f, &evl);
			if (c == 1) {
				CHECK_INT_EQ(cls, p & 1 ? SPE_OP_CLASS_STORE : SPE_OP_CLASS_LOAD);
				CHECK_INT_EQ(!!(f & SPE_OPF(STORE)), p & 1);
				CHECK_INT_EQ(!!(f & SPE_OPF(LOAD)), !(p & 1));
				int groups = 0;
				for (size_t g = 0; g < sizeof ldst_groups / sizeof ldst_groups[0]; g++)
					groups += (f & ldst_groups[g]) != 0;
				CHECK(groups <= 1); /* newest: one subclass at most */
				CHECK_INT_EQ(evl != 0, !!(f & SPE_OPF(SVE_SME_REG)));
			} else if (c == 2) {
				CHECK_INT_EQ(cls, SPE_OP_CLASS_BRANCH);
				CHECK_INT_EQ(f & ~branch_flags, 0);
				CHECK(!((f & SPE_OPF(CR_BL)) && (f & SPE_OPF(CR_RET))));
			} else if (c == 3) {
				CHECK_INT_EQ(cls, SPE_OP_CLASS_UNKNOWN);
				CHECK_INT_EQ(f, 0);
			} else {
				CHECK_INT_EQ(cls, SPE_OP_CLASS_OTHER);
				CHECK_INT_EQ(evl != 0, !!(f & (SPE_OPF(SVE_OTHER) | SPE_OPF(SME_OTHER))));
			}
		}
	}
	/* NULL outputs are allowed */
	spe_op_decode(1, 0, NULL, NULL, NULL);
}

TEST(record_op_text_args)
{
	struct spe_record rec = { 0 };
	char buf[8];
	CHECK_INT_EQ(spe_record_op_text(NULL, buf, sizeof buf), -spe_invalid);
	CHECK_INT_EQ(spe_record_op_text(&rec, NULL, 4), -spe_invalid);
	CHECK_INT_EQ(spe_record_op_text(&rec, buf, sizeof buf), 0); /* no op-type packet: empty */
	CHECK_STR_EQ(buf, "");
	rec.has = SPE_HAS_OP_TYPE;
	rec.op_raw_class = 1;
	rec.op_raw = 0;
	/* "LD GP-REG" does not fit 8 bytes: truncated, NUL-terminated, full length returned */
	CHECK_INT_EQ(spe_record_op_text(&rec, buf, sizeof buf), 9);
	CHECK_STR_EQ(buf, "LD GP-R");
	CHECK_INT_EQ(spe_record_op_text(&rec, NULL, 0), 9);
}

int main(void)
{
	RUN(dump_text_all_payloads_both_dialects);
	RUN(hand_checked_cases);
	RUN(invariants_all_payloads);
	RUN(record_op_text_args);
	return check_summary();
}
