/* SPDX-License-Identifier: Apache-2.0 */
/*
 * How firmware describes SPE: on ACPI systems the GICC entries of the MADT
 * (/sys/firmware/acpi/tables/APIC, readable by root only) and the
 * arm,spe-v1 platform device Linux makes from them; on device-tree systems
 * a node compatible with "arm,statistical-profiling-extension-v1"
 * (Documentation/devicetree/bindings/perf/spe-pmu.yaml).
 */
#include "doctor_facts.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MADT_MAX (1u << 20)
#define SPE_COMPATIBLE "arm,statistical-profiling-extension-v1"

/* Is @p needle one of the NUL-separated strings of a compatible property? */
static bool compatible_has(const char *prop, size_t len, const char *needle)
{
	for (size_t off = 0; off < len;) {
		const char *s = prop + off;
		size_t n = strnlen(s, len - off);
		if (!strcmp(s, needle) || (n == strlen(needle) && !strncmp(s, needle, n)))
			return true;
		off += n + 1;
	}
	return false;
}

/* Top-level nodes (and one level below, for a "pmu" container) with the SPE compatible. */
static void scan_dt(struct doctor_facts *f, const char *dir, int depth)
{
	char full[4352];
	if (!filt_sysroot_path(&f->root, dir, full, sizeof full))
		return;
	DIR *d = opendir(full);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) && !f->dt_node[0]) {
		if (e->d_name[0] == '.' || e->d_type == DT_REG)
			continue;
		char node[256], prop[300];
		if ((size_t)snprintf(node, sizeof node, "%s/%s", dir, e->d_name) >= sizeof node)
			continue;
		snprintf(prop, sizeof prop, "%s/compatible", node);
		char *text = NULL;
		long n = filt_sysroot_slurp(&f->root, prop, 4096, false, &text);
		if (n > 0 && compatible_has(text, (size_t)n, SPE_COMPATIBLE))
			snprintf(f->dt_node, sizeof f->dt_node, "%.127s", node);
		free(text);
		if (depth > 0 && !f->dt_node[0])
			scan_dt(f, node, depth - 1);
	}
	closedir(d);
}

void filt_facts_read_firmware(struct doctor_facts *f)
{
	f->acpi = filt_sysroot_exists(&f->root, "/sys/firmware/acpi");
	f->acpi_device = filt_sysroot_exists(&f->root, "/sys/bus/platform/devices/arm,spe-v1");
	uint8_t *madt = NULL;
	long n = filt_sysroot_slurp(&f->root, "/sys/firmware/acpi/tables/APIC", MADT_MAX, false, (char **)&madt);
	f->madt_read = n < 0 ? (int)n : 1;
	if (n >= 0 && spe_madt_parse(madt, (size_t)n, &f->madt, f->madt_error, sizeof f->madt_error))
		f->madt_read = SYSROOT_ERROR;
	free(madt);
	f->dt = filt_sysroot_exists(&f->root, "/sys/firmware/devicetree/base");
	if (f->dt)
		scan_dt(f, "/sys/firmware/devicetree/base", 1);
}
