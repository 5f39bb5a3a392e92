/* SPDX-License-Identifier: Apache-2.0 */
/* A binary's separate debug file without libdwfl's implicit debuginfod (debuginfo_find.h). */
#include "debuginfo_find.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* The CRC .gnu_debuglink holds: zlib's CRC-32 of the whole file. */
static uint32_t file_crc(int fd)
{
	unsigned char buf[65536];
	uLong crc = crc32(0, Z_NULL, 0);
	ssize_t n;
	off_t off = 0;
	while ((n = pread(fd, buf, sizeof buf, off)) > 0) {
		crc = crc32(crc, buf, (uInt)n);
		off += n;
	}
	return (uint32_t)crc;
}

/* @p path opened if it is @p hex's debug file (or, without an id, has the debuglink CRC); else -1. */
static int open_checked(const char *path, const char *hex, GElf_Word crc)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int ok = 0;
	if (*hex) {
		Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
		char id[BID_HEX_MAX];
		ana_bid_of_elf(elf && elf_kind(elf) == ELF_K_ELF ? elf : NULL, id);
		ok = ana_bid_equal(hex, id) && strlen(hex) == strlen(id);
		if (elf)
			elf_end(elf);
	} else {
		ok = crc != 0 && file_crc(fd) == crc;
	}
	if (!ok) {
		close(fd);
		return -1;
	}
	return fd;
}

static int try_path(const char *path, const char *hex, GElf_Word crc, char **name)
{
	int fd = open_checked(path, hex, crc);
	if (fd >= 0 && !(*name = strdup(path))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* .gnu_debuglink @p link beside @p file, in its .debug/, and under each debug directory. */
static int by_debuglink(const struct debuginfo_where *w, const char *file, const char *recorded_path, const char *hex,
			const char *link, GElf_Word crc, char **name)
{
	char buf[8192];
	const char *slash = strrchr(file, '/'), *rslash = recorded_path ? strrchr(recorded_path, '/') : NULL;
	int dlen = slash ? (int)(slash - file) : 0, rlen = rslash ? (int)(rslash - recorded_path) : 0;
	const char *dir = slash ? file : ".";
	if (!slash)
		dlen = 1;
	int fd = -1;
	if (snprintf(buf, sizeof buf, "%.*s/%s", dlen, dir, link) < (int)sizeof buf)
		fd = try_path(buf, hex, crc, name);
	if (fd < 0 && snprintf(buf, sizeof buf, "%.*s/.debug/%s", dlen, dir, link) < (int)sizeof buf)
		fd = try_path(buf, hex, crc, name);
	for (const char *p = w->debug_path; fd < 0 && p && *p;) {
		size_t len = strcspn(p, ":");
		if (len && p[0] == '/' && rslash &&
		    snprintf(buf, sizeof buf, "%.*s%.*s/%s", (int)len, p, rlen, recorded_path, link) < (int)sizeof buf)
			fd = try_path(buf, hex, crc, name);
		p += len + (p[len] == ':');
	}
	return fd;
}

int ana_find_debuginfo(const struct debuginfo_where *w, Dwfl_Module *mod, const char *file, const char *recorded_path,
		       const char *hex, const char *debuglink, GElf_Word crc, int alt, char **name)
{
	int fd = dwfl_build_id_find_debuginfo(mod, NULL, NULL, 0, file, debuglink, crc, name);
	if (fd >= 0 || alt)
		return fd;
	*name = NULL;
	for (size_t i = 0; fd < 0 && *hex && i < w->roots->n; i++) {
		char *p = ana_bid_cache_file(w->roots->dir[i], hex, "debug");
		if (p)
			fd = try_path(p, hex, 0, name);
		free(p);
	}
	if (fd < 0 && debuglink && *debuglink)
		fd = by_debuglink(w, file, recorded_path, hex, debuglink, crc, name);
	if (fd < 0 && *hex && w->dbgd) {
		char *fetched = NULL;
		int got = ana_dbgd_fetch(w->dbgd, hex, "debuginfo", recorded_path ? recorded_path : file, &fetched);
		if (got >= 0) {
			close(got);
			fd = try_path(fetched, hex, 0, name);
		}
		free(fetched);
	}
	errno = 0;
	return fd;
}
