/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A capture's identity in a database (SQLite's and ClickHouse's source
 * table, column digest): its size and a 128-bit hash of its bytes.  Loading
 * the same file again -- from any host, under any name -- gives the same
 * digest, so a reload is recognised (refused, or replacing the first) and
 * never counted twice.  Not a cryptographic
 * hash: it tells copies apart from different captures, nothing more; two
 * 64-bit multiply-rotate lanes over 16-byte steps read at memory speed.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ana/file_digest.h"
#include "spe/spe.h"

#define P1 0x9e3779b185ebca87ull
#define P2 0xc2b2ae3d27d4eb4full
#define P3 0x165667b19e3779f9ull

static inline uint64_t rotl(uint64_t x, int r)
{
	return x << r | x >> (64 - r);
}

static inline uint64_t lane(uint64_t h, uint64_t w)
{
	return rotl(h ^ (w * P2), 31) * P1;
}

static inline uint64_t load64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return le64toh(v); /* the same digest on every host */
}

static uint64_t fmix(uint64_t h)
{
	h ^= h >> 33;
	h *= P2;
	h ^= h >> 29;
	h *= P3;
	h ^= h >> 32;
	return h;
}

int ana_file_digest(const char *path, char *out, size_t size, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -spe_io;
	}
	enum { BLOCK = 1 << 20 };
	unsigned char *buf = malloc(BLOCK + 16);
	if (!buf) {
		close(fd);
		snprintf(err, errlen, "out of memory");
		return -spe_nomem;
	}
	uint64_t h1 = P1, h2 = P3, total = 0;
	size_t have = 0; /* bytes carried to the next block (less than 16) */
	int rc = 0;
	for (;;) {
		ssize_t n = read(fd, buf + have, BLOCK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			rc = -spe_io;
			break;
		}
		total += (uint64_t)n;
		have += (size_t)n;
		size_t i = 0;
		for (; i + 16 <= have; i += 16) {
			h1 = lane(h1, load64(buf + i));
			h2 = lane(h2, load64(buf + i + 8));
		}
		memmove(buf, buf + i, have - i);
		have -= i;
		if (n == 0)
			break;
	}
	close(fd);
	if (rc == 0) {
		unsigned char tail[16] = { 0 };
		memcpy(tail, buf, have);
		h1 = fmix(lane(h1, load64(tail)) ^ total);
		h2 = fmix(lane(h2, load64(tail + 8)) ^ (total * P2) ^ h1);
		snprintf(out, size, "%llu-%016llx%016llx", (unsigned long long)total, (unsigned long long)h1,
			 (unsigned long long)h2);
	}
	free(buf);
	return rc;
}
