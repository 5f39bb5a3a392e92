/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SPE interrupt in an ACPI MADT.  Layout (ACPI 6.5, 5.2.12): a 36-byte
 * table header ("APIC", u32 length, ...), u32 local interrupt controller
 * address, u32 flags, then entries of { u8 type, u8 length, ... }.  A GICC
 * entry is type 11; its flags (offset 12) say enabled (bit 0) or online
 * capable (bit 3); ACPI 6.3 put the SPE overflow interrupt, a u16 GSI, at
 * offset 78, so an entry shorter than 80 bytes has none.  Linux registers
 * the arm,spe-v1 platform device only when every usable GICC names the same
 * non-zero interrupt (drivers/perf/arm_pmu_acpi.c).
 */
#include "spe/doctor.h"

#include <stdio.h>
#include <string.h>

#define MADT_HEADER 44u
#define GICC_TYPE 11u
#define GICC_FLAGS 12u
#define GICC_SPE_IRQ 78u
#define GICC_WITH_SPE 80u

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int spe_madt_parse(const uint8_t *table, size_t len, struct spe_madt_spe *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	if (len < MADT_HEADER || memcmp(table, "APIC", 4)) {
		snprintf(err, errlen, "offset 0: not an ACPI MADT (no \"APIC\" header of %u bytes)", MADT_HEADER);
		return -spe_bad_input;
	}
	uint32_t total = le32(table + 4);
	if (total < MADT_HEADER || total > len) {
		snprintf(err, errlen, "offset 4: table length %u outside the %zu bytes read", total, len);
		return -spe_bad_input;
	}
	for (uint32_t off = MADT_HEADER; off < total;) {
		if (total - off < 2) {
			snprintf(err, errlen, "offset %u: truncated entry header", off);
			return -spe_bad_input;
		}
		uint8_t type = table[off], elen = table[off + 1];
		if (elen < 2 || elen > total - off) {
			snprintf(err, errlen, "offset %u: entry length %u does not fit the table", off + 1, elen);
			return -spe_bad_input;
		}
		if (type == GICC_TYPE && elen > GICC_FLAGS + 4 && (le32(table + off + GICC_FLAGS) & 0x9)) {
			out->gicc++;
			if (elen < GICC_WITH_SPE) {
				out->without_field++;
			} else {
				unsigned irq = (unsigned)table[off + GICC_SPE_IRQ] | (unsigned)table[off + GICC_SPE_IRQ + 1] << 8;
				if (irq) {
					if (out->with_irq && irq != out->first_irq)
						out->mixed = true;
					if (!out->with_irq)
						out->first_irq = irq;
					out->with_irq++;
				}
			}
		}
		off += elen;
	}
	return 0;
}
