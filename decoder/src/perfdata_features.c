/* SPDX-License-Identifier: Apache-2.0 */
/* perf.data metadata: attrs, feature sections, AUXTRACE_INFO. */
#include <stdio.h>
#include <stdlib.h>

#include "perfdata_internal.h"

enum { STR_CPUID, STR_ARCH, STR_HOSTNAME, STR_OSRELEASE, STR_VERSION, STR_CPUDESC, STR_CMDLINE };

/* Magic word that opens each per-CPU block of AUXTRACE_INFO v2. */
#define PD_SPE_CPU_MAGIC 0x1010101010101010ull

int pd_add_attr(struct spe_perf_file *f, const uint8_t *attr, uint64_t attr_bytes, const uint8_t *ids,
		uint64_t n_ids, uint64_t off)
{
	if (attr_bytes < PD_ATTR_MIN)
		return pd_fail(f, -spe_bad_file, off, "attr of %llu bytes is shorter than the oldest layout (64)",
			       (unsigned long long)attr_bytes);
	if (f->n_attrs >= 65536)
		return pd_fail(f, -spe_bad_file, off, "more than 65536 attrs");
	uint8_t a[PD_ATTR_MAX] = { 0 };
	memcpy(a, attr, attr_bytes < sizeof a ? attr_bytes : sizeof a);
	struct pd_attr *na = realloc(f->attrs, (f->n_attrs + 1) * sizeof *na);
	if (!na)
		return -spe_nomem;
	f->attrs = na;
	struct pd_attr *x = &f->attrs[f->n_attrs];
	memset(x, 0, sizeof *x);
	if (n_ids) {
		x->ids = malloc(n_ids * 8);
		if (!x->ids)
			return -spe_nomem;
		memcpy(x->ids, ids, n_ids * 8);
	}
	struct spe_perf_attr *p = &x->pub;
	p->type = pd_le32(a + 0);
	p->size = pd_le32(a + 4);
	p->config = pd_le64(a + 8);
	p->sample_period = pd_le64(a + 16);
	p->sample_type = pd_le64(a + 24);
	p->read_format = pd_le64(a + 32);
	p->flags = pd_le64(a + 40);
	p->config1 = pd_le64(a + 56);
	p->config2 = pd_le64(a + 64);
	p->aux_watermark = pd_le32(a + 104);
	p->aux_sample_size = pd_le32(a + 112);
	p->config3 = pd_le64(a + 128);
	p->config4 = pd_le64(a + 136);
	p->sample_id_all = !!(p->flags & PD_SAMPLE_ID_ALL);
	p->n_ids = (uint32_t)n_ids;
	p->ids = x->ids;
	f->n_attrs++;
	f->info.n_attrs = f->n_attrs;
	return 0;
}

/*
 * How to find a kernel record's attr: perf requires the trailer layout to
 * agree between attrs, or routes by the IDENTIFIER word (always last).
 */
void pd_update_sid_layout(struct spe_perf_file *f)
{
	f->sid_same = 1;
	f->sid_identifier = f->n_attrs > 0;
	for (uint32_t i = 0; i < f->n_attrs; i++) {
		const struct spe_perf_attr *a = &f->attrs[i].pub;
		if (a->sample_type != f->attrs[0].pub.sample_type || a->sample_id_all != f->attrs[0].pub.sample_id_all)
			f->sid_same = 0;
		if (!(a->sample_type & SPE_PERF_SAMPLE_IDENTIFIER) || !a->sample_id_all)
			f->sid_identifier = 0;
	}
}

int pd_string_size(struct spe_perf_file *f, const uint8_t *p, uint64_t size, uint64_t off, uint64_t *used)
{
	if (size < 4)
		return pd_fail(f, -spe_bad_file, off, "string of a feature section is cut (%llu bytes)",
			       (unsigned long long)size);
	uint32_t len = pd_le32(p);
	if (len > size - 4)
		return pd_fail(f, -spe_bad_file, off, "string length %u exceeds its section (%llu bytes left)", len,
			       (unsigned long long)(size - 4));
	*used = 4 + (uint64_t)len;
	return 0;
}

/* A perf header string: u32 length, then that many NUL-padded bytes. */
int pd_read_string(struct spe_perf_file *f, const uint8_t *p, uint64_t size, uint64_t off, char **out,
		   uint64_t *used)
{
	uint64_t n = 0;
	int err = pd_string_size(f, p, size, off, &n);
	if (err)
		return err;
	char *s = strndup((const char *)p + 4, (size_t)(n - 4));
	if (!s)
		return -spe_nomem;
	free(*out);
	*out = s;
	if (used)
		*used = n;
	return 0;
}

