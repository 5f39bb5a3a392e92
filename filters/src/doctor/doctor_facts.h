/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: what spe doctor reads from a system, gathered once (sys_*.c)
 * and judged by the checks (check_*.c).  Text parsers take buffers so the
 * fuzz target and the unit tests feed them directly.
 */
#ifndef SPE_FILTERS_DOCTOR_FACTS_H
#define SPE_FILTERS_DOCTOR_FACTS_H

#include "spe/doctor.h"
#include "sysroot.h"

#define DOCTOR_MAX_GROUPS 8
#define DOCTOR_MAX_LOG_LINES 10

/* CPUs that share a part (MIDR implementer and part number). */
struct cpu_group {
	uint64_t midr;           /* of the first CPU */
	struct spe_cpuset cpus;
	unsigned n;
	const char *name;        /* facts.h name, NULL when the part is not in the table */
	const char *spe_version; /* facts.h "1.1", ... */
};

/* A line of the kernel log that matters to SPE, by what it means. */
enum log_kind {
	LOG_PROBED,        /* "probed SPEv1.N for CPUs ..." (or "probed for CPUs" before 5.12) */
	LOG_KPTI,          /* "profiling buffer inaccessible. Try passing kpti=off" */
	LOG_NO_PMSVER,     /* "unsupported ID_AA64DFR0_EL1.PMSVer" */
	LOG_OWNED,         /* "profiling buffer owned by higher exception level" */
	LOG_BAD_HW,        /* unsupported PMBIDR.Align / PMSIDR_EL1.MaxSize */
	LOG_NOT_PPI,       /* "expected PPI but got SPI" */
	LOG_PROBE_FAILED,  /* "probe of ... failed with error N" */
	LOG_ACPI,          /* "ACPI: SPE: Unable to register device", "must be homogeneous" */
	LOG_KPTI_ON,       /* "kernel page table isolation forced ON", "detected: Kernel page table isolation" */
	LOG_HYPERVISOR,    /* "KVM: hypervisor services detected", "Hypervisor detected", Xen */
	LOG_KIND_COUNT
};

struct log_line {
	enum log_kind kind;
	char text[224];
};

struct kernel_log {
	unsigned n;
	struct log_line line[DOCTOR_MAX_LOG_LINES];
	unsigned count[LOG_KIND_COUNT];
};

struct doctor_facts {
	struct sysroot root;
	/* architecture */
	char arch[32];
	char arch_source[64], arch_value[96];
	char cpuinfo_arch[16];   /* what /proc/cpuinfo looks like: "aarch64", "x86_64", "" */
	/* CPUs */
	bool online_known;
	struct spe_cpuset online;
	char online_text[128];
	unsigned n_online;
	unsigned n_groups;
	struct cpu_group group[DOCTOR_MAX_GROUPS];
	char midr_source[112];   /* where MIDRs came from */
	/* virtualisation */
	char dmi_vendor[80], dmi_product[80];
	char xen_type[32];
	bool cpuinfo_hypervisor; /* x86 "hypervisor" flag */
	bool dt_hypervisor;
	/* kernel */
	char release[96];
	unsigned kernel;         /* major*100+minor, 0 unknown */
	char release_source[64];
	int config_read;         /* 1 read, else a SYSROOT_* code */
	char config_source[128];
	char spe_pmu;            /* CONFIG_ARM_SPE_PMU: 'y', 'm', 'n'; 0 unknown */
	bool restrict_symbol;    /* CONFIG_SECURITY_PERF_EVENTS_RESTRICT is known to the kernel */
	char pid_in_contextidr;  /* 'y', 'n', 0 unknown */
	/* driver */
	bool driver_registered;  /* /sys/bus/platform/drivers/arm_spe_pmu */
	bool module_loaded;      /* /sys/module/arm_spe_pmu */
	bool builtin;            /* modules.builtin lists it */
	char module_file[160];   /* /lib/modules/REL/.../arm_spe_pmu.ko*, "" none */
	bool modules_dir;        /* /lib/modules/REL exists */
	/* firmware */
	int madt_read;           /* 1 parsed, else a SYSROOT_* code, or SYSROOT_ERROR with madt_error */
	char madt_error[160];
	struct spe_madt_spe madt;
	bool acpi;               /* /sys/firmware/acpi exists */
	bool acpi_device;        /* /sys/bus/platform/devices/arm,spe-v1 */
	bool dt;                 /* /sys/firmware/devicetree/base exists */
	char dt_node[128];       /* a node compatible with arm,statistical-profiling-extension-v1, "" none */
	/* kernel log */
	int log_read;            /* 1 read, else a SYSROOT_* code */
	char log_source[64];
	struct kernel_log log;
	int dmesg_restrict;      /* -1 unknown */
	/* page-table isolation */
	char cmdline[512];
	char kpti_arg[32];       /* the value of kpti= on the command line, "" none */
	char meltdown[80];
	/* PMUs */
	struct spe_system *sys;  /* NULL when none could be read */
	char pmu_error[320];
	/* access */
	bool paranoid_known;
	int paranoid;
	bool status_known;
	uint64_t cap_eff;
	long uid;
	bool mlock_known;
	uint64_t mlock_kb;
	bool rlimit_known;
	uint64_t rlimit;         /* bytes, UINT64_MAX unlimited */
	unsigned page_size;
};

