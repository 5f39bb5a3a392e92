/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one table of Arm SPE facts.
 *
 * Every event bit, counter index, address index, op-type word, CPU part and
 * data-source code the project knows is declared here, once, as an X-macro
 * list.  C enums, dump strings, SQL column names, filter-option names and the
 * generated docs (docs/spe-facts.1.md, written by `spe facts --markdown`) all
 * expand these lists; nothing else in the tree may spell these facts again.
 *
 * Sources: Arm ARM (DDI 0487) where it and perf differ; perf's arm-spe packet
 * decoder for the dump words; docs/spe-format.md and docs/filters.md for
 * the version history.  Rows are append-only.
 */
#ifndef SPE_FACTS_H
#define SPE_FACTS_H

/*
 * EVENTS packet bits (same meaning as PMSEVFR_EL1 / PMSNEVFR_EL1 filter bits).
 * X(bit, IDENT, dump_word, column, filter_since, description)
 *   dump_word    : the word perf prints after "EV" (newest perf)
 *   column       : SQL column and filter-option name (snake_case)
 *   filter_since : the SPE version that makes the bit filterable ("" = never)
 * Bits 12-15, 26-31 (before v1.4) and 48-63 are IMPLEMENTATION DEFINED and
 * are not rows: they are kept raw and printed as IMPDEF:n.
 */
#define SPE_EVENT_LIST(X)                                                                                   \
	X(0, EXCEPTION_GEN, "EXCEPTION-GEN", "exception_gen", "", "the operation generated an exception")          \
	X(1, RETIRED, "RETIRED", "retired", "1.0", "the operation was architecturally retired")                   \
	X(2, L1D_ACCESS, "L1D-ACCESS", "l1d_access", "1.4", "load/store accessed the level 1 data cache")          \
	X(3, L1D_REFILL, "L1D-REFILL", "l1d_refill", "1.0", "load/store refilled the level 1 data cache")          \
	X(4, TLB_ACCESS, "TLB-ACCESS", "tlb_access", "1.4", "load/store accessed the data TLB")                    \
	X(5, TLB_WALK, "TLB-REFILL", "tlb_walk", "1.0", "load/store missed the TLB and walked the tables")         \
	X(6, NOT_TAKEN, "NOT-TAKEN", "not_taken", "1.2", "conditional instruction failed its condition")           \
	X(7, MISPREDICTED, "MISPRED", "mispredicted", "1.0", "branch was mispredicted")                             \
	X(8, LLC_ACCESS, "LLC-ACCESS", "llc_access", "1.4", "load/store accessed the last-level cache")            \
	X(9, LLC_MISS, "LLC-REFILL", "llc_miss", "1.4", "load/store missed the last-level cache")                  \
	X(10, REMOTE_ACCESS, "REMOTE-ACCESS", "remote_access", "1.4", "load/store was served by another socket")   \
	X(11, MISALIGNED, "ALIGNMENT", "misaligned", "1.1", "load/store was not aligned to its size")             \
	X(16, TRANSACTIONAL, "TXN", "transactional", "tme", "operation ran inside a TME transaction")              \
	X(17, SVE_PARTIAL_PRED, "SVE-PARTIAL-PRED", "sve_partial_pred", "1.1", "SVE/SME predicate not all true")   \
	X(18, SVE_EMPTY_PRED, "SVE-EMPTY-PRED", "sve_empty_pred", "1.1", "SVE/SME predicate all false")            \
	X(19, L2D_ACCESS, "L2D-ACCESS", "l2d_access", "1.4", "load/store accessed the level 2 data cache")          \
	X(20, L2D_MISS, "L2D-MISS", "l2d_miss", "1.4", "load/store missed the level 2 data cache")                 \
	X(21, CACHE_DATA_MODIFIED, "HITM", "cache_data_modified", "1.4", "data came from a line another agent modified") \
	X(22, RECENTLY_FETCHED, "LFB", "recently_fetched", "1.4", "data was already being fetched (fill buffer hit)") \
	X(23, DATA_SNOOPED, "SNOOPED", "data_snooped", "1.4", "data was obtained by snooping another cache")        \
	X(24, STREAMING_SVE, "STREAMING-SVE", "streaming_sve", "sme", "operation ran in Streaming SVE mode")        \
	X(25, SMCU, "SMCU", "smcu", "sme", "operation was executed by an SME compute unit")

