/* SPDX-License-Identifier: Apache-2.0 */
/* The platform checks: architecture, CPU parts, virtualisation, firmware. */
#include "doctor_facts.h"

#include "spe/facts.h"

#include <stdio.h>
#include <string.h>

void filt_check_arch(struct check_ctx *c, struct spe_check *k)
{
	const struct doctor_facts *f = c->f;
	if (f->arch_source[0])
		filt_check_evidence(k, f->arch_source, "%s", f->arch_value);
	if (!f->arch[0]) {
		filt_check_set(k, SPE_CHECK_WARN, SPE_DOCTOR_OK, "unknown: neither /proc/sys/kernel/arch nor /proc/cpuinfo says");
		return;
	}
	if (!strcmp(f->arch, "aarch64")) {
		filt_check_set(k, SPE_CHECK_OK, SPE_DOCTOR_OK, "aarch64 (64-bit Arm)");
		return;
	}
	c->arm = false;
	filt_check_set(k, SPE_CHECK_FAIL, SPE_DOCTOR_UNAVAILABLE,
		       "%s: SPE is a feature of 64-bit Arm CPUs (Armv8.2 and later), so there is none here", f->arch);
	filt_check_fix(k, "record on an Arm machine whose CPUs implement SPE (spe facts lists the parts spekit knows), on "
		     "bare metal; here, check filter options with spe-record --dry-run --cpu=NAME and turn a trace "
		     "recorded elsewhere into perf.data with spe-record --replay=FILE");
}

void filt_check_cpu(struct check_ctx *c, struct spe_check *k)
{
	const struct doctor_facts *f = c->f;
	char summary[400] = "", cpus[96];
	size_t n = 0;
	bool any_spe = false;
	for (unsigned i = 0; i < f->n_groups; i++) {
		const struct cpu_group *g = &f->group[i];
		filt_cpuset_text(&g->cpus, cpus, sizeof cpus);
		unsigned impl = (unsigned)(g->midr >> 24) & 0xff, part = (unsigned)(g->midr >> 4) & 0xfff;
		if (g->name) {
			any_spe = true;
			filt_check_evidence(k, f->midr_source, "MIDR 0x%08llx on CPUs %s: %s, SPEv%s", (unsigned long long)g->midr,
					    cpus, g->name, g->spe_version);
		} else {
			filt_check_evidence(k, f->midr_source,
					    "MIDR 0x%08llx on CPUs %s: implementer 0x%02x part 0x%03x, not a part spekit knows to "
					    "implement SPE",
					    (unsigned long long)g->midr, cpus, impl, part);
		}
		if (n < sizeof summary)
			n += (size_t)snprintf(summary + n, sizeof summary - n, "%sCPUs %s: %s", i ? "; " : "", cpus,
					      g->name ? g->name : "a part without SPE in spekit's table");
		if (g->name && n < sizeof summary)
			n += (size_t)snprintf(summary + n, sizeof summary - n, " (SPEv%s)", g->spe_version);
	}
	if (!f->n_groups) {
		filt_check_set(k, SPE_CHECK_WARN, SPE_DOCTOR_OK,
			       "no MIDR readable (neither cpuN/regs/identification/midr_el1 nor /proc/cpuinfo)");
		return;
	}
	if (any_spe || c->have_pmus) {
		filt_check_set(k, SPE_CHECK_OK, SPE_DOCTOR_OK, "%s", summary);
		return;
	}
	filt_check_set(k, SPE_CHECK_WARN, SPE_DOCTOR_OK, "%s: none is a part spekit knows to implement SPE", summary);
	filt_check_fix(k, "if the part has SPE, the checks below show what stops the kernel from using it; spe facts lists "
		     "the parts spekit knows");
}

/* Hypervisor vendors and products as DMI names them. */
static const char *const vm_vendors[] = { "QEMU", "Xen", "VMware", "innotek GmbH", "Parallels", "Google",
					  "OpenStack", "Alibaba Cloud", "Red Hat", "Amazon EC2", "Microsoft Corporation" };
static const char *const vm_products[] = { "KVM", "Virtual Machine", "VMware", "VirtualBox", "HVM domU",
					   "Standard PC", "Google Compute Engine", "OpenStack Nova" };

