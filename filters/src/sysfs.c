/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Targets from sysfs: /sys/bus/event_source/devices/arm_spe_N or a copy.
 *
 * Read: type, cpumask, format/<term> (bit positions), caps/{ernd,arch_inst,
 * count_size,min_interval,event_filter}.  Two files are ours, for fixtures:
 * `kernel` (the release, "6.8") and `midr_el1` (as in
 * /sys/devices/system/cpu/cpuN/regs/identification/midr_el1), which a live
 * system reads from the real places instead.  Without a `kernel` file the
 * release is uname's for a tree under /sys, else the newest modelled.
 */
#include "target_internal.h"

#include <ctype.h>
#include <limits.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "spe/infile.h"

struct ctx {
	char *err;
	size_t errlen;
};

/*
 * Read a small text file.  Returns length, -1 when absent, -2 on error (err
 * set): a FIFO or a device where a sysfs attribute should be is refused, not
 * waited on.
 */
static int read_text(struct ctx *c, const char *path, char *buf, size_t len)
{
	if (access(path, F_OK) != 0 && errno == ENOENT)
		return -1;
	FILE *f = spe_infile_fopen(path, NULL, c->err, c->errlen);
	if (!f)
		return -2;
	size_t n = fread(buf, 1, len - 1, f);
	bool failed = ferror(f);
	fclose(f);
	if (failed) {
		snprintf(c->err, c->errlen, "%s: read error", path);
		return -2;
	}
	buf[n] = '\0';
	return (int)n;
}

/* One unsigned number (decimal or 0x hex) and a newline.  -1 absent, -2 error. */
static int read_number(struct ctx *c, const char *path, uint64_t *out)
{
	char buf[64];
	int n = read_text(c, path, buf, sizeof buf);
	if (n < 0)
		return n;
	char *end;
	errno = 0;
	*out = strtoull(buf, &end, 0);
	if (buf[strspn(buf, " \t")] == '-' || errno == ERANGE) {
		/* strtoull would wrap "-1" to 2^64 - 1: say what the file holds instead. */
		buf[strcspn(buf, "\n")] = '\0';
		snprintf(c->err, c->errlen, "%s: '%s' is not a number from 0 to 2^64 - 1", path, buf);
		return -2;
	}
	if (end == buf || errno || (*end && *end != '\n') || (*end == '\n' && end[1])) {
		snprintf(c->err, c->errlen, "%s: offset %d: expected one number", path,
			 (int)(end == buf ? 0 : end - buf));
		return -2;
	}
	return 0;
}

/* "configN:lo[-hi]\n" */
static int parse_format(struct ctx *c, const char *path, const char *s, struct spe_format_field *f)
{
	const char *p = s;
	if (strncmp(p, "config", 6))
		goto bad;
	p += 6;
	unsigned word = 0;
	if (isdigit((unsigned char)*p))
		word = (unsigned)(*p++ - '0');
	if (word >= SPE_CONFIG_WORDS || *p++ != ':' || !isdigit((unsigned char)*p))
		goto bad;
	char *end;
	unsigned long lo = strtoul(p, &end, 10), hi = lo;
	p = end;
	if (*p == '-') {
		p++;
		if (!isdigit((unsigned char)*p))
			goto bad;
		hi = strtoul(p, &end, 10);
		p = end;
	}
	if (lo > hi || hi > 63)
		goto bad;
	if (*p == '\n')
		p++;
	if (*p)
		goto bad;
	*f = (struct spe_format_field){ true, (uint8_t)word, (uint8_t)lo, (uint8_t)hi };
	return 0;
bad:
	snprintf(c->err, c->errlen, "%s: offset %d: expected configN:lo or configN:lo-hi", path, (int)(p - s));
	return -1;
}

static bool path_join(struct ctx *c, char *out, size_t len, const char *dir, const char *name)
{
	if ((size_t)snprintf(out, len, "%s/%s", dir, name) >= len) {
		snprintf(c->err, c->errlen, "%s/%s: path too long", dir, name);
		return false;
	}
	return true;
}

static void infer_version(struct spe_target *t)
{
	/* Lower bounds from what the kernel shows; a MIDR (below) overrides. */
	unsigned v = 1;
	if (t->evf_probed && (t->evf_valid & ((1ull << 11) | (1ull << 17) | (1ull << 18))))
		v = 2;
	if (t->features & (SPE_FEAT_BIT(FNE) | SPE_FEAT_BIT(DISCARD)) ||
	    (t->evf_probed && (t->evf_valid & (1ull << 6))))
		v = 3;
	if (t->features & (SPE_FEAT_BIT(EFT) | SPE_FEAT_BIT(FDS)) ||
	    (t->evf_probed && (t->evf_valid & spe_evf_architected(5, false) & ~spe_evf_architected(4, true))))
		v = 5;
	t->pmsver = v;
	t->pmsver_is_lower_bound = true;
}

