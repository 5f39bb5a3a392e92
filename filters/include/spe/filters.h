/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libspe_filters: the arm_spe filter compiler.
 *
 * A request (filter terms, period, exclusions) is compiled against a target
 * (one arm_spe PMU: its format/ fields, caps/, SPE version, kernel release
 * and caller privilege) into the perf_event_attr words the recorder opens,
 * the register image the driver would program, and a list of diagnostics
 * in the kernel's error categories.
 *
 *   struct spe_target t;           spe_target_from_profile("neoverse-n1", 601, &t, err, sizeof err);
 *   struct spe_filter_request r;   spe_filter_request_init(&r);
 *   spe_filter_parse_terms(&r, "arm_spe/load_filter=1,min_latency=10/");
 *   struct spe_filter_result out;  spe_filter_compile(&r, &t, &out);   (0: accepted)
 *
 * docs/filters.md has the term table and a longer example.
 *
 * Errors (docs/architecture.md, "Errors"): negative spe_* codes (spe/spe.h).
 * Parsing and compiling report every problem found, each located (the term
 * or option) with its kernel error class, in a struct spe_filter_diags; the
 * functions that read or build a target write one message to the caller's
 * err buffer.
 *
 * The one table of terms is SPE_FILTER_TERM_LIST below; parsing, --help,
 * validation and docs/filters.md come from it.  The library never prints.
 */
#ifndef SPE_FILTERS_H
#define SPE_FILTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spe/spe.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Optional SPE features a term or a rule can need. */
#define SPE_FEATURE_LIST(X)                                                         \
	X(NONE, "FEAT_SPE", "1.0")                                                   \
	X(FE, "PMSIDR_EL1.FE (event filtering)", "1.0")                             \
	X(FT, "PMSIDR_EL1.FT (type filtering)", "1.0")                              \
	X(FL, "PMSIDR_EL1.FL (latency filtering)", "1.0")                           \
	X(FNE, "FEAT_SPE_FnE", "1.2")                                                \
	X(DISCARD, "FEAT_SPEv1p2 (discard mode)", "1.2")                             \
	X(EFT, "FEAT_SPE_EFT", "1.4")                                                \
	X(FDS, "FEAT_SPE_FDS", "1.4")                                                \
	X(ERND, "PMSIDR_EL1.ERnd", "1.0")                                            \
	X(ARCHINST, "PMSIDR_EL1.ArchInst", "1.0")                                    \
	X(SME, "FEAT_SPE_SME", "1.2")                                                \
	X(PRIV, "kernel-level perf permission", "1.0")

enum spe_feature {
#define SPE_X(id, name, version) SPE_FEAT_##id,
	SPE_FEATURE_LIST(SPE_X)
#undef SPE_X
	SPE_FEAT_COUNT
};
#define SPE_FEAT_BIT(id) (1u << SPE_FEAT_##id)

/* Display name and "the SPE version that can have it" of a feature. */
const char *spe_feature_name(enum spe_feature f);
const char *spe_feature_version(enum spe_feature f);

/* Kinds of term value. */
enum spe_term_kind {
	SPE_TERM_FLAG,        /* one bit: 0 or 1 */
	SPE_TERM_NUMBER,      /* an unsigned number (min_latency) */
	SPE_TERM_EVENTS,      /* event mask: number or list of event names / bit numbers */
	SPE_TERM_SOURCES,     /* data-source mask: number or list of bit numbers */
	SPE_TERM_RAW,         /* a whole config word, no format/ file */
};

/* Registers the compiler models (the image spe-record --dry-run prints). */
#define SPE_REG_LIST(X)   \
	X(PMSCR, "pmscr")     \
	X(PMSFCR, "pmsfcr")   \
	X(PMSEVFR, "pmsevfr") \
	X(PMSNEVFR, "pmsnevfr") \
	X(PMSLATFR, "pmslatfr") \
	X(PMSDSFR, "pmsdsfr") \
	X(PMSIRR, "pmsirr")

enum spe_reg {
#define SPE_X(id, name) SPE_REG_##id,
	SPE_REG_LIST(SPE_X)
#undef SPE_X
	SPE_REG_COUNT,
	SPE_REG_PMBLIMITR = SPE_REG_COUNT, /* discard: buffer mode, not in the image */
	SPE_REG_NONE,
};

