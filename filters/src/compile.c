/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The compiler: request + target -> attr words, register image, diagnostics.
 *
 * Checks run in the order of the driver's event_init (docs/filters.md,
 * "Checks, in the order event_init makes them"): event bits, config4, frequency mode, features, privilege;
 * then the strict checks the kernel does not make.
 */
#include "diag.h"
#include "kernel_rules.h"
#include "perf_access.h"

#include <stdio.h>
#include <string.h>

/* Register fields the driver sets that no term drives (Arm ARM PMSCR_EL1, PMSFCR_EL1). */
#define PMSCR_E0SPE (1ull << 0)
#define PMSCR_E1SPE (1ull << 1)
#define PMSCR_CX (1ull << 3)
#define PMSFCR_FE (1ull << 0)
#define PMSFCR_FT (1ull << 1)
#define PMSFCR_FL (1ull << 2)
#define PMSFCR_FNE (1ull << 3)
#define PMSFCR_FDS (1ull << 4)
#define PERIOD_MAX 0xffffff00ull

static uint64_t field_mask(const struct spe_format_field *f)
{
	unsigned width = (unsigned)(f->hi - f->lo) + 1;
	return width >= 64 ? ~0ull : ((1ull << width) - 1);
}

/* The value the kernel extracts for @p term from the words (0 when no field). */
static uint64_t field_get(const struct spe_target *t, const uint64_t *w, enum spe_term term)
{
	const struct spe_format_field *f = &t->field[term];
	return f->present ? (w[f->word] >> f->lo) & field_mask(f) : 0;
}

static void field_put(const struct spe_format_field *f, uint64_t *w, uint64_t v)
{
	uint64_t m = field_mask(f);
	w[f->word] = (w[f->word] & ~(m << f->lo)) | ((v & m) << f->lo);
}

struct job {
	const struct spe_filter_request *req;
	const struct spe_target *t;
	struct spe_filter_result *out;
	uint64_t w[SPE_CONFIG_WORDS];
	char who[160];
};

static void put_terms(struct job *j)
{
	const struct spe_target *t = j->t;
	for (int i = 0; i < SPE_TERM_COUNT; i++) {
		const struct spe_term_info *ti = spe_term_info(i);
		if (j->req->set[i] && ti->kind == SPE_TERM_RAW)
			j->w[ti->word] = j->req->value[i];
	}
	for (int i = 0; i < SPE_TERM_COUNT; i++) {
		const struct spe_term_info *ti = spe_term_info(i);
		if (!j->req->set[i] || ti->kind == SPE_TERM_RAW)
			continue;
		uint64_t v = j->req->value[i];
		enum spe_term into = (enum spe_term)i;
		if (i == SPE_TERM_DATA_SRC_FILTER && !t->field[i].present) {
			/* Keep-mask onto the exclude-mask field: 0 stays "no filtering". */
			into = SPE_TERM_INV_DATA_SRC_FILTER;
			v = v ? ~v : 0;
		}
		const struct spe_format_field *f = &t->field[into];
		if (!f->present) {
			char why[256];
			enum spe_filter_msg m = filt_term_missing_reason(t, into, why, sizeof why);
			if (v) /* a zero value asks for nothing the kernel could refuse */
				filt_diag_add(&j->out->diags, m, j->req->strict, ti->name, "%s", why);
			continue;
		}
		uint64_t max = field_mask(f);
		if (ti->kind == SPE_TERM_NUMBER) {
			uint64_t counter_max = (1ull << t->count_size) - 1;
			uint64_t keep = max < counter_max ? max : counter_max;
			if (v > keep && keep == max)
				filt_diag_add(&j->out->diags, SPE_MSG_MINLAT_WIDE, j->req->strict, ti->name,
					      "%llu is wider than the %u-bit field config%u:%u-%u; the kernel keeps %llu",
					      (unsigned long long)v, (unsigned)(f->hi - f->lo + 1), f->word, f->lo, f->hi,
					      (unsigned long long)(v & max));
			else if (v > keep)
				filt_diag_add(&j->out->diags, SPE_MSG_MINLAT_WIDE, j->req->strict, ti->name,
					      "%llu is wider than the %u-bit counter of %s: no latency can reach it",
					      (unsigned long long)v, t->count_size, t->pmu);
		} else if (v > max) {
			filt_diag_add(&j->out->diags, SPE_MSG_VALUE_TOO_BIG, true, ti->name,
				      "value 0x%llx too big for config%u:%u-%u (maximum 0x%llx)", (unsigned long long)v,
				      f->word, f->lo, f->hi, (unsigned long long)max);
			continue;
		}
		field_put(f, j->w, v);
	}
}

