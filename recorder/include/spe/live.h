/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Live recording: open the arm_spe event the caller describes (and a dummy
 * tracking event for MMAP2/COMM/FORK/EXIT/SWITCH) on the CPUs it lists, map
 * the data ring and the AUX area, and run spe_session_drain() until told to
 * stop.  The PMU, its CPUs and the attr words come from libspe_filters (see
 * cli/common/record_run.c cli_record_run_live_config()).
 *
 * The same code runs in "sideband only" mode (no SPE event: the dummy event
 * owns the ring), which is how the ring reader is tested on machines
 * without SPE (tests/recorder/test_live_sideband.c).
 */
#ifndef SPE_LIVE_H
#define SPE_LIVE_H

#include <stdint.h>
#include <signal.h>
#include <sys/types.h>

#include "spe/session.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SPE_LIVE_MAX_CPUS 4096
#define SPE_LIVE_CONFIG_WORDS 5 /* config .. config4 */
#define SPE_LIVE_ATTR_MAX 144   /* perf_event_attr size with config4 */
#define SPE_LIVE_DEFAULT_AUX_BYTES (4u << 20) /* AUX area per CPU when aux_pages is 0 */
#define SPE_LIVE_DEFAULT_DATA_BYTES (512u << 10) /* data ring per CPU when data_pages is 0 (128 pages of 4 KiB) */

/*
 * Which PMU, which CPUs and which attr words are the caller's business: the
 * CLI takes them from libspe_filters (the arm_spe PMU covering the CPUs, and
 * the compiled spe_filter_result), so this library finds and parses nothing.
 */
enum spe_live_mode {
	SPE_LIVE_SYSTEM_WIDE,   /* -a: every CPU of the PMU's cpumask */
	SPE_LIVE_CPUS,          /* -C LIST */
	SPE_LIVE_PID,           /* -p PID: that process, on every CPU */
	SPE_LIVE_COMMAND,       /* -- COMMAND: launched with inherit, enabled at exec */
};

struct spe_live_config {
	enum spe_live_mode mode;
	const uint32_t *cpus;     /* CPUs to open on, sorted: the PMU's (or -C's); required */
	int n_cpus;
	pid_t pid;                /* SPE_LIVE_PID */
	char *const *argv;        /* SPE_LIVE_COMMAND: NULL-terminated */
	int with_spe;             /* 0: sideband only (the dummy event owns the ring) */
	/* with_spe: the SPE event, as libspe_filters compiled it (spe_attr_image) */
	uint32_t pmu_type;        /* attr.type */
	uint64_t config[SPE_LIVE_CONFIG_WORDS];
	uint32_t attr_size;       /* 128, 136 (config3) or 144 (config4); raised to fit non-zero words */
	int exclude_user, exclude_kernel;
	uint64_t period;          /* sample_period; 0 = 4096 */
	uint32_t aux_pages;       /* AUX pages per CPU (-m), power of two; 0 = 4 MiB worth */
	uint32_t data_pages;      /* data ring pages per CPU, power of two; 0 = 512 KiB worth (at least 1) */
	uint64_t sample_type;     /* trailer layout; must match the output's attr */
	double duration;          /* seconds; 0 = until the command exits or *stop */
	const volatile sig_atomic_t *stop; /* set from a signal handler: stop, keeping what was recorded */
	int poll_ms;              /* 0 = 100 */
};

struct spe_live_result {
	int command_status;       /* SPE_LIVE_COMMAND: exit code (or 128 + signal) of the command */
	int command_ran;          /* exec succeeded */
	int stopped_by_signal;    /* *stop was seen */
	struct spe_session_stats stats;
	uint64_t aux_size;        /* bytes per CPU, for the lost-data estimate */
	int n_cpus;
	struct spe_live_time_conv {
		uint16_t time_shift;
		uint32_t time_mult;
		uint64_t time_zero, time_cycles, time_mask;
		uint8_t cap_user_time_zero, cap_user_time_short;
	} time_conv;              /* from the first mmap page */
};

/*
 * The SPE event's perf_event_attr as spe_live_open() would open it (config3
 * and config4 at offsets 128 and 136, past older uapi headers), laid out in
 * @p attr; returns the attr size.  Opens nothing: tests and --dry-run use it.
 */
uint32_t spe_live_spe_attr(const struct spe_live_config *cfg, uint8_t attr[SPE_LIVE_ATTR_MAX]);

struct spe_live;

/*
 * Open the events and map the rings (and fork the command, held before exec).
 * The CPU list actually recorded is available from spe_live_cpus() so the
 * caller can open its output with per-CPU metadata before spe_live_run().
 * Returns 0, or a negative code with the reason in @p err: -spe_invalid (a
 * bad configuration), -spe_no_permission (perf_event_open refused: EACCES,
 * EPERM; the message names the fix), -spe_not_found (-p's process is gone),
 * -spe_unavailable (no perf events, SPE busy, attributes the kernel
 * rejects), -spe_io or -spe_nomem.
 */
int spe_live_open(const struct spe_live_config *cfg, struct spe_live **out, char *err, size_t errlen);
int spe_live_cpus(const struct spe_live *l, const uint32_t **cpus);
/*
 * The tasks events were opened for on each CPU: the command, -p's PID and
 * every other thread it had at spe_live_open() (threads started later
 * inherit the events), or -1 for all tasks (-a, -C).
 */
int spe_live_tasks(const struct spe_live *l, const pid_t **tids);
void spe_live_time_conv(const struct spe_live *l, struct spe_live_time_conv *tc);

/*
 * Enable, let the command exec, drain into @p sink until done; disable and
 * drain once more.  Returns 0 or a negative code, spe_live_errmsg() saying
 * why (-spe_invalid with res->command_ran 0: the command could not be run).
 */
int spe_live_run(struct spe_live *l, const struct spe_session_sink *sink, struct spe_live_result *res);
/* The last failure of @p l, "" if none. */
const char *spe_live_errmsg(const struct spe_live *l);

/* Close everything (kills a command that was never started). */
void spe_live_close(struct spe_live *l);

#ifdef __cplusplus
}
#endif

#endif /* SPE_LIVE_H */
