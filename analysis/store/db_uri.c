/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The read-only URI of a database file, and what a read-only open of one
 * may leave beside it.
 *
 * A database in WAL mode (file format bytes 18 and 19 = 2,
 * https://www.sqlite.org/fileformat2.html#database_header) opened read-only
 * gets -wal and -shm files made beside it when the directory is writable: a
 * report on a database someone sent would write next to it.  With no -wal
 * file there, nothing is waiting to be read from one, so the file is opened
 * immutable (https://www.sqlite.org/uri.html#uriimmutable): SQLite then
 * creates nothing and takes no locks.  A database with a -wal beside it is
 * opened as usual (its writer may be live, its -shm is there).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spe/analysis.h"

static int wal_without_log(const char *path)
{
	unsigned char head[20];
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = pread(fd, head, sizeof head, 0);
	close(fd);
	if (n != (ssize_t)sizeof head || memcmp(head, "SQLite format 3", 16) || (head[18] != 2 && head[19] != 2))
		return 0;
	size_t len = strlen(path);
	char *wal = malloc(len + 5);
	if (!wal)
		return 0;
	memcpy(wal, path, len);
	memcpy(wal + len, "-wal", 5);
	int none = access(wal, F_OK) != 0;
	free(wal);
	return none;
}

char *spe_db_readonly_uri(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(path);
	char *uri = malloc(3 * n + 48), *o = uri;
	if (!uri)
		return NULL;
	o += sprintf(o, "file:%s", path[0] == '/' ? "//" : "");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("-._~/", *p)) {
			*o++ = (char)*p;
		} else {
			*o++ = '%';
			*o++ = hex[*p >> 4];
			*o++ = hex[*p & 15];
		}
	}
	strcpy(o, wal_without_log(path) ? "?mode=ro&immutable=1" : "?mode=ro");
	return uri;
}