/*
 * Every term: X(IDENT, name, word, lo, hi, kind, feature, since, reg, reg_bit, help)
 *   name     : sysfs format/ name (snake_case); --kebab-case is derived
 *   word/lo/hi: default position (config = 0 .. config4 = 4); a sysfs target
 *              takes the position from its format/ file instead
 *   feature  : what the driver checks before accepting a non-zero value
 *   since    : first kernel (major*100+minor) whose driver has the term
 *   reg/bit  : register and bit the term drives (whole register when bit is 0
 *              and the term is a mask)
 * Positions and kernel releases: docs/filters.md.
 * data_src_filter is the keep-mask spelling of the v1-v3 kernel patches
 * (and of their docs patch, "perf docs: arm-spe: Document new SPE filtering
 * features", v2); it
 * compiles to the complement where the kernel has inv_data_src_filter.
 */
#define SPE_FILTER_TERM_LIST(X)                                                                                  \
	X(TS_ENABLE, "ts_enable", 0, 0, 0, FLAG, NONE, 415, PMSCR, 5,                                            \
	  "timestamp each record with the generic timer (PMSCR.TS)")                                            \
	X(PA_ENABLE, "pa_enable", 0, 1, 1, FLAG, PRIV, 415, PMSCR, 4,                                            \
	  "collect physical data addresses (PMSCR.PA); needs privilege")                                         \
	X(PCT_ENABLE, "pct_enable", 0, 2, 2, FLAG, PRIV, 415, PMSCR, 6,                                          \
	  "timestamp with the physical counter (PMSCR.PCT); needs privilege")                                    \
	X(JITTER, "jitter", 0, 16, 16, FLAG, NONE, 415, PMSIRR, 0,                                               \
	  "add random jitter to the sampling interval (PMSIRR.RND)")                                             \
	X(BRANCH_FILTER, "branch_filter", 0, 32, 32, FLAG, FT, 415, PMSFCR, 16, "keep branches (PMSFCR.B)")     \
	X(LOAD_FILTER, "load_filter", 0, 33, 33, FLAG, FT, 415, PMSFCR, 17, "keep loads (PMSFCR.LD)")           \
	X(STORE_FILTER, "store_filter", 0, 34, 34, FLAG, FT, 415, PMSFCR, 18, "keep stores (PMSFCR.ST)")        \
	X(DISCARD, "discard", 0, 35, 35, FLAG, DISCARD, 614, PMBLIMITR, 0,                                       \
	  "count SPE PMU events but write no records (PMBLIMITR.FM=DISCARD)")                                    \
	X(BRANCH_FILTER_MASK, "branch_filter_mask", 0, 36, 36, FLAG, EFT, 618, PMSFCR, 48,                       \
	  "make the branch filter an AND term (PMSFCR.Bm)")                                                      \
	X(LOAD_FILTER_MASK, "load_filter_mask", 0, 37, 37, FLAG, EFT, 618, PMSFCR, 49,                           \
	  "make the load filter an AND term (PMSFCR.LDm)")                                                       \
	X(STORE_FILTER_MASK, "store_filter_mask", 0, 38, 38, FLAG, EFT, 618, PMSFCR, 50,                         \
	  "make the store filter an AND term (PMSFCR.STm)")                                                      \
	X(SIMD_FILTER, "simd_filter", 0, 39, 39, FLAG, EFT, 618, PMSFCR, 20,                                     \
	  "keep SIMD loads, stores and operations (PMSFCR.SIMD)")                                                \
	X(SIMD_FILTER_MASK, "simd_filter_mask", 0, 40, 40, FLAG, EFT, 618, PMSFCR, 52,                           \
	  "make the SIMD filter an AND term (PMSFCR.SIMDm)")                                                     \
	X(FLOAT_FILTER, "float_filter", 0, 41, 41, FLAG, EFT, 618, PMSFCR, 19,                                   \
	  "keep floating-point loads, stores and operations (PMSFCR.FP)")                                        \
	X(FLOAT_FILTER_MASK, "float_filter_mask", 0, 42, 42, FLAG, EFT, 618, PMSFCR, 51,                         \
	  "make the floating-point filter an AND term (PMSFCR.FPm)")                                             \
	X(EVENT_FILTER, "event_filter", 1, 0, 63, EVENTS, FE, 415, PMSEVFR, 0,                                   \
	  "keep samples that have ALL these events (PMSEVFR)")                                                   \
	X(MIN_LATENCY, "min_latency", 2, 0, 11, NUMBER, FL, 415, PMSLATFR, 0,                                    \
	  "keep samples with at least this total latency (PMSLATFR.MINLAT)")                                     \
	X(INV_EVENT_FILTER, "inv_event_filter", 3, 0, 63, EVENTS, FNE, 603, PMSNEVFR, 0,                         \
	  "drop samples that have ANY of these events (PMSNEVFR)")                                               \
	X(INV_DATA_SRC_FILTER, "inv_data_src_filter", 4, 0, 63, SOURCES, FDS, 619, PMSDSFR, 0,                   \
	  "drop loads whose data source is in this mask (PMSDSFR = NOT value)")                                  \
	X(DATA_SRC_FILTER, "data_src_filter", 4, 0, 63, SOURCES, FDS, 619, PMSDSFR, 0,                           \
	  "keep only loads whose data source is in this mask")                                                   \
	X(CONFIG, "config", 0, 0, 63, RAW, NONE, 415, NONE, 0, "raw perf_event_attr.config")                     \
	X(CONFIG1, "config1", 1, 0, 63, RAW, NONE, 415, NONE, 0, "raw perf_event_attr.config1")                  \
	X(CONFIG2, "config2", 2, 0, 63, RAW, NONE, 415, NONE, 0, "raw perf_event_attr.config2")                  \
	X(CONFIG3, "config3", 3, 0, 63, RAW, NONE, 603, NONE, 0, "raw perf_event_attr.config3")                  \
	X(CONFIG4, "config4", 4, 0, 63, RAW, NONE, 619, NONE, 0, "raw perf_event_attr.config4")

