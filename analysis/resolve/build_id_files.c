/* SPDX-License-Identifier: Apache-2.0 */
/* Build-id files and comparison (build_id_files.h). */
#include "build_id_files.h"

#include <elfutils/libdwelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

void ana_bid_of_elf(Elf *elf, char out[BID_HEX_MAX])
{
	const void *bits;
	ssize_t n = elf ? dwelf_elf_gnu_build_id(elf, &bits) : 0;
	out[0] = 0;
	for (ssize_t i = 0; i < n && 2 * i + 2 < BID_HEX_MAX; i++)
		snprintf(out + 2 * i, 3, "%02x", ((const unsigned char *)bits)[i]);
}

int ana_bid_equal(const char *recorded_hex, const char *file_hex)
{
	size_t r = strlen(recorded_hex), f = strlen(file_hex);
	if (!f || r < f || strncasecmp(recorded_hex, file_hex, f) != 0)
		return 0;
	for (size_t i = f; i < r; i++)
		if (recorded_hex[i] != '0')
			return 0;
	return 1;
}

static int add_root(struct bid_roots *r, const char *dir, size_t len)
{
	if (!len)
		return 0;
	char **nd = realloc(r->dir, (r->n + 1) * sizeof *nd);
	if (!nd)
		return -1;
	r->dir = nd;
	if (!(r->dir[r->n] = strndup(dir, len)))
		return -1;
	r->n++;
	return 0;
}

int ana_bid_roots_init(struct bid_roots *r, const char *dirs)
{
	memset(r, 0, sizeof *r);
	for (const char *p = dirs; p && *p;) {
		size_t len = strcspn(p, ":");
		if (add_root(r, p, len) < 0)
			return -1;
		p += len + (p[len] == ':');
	}
	const char *env = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");
	if (env && add_root(r, env, strlen(env)) < 0)
		return -1;
	if (home && *home) {
		char buf[4096];
		int n = snprintf(buf, sizeof buf, "%s/.debug", home);
		if (n > 0 && (size_t)n < sizeof buf && add_root(r, buf, (size_t)n) < 0)
			return -1;
	}
	return 0;
}

void ana_bid_roots_fini(struct bid_roots *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->dir[i]);
	free(r->dir);
	memset(r, 0, sizeof *r);
}

char *ana_bid_cache_file(const char *root, const char *hex, const char *leaf)
{
	char buf[4096];
	struct stat st;
	if (strlen(hex) < 3)
		return NULL;
	int n = snprintf(buf, sizeof buf, "%s/.build-id/%.2s/%s", root, hex, hex + 2);
	if (n < 0 || (size_t)n >= sizeof buf || stat(buf, &st) != 0)
		return NULL;
	if (S_ISREG(st.st_mode)) /* the old layout: the link is the object */
		return strcmp(leaf, "elf") == 0 ? strdup(buf) : NULL;
	if (!S_ISDIR(st.st_mode))
		return NULL;
	size_t len = (size_t)n;
	n = snprintf(buf + len, sizeof buf - len, "/%s", leaf);
	if (n < 0 || (size_t)n >= sizeof buf - len || stat(buf, &st) != 0 || !S_ISREG(st.st_mode))
		return NULL;
	return strdup(buf);
}

char *ana_bid_debug_file(const char *dir, const char *hex)
{
	if (strlen(hex) < 3)
		return NULL;
	size_t n = strlen(dir) + strlen(hex) + 32;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/.build-id/%.2s/%s.debug", dir, hex, hex + 2);
	return p;
}