int filt_facts_virtual(const struct doctor_facts *f, char *why, size_t len)
{
	/* EC2 names metal instance types "*.metal" (c7g.metal, m6g.metal). */
	if (strstr(f->dmi_product, ".metal") || strstr(f->dmi_product, "metal")) {
		snprintf(why, len, "DMI product %s is a bare-metal instance", f->dmi_product);
		return 0;
	}
	if (f->xen_type[0]) {
		snprintf(why, len, "/sys/hypervisor/type is %s", f->xen_type);
		return 1;
	}
	if (f->dt_hypervisor) {
		snprintf(why, len, "the device tree has a /hypervisor node");
		return 1;
	}
	for (size_t i = 0; i < sizeof vm_vendors / sizeof vm_vendors[0]; i++) {
		if (!strncmp(f->dmi_vendor, vm_vendors[i], strlen(vm_vendors[i])) &&
		    (strcmp(vm_vendors[i], "Microsoft Corporation") || strstr(f->dmi_product, "Virtual Machine"))) {
			snprintf(why, len, "DMI vendor %s%s%s", f->dmi_vendor, f->dmi_product[0] ? ", product " : "",
				 f->dmi_product);
			return 1;
		}
	}
	for (size_t i = 0; i < sizeof vm_products / sizeof vm_products[0]; i++) {
		if (strstr(f->dmi_product, vm_products[i])) {
			snprintf(why, len, "DMI product %s", f->dmi_product);
			return 1;
		}
	}
	for (unsigned i = 0; i < f->log.n; i++) {
		if (f->log.line[i].kind == LOG_HYPERVISOR) {
			snprintf(why, len, "kernel log: %s", f->log.line[i].text);
			return 1;
		}
	}
	if (f->cpuinfo_hypervisor) {
		snprintf(why, len, "/proc/cpuinfo flags include hypervisor");
		return 1;
	}
	why[0] = '\0';
	return -1;
}

void filt_check_virt(struct check_ctx *c, struct spe_check *k)
{
	const struct doctor_facts *f = c->f;
	if (f->dmi_vendor[0])
		filt_check_evidence(k, "/sys/class/dmi/id/sys_vendor", "%s", f->dmi_vendor);
	if (f->dmi_product[0])
		filt_check_evidence(k, "/sys/class/dmi/id/product_name", "%s", f->dmi_product);
	if (f->xen_type[0])
		filt_check_evidence(k, "/sys/hypervisor/type", "%s", f->xen_type);
	for (unsigned i = 0; i < f->log.n; i++)
		if (f->log.line[i].kind == LOG_HYPERVISOR)
			filt_check_evidence(k, f->log_source, "%s", f->log.line[i].text);
	char why[320];
	int vm = filt_facts_virtual(f, why, sizeof why);
	if (vm == 0) {
		filt_check_set(k, SPE_CHECK_OK, SPE_DOCTOR_OK, "bare metal (%s)", why);
	} else if (vm < 0) {
		filt_check_set(k, SPE_CHECK_OK, SPE_DOCTOR_OK, "no sign of a hypervisor");
	} else if (c->have_pmus) {
		filt_check_set(k, SPE_CHECK_OK, SPE_DOCTOR_OK, "a virtual machine (%s) that exposes SPE", why);
	} else {
		filt_check_set(k, SPE_CHECK_FAIL, SPE_DOCTOR_UNAVAILABLE,
			       "a virtual machine (%s): hypervisors do not pass SPE to guests (KVM has no SPE support for "
			       "guests, and cloud VMs hide it)",
			       why);
		filt_check_fix(k, "record on bare metal: a physical machine, or a bare-metal cloud instance (on AWS a *.metal "
			     "instance type such as c7g.metal; SPE is only available on metal instances)");
	}
}

int filt_facts_firmware_spe(const struct doctor_facts *f)
{
	if (f->dt_node[0] || f->acpi_device)
		return 1;
	if (f->madt_read == 1)
		return f->madt.with_irq > 0;
	return -1;
}

