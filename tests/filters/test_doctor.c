/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe doctor's parsers and its man page: the MADT reader on tables built
 * here byte by byte, the kernel-log classifier on the driver's real lines,
 * cpuinfo/config/status/limits parsing, a tree that is a FIFO or missing;
 * and docs/spe-doctor-checks.md has a section for every check, and it or
 * docs/spe-doctor.1.md shows every message format of filters/src/doctor
 * and cli/cmd_doctor.c (read from the sources, see msg_scan.h).  The
 * situations end to end are cli_doctor.sh's golden tests.
 */
#include "check.h"
#include "doctor_facts.h"
#include "fixture_target.h"
#include "msg_scan.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static size_t put_gicc(uint8_t *p, uint8_t len, uint32_t flags, uint16_t spe)
{
	memset(p, 0, len);
	p[0] = 11;
	p[1] = len;
	memcpy(p + 12, &flags, 4);
	if (len >= 80)
		memcpy(p + 78, &spe, 2);
	return len;
}

/* A MADT with @p n GICC entries of @p len bytes; entry i gets SPE GSI spe[i]. */
static size_t make_madt(uint8_t *buf, unsigned n, uint8_t len, const uint16_t *spe, const uint32_t *flags)
{
	memset(buf, 0, 44);
	memcpy(buf, "APIC", 4);
	size_t off = 44;
	/* a GIC distributor entry (type 12) first: skipped */
	buf[off] = 12;
	buf[off + 1] = 24;
	off += 24;
	for (unsigned i = 0; i < n; i++)
		off += put_gicc(buf + off, len, flags ? flags[i] : 1, spe[i]);
	uint32_t total = (uint32_t)off;
	memcpy(buf + 4, &total, 4);
	return off;
}

TEST(madt_spe_interrupts)
{
	uint8_t buf[1024];
	char err[160];
	struct spe_madt_spe m;
	const uint16_t same[4] = { 21, 21, 21, 21 }, mixed[4] = { 21, 21, 22, 0 }, none[4] = { 0 };
	size_t n = make_madt(buf, 4, 80, same, NULL);
	CHECK_INT_EQ(spe_madt_parse(buf, n, &m, err, sizeof err), 0);
	CHECK_INT_EQ(m.gicc, 4);
	CHECK_INT_EQ(m.with_irq, 4);
	CHECK_INT_EQ(m.first_irq, 21);
	CHECK(!m.mixed);
	n = make_madt(buf, 4, 80, mixed, NULL);
	CHECK_INT_EQ(spe_madt_parse(buf, n, &m, err, sizeof err), 0);
	CHECK_INT_EQ(m.with_irq, 3);
	CHECK(m.mixed);
	/* ACPI 6.0 entries (76 bytes) have no SPE field; disabled CPUs (flags 0) do not count. */
	const uint32_t flags[4] = { 1, 1, 0, 8 };
	n = make_madt(buf, 4, 76, none, flags);
	CHECK_INT_EQ(spe_madt_parse(buf, n, &m, err, sizeof err), 0);
	CHECK_INT_EQ(m.gicc, 3);
	CHECK_INT_EQ(m.without_field, 3);
	CHECK_INT_EQ(m.with_irq, 0);
	/* Damage: bad signature, length past the buffer, a zero-length entry. */
	n = make_madt(buf, 2, 80, same, NULL);
	buf[0] = 'X';
	CHECK_INT_EQ(spe_madt_parse(buf, n, &m, err, sizeof err), -spe_bad_input);
	CHECK(strstr(err, "offset 0: not an ACPI MADT") != NULL);
	buf[0] = 'A';
	CHECK_INT_EQ(spe_madt_parse(buf, n - 1, &m, err, sizeof err), -spe_bad_input);
	CHECK(strstr(err, "offset 4: table length") != NULL);
	buf[44 + 1] = 0;
	CHECK_INT_EQ(spe_madt_parse(buf, n, &m, err, sizeof err), -spe_bad_input);
	CHECK(strstr(err, "offset 45: entry length 0") != NULL);
}

