/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A writer whose writes fail: close still seals the file (data.size at the
 * last whole record, no features) so our reader and perf 6.1 open it, and the
 * writer's message survives close.
 */
#include "check.h"
#include "spe/spe.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define LIMIT (600u << 10)   /* RLIMIT_FSIZE: a few buffer flushes in */
#define CHUNK 20000u         /* AUXTRACE payload; 40 of them pass the limit */
#define N_CHUNKS 40

static char path[] = "/tmp/spe-test-wfail-XXXXXX";

static uint8_t pattern(uint32_t chunk, uint32_t i)
{
	return (uint8_t)(chunk * 31 + i * 7);
}

/*
 * Child: under the file-size limit, write COMM + AUXTRACE + AUX per chunk
 * until a write fails, close, and send the close result and message up @p out.
 */
static void write_until_failure(int out)
{
	signal(SIGXFSZ, SIG_IGN); /* EFBIG instead of death */
	struct rlimit rl = { LIMIT, LIMIT };
	if (setrlimit(RLIMIT_FSIZE, &rl))
		_exit(2);
	int fd = open(path, O_WRONLY | O_TRUNC);
	struct spe_perf_writer_config cfg = SPE_OPTS(spe_perf_writer_config, .midr = 0x410fd0c0, .hostname = "h");
	struct spe_perf_writer *w = spe_perf_writer_open(fd, &cfg);
	static uint8_t data[CHUNK];
	struct spe_perf_writer_sid sid = { .pid = 5, .tid = 5, .time = 1, .cpu = 0 };
	uint32_t written = 0;
	for (uint32_t c = 0; c < N_CHUNKS; c++) {
		for (uint32_t i = 0; i < CHUNK; i++)
			data[i] = pattern(c, i);
		if (spe_perf_write_comm(w, 5, 5, "app", 0, &sid) ||
		    spe_perf_write_auxtrace(w, data, CHUNK, (uint64_t)c * CHUNK, c + 1, 0, 5, 0) ||
		    spe_perf_write_aux(w, (uint64_t)c * CHUNK, CHUNK, 0, &sid))
			break;
		written++;
	}
	char msg[256] = "unchanged";
	int r = spe_perf_writer_close_msg(w, msg, sizeof msg);
	close(fd);
	char line[400];
	int n = snprintf(line, sizeof line, "%d %u %s", r, written, msg);
	if (write(out, line, (size_t)n) != n)
		_exit(3);
	_exit(0);
}

