/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where the files of a build-id are, and whether a file is the one a
 * recording names.  Facts from perf (tools/perf/util/build-id.c, dso.c):
 *
 *   - perf's build-id cache: <root>/.build-id/<2 hex>/<38 hex> is a link to
 *     the directory <root>/<path of the object>/<id>/, which holds `elf`
 *     (the object) and `debug` (its debuginfo); an older layout links
 *     straight to the object.  Roots: perf's --buildid-dir, $PERF_BUILDID_DIR
 *     (perf archive's), $HOME/.debug.  `perf archive` packs the links and
 *     the directories relative to the root: unpacked anywhere, that
 *     directory is a root.
 *   - debuginfo packages: <debug dir>/.build-id/<2 hex>/<38 hex>.debug.
 *   - equality (dso__build_id_equal): the same bytes; an id recorded longer
 *     than the file's (perf pads ids to 20 bytes) matches when its extra
 *     bytes are zero.
 */
#ifndef SPE_BUILD_ID_FILES_H
#define SPE_BUILD_ID_FILES_H

#include <gelf.h>
#include <stddef.h>

#define BID_HEX_MAX 129 /* 64 bytes of id as hex, and the NUL */

/* @p elf's GNU build-id as lowercase hex in @p out; "" when it has none. */
void ana_bid_of_elf(Elf *elf, char out[BID_HEX_MAX]);
/* Is @p file_hex (a file's id) the id @p recorded_hex names?  "" matches nothing. */
int ana_bid_equal(const char *recorded_hex, const char *file_hex);

/* The build-id cache roots to search, in order. */
struct bid_roots {
	char **dir;
	size_t n;
};
/* @p dirs (':'-separated, may be NULL), then $PERF_BUILDID_DIR, then $HOME/.debug.  0 or -1 without memory. */
int ana_bid_roots_init(struct bid_roots *r, const char *dirs);
void ana_bid_roots_fini(struct bid_roots *r);
/*
 * The cache's @p leaf ("elf" or "debug") for id @p hex under @p root, if
 * it exists (an old-style link to a file counts as its "elf"); malloc'd, or
 * NULL.
 */
char *ana_bid_cache_file(const char *root, const char *hex, const char *leaf);
/* <@p dir>/.build-id/<2 hex>/<rest>.debug (malloc'd; NULL without memory or for an id too short). */
char *ana_bid_debug_file(const char *dir, const char *hex);

#endif
