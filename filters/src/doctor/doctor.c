/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe doctor (spe/doctor.h): gather the facts of a system once, run every
 * check over them in report order, and reduce the FAILs to one verdict.
 */
#include "doctor_facts.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const struct {
	const char *name, *what;
} checks[SPE_CHECK_COUNT] = {
#define SPE_X(id, name, what) [SPE_CHECK_##id] = { name, what },
	SPE_CHECK_LIST(SPE_X)
#undef SPE_X
};

/* The evaluator of each check (check_*.c). */
static void (*const evaluators[SPE_CHECK_COUNT])(struct check_ctx *, struct spe_check *) = {
	[SPE_CHECK_ARCH] = filt_check_arch,		 [SPE_CHECK_CPU] = filt_check_cpu,
	[SPE_CHECK_VIRT] = filt_check_virt,		 [SPE_CHECK_KERNEL] = filt_check_kernel,
	[SPE_CHECK_CONFIG] = filt_check_config,	 [SPE_CHECK_DRIVER] = filt_check_driver,
	[SPE_CHECK_FIRMWARE] = filt_check_firmware,	 [SPE_CHECK_PROBE] = filt_check_probe,
	[SPE_CHECK_KPTI] = filt_check_kpti,		 [SPE_CHECK_PMU] = filt_check_pmu,
	[SPE_CHECK_CAPS] = filt_check_caps,		 [SPE_CHECK_PARANOID] = filt_check_paranoid,
	[SPE_CHECK_PRIVILEGE] = filt_check_privilege, [SPE_CHECK_MLOCK] = filt_check_mlock,
	[SPE_CHECK_RECORD] = filt_check_record,
};

const char *spe_check_name(enum spe_check_id id)
{
	return (unsigned)id < SPE_CHECK_COUNT ? checks[id].name : NULL;
}

const char *spe_check_what(enum spe_check_id id)
{
	return (unsigned)id < SPE_CHECK_COUNT ? checks[id].what : NULL;
}

const char *spe_check_status_name(enum spe_check_status s)
{
	static const char *const names[] = { "OK", "WARN", "FAIL", "SKIP" };
	return (unsigned)s < 4 ? names[s] : "?";
}

const char *spe_doctor_verdict_name(enum spe_doctor_verdict v)
{
	static const char *const names[] = { "ok", "unavailable", "no-permission" };
	return (unsigned)v < 3 ? names[v] : "?";
}

void spe_doctor_plan_init(struct spe_doctor_plan *plan, uint64_t default_aux_bytes, uint64_t default_data_bytes)
{
	memset(plan, 0, sizeof *plan);
	plan->default_aux_bytes = default_aux_bytes;
	plan->default_data_bytes = default_data_bytes;
}

void filt_check_set(struct spe_check *k, enum spe_check_status st, enum spe_doctor_verdict blocks, const char *fmt, ...)
{
	k->status = st;
	k->blocks = st == SPE_CHECK_FAIL ? blocks : SPE_DOCTOR_OK;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(k->summary, sizeof k->summary, fmt, ap);
	va_end(ap);
}

void filt_check_evidence(struct spe_check *k, const char *source, const char *fmt, ...)
{
	if (k->n_evidence == SPE_CHECK_MAX_EVIDENCE)
		return;
	struct spe_check_evidence *e = &k->evidence[k->n_evidence++];
	snprintf(e->source, sizeof e->source, "%s", source);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->value, sizeof e->value, fmt, ap);
	va_end(ap);
}

void filt_check_fix(struct spe_check *k, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(k->fix, sizeof k->fix, fmt, ap);
	va_end(ap);
}

/* Is @p dir/@p name a directory? */
static bool is_dir_in(const char *dir, const char *name)
{
	char path[PATH_MAX + 16];
	struct stat st;
	return snprintf(path, sizeof path, "%s/%s", dir, name) < (int)sizeof path && !stat(path, &st) &&
	       S_ISDIR(st.st_mode);
}

static int open_root(const char *root, struct sysroot *s, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	char real[PATH_MAX];
	if (!root || !*root || !strcmp(root, "/")) {
		s->live = true;
		return 0;
	}
	struct stat st;
	if (!realpath(root, real) || stat(real, &st)) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", root, strerror(e));
		return e == ENOENT || e == ENOTDIR ? -spe_not_found : -spe_io;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a directory (give the root of a captured tree)", root);
		return -spe_not_found;
	}
	s->live = !strcmp(real, "/");
	if (!s->live)
		snprintf(s->dir, sizeof s->dir, "%s", real);
	/* a capture's directory given instead of its root (.../host17 for .../host17/root) would
	 * read nothing and fail every check: say so instead */
	if (!s->live && !is_dir_in(real, "proc") && !is_dir_in(real, "sys")) {
		snprintf(err, errlen,
			 "%s: no proc/ or sys/ in it (give the root of a captured tree, the directory that holds them)", root);
		return -1;
	}
	return 0;
}

static void verdict(struct spe_doctor_report *r)
{
	r->verdict = SPE_DOCTOR_OK;
	r->first_failure = -1;
	for (int i = 0; i < SPE_CHECK_COUNT; i++)
		if (r->check[i].status == SPE_CHECK_FAIL && r->check[i].blocks == SPE_DOCTOR_UNAVAILABLE)
			r->verdict = SPE_DOCTOR_UNAVAILABLE;
	if (r->verdict == SPE_DOCTOR_OK)
		for (int i = 0; i < SPE_CHECK_COUNT; i++)
			if (r->check[i].status == SPE_CHECK_FAIL)
				r->verdict = SPE_DOCTOR_NO_PERMISSION;
	for (int i = 0; i < SPE_CHECK_COUNT && r->first_failure < 0; i++)
		if (r->check[i].status == SPE_CHECK_FAIL && r->check[i].blocks == r->verdict)
			r->first_failure = i;
}

int spe_doctor_run(const char *root, const struct spe_doctor_plan *plan, struct spe_doctor_report *r, char *err,
		   size_t errlen)
{
	struct doctor_facts *f = calloc(1, sizeof *f);
	if (!f) {
		snprintf(err, errlen, "out of memory");
		return -spe_nomem;
	}
	int rc = open_root(root, &f->root, err, errlen);
	if (rc) {
		free(f);
		return rc;
	}
	memset(r, 0, sizeof *r);
	snprintf(r->root, sizeof r->root, "%.255s", f->root.live ? "/" : f->root.dir);
	filt_facts_read_cpu(f);
	filt_facts_read_virt(f);
	filt_facts_read_kernel(f);
	filt_facts_read_firmware(f);
	filt_facts_read_log(f);
	filt_facts_read_access(f);
	filt_facts_read_pmus(f);
	snprintf(r->release, sizeof r->release, "%s", f->release);
	snprintf(r->arch, sizeof r->arch, "%s", f->arch);

	struct check_ctx c = { .f = f, .plan = plan, .r = r, .arm = true, .have_pmus = f->sys && f->sys->count };
	for (int i = 0; i < SPE_CHECK_COUNT; i++) {
		struct spe_check *k = &r->check[i];
		k->id = (enum spe_check_id)i;
		if (i != SPE_CHECK_ARCH && !c.arm) {
			filt_check_set(k, SPE_CHECK_SKIP, SPE_DOCTOR_OK, "not an Arm system");
			continue;
		}
		evaluators[i](&c, k);
	}
	verdict(r);
	free(f->sys);
	free(f);
	return 0;
}