static int read_live_privilege(struct spe_target *t)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	if (f) {
		if (fscanf(f, "%d", &t->paranoid) != 1)
			t->paranoid = 2;
		fclose(f);
	}
	f = fopen("/proc/self/status", "r");
	if (!f)
		return 0;
	char line[256];
	while (fgets(line, sizeof line, f)) {
		unsigned long long cap;
		if (sscanf(line, "CapEff: %llx", &cap) == 1)
			t->privileged = (cap >> 38 & 1) || (cap >> 21 & 1); /* CAP_PERFMON, CAP_SYS_ADMIN */
	}
	fclose(f);
	return 0;
}

/*
 * caps/: values the driver prints (docs/filters.md, sysfs and PMSIDR_EL1).  A
 * value no kernel can show means a hand-edited or corrupt copy: refuse it
 * rather than compile against it.
 */
static int load_caps(struct ctx *c, const char *dir, struct spe_target *t)
{
	static const unsigned intervals[] = { 256, 512, 768, 1024, 1536, 2048, 3072, 4096 };
	static const char *const names[] = { "caps/ernd", "caps/arch_inst", "caps/count_size", "caps/min_interval",
					     "caps/event_filter" };
	const uint64_t raz = 1ull | 0x0000ffff00000000ull; /* PMSEVFR bit 0 and bits 32-47 are RAZ/WI */
	char path[4096];
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		uint64_t v;
		if (!path_join(c, path, sizeof path, dir, names[i]))
			return -1;
		int rc = read_number(c, path, &v);
		if (rc == -1)
			continue;
		if (rc)
			return -1;
		bool ok = true;
		switch (i) {
		case 0:
		case 1:
			ok = v <= 1;
			if (ok && v)
				t->features |= i == 0 ? SPE_FEAT_BIT(ERND) : SPE_FEAT_BIT(ARCHINST);
			break;
		case 2:
			ok = v == 12 || v == 16;
			t->count_size = (unsigned)v;
			break;
		case 3:
			ok = false;
			for (size_t k = 0; k < sizeof intervals / sizeof intervals[0]; k++)
				ok |= v == intervals[k];
			t->min_interval = (unsigned)v;
			break;
		default:
			ok = !(v & raz);
			t->evf_valid = v;
			t->evf_probed = true;
			break;
		}
		if (ok)
			continue;
		if (i <= 1)
			snprintf(c->err, c->errlen, "%s: %llu is not 0 or 1 (a PMSIDR_EL1 flag)", path,
				 (unsigned long long)v);
		else if (i == 2)
			snprintf(c->err, c->errlen, "%s: %llu is not a counter size the driver shows (12 or 16)", path,
				 (unsigned long long)v);
		else if (i == 3)
			snprintf(c->err, c->errlen,
				 "%s: %llu is not a minimum interval PMSIDR_EL1.Interval encodes (256, 512, 768, 1024, "
				 "1536, 2048, 3072 or 4096)",
				 path, (unsigned long long)v);
		else
			snprintf(c->err, c->errlen,
				 "%s: 0x%llx sets bits 0x%llx that are RAZ/WI in PMSEVFR_EL1 (bit 0, bits 32-47): "
				 "no probe can show them",
				 path, (unsigned long long)v, (unsigned long long)(v & raz));
		return -1;
	}
	return 0;
}

static int load_pmu(struct ctx *c, const char *dir, const char *name, unsigned kernel, bool live,
		    struct spe_target *t)
{
	char path[4096], buf[256];
	uint64_t v;
	filt_target_reset(t);
	t->origin = SPE_TARGET_SYSFS;
	t->features = SPE_FEAT_BIT(NONE);
	snprintf(t->pmu, sizeof t->pmu, "%s", name);

	if (!path_join(c, path, sizeof path, dir, "type"))
		return -1;
	int rc = read_number(c, path, &v);
	if (rc == -1)
		snprintf(c->err, c->errlen, "%s: missing: not a PMU directory", path);
	if (rc)
		return -1;
	if (v > INT_MAX) {
		/* attr.type is 32 bits, and the kernel's PMU idr hands out ints: 2^32 would wrap to 0 (a CPU PMU). */
		snprintf(c->err, c->errlen, "%s: %llu is not a PMU type (0 to %d)", path, (unsigned long long)v, INT_MAX);
		return -1;
	}
	t->type = (int)v;

