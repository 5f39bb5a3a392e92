/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The separate debug file of a binary, for libdwfl's find_debuginfo
 * callback, instead of dwfl_standard_find_debuginfo (which falls back to
 * debuginfod on its own, unbounded, whenever DEBUGINFOD_URLS is set).  In
 * order, the first that is the binary's (the same build-id; without one,
 * the .gnu_debuglink CRC):
 *   1. by build-id in the debug directories of dwfl's debuginfo path
 *      (dwfl_build_id_find_debuginfo: DIR/.build-id/xx/rest.debug);
 *   2. the build-id caches' `debug` files;
 *   3. by .gnu_debuglink: beside the binary, in its .debug/, in each debug
 *      directory under the binary's recorded directory;
 *   4. debuginfod's debuginfo (debuginfod_fetch.h), when enabled.
 * The dwz alternate file (asked for after the debug file), and the debug
 * file asked for again after a failure, only by step 1: no second fetch.
 */
#ifndef SPE_DEBUGINFO_FIND_H
#define SPE_DEBUGINFO_FIND_H

#include <elfutils/libdwfl.h>

#include "build_id_files.h"
#include "debuginfod_fetch.h"

struct debuginfo_where {
	const char *symfs;              /* NULL: none */
	const char *debug_path;         /* dwfl's debuginfo path */
	const struct bid_roots *roots;
	struct dbgd *dbgd;              /* NULL: no debuginfod */
};

/*
 * An fd on the debug file of @p mod (whose file is @p file, mapped as
 * @p recorded_path, build-id @p hex or ""), its name in *@p name; or -1.
 * @p alt: a later call (the dwz alternate file, or the debug file again): step 1 only.
 */
int ana_find_debuginfo(const struct debuginfo_where *w, Dwfl_Module *mod, const char *file, const char *recorded_path,
		       const char *hex, const char *debuglink, GElf_Word crc, int alt, char **name);

#endif
