/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The kernel: release (/proc/sys/kernel/osrelease), configuration
 * (/proc/config.gz, else /boot/config-RELEASE), whether the arm_spe_pmu
 * driver is registered, loaded, built in or installed as a module file,
 * and the command line and meltdown state kpti is judged from.
 */
#include "doctor_facts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONFIG_MAX (8u << 20)
#define BUILTIN_MAX (2u << 20)

/* "CONFIG_X=y" -> 'y', "# CONFIG_X is not set" -> 'n'; 0 when the line is absent. */
static char config_value(const char *text, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = text; (p = strstr(p, name)); p += n) {
		bool line_start = p == text || p[-1] == '\n';
		bool commented = p >= text + 2 && !strncmp(p - 2, "# ", 2) && (p - 2 == text || p[-3] == '\n');
		if (line_start && p[n] == '=')
			return p[n + 1] == 'y' || p[n + 1] == 'm' ? p[n + 1] : 'n';
		if (commented && !strncmp(p + n, " is not set", 11))
			return 'n';
	}
	return 0;
}

void filt_config_parse(struct doctor_facts *f, const char *text)
{
	f->spe_pmu = config_value(text, "CONFIG_ARM_SPE_PMU");
	f->restrict_symbol = config_value(text, "CONFIG_SECURITY_PERF_EVENTS_RESTRICT") != 0;
	f->pid_in_contextidr = config_value(text, "CONFIG_PID_IN_CONTEXTIDR");
}

static void read_config(struct doctor_facts *f)
{
	char *text = NULL, path[160];
	long n = filt_sysroot_slurp(&f->root, "/proc/config.gz", CONFIG_MAX, true, &text);
	snprintf(path, sizeof path, "/proc/config.gz");
	if (n < 0 && f->release[0]) {
		snprintf(path, sizeof path, "/boot/config-%s", f->release);
		n = filt_sysroot_slurp(&f->root, path, CONFIG_MAX, false, &text);
	}
	f->config_read = n < 0 ? (int)n : 1;
	snprintf(f->config_source, sizeof f->config_source, "%.127s", path);
	if (text)
		filt_config_parse(f, text);
	free(text);
}

static void read_driver(struct doctor_facts *f)
{
	f->driver_registered = filt_sysroot_exists(&f->root, "/sys/bus/platform/drivers/arm_spe_pmu");
	f->module_loaded = filt_sysroot_exists(&f->root, "/sys/module/arm_spe_pmu/initstate") ||
			   filt_sysroot_exists(&f->root, "/sys/module/arm_spe_pmu/refcnt");
	if (!f->release[0])
		return;
	char path[256];
	snprintf(path, sizeof path, "/lib/modules/%s", f->release);
	f->modules_dir = filt_sysroot_exists(&f->root, path);
	static const char *const suffixes[] = { "", ".xz", ".zst", ".gz" };
	for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0] && !f->module_file[0]; i++) {
		snprintf(path, sizeof path, "/lib/modules/%s/kernel/drivers/perf/arm_spe_pmu.ko%s", f->release,
			 suffixes[i]);
		if (filt_sysroot_exists(&f->root, path))
			snprintf(f->module_file, sizeof f->module_file, "%.159s", path);
	}
	char *text = NULL;
	snprintf(path, sizeof path, "/lib/modules/%s/modules.builtin", f->release);
	if (filt_sysroot_slurp(&f->root, path, BUILTIN_MAX, false, &text) >= 0)
		f->builtin = strstr(text, "drivers/perf/arm_spe_pmu.ko") != NULL;
	free(text);
}

static void read_cmdline(struct doctor_facts *f)
{
	filt_sysroot_text(&f->root, "/proc/cmdline", f->cmdline, sizeof f->cmdline);
	for (const char *p = f->cmdline; (p = strstr(p, "kpti=")); p += 5) {
		if (p != f->cmdline && p[-1] != ' ')
			continue;
		size_t n = strcspn(p + 5, " ");
		snprintf(f->kpti_arg, sizeof f->kpti_arg, "%.*s", (int)(n < 31 ? n : 31), p + 5);
	}
	filt_sysroot_text(&f->root, "/sys/devices/system/cpu/vulnerabilities/meltdown", f->meltdown, sizeof f->meltdown);
}

void filt_facts_read_kernel(struct doctor_facts *f)
{
	if (filt_sysroot_text(&f->root, "/proc/sys/kernel/osrelease", f->release, sizeof f->release) > 0) {
		snprintf(f->release_source, sizeof f->release_source, "/proc/sys/kernel/osrelease");
		f->kernel = spe_kernel_parse(f->release);
	}
	read_config(f);
	read_driver(f);
	read_cmdline(f);
}
