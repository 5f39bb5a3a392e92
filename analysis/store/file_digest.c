/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A capture's identity in a database (SQLite's and ClickHouse's source
 * table, column digest): its size and a 128-bit hash of its bytes.  Loading
 * the same file again -- from any host, under any name -- gives the same
 * digest, so a reload is recognised (refused, or replacing the first) and
 * never counted twice.  Not a cryptographic hash: it tells copies apart from
 * different captures, nothing more.  XXH3-128 (libxxhash, the hash of
 * https://github.com/Cyan4973/xxHash), read in blocks of 1 MiB.
 *
 * The first digest, "SIZE-HASH" without the algorithm's name, was a hash
 * of spekit's own (two 64-bit multiply-rotate lanes over 16-byte steps); it
 * is kept to recognise the captures of databases written then, and
 * computed only for those (the sinks' check_loaded).
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xxhash.h>

#include "ana/file_digest.h"
#include "spe/infile.h"
#include "spe/spe.h"

enum { BLOCK = 1 << 20 };

/* Read @p path block by block, each to @p take (@p ctx); the size in *@p total.  0, or -spe_io/-spe_nomem. */
static int read_blocks(const char *path, void (*take)(void *ctx, const unsigned char *p, size_t n), void *ctx,
		       uint64_t *total, char *err, size_t errlen)
{
	int fd = spe_infile_open(path, err, errlen); /* a FIFO or a device named by a database is refused, not waited on */
	if (fd < 0)
		return fd == -spe_unsupported ? -spe_io : fd;
	unsigned char *buf = malloc(BLOCK);
	if (!buf) {
		close(fd);
		snprintf(err, errlen, "out of memory");
		return -spe_nomem;
	}
	int rc = 0;
	*total = 0;
	for (;;) {
		ssize_t n = read(fd, buf, BLOCK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			rc = -spe_io;
			break;
		}
		if (n == 0)
			break;
		*total += (uint64_t)n;
		take(ctx, buf, (size_t)n);
	}
	close(fd);
	free(buf);
	return rc;
}

static void xxh3_take(void *ctx, const unsigned char *p, size_t n)
{
	XXH3_128bits_update(ctx, p, n);
}

int ana_file_digest(const char *path, char *out, size_t size, char *err, size_t errlen)
{
	XXH3_state_t *state = XXH3_createState();
	if (!state || XXH3_128bits_reset(state) != XXH_OK) {
		XXH3_freeState(state);
		snprintf(err, errlen, "out of memory");
		return -spe_nomem;
	}
	uint64_t total;
	int rc = read_blocks(path, xxh3_take, state, &total, err, errlen);
	if (rc == 0) {
		XXH128_hash_t h = XXH3_128bits_digest(state);
		snprintf(out, size, "xxh3-%llu-%016llx%016llx", (unsigned long long)total, (unsigned long long)h.high64,
			 (unsigned long long)h.low64);
	}
	XXH3_freeState(state);
	return rc;
}

int ana_file_digest_is_first(const char *digest)
{
	return strncmp(digest, "xxh3-", 5) != 0;
}

/* ---- the first digest ------------------------------------------------------- */

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

struct first {
	uint64_t h1, h2;
	unsigned char carry[16]; /* bytes carried to the next block (less than 16) */
	size_t have;
};

static void first_take(void *ctx, const unsigned char *p, size_t n)
{
	struct first *f = ctx;
	while (f->have && n) { /* complete the carried step */
		f->carry[f->have++] = *p++;
		n--;
		if (f->have == 16) {
			f->h1 = lane(f->h1, load64(f->carry));
			f->h2 = lane(f->h2, load64(f->carry + 8));
			f->have = 0;
		}
	}
	for (; n >= 16; p += 16, n -= 16) {
		f->h1 = lane(f->h1, load64(p));
		f->h2 = lane(f->h2, load64(p + 8));
	}
	memcpy(f->carry + f->have, p, n);
	f->have += n;
}

int ana_file_digest_first(const char *path, char *out, size_t size, char *err, size_t errlen)
{
	struct first f = { .h1 = P1, .h2 = P3 };
	uint64_t total;
	int rc = read_blocks(path, first_take, &f, &total, err, errlen);
	if (rc == 0) {
		unsigned char tail[16] = { 0 };
		memcpy(tail, f.carry, f.have);
		uint64_t h1 = fmix(lane(f.h1, load64(tail)) ^ total);
		uint64_t h2 = fmix(lane(f.h2, load64(tail + 8)) ^ (total * P2) ^ h1);
		snprintf(out, size, "%llu-%016llx%016llx", (unsigned long long)total, (unsigned long long)h1,
			 (unsigned long long)h2);
	}
	return rc;
}
