/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libspe: the spekit decoder library.  This is the one public header; it
 * includes the per-layer headers below, which users should not include on
 * their own.
 *
 * Conventions (see docs/decoder-api.md):
 *  - functions return >= 0 on success and -spe_<code> on failure;
 *    spe_errstr() names a code;
 *  - handles are opaque, created by spe_<layer>_alloc_*, freed by
 *    spe_<layer>_free_* (which accept NULL);
 *  - input structs start with a size field (SPE_OPTS), output structs are
 *    filled up to the size the caller passes; fields are only ever appended;
 *  - the library never prints and never exits.
 */
#ifndef SPE_SPE_H
#define SPE_SPE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define SPE_API __attribute__((visibility("default")))
#else
#define SPE_API
#endif

/** Error codes.  Functions return the negated value. */
enum spe_error_code {
	spe_ok = 0,
	spe_internal,     /* an impossible state: a bug in libspe */
	spe_invalid,      /* bad argument */
	spe_eos,          /* end of stream: not an error */
	spe_need_more,    /* the buffer ends inside a packet */
	spe_bad_packet,   /* the byte is not a valid packet header */
	spe_nomem,        /* out of memory */
	spe_io,           /* read/mmap failed (errno kept by the caller) */
	spe_bad_file,     /* not a perf.data / SPE file, or its structure lies */
	spe_unsupported,  /* well-formed but of a kind libspe does not read */
	spe_truncated,    /* the file ends inside a structure it announced */
	/* Codes of the tools built on libspe (docs/architecture.md, "Errors"). */
	spe_cancelled,    /* stopped by the caller's cancel flag */
	spe_not_found,    /* a named input (file, process, PMU) does not exist */
	spe_no_permission, /* the system refused for lack of privilege */
	spe_unavailable,  /* the system lacks what is needed (SPE, a feature, a CPU model) */
	spe_bad_input,    /* malformed text input (a manifest, perf stat output, SQL) */
	spe_no_data,      /* well-formed input with nothing usable in it */
};

/** A short, static, lower-case description of @p code (negative or not). */
SPE_API const char *spe_errstr(int code);

/*
 * Initialise a size-prefixed options struct:
 *   struct spe_rec_config cfg = SPE_OPTS(spe_rec_config, .midr = 0x410fd0c0);
 */
#define SPE_OPTS(type, ...) ((struct type){ .size = sizeof(struct type), __VA_ARGS__ })

#ifdef __cplusplus
}
#endif

#include "spe/facts.h"
#include "spe/packet.h"
#include "spe/record.h"
#include "spe/perfdata.h"
#include "spe/aux.h"
#include "spe/encoder.h"

#endif /* SPE_SPE_H */
