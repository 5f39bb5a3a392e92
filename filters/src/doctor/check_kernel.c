/* SPDX-License-Identifier: Apache-2.0 */
/* The kernel checks: release, configuration, driver, page-table isolation, probe messages. */
#include "doctor_facts.h"

#include <stdio.h>
#include <string.h>

#define KPTI_FIX                                                                                                 \
	"boot with kpti=off: add it to GRUB_CMDLINE_LINUX in /etc/default/grub, run update-grub (grub2-mkconfig "  \
	"on Fedora/RHEL) and reboot.  KASLR turns KPTI on for cores without E0PD (Neoverse N1 and V1 among them); " \
	"kpti=off gives that protection up, so do it on machines you trust"

void filt_check_kernel(struct check_ctx *c, struct spe_check *k)
{
	const struct doctor_facts *f = c->f;
	if (!f->release[0]) {
		filt_check_set(k, SPE_CHECK_WARN, SPE_DOCTOR_OK, "unknown: /proc/sys/kernel/osrelease is not readable");
		return;
	}
	filt_check_evidence(k, f->release_source, "%s", f->release);
	if (f->kernel && f->kernel < 415) {
		filt_check_set(k, SPE_CHECK_FAIL, SPE_DOCTOR_UNAVAILABLE, "Linux %u.%u predates the arm_spe_pmu driver (4.15)",
			       f->kernel / 100, f->kernel % 100);
		filt_check_fix(k, "boot Linux 4.15 or later; 6.12 or later lets perf_event_paranoid <= 1 enable pa_enable "
			     "and pct_enable, which older releases give to CAP_PERFMON only");
		return;
	}
	filt_check_set(k, SPE_CHECK_OK, SPE_DOCTOR_OK, "Linux %s", f->release);
}

void filt_check_config(struct check_ctx *c, struct spe_check *k)
{
	const struct doctor_facts *f = c->f;
	if (f->config_read != 1) {
		filt_check_evidence(k, f->config_source[0] ? f->config_source : "/proc/config.gz", "%s",
				    filt_sysroot_strerror(f->config_read));
		if (c->have_pmus || f->driver_registered || f->module_file[0] || f->builtin)
			filt_check_set(k, SPE_CHECK_SKIP, SPE_DOCTOR_OK,
				       "no kernel configuration readable, but the driver is there (see driver)");
		else
			filt_check_set(k, SPE_CHECK_WARN, SPE_DOCTOR_OK,
				       "cannot tell whether the kernel has the driver: no configuration readable "
				       "(/proc/config.gz, /boot/config-%s)",
				       f->release);
		return;
	}
	filt_check_evidence(k, f->config_source, "CONFIG_ARM_SPE_PMU=%s",
			    f->spe_pmu == 'y' ? "y" : f->spe_pmu == 'm' ? "m" : "n (not set)");
	if (f->pid_in_contextidr)
		filt_check_evidence(k, f->config_source, "CONFIG_PID_IN_CONTEXTIDR=%s%s", f->pid_in_contextidr == 'y' ? "y" : "n",
				    f->pid_in_contextidr == 'y' ? "" : ": records carry no CONTEXT packets (PIDs)");
	if (f->restrict_symbol)
		filt_check_evidence(k, f->config_source,
				    "CONFIG_SECURITY_PERF_EVENTS_RESTRICT is known: perf_event_paranoid above 2 refuses "
				    "everyone without CAP_SYS_ADMIN");
	if (c->have_pmus && f->spe_pmu != 'y' && f->spe_pmu != 'm') {
		filt_check_set(k, SPE_CHECK_OK, SPE_DOCTOR_OK,
			       "%s says the driver is not built, yet the PMUs exist: the file is not this kernel's",
			       f->config_source);
		return;
	}
	if (f->spe_pmu == 'y' || f->spe_pmu == 'm') {
		filt_check_set(k, SPE_CHECK_OK, SPE_DOCTOR_OK, "the kernel has the arm_spe_pmu driver (%s)",
			       f->spe_pmu == 'y' ? "built in" : "as a module");
		return;
	}
	filt_check_set(k, SPE_CHECK_FAIL, SPE_DOCTOR_UNAVAILABLE,
		       "the kernel was built without the arm_spe_pmu driver (CONFIG_ARM_SPE_PMU is not set)");
	filt_check_fix(k, "boot a kernel built with CONFIG_ARM_SPE_PMU=m or =y (the arm64 kernels of Debian, Ubuntu, "
		     "Fedora and RHEL have it), or rebuild this one with it");
}

