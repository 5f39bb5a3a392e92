/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Sideband for processes that already run when recording starts (-p, -a):
 * COMM per thread and MMAP2 per mapping, read from /proc and handed to a
 * session sink as kernel records at time 0 -- as perf record -d synthesizes
 * them -- so their samples can be symbolized and their data addresses
 * attributed.  Mappings without PROT_EXEC carry PERF_RECORD_MISC_MMAP_DATA,
 * as the kernel's own data MMAP2 records do; anonymous ones are named
 * "//anon", [heap] and [stack] keep their names.
 */
#ifndef SPE_PROC_SYNTH_H
#define SPE_PROC_SYNTH_H

#include <stdint.h>
#include <sys/types.h>

#include "spe/session.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Synthesize for @p pid (all threads), or for every process when @p pid is
 * -1.  @p proc_root is normally "/proc".  Trailers use @p sample_type and
 * carry @p id and @p cpu.  Processes that vanish meanwhile are skipped.
 * Returns the number of records written, or the sink's negative error.
 */
int64_t spe_proc_synthesize(const char *proc_root, pid_t pid, uint64_t sample_type, uint64_t id, uint32_t cpu,
			    const struct spe_session_sink *sink);

#ifdef __cplusplus
}
#endif

#endif /* SPE_PROC_SYNTH_H */