static void check_event_bits(struct job *j, unsigned word, const char *option)
{
	uint64_t bad = j->w[word] & ~filt_kernel_evf_accept(j->t);
	for (unsigned b = 0; b < 64; b++) {
		if (!(bad >> b & 1))
			continue;
		char why[256];
		filt_event_bit_reason(j->t, b, why, sizeof why);
		filt_diag_add(&j->out->diags, SPE_MSG_EVENT_BITS, j->req->strict, option, "%s", why);
	}
}

/*
 * The field the driver of this release extracts for @p term: the target's
 * format/ position, or for a field the release has but hides on this
 * hardware, the default position.  false when the release has no such field.
 */
static bool kernel_field(const struct spe_target *t, enum spe_term term, struct spe_format_field *f)
{
	const struct spe_term_info *ti = spe_term_info(term);
	if (ti->kind == SPE_TERM_RAW)
		return false; /* a whole word, not a field */
	if (t->field[term].present) {
		*f = t->field[term];
		return true;
	}
	if (term == SPE_TERM_DATA_SRC_FILTER || t->kernel < ti->since)
		return false;
	if (term == SPE_TERM_INV_DATA_SRC_FILTER && t->field[SPE_TERM_DATA_SRC_FILTER].present)
		return false; /* a kernel with the v1-v3 patch spelling */
	*f = (struct spe_format_field){ true, ti->word, ti->lo, ti->hi };
	return true;
}

/*
 * Raw words can set the bits of a field the driver has but hides because
 * the hardware lacks its feature; event_init then fails (EOPNOTSUPP).
 */
static void check_hidden_fields(struct job *j)
{
	const struct spe_target *t = j->t;
	for (int i = 0; i < SPE_TERM_COUNT; i++) {
		struct spe_format_field f;
		if (t->field[i].present || !kernel_field(t, i, &f))
			continue;
		uint64_t v = (j->w[f.word] >> f.lo) & field_mask(&f);
		if (!v)
			continue;
		const struct spe_term_info *ti = spe_term_info(i);
		char word[16];
		snprintf(word, sizeof word, f.word ? "config%u" : "config", f.word);
		filt_diag_add(&j->out->diags, SPE_MSG_NEEDS_FEATURE, j->req->strict, word,
			      "bits 0x%llx are %s, which needs %s (SPEv%s); %s", (unsigned long long)(v << f.lo), ti->name,
			      spe_feature_name(ti->feature), spe_feature_version(ti->feature), j->who);
	}
}

/*
 * perf core refuses exclude_kernel = 0 (EACCES) to a caller without
 * perf_allow_kernel().  Asked for by name (a `k` modifier, or kernel only
 * with exclude_user), that is an error; by default the event falls back to
 * user space with a warning, as perf record does.
 */
static void check_kernel_samples(struct job *j)
{
	const struct spe_filter_request *r = j->req;
	const struct spe_target *t = j->t;
	if (r->exclude_kernel || spe_target_may_sample_kernel(t))
		return;
	char have[96];
	spe_target_privilege_text(t, have, sizeof have);
	if (r->kernel_explicit || r->exclude_user) {
		filt_diag_add(&j->out->diags, SPE_MSG_NEEDS_PRIVILEGE, true, r->kernel_explicit ? "k" : "exclude_user",
			      "kernel samples need CAP_PERFMON or perf_event_paranoid <= 1 (perf core refuses the event "
			      "with EACCES); target has %s",
			      have);
		return;
	}
	j->out->kernel_excluded = true;
	filt_diag_add(&j->out->diags, SPE_MSG_KERNEL_EXCLUDED, r->strict, "exclude_kernel",
		      "target has %s, so the event samples user space only (exclude_kernel=1, PMSCR.E1SPE clear); for kernel "
		      "samples give the recorder CAP_PERFMON or set kernel.perf_event_paranoid=1",
		      have);
}

