/* SPDX-License-Identifier: Apache-2.0 */
/* spe-record's recording modes: live (perf_event_open) and --replay. */
#include "record_run.h"
#include "cli_util.h"
#include "cli_signals.h"

#include "spe/infile.h"
#include "spe/live.h"
#include "spe/numa_sysfs.h"
#include "spe/outfile.h"
#include "spe/proc_synth.h"
#include "spe/rec_output.h"
#include "spe/replay.h"
#include "spe/spe.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#define DEFAULT_OUTPUT "perf.data"

/*
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT end the recording cleanly, the file
 * kept (cli_signals.h: no SA_RESTART, so poll() wakes up; a third signal
 * exits at once, the temporary removed).
 */
static void install_stop_handlers(void)
{
	cli_signals_install();
	/* Past a file-size limit, let write() fail with EFBIG (reported like a full disk) instead of dying. */
	signal(SIGXFSZ, SIG_IGN);
}

/* "3 AUX buffers truncated, about N bytes lost; try a larger -m" and friends. */
static void report_losses(const char *prog, const struct spe_session_stats *st, uint64_t lost_bytes, int exact,
			  const char *bigger)
{
	if (st->aux_truncated)
		fprintf(stderr, "%s: %llu AUX buffer%s truncated, %s%llu bytes lost; try a larger %s\n", prog,
			(unsigned long long)st->aux_truncated, st->aux_truncated == 1 ? "" : "s", exact ? "" : "about ",
			(unsigned long long)lost_bytes, bigger);
	if (st->aux_partial)
		fprintf(stderr, "%s: %llu AUX buffer%s marked partial (the hardware reported gaps)\n", prog,
			(unsigned long long)st->aux_partial, st->aux_partial == 1 ? "" : "s");
	if (st->aux_collision)
		fprintf(stderr, "%s: %llu AUX buffer%s had sample collisions; try a larger -c\n", prog,
			(unsigned long long)st->aux_collision, st->aux_collision == 1 ? "" : "s");
	if (st->lost_events)
		fprintf(stderr, "%s: %llu sideband records lost (data ring full)\n", prog,
			(unsigned long long)st->lost_events);
}

/*
 * Before anything is created or started: -o must be a file that can be
 * written beside and renamed into place.  Returns 0 or an exit status.
 */
static int check_output(const char *prog, const char *out_path)
{
	char err[1024];
	int r = spe_outfile_check(out_path, SPE_OUTFILE_KEEP_OLD, err, sizeof err);
	if (!r)
		return 0;
	fprintf(stderr, "%s: -o %s\n", prog, err);
	return r == -spe_invalid ? CLI_USAGE : CLI_IOERR;
}

/* After a failure: the output path was not touched. */
static void report_kept(const char *prog, const char *out_path, int existed)
{
	fprintf(stderr, "%s: %s %s\n", prog, out_path, existed ? "left as it was" : "not created");
}

/* ------------------------------------------------------------------ */
/* Replay                                                              */
/* ------------------------------------------------------------------ */

/*
 * A replay input (the --replay file, or an 'aux' file of a manifest) must be
 * a readable regular file (replay maps raw files and reads a manifest twice;
 * a FIFO is refused, not waited on); checked before the output is created.
 * Its identity goes into @p st for the same-file check.
 */
static int check_replay_input(const char *prog, const char *path, struct stat *st)
{
	char err[1024];
	int fd = spe_infile_open(path, err, sizeof err);
	if (fd < 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return CLI_NOINPUT;
	}
	fstat(fd, st);
	close(fd);
	return 0;
}

/* -o naming a replay input would truncate it before it is read. */
static int check_output_not_input(const char *prog, const char *out_path, const char *in_path,
				  const struct stat *in)
{
	struct stat st;
	if (stat(out_path, &st) == 0 && st.st_dev == in->st_dev && st.st_ino == in->st_ino) {
		fprintf(stderr, "%s: -o %s: is the replay input %s; give another output file\n", prog, out_path,
			in_path);
		return CLI_USAGE;
	}
	return 0;
}

/*
 * The replay's manifest: parsed from the --replay file, or made for a raw
 * SPE file; every input it names checked (not the output).  0, or the exit
 * status (printed).
 */