enum spe_term {
#define SPE_X(id, ...) SPE_TERM_##id,
	SPE_FILTER_TERM_LIST(SPE_X)
#undef SPE_X
	SPE_TERM_COUNT
};

struct spe_term_info {
	const char *name;
	uint8_t word, lo, hi;
	enum spe_term_kind kind;
	enum spe_feature feature;
	unsigned since; /* kernel release, major*100+minor */
	enum spe_reg reg;
	uint8_t reg_bit;
	const char *help;
};

/* The table row of @p t, or NULL when out of range. */
const struct spe_term_info *spe_term_info(enum spe_term t);
/* Look a term up by snake_case or kebab-case name; -1 when unknown. */
int spe_term_lookup(const char *name, size_t len);

#define SPE_CONFIG_WORDS 5

/* ---- diagnostics ---------------------------------------------------------- */

enum spe_diag_class {
	SPE_DIAG_USAGE,       /* bad syntax or value: exit 64 */
	SPE_DIAG_UNSUPPORTED, /* the kernel returns EOPNOTSUPP: exit 69 */
	SPE_DIAG_INVALID,     /* the kernel returns EINVAL: exit 64 */
	SPE_DIAG_PRIVILEGE,   /* the kernel returns EACCES: exit 77 */
	SPE_DIAG_NOENT,       /* wrong PMU / CPU (ENOENT): exit 64 */
	SPE_DIAG_STRICT,      /* accepted by the kernel: warning, error with --strict */
};

/*
 * Every message: X(IDENT, "id", class, "what it means").  The id is printed
 * with the message and listed in docs/spe-record.1.md (a test checks).
 */