static void check_kernel_rules(struct job *j)
{
	const struct spe_target *t = j->t;
	check_event_bits(j, 1, "event_filter");
	if (t->kernel >= 603)
		check_event_bits(j, 3, "inv_event_filter");
	check_hidden_fields(j);
	if (j->req->freq_set)
		filt_diag_add(&j->out->diags, SPE_MSG_FREQ_MODE, true, "freq",
			      "SPE samples by operation count: frequency mode is refused (EINVAL); set a period instead");
	for (enum spe_term p = SPE_TERM_PA_ENABLE; p <= SPE_TERM_PCT_ENABLE; p++) {
		char why[256];
		if (field_get(t, j->w, p) && spe_term_needs_privilege(t, p, why, sizeof why))
			filt_diag_add(&j->out->diags, SPE_MSG_NEEDS_PRIVILEGE, true, spe_term_info(p)->name, "%s", why);
	}
	check_kernel_samples(j);
}

/* A bit both kept and dropped. */
static void strict_event_overlap(struct job *j)
{
	const struct spe_target *t = j->t;
	const struct spe_filter_request *r = j->req;
	struct spe_filter_diags *d = &j->out->diags;

	uint64_t both = field_get(t, j->w, SPE_TERM_EVENT_FILTER) & field_get(t, j->w, SPE_TERM_INV_EVENT_FILTER);
	if (both)
		filt_diag_add(d, SPE_MSG_EVENT_OVERLAP, r->strict, "inv_event_filter",
			      "bits 0x%llx are also in event_filter: keeping or dropping such samples is UNPREDICTABLE",
			      (unsigned long long)both);
}

/* A *_filter_mask without its type filter. */
static void strict_masks_without_type(struct job *j)
{
	const struct spe_target *t = j->t;
	const struct spe_filter_request *r = j->req;
	struct spe_filter_diags *d = &j->out->diags;

	for (int i = 0; i < SPE_TERM_COUNT; i++) {
		const struct spe_term_info *ti = spe_term_info(i);
		size_t n = strlen(ti->name);
		if (n < 6 || strcmp(ti->name + n - 5, "_mask") || !field_get(t, j->w, i))
			continue;
		int type = spe_term_lookup(ti->name, n - 5);
		if (type >= 0 && !field_get(t, j->w, type))
			filt_diag_add(d, SPE_MSG_MASK_NO_TYPE, r->strict, ti->name,
				      "set without %s: the AND term then requires the operation NOT to be of that type "
				      "(PMSFCR %s clear)",
				      spe_term_info(type)->name, spe_term_info(type)->name);
	}
}

/* IMPDEF event bits a kernel before 6.18 accepts unchecked. */
static void strict_impdef_unchecked(struct job *j)
{
	const struct spe_target *t = j->t;
	const struct spe_filter_request *r = j->req;
	struct spe_filter_diags *d = &j->out->diags;

	if (t->kernel < 618) {
		uint64_t impdef = SPE_EVF_IMPDEF_ALWAYS | SPE_EVF_IMPDEF_BEFORE_V1P4;
		static const struct {
			unsigned word;
			const char *name;
		} evf_words[] = { { 1, "event_filter" }, { 3, "inv_event_filter" } };
		for (size_t k = 0; k < 2; k++) {
			uint64_t bits = j->w[evf_words[k].word] & impdef & filt_kernel_evf_accept(t);
			if (bits)
				filt_diag_add(d, SPE_MSG_IMPDEF_UNCHECKED, r->strict, evf_words[k].name,
					      "bits 0x%llx are IMPLEMENTATION DEFINED; Linux %u.%u accepts them without "
					      "checking (probing came in 6.18), so on a part without them the filter does "
					      "nothing; see the TRM",
					      (unsigned long long)bits, t->kernel / 100, t->kernel % 100);
		}
	}
}