static int replay_manifest(const struct record_run_opts *o, const char *out_path, struct spe_replay_manifest **out)
{
	const char *prog = o->prog;
	char err[1024] = "";
	struct stat in_st;
	*out = NULL;
	int r = check_replay_input(prog, o->replay, &in_st);
	if (r || (r = check_output_not_input(prog, out_path, o->replay, &in_st)))
		return r;
	int is_manifest = spe_replay_is_manifest(o->replay);
	if (is_manifest < 0) {
		fprintf(stderr, "%s: %s: cannot open: %s\n", prog, o->replay, strerror(errno));
		return CLI_NOINPUT;
	}
	struct spe_replay_manifest *m = NULL;
	if (!is_manifest) {
		r = spe_replay_manifest_for_raw(o->replay, o->have_replay_cpu ? o->replay_cpu : 0, 0, &m);
		if (r) {
			fprintf(stderr, "%s: %s\n", prog, spe_errstr(r));
			return CLI_IOERR;
		}
		*out = m;
		return 0;
	}
	if (o->have_replay_cpu) {
		fprintf(stderr, "%s: --raw-cpu=N applies to a raw SPE file; %s is a manifest with its own 'cpu' lines\n",
			prog, o->replay);
		return CLI_USAGE;
	}
	r = spe_replay_manifest_parse(o->replay, &m, err, sizeof err);
	if (r) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return r == -spe_io ? CLI_NOINPUT : CLI_DATAERR;
	}
	for (size_t i = 0; i < m->n_cpus; i++) {
		if (!m->cpus[i].aux_path)
			continue;
		if ((r = check_replay_input(prog, m->cpus[i].aux_path, &in_st)) ||
		    (r = check_output_not_input(prog, out_path, m->cpus[i].aux_path, &in_st))) {
			spe_replay_manifest_free(m);
			return r;
		}
	}
	*out = m;
	return 0;
}

/* The output's description of the traced machine (from the manifest, not this one: no uname here). */
struct replay_machine {
	uint32_t *cpus;
	uint64_t *midrs;
	struct spe_rec_output_time_conv tc;
};

static int replay_output_config(const struct record_run_opts *o, const struct spe_replay_manifest *m,
				struct replay_machine *mc, struct spe_rec_output_config *oc)
{
	mc->cpus = calloc(m->n_cpus, sizeof *mc->cpus);
	mc->midrs = calloc(m->n_cpus, sizeof *mc->midrs);
	if (!mc->cpus || !mc->midrs)
		return -spe_nomem;
	uint32_t max_cpu = 0;
	for (size_t i = 0; i < m->n_cpus; i++) {
		mc->cpus[i] = m->cpus[i].cpu;
		mc->midrs[i] = o->have_midr ? o->midr : m->cpus[i].midr;
		max_cpu = mc->cpus[i] > max_cpu ? mc->cpus[i] : max_cpu;
	}
	mc->tc = (struct spe_rec_output_time_conv){ .time_shift = m->time_shift, .time_mult = m->time_mult,
						    .time_zero = m->time_zero, .cap_user_time_zero = 1 };
	*oc = SPE_OPTS(spe_rec_output_config, .n_cpus = (uint32_t)m->n_cpus, .cpus = mc->cpus, .midrs = mc->midrs,
		       .argc = o->argc, .argv = o->argv, .time_conv = &mc->tc, .hostname = m->hostname,
		       .osrelease = m->osrelease, .numa_nodes = m->numa_nodes,
		       .n_numa_nodes = (uint32_t)m->n_numa_nodes, .memory_block_size = m->memory_block_size,
		       .nr_cpus_avail = max_cpu + 1, .nr_cpus_online = max_cpu + 1);
	return 0;
}