	if (!path_join(c, path, sizeof path, dir, "cpumask"))
		return -1;
	rc = read_text(c, path, buf, sizeof buf);
	if (rc == -2)
		return -1;
	if (rc >= 0) {
		size_t off;
		if (spe_cpuset_parse(buf, &t->cpus, &off)) {
			snprintf(c->err, c->errlen, "%s: offset %zu: expected a CPU list like 0-3,8", path, off);
			return -1;
		}
		t->cpus_known = true;
		buf[strcspn(buf, "\n")] = '\0';
		snprintf(t->cpumask_text, sizeof t->cpumask_text, "%.127s", buf);
	}

	for (int i = 0; i < SPE_TERM_COUNT; i++) {
		const struct spe_term_info *ti = spe_term_info(i);
		if (ti->kind == SPE_TERM_RAW) {
			t->field[i] = (struct spe_format_field){ true, ti->word, ti->lo, ti->hi };
			continue;
		}
		char rel[64];
		snprintf(rel, sizeof rel, "format/%s", ti->name);
		if (!path_join(c, path, sizeof path, dir, rel))
			return -1;
		rc = read_text(c, path, buf, sizeof buf);
		if (rc == -2)
			return -1;
		if (rc >= 0 && parse_format(c, path, buf, &t->field[i]))
			return -1;
		if (rc >= 0 && ti->feature != SPE_FEAT_PRIV)
			t->features |= 1u << ti->feature;
	}

	if (load_caps(c, dir, t))
		return -1;

	/* Kernel release: caller, then our `kernel` file, then uname for live sysfs. */
	t->kernel = kernel;
	if (!t->kernel) {
		if (!path_join(c, path, sizeof path, dir, "kernel"))
			return -1;
		rc = read_text(c, path, buf, sizeof buf);
		if (rc == -2)
			return -1;
		if (rc >= 0 && !(t->kernel = spe_kernel_parse(buf))) {
			snprintf(c->err, c->errlen, "%s: offset 0: expected a release like 6.8", path);
			return -1;
		}
	}
	/*
	 * A tree inside /sys is the running system's: its kernel is uname's.  A
	 * copy without the file gets the newest rules we model, and the caller
	 * says so (spe_system.warning).
	 */
	if (!t->kernel && (live || spe_sysfs_is_live(dir))) {
		struct utsname u;
		if (uname(&u) == 0)
			t->kernel = spe_kernel_parse(u.release);
	}
	if (!t->kernel) {
		t->kernel = SPE_KERNEL_NEWEST;
		t->kernel_assumed = true;
	}

	infer_version(t);
	if (!t->evf_probed)
		t->evf_valid = spe_evf_architected(t->pmsver, false);

	/* MIDR: our fixture file, or the first covered CPU's on a live system. */
	if (live && t->cpus_known) {
		unsigned first = 0;
		while (first < SPE_MAX_CPUS && !(t->cpus.bits[first / 64] >> (first % 64) & 1))
			first++;
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%u/regs/identification/midr_el1", first);
	} else if (!path_join(c, path, sizeof path, dir, "midr_el1")) {
		return -1;
	}
	rc = read_number(c, path, &v);
	if (rc == -2 && !live)
		return -1;
	if (rc == 0)
		filt_target_apply_midr(t, v);
	if (live)
		read_live_privilege(t);
	return 0;
}

bool spe_sysfs_is_live(const char *dir)
{
	char real[PATH_MAX];
	return realpath(dir, real) && !strncmp(real, "/sys/", 5);
}

static int pmu_index(const char *name)
{
	if (strncmp(name, "arm_spe", 7))
		return -1;
	if (!name[7])
		return 0;
	if (name[7] != '_' || !isdigit((unsigned char)name[8]))
		return -1;
	return atoi(name + 8);
}

static int by_index(const void *a, const void *b)
{
	const struct spe_target *x = a, *y = b;
	return pmu_index(x->pmu) - pmu_index(y->pmu);
}