TEST(kernel_log_lines)
{
	/* Lines as the driver, the ACPI glue and arm64 print them (public bug reports). */
	struct kernel_log log;
	filt_kernel_log_scan(&log,
			     "<6>[    0.000000] CPU features: kernel page table isolation forced ON by KASLR\n"
			     "[   21.345242] arm_spe_pmu arm,spe-v1: profiling buffer inaccessible. Try passing \"kpti=off\" "
			     "on the kernel command line\n"
			     "[   21.364371] arm_spe_pmu: probe of arm,spe-v1 failed with error -1\n"
			     "[    2.261719] arm_spe_pmu arm,spe-v1: probed SPEv1.1 for CPUs 0-63 [max_record_sz 64, align 64, "
			     "features 0x17]\n"
			     "arm_spe_pmu arm,spe-v1: probed for CPUs 0-95 [max_record_sz 128, align 4, features 0x7]\n"
			     "[    1.0] arm_spe_pmu arm,spe-v1: unsupported ID_AA64DFR0_EL1.PMSVer [0] on CPU 3\n"
			     "[    1.0] arm_spe_pmu arm,spe-v1: profiling buffer owned by higher exception level\n"
			     "[    0.4] ACPI: SPE: Unable to register device\n"
			     "[    0.1] smccc: KVM: hypervisor services detected (0x00000000 0x00000000 0x00000000 0x00000003)\n"
			     "[    9.0] unrelated line\n");
	CHECK_INT_EQ(log.count[LOG_KPTI_ON], 1);
	CHECK_INT_EQ(log.count[LOG_KPTI], 1);
	CHECK_INT_EQ(log.count[LOG_PROBE_FAILED], 1);
	CHECK_INT_EQ(log.count[LOG_PROBED], 2); /* with and without the version (before 5.12) */
	CHECK_INT_EQ(log.count[LOG_NO_PMSVER], 1);
	CHECK_INT_EQ(log.count[LOG_OWNED], 1);
	CHECK_INT_EQ(log.count[LOG_ACPI], 1);
	CHECK_INT_EQ(log.count[LOG_HYPERVISOR], 1);
	CHECK_INT_EQ(log.n, 9);
	CHECK_STR_EQ(log.line[0].text, "[    0.000000] CPU features: kernel page table isolation forced ON by KASLR");
	/* More lines than kept: counted, not stored. */
	char many[4096] = "";
	for (int i = 0; i < 20; i++)
		strcat(many, "arm_spe_pmu x: probed SPEv1.2 for CPUs 0\n");
	filt_kernel_log_scan(&log, many);
	CHECK_INT_EQ(log.count[LOG_PROBED], 20);
	CHECK_INT_EQ(log.n, DOCTOR_MAX_LOG_LINES);
}

TEST(text_parsers)
{
	static struct doctor_facts f;
	memset(&f, 0, sizeof f);
	filt_cpuinfo_parse(&f,
			   "processor\t: 0\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x3\n"
			   "CPU part\t: 0xd0c\nCPU revision\t: 1\n\nprocessor\t: 1\nCPU implementer\t: 0x41\n"
			   "CPU variant\t: 0x0\nCPU part\t: 0xd05\nCPU revision\t: 0\n",
			   true);
	CHECK_STR_EQ(f.cpuinfo_arch, "aarch64");
	CHECK_INT_EQ(f.n_groups, 2);
	CHECK_U64_EQ(f.group[0].midr, 0x413fd0c1);
	CHECK_STR_EQ(f.group[0].name, "neoverse-n1");
	CHECK(f.group[1].name == NULL); /* Cortex-A55: no SPE row in facts.h */
	memset(&f, 0, sizeof f);
	filt_cpuinfo_parse(&f, "processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu vme hypervisor lahf_lm\n", true);
	CHECK_STR_EQ(f.cpuinfo_arch, "x86_64");
	CHECK(f.cpuinfo_hypervisor);
	CHECK_INT_EQ(f.n_groups, 0);

	filt_config_parse(&f, "CONFIG_ARM64=y\nCONFIG_ARM_SPE_PMU=m\n# CONFIG_PID_IN_CONTEXTIDR is not set\n"
			 "CONFIG_SECURITY_PERF_EVENTS_RESTRICT=y\n");
	CHECK_INT_EQ(f.spe_pmu, 'm');
	CHECK_INT_EQ(f.pid_in_contextidr, 'n');
	CHECK(f.restrict_symbol);
	filt_config_parse(&f, "# CONFIG_ARM_SPE_PMU is not set\nCONFIG_ARM_SPE_PMU_X=y\n");
	CHECK_INT_EQ(f.spe_pmu, 'n');
	CHECK(!f.restrict_symbol);
	filt_config_parse(&f, "CONFIG_FOO=y\n");
	CHECK_INT_EQ(f.spe_pmu, 0);

	filt_status_parse(&f, "Name:\tx\nUid:\t1000\t0\t0\t0\nCapEff:\t0000004000004000\n");
	CHECK(f.status_known);
	CHECK_INT_EQ(f.uid, 0); /* the effective uid decides */
	CHECK(filt_facts_has_cap(&f, CAP_BIT_PERFMON) && filt_facts_has_cap(&f, CAP_BIT_IPC_LOCK));
	CHECK(!filt_facts_has_cap(&f, CAP_BIT_SYS_ADMIN));
	filt_limits_parse(&f, "Max locked memory         65536                65536                bytes\n");
	CHECK(f.rlimit_known);
	CHECK_U64_EQ(f.rlimit, 65536);
	filt_limits_parse(&f, "Max locked memory         unlimited            unlimited            bytes\n");
	CHECK_U64_EQ(f.rlimit, UINT64_MAX);
}