/* Replay @p m into the output @p out_path; the exit status (the outcome printed). */
static int replay_into(const struct record_run_opts *o, const char *out_path, const struct spe_replay_manifest *m,
		       const struct spe_replay_config *rc, const struct spe_rec_output_config *oc)
{
	const char *prog = o->prog;
	char err[1024] = "";
	int existed = access(out_path, F_OK) == 0;
	struct spe_rec_output *out = NULL;
	int r = spe_rec_output_open(out_path, oc, &out, err, sizeof err);
	if (r) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return r == -spe_invalid ? CLI_USAGE : CLI_IOERR;
	}
	struct spe_session_sink sink = spe_rec_output_sink(out);
	struct spe_session_stats st;
	struct spe_replay_stats rs;
	r = spe_replay_run(m, rc, &sink, &st, &rs, err, sizeof err);
	if (r && !spe_rec_output_errmsg(out)[0]) {
		/* The replay's own failure (an aux file that cannot be read), not the output's. */
		spe_rec_output_abort(out);
		fprintf(stderr, "%s: %s\n", prog, err);
		report_kept(prog, out_path, existed);
		return r == -spe_io ? CLI_NOINPUT : r == -spe_invalid ? CLI_USAGE : CLI_IOERR;
	}
	char cerr[1024] = "";
	int cr = spe_rec_output_close(out, cerr, sizeof cerr);
	if (cr || r) {
		fprintf(stderr, "%s: %s\n", prog, cerr[0] ? cerr : err);
		report_kept(prog, out_path, existed);
		return CLI_IOERR;
	}
	report_losses(prog, &st, rs.aux_dropped, 1, "--aux-size");
	int status = CLI_OK;
	if (rs.stopped) {
		fprintf(stderr, "%s: interrupted: %s holds %llu of %llu bytes\n", prog, out_path,
			(unsigned long long)st.aux_bytes, (unsigned long long)rs.input_bytes);
		status = CLI_PARTIAL;
	}
	fprintf(stderr, "%s: wrote %s: %llu bytes of SPE data from %zu CPU%s in %llu AUXTRACE records\n", prog,
		out_path, (unsigned long long)st.aux_bytes, m->n_cpus, m->n_cpus == 1 ? "" : "s",
		(unsigned long long)st.auxtrace_records);
	return status;
}