/* config words the kernel lacks, and bits in no format field (may clear a word). */
static void strict_config_words(struct job *j)
{
	const struct spe_target *t = j->t;
	const struct spe_filter_request *r = j->req;
	struct spe_filter_diags *d = &j->out->diags;

	static const unsigned word_since[SPE_CONFIG_WORDS] = { 415, 415, 415, 603, 619 };
	for (unsigned w = 0; w < SPE_CONFIG_WORDS; w++) {
		if (!j->w[w])
			continue;
		char name[16];
		snprintf(name, sizeof name, w ? "config%u" : "config", w);
		if (t->kernel < word_since[w]) {
			filt_diag_add(d, SPE_MSG_WORD_TOO_NEW, r->strict, name,
				      "Linux %u.%u has no %s (added in %u.%u): the value 0x%llx is dropped and the attr "
				      "sent without it",
				      t->kernel / 100, t->kernel % 100, name, word_since[w] / 100, word_since[w] % 100,
				      (unsigned long long)j->w[w]);
			j->w[w] = 0;
			continue;
		}
		uint64_t covered = 0;
		for (int i = 0; i < SPE_TERM_COUNT; i++) {
			struct spe_format_field f;
			if (kernel_field(t, i, &f) && f.word == w)
				covered |= field_mask(&f) << f.lo;
		}
		if (j->w[w] & ~covered)
			filt_diag_add(d, SPE_MSG_STRAY_BITS, r->strict, name,
				      "bits 0x%llx belong to no format field of %s: the kernel ignores them",
				      (unsigned long long)(j->w[w] & ~covered), t->pmu);
	}
}

/* A period the kernel rounds, raises or caps. */
static void strict_period(struct job *j)
{
	const struct spe_target *t = j->t;
	const struct spe_filter_request *r = j->req;
	struct spe_filter_diags *d = &j->out->diags;

	uint64_t p = j->out->attr.sample_period, eff = j->out->effective_period;
	if (p < 256 || p < t->min_interval) {
		if (t->kernel >= 617)
			filt_diag_add(d, SPE_MSG_PERIOD_LOW, r->strict, "period",
				      "%llu is below %s%u%s; Linux %u.%u programs %llu", (unsigned long long)p,
				      p < 256 ? "the floor of " : "caps/min_interval=", p < 256 ? 256 : t->min_interval,
				      p < 256 ? "" : " (a recommendation since 6.17)", t->kernel / 100, t->kernel % 100,
				      (unsigned long long)eff);
		else
			filt_diag_add(d, SPE_MSG_PERIOD_LOW, r->strict, "period",
				      "%llu is below caps/min_interval=%u; Linux %u.%u raises it to %llu",
				      (unsigned long long)p, t->min_interval, t->kernel / 100, t->kernel % 100,
				      (unsigned long long)eff);
	} else if (p > PERIOD_MAX) {
		filt_diag_add(d, SPE_MSG_PERIOD_HIGH, r->strict, "period", "%llu is above 0xffffff00; the kernel programs %llu",
			      (unsigned long long)p, (unsigned long long)eff);
	} else if (p % 256) {
		filt_diag_add(d, SPE_MSG_PERIOD_ROUNDED, r->strict, "period",
			      "%llu is not a multiple of 256; the kernel programs %llu", (unsigned long long)p,
			      (unsigned long long)eff);
	}
}

/* CONTEXT packets dropped for lack of privilege. */
static void strict_context(struct job *j)
{
	const struct spe_target *t = j->t;
	const struct spe_filter_request *r = j->req;
	struct spe_filter_diags *d = &j->out->diags;

	if (!j->out->context_packets)
		filt_diag_add(d, SPE_MSG_CONTEXT_DROPPED, r->strict, "context",
			      "no kernel-level perf permission (needs %s): PMSCR.CX stays clear and records carry no CONTEXT "
			      "packets (no PID for kernel samples)",
			      filt_kernel_priv_needs(t));
}

/* pct_enable without ts_enable. */
static void strict_pct_without_ts(struct job *j)
{
	const struct spe_target *t = j->t;
	const struct spe_filter_request *r = j->req;
	struct spe_filter_diags *d = &j->out->diags;

	if (field_get(t, j->w, SPE_TERM_PCT_ENABLE) && !field_get(t, j->w, SPE_TERM_TS_ENABLE))
		filt_diag_add(d, SPE_MSG_PCT_WITHOUT_TS, r->strict, "pct_enable",
			      "set without ts_enable: PCT only picks the timestamp counter, and no timestamps are "
			      "recorded (perf adds ts_enable itself only in per-CPU mode)");
}

/* Nothing left to sample. */
static void strict_exclude_all(struct job *j)
{
	const struct spe_filter_request *r = j->req;
	struct spe_filter_diags *d = &j->out->diags;

	if (r->exclude_user && r->exclude_kernel)
		filt_diag_add(d, SPE_MSG_EXCLUDE_ALL, r->strict, "exclude",
			      "both user and kernel are excluded: the event samples nothing");
}