/*
 * COUNTER packet indices.  X(index, IDENT, dump_word, column, description)
 * Other indices (3-31) are kept with their raw value and printed "LAT n ".
 */
#define SPE_COUNTER_LIST(X)                                                                 \
	X(0, TOTAL, "TOT", "total_latency", "cycles from dispatch to completion")               \
	X(1, ISSUE, "ISSUE", "issue_latency", "cycles from dispatch to issue")                  \
	X(2, TRANSLATION, "XLAT", "translation_latency", "cycles spent translating the address")

/*
 * ADDRESS packet indices.  X(index, IDENT, dump_word, column, description)
 * Other indices (5-31) are kept raw and printed "ADDR 0x... (n)".
 */
#define SPE_ADDRESS_LIST(X)                                                                  \
	X(0, PC, "PC", "pc", "virtual address of the sampled instruction")                      \
	X(1, BRANCH_TARGET, "TGT", "branch_target", "virtual address of the branch target")     \
	X(2, DATA_VA, "VA", "data_va", "virtual address of the data accessed")                  \
	X(3, DATA_PA, "PA", "data_pa", "physical address of the data accessed")                 \
	X(4, PREV_BRANCH_TARGET, "PBT", "prev_branch_target", "target of the previous taken branch (FEAT_SPE_PBT)")

/* CONTEXT packet indices.  X(index, IDENT, dump_word, description) */
#define SPE_CONTEXT_LIST(X)                             \
	X(0, EL1, "el1", "CONTEXTIDR_EL1")                  \
	X(1, EL2, "el2", "CONTEXTIDR_EL2")

/*
 * Operation-type words.  Every flag the op-type decoder can set, in the order
 * the newest perf prints them.  X(IDENT, dump_word, description)
 * The decoder (decoder/src/op_type.c) maps payload bits to these flags; the
 * SQL `op` column is the dump text built from these words.
 */
#define SPE_OP_FLAG_LIST(X)                                                 \
	X(LOAD, "LD", "load")                                                   \
	X(STORE, "ST", "store")                                                 \
	X(ATOMIC, "AT", "atomic")                                               \
	X(EXCLUSIVE, "EXCL", "exclusive")                                       \
	X(ACQ_REL, "AR", "acquire/release")                                     \
	X(SIMD_FP, "SIMD-FP", "SIMD&FP register load/store")                    \
	X(GP_REG, "GP-REG", "general-purpose register load/store")              \
	X(UNSPEC_REG, "UNSPEC-REG", "unspecified register load/store")          \
	X(NV_SYSREG, "NV-SYSREG", "nested-virtualisation system register")      \
	X(MTE_TAG, "MTE-TAG", "MTE allocation tag load/store")                  \
	X(MEMCPY, "MEMCPY", "CPYx memory copy")                                 \
	X(MEMSET, "MEMSET", "SETx memory set")                                  \
	X(SVE_SME_REG, "SVE-SME-REG", "SVE or SME register load/store")         \
	X(GCS, "GCS", "Guarded Control Stack access")                           \
	X(GCS_COMM, "COMM", "common GCS access (not push/pop)")                 \
	X(PREDICATED, "PRED", "predicated SVE/SME operation")                   \
	X(SCATTER_GATHER, "SG", "SVE gather load or scatter store")             \
	X(SVE_OTHER, "SVE-OTHER", "SVE data processing")                        \
	X(SME_OTHER, "SME-OTHER", "SME data processing")                        \
	X(ASE, "ASE", "Advanced SIMD data processing")                          \
	X(FP, "FP", "floating point")                                           \
	X(COND_SELECT, "COND-SELECT", "conditional select or compare")          \
	X(INSN_OTHER, "INSN-OTHER", "other instruction")                        \
	X(BR_COND, "COND", "conditional branch")                                \
	X(BR_INDIRECT, "IND", "indirect branch")                                \
	X(BR_GCS, "GCS", "branch with Guarded Control Stack effect")            \
	X(CR_BL, "CR-BL", "call-return hint: branch with link")                 \
	X(CR_RET, "CR-RET", "call-return hint: procedure return")               \
	X(CR_NON_BL_RET, "CR-NON-BL-RET", "call-return hint: neither")