#define SPE_FILTER_MSG_LIST(X)                                                                     \
	X(UNKNOWN_TERM, "unknown-term", USAGE, "the name is not an arm_spe term")                    \
	X(BAD_VALUE, "bad-value", USAGE, "the value is not a number, list or known name")           \
	X(VALUE_TOO_BIG, "value-too-big", USAGE, "the value does not fit the term's field")          \
	X(BAD_PMU, "bad-pmu", USAGE, "the event string does not name an arm_spe PMU")               \
	X(NO_FIELD, "no-field", UNSUPPORTED, "the target's format/ has no such term")                \
	X(NEEDS_FEATURE, "needs-feature", UNSUPPORTED, "the target lacks the feature the term needs") \
	X(NEEDS_KERNEL, "needs-kernel", UNSUPPORTED, "the target kernel predates the term")          \
	X(EVENT_BITS, "event-bits", UNSUPPORTED, "an event bit the kernel rejects on this target")   \
	X(FREQ_MODE, "freq-mode", INVALID, "frequency mode is refused (EINVAL)")                     \
	X(NEEDS_PRIVILEGE, "needs-privilege", PRIVILEGE, "kernel samples, pa_enable or pct_enable without permission") \
	X(MINLAT_WIDE, "min-latency-wide", STRICT, "min_latency wider than the field or counter")    \
	X(EVENT_OVERLAP, "event-overlap", STRICT, "same bit in event_filter and inv_event_filter")    \
	X(MASK_NO_TYPE, "mask-without-type", STRICT, "a *_filter_mask without its type filter")     \
	X(IMPDEF_UNCHECKED, "impdef-unchecked", STRICT, "IMPDEF event bits the kernel cannot check") \
	X(STRAY_BITS, "stray-bits", STRICT, "config bits outside every format field")               \
	X(PERIOD_ROUNDED, "period-rounded", STRICT, "period not a multiple of 256")                 \
	X(PERIOD_LOW, "period-low", STRICT, "period below min_interval or 256")                     \
	X(PERIOD_HIGH, "period-high", STRICT, "period above 0xffffff00")                            \
	X(WORD_TOO_NEW, "config-word-too-new", STRICT, "config3/config4 on a kernel that lacks it")  \
	X(CONTEXT_DROPPED, "context-dropped", STRICT, "CONTEXT packets dropped for lack of privilege") \
	X(EXCLUDE_ALL, "exclude-all", STRICT, "both exclude_user and exclude_kernel: nothing sampled") \
	X(PCT_WITHOUT_TS, "pct-without-ts", STRICT, "pct_enable without ts_enable: no timestamps to change") \
	X(KERNEL_EXCLUDED, "kernel-excluded", STRICT, "no permission to sample the kernel: user space only")

enum spe_filter_msg {
#define SPE_X(id, name, cls, what) SPE_MSG_##id,
	SPE_FILTER_MSG_LIST(SPE_X)
#undef SPE_X
	SPE_MSG_COUNT
};

const char *spe_filter_msg_id(enum spe_filter_msg m);
enum spe_diag_class spe_filter_msg_class(enum spe_filter_msg m);
const char *spe_filter_msg_what(enum spe_filter_msg m);

struct spe_filter_diag {
	enum spe_filter_msg msg;
	enum spe_diag_class cls;
	bool error;        /* false: a warning */
	char option[32];   /* term or option the message is about */
	char text[320];    /* "option: problem; target has ..." */
};

#define SPE_FILTER_MAX_DIAGS 48

struct spe_filter_diags {
	unsigned count;
	unsigned dropped; /* diagnostics that did not fit */
	struct spe_filter_diag d[SPE_FILTER_MAX_DIAGS];
};

/* Number of errors in @p diags. */
unsigned spe_filter_diag_errors(const struct spe_filter_diags *diags);
/*
 * The code of a refusal of class @p cls: -spe_unavailable (the kernel
 * would return EOPNOTSUPP), -spe_no_permission (EACCES), -spe_invalid
 * (usage, EINVAL, ENOENT, a strict check).
 */
int spe_filter_class_code(enum spe_diag_class cls);

/* ---- target ---------------------------------------------------------------- */

struct spe_format_field {
	bool present;
	uint8_t word, lo, hi;
};

#define SPE_MAX_CPUS 1024

struct spe_cpuset {
	uint64_t bits[SPE_MAX_CPUS / 64];
};

/* Parse "0-3,8" into @p set.  Returns 0, or -spe_invalid with *bad_offset set. */
int spe_cpuset_parse(const char *text, struct spe_cpuset *set, size_t *bad_offset);
bool spe_cpuset_empty(const struct spe_cpuset *set);
/* true when every CPU of @p sub is in @p set. */
bool spe_cpuset_covers(const struct spe_cpuset *set, const struct spe_cpuset *sub);
bool spe_cpuset_intersects(const struct spe_cpuset *a, const struct spe_cpuset *b);