void filt_check_driver(struct check_ctx *c, struct spe_check *k)
{
	const struct doctor_facts *f = c->f;
	filt_check_evidence(k, "/sys/bus/platform/drivers/arm_spe_pmu", "%s",
			    f->driver_registered ? "present (the driver is registered)" : "absent");
	if (f->module_loaded)
		filt_check_evidence(k, "/sys/module/arm_spe_pmu", "present (module loaded)");
	if (f->module_file[0])
		filt_check_evidence(k, f->module_file, "present");
	else if (f->modules_dir)
		filt_check_evidence(k, "/lib/modules", "no arm_spe_pmu.ko under /lib/modules/%s/kernel/drivers/perf", f->release);
	if (f->builtin)
		filt_check_evidence(k, "modules.builtin", "lists drivers/perf/arm_spe_pmu.ko");
	char why[320];
	if (f->driver_registered) {
		filt_check_set(k, SPE_CHECK_OK, SPE_DOCTOR_OK, "arm_spe_pmu is registered (%s)",
			       f->module_loaded ? "module loaded" : "built in");
	} else if (f->spe_pmu == 'n') {
		filt_check_set(k, SPE_CHECK_SKIP, SPE_DOCTOR_OK, "not in this kernel (see config)");
	} else if (filt_facts_firmware_spe(f) == 0 || (!c->have_pmus && filt_facts_virtual(f, why, sizeof why) > 0)) {
		filt_check_set(k, SPE_CHECK_SKIP, SPE_DOCTOR_OK,
			       "not loaded, and there is no SPE device for it to drive (see virt and firmware)");
	} else if (f->module_file[0]) {
		filt_check_set(k, SPE_CHECK_FAIL, SPE_DOCTOR_UNAVAILABLE, "arm_spe_pmu is installed but not loaded");
		filt_check_fix(k, "sudo modprobe arm_spe_pmu; to load it at every boot: echo arm_spe_pmu | sudo tee "
			     "/etc/modules-load.d/arm_spe_pmu.conf");
	} else if (f->spe_pmu == 'm') {
		filt_check_set(k, SPE_CHECK_FAIL, SPE_DOCTOR_UNAVAILABLE,
			       "the kernel builds arm_spe_pmu as a module, but no module file is installed for %s", f->release);
		filt_check_fix(k, "install the package with this kernel's extra modules (Ubuntu: sudo apt install "
			     "linux-modules-extra-%s), then sudo modprobe arm_spe_pmu",
			       f->release);
	} else {
		filt_check_set(k, SPE_CHECK_WARN, SPE_DOCTOR_OK,
			       "arm_spe_pmu is not registered and no module file was found for %s", f->release[0] ? f->release : "this kernel");
		filt_check_fix(k, "sudo modprobe arm_spe_pmu, if the kernel has it");
	}
}

static bool kpti_disabled_arg(const char *v)
{
	return !strcmp(v, "0") || !strcmp(v, "off") || !strcmp(v, "n") || !strcmp(v, "no") || !strcmp(v, "false");
}

static const struct log_line *first_line(const struct doctor_facts *f, enum log_kind kind)
{
	for (unsigned i = 0; i < f->log.n; i++)
		if (f->log.line[i].kind == kind)
			return &f->log.line[i];
	return NULL;
}

void filt_check_kpti(struct check_ctx *c, struct spe_check *k)
{
	const struct doctor_facts *f = c->f;
	const struct log_line *refused = first_line(f, LOG_KPTI), *on = first_line(f, LOG_KPTI_ON);
	if (refused)
		filt_check_evidence(k, f->log_source, "%s", refused->text);
	if (on)
		filt_check_evidence(k, f->log_source, "%s", on->text);
	if (f->kpti_arg[0])
		filt_check_evidence(k, "/proc/cmdline", "kpti=%s", f->kpti_arg);
	if (f->meltdown[0])
		filt_check_evidence(k, "/sys/devices/system/cpu/vulnerabilities/meltdown", "%s", f->meltdown);
	bool pti = refused || on || !strcmp(f->meltdown, "Mitigation: PTI");
	if (c->have_pmus) {
		filt_check_set(k, SPE_CHECK_OK, SPE_DOCTOR_OK, "not in the way (the driver probed)");
	} else if (refused) {
		filt_check_set(k, SPE_CHECK_FAIL, SPE_DOCTOR_UNAVAILABLE,
			       "kernel page-table isolation is on, and the driver refuses to probe under it (the profiling "
			       "buffer would be unmapped while user space runs)");
		filt_check_fix(k, KPTI_FIX);
	} else if (f->kpti_arg[0] && kpti_disabled_arg(f->kpti_arg)) {
		filt_check_set(k, SPE_CHECK_OK, SPE_DOCTOR_OK, "off (kpti=%s on the command line)", f->kpti_arg);
	} else if (pti) {
		filt_check_set(k, SPE_CHECK_FAIL, SPE_DOCTOR_UNAVAILABLE,
			       "kernel page-table isolation is on, which stops the arm_spe_pmu driver from probing");
		filt_check_fix(k, KPTI_FIX);
	} else if (f->log_read != 1) {
		filt_check_set(k, SPE_CHECK_SKIP, SPE_DOCTOR_OK,
			       "cannot tell without the kernel log (meltdown \"Not affected\" does not rule KPTI out: KASLR "
			       "turns it on too)");
	} else {
		filt_check_set(k, SPE_CHECK_OK, SPE_DOCTOR_OK, "no sign of KPTI in the kernel log");
	}
}