/*
 * Operation classes as stored in SQL (`op_class`).  X(IDENT, name)
 */
#define SPE_OP_CLASS_LIST(X)  \
	X(OTHER, "other")         \
	X(LOAD, "load")           \
	X(STORE, "store")         \
	X(BRANCH, "branch")       \
	X(UNKNOWN, "unknown")

/*
 * Memory levels that data-source codes map to (SQL `mem_level`).
 * X(IDENT, name, peer, description)
 *   peer : 1 when the data came from another core's, cluster's or socket's
 *          cache (perf marks these snoopx PEER; c2c-style views count them)
 */
#define SPE_MEM_LEVEL_LIST(X)                                                 \
	X(L1D, "L1D", 0, "level 1 data cache")                                   \
	X(L2, "L2", 0, "level 2 cache of this core")                             \
	X(PEER_CORE, "peer-core", 1, "another core's private cache")             \
	X(LOCAL_CLUSTER, "local-cluster", 1, "a cache shared within the cluster") \
	X(SLC, "SLC", 0, "system-level cache")                                   \
	X(PEER_CLUSTER, "peer-cluster", 1, "another cluster's cache")            \
	X(REMOTE, "remote", 1, "another socket or chip")                         \
	X(DRAM, "DRAM", 0, "local memory")                                       \
	X(REMOTE_DRAM, "remote-DRAM", 0, "memory of another socket")             \
	X(IO, "IO", 0, "non-coherent device")

/*
 * Memory levels on another socket or chip: the loads that are NUMA-remote
 * when a capture has no physical addresses to place on nodes.  X(LEVEL)
 */
#define SPE_MEM_LEVEL_REMOTE_LIST(X) \
	X(REMOTE)                    \
	X(REMOTE_DRAM)

/*
 * Data-source encodings.  A CPU part names one of these maps; a code missing
 * from its map has no level (NULL in SQL, raw value kept).
 * X(MAP, code, LEVEL, modified)  -- modified: line was dirty in the source (HITM)
 */
#define SPE_DATA_SOURCE_LIST(X)                     \
	X(COMMON, 0x0, L1D, 0)                          \
	X(COMMON, 0x8, L2, 0)                           \
	X(COMMON, 0x9, PEER_CORE, 0)                    \
	X(COMMON, 0xA, LOCAL_CLUSTER, 0)                \
	X(COMMON, 0xB, SLC, 0)                          \
	X(COMMON, 0xC, PEER_CLUSTER, 0)                 \
	X(COMMON, 0xD, REMOTE, 0)                       \
	X(COMMON, 0xE, DRAM, 0)                         \
	X(AMPEREONE, 0x0, PEER_CORE, 0)                 \
	X(AMPEREONE, 0x3, SLC, 0)                       \
	X(AMPEREONE, 0x5, REMOTE, 0)                    \
	X(AMPEREONE, 0x7, DRAM, 0)                      \
	X(AMPEREONE, 0x8, L1D, 0)                       \
	X(AMPEREONE, 0x9, L2, 0)                        \
	X(HISI_HIP, 0, PEER_CORE, 0)                    \
	X(HISI_HIP, 1, PEER_CORE, 1)                    \
	X(HISI_HIP, 2, SLC, 0)                          \
	X(HISI_HIP, 3, SLC, 1)                          \
	X(HISI_HIP, 4, PEER_CLUSTER, 0)                 \
	X(HISI_HIP, 5, PEER_CLUSTER, 1)                 \
	X(HISI_HIP, 6, REMOTE, 0)                       \
	X(HISI_HIP, 7, REMOTE, 1)                       \
	X(HISI_HIP, 8, DRAM, 0)                         \
	X(HISI_HIP, 9, REMOTE_DRAM, 0)                  \
	X(HISI_HIP, 13, IO, 0)                          \
	X(HISI_HIP, 16, L2, 0)                          \
	X(HISI_HIP, 17, L2, 1)                          \
	X(HISI_HIP, 18, L1D, 0)

