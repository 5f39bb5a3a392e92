/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The canonical topdown tree shared by every ISA, tool and importer.
 *
 * Level 1 and the Intel level 2 names follow docs/topdown-formulas.md §4 (Intel's tma_*
 * names without the prefix, which are also Arm's level 1 names).
 * backend_bound_bad_speculation is perf <= 6.3's "backend bound/bad spec"
 * (printed when the CPU has no topdown-recovery-bubbles, docs/topdown-formulas.md §7):
 * the two nodes together, with each alone unknown.  Arm-only
 * nodes keep Arm's own names (docs/topdown-formulas.md §4): N1's cycle accounting and the
 * V3/N3 stage-2 split, whose basis is the parent's stall cycles, not slots.
 *
 * X(IDENT, name, PARENT, level, basis, description)
 *   basis: what the fraction is a fraction of ("slots", "cycles",
 *          "parent_cycles").
 *
 * AMD Zen 4+ (perf's PipelineL1/PipelineL2 groups) share the slot tree: its
 * level 2 names ("backend_bound_memory", "retiring_fastpath", ...) are
 * aliases of the Intel nodes, and smt_contention is AMD's fifth level 1
 * category (dispatch slots given to the other SMT thread), which Intel and
 * Arm fold into the other four.
 */
#ifndef TOPDOWN_NODE_H
#define TOPDOWN_NODE_H

#include <stddef.h>

#define TD_NODE_LIST(X)                                                                                   \
	X(RETIRING, "retiring", NONE, 1, "slots", "slots that retired an operation")                           \
	X(BAD_SPECULATION, "bad_speculation", NONE, 1, "slots", "slots wasted on operations that never retired") \
	X(FRONTEND_BOUND, "frontend_bound", NONE, 1, "slots", "slots the frontend left empty")                 \
	X(BACKEND_BOUND, "backend_bound", NONE, 1, "slots", "slots stalled for backend resources")             \
	X(BACKEND_BOUND_BAD_SPECULATION, "backend_bound_bad_speculation", NONE, 1, "slots", "perf <= 6.3 without recovery bubbles: backend_bound + bad_speculation, not separable") \
	X(SMT_CONTENTION, "smt_contention", NONE, 1, "slots", "AMD: dispatch slots that went to the other SMT thread")      \
	X(HEAVY_OPERATIONS, "heavy_operations", RETIRING, 2, "slots", "retired microcode / multi-uop operations") \
	X(LIGHT_OPERATIONS, "light_operations", RETIRING, 2, "slots", "retired single-uop operations")          \
	X(BRANCH_MISPREDICTS, "branch_mispredicts", BAD_SPECULATION, 2, "slots", "slots lost to mispredicted branches") \
	X(MACHINE_CLEARS, "machine_clears", BAD_SPECULATION, 2, "slots", "slots lost to pipeline clears")      \
	X(FETCH_LATENCY, "fetch_latency", FRONTEND_BOUND, 2, "slots", "frontend bubbles from fetch latency")   \
	X(FETCH_BANDWIDTH, "fetch_bandwidth", FRONTEND_BOUND, 2, "slots", "frontend bubbles from decode bandwidth") \
	X(MEMORY_BOUND, "memory_bound", BACKEND_BOUND, 2, "slots", "backend stalls on the memory hierarchy")    \
	X(CORE_BOUND, "core_bound", BACKEND_BOUND, 2, "slots", "backend stalls on execution resources")         \
	X(FRONTEND_STALLED_CYCLES, "frontend_stalled_cycles", NONE, 1, "cycles", "Arm N1 cycle accounting: STALL_FRONTEND / CPU_CYCLES") \
	X(BACKEND_STALLED_CYCLES, "backend_stalled_cycles", NONE, 1, "cycles", "Arm N1 cycle accounting: STALL_BACKEND / CPU_CYCLES") \
	X(FRONTEND_CORE_BOUND, "frontend_core_bound", FRONTEND_BOUND, 2, "parent_cycles", "Arm V3/N3: frontend stall cycles not waiting on memory") \
	X(FRONTEND_MEM_BOUND, "frontend_mem_bound", FRONTEND_BOUND, 2, "parent_cycles", "Arm V3/N3: frontend stall cycles waiting on memory") \
	X(BACKEND_CORE_BOUND, "backend_core_bound", BACKEND_BOUND, 2, "parent_cycles", "Arm V3/N3: backend stall cycles on core resources") \
	X(BACKEND_MEM_BOUND, "backend_mem_bound", BACKEND_BOUND, 2, "parent_cycles", "Arm V3/N3: backend stall cycles on memory")

enum td_node {
#define TD_NODE_ENUM(id, name, parent, level, basis, desc) TD_##id,
	TD_NODE_LIST(TD_NODE_ENUM)
#undef TD_NODE_ENUM
	TD_NODE_COUNT,
	TD_NONE = -1,
};

/** Canonical name of @p node ("backend_bound"), NULL when out of range. */
const char *td_node_name(enum td_node node);
/** Parent node or TD_NONE. */
enum td_node td_node_parent(enum td_node node);
/** Level in the tree (1, 2), 0 when out of range. */
int td_node_level(enum td_node node);
/** What the fraction is a fraction of: "slots", "cycles" or "parent_cycles". */
const char *td_node_basis(enum td_node node);
const char *td_node_description(enum td_node node);

/**
 * Map a label some tool printed to a canonical node: case-insensitive,
 * spaces and dashes become '_', the "tma_" prefix is dropped, and the known
 * spellings of other eras, tools and vendors are resolved ("bad speculation",
 * "branch mispredict", "Core bound", "retired_fraction", toplev's
 * "Frontend_Latency" and "FE_Latency", AMD's "backend_bound_memory",
 * topdown-tool's titles "Backend Memory Bound").  A toplev path
 * ("Backend_Bound.Memory_Bound") names a level 2 node only: a deeper path or
 * a level 1 node under a parent is TD_NONE, and a few old toplev leaves are
 * recognised only under their parent ("Retiring.Base").
 * Returns TD_NONE for anything else (deeper toplev nodes, "tma_backend_bound_aux").
 */
enum td_node td_node_from_label(const char *label);

/** Same, for a label of @p len bytes (need not be NUL-terminated). */
enum td_node td_node_from_label_n(const char *label, size_t len);

/** 1 when @p label is a spelling only AMD's perf metrics use ("smt_contention", "retiring_fastpath"). */
int td_node_label_is_amd(const char *label, size_t len);

#endif