static uint64_t u64_at(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static int have_perf(void)
{
	return system("perf version >/dev/null 2>&1") == 0;
}

TEST(file_size_limit_seals_at_last_record)
{
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	int p[2];
	CHECK_INT_EQ(pipe(p), 0);
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		write_until_failure(p[1]);
	}
	close(p[1]);
	char line[400] = "";
	ssize_t got = read(p[0], line, sizeof line - 1);
	close(p[0]);
	int st = 0;
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK(got > 0);
	line[got > 0 ? got : 0] = 0;
	int r = 0;
	unsigned written = 0;
	int msg_at = 0;
	CHECK(sscanf(line, "%d %u %n", &r, &written, &msg_at) == 2);
	const char *msg = line + msg_at;
	printf("  close: %d, %u chunks accepted, \"%s\"\n", r, written, msg);
	CHECK_INT_EQ(r, -spe_io);
	CHECK(written > 0 && written < N_CHUNKS);
	/* The message survived close: what failed, where, why. */
	CHECK(strstr(msg, "write failed at offset 0x") != NULL);
	CHECK(strstr(msg, strerror(EFBIG)) != NULL);

	/* The header: data.size non-zero, ends inside the file, no features. */
	struct stat sb;
	CHECK_INT_EQ(stat(path, &sb), 0);
	CHECK((uint64_t)sb.st_size <= LIMIT);
	/* The offset named is the failed write's: the first byte missing, i.e. the file's size. */
	unsigned long long failed_at = 0;
	CHECK(sscanf(strstr(msg, "offset 0x") ? strstr(msg, "offset 0x") : "", "offset 0x%llx", &failed_at) == 1);
	CHECK_U64_EQ(failed_at, (uint64_t)sb.st_size);
	uint8_t h[104];
	fd = open(path, O_RDONLY);
	CHECK_INT_EQ((int)pread(fd, h, sizeof h, 0), (int)sizeof h);
	close(fd);
	uint64_t data_off = u64_at(h + 40), data_size = u64_at(h + 48);
	CHECK(data_size > 0);
	CHECK(data_off + data_size <= (uint64_t)sb.st_size);
	/* Records the failing write did get out count: less than one record is left past data.size. */
	CHECK((uint64_t)sb.st_size - (data_off + data_size) < 48 + CHUNK);
	CHECK_U64_EQ(u64_at(h + 72), 0);

	/* Our reader: every record whole, the last one ending exactly at data.size. */
	struct spe_perf_file *f = spe_perf_alloc_file(NULL);
	CHECK_INT_EQ(spe_perf_open(f, path), 0);
	struct spe_perf_event ev;
	int rc;
	uint64_t end = 0, n_aux = 0, bad = 0;
	while ((rc = spe_perf_next(f, &ev, sizeof ev)) == 0) {
		end = ev.file_offset + ev.total_size;
		if (ev.type == SPE_PERF_RECORD_AUXTRACE) {
			uint32_t c = (uint32_t)(ev.u.auxtrace.offset / CHUNK);
			for (uint32_t i = 0; i < CHUNK && i < ev.u.auxtrace.size; i++)
				bad += ev.u.auxtrace.data[i] != pattern(c, i);
			n_aux++;
		}
	}
	CHECK_INT_EQ(rc, -spe_eos);
	struct spe_perf_info info;
	spe_perf_get_info(f, &info, sizeof info);
	CHECK_INT_EQ(info.unfinished, 0);
	CHECK_U64_EQ(end, data_off + data_size);
	CHECK(n_aux > 0 && n_aux <= written + 1);
	CHECK_U64_EQ(bad, 0);
	spe_perf_free_file(f);

	/* perf 6.1, where installed: accepts it and dumps the same AUXTRACE records. */
	if (have_perf()) {
		char cmd[512];
		snprintf(cmd, sizeof cmd, "PAGER=cat perf report -f -D -i '%s' 2>&1", path);
		FILE *pp = popen(cmd, "r");
		CHECK(pp != NULL);
		char buf[1024];
		uint64_t perf_aux = 0;
		while (pp && fgets(buf, sizeof buf, pp))
			perf_aux += strstr(buf, "PERF_RECORD_AUXTRACE size") != NULL;
		int pst = pp ? pclose(pp) : -1;
		CHECK_INT_EQ(pst, 0);
		CHECK_U64_EQ(perf_aux, n_aux);
	} else {
		printf("  perf not installed: perf report -D check skipped\n");
	}
	unlink(path);
}

/* A pipe whose reader is gone: EPIPE at open, kept, and its message returned by close. */
TEST(broken_pipe_message_survives_close)
{
	signal(SIGPIPE, SIG_IGN);
	int p[2];
	CHECK_INT_EQ(pipe(p), 0);
	close(p[0]);
	struct spe_perf_writer_config cfg = SPE_OPTS(spe_perf_writer_config, .pipe_mode = 1);
	struct spe_perf_writer *w = spe_perf_writer_open(p[1], &cfg);
	CHECK(w != NULL);
	int saved = 0;
	CHECK_INT_EQ(spe_perf_writer_error(w, &saved), -spe_io);
	CHECK_INT_EQ(saved, EPIPE);
	CHECK_INT_EQ(spe_perf_write_finished_round(w), -spe_io);
	char msg[256] = "unchanged";
	CHECK_INT_EQ(spe_perf_writer_close_msg(w, msg, sizeof msg), -spe_io);
	CHECK(strstr(msg, "write failed") != NULL);
	CHECK(strstr(msg, strerror(EPIPE)) != NULL);
	close(p[1]);

	/* No failure: close_msg leaves "" */
	char tmpl[] = "/tmp/spe-test-wok-XXXXXX";
	int fd = mkstemp(tmpl);
	CHECK(fd >= 0);
	w = spe_perf_writer_open(fd, NULL);
	CHECK_INT_EQ(spe_perf_writer_close_msg(w, msg, sizeof msg), 0);
	CHECK_STR_EQ(msg, "");
	close(fd);
	unlink(tmpl);
}

int main(void)
{
	RUN(file_size_limit_seals_at_last_record);
	RUN(broken_pipe_message_survives_close);
	return check_summary();
}
