/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Hardware event names for the formulas: Intel events in libpmc syntax
 * ("UOPS_ISSUED.ANY,cmask=1,inv") and perf syntax
 * ("cpu/event=0x0e,umask=0x01,cmask=1,inv/", "event=0x0e,umask=0x01",
 * "r01c2"), Arm PMUv3 events by name or code ("STALL_SLOT_BACKEND",
 * "stall_slot_backend", "armv8_pmuv3_0/event=0x3d/", "r3d").
 *
 * Intel names resolve through the Westmere table generated from
 * pmc.westmere(3) and a short table of the Sandy Bridge..Skylake topdown
 * events (docs/topdown-formulas.md §2); two spellings are the same event when their
 * encodings are equal.
 */
#ifndef TOPDOWN_EVENT_TABLE_H
#define TOPDOWN_EVENT_TABLE_H

#include <stddef.h>
#include <stdint.h>

enum td_isa { TD_ISA_UNKNOWN, TD_ISA_X86, TD_ISA_ARM };

/** An event encoding.  Intel: the IA32_PERFEVTSELx fields; Arm: code only. */
struct td_event_code {
	enum td_isa isa;
	uint16_t event;
	uint8_t umask, cmask;
	uint8_t inv, edge, any;
};

/**
 * perf's raw config for an Intel code (docs/topdown-formulas.md §5: event 0-7, umask
 * 8-15, edge 18, any 21, inv 23, cmask 24-31), or the Arm event number.
 */
uint64_t td_event_config(const struct td_event_code *code);

/**
 * Resolve @p spec for @p isa.  On success fills @p code and, when a table
 * entry has that encoding, copies its name into @p canon (otherwise the
 * spec itself).  Returns 0, -spe_invalid for a malformed spec, or
 * -spe_unavailable for a name no table knows.
 */
int td_event_resolve(const char *spec, enum td_isa isa, struct td_event_code *code,
		     char *canon, size_t canon_len);

/** Equal encodings (the same counter programming). */
int td_event_code_equal(const struct td_event_code *a, const struct td_event_code *b);

/** Number of rows in the generated Westmere table (for tests). */
size_t td_westmere_event_count(void);

#endif