/* "0x00000000410fd0c0" -> 0x410fd0c0; anything else (x86 cpuid strings) -> 0. */
static uint32_t parse_midr(const char *s)
{
	if (!s || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !s[2])
		return 0;
	uint64_t v = 0;
	for (const char *c = s + 2; *c; c++) {
		int d;
		if (*c >= '0' && *c <= '9')
			d = *c - '0';
		else if (*c >= 'a' && *c <= 'f')
			d = *c - 'a' + 10;
		else if (*c >= 'A' && *c <= 'F')
			d = *c - 'A' + 10;
		else
			return 0;
		v = (v << 4) | (uint64_t)d;
	}
	return (uint32_t)v;
}

static int read_cmdline(struct spe_perf_file *f, const uint8_t *p, uint64_t size, uint64_t off)
{
	if (size < 4)
		return pd_fail(f, -spe_bad_file, off, "CMDLINE section is cut");
	uint32_t n = pd_le32(p);
	uint64_t pos = 4;
	size_t cap = 1, len = 0;
	char *line = calloc(1, 1);
	if (!line)
		return -spe_nomem;
	for (uint32_t i = 0; i < n; i++) {
		char *arg = NULL;
		uint64_t used = 0;
		int err = pd_read_string(f, p + pos, size - pos, off + pos, &arg, &used);
		if (err) {
			free(line);
			return pd_fail(f, err, off + pos, "CMDLINE announces %u arguments but argument %u is cut", n, i);
		}
		pos += used;
		size_t al = strlen(arg);
		char *nl = realloc(line, cap + al + 1);
		if (!nl) {
			free(arg);
			free(line);
			return -spe_nomem;
		}
		line = nl;
		if (len)
			line[len++] = ' ';
		memcpy(line + len, arg, al);
		len += al;
		line[len] = 0;
		cap += al + 1;
		free(arg);
	}
	free(f->strings[STR_CMDLINE]);
	f->strings[STR_CMDLINE] = line;
	f->info.cmdline = line;
	return 0;
}

static int read_build_ids(struct spe_perf_file *f, const uint8_t *p, uint64_t size, uint64_t off)
{
	uint64_t pos = 0;
	while (pos + PD_EVENT_HEADER_SIZE <= size) {
		uint16_t misc = pd_le16(p + pos + 4), rs = pd_le16(p + pos + 6);
		if (rs < 36 || rs > size - pos)
			return pd_fail(f, -spe_bad_file, off + pos, "BUILD_ID entry of size %u does not fit its section",
				       rs);
		if (f->n_build_ids >= 1u << 20)
			return pd_fail(f, -spe_bad_file, off + pos, "too many BUILD_ID entries");
		struct pd_build_id *nb = realloc(f->build_ids, (f->n_build_ids + 1) * sizeof *nb);
		if (!nb)
			return -spe_nomem;
		f->build_ids = nb;
		struct pd_build_id *b = &f->build_ids[f->n_build_ids];
		memset(b, 0, sizeof *b);
		b->pub.pid = pd_le32(p + pos + 8);
		b->pub.misc = misc;
		memcpy(b->pub.id, p + pos + 12, 20);
		/* PERF_RECORD_MISC_BUILD_ID_SIZE (bit 15): byte 20 of the id field says the length */
		b->pub.size = (misc & 0x8000) && p[pos + 32] <= 20 ? p[pos + 32] : 20;
		b->filename = strndup((const char *)p + pos + 36, rs - 36u);
		if (!b->filename)
			return -spe_nomem;
		b->pub.filename = b->filename;
		f->n_build_ids++;
		pos += rs;
	}
	return 0;
}

