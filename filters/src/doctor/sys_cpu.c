/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Architecture, online CPUs and CPU parts.  MIDRs come from
 * /sys/devices/system/cpu/cpuN/regs/identification/midr_el1 (exact), else
 * from /proc/cpuinfo's "CPU implementer/variant/part/revision" lines; the
 * part names and SPE versions from facts.h (spe_cpu_from_midr).
 */
#include "doctor_facts.h"
#include "target_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#define CPUINFO_MAX (4u << 20)

bool filt_facts_has_cap(const struct doctor_facts *f, unsigned bit)
{
	return f->status_known && (f->cap_eff >> bit & 1);
}

void filt_cpuset_text(const struct spe_cpuset *set, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (unsigned c = 0; c < SPE_MAX_CPUS && n < len; c++) {
		if (!(set->bits[c / 64] >> (c % 64) & 1))
			continue;
		unsigned e = c;
		while (e + 1 < SPE_MAX_CPUS && (set->bits[(e + 1) / 64] >> ((e + 1) % 64) & 1))
			e++;
		int w = e > c ? snprintf(buf + n, len - n, "%s%u-%u", n ? "," : "", c, e)
			      : snprintf(buf + n, len - n, "%s%u", n ? "," : "", c);
		if (w < 0)
			break;
		n += (size_t)w;
		c = e;
	}
	if (n >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
}

void filt_facts_add_midr(struct doctor_facts *f, unsigned cpu, uint64_t midr)
{
	if (cpu >= SPE_MAX_CPUS)
		return;
	uint64_t key = midr & 0xff00fff0u; /* implementer and part number */
	struct cpu_group *g = NULL;
	for (unsigned i = 0; i < f->n_groups && !g; i++)
		if ((f->group[i].midr & 0xff00fff0u) == key)
			g = &f->group[i];
	if (!g) {
		if (f->n_groups == DOCTOR_MAX_GROUPS)
			return;
		g = &f->group[f->n_groups++];
		memset(g, 0, sizeof *g);
		g->midr = midr;
		const char *name, *version;
		if (spe_cpu_from_midr(midr, &name, &version)) {
			g->name = name;
			g->spe_version = version;
		}
	}
	if (!(g->cpus.bits[cpu / 64] >> (cpu % 64) & 1)) {
		g->cpus.bits[cpu / 64] |= 1ull << (cpu % 64);
		g->n++;
	}
}

/* "key<tabs>: value" -> value, or NULL when @p line is not that key. */
static const char *field(const char *line, const char *key)
{
	size_t n = strlen(key);
	if (strncmp(line, key, n))
		return NULL;
	line += n;
	while (*line == ' ' || *line == '\t')
		line++;
	return *line == ':' ? line + 1 : NULL;
}

void filt_cpuinfo_parse(struct doctor_facts *f, const char *text, bool add_midrs)
{
	long cpu = -1;
	unsigned long impl = 0, var = 0, part = 0, rev = 0;
	unsigned have = 0;
	const char *p = text;
	for (;;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[512];
		snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line - 1 ? len : sizeof line - 1), p);
		const char *v;
		bool block_end = !len || !nl;
		if ((v = field(line, "processor"))) {
			cpu = strtol(v, NULL, 10);
			have = 0;
		} else if ((v = field(line, "CPU implementer"))) {
			impl = strtoul(v, NULL, 0), have |= 1;
			snprintf(f->cpuinfo_arch, sizeof f->cpuinfo_arch, "aarch64");
		} else if ((v = field(line, "CPU variant"))) {
			var = strtoul(v, NULL, 0), have |= 2;
		} else if ((v = field(line, "CPU part"))) {
			part = strtoul(v, NULL, 0), have |= 4;
		} else if ((v = field(line, "CPU revision"))) {
			rev = strtoul(v, NULL, 0), have |= 8;
		} else if ((v = field(line, "vendor_id"))) {
			snprintf(f->cpuinfo_arch, sizeof f->cpuinfo_arch, "x86_64");
		} else if ((v = field(line, "flags")) && strstr(v, " hypervisor")) {
			f->cpuinfo_hypervisor = true;
		}
		if (block_end && have == 15 && cpu >= 0) {
			if (add_midrs)
				filt_facts_add_midr(f, (unsigned)cpu,
						    (impl & 0xff) << 24 | (var & 0xf) << 20 | 0xfu << 16 | (part & 0xfff) << 4 | (rev & 0xf));
			have = 0;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
}

static void read_arch(struct doctor_facts *f)
{
	char buf[64];
	if (filt_sysroot_text(&f->root, "/proc/sys/kernel/arch", buf, sizeof buf) > 0) {
		snprintf(f->arch, sizeof f->arch, "%.31s", buf);
		snprintf(f->arch_source, sizeof f->arch_source, "/proc/sys/kernel/arch");
		snprintf(f->arch_value, sizeof f->arch_value, "%s", buf);
	} else if (f->cpuinfo_arch[0]) {
		snprintf(f->arch, sizeof f->arch, "%s", f->cpuinfo_arch);
		snprintf(f->arch_source, sizeof f->arch_source, "/proc/cpuinfo");
		snprintf(f->arch_value, sizeof f->arch_value, "%s",
			 !strcmp(f->cpuinfo_arch, "aarch64") ? "\"CPU implementer\" lines (Arm)" : "\"vendor_id\" lines (x86)");
	} else if (f->root.live) {
		struct utsname u;
		if (uname(&u) == 0) {
			snprintf(f->arch, sizeof f->arch, "%.31s", u.machine);
			snprintf(f->arch_source, sizeof f->arch_source, "uname");
			snprintf(f->arch_value, sizeof f->arch_value, "%s", u.machine);
		}
	}
}

void filt_facts_read_cpu(struct doctor_facts *f)
{
	char buf[4096];
	if (filt_sysroot_text(&f->root, "/sys/devices/system/cpu/online", buf, sizeof buf) > 0) {
		size_t off;
		if (!spe_cpuset_parse(buf, &f->online, &off)) {
			f->online_known = true;
			snprintf(f->online_text, sizeof f->online_text, "%.127s", buf);
		}
	}
	/* Exact MIDRs from sysfs, for each online CPU (or the first 1024 CPUs a tree has). */
	unsigned found = 0;
	for (unsigned c = 0; c < SPE_MAX_CPUS; c++) {
		if (f->online_known && !(f->online.bits[c / 64] >> (c % 64) & 1))
			continue;
		char path[128];
		long long v;
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%u/regs/identification/midr_el1", c);
		if (filt_sysroot_number(&f->root, path, &v))
			continue;
		filt_facts_add_midr(f, c, (uint64_t)v);
		if (!found++)
			snprintf(f->midr_source, sizeof f->midr_source, "%.111s", path);
	}
	char *info = NULL;
	if (filt_sysroot_slurp(&f->root, "/proc/cpuinfo", CPUINFO_MAX, false, &info) >= 0) {
		filt_cpuinfo_parse(f, info, !found);
		if (!found && f->n_groups)
			snprintf(f->midr_source, sizeof f->midr_source, "/proc/cpuinfo");
	}
	free(info);
	if (!f->online_known) {
		for (unsigned i = 0; i < f->n_groups; i++)
			for (unsigned w = 0; w < SPE_MAX_CPUS / 64; w++)
				f->online.bits[w] |= f->group[i].cpus.bits[w];
		f->online_known = f->n_groups > 0;
		filt_cpuset_text(&f->online, f->online_text, sizeof f->online_text);
	}
	for (unsigned w = 0; w < SPE_MAX_CPUS / 64; w++)
		f->n_online += (unsigned)__builtin_popcountll(f->online.bits[w]);
	read_arch(f);
}

void filt_facts_read_virt(struct doctor_facts *f)
{
	filt_sysroot_text(&f->root, "/sys/class/dmi/id/sys_vendor", f->dmi_vendor, sizeof f->dmi_vendor);
	filt_sysroot_text(&f->root, "/sys/class/dmi/id/product_name", f->dmi_product, sizeof f->dmi_product);
	filt_sysroot_text(&f->root, "/sys/hypervisor/type", f->xen_type, sizeof f->xen_type);
	f->dt_hypervisor = filt_sysroot_exists(&f->root, "/sys/firmware/devicetree/base/hypervisor");
}