static void note_assumed_kernel(const char *dir, struct spe_system *sys)
{
	for (unsigned i = 0; i < sys->count; i++) {
		if (sys->pmu[i].kernel_assumed) {
			snprintf(sys->warning, sizeof sys->warning,
				 "%s: no 'kernel' file and not under /sys: assuming Linux %u.%u, the newest release "
				 "modelled; pass --kernel=X.Y to check against another",
				 dir, SPE_KERNEL_NEWEST / 100, SPE_KERNEL_NEWEST % 100);
			return;
		}
	}
}

int spe_system_load_sysfs(const char *dir, unsigned kernel, bool live, struct spe_system *sys, char *err,
			  size_t errlen)
{
	struct ctx c = { err, errlen };
	char path[4096];
	struct stat st;
	memset(sys, 0, sizeof *sys);
	if (!path_join(&c, path, sizeof path, dir, "type"))
		return -spe_invalid;
	if (stat(path, &st) == 0) {
		const char *base = strrchr(dir, '/');
		base = base && base[1] ? base + 1 : dir;
		if (load_pmu(&c, dir, pmu_index(base) >= 0 ? base : "arm_spe_0", kernel, live, &sys->pmu[0]))
			return -spe_bad_input;
		sys->count = 1;
		note_assumed_kernel(dir, sys);
		return 0;
	}
	DIR *d = opendir(dir);
	if (!d) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", dir, strerror(e));
		return e == ENOENT || e == ENOTDIR ? -spe_not_found : -spe_io;
	}
	struct dirent *e;
	int rc = 0;
	while ((e = readdir(d))) {
		if (pmu_index(e->d_name) < 0)
			continue;
		if (sys->count == SPE_MAX_PMUS) {
			snprintf(err, errlen, "%s: more than %d arm_spe PMUs", dir, SPE_MAX_PMUS);
			rc = -spe_unsupported;
			break;
		}
		if (!path_join(&c, path, sizeof path, dir, e->d_name)) {
			rc = -spe_invalid;
			break;
		}
		if (load_pmu(&c, path, e->d_name, kernel, live, &sys->pmu[sys->count])) {
			rc = -spe_bad_input;
			break;
		}
		sys->count++;
	}
	closedir(d);
	if (rc)
		return rc;
	if (!sys->count) {
		snprintf(err, errlen, "%s: no arm_spe PMU (no type file, no arm_spe_N directory)", dir);
		return -spe_not_found;
	}
	qsort(sys->pmu, sys->count, sizeof sys->pmu[0], by_index);
	note_assumed_kernel(dir, sys);
	return 0;
}

int spe_system_pick(const struct spe_system *sys, const struct spe_cpuset *cpus, const char *pmu_name, char *err,
		    size_t errlen)
{
	int pick = -1;
	if (pmu_name && pmu_name[0] && strcmp(pmu_name, "arm_spe")) {
		for (unsigned i = 0; i < sys->count; i++)
			if (!strcmp(sys->pmu[i].pmu, pmu_name))
				pick = (int)i;
		if (pick < 0) {
			snprintf(err, errlen, "%s: no such PMU in this system", pmu_name);
			return -spe_invalid;
		}
		if (cpus && sys->pmu[pick].cpus_known && !spe_cpuset_covers(&sys->pmu[pick].cpus, cpus)) {
			snprintf(err, errlen, "%s covers CPUs %s only, not all the requested CPUs", pmu_name,
				 sys->pmu[pick].cpumask_text);
			return -spe_invalid;
		}
		return pick;
	}
	if (sys->count == 1 && !cpus)
		return 0;
	for (unsigned i = 0; i < sys->count; i++) {
		const struct spe_target *t = &sys->pmu[i];
		if (!cpus || !t->cpus_known || !spe_cpuset_intersects(&t->cpus, cpus))
			continue;
		if (!spe_cpuset_covers(&t->cpus, cpus)) {
			snprintf(err, errlen, "the requested CPUs span more than one SPE PMU (%s covers %s)", t->pmu,
				 t->cpumask_text);
			return -spe_invalid;
		}
		pick = (int)i;
	}
	if (pick >= 0)
		return pick;
	size_t n = (size_t)snprintf(err, errlen, cpus ? "no SPE PMU covers the requested CPUs:" :
							"%u SPE PMUs, pick one with --cpus=LIST or -e arm_spe_N/.../:",
				    sys->count);
	for (unsigned i = 0; i < sys->count && n < errlen; i++)
		n += (size_t)snprintf(err + n, errlen - n, " %s (CPUs %s)", sys->pmu[i].pmu,
				      sys->pmu[i].cpumask_text[0] ? sys->pmu[i].cpumask_text : "?");
	return -spe_invalid;
}