TEST(bad_roots)
{
	static struct spe_doctor_report r;
	struct spe_doctor_plan plan;
	spe_doctor_plan_init(&plan, 4 << 20, 512 << 10);
	char err[256];
	CHECK_INT_EQ(spe_doctor_run("/nonexistent/tree", &plan, &r, err, sizeof err), -spe_not_found);
	CHECK(strstr(err, "/nonexistent/tree: No such file or directory") != NULL);
	CHECK_INT_EQ(spe_doctor_run("/etc/hostname", &plan, &r, err, sizeof err), -spe_not_found);
	CHECK(strstr(err, "not a directory") != NULL);

	/* A tree whose osrelease is a FIFO: read as absent, never blocking. */
	char dir[] = "/tmp/spe-doctor-fifo-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char path[256];
	snprintf(path, sizeof path, "%s/proc", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/proc/sys", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/proc/sys/kernel", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/proc/sys/kernel/osrelease", dir);
	CHECK_INT_EQ(mkfifo(path, 0644), 0);
	CHECK_INT_EQ(spe_doctor_run(dir, &plan, &r, err, sizeof err), 0);
	CHECK_STR_EQ(r.release, "");
	CHECK_INT_EQ(r.check[SPE_CHECK_ARCH].status, SPE_CHECK_WARN);
	CHECK_INT_EQ(r.check[SPE_CHECK_PMU].status, SPE_CHECK_FAIL);
	CHECK_INT_EQ(r.verdict, SPE_DOCTOR_UNAVAILABLE);
	unlink(path);
	snprintf(path, sizeof path, "%s/proc/sys/kernel", dir);
	rmdir(path);
	snprintf(path, sizeof path, "%s/proc/sys", dir);
	rmdir(path);
	snprintf(path, sizeof path, "%s/proc", dir);
	rmdir(path);
	rmdir(dir);
}

/* ---- docs/spe-doctor.1.md and docs/spe-doctor-checks.md ---- */

static char doc[1 << 18];

/* Read @p path into @p buf (NUL-terminated); false when it cannot be opened. */
static bool read_into(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		printf("  cannot open %s\n", path);
		return false;
	}
	size_t n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return true;
}

/* The man page and the checks' page, one after the other in doc. */
static bool load_doc(void)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/spe-doctor.1.md", docs_dir());
	if (!read_into(path, doc, sizeof doc))
		return false;
	size_t used = strlen(doc);
	snprintf(path, sizeof path, "%s/spe-doctor-checks.md", docs_dir());
	return read_into(path, doc + used, sizeof doc - used);
}

TEST(checks_doc_names_every_check)
{
	CHECK(load_doc());
	for (int i = 0; i < SPE_CHECK_COUNT; i++) {
		char heading[64];
		snprintf(heading, sizeof heading, "\n## `%s`\n", spe_check_name(i));
		if (!strstr(doc, heading))
			printf("  docs/spe-doctor-checks.md lacks the heading ## `%s`\n", spe_check_name(i));
		CHECK(strstr(doc, heading) != NULL);
	}
}

struct format_check {
	unsigned formats, missing;
};

static void check_format(const char *format, const char *file, unsigned line, void *ctx)
{
	struct format_check *fc = ctx;
	bool checked;
	bool ok = msg_documented(doc, format, &checked);
	fc->formats += checked;
	if (!ok) {
		printf("  docs/spe-doctor.1.md and spe-doctor-checks.md show no message like %s:%u: \"%s\"\n", file, line, format);
		fc->missing++;
	}
}

static char *slurp_file(const char *path)
{
	static char buf[1 << 17];
	return read_into(path, buf, sizeof buf) ? buf : NULL;
}

TEST(docs_show_every_message_format)
{
	CHECK(load_doc());
	struct format_check fc = { 0, 0 };
	static const struct msg_call calls[] = { { "filt_check_set", 3, false },
						 { "filt_check_evidence", 2, false },
						 { "filt_check_fix", 1, false },
						 { "snprintf", 2, true } };
	char dir[1024], path[1536];
	snprintf(dir, sizeof dir, "%s/../filters/src/doctor", docs_dir());
	DIR *d = opendir(dir);
	CHECK(d != NULL);
	unsigned files = 0;
	for (struct dirent *e; d && (e = readdir(d));) {
		size_t n = strlen(e->d_name);
		if (n < 3 || strcmp(e->d_name + n - 2, ".c"))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		const char *src = slurp_file(path);
		CHECK(src != NULL);
		if (src) {
			msg_scan(src, e->d_name, 1, calls, 4, check_format, &fc);
			files++;
		}
	}
	if (d)
		closedir(d);
	CHECK(files >= 10);
	/* spe doctor's own usage errors */
	snprintf(path, sizeof path, "%s/../cli/cmd_doctor.c", docs_dir());
	const char *cli = slurp_file(path);
	static const struct msg_call cli_calls[] = { { "fprintf", 1, false } };
	CHECK(cli != NULL);
	if (cli)
		msg_scan(cli, "cmd_doctor.c", 1, cli_calls, 1, check_format, &fc);
	CHECK(fc.formats >= 80); /* a broken scanner would pass everything */
	CHECK_INT_EQ(fc.missing, 0);
}

int main(int argc, char **argv)
{
	fixture_init(argc, argv);
	RUN(madt_spe_interrupts);
	RUN(kernel_log_lines);
	RUN(text_parsers);
	RUN(bad_roots);
	RUN(checks_doc_names_every_check);
	RUN(docs_show_every_message_format);
	return check_summary();
}
