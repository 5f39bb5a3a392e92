/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The caller and its limits: perf_event_paranoid, the effective
 * capabilities and uid (/proc/self/status), perf_event_mlock_kb,
 * RLIMIT_MEMLOCK (/proc/self/limits) and the page size (the first
 * KernelPageSize of /proc/self/smaps).  On the live system "self" is this
 * process: the capabilities are those spe doctor (or spe-record --check)
 * runs with.
 */
#include "doctor_facts.h"
#include "perf_access.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void filt_status_parse(struct doctor_facts *f, const char *text)
{
	const char *p = strstr(text, "\nCapEff:");
	if (!p && !strncmp(text, "CapEff:", 7))
		p = text - 1;
	if (p) {
		char *end;
		unsigned long long v = strtoull(p + 8, &end, 16);
		if (end != p + 8) {
			f->cap_eff = v;
			f->status_known = true;
		}
	}
	p = strstr(text, "\nUid:");
	if (!p && !strncmp(text, "Uid:", 4))
		p = text - 1;
	/* Uid: real effective saved fs: the effective one decides. */
	long real, eff;
	if (p && sscanf(p + 5, "%ld %ld", &real, &eff) == 2)
		f->uid = eff;
}

void filt_limits_parse(struct doctor_facts *f, const char *text)
{
	const char *p = strstr(text, "Max locked memory");
	if (!p)
		return;
	p += strlen("Max locked memory");
	while (*p == ' ')
		p++;
	if (!strncmp(p, "unlimited", 9)) {
		f->rlimit = UINT64_MAX;
		f->rlimit_known = true;
		return;
	}
	char *end;
	unsigned long long v = strtoull(p, &end, 10);
	if (end != p) {
		f->rlimit = v;
		f->rlimit_known = true;
	}
}

void filt_facts_read_access(struct doctor_facts *f)
{
	long long v;
	if (!filt_sysroot_number(&f->root, "/proc/sys/kernel/perf_event_paranoid", &v)) {
		f->paranoid = (int)v;
		f->paranoid_known = true;
	}
	if (!filt_sysroot_number(&f->root, "/proc/sys/kernel/perf_event_mlock_kb", &v) && v >= 0) {
		f->mlock_kb = (uint64_t)v;
		f->mlock_known = true;
	}
	f->uid = -1;
	char buf[8192];
	if (filt_sysroot_text(&f->root, "/proc/self/status", buf, sizeof buf) > 0)
		filt_status_parse(f, buf);
	if (filt_sysroot_text(&f->root, "/proc/self/limits", buf, sizeof buf) > 0)
		filt_limits_parse(f, buf);
	f->page_size = 0;
	if (f->root.live) {
		f->page_size = (unsigned)sysconf(_SC_PAGESIZE);
	} else if (filt_sysroot_text(&f->root, "/proc/self/smaps", buf, sizeof buf) > 0) {
		const char *p = strstr(buf, "KernelPageSize:");
		unsigned kb;
		if (p && sscanf(p + 15, "%u", &kb) == 1 && kb >= 4 && kb <= 65536)
			f->page_size = kb * 1024;
	}
	if (!f->page_size)
		f->page_size = 4096;
}

void filt_facts_caller(const struct doctor_facts *f, struct perf_caller *c)
{
	memset(c, 0, sizeof *c);
	c->paranoid = f->paranoid_known ? f->paranoid : 2;
	c->sys_admin = filt_facts_has_cap(f, CAP_BIT_SYS_ADMIN);
	/* CAP_PERFMON came in 5.8; an older kernel knows only CAP_SYS_ADMIN. */
	c->perfmon = c->sys_admin || (filt_facts_has_cap(f, CAP_BIT_PERFMON) && (!f->kernel || f->kernel >= 508));
	c->ipc_lock = filt_facts_has_cap(f, CAP_BIT_IPC_LOCK);
	c->restrict_patch = f->restrict_symbol;
}