int pd_parse_feature(struct spe_perf_file *f, unsigned bit, const uint8_t *p, uint64_t size, uint64_t off)
{
	int err = 0;
	switch (bit) {
	case SPE_PERF_FEAT_CPUID:
		err = pd_read_string(f, p, size, off, &f->strings[STR_CPUID], NULL);
		f->info.cpuid = f->strings[STR_CPUID];
		f->info.midr = parse_midr(f->info.cpuid);
		break;
	case SPE_PERF_FEAT_ARCH:
		err = pd_read_string(f, p, size, off, &f->strings[STR_ARCH], NULL);
		f->info.arch = f->strings[STR_ARCH];
		break;
	case SPE_PERF_FEAT_HOSTNAME:
		err = pd_read_string(f, p, size, off, &f->strings[STR_HOSTNAME], NULL);
		f->info.hostname = f->strings[STR_HOSTNAME];
		break;
	case SPE_PERF_FEAT_OSRELEASE:
		err = pd_read_string(f, p, size, off, &f->strings[STR_OSRELEASE], NULL);
		f->info.osrelease = f->strings[STR_OSRELEASE];
		break;
	case SPE_PERF_FEAT_VERSION:
		err = pd_read_string(f, p, size, off, &f->strings[STR_VERSION], NULL);
		f->info.version = f->strings[STR_VERSION];
		break;
	case SPE_PERF_FEAT_CPUDESC:
		err = pd_read_string(f, p, size, off, &f->strings[STR_CPUDESC], NULL);
		f->info.cpudesc = f->strings[STR_CPUDESC];
		break;
	case SPE_PERF_FEAT_NRCPUS:
		if (size < 8)
			return pd_fail(f, -spe_bad_file, off, "NRCPUS section is %llu bytes, needs 8",
				       (unsigned long long)size);
		f->info.nr_cpus_avail = pd_le32(p);
		f->info.nr_cpus_online = pd_le32(p + 4);
		break;
	case SPE_PERF_FEAT_CMDLINE:
		err = read_cmdline(f, p, size, off);
		break;
	case SPE_PERF_FEAT_BUILD_ID:
		err = read_build_ids(f, p, size, off);
		break;
	case SPE_PERF_FEAT_AUXTRACE: {
		if (size < 8)
			return pd_fail(f, -spe_bad_file, off, "AUXTRACE index section is cut");
		uint64_t n = pd_le64(p);
		if (n > (size - 8) / 16)
			return pd_fail(f, -spe_bad_file, off, "AUXTRACE index announces %llu entries but holds %llu",
				       (unsigned long long)n, (unsigned long long)((size - 8) / 16));
		f->info.n_auxtrace_index = n;
		break;
	}
	case SPE_PERF_FEAT_NUMA_TOPOLOGY:
		err = pd_parse_numa_topology(f, p, size, off);
		break;
	case SPE_PERF_FEAT_MEM_TOPOLOGY:
		err = pd_parse_mem_topology(f, p, size, off);
		break;
	case SPE_PERF_FEAT_COMPRESSED:
		/* five u32: version, type, level, ratio, mmap length (write_compressed in tools/perf/util/header.c) */
		if (size < 20)
			return pd_fail(f, -spe_bad_file, off, "COMPRESSED section is %llu bytes, needs 20",
				       (unsigned long long)size);
		f->info.comp_ver = pd_le32(p);
		f->info.comp_type = pd_le32(p + 4);
		f->info.comp_level = pd_le32(p + 8);
		f->info.comp_ratio = pd_le32(p + 12);
		f->info.comp_mmap_len = pd_le32(p + 16);
		f->info.has_comp_header = 1;
		break;
	default:
		break; /* other features are skipped */
	}
	return err;
}

/* perf's HEADER_* feature names (tools/perf/util/header.h, 6.1; 31 was HYBRID_CPU_PMU_CAPS before PMU_CAPS). */
const char *spe_perf_feature_name(unsigned bit)
{
	static const char *const names[] = {
		"RESERVED",      "TRACING_DATA", "BUILD_ID",     "HOSTNAME",      "OSRELEASE",     "VERSION",
		"ARCH",          "NRCPUS",       "CPUDESC",      "CPUID",         "TOTAL_MEM",     "CMDLINE",
		"EVENT_DESC",    "CPU_TOPOLOGY", "NUMA_TOPOLOGY", "BRANCH_STACK", "PMU_MAPPINGS",  "GROUP_DESC",
		"AUXTRACE",      "STAT",         "CACHE",        "SAMPLE_TIME",   "MEM_TOPOLOGY",  "CLOCKID",
		"DIR_FORMAT",    "BPF_PROG_INFO", "BPF_BTF",     "COMPRESSED",    "CPU_PMU_CAPS",  "CLOCK_DATA",
		"HYBRID_TOPOLOGY", "PMU_CAPS",   "CPU_DOMAIN_INFO",
	};
	return bit < sizeof names / sizeof names[0] ? names[bit] : NULL;
}

const char *pd_feature_label(unsigned bit, char *buf, size_t len)
{
	const char *name = spe_perf_feature_name(bit);
	if (name)
		snprintf(buf, len, "%s (%u)", name, bit);
	else
		snprintf(buf, len, "%u", bit);
	return buf;
}

/* Undo the BUILD_ID entries from @p n on (a section that failed half way). */
static void drop_build_ids(struct spe_perf_file *f, uint32_t n)
{
	while (f->n_build_ids > n)
		free(f->build_ids[--f->n_build_ids].filename);
}

