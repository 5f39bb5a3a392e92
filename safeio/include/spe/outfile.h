/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Safe output files: nothing a user already has is lost.
 *
 * Every spekit command that writes a file (spe-record's perf.data, the
 * databases of spe-load and spe-topdown, reports, exports) writes it through
 * this helper:
 *
 *   1. spe_outfile_check() validates the target before anything is created,
 *      so a usage error found later cannot have touched the file system;
 *   2. spe_outfile_open() creates a temporary beside the target (O_EXCL,
 *      mode 0666 & ~umask), named
 *
 *          TARGET.TAG.PID.N.tmp          e.g. perf.data.spe-record.4242.0.tmp
 *
 *      and first removes stale temporaries of that same pattern whose owner
 *      process (PID) no longer exists (a writer killed with SIGKILL);
 *   3. the caller writes through spe_outfile_fd(), or opens
 *      spe_outfile_tmp_path() itself (SQLite);
 *   4. spe_outfile_commit() flushes the temporary to disk and renames it over
 *      the target in one step; spe_outfile_abort() removes the temporary and
 *      leaves the target as it was.
 *
 * The target is never truncated, and nothing but the command's own temporary
 * is ever unlinked.  Targets that are not regular files are refused
 * (-spe_invalid: a directory, a socket, a block device, and a FIFO or a
 * character device unless SPE_OUTFILE_STREAM allows them), so "-o /dev/null"
 * can never replace a device node with a regular file.  A symbolic link to a
 * regular file is followed: the file it names is replaced, the link stays.
 *
 * Signals: a command that does not stop cleanly on SIGINT/SIGTERM itself
 * calls spe_outfile_cleanup_on_signals() once; the temporaries still open
 * are then removed before the signal takes its default action.  A command
 * with its own handler calls spe_outfile_remove_temporaries() from it, or
 * (better) winds down and calls spe_outfile_abort().  SIGKILL cannot be
 * caught: its temporary is removed by the next run (step 2).
 *
 * Errors: negative spe_error_code values, with a message naming the file in
 * @p err: -spe_invalid for a target of the wrong kind (a usage error, exit
 * 64), -spe_io for a failed system call (exit 74), -spe_nomem.  Not thread
 * safe: open, commit and abort outputs from one thread.
 */
#ifndef SPE_OUTFILE_H
#define SPE_OUTFILE_H

#include <stddef.h>

#include "spe/spe.h"

#ifdef __cplusplus
extern "C" {
#endif

enum spe_outfile_flags {
	/*
	 * Text output that may go to a stream: "-" (standard output), a
	 * character device (/dev/stdout on a terminal, /dev/null) or a FIFO
	 * with a reader is written directly, without a temporary; so is a
	 * regular file reached through /dev or /proc (/dev/stdout redirected
	 * by the shell), which is appended to as the shell opened it.
	 */
	SPE_OUTFILE_STREAM = 1u << 0,
	/* On commit, an existing target is kept as TARGET.old (perf.data, as perf does). */
	SPE_OUTFILE_KEEP_OLD = 1u << 1,
	/*
	 * The target must not exist: refused by the check, and the commit
	 * fails rather than replace a file another process created meanwhile.
	 */
	SPE_OUTFILE_NO_REPLACE = 1u << 2,
};

struct spe_outfile;

/*
 * Check that @p path can be written with @p flags, creating nothing: its kind
 * (see above), with SPE_OUTFILE_KEEP_OLD that TARGET.old is absent or a
 * regular file, and that the directory exists and is writable.
 * Returns 0, -spe_invalid (wrong kind) or -spe_io (directory missing or not
 * writable), with the reason in @p err.
 */
SPE_API int spe_outfile_check(const char *path, unsigned flags, char *err, size_t errlen);

/*
 * Check @p path, remove stale TARGET.@p tag.PID.N.tmp files of dead owners
 * and create the temporary (or open the stream).  @p tag names the writer
 * ("spe-record", "spe-db"; letters, digits and '-').
 */
SPE_API int spe_outfile_open(const char *path, const char *tag, unsigned flags, struct spe_outfile **out,
			     char *err, size_t errlen);

/* The descriptor to write to (the temporary, or the stream); owned by @p o. */
SPE_API int spe_outfile_fd(const struct spe_outfile *o);
/* The temporary's path, for callers that open it by name; NULL for a stream. */
SPE_API const char *spe_outfile_tmp_path(const struct spe_outfile *o);
/* The target as it will be written (a followed symbolic link resolved). */
SPE_API const char *spe_outfile_path(const struct spe_outfile *o);
/* How many stale temporaries spe_outfile_open() removed. */
SPE_API unsigned spe_outfile_stale_removed(const struct spe_outfile *o);

/*
 * Flush the temporary to disk (fsync) and rename it over the target (after
 * linking an existing target to TARGET.old with SPE_OUTFILE_KEEP_OLD); for a
 * stream, close it.  Close any other handle on the temporary (SQLite) first.
 * On failure the temporary is removed and the target is as it was.  Frees
 * @p o in every case.
 */
SPE_API int spe_outfile_commit(struct spe_outfile *o, char *err, size_t errlen);

/* Remove the temporary (never anything else) and free @p o; NULL is a no-op. */
SPE_API void spe_outfile_abort(struct spe_outfile *o);

/*
 * Async-signal-safe: unlink the temporaries this process has open (those
 * still holding the inode it created), as a signal handler's last act.
 */
SPE_API void spe_outfile_remove_temporaries(void);

/*
 * Install handlers for SIGINT, SIGTERM, SIGHUP and SIGQUIT that remove the
 * temporaries and then let the signal take its default action (the process
 * dies of it, exit status 128+N in a shell).  For commands with no handlers
 * of their own.  Returns 0 or -spe_io.
 */
SPE_API int spe_outfile_cleanup_on_signals(void);

#ifdef __cplusplus
}
#endif

#endif
