/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: reading the files of a system -- the live one ("/") or a
 * captured tree (spe doctor --root=DIR) -- by their path on that system.
 * Only regular files are read, opened non-blocking, so a FIFO or device
 * planted in a tree cannot hang or feed the reader.
 */
#ifndef SPE_FILTERS_SYSROOT_H
#define SPE_FILTERS_SYSROOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sysroot {
	char dir[4096]; /* "" for the live system, else the tree's directory */
	bool live;
};

/* Absent, unreadable and not-a-regular-file are told apart for the evidence. */
enum { SYSROOT_ABSENT = -1, SYSROOT_DENIED = -2, SYSROOT_NOT_FILE = -3, SYSROOT_ERROR = -4 };

/* "<dir><path>" into @p out; false when it does not fit. */
bool filt_sysroot_path(const struct sysroot *s, const char *path, char *out, size_t len);

/*
 * Read the start of a file as text: at most @p len - 1 bytes, NUL-terminated,
 * one trailing newline removed.  Returns the length or a SYSROOT_* code.
 */
int filt_sysroot_text(const struct sysroot *s, const char *path, char *buf, size_t len);

/* One decimal or 0x number (the whole file).  0, or a SYSROOT_* code (SYSROOT_ERROR: not a number). */
int filt_sysroot_number(const struct sysroot *s, const char *path, long long *out);

/*
 * Read a whole file of at most @p max bytes into a malloc'd buffer
 * (NUL-terminated), decompressing it when @p gzip.  Returns the length or a
 * SYSROOT_* code; *out is NULL on error.
 */
long filt_sysroot_slurp(const struct sysroot *s, const char *path, size_t max, bool gzip, char **out);

/* Does the path exist (a dangling link in a copied tree counts)? */
bool filt_sysroot_exists(const struct sysroot *s, const char *path);

/* A message for a SYSROOT_* code ("absent", "permission denied", ...). */
const char *filt_sysroot_strerror(int code);

#endif