enum spe_target_origin { SPE_TARGET_SYSFS, SPE_TARGET_PROFILE, SPE_TARGET_REGS };

/* One arm_spe PMU instance and the kernel and privilege it is used with. */
struct spe_target {
	enum spe_target_origin origin;
	char pmu[32];          /* "arm_spe_0" */
	int type;              /* perf_event_attr.type, -1 when unknown */
	struct spe_cpuset cpus;
	bool cpus_known;
	char cpumask_text[128];
	char cpu_name[32];     /* facts.h CPU name, "" when unknown */
	unsigned pmsver;       /* ID_AA64DFR0_EL1.PMSVer: 1 = SPEv1.0 ... 6 = SPEv1.5; 0 unknown */
	bool pmsver_is_lower_bound; /* inferred from sysfs: "at least" */
	unsigned kernel;       /* major*100+minor */
	bool kernel_assumed;   /* sysfs copy with no release given: SPE_KERNEL_NEWEST */
	uint32_t features;     /* SPE_FEAT_BIT(...) */
	unsigned count_size;   /* 12 or 16 */
	unsigned min_interval; /* 256 .. 4096 */
	uint64_t evf_valid;    /* bits the hardware can filter on (probed or modelled) */
	bool evf_probed;       /* evf_valid came from caps/event_filter */
	struct spe_format_field field[SPE_TERM_COUNT];
	int paranoid;          /* perf_event_paranoid */
	bool privileged;       /* CAP_PERFMON or CAP_SYS_ADMIN */
};

/* Parse "6.1", "6.19.0-rc3", "5.15.0-91-generic" into major*100+minor; 0 on error. */
unsigned spe_kernel_parse(const char *text);

/* The newest kernel whose rules the compiler models (6.19). */
#define SPE_KERNEL_NEWEST 619
/* The first release with the arm_spe_pmu driver (4.15): no SPE before it. */
#define SPE_KERNEL_OLDEST 415

/*
 * Build a target from a CPU profile (facts.h name, e.g. "neoverse-n1") on
 * kernel @p kernel.  Format fields are those that kernel's driver shows for
 * the profile's features.  Returns 0, or -spe_invalid (an unknown profile)
 * with a message in @p err.
 */
int spe_target_from_profile(const char *cpu, unsigned kernel, struct spe_target *t, char *err, size_t errlen);

/* Build a target from raw PMSIDR_EL1 and PMSVer values; -spe_invalid for a PMSVer outside 1-6. */
int spe_target_from_regs(uint64_t pmsidr, unsigned pmsver, unsigned kernel, struct spe_target *t);

/* Number of CPU profiles and the name of the i-th (for --help and docs). */
unsigned spe_profile_count(void);
const char *spe_profile_name(unsigned i);
/* One-line description of where the profile's optional features come from. */
const char *spe_profile_source(unsigned i);

#define SPE_MAX_PMUS 8

struct spe_system {
	unsigned count;
	struct spe_target pmu[SPE_MAX_PMUS];
	char warning[320]; /* for the caller to print, "" if none (an assumed kernel release) */
};

/*
 * Read arm_spe PMUs from sysfs.  @p dir is either one PMU directory (holding
 * `type`) or a devices directory holding arm_spe_N/ subdirectories.  The
 * kernel release comes from @p kernel when non-zero, else from a `kernel`
 * file (ours, for fixtures), else from uname when @p live or @p dir is under
 * /sys, else SPE_KERNEL_NEWEST with target.kernel_assumed and sys->warning
 * set.  Returns 0, or with "file: offset N: problem" in @p err:
 * -spe_not_found (no such directory, no arm_spe PMU in it), -spe_bad_input
 * (a file holds what no kernel writes, a FIFO or device where a file should
 * be), -spe_invalid (a path too long), -spe_unsupported (too many PMUs).
 */
int spe_system_load_sysfs(const char *dir, unsigned kernel, bool live, struct spe_system *sys, char *err,
			  size_t errlen);

/* Does @p dir resolve to a path inside /sys (the running system's sysfs)? */
bool spe_sysfs_is_live(const char *dir);

/*
 * Pick the PMU for @p cpus (may be NULL: any) and @p pmu_name (may be ""):
 * returns its index, or -spe_invalid with a message in @p err (several PMUs
 * and no choice, CPUs spanning two PMUs, unknown name).
 */