void filt_check_firmware(struct check_ctx *c, struct spe_check *k)
{
	const struct doctor_facts *f = c->f;
	const struct spe_madt_spe *m = &f->madt;
	const char *madt = "/sys/firmware/acpi/tables/APIC";
	if (f->dt_node[0])
		filt_check_evidence(k, f->dt_node, "compatible = arm,statistical-profiling-extension-v1");
	if (f->madt_read == 1)
		filt_check_evidence(k, madt, "%u usable GICC entries: %u give SPE interrupt GSI %u, %u predate the field (ACPI 6.3)%s",
				    m->gicc, m->with_irq, m->first_irq, m->without_field, m->mixed ? "; GSIs differ" : "");
	else if (f->madt_error[0])
		filt_check_evidence(k, madt, "%s", f->madt_error);
	else if (f->acpi)
		filt_check_evidence(k, madt, "%s%s", filt_sysroot_strerror(f->madt_read),
				    f->madt_read == SYSROOT_DENIED ? " (only root may read it)" : "");
	if (f->acpi)
		filt_check_evidence(k, "/sys/bus/platform/devices/arm,spe-v1", "%s", f->acpi_device ? "present" : "absent");

	char why[320];
	bool vm = filt_facts_virtual(f, why, sizeof why) > 0;
	if (f->dt_node[0]) {
		filt_check_set(k, SPE_CHECK_OK, SPE_DOCTOR_OK, "the device tree describes SPE (%s)", f->dt_node);
	} else if (f->madt_read == 1 && m->gicc && m->with_irq == m->gicc && !m->mixed) {
		filt_check_set(k, SPE_CHECK_OK, SPE_DOCTOR_OK, "ACPI: every CPU's GICC entry gives SPE interrupt GSI %u (PPI %u)",
			       m->first_irq, m->first_irq >= 16 ? m->first_irq - 16 : m->first_irq);
	} else if (f->acpi_device || c->have_pmus) {
		filt_check_set(k, SPE_CHECK_OK, SPE_DOCTOR_OK, "%s",
			       f->acpi_device ? "ACPI: Linux made the arm,spe-v1 device from the MADT's SPE interrupt"
					 : "the SPE PMUs exist, so firmware described SPE");
	} else if (vm) {
		filt_check_set(k, SPE_CHECK_SKIP, SPE_DOCTOR_OK,
			       "virtual firmware: the hypervisor decides whether guests see SPE (see virt)");
	} else if (f->madt_read == 1 && m->with_irq) {
		filt_check_set(k, SPE_CHECK_FAIL, SPE_DOCTOR_UNAVAILABLE,
			       "ACPI: %s, and Linux registers SPE only when every CPU gives the same one",
			       m->mixed ? "CPUs give different SPE interrupts" : "only some CPUs give an SPE interrupt");
		filt_check_fix(k, "a firmware problem: update the system firmware (BIOS/UEFI), or report it to the vendor");
	} else if (f->madt_read == 1) {
		filt_check_set(k, SPE_CHECK_FAIL, SPE_DOCTOR_UNAVAILABLE,
			       "ACPI: no CPU's GICC entry gives an SPE interrupt, so Linux makes no SPE device");
		filt_check_fix(k, "firmware does not describe SPE: update the system firmware, or enable SPE in its setup "
			     "menu where it has such an option");
	} else if (f->madt_error[0]) {
		filt_check_set(k, SPE_CHECK_WARN, SPE_DOCTOR_OK, "the MADT could not be parsed: %s", f->madt_error);
	} else if (f->acpi) {
		filt_check_set(k, SPE_CHECK_WARN, SPE_DOCTOR_OK,
			       "cannot tell: the MADT is not readable and there is no arm,spe-v1 device (which appears only "
			       "when firmware gives the interrupt and the kernel has CONFIG_ARM_SPE_PMU)");
		filt_check_fix(k, "run spe doctor as root to read the MADT");
	} else if (f->dt) {
		filt_check_set(k, vm ? SPE_CHECK_SKIP : SPE_CHECK_FAIL, SPE_DOCTOR_UNAVAILABLE,
			       "the device tree has no node compatible with arm,statistical-profiling-extension-v1%s",
			       vm ? " (the hypervisor decides: see virt)" : "");
		if (!vm)
			filt_check_fix(k, "the board's device tree must describe SPE (a node with that compatible and its PPI, "
				     "Documentation/devicetree/bindings/perf/spe-pmu.yaml): use a device tree that has it");
	} else {
		filt_check_set(k, SPE_CHECK_SKIP, SPE_DOCTOR_OK, "no firmware tables readable (/sys/firmware)");
	}
}