/* What a probe failure line means, and its fix. */
static const struct {
	enum log_kind kind;
	const char *says, *fix;
} failures[] = {
	{ LOG_KPTI, "the driver refused to probe: kernel page-table isolation (see kpti)", "see kpti" },
	{ LOG_NO_PMSVER,
	  "the CPU reports no SPE (ID_AA64DFR0_EL1.PMSVer is 0): the part lacks it, or the hypervisor or firmware "
	  "hides it",
	  "on a virtual machine, record on bare metal; on bare metal, look for an SPE or debug/profiling option in the "
	  "firmware setup" },
	{ LOG_OWNED,
	  "the profiling buffer is owned by a higher exception level (PMBIDR_EL1.P = 1): firmware (EL3) or a "
	  "hypervisor (EL2) keeps SPE to itself",
	  "firmware must hand the profiling buffer to the kernel (MDCR_EL3.NSPB, MDCR_EL2.E2PB): update the firmware, "
	  "or ask the platform vendor" },
	{ LOG_BAD_HW, "the driver does not support this implementation's buffer alignment or record size",
	  "try a newer kernel; otherwise report it to the arm64 kernel maintainers with this line" },
	{ LOG_NOT_PPI, "firmware gives SPE a shared interrupt (SPI) where the driver needs a per-CPU one (PPI)",
	  "a firmware bug: update the firmware or its device tree" },
	{ LOG_ACPI, "Linux could not make the SPE device from the ACPI tables",
	  "every CPU's MADT GICC entry must give the same SPE interrupt: update the system firmware" },
	{ LOG_PROBE_FAILED, "the driver failed to probe", "the lines above say how; a newer kernel may help" },
};

static void explain_failure(struct spe_check *k, const struct log_line *l, bool fatal)
{
	size_t i = 0;
	while (i + 1 < sizeof failures / sizeof failures[0] && failures[i].kind != l->kind)
		i++;
	filt_check_set(k, fatal ? SPE_CHECK_FAIL : SPE_CHECK_WARN, SPE_DOCTOR_UNAVAILABLE, "%s", failures[i].says);
	filt_check_fix(k, "%s", failures[i].fix);
}

void filt_check_probe(struct check_ctx *c, struct spe_check *k)
{
	const struct doctor_facts *f = c->f;
	if (f->log_read != 1) {
		filt_check_evidence(k, f->log_source[0] ? f->log_source : "kernel log", "%s%s", filt_sysroot_strerror(f->log_read),
				    f->dmesg_restrict == 1 ? " (kernel.dmesg_restrict=1 needs CAP_SYSLOG)" : "");
		char why[320];
		if (c->have_pmus) {
			filt_check_set(k, SPE_CHECK_SKIP, SPE_DOCTOR_OK, "kernel log not readable (not needed: the PMUs exist)");
		} else if (filt_facts_virtual(f, why, sizeof why) > 0) {
			filt_check_set(k, SPE_CHECK_SKIP, SPE_DOCTOR_OK, "kernel log not readable (a virtual machine: see virt)");
		} else {
			filt_check_set(k, SPE_CHECK_WARN, SPE_DOCTOR_OK,
				       "kernel log not readable: the driver's messages would say why it did not probe");
			filt_check_fix(k, "run spe doctor as root (or with CAP_SYSLOG), or set kernel.dmesg_restrict=0");
		}
		return;
	}
	const struct log_line *failure = NULL;
	unsigned probed = 0;
	for (unsigned i = 0; i < f->log.n; i++) {
		const struct log_line *l = &f->log.line[i];
		if (l->kind == LOG_PROBED || (l->kind >= LOG_KPTI && l->kind <= LOG_ACPI))
			filt_check_evidence(k, f->log_source, "%s", l->text);
		if (l->kind == LOG_PROBED)
			probed++;
		else if (!failure && l->kind >= LOG_KPTI && l->kind <= LOG_ACPI &&
			 (l->kind != LOG_PROBE_FAILED || !first_line(f, LOG_KPTI)))
			failure = l;
	}
	if (failure) {
		explain_failure(k, failure, !c->have_pmus);
		return;
	}
	if (probed && c->have_pmus)
		filt_check_set(k, SPE_CHECK_OK, SPE_DOCTOR_OK, "the driver probed");
	else if (probed)
		filt_check_set(k, SPE_CHECK_WARN, SPE_DOCTOR_OK, "the driver probed, yet no arm_spe PMU is registered now");
	else if (c->have_pmus)
		filt_check_set(k, SPE_CHECK_OK, SPE_DOCTOR_OK,
			       "no arm_spe_pmu lines (the boot messages may have rotated out of the log)");
	else
		filt_check_set(k, SPE_CHECK_SKIP, SPE_DOCTOR_OK, "no arm_spe_pmu messages: the driver never tried to probe");
}