int cli_record_run_replay(const struct record_run_opts *o)
{
	const char *prog = o->prog;
	const char *out_path = o->output ? o->output : DEFAULT_OUTPUT;
	char err[1024] = "";
	struct spe_replay_config rc = SPE_OPTS(spe_replay_config, .aux_size = o->aux_size, .burst = o->replay_burst,
					       .sample_type = spe_rec_output_sample_type(),
					       .sample_id = SPE_REC_OUTPUT_SAMPLE_ID,
					       .stop = cli_stop_flag());
	if (spe_replay_check_config(&rc, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return CLI_USAGE;
	}
	struct spe_replay_manifest *m = NULL;
	int status = check_output(prog, out_path);
	if (status || (status = replay_manifest(o, out_path, &m)))
		return status;
	struct replay_machine mc = { 0 };
	struct spe_rec_output_config oc;
	if (replay_output_config(o, m, &mc, &oc) < 0) {
		fprintf(stderr, "%s: out of memory\n", prog);
		status = CLI_IOERR;
	} else {
		install_stop_handlers();
		status = replay_into(o, out_path, m, &rc, &oc);
	}
	free(mc.cpus);
	free(mc.midrs);
	spe_replay_manifest_free(m);
	return status;
}

/* ------------------------------------------------------------------ */
/* Live                                                                */
/* ------------------------------------------------------------------ */

static uint64_t read_midr(uint32_t cpu)
{
	char path[128];
	unsigned long long v = 0;
	snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%u/regs/identification/midr_el1", cpu);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llx", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

/* Set bits of @p set into @p cpus (sorted); returns the count. */
static int cpuset_to_list(const struct spe_cpuset *set, uint32_t *cpus, int max)
{
	int n = 0;
	for (uint32_t c = 0; c < SPE_MAX_CPUS && n < max; c++)
		if (set->bits[c / 64] >> (c % 64) & 1)
			cpus[n++] = c;
	return n;
}

static int online_cpus(uint32_t *cpus, int max)
{
	char line[4096] = "";
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	if (f) {
		if (!fgets(line, sizeof line, f))
			line[0] = 0;
		fclose(f);
	}
	line[strcspn(line, "\n")] = 0;
	struct spe_cpuset set;
	size_t bad;
	if (line[0] && !spe_cpuset_parse(line, &set, &bad) && !spe_cpuset_empty(&set))
		return cpuset_to_list(&set, cpus, max);
	long c = sysconf(_SC_NPROCESSORS_ONLN);
	int n;
	for (n = 0; n < c && n < max; n++)
		cpus[n] = (uint32_t)n;
	return n;
}

int cli_record_run_live_config(const struct record_run_opts *o, struct spe_live_config *lc, uint32_t *cpus)
{
	*lc = SPE_OPTS(spe_live_config, .with_spe = !o->sideband_only, .aux_pages = o->aux_pages,
		       .data_pages = o->data_pages,
		       .sample_type = spe_rec_output_sample_type(), .duration = o->duration,
		       .stop = cli_stop_flag());
	if (lc->with_spe) {
		const struct spe_target *t = o->target;
		const struct spe_attr_image *a = o->filters ? &o->filters->attr : NULL;
		if (!t || !a || t->type < 0) {
			fprintf(stderr, "%s: internal error: no compiled arm_spe event to open\n", o->prog);
			return CLI_UNAVAILABLE;
		}
		lc->pmu_type = (uint32_t)t->type;
		memcpy(lc->config, a->config, sizeof lc->config);
		lc->attr_size = a->size;
		lc->period = a->sample_period;
		lc->exclude_user = a->exclude_user;
		lc->exclude_kernel = a->exclude_kernel;
		/*
		 * perf core refuses PERF_SAMPLE_PHYS_ADDR to a caller who may not
		 * sample the kernel (EACCES), and an AUX-only event emits no
		 * samples: open without it then.  The file's attr keeps it.
		 */
		if (!spe_target_may_sample_kernel(t))
			lc->sample_type &= ~(uint64_t)SPE_PERF_SAMPLE_PHYS_ADDR;
	}
	if (o->command) {
		lc->mode = SPE_LIVE_COMMAND;
		lc->argv = o->command;
	} else if (o->pid > 0) {
		lc->mode = SPE_LIVE_PID;
		lc->pid = o->pid;
	} else {
		lc->mode = o->cpus ? SPE_LIVE_CPUS : SPE_LIVE_SYSTEM_WIDE;
	}
	/* Only CPUs the PMU covers (heterogeneous systems), unless -C narrows it. */
	if (o->cpus)
		lc->n_cpus = cpuset_to_list(o->cpus, cpus, SPE_LIVE_MAX_CPUS);
	else if (lc->with_spe && o->target->cpus_known)
		lc->n_cpus = cpuset_to_list(&o->target->cpus, cpus, SPE_LIVE_MAX_CPUS);
	else
		lc->n_cpus = online_cpus(cpus, SPE_LIVE_MAX_CPUS);
	lc->cpus = cpus;
	if (lc->n_cpus <= 0) {
		fprintf(stderr, "%s: no CPUs to record on\n", o->prog);
		return CLI_USAGE;
	}
	return 0;
}

/*
 * The perf.data of a live recording: the attr the events were opened with,
 * each CPU's MIDR, the time conversion of the first ring, this host (the
 * recorded one: uname) and its NUMA layout (the loader maps data physical
 * addresses to nodes with it).  0, or a negative code with "PATH: problem"
 * in @p err.
 */
static int live_output_open(const struct record_run_opts *o, struct spe_live *live, const struct spe_live_config *lc,
			    const char *out_path, struct spe_rec_output **out, char *err, size_t errlen)
{
	const uint32_t *cpus;
	int n = spe_live_cpus(live, &cpus);
	uint64_t *midrs = calloc((size_t)n, sizeof *midrs);
	if (!midrs) {
		snprintf(err, errlen, "out of memory");
		return -spe_nomem;
	}
	for (int i = 0; i < n; i++)
		midrs[i] = read_midr(cpus[i]);
	struct spe_live_time_conv ltc;
	spe_live_time_conv(live, &ltc);
	struct spe_rec_output_time_conv tc = { ltc.time_shift, ltc.time_mult, ltc.time_zero, ltc.time_cycles,
					       ltc.time_mask, ltc.cap_user_time_zero, ltc.cap_user_time_short };
	struct spe_rec_output_config oc = SPE_OPTS(spe_rec_output_config, .pmu_type = lc->pmu_type,
						   .config = lc->config[0], .config1 = lc->config[1],
						   .config2 = lc->config[2], .sample_period = lc->period,
						   .exclude_user = lc->exclude_user, .exclude_kernel = lc->exclude_kernel,
						   .n_cpus = (uint32_t)n, .cpus = cpus,
						   .midrs = midrs, .argc = o->argc, .argv = o->argv,
						   .time_conv = tc.time_mult ? &tc : NULL);
	struct utsname un;
	if (uname(&un) == 0) {
		oc.hostname = un.nodename;
		oc.osrelease = un.release;
		oc.arch = un.machine;
	}
	struct spe_numa_topology numa;
	if (spe_numa_read_sysfs("/sys", &numa) == 0) {
		oc.numa_nodes = numa.nodes;
		oc.n_numa_nodes = numa.n_nodes;
		oc.memory_block_size = numa.block_size;
	}
	int r = spe_rec_output_open(out_path, &oc, out, err, errlen);
	spe_numa_topology_fini(&numa); /* the writer keeps its own copy */
	free(midrs);
	return r;
}

int cli_record_run_live(const struct record_run_opts *o)
{
	const char *prog = o->prog;
	const char *out_path = o->output ? o->output : DEFAULT_OUTPUT;
	struct spe_live_config lc;
	uint32_t *lcpus = calloc(SPE_LIVE_MAX_CPUS, sizeof *lcpus);
	if (!lcpus) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return CLI_IOERR;
	}
	int rc = cli_record_run_live_config(o, &lc, lcpus);
	if (rc || (rc = check_output(prog, out_path))) {
		free(lcpus);
		return rc;
	}
	int existed = access(out_path, F_OK) == 0;

	install_stop_handlers();
	struct spe_live *live = NULL;
	char err[1024] = "";
	int r = spe_live_open(&lc, &live, err, sizeof err);
	free(lcpus); /* spe_live_open keeps its own copy */
	if (r) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return cli_exit_status(r); /* 77 refused, 66 -p's process gone, 69 no perf events or SPE busy */
	}

	struct spe_rec_output *out = NULL;
	r = live_output_open(o, live, &lc, out_path, &out, err, sizeof err);
	if (r) {
		fprintf(stderr, "%s: %s\n", prog, err);
		spe_live_close(live);
		return r == -spe_invalid ? CLI_USAGE : CLI_IOERR;
	}
	const uint32_t *cpus;
	int n = spe_live_cpus(live, &cpus);

	struct spe_session_sink sink = spe_rec_output_sink(out);
	/* Processes already running: their COMM and MMAP2 from /proc (a launched command gets them at exec). */
	if (!o->command) {
		int64_t synth = spe_proc_synthesize("/proc", o->pid > 0 ? o->pid : -1, spe_rec_output_sample_type(),
						    SPE_REC_OUTPUT_SAMPLE_ID, n > 0 ? cpus[0] : 0, &sink);
		if (synth < 0)
			fprintf(stderr, "%s: warning: could not write the sideband of running processes: %s\n", prog,
				spe_errstr((int)synth));
	}
	struct spe_live_result res;
	r = spe_live_run(live, &sink, &res);
	char lerr[sizeof err];
	snprintf(lerr, sizeof lerr, "%s", spe_live_errmsg(live));
	spe_live_close(live);
	uint32_t first_type = 0;
	uint64_t unwritten = spe_rec_output_unwritten(out, &first_type);
	char cerr[1024] = "";
	int cr = 0;
	if (r) {
		/* A failed session changes nothing on disk; a failed write is the cause worth naming. */
		snprintf(cerr, sizeof cerr, "%s", spe_rec_output_errmsg(out));
		spe_rec_output_abort(out);
	} else
		cr = spe_rec_output_close(out, cerr, sizeof cerr);

	int status = CLI_OK;
	if (r && o->command && !res.command_ran) {
		fprintf(stderr, "%s: %s\n", prog, lerr);
		return 127; /* the command could not be run, as a shell reports it */
	}
	if (r || cr) {
		fprintf(stderr, "%s: %s\n", prog, cerr[0] ? cerr : lerr);
		status = CLI_IOERR;
	}
	uint64_t per_trunc = res.aux_size / 2; /* one wakeup's worth: the kernel's default watermark */
	report_losses(prog, &res.stats, res.stats.aux_truncated * per_trunc, 0, "-m");
	if (unwritten)
		fprintf(stderr, "%s: %llu sideband records (first of type %u) not written: too short for "
				"their sample_id trailer\n",
			prog, (unsigned long long)unwritten, first_type);
	if (status != CLI_OK) {
		report_kept(prog, out_path, existed);
		return status;
	}
	fprintf(stderr, "%s: wrote %s: %llu bytes of SPE data, %llu sideband records, %d CPU%s%s\n", prog, out_path,
		(unsigned long long)res.stats.aux_bytes,
		(unsigned long long)(res.stats.kernel_events - res.stats.aux_records), res.n_cpus,
		res.n_cpus == 1 ? "" : "s", res.stopped_by_signal ? " (stopped by signal)" : "");
	if (o->command)
		status = res.command_status;
	return status;
}