/* The checks the kernel does not make: warnings, errors with --strict. */
static void check_strict(struct job *j)
{
	strict_event_overlap(j);
	strict_masks_without_type(j);
	strict_impdef_unchecked(j);
	strict_config_words(j);
	strict_period(j);
	strict_context(j);
	strict_pct_without_ts(j);
	strict_exclude_all(j);
}

static void build_registers(struct job *j)
{
	const struct spe_target *t = j->t;
	uint64_t *reg = j->out->reg;
	bool any_type = false;
	for (int i = 0; i < SPE_TERM_COUNT; i++) {
		const struct spe_term_info *ti = spe_term_info(i);
		if (ti->kind != SPE_TERM_FLAG || !field_get(t, j->w, i))
			continue;
		if (ti->reg < SPE_REG_COUNT)
			reg[ti->reg] |= 1ull << ti->reg_bit;
		any_type |= ti->reg == SPE_REG_PMSFCR;
	}
	if (j->out->context_packets)
		reg[SPE_REG_PMSCR] |= PMSCR_CX;
	if (!j->req->exclude_user)
		reg[SPE_REG_PMSCR] |= PMSCR_E0SPE;
	if (!j->out->attr.exclude_kernel)
		reg[SPE_REG_PMSCR] |= PMSCR_E1SPE;

	reg[SPE_REG_PMSEVFR] = field_get(t, j->w, SPE_TERM_EVENT_FILTER);
	reg[SPE_REG_PMSNEVFR] = field_get(t, j->w, SPE_TERM_INV_EVENT_FILTER);
	reg[SPE_REG_PMSLATFR] = field_get(t, j->w, SPE_TERM_MIN_LATENCY);
	uint64_t ds;
	if (t->field[SPE_TERM_DATA_SRC_FILTER].present) {
		ds = field_get(t, j->w, SPE_TERM_DATA_SRC_FILTER); /* v1-v3 patch kernels: written as given */
		reg[SPE_REG_PMSDSFR] = ds;
	} else {
		ds = field_get(t, j->w, SPE_TERM_INV_DATA_SRC_FILTER);
		reg[SPE_REG_PMSDSFR] = ~ds;
	}
	if (any_type)
		reg[SPE_REG_PMSFCR] |= PMSFCR_FT;
	if (reg[SPE_REG_PMSEVFR])
		reg[SPE_REG_PMSFCR] |= PMSFCR_FE;
	if (reg[SPE_REG_PMSNEVFR])
		reg[SPE_REG_PMSFCR] |= PMSFCR_FNE;
	if (reg[SPE_REG_PMSLATFR])
		reg[SPE_REG_PMSFCR] |= PMSFCR_FL;
	if (ds)
		reg[SPE_REG_PMSFCR] |= PMSFCR_FDS;
	reg[SPE_REG_PMSIRR] |= j->out->effective_period;
}

int spe_filter_compile(const struct spe_filter_request *req, const struct spe_target *t,
		       struct spe_filter_result *out)
{
	memset(out, 0, sizeof *out);
	struct job j = { .req = req, .t = t, .out = out };
	out->diags = req->diags;
	spe_target_describe(t, j.who, sizeof j.who);

	put_terms(&j);
	check_kernel_rules(&j);

	out->attr.type = t->type;
	out->attr.sample_period = req->period_set ? req->period : (t->min_interval ? t->min_interval : 4096);
	out->attr.exclude_user = req->exclude_user;
	out->attr.exclude_kernel = req->exclude_kernel || out->kernel_excluded;
	out->effective_period = filt_kernel_effective_period(t, out->attr.sample_period);
	out->context_packets = filt_kernel_priv_ok(t);

	check_strict(&j); /* may drop config3/config4 the kernel does not know */

	memcpy(out->attr.config, j.w, sizeof j.w);
	out->attr.size = j.w[4] ? 144 : j.w[3] ? 136 : 128;
	build_registers(&j);

	out->accepted = true;
	for (unsigned i = 0; i < out->diags.count; i++) {
		if (out->diags.d[i].error && out->accepted) {
			out->accepted = false;
			out->first_error_class = out->diags.d[i].cls;
		}
	}
	return out->accepted ? 0 : spe_filter_class_code(out->first_error_class);
}
