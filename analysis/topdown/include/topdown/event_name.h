/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What an event name as perf, toplev or topdown-tool printed it stands for,
 * whatever its PMU prefix and modifiers: "TOPDOWN.SLOTS:u",
 * "cpu_core/slots/", "cpu_core/cycles/u", "cpu_atom/cycles:P/",
 * "armv8_pmuv3_0/cpu_cycles/" and "CPU_CLK_UNHALTED.THREAD" all name slots
 * or cycles.  Internal to the library.
 */
#ifndef TOPDOWN_EVENT_NAME_H
#define TOPDOWN_EVENT_NAME_H

#include <stddef.h>

enum td_event_kind {
	TD_EV_OTHER,
	TD_EV_SLOTS,        /* pipeline slots: TOPDOWN.SLOTS, slots, topdown-total-slots, toplev's SLOTS */
	TD_EV_CYCLES,       /* core cycles: cycles, cpu_cycles, CPU_CLK_UNHALTED.THREAD/.CORE, ls_not_halted_cyc */
	TD_EV_INSTRUCTIONS, /* retired instructions: instructions, INST_RETIRED(.ANY), ex_ret_instr */
};

/*
 * The event itself, lower-cased, without "pmu/.../" and ":mods" (or the
 * "/mods" after the closing slash), into @p out.  Raw term lists
 * ("event=0x3c,umask=0") are kept.  The PMU, when there is one, goes to
 * @p pmu (may be NULL).
 */
void td_event_base(const char *name, char *out, size_t cap, char *pmu, size_t pmu_cap);

enum td_event_kind td_event_kind_of(const char *name);

/*
 * The hybrid Intel PMU an event was counted on ("cpu_core", "cpu_atom",
 * "cpu_lowpower"), or NULL when the name has no such prefix.
 */
const char *td_event_hybrid_pmu(const char *name, size_t len);

/* 1 when the event exists only in AMD Zen's perf event lists (ls_not_halted_cyc, de_src_op_disp, ...). */
int td_event_is_amd(const char *name);

#endif