/*
 * CPU parts.  X(implementer, part, name, spe_version, ds_map)
 *   name        : profile name for --cpu= (lower-case, as users type it)
 *   spe_version : FEAT_SPE version the part implements ("1.0" .. "1.5", "" = none/unknown)
 *   ds_map      : data-source map (COMMON, AMPEREONE, HISI_HIP, NONE)
 * MIDR matching uses implementer [31:24] and part number [15:4] only.
 */
#define SPE_CPU_LIST(X)                                              \
	X(0x41, 0xD0C, "neoverse-n1", "1.1", COMMON)                     \
	X(0x41, 0xD40, "neoverse-v1", "1.1", COMMON)                     \
	X(0x41, 0xD49, "neoverse-n2", "1.2", COMMON)                     \
	X(0x41, 0xD4F, "neoverse-v2", "1.2", COMMON)                     \
	X(0x41, 0xD8E, "neoverse-n3", "1.3", COMMON)                     \
	X(0x41, 0xD84, "neoverse-v3", "1.3", COMMON)                     \
	X(0x41, 0xD83, "neoverse-v3ae", "1.3", COMMON)                   \
	X(0x41, 0xD81, "cortex-a720", "1.3", COMMON)                     \
	X(0x41, 0xD87, "cortex-a725", "1.3", COMMON)                     \
	X(0x41, 0xD89, "cortex-a720ae", "1.3", COMMON)                   \
	X(0x41, 0xD4C, "cortex-x1c", "1.1", COMMON)                      \
	X(0x41, 0xD4E, "cortex-x3", "1.2", COMMON)                       \
	X(0x41, 0xD85, "cortex-x925", "1.3", COMMON)                     \
	X(0xC0, 0xAC3, "ampereone", "1.2", NONE)                         \
	X(0xC0, 0xAC4, "ampereone-a", "1.2", AMPEREONE)                  \
	X(0x48, 0xD06, "hisilicon-hip12", "1.2", HISI_HIP)

/*
 * IMPLEMENTATION DEFINED event bits that a CPU part gives a name.
 * X(implementer, part, bit, dump_word, column, description)
 * Newest perf prints the word only when the trace's MIDR is that part;
 * everywhere else the bit is printed as IMPDEF:n.
 */
#define SPE_IMPDEF_EVENT_LIST(X)                                                                      \
	X(0x41, 0xD0C, 12, "LATE-PREFETCH", "late_prefetch", "prefetch was too late (Neoverse N1)")

/*
 * Fixed words of the `perf report -D` packet text that are not named by the
 * lists above.  X(IDENT, word)
 */
#define SPE_DUMP_WORD_LIST(X)          \
	X(PAD, "PAD")                      \
	X(END, "END")                      \
	X(TIMESTAMP, "TS")                 \
	X(EVENTS, "EV")                    \
	X(IMPDEF, "IMPDEF")                \
	X(DATA_SOURCE, "DATA-SOURCE")      \
	X(CONTEXT, "CONTEXT")              \
	X(COUNTER, "LAT")                  \
	X(ADDRESS_OTHER, "ADDR")           \
	X(OP_OTHER, "OTHER")               \
	X(OP_BRANCH, "B")                  \
	X(OP_UNKNOWN, "OP-TYPE")           \
	X(EVLEN, "EVLEN")                  \
	X(ETS, "ETS")                      \
	X(UNKNOWN, "UNKNOWN")              \
	X(BAD, "Bad packet!")

#endif /* SPE_FACTS_H */
