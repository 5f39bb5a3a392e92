/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz spe doctor's parsers: the input is split at "\n@@\n" into an ACPI
 * MADT, a kernel log, /proc/cpuinfo, a kernel config, /proc/self/status
 * and /proc/self/limits, each fed to its parser.  Nothing may crash or read
 * out of bounds; a parsed MADT's counts must be consistent.
 */
#define _GNU_SOURCE /* memmem */
#include "doctor_facts.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	char *part[6] = { 0 };
	size_t len[6] = { 0 };
	char *p = text;
	for (int i = 0; i < 6 && p; i++) {
		char *sep = (char *)memmem(p, size - (size_t)(p - text), "\n@@\n", 4);
		part[i] = p;
		len[i] = sep ? (size_t)(sep - p) : size - (size_t)(p - text);
		if (sep)
			*sep = '\0';
		p = sep ? sep + 4 : NULL;
	}
	static struct doctor_facts f;
	memset(&f, 0, sizeof f);
	char err[160];
	struct spe_madt_spe m;
	if (part[0] && spe_madt_parse((const uint8_t *)part[0], len[0], &m, err, sizeof err) == 0 &&
	    (m.with_irq + m.without_field > m.gicc || (m.mixed && m.with_irq < 2)))
		abort();
	if (part[1])
		filt_kernel_log_scan(&f.log, part[1]);
	if (part[2])
		filt_cpuinfo_parse(&f, part[2], true);
	if (part[3])
		filt_config_parse(&f, part[3]);
	if (part[4])
		filt_status_parse(&f, part[4]);
	if (part[5])
		filt_limits_parse(&f, part[5]);
	free(text);
	return 0;
}
