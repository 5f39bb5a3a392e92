/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe/infile.h: opening never blocks (a FIFO without a writer is refused at
 * once), only regular files are inputs, and text is capped in size and line
 * length with a message naming the limit and the line.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "spe/infile.h"

static char dir[] = "/tmp/spe-infile-XXXXXX";
static char err[1024];

static const char *at(const char *name)
{
	static char buf[512];
	snprintf(buf, sizeof buf, "%s/%s", dir, name);
	return buf;
}

static void put(const char *name, const char *text)
{
	FILE *f = fopen(at(name), "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		CHECK_FAIL_("cannot write %s", name);
}

TEST(a_fifo_without_a_writer_is_refused_at_once)
{
	CHECK_INT_EQ(mkfifo(at("fifo"), 0600), 0);
	alarm(10); /* a hang fails the test instead of blocking ctest */
	CHECK_INT_EQ(spe_infile_open(at("fifo"), err, sizeof err), -spe_unsupported);
	alarm(0);
	CHECK(strstr(err, "fifo: is a FIFO (pipe), not a regular file") != NULL);
	char *text = NULL;
	CHECK_INT_EQ(spe_infile_read_text(at("fifo"), 100, 0, &text, NULL, err, sizeof err), -spe_unsupported);
	CHECK(text == NULL);
}

TEST(devices_directories_and_missing_files)
{
	CHECK_INT_EQ(spe_infile_open("/dev/zero", err, sizeof err), -spe_unsupported);
	CHECK(strstr(err, "/dev/zero: is a character device") != NULL);
	CHECK_INT_EQ(spe_infile_open(dir, err, sizeof err), -spe_unsupported);
	CHECK(strstr(err, "is a directory") != NULL);
	CHECK_INT_EQ(spe_infile_open(at("none"), err, sizeof err), -spe_io);
	CHECK(strstr(err, "none: cannot open: No such file or directory") != NULL);
	int code = 0;
	CHECK(spe_infile_fopen("/dev/zero", &code, err, sizeof err) == NULL);
	CHECK_INT_EQ(code, -spe_unsupported);
}

TEST(a_regular_file_opens_blocking)
{
	put("ok.txt", "a\nb\n");
	int fd = spe_infile_open(at("ok.txt"), err, sizeof err);
	CHECK(fd >= 0);
	if (fd >= 0) {
		CHECK_INT_EQ(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
		CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC);
		close(fd);
	}
	char *text = NULL;
	size_t len = 0;
	CHECK_INT_EQ(spe_infile_read_text(at("ok.txt"), 4, 1, &text, &len, err, sizeof err), 0);
	CHECK_STR_EQ(text, "a\nb\n");
	CHECK_INT_EQ(len, 4);
	free(text);
}

TEST(text_limits)
{
	put("big.txt", "12345\n");
	char *text = NULL;
	CHECK_INT_EQ(spe_infile_read_text(at("big.txt"), 5, 0, &text, NULL, err, sizeof err), -spe_bad_file);
	CHECK(strstr(err, "big.txt: 6 bytes, more than the 5 a text input may have") != NULL);
	put("lines.txt", "ok\nthis line is long\nok\n");
	CHECK_INT_EQ(spe_infile_read_text(at("lines.txt"), 100, 10, &text, NULL, err, sizeof err), -spe_bad_file);
	CHECK(strstr(err, "lines.txt:2: a line of 17 bytes, more than the 10 a line may have") != NULL);
	/* The last line without a newline counts too. */
	put("tail.txt", "ok\n0123456789abc");
	CHECK_INT_EQ(spe_infile_read_text(at("tail.txt"), 100, 10, &text, NULL, err, sizeof err), -spe_bad_file);
	CHECK(strstr(err, "tail.txt:2: a line of 13 bytes") != NULL);
	CHECK(text == NULL);
	put("empty.txt", "");
	CHECK_INT_EQ(spe_infile_read_text(at("empty.txt"), 100, 10, &text, NULL, err, sizeof err), 0);
	CHECK_STR_EQ(text, "");
	free(text);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(a_fifo_without_a_writer_is_refused_at_once);
	RUN(devices_directories_and_missing_files);
	RUN(a_regular_file_opens_blocking);
	RUN(text_limits);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		return 1;
	return check_summary();
}
