/* SPDX-License-Identifier: Apache-2.0 */
/* Bounded inputs: open without blocking, regular files only, capped text.  See spe/infile.h. */
#include "spe/infile.h"

#include "file_kind.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int spe_infile_open(const char *path, char *err, size_t errlen)
{
	if (!path || !*path) {
		snprintf(err, errlen, "no input file name");
		return -spe_invalid;
	}
	/* O_NONBLOCK: a FIFO without a writer opens at once instead of hanging (and is refused below). */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return -spe_io;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		snprintf(err, errlen, "%s: cannot stat: %s", path, strerror(errno));
		close(fd);
		return -spe_io;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: is %s, not a regular file", path, safeio_kind_name(st.st_mode));
		close(fd);
		return -spe_unsupported;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

FILE *spe_infile_fopen(const char *path, int *code, char *err, size_t errlen)
{
	int fd = spe_infile_open(path, err, errlen);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (fd >= 0 && !f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		fd = -spe_nomem;
	}
	if (!f && code)
		*code = fd;
	return f;
}

int spe_infile_read_text(const char *path, size_t max_bytes, size_t max_line, char **text, size_t *len, char *err,
			 size_t errlen)
{
	*text = NULL;
	if (len)
		*len = 0;
	int fd = spe_infile_open(path, err, errlen);
	if (fd < 0)
		return fd;
	struct stat st;
	if (fstat(fd, &st) == 0 && (uint64_t)st.st_size > max_bytes) {
		snprintf(err, errlen, "%s: %llu bytes, more than the %zu a text input may have", path,
			 (unsigned long long)st.st_size, max_bytes);
		close(fd);
		return -spe_bad_file;
	}
	/* The size may change under us (a growing file): read at most one byte past the limit. */
	size_t cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 4096, n = 0;
	char *buf = NULL;
	int rc = 0;
	for (;;) {
		if (n + 1 >= cap || !buf) {
			size_t ncap = buf ? cap * 2 : cap;
			if (ncap > max_bytes + 2)
				ncap = max_bytes + 2;
			char *p = realloc(buf, ncap);
			if (!p) {
				snprintf(err, errlen, "%s: out of memory", path);
				rc = -spe_nomem;
				break;
			}
			buf = p;
			cap = ncap;
		}
		ssize_t got = read(fd, buf + n, cap - 1 - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
			rc = -spe_io;
			break;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (n > max_bytes) {
			snprintf(err, errlen, "%s: more than the %zu bytes a text input may have", path, max_bytes);
			rc = -spe_bad_file;
			break;
		}
	}
	close(fd);
	if (rc == 0 && max_line) {
		size_t line = 1, start = 0;
		for (size_t i = 0; i <= n; i++) {
			if (i < n && buf[i] != '\n')
				continue;
			if (i - start > max_line) {
				snprintf(err, errlen, "%s:%zu: a line of %zu bytes, more than the %zu a line may have", path,
					 line, i - start, max_line);
				rc = -spe_bad_file;
				break;
			}
			line++;
			start = i + 1;
		}
	}
	if (rc) {
		free(buf);
		return rc;
	}
	buf[n] = 0;
	*text = buf;
	if (len)
		*len = n;
	return 0;
}
