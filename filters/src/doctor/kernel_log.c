/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The kernel log lines that say why SPE probed or not.  The texts are the
 * arm_spe_pmu driver's (drivers/perf/arm_spe_pmu.c: probe and
 * __arm_spe_pmu_dev_probe), the ACPI glue's (drivers/perf/arm_pmu_acpi.c),
 * the driver core's "probe of X failed", arm64's KPTI capability messages
 * (arch/arm64/kernel/cpufeature.c) and hypervisor detection.  The live log
 * comes from syslog(2), which kernel.dmesg_restrict=1 keeps from callers
 * without CAP_SYSLOG; a captured tree holds it as /var/log/dmesg.
 */
#include "doctor_facts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>

#define LOG_MAX (16u << 20)

static const struct {
	enum log_kind kind;
	const char *needle;
	const char *also; /* a second string the line must hold, or NULL */
} patterns[] = {
	{ LOG_PROBED, "arm_spe_pmu", "probed" },
	{ LOG_KPTI, "profiling buffer inaccessible", NULL },
	{ LOG_NO_PMSVER, "unsupported ID_AA64DFR0_EL1.PMSVer", NULL },
	{ LOG_OWNED, "profiling buffer owned by higher exception level", NULL },
	{ LOG_BAD_HW, "arm_spe_pmu", "unsupported PMBIDR.Align" },
	{ LOG_BAD_HW, "arm_spe_pmu", "unsupported PMSIDR_EL1.MaxSize" },
	{ LOG_NOT_PPI, "arm_spe_pmu", "expected PPI but got SPI" },
	{ LOG_PROBE_FAILED, "probe of arm,spe-v1 failed", NULL },
	{ LOG_PROBE_FAILED, "arm_spe_pmu", "failed with error" },
	{ LOG_ACPI, "ACPI: SPE: Unable to register device", NULL },
	{ LOG_ACPI, "arm,spe-v1: must be homogeneous", NULL },
	{ LOG_ACPI, "arm,spe-v1 Unable to register interrupt", NULL },
	{ LOG_KPTI_ON, "kernel page table isolation forced ON", NULL },
	{ LOG_KPTI_ON, "detected: Kernel page table isolation (KPTI)", NULL },
	{ LOG_HYPERVISOR, "KVM: hypervisor services detected", NULL },
	{ LOG_HYPERVISOR, "Hypervisor detected", NULL },
	{ LOG_HYPERVISOR, "Booting kernel on Xen", NULL },
	{ LOG_HYPERVISOR, "Xen version", NULL },
};

/* Keep a line: drop the syslog "<6>" prefix, bound the length. */
static void keep(struct kernel_log *log, enum log_kind kind, const char *line, size_t len)
{
	log->count[kind]++;
	if (line[0] == '<' && len > 3 && line[2] == '>') {
		line += 3;
		len -= 3;
	}
	if (log->n == DOCTOR_MAX_LOG_LINES)
		return;
	struct log_line *l = &log->line[log->n++];
	l->kind = kind;
	size_t n = len < sizeof l->text - 1 ? len : sizeof l->text - 1;
	memcpy(l->text, line, n);
	l->text[n] = '\0';
	for (char *p = l->text; *p; p++)
		if ((unsigned char)*p < 0x20)
			*p = ' ';
}

void filt_kernel_log_scan(struct kernel_log *log, const char *text)
{
	memset(log, 0, sizeof *log);
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[1024];
		snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line - 1 ? len : sizeof line - 1), p);
		for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++) {
			if (strstr(line, patterns[i].needle) && (!patterns[i].also || strstr(line, patterns[i].also))) {
				keep(log, patterns[i].kind, line, strlen(line));
				break;
			}
		}
		if (!nl)
			break;
		p = nl + 1;
	}
}

/* The live kernel log through syslog(2): 0, or an errno. */
static int read_syslog(char **out)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	if (size <= 0)
		size = 1 << 20;
	if ((unsigned)size > LOG_MAX)
		size = LOG_MAX;
	char *buf = malloc((size_t)size + 1);
	if (!buf)
		return ENOMEM;
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	if (n < 0) {
		int e = errno;
		free(buf);
		return e;
	}
	buf[n] = '\0';
	*out = buf;
	return 0;
}

void filt_facts_read_log(struct doctor_facts *f)
{
	long long restrict_value;
	f->dmesg_restrict = filt_sysroot_number(&f->root, "/proc/sys/kernel/dmesg_restrict", &restrict_value)
				    ? -1
				    : (int)restrict_value;
	char *text = NULL;
	f->log_read = SYSROOT_ABSENT;
	if (f->root.live) {
		int e = read_syslog(&text);
		f->log_read = e ? (e == EPERM || e == EACCES ? SYSROOT_DENIED : SYSROOT_ERROR) : 1;
		snprintf(f->log_source, sizeof f->log_source, "kernel log (syslog)");
	}
	if (!text) {
		int was = f->log_read;
		long n = filt_sysroot_slurp(&f->root, "/var/log/dmesg", LOG_MAX, false, &text);
		if (n >= 0 || !f->root.live) {
			f->log_read = n < 0 ? (int)n : 1;
			snprintf(f->log_source, sizeof f->log_source, "/var/log/dmesg");
		} else {
			f->log_read = was;
		}
	}
	if (text)
		filt_kernel_log_scan(&f->log, text);
	free(text);
}