/* Gather everything (sys_*.c); fields stay "unknown" where nothing could be read. */
void filt_facts_read_cpu(struct doctor_facts *f);
void filt_facts_read_virt(struct doctor_facts *f);
void filt_facts_read_kernel(struct doctor_facts *f);
void filt_facts_read_firmware(struct doctor_facts *f);
void filt_facts_read_log(struct doctor_facts *f);
void filt_facts_read_pmus(struct doctor_facts *f);
void filt_facts_read_access(struct doctor_facts *f);

/* The parsers behind them. */
/* @p add_midrs: take the MIDRs from it (sysfs had none). */
void filt_cpuinfo_parse(struct doctor_facts *f, const char *text, bool add_midrs);
void filt_config_parse(struct doctor_facts *f, const char *text);
void filt_kernel_log_scan(struct kernel_log *log, const char *text);
void filt_status_parse(struct doctor_facts *f, const char *text);
void filt_limits_parse(struct doctor_facts *f, const char *text);
/* Add one CPU's MIDR to the groups. */
void filt_facts_add_midr(struct doctor_facts *f, unsigned cpu, uint64_t midr);

/* Capability bits of CapEff (include/uapi/linux/capability.h). */
#define CAP_BIT_IPC_LOCK 14
#define CAP_BIT_SYS_ADMIN 21
#define CAP_BIT_SYSLOG 34
#define CAP_BIT_PERFMON 38
bool filt_facts_has_cap(const struct doctor_facts *f, unsigned bit);

/* The checks (check_*.c): each fills its report entry from the facts. */
struct check_ctx {
	const struct doctor_facts *f;
	const struct spe_doctor_plan *plan;
	struct spe_doctor_report *r;
	bool arm;          /* arch check passed: the Arm-specific checks apply */
	bool have_pmus;    /* at least one arm_spe PMU */
};

void filt_check_arch(struct check_ctx *c, struct spe_check *k);
void filt_check_cpu(struct check_ctx *c, struct spe_check *k);
void filt_check_virt(struct check_ctx *c, struct spe_check *k);
void filt_check_kernel(struct check_ctx *c, struct spe_check *k);
void filt_check_config(struct check_ctx *c, struct spe_check *k);
void filt_check_driver(struct check_ctx *c, struct spe_check *k);
void filt_check_firmware(struct check_ctx *c, struct spe_check *k);
void filt_check_probe(struct check_ctx *c, struct spe_check *k);
void filt_check_kpti(struct check_ctx *c, struct spe_check *k);
void filt_check_pmu(struct check_ctx *c, struct spe_check *k);
void filt_check_caps(struct check_ctx *c, struct spe_check *k);
void filt_check_paranoid(struct check_ctx *c, struct spe_check *k);
void filt_check_privilege(struct check_ctx *c, struct spe_check *k);
void filt_check_mlock(struct check_ctx *c, struct spe_check *k);
void filt_check_record(struct check_ctx *c, struct spe_check *k);

/* Filling a check. */
void filt_check_set(struct spe_check *k, enum spe_check_status st, enum spe_doctor_verdict blocks, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void filt_check_evidence(struct spe_check *k, const char *source, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void filt_check_fix(struct spe_check *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A virtual machine? 1 yes, 0 known bare metal, -1 no sign; the evidence in @p why. */
int filt_facts_virtual(const struct doctor_facts *f, char *why, size_t len);
/* Does firmware describe SPE? 1 yes, 0 no, -1 cannot tell. */
int filt_facts_firmware_spe(const struct doctor_facts *f);

/* The PMU the plan records (spe_system_pick), -1 when none or several and no choice (err "" then). */
int filt_check_pick_pmu(const struct check_ctx *c, char *err, size_t len);

/* "0-3,8" for a CPU set. */
void filt_cpuset_text(const struct spe_cpuset *set, char *buf, size_t len);
/* The caller as perf core sees it, from the facts. */
struct perf_caller;
void filt_facts_caller(const struct doctor_facts *f, struct perf_caller *c);

#endif
