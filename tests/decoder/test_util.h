/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers shared by the decoder tests: reading files, collecting dump text. */
#ifndef SPE_TEST_UTIL_H
#define SPE_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spe/spe.h"

/* Read a whole file; returns NULL (and *len = 0) if it cannot be read. */
static inline uint8_t *test_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	*len = 0;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0) {
		long n = ftell(f);
		if (n >= 0 && fseek(f, 0, SEEK_SET) == 0) {
			buf = malloc((size_t)n + 1);
			if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n)
				*len = (size_t)n;
		}
	}
	fclose(f);
	return buf;
}

struct test_text {
	char buf[1 << 16];
	size_t len;
};

static inline int test_text_write(void *ctx, const char *text, size_t len)
{
	struct test_text *t = ctx;
	if (t->len + len >= sizeof t->buf)
		return -spe_nomem;
	memcpy(t->buf + t->len, text, len);
	t->len += len;
	t->buf[t->len] = '\0';
	return 0;
}

/* Dump @p buf with @p dialect into @p out. */
static inline int test_dump(const uint8_t *buf, size_t len, enum spe_dialect dialect, uint32_t midr, struct test_text *out)
{
	struct spe_dump_config cfg = SPE_OPTS(spe_dump_config, .dialect = dialect, .midr = midr,
					      .write = test_text_write, .ctx = out);
	out->len = 0;
	out->buf[0] = '\0';
	return spe_dump_buffer(&cfg, buf, len, NULL);
}

/* Decode all records of @p buf (one chunk); returns the number decoded (max @p max). */
static inline int test_records(const uint8_t *buf, size_t len, struct spe_record *recs, int max, struct spe_rec_stats *st)
{
	struct spe_rec_decoder *dec = spe_rec_alloc_decoder(NULL);
	struct spe_record r;
	int n = 0;
	if (!dec)
		return -1;
	spe_rec_feed(dec, buf, len, 0, 0);
	while (spe_rec_next(dec, &r, sizeof r) == 0)
		if (n < max)
			recs[n++] = r;
	spe_rec_flush(dec);
	while (spe_rec_next(dec, &r, sizeof r) == 0)
		if (n < max)
			recs[n++] = r;
	if (st)
		spe_rec_get_stats(dec, st, sizeof *st);
	spe_rec_free_decoder(dec);
	return n;
}

#endif