int pd_parse_optional_feature(struct spe_perf_file *f, unsigned bit, const uint8_t *p, uint64_t size, uint64_t off)
{
	uint32_t n_build_ids = f->n_build_ids;
	int err = pd_parse_feature(f, bit, p, size, off);
	if (err == 0 || err == -spe_nomem)
		return err;
	/* nothing of it is kept: the parsers that fail half way are undone here, the others change nothing until whole */
	drop_build_ids(f, n_build_ids);
	char label[48];
	uint64_t at = f->err_off;
	f->errmsg[0] = 0;
	f->err_off = UINT64_MAX;
	return pd_warn(f, at, "feature %s skipped: %s", pd_feature_label(bit, label, sizeof label), f->errwhat);
}

int pd_parse_auxtrace_info(struct spe_perf_file *f, const uint8_t *p, uint32_t size, uint64_t off,
			   struct spe_perf_auxtrace_info *out)
{
	memset(out, 0, sizeof *out);
	if (size < 16)
		return pd_fail(f, -spe_bad_file, off, "AUXTRACE_INFO of %u bytes is shorter than 16", size);
	out->kind = pd_le32(p + 8);
	out->n_priv = (size - 16) / 8;
	if (out->kind != SPE_PERF_AUXTRACE_ARM_SPE)
		return 0; /* another tracer's metadata: only the kind is reported */
	const uint8_t *priv = p + 16;
	if (size < 32)
		return pd_fail(f, -spe_bad_file, off, "Arm SPE AUXTRACE_INFO of %u bytes is shorter than 32", size);
	if (size - 16 == 16) {
		out->version = 1;
		out->pmu_type = pd_le64(priv);
		out->per_cpu_mmaps = pd_le64(priv + 8);
		f->n_spe_cpus = 0;
		return 0;
	}
	/* version 2: [version, header words, pmu type, n cpus] then n blocks */
	if (out->n_priv < 4)
		return pd_fail(f, -spe_bad_file, off, "Arm SPE AUXTRACE_INFO of %u bytes is too short for the v2 header",
			       size);
	uint64_t version = pd_le64(priv), hdr = pd_le64(priv + 8), n = pd_le64(priv + 24);
	out->version = version > 0xffffffffu ? 0xffffffffu : (uint32_t)version;
	out->pmu_type = pd_le64(priv + 16);
	if (hdr < 4 || hdr > out->n_priv)
		return pd_fail(f, -spe_bad_file, off + 24, "AUXTRACE_INFO header size %llu words is impossible",
			       (unsigned long long)hdr);
	uint64_t words = out->n_priv - hdr;
	if (n == 0) {
		f->n_spe_cpus = 0;
		return 0;
	}
	if (n > words / 4)
		return pd_fail(f, -spe_bad_file, off + 40,
			       "AUXTRACE_INFO announces %llu CPUs but holds only %llu words of per-CPU data",
			       (unsigned long long)n, (unsigned long long)words);
	uint64_t per = words / n;
	struct spe_perf_spe_cpu *cpus = calloc(n, sizeof *cpus);
	if (!cpus)
		return -spe_nomem;
	for (uint64_t i = 0; i < n; i++) {
		const uint8_t *b = priv + (hdr + i * per) * 8;
		uint64_t boff = off + 16 + (hdr + i * per) * 8;
		if (pd_le64(b) != PD_SPE_CPU_MAGIC) {
			free(cpus);
			return pd_fail(f, -spe_bad_file, boff, "per-CPU block %llu of AUXTRACE_INFO lacks its magic",
				       (unsigned long long)i);
		}
		uint64_t np = pd_le64(b + 16);
		if (np < 3 || np > per - 3) {
			free(cpus);
			return pd_fail(f, -spe_bad_file, boff + 16,
				       "per-CPU block %llu of AUXTRACE_INFO has %llu parameters, room for %llu",
				       (unsigned long long)i, (unsigned long long)np, (unsigned long long)(per - 3));
		}
		cpus[i].cpu = pd_le64(b + 8);
		cpus[i].n_params = np;
		cpus[i].midr = pd_le64(b + 24);
		cpus[i].pmu_type = pd_le64(b + 32);
		cpus[i].min_interval = pd_le64(b + 40);
		cpus[i].event_filter = np >= 4 ? pd_le64(b + 48) : 0;
	}
	free(f->spe_cpus);
	f->spe_cpus = cpus;
	f->n_spe_cpus = (uint32_t)n;
	out->n_cpus = (uint32_t)n;
	return 0;
}