int spe_system_pick(const struct spe_system *sys, const struct spe_cpuset *cpus, const char *pmu_name, char *err,
		    size_t errlen);

/* "arm_spe_0 is SPEv1.1 (neoverse-n1) on Linux 6.1" style description. */
void spe_target_describe(const struct spe_target *t, char *buf, size_t len);

/* ---- request --------------------------------------------------------------- */

struct spe_filter_request {
	uint64_t value[SPE_TERM_COUNT];
	bool set[SPE_TERM_COUNT];
	bool period_set;
	uint64_t period;
	bool freq_set;
	uint64_t freq;
	bool exclude_user, exclude_kernel;
	/*
	 * Kernel samples were asked for by name (a `k` modifier); with
	 * exclude_user they are refused, not dropped, when the caller may not
	 * sample the kernel.  Otherwise the compiler falls back to user space
	 * with a kernel-excluded warning, as perf record does.
	 */
	bool kernel_explicit;
	char pmu[32];     /* PMU named in an event string, "" if none */
	bool strict;      /* strict checks become errors */
	struct spe_filter_diags diags; /* parse errors */
};

void spe_filter_request_init(struct spe_filter_request *req);

/*
 * Set one term from an option: @p name may be snake or kebab case, with
 * or without leading "--"; @p value NULL means "1" (flags only).
 * Returns 0, or -spe_invalid after adding a diagnostic to req->diags.
 */
int spe_filter_set_term(struct spe_filter_request *req, const char *name, const char *value);

/*
 * Parse a perf event string "arm_spe/term=v,term/" or "arm_spe_0/.../uk"
 * (also accepts a bare "term=v,term" list).  `period=N` and `freq=N` are
 * accepted as in perf; a list item without '=' that is not a term continues
 * the previous mask value ("event_filter=retired,l1d_refill").
 * Returns 0, or -spe_invalid with diagnostics in req->diags.
 */
int spe_filter_parse_terms(struct spe_filter_request *req, const char *text);

/* ---- compile --------------------------------------------------------------- */

struct spe_attr_image {
	int type;             /* -1 when the target does not know it */
	uint32_t size;        /* perf_event_attr size to send: 128, 136 or 144 */
	uint64_t config[SPE_CONFIG_WORDS];
	uint64_t sample_period;
	bool exclude_user, exclude_kernel;
};

struct spe_filter_result {
	struct spe_attr_image attr;
	uint64_t reg[SPE_REG_COUNT];
	uint64_t effective_period; /* what PMSIRR.INTERVAL will hold */
	bool context_packets;      /* PMSCR.CX set */
	bool kernel_excluded;      /* exclude_kernel forced: the caller may not sample the kernel */
	struct spe_filter_diags diags;
	enum spe_diag_class first_error_class;
	bool accepted;             /* no errors */
};

/*
 * Compile @p req for @p t.  Fills @p out (always) and returns 0 when the
 * request is accepted, or when out->diags holds at least one error the code
 * of the first one's class (spe_filter_class_code).
 */
int spe_filter_compile(const struct spe_filter_request *req, const struct spe_target *t,
		       struct spe_filter_result *out);

/*
 * May @p t's caller open an event that samples the kernel (exclude_kernel
 * clear, or PERF_SAMPLE_PHYS_ADDR)?  perf core's rule on every release:
 * perf_event_paranoid <= 1 or CAP_PERFMON.
 */
bool spe_target_may_sample_kernel(const struct spe_target *t);
/*
 * What an unprivileged @p t has, in the words every message uses:
 * "perf_event_paranoid=N and no CAP_PERFMON".  Returns @p buf.
 */
const char *spe_target_privilege_text(const struct spe_target *t, char *buf, size_t len);

/* Is the term usable on @p t?  When not, a reason in @p why. */
bool spe_term_supported(const struct spe_target *t, enum spe_term term, char *why, size_t len);

/*
 * Does a non-zero @p term need kernel-level perf permission that @p t's
 * caller lacks (pa_enable, pct_enable)?  When so, the needs-privilege text
 * compile would give, in @p why.
 */
bool spe_term_needs_privilege(const struct spe_target *t, enum spe_term term, char *why, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* SPE_FILTERS_H */
