/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The recording half of spe-record: live recording and --replay, behind two
 * functions so the option parser (cli/cmd_record.c) stays a table.
 */
#ifndef SPE_CLI_RECORD_RUN_H
#define SPE_CLI_RECORD_RUN_H

#include <stdint.h>
#include <sys/types.h>

#include "spe/filters.h"
#include "spe/live.h"

struct record_run_opts {
	const char *prog;          /* "spe-record" */
	const char *output;        /* -o; NULL = "perf.data" */
	/* live */
	uint32_t aux_pages;        /* -m; 0 = 4 MiB worth */
	uint32_t data_pages;       /* data ring pages per CPU; 0 = 512 KiB worth */
	int system_wide;           /* -a */
	const struct spe_cpuset *cpus; /* -C; NULL = the PMU's CPUs (or the online ones) */
	pid_t pid;                 /* -p; 0 = none */
	char **command;            /* -- COMMAND ARGS (NULL-terminated) */
	double duration;           /* --duration */
	int sideband_only;         /* --sideband-only: no SPE event (diagnostics, tests) */
	/*
	 * With SPE (not --sideband-only): the arm_spe PMU libspe_filters picked
	 * for the CPUs (type, cpumask) and what it compiled for it (every attr
	 * word, attr size, sample period, exclude flags).
	 */
	const struct spe_target *target;
	const struct spe_filter_result *filters;
	/* replay */
	const char *replay;        /* --replay=FILE */
	uint64_t aux_size;         /* --aux-size */
	uint64_t replay_burst;     /* --replay-burst */
	int have_replay_cpu;       /* --cpu=N */
	uint32_t replay_cpu;
	int have_midr;             /* --midr */
	uint64_t midr;
	/* for the CMDLINE feature */
	int argc;
	char **argv;
};

/* Each returns the process exit status and prints its own messages. */
int cli_record_run_replay(const struct record_run_opts *o);
int cli_record_run_live(const struct record_run_opts *o);

/*
 * The live configuration cli_record_run_live() opens: the CPUs (-C, else the
 * target PMU's cpumask, else the online CPUs) into @p cpus (room for
 * SPE_LIVE_MAX_CPUS) and the SPE attr from o->target and o->filters.
 * Opens nothing.  Returns 0, or an exit status after printing why.
 */
int cli_record_run_live_config(const struct record_run_opts *o, struct spe_live_config *lc, uint32_t *cpus);

/* An AUX page count (-m): a power of two from 2 to CLI_RECORD_MAX_PAGES (the range is the option table's). */
#define CLI_RECORD_MAX_PAGES (1 << 24)

#endif
