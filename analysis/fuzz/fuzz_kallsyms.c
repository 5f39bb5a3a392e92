/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the kallsyms reader (resolve/kallsyms.c) on a file's bytes: lines of
 * any length and form, modules, aliases, addresses at the ends of the
 * range; then the lookups a load makes: each group's range and symbols at
 * its ends, the reference symbols.
 */
#define _GNU_SOURCE /* fmemopen */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kallsyms.h"
#include "spe/analysis.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	FILE *f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	char err[512];
	struct spe_kallsyms *ks;
	int rc = ana_kallsyms_parse(f, "fuzz", &ks, err, sizeof err);
	fclose(f);
	if (rc < 0)
		return 0;
	uint64_t addr, start, size_out, lo, hi;
	ana_kallsyms_ref(ks, "_text", &addr);
	ana_kallsyms_ref(ks, "_stext", &addr);
	ana_kallsyms_group(ks, "m");
	for (int g = 0; g < ana_kallsyms_groups(ks); g++) {
		size_t n;
		ana_kallsyms_group_range(ks, g, &lo, &hi, &n);
		const uint64_t probes[] = { lo, hi, hi - 1, lo + (hi - lo) / 2, UINT64_MAX, 0 };
		for (size_t i = 0; i < sizeof probes / sizeof *probes; i++)
			ana_kallsyms_find(ks, g, probes[i], &start, &size_out);
	}
	spe_kallsyms_lookup(ks, 0, &start, &size_out);
	spe_kallsyms_lookup(ks, UINT64_MAX, NULL, NULL);
	spe_kallsyms_free(ks);
	return 0;
}
