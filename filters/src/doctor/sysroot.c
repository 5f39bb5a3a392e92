/* SPDX-License-Identifier: Apache-2.0 */
/* Reading a system's files by path, live or from a captured tree (sysroot.h). */
#include "sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

bool filt_sysroot_path(const struct sysroot *s, const char *path, char *out, size_t len)
{
	int n = snprintf(out, len, "%s%s", s->dir, path);
	return n >= 0 && (size_t)n < len;
}

static int code_of(int e)
{
	return e == ENOENT || e == ENOTDIR ? SYSROOT_ABSENT : e == EACCES || e == EPERM ? SYSROOT_DENIED : SYSROOT_ERROR;
}

/* Open a regular file without blocking; a SYSROOT_* code on failure. */
static int open_regular(const struct sysroot *s, const char *path)
{
	char full[4352];
	if (!filt_sysroot_path(s, path, full, sizeof full))
		return SYSROOT_ERROR;
	int fd = open(full, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return code_of(errno);
	struct stat st;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return SYSROOT_NOT_FILE;
	}
	return fd;
}

/* read() until @p len bytes or EOF (proc files say size 0 and come in pieces). */
static long read_all(int fd, char *buf, size_t len)
{
	size_t got = 0;
	while (got < len) {
		ssize_t n = read(fd, buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return code_of(errno);
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (long)got;
}

int filt_sysroot_text(const struct sysroot *s, const char *path, char *buf, size_t len)
{
	buf[0] = '\0';
	int fd = open_regular(s, path);
	if (fd < 0)
		return fd;
	long n = read_all(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return (int)n;
	buf[n] = '\0';
	if (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return (int)n;
}

int filt_sysroot_number(const struct sysroot *s, const char *path, long long *out)
{
	char buf[64];
	int n = filt_sysroot_text(s, path, buf, sizeof buf);
	if (n < 0)
		return n;
	char *end;
	errno = 0;
	long long v = strtoll(buf, &end, 0);
	if (end == buf || errno || *end)
		return SYSROOT_ERROR;
	*out = v;
	return 0;
}

static long inflate_all(int fd, size_t max, char **out)
{
	gzFile gz = gzdopen(fd, "rb");
	if (!gz) {
		close(fd);
		return SYSROOT_ERROR;
	}
	char *buf = malloc(max + 1);
	long rc = SYSROOT_ERROR;
	if (buf) {
		int n = gzread(gz, buf, (unsigned)max);
		if (n >= 0) {
			buf[n] = '\0';
			*out = buf;
			rc = n;
			buf = NULL;
		}
	}
	free(buf);
	gzclose(gz);
	return rc;
}

long filt_sysroot_slurp(const struct sysroot *s, const char *path, size_t max, bool gzip, char **out)
{
	*out = NULL;
	int fd = open_regular(s, path);
	if (fd < 0)
		return fd;
	if (gzip)
		return inflate_all(fd, max, out);
	char *buf = malloc(max + 1);
	if (!buf) {
		close(fd);
		return SYSROOT_ERROR;
	}
	long n = read_all(fd, buf, max);
	close(fd);
	if (n < 0) {
		free(buf);
		return n;
	}
	buf[n] = '\0';
	*out = buf;
	return n;
}

bool filt_sysroot_exists(const struct sysroot *s, const char *path)
{
	char full[4352];
	struct stat st;
	return filt_sysroot_path(s, path, full, sizeof full) && lstat(full, &st) == 0;
}

const char *filt_sysroot_strerror(int code)
{
	switch (code) {
	case SYSROOT_ABSENT: return "absent";
	case SYSROOT_DENIED: return "permission denied";
	case SYSROOT_NOT_FILE: return "not a regular file";
	default: return "unreadable";
	}
}
