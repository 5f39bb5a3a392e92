/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe doctor: why SPE does or does not work on a system, and how to fix it.
 *
 * Reads the live system ("/") or a captured tree of its files (the same
 * paths under a directory), then evaluates one check per concept below,
 * each OK / WARN / FAIL / SKIP with its evidence (file and value) and the
 * fix.  The filter compiler's sysfs reader and target model decide what the
 * PMUs offer; the facts table (spe/facts.h) names CPU parts and their SPE
 * version.  Nothing here prints.
 *
 *   struct spe_doctor_plan plan;  spe_doctor_plan_init(&plan, 4 << 20, 512 << 10);
 *   struct spe_doctor_report *r = malloc(sizeof *r);
 *   spe_doctor_run("/", &plan, r, err, sizeof err);   r->verdict, r->check[...]
 *
 * docs/spe-doctor.1.md documents every check, its evidence and its fix.
 */
#ifndef SPE_DOCTOR_H
#define SPE_DOCTOR_H

#include "spe/filters.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every check, in report order: X(IDENT, "name", "what it looks at"). */
#define SPE_CHECK_LIST(X)                                                                  \
	X(ARCH, "arch", "the CPU architecture")                                             \
	X(CPU, "cpu", "the CPU parts and which SPE version each implements")                \
	X(VIRT, "virt", "whether this is a virtual machine")                                \
	X(FIRMWARE, "firmware", "whether firmware describes the SPE interrupt")             \
	X(KERNEL, "kernel", "the kernel release")                                            \
	X(CONFIG, "config", "the kernel configuration (CONFIG_ARM_SPE_PMU)")                \
	X(DRIVER, "driver", "whether the arm_spe_pmu driver is loaded")                     \
	X(KPTI, "kpti", "kernel page-table isolation, which stops the driver")              \
	X(PROBE, "probe", "the driver's probe messages in the kernel log")                  \
	X(PMU, "pmu", "the arm_spe_N PMUs and the CPUs each covers")                        \
	X(CAPS, "caps", "each PMU's capabilities and what the filter compiler makes of them") \
	X(PARANOID, "paranoid", "kernel.perf_event_paranoid")                               \
	X(PRIVILEGE, "privilege", "the caller's capabilities")                              \
	X(MLOCK, "mlock", "the locked-memory limit against the buffers spe-record maps")    \
	X(RECORD, "record", "what the caller may record now, and the spe-record options")

enum spe_check_id {
#define SPE_X(id, name, what) SPE_CHECK_##id,
	SPE_CHECK_LIST(SPE_X)
#undef SPE_X
	SPE_CHECK_COUNT
};

enum spe_check_status {
	SPE_CHECK_OK,
	SPE_CHECK_WARN, /* works, with a limitation worth knowing */
	SPE_CHECK_FAIL, /* a cause: recording cannot work until fixed */
	SPE_CHECK_SKIP, /* not applicable, or nothing to read */
};

/* The overall answer; also what a FAIL blocks. */
enum spe_doctor_verdict {
	SPE_DOCTOR_OK,            /* spe-record will work (exit 0) */
	SPE_DOCTOR_UNAVAILABLE,   /* no SPE here (exit 69) */
	SPE_DOCTOR_NO_PERMISSION, /* SPE is here; a privilege or limit is missing (exit 77) */
};

#define SPE_CHECK_MAX_EVIDENCE 8

struct spe_check_evidence {
	char source[112]; /* a path on the checked system, "uname", "kernel log", ... */
	char value[240];
};

struct spe_check {
	enum spe_check_id id;
	enum spe_check_status status;
	enum spe_doctor_verdict blocks; /* a FAIL's consequence */
	char summary[400];
	unsigned n_evidence;
	struct spe_check_evidence evidence[SPE_CHECK_MAX_EVIDENCE];
	char fix[560]; /* "" when there is nothing to do */
};

/* The recording the checks are about (spe-record's options; spe doctor's defaults). */
struct spe_doctor_plan {
	bool cpu_wide;             /* -a or -C: CPU-wide events (pid -1) */
	bool have_cpus;            /* -C */
	struct spe_cpuset cpus;
	char pmu[32];              /* -e arm_spe_N//, "" */
	uint32_t aux_pages;        /* -m; 0 = default_aux_bytes worth */
	uint64_t default_aux_bytes;
	uint64_t default_data_bytes; /* data ring per CPU (a power of two of pages, at least one) */
};

void spe_doctor_plan_init(struct spe_doctor_plan *plan, uint64_t default_aux_bytes, uint64_t default_data_bytes);

struct spe_doctor_report {
	char root[256];            /* "/" or the tree */
	char release[96];          /* kernel release, "" unknown */
	char arch[32];
	struct spe_check check[SPE_CHECK_COUNT];
	enum spe_doctor_verdict verdict;
	int first_failure;         /* the first FAIL (enum spe_check_id), -1 when none */
	char command[256];         /* spe-record options that work now, "" when none */
	/*
	 * The buffers spe-record maps per CPU, in pages of the checked system
	 * (0: no PMU, nothing checked): -m's AUX area or the default, and the
	 * data ring.  Where the locked-memory limit applies and is too small for
	 * them, the data ring is cut to 256 KiB and, without -m, the AUX area
	 * to the largest that fits (the mlock check WARNs), as perf record does
	 * for unprivileged callers.
	 */
	uint32_t aux_pages, data_pages;
};

/*
 * Check the system at @p root ("/" or NULL: the live one).  Returns 0 with
 * the report filled, or a negative code with a message in @p err when
 * @p root cannot be read at all (-spe_not_found: missing or not a directory).
 */
int spe_doctor_run(const char *root, const struct spe_doctor_plan *plan, struct spe_doctor_report *r, char *err,
		   size_t errlen);

const char *spe_check_name(enum spe_check_id id);
const char *spe_check_what(enum spe_check_id id);
const char *spe_check_status_name(enum spe_check_status s); /* "OK", "WARN", "FAIL", "SKIP" */
const char *spe_doctor_verdict_name(enum spe_doctor_verdict v); /* "ok", "unavailable", "no-permission" */

/*
 * The SPE overflow interrupts an ACPI MADT (/sys/firmware/acpi/tables/APIC)
 * gives its usable GICC entries (ACPI 6.3 added the field, at offset 78).
 */
struct spe_madt_spe {
	unsigned gicc;        /* enabled or online-capable GICC entries */
	unsigned without_field; /* of those, entries too short to have the field (before ACPI 6.3) */
	unsigned with_irq;    /* entries with a non-zero SPE interrupt */
	unsigned first_irq;   /* the first non-zero one (a GSI: 21 is PPI 5) */
	bool mixed;           /* entries name different non-zero interrupts */
};

/* Returns 0, or -spe_bad_input with "offset N: problem" in @p err. */
int spe_madt_parse(const uint8_t *table, size_t len, struct spe_madt_spe *out, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* SPE_DOCTOR_H */
