/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The recording half of spe-record: live recording and --replay, behind two
 * functions so the option parser (cli/cmd_record.c) stays a table.
 */
#ifndef SPE_CLI_RECORD_RUN_H
#define SPE_CLI_RECORD_RUN_H

#include <stdint.h>
#include <sys/types.h>

struct record_run_opts {
	const char *prog;          /* "spe-record" */
	const char *output;        /* -o; NULL = "perf.data" */
	/* live */
	uint64_t period;           /* -c; 0 = caps/min_interval or 4096 */
	uint32_t aux_pages;        /* -m; 0 = 4 MiB worth */
	int system_wide;           /* -a */
	const char *cpu_list;      /* -C */
	pid_t pid;                 /* -p; 0 = none */
	char **command;            /* -- COMMAND ARGS (NULL-terminated) */
	double duration;           /* --duration */
	int sideband_only;         /* --sideband-only: no SPE event (diagnostics, tests) */
	int have_config;           /* compiled filters below are valid */
	uint64_t config, config1, config2, config3, config4;
	uint32_t attr_size;        /* 128, or 136/144 when config3/config4 are used */
	int exclude_user, exclude_kernel;
	const char *devices_dir;   /* NULL = /sys/bus/event_source/devices */
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
int record_run_replay(const struct record_run_opts *o);
int record_run_live(const struct record_run_opts *o);

/* Is there an arm_spe PMU under @p devices_dir (NULL = the live sysfs)? */
int record_run_have_spe(const char *devices_dir);
/* Print the "no SPE here" message (architecture, --dry-run, --replay); returns 69. */
int record_run_no_spe(const char *prog);

/* Parse "4096", "0x1000", "64K", "4M", "1G"; 0 on success. */
int record_parse_size(const char *s, uint64_t *out);

#endif
