/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The tables of a spekit database, each described once (docs/schema.md).
 *
 * From these lists come: the row structs the loader fills (struct
 * spe_row_<table>), the tables' descriptions as data (struct spe_column,
 * spe_table_info(): analysis/store/tables.c), and from those the SQLite
 * CREATE TABLE and INSERT statements (analysis/store/schema.c,
 * sink_sqlite.c), the ClickHouse tables and RowBinary rows
 * (analysis/clickhouse/src/ch_schema.c, ch_sink.c), the asynchronous sink's
 * copies of a row's strings and arrays (analysis/store/sink_async.c), the
 * check of an existing database's columns (schema.c) and the column tables
 * of docs/schema.md (tests/analysis/schema_doc.c; a test keeps them equal).
 *
 * A column is one line C(table, name, kind, null, sql, doc):
 *   kind  its C type in the row (SPE_FIELD_<kind> below): I64, U64, I32, U32,
 *         INT (int), TEXT (const char *), BYTES (pointer and n_<name>),
 *         IDS (n_<name> int64_t ids: SQLite a JSON array, NULL when empty;
 *         ClickHouse Array(Int64)), HIST (a latency histogram: n, latency[],
 *         samples[]; SQLite a JSON object), FLAG (an int that is no column:
 *         another column's IF(flag) names it);
 *   null  when the value is SQL NULL: NEVER, ZERO (0), NEG (below 0),
 *         NO_TIME (SPE_ROW_NO_TIME), IF(f) (unless field f, a flag or a
 *         count of the row, is non-zero); a NULL pointer is always NULL;
 *   sql   the SQLite type and constraints (ClickHouse's type follows from it:
 *         ch_schema.c), NULL for a FLAG;
 *   doc   its meaning, docs/schema.md's text.
 * Adding a column is one line here (appended to its table: databases of
 * this schema version written before get it with ALTER TABLE at their next
 * --append, so a NOT NULL column needs a DEFAULT), its value where the loader
 * fills the row, and the queries that read it.  Adding a table: docs/
 * architecture.md, "Where to add".
 */
#ifndef SPE_TABLES_H
#define SPE_TABLES_H

#include <stddef.h>
#include <stdint.h>

#include "spe/facts.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A time of SPE_ROW_NO_TIME is SQL NULL (null rule NO_TIME). */
#define SPE_ROW_NO_TIME UINT64_MAX

#define SPE_SOURCE_REF "INTEGER NOT NULL REFERENCES source(id)"

/*
 * The tables the loader writes through a row sink (spe/row_sink.h), in
 * enum spe_table's order: T(name, NAME, flags, key, ch_order_by, title).
 * flags: SPE_TABLE_QUEUED (many rows: the asynchronous sink copies them into
 * its batches for the writer thread; the others are stored on the caller's
 * thread once the queue is empty), SPE_TABLE_REPLACE (a row replaces the one
 * with the same key: INSERT OR REPLACE; ClickHouse keeps the last),
 * SPE_TABLE_SQLITE_ONLY (no ClickHouse table).  key: the SQLite PRIMARY
 * KEY of a WITHOUT ROWID table, NULL for a rowid table.  ch_order_by:
 * ClickHouse's sort key (ch_schema.c says why each).  The record table,
 * _spe_record, comes last (SPE_TABLE_RECORD, its columns SPE_RECORD_COLUMNS).
 */
#define SPE_TABLES(T)                                                                                             \
	T(source, SOURCE, 0, NULL, "id", "one row per loaded input file")                                         \
	T(cpu, CPU, 0, "source_id, cpu", "(source_id, cpu)", "CPUs whose trace was loaded")                       \
	T(thread, THREAD, SPE_TABLE_REPLACE, "source_id, tid", "(source_id, tid)", "the threads of each source")  \
	T(thread_comm, THREAD_COMM, SPE_TABLE_REPLACE, "source_id, tid, time", "(source_id, tid, time)",          \
	  "every name each thread had, from when")                                                                \
	T(mapping, MAPPING, 0, NULL, "(source_id, id)",                                                           \
	  "MMAP2 mappings: executable ones, data ones (perf record -d, spe-record), and the kernel's")            \
	T(symbol, SYMBOL, SPE_TABLE_QUEUED, NULL, "(source_id, id)", "functions that sampled PCs fall in")        \
	T(insn, INSN, SPE_TABLE_QUEUED, NULL, "(source_id, id)",                                                  \
	  "one row per distinct sampled PC per mapping (per address space)")                                      \
	T(data_object, DATA_OBJECT, SPE_TABLE_QUEUED, NULL, "(source_id, id)", "what data addresses point into")  \
	T(numa_node, NUMA_NODE, SPE_TABLE_REPLACE, "source_id, node", "(source_id, node)",                        \
	  "the capture's NUMA nodes")                                                                             \
	T(numa_cpu, NUMA_CPU, SPE_TABLE_REPLACE, "source_id, cpu", "(source_id, cpu)",                            \
	  "one row per CPU of a NUMA node's list")                                                                \
	T(numa_memory, NUMA_MEMORY, 0, NULL, "(source_id, start)", "the physical memory of each NUMA node")       \
	T(time_conv, TIME_CONV, SPE_TABLE_REPLACE | SPE_TABLE_SQLITE_ONLY, NULL, NULL,                            \
	  "each source's `PERF_RECORD_TIME_CONV`, from which the `spe_record` view computes `time`")              \
	T(pc_histogram, PC_HISTOGRAM, SPE_TABLE_QUEUED, NULL, "(source_id, assumeNotNull(pc))",                   \
	  "each PC's latency histogram, per source")                                                              \
	T(load_stats, LOAD_STATS, 0, NULL, "source_id", "one row per source: what the load saw")                  \
	T(mem_level_stat, MEM_LEVEL_STAT, SPE_TABLE_QUEUED, NULL, "source_id",                                    \
	  "loads by memory level, per source")                                                                    \
	T(latency_bucket, LATENCY_BUCKET, SPE_TABLE_QUEUED, NULL, "(source_id, latency_lo)",                      \
	  "records with a total latency by op class and log2 bucket, per source")                                 \
	T(branch_stat, BRANCH_STAT, SPE_TABLE_QUEUED, NULL, "(source_id, assumeNotNull(pc))",                     \
	  "branches by PC, per source")                                                                           \
	T(page_stat, PAGE_STAT, SPE_TABLE_QUEUED, NULL, "(source_id, page)",                                      \
	  "records with a data address by process and 4 KiB page, per source (the pages past the load's "         \
	  "page budget have none: `load_stats.pages_unlisted`)")                                    \
	T(numa_stat, NUMA_STAT, SPE_TABLE_QUEUED, NULL, "source_id",                                              \
	  "loads with a data address by CPU and where their data was, per source")                                \
	T(prefetch_stat, PREFETCH_STAT, SPE_TABLE_QUEUED, NULL, "(source_id, assumeNotNull(pc))",                 \
	  "loads by PC and data object with the prefetch events, per source")                                     \
	T(cacheline_stat, CACHELINE_STAT, SPE_TABLE_QUEUED, NULL, "(source_id, line)",                            \
	  "the shared cache lines of each source (those `cacheline_sharing` shows)")                              \
	T(page_region_stat, PAGE_REGION_STAT, SPE_TABLE_QUEUED | SPE_TABLE_SQLITE_ONLY, NULL, NULL,               \
	  "records with a data address by process and 2 MiB region, per source: `page_stat` added up, and the "  \
	  "pages past the page budget")                                       \
	T(level_latency_bucket, LEVEL_LATENCY_BUCKET, SPE_TABLE_QUEUED | SPE_TABLE_SQLITE_ONLY, NULL, NULL,       \
	  "loads with a total latency by memory level and log2 bucket, per source")                               \
	T(data_object_stat, DATA_OBJECT_STAT, SPE_TABLE_QUEUED | SPE_TABLE_SQLITE_ONLY, NULL, NULL,               \
	  "records by data object, per source: hot_data_object's counts and p99")                                 \
	T(data_object_level, DATA_OBJECT_LEVEL, SPE_TABLE_QUEUED | SPE_TABLE_SQLITE_ONLY, NULL, NULL,             \
	  "loads by data object and memory level, per source")                                                    \
	T(pc_level_stat, PC_LEVEL_STAT, SPE_TABLE_QUEUED | SPE_TABLE_SQLITE_ONLY, NULL, NULL,                     \
	  "loads by function, PC and memory level, per source: a row per function")

#define SPE_TABLE_QUEUED 1u
#define SPE_TABLE_REPLACE 2u
#define SPE_TABLE_SQLITE_ONLY 4u
#define SPE_TABLE_WITHOUT_ROWID 8u /* the store tables' flag (meta: a column PRIMARY KEY) */
#define SPE_TABLE_REBUILT 16u /* a store table each load empties and fills again: --append remakes it when its columns changed */

/* ---- the columns of each ------------------------------------------------------ */

#define SPE_COLUMNS_source(C)                                                                                    \
	C(source, id, I64, NEVER, "INTEGER PRIMARY KEY", "source id")                                            \
	C(source, file, TEXT, NEVER, "TEXT NOT NULL", "path as given to `spe-load`")                             \
	C(source, kind, TEXT, NEVER, "TEXT NOT NULL", "`perf.data` or `raw`")                                    \
	C(source, host, TEXT, NEVER, "TEXT", "`HEADER_HOSTNAME`, or NULL")                                       \
	C(source, command_line, TEXT, NEVER, "TEXT", "`HEADER_CMDLINE`, or NULL")                                \
	C(source, cpus, I32, NEG, "INTEGER", "`HEADER_NRCPUS`, or NULL")                                         \
	C(source, loaded_at, TEXT, NEVER, "TEXT NOT NULL", "UTC time of the load, ISO 8601")                     \
	C(source, digest, TEXT, NEVER, "TEXT",                                                                   \
	  "the file's identity: `xxh3-SIZE-HASH`, its size in bytes and the XXH3-128 of its bytes (hex, as "    \
	  "`xxhsum -H2` prints it; analysis/store/file_digest.c, the same in ClickHouse).  A copy under another " \
	  "name has the same digest; `spe-load` refuses to load a file twice (`--replace` replaces the earlier " \
	  "source).  Sources loaded before spekit used XXH3 hold `SIZE-HASH` of an earlier hash, which "        \
	  "`spe-load` computes too for such a database, so their files are still recognised.  NULL for "       \
	  "sources not loaded from a file")

#define SPE_COLUMNS_cpu(C)                                                                                       \
	C(cpu, source_id, I64, NEVER, SPE_SOURCE_REF, "the source")                                              \
	C(cpu, cpu, I32, NEVER, "INTEGER NOT NULL", "CPU number")                                                \
	C(cpu, midr, U32, ZERO, "INTEGER", "MIDR_EL1 used to decode that CPU's data sources, NULL if unknown")   \
	C(cpu, part, TEXT, NEVER, "TEXT", "part name from the facts table (`neoverse-n1`, ...), NULL if unknown") \
	C(cpu, spe_version, TEXT, NEVER, "TEXT", "SPE version of the part, NULL if unknown")

#define SPE_COLUMNS_thread(C)                                                      \
	C(thread, source_id, I64, NEVER, SPE_SOURCE_REF, "the source")             \
	C(thread, tid, I32, NEVER, "INTEGER NOT NULL", "thread id")                \
	C(thread, pid, I32, NEG, "INTEGER", "process id (from COMM), NULL when unknown") \
	C(thread, comm, TEXT, NEVER, "TEXT", "last COMM name, NULL when none was recorded")

#define SPE_COLUMNS_thread_comm(C)                                                                           \
	C(thread_comm, source_id, I64, NEVER, SPE_SOURCE_REF, "the source")                                  \
	C(thread_comm, tid, I32, NEVER, "INTEGER NOT NULL", "thread id")                                     \
	C(thread_comm, time, U64, NEVER, "INTEGER NOT NULL",                                                 \
	  "perf time from which the thread has the name (a COMM's, or its FORK's); 0: from the start of the " \
	  "capture (COMMs perf wrote for the threads alive then, and COMMs without a time)")                \
	C(thread_comm, comm, TEXT, NEVER, "TEXT",                                                            \
	  "the name: the COMM's, or at a FORK the parent's name then (a forked thread keeps it until it "  \
	  "execs or renames itself); NULL when the parent's is unknown.  Of two rows of a thread at one "  \
	  "time the later COMM is kept.  spe-report's and spe-export's `--comm` match the name in force at " \
	  "a record's time (the last row at or before it), as perf does")

#define SPE_COLUMNS_mapping(C)                                                                                   \
	C(mapping, id, I64, NEVER, "INTEGER PRIMARY KEY", "mapping id")                                          \
	C(mapping, source_id, I64, NEVER, SPE_SOURCE_REF, "the source")                                          \
	C(mapping, pid, I32, NEG, "INTEGER", "process, NULL for the kernel")                                     \
	C(mapping, path, TEXT, NEVER, "TEXT NOT NULL", "file name as recorded (the kernel's: above)")            \
	C(mapping, build_id, TEXT, NEVER, "TEXT",                                                                \
	  "hex build-id the recording gives the file (MMAP2's, else the HEADER_BUILD_ID table's entry for the " \
	  "path; the kernel's and modules' entries of cpumode kernel for their rows), else read from the file " \
	  "found at the path, else NULL")                                                                       \
	C(mapping, start, U64, NEVER, "INTEGER NOT NULL", "runtime start address")                               \
	C(mapping, end, U64, NEVER, "INTEGER NOT NULL", "runtime end address, exclusive")                        \
	C(mapping, pgoff, U64, NEVER, "INTEGER NOT NULL",                                                        \
	  "file offset of `start` (the kernel image: its `_text`'s runtime address)")                           \
	C(mapping, time, U64, NO_TIME, "INTEGER", "perf time of the MMAP2 record, NULL if unknown")              \
	C(mapping, prot, I64, NEG, "INTEGER",                                                                    \
	  "PROT_* bits of a data mapping (no PROT_EXEC: `[heap]`, `[stack]`, `//anon`, files mapped as data); " \
	  "NULL for executable mappings.  PCs resolve only through executable mappings, data objects through " \
	  "both")                                                                                               \
	C(mapping, build_id_status, TEXT, NEVER, "TEXT",                                                         \
	  "how the mapped file was found (spe-load(1), BUILD-IDS): `matched` (a file with the recorded "        \
	  "build-id), `mismatch` (only files with another build-id: none used, the mapping's PCs have no "      \
	  "symbol), `unrecorded` (no build-id recorded: the file at the path, unverified), `not found`; NULL "  \
	  "when it was not looked up (no sampled PC or data address in it, `--no-symbols`, data mappings, the " \
	  "kernel).  Added within version 7: `--append` adds it to a database written before")

#define SPE_COLUMNS_symbol(C)                                                                                    \
	C(symbol, id, I64, NEVER, "INTEGER PRIMARY KEY", "symbol id")                                            \
	C(symbol, mapping_id, I64, ZERO, "INTEGER REFERENCES mapping(id)", "the mapping it is in")               \
	C(symbol, name, TEXT, NEVER, "TEXT NOT NULL", "symbol name")                                             \
	C(symbol, start, U64, NEVER, "INTEGER NOT NULL", "runtime start address in that mapping")                \
	C(symbol, size, U64, ZERO, "INTEGER", "size in bytes, NULL if unknown")                                  \
	C(symbol, file, TEXT, NEVER, "TEXT", "source file of the function's first instruction, NULL if no DWARF") \
	C(symbol, line, I32, ZERO, "INTEGER", "its line, NULL if no DWARF")

#define SPE_COLUMNS_insn(C)                                                                                      \
	C(insn, id, I64, NEVER, "INTEGER PRIMARY KEY", "instruction id")                                         \
	C(insn, mapping_id, I64, ZERO, "INTEGER REFERENCES mapping(id)", "the mapping it is in")                 \
	C(insn, pc, U64, NEVER, "INTEGER NOT NULL", "runtime address")                                           \
	C(insn, symbol_id, I64, ZERO, "INTEGER REFERENCES symbol(id)", "its function, NULL if none")             \
	C(insn, bytes, BYTES, NEVER, "BLOB",                                                                     \
	  "the 4 instruction bytes from the ELF, NULL if unreadable (no file, `--no-symbols`, kernel PCs)")     \
	C(insn, mnemonic, TEXT, NEVER, "TEXT", "Capstone AArch64 mnemonic; `.inst` for undecodable words")       \
	C(insn, operands, TEXT, NEVER, "TEXT", "Capstone AArch64 operands; `0x...` for undecodable words")       \
	C(insn, file, TEXT, NEVER, "TEXT", "source file of this PC (DWARF line table)")                         \
	C(insn, line, I32, ZERO, "INTEGER", "its line")                                                          \
	C(insn, inline_function, TEXT, NEVER, "TEXT",                                                            \
	  "the inlined functions this PC is in, innermost first, joined by ` <- ` (`bump`, or `inner <- "       \
	  "outer`); NULL when not inlined")

#define SPE_COLUMNS_data_object(C)                                                                               \
	C(data_object, id, I64, NEVER, "INTEGER PRIMARY KEY", "data object id")                                  \
	C(data_object, source_id, I64, NEVER, SPE_SOURCE_REF, "the source")                                      \
	C(data_object, pid, I32, NEG, "INTEGER", "process")                                                      \
	C(data_object, kind, I32, NEVER, "INTEGER NOT NULL REFERENCES data_object_kind(id)",                     \
	  "joins `data_object_kind`: 1 `variable`, 2 `symbol`, 3 `section`, 4 `heap`, 5 `stack`, 6 `anon`, 7 "  \
	  "`shared`, 8 `file`, 9 `other`")                                                                      \
	C(data_object, name, TEXT, NEVER, "TEXT NOT NULL",                                                       \
	  "`table`, `sum_table::calls`, `.bss of prog`, `[heap]`, `[stack]`, `//anon`, `/path/file+0x4000` "    \
	  "(file mapped as data: path and the mapping's offset)")                                               \
	C(data_object, mapping_id, I64, ZERO, "INTEGER REFERENCES mapping(id)",                                  \
	  "the binary's executable mapping (variables, sections) or the data mapping")                          \
	C(data_object, start, U64, NEVER, "INTEGER", "runtime address (the variable's, or the mapping's)")       \
	C(data_object, size, U64, ZERO, "INTEGER", "bytes, NULL if unknown")                                     \
	C(data_object, type, TEXT, NEVER, "TEXT",                                                                \
	  "DWARF type text (`double[65536]`, `const int[64]`, `struct item *`), NULL without DWARF")            \
	C(data_object, file, TEXT, NEVER, "TEXT", "source file of the declaration, NULL without DWARF")         \
	C(data_object, line, I32, ZERO, "INTEGER", "its line, NULL without DWARF")

#define SPE_COLUMNS_numa_node(C)                                                                  \
	C(numa_node, source_id, I64, NEVER, SPE_SOURCE_REF, "the source")                         \
	C(numa_node, node, U32, NEVER, "INTEGER NOT NULL", "node number")                         \
	C(numa_node, cpus, TEXT, NEVER, "TEXT", "its CPU list as the file gives it (`0-3,8`)")   \
	C(numa_node, mem_total_kb, U64, ZERO, "INTEGER", "its memory in KiB, NULL if unknown")    \
	C(numa_node, mem_free_kb, U64, ZERO, "INTEGER", "its free memory in KiB, NULL if unknown")

#define SPE_COLUMNS_numa_cpu(C)                                                \
	C(numa_cpu, source_id, I64, NEVER, SPE_SOURCE_REF, "the source")       \
	C(numa_cpu, cpu, I64, NEVER, "INTEGER NOT NULL", "CPU number")         \
	C(numa_cpu, node, U32, NEVER, "INTEGER NOT NULL", "its NUMA node")

#define SPE_COLUMNS_numa_memory(C)                                                                          \
	C(numa_memory, source_id, I64, NEVER, SPE_SOURCE_REF, "the source")                                 \
	C(numa_memory, node, U32, NEVER, "INTEGER NOT NULL", "NUMA node")                                   \
	C(numa_memory, start, U64, NEVER, "INTEGER NOT NULL", "physical start address of a run of its memory blocks") \
	C(numa_memory, end, U64, NEVER, "INTEGER NOT NULL", "physical end address, exclusive")

#define SPE_COLUMNS_time_conv(C)                                                                                 \
	C(time_conv, source_id, I64, NEVER, "INTEGER PRIMARY KEY REFERENCES source(id)", "the source")           \
	C(time_conv, time_shift, U64, NEVER, "INTEGER NOT NULL", "`perf_event_mmap_page.time_shift`")            \
	C(time_conv, time_mult, U64, NEVER, "INTEGER NOT NULL", "`time_mult`")                                   \
	C(time_conv, time_zero, U64, NEVER, "INTEGER NOT NULL", "`time_zero`")                                   \
	C(time_conv, time_cycles, U64, NEVER, "INTEGER NOT NULL", "`time_cycles`")                               \
	C(time_conv, time_mask, U64, NEVER, "INTEGER NOT NULL", "`time_mask`")                                   \
	C(time_conv, cap_user_time_short, INT, NEVER, "INTEGER NOT NULL", "1 when `time_cycles` and `time_mask` apply")

#define SPE_COLUMNS_pc_histogram(C)                                                                              \
	C(pc_histogram, source_id, I64, NEVER, SPE_SOURCE_REF, "the source")                                     \
	C(pc_histogram, has_pc, FLAG, NEVER, NULL, "the records had a PC")                                       \
	C(pc_histogram, pc, U64, IF(has_pc), "INTEGER", "the PC, as in `spe_record` (NULL alike)")               \
	C(pc_histogram, insn_id, I64, ZERO, "INTEGER REFERENCES insn(id)", "its instruction, as in `spe_record`") \
	C(pc_histogram, symbol_id, I64, ZERO, "INTEGER REFERENCES symbol(id)", "its function, as in `spe_record`") \
	C(pc_histogram, untimed, U64, NEVER, "INTEGER NOT NULL", "records without a total latency")              \
	C(pc_histogram, histogram, HIST, NEVER, "TEXT NOT NULL",                                                 \
	  "JSON object: each total latency (as a string key) and its records, e.g. `{\"12\":40,\"250\":3}`")

#define SPE_COLUMNS_load_stats(C)                                                                                \
	C(load_stats, source_id, I64, NEVER, "INTEGER PRIMARY KEY REFERENCES source(id)", "the source")          \
	C(load_stats, records, U64, NEVER, "INTEGER NOT NULL", "rows inserted into `spe_record`")                \
	C(load_stats, bad_bytes, U64, NEVER, "INTEGER NOT NULL", "bytes that were not valid packets")            \
	C(load_stats, skipped_bytes, U64, NEVER, "INTEGER NOT NULL",                                             \
	  "bytes dropped while resynchronising (includes bad bytes)")                                           \
	C(load_stats, partial_records, U64, NEVER, "INTEGER NOT NULL",                                           \
	  "records cut by an error or by the end of the data (not inserted)")                                   \
	C(load_stats, unknown_packets, U64, NEVER, "INTEGER NOT NULL",                                           \
	  "well-formed packets of unknown kinds (kept out of the columns)")                                     \
	C(load_stats, lost_aux, U64, NEVER, "INTEGER NOT NULL", "AUX records flagged truncated, plus LOST records") \
	C(load_stats, no_mapping, U64, NEVER, "INTEGER NOT NULL", "user-space records whose PC is in no mapping") \
	C(load_stats, no_symbol, U64, NEVER, "INTEGER NOT NULL", "records in a mapping whose PC has no symbol")  \
	C(load_stats, no_time, U64, NEVER, "INTEGER NOT NULL", "records without a perf time")                    \
	C(load_stats, no_data_object, U64, NEVER, "INTEGER NOT NULL DEFAULT 0",                                  \
	  "user-space data addresses in no data object (no variable of a mapped binary, no data mapping: a "    \
	  "capture without data MMAP2s leaves heap addresses here)")                                            \
	C(load_stats, cacheline_scan, INT, NEVER, "INTEGER NOT NULL DEFAULT 0",                                  \
	  "1 when the file wrote more distinct (process, 64-byte line) pairs than the load keeps counts for "   \
	  "(`spe-load --line-budget`), or its accesses to lines not yet written overflowed the load's "         \
	  "temporary file (more than 2^28, or the file could not be written; spe-load(1)): `cacheline_stat` "   \
	  "has none of its lines and `cacheline_sharing` computes them from the records (it screens the "       \
	  "written, shared lines on `_spe_record`'s integer columns, then aggregates only their records: 1.4 s " \
	  "at 1 M records, 3.3 s at 2 M, 20-28 s at 10 M); else 0 (when no source has 1, the view reads no "    \
	  "record)")                                                                                            \
	C(load_stats, has_cut, FLAG, NEVER, NULL, "the file ends before its data")                               \
	C(load_stats, cut_offset, U64, IF(has_cut), "INTEGER",                                                   \
	  "the file ends before its data (a recording cut short): file offset of the first record not whole; "  \
	  "the records before it are loaded.  NULL for a whole file")                                           \
	C(load_stats, cut_bytes, U64, NEVER, "INTEGER NOT NULL DEFAULT 0",                                       \
	  "bytes missing: from the end of the file to where that record or the data section (the later) "       \
	  "should end; 0 for a whole file")                                                                     \
	C(load_stats, cut, TEXT, IF(has_cut), "TEXT",                                                            \
	  "what was cut, the reader's message (`FILE: offset 0x5e0: the file ends inside a 116528-byte "        \
	  "AUXTRACE record: 50000 of its 116480 data bytes are present`); NULL for a whole file")                                                                                                 \
	C(load_stats, no_pid, U64, NEVER, "INTEGER NOT NULL DEFAULT 0",                                          \
	  "user-space records whose process could not be known (no CONTEXT packet, no switch record, no COMM "  \
	  "naming their thread): no mapping was picked, so their PCs are unresolved (not in `no_mapping`)")    \
	C(load_stats, kernel_no_symbol, U64, NEVER, "INTEGER NOT NULL DEFAULT 0",                                \
	  "kernel-space records without a symbol (no kernel symbol source, or a PC outside its functions); "    \
	  "`hot_symbol` counts them per kernel map")                                                            \
	C(load_stats, out_of_order, U64, NEVER, "INTEGER NOT NULL DEFAULT 0",                                    \
	  "sideband events (FORK, EXIT, COMM, MMAP, KSYMBOL ...) older than one applied before them: applied "  \
	  "late, from then on (perf counts them too)")                                                          \
	C(load_stats, timed_records, U64, NEVER, "INTEGER",                                                      \
	  "records with a perf time (`spe_record.time` not NULL); NULL in a database loaded before the span "   \
	  "was stored (then readers count the records)")                                                        \
	C(load_stats, has_time, FLAG, NEVER, NULL, "some record had a perf time")                                \
	C(load_stats, first_time, I64, IF(has_time), "INTEGER",                                                  \
	  "the least `spe_record.time` (ns), NULL when no record has one (or not stored: `timed_records` NULL)") \
	C(load_stats, last_time, I64, IF(has_time), "INTEGER", "the greatest `spe_record.time`, NULL alike")     \
	C(load_stats, has_ts, FLAG, NEVER, NULL, "some record had a raw SPE timestamp")                          \
	C(load_stats, first_ts, I64, IF(has_ts), "INTEGER",                                                      \
	  "the least `spe_record.ts` (raw SPE timestamp), NULL when no record has one (or not stored)")         \
	C(load_stats, last_ts, I64, IF(has_ts), "INTEGER", "the greatest `spe_record.ts`, NULL alike")           \
	C(load_stats, pages_unlisted, U64, NEVER, "INTEGER NOT NULL DEFAULT 0",                                  \
	  "(process, 4 KiB page) pairs past the load's page budget (`spe-load --page-budget`): the coldest "    \
	  "pages, moved out when the budget filled; none has a `page_stat` row, their records are counted in "  \
	  "their `page_region_stat` row only (0: every page has its row)")                                      \
	C(load_stats, unlisted_page_records, U64, NEVER, "INTEGER NOT NULL DEFAULT 0",                           \
	  "records with a data address in those pages (all of each page's records, before and after it moved " \
	  "out): `page_stat`'s `accesses` add up to the records with a data address minus these")

#define SPE_COLUMNS_mem_level_stat(C)                                                                            \
	C(mem_level_stat, source_id, I64, NEVER, SPE_SOURCE_REF, "the source")                                   \
	C(mem_level_stat, mem_level, I32, ZERO, "INTEGER REFERENCES spe_mem_level(code)",                        \
	  "`spe_mem_level.code`, NULL: loads without a level")                                                  \
	C(mem_level_stat, loads, U64, NEVER, "INTEGER NOT NULL", "loads")                                        \
	C(mem_level_stat, timed, U64, NEVER, "INTEGER NOT NULL", "loads with a total latency")                   \
	C(mem_level_stat, total_latency, U64, IF(timed), "INTEGER", "their total latency, NULL when `timed` is 0")

#define SPE_COLUMNS_latency_bucket(C)                                                                            \
	C(latency_bucket, source_id, I64, NEVER, SPE_SOURCE_REF, "the source")                                   \
	C(latency_bucket, op_class, TEXT, NEVER, "TEXT", "op class, NULL for records without an op type")        \
	C(latency_bucket, latency_lo, I64, NEVER, "INTEGER NOT NULL", "the bucket's lowest latency: 0, 1, 2, 4, ...") \
	C(latency_bucket, samples, U64, NEVER, "INTEGER NOT NULL", "records in the bucket")                      \
	C(latency_bucket, total_latency, U64, NEVER, "INTEGER NOT NULL", "their total latency")

#define SPE_COLUMNS_branch_stat(C)                                                                               \
	C(branch_stat, source_id, I64, NEVER, SPE_SOURCE_REF, "the source")                                      \
	C(branch_stat, has_pc, FLAG, NEVER, NULL, "the branches had a PC")                                       \
	C(branch_stat, pc, U64, IF(has_pc), "INTEGER", "branch PC, as in `spe_record`")                          \
	C(branch_stat, insn_id, I64, ZERO, "INTEGER REFERENCES insn(id)", "its instruction, as in `spe_record`") \
	C(branch_stat, branches, U64, NEVER, "INTEGER NOT NULL", "branch records")                               \
	C(branch_stat, has_events, FLAG, NEVER, NULL, "some branch had an EVENTS packet")                        \
	C(branch_stat, mispredicted, U64, IF(has_events), "INTEGER", "mispredicted ones, NULL when no branch had EVENTS") \
	C(branch_stat, not_taken, U64, IF(has_events), "INTEGER", "not-taken ones, NULL when no branch had EVENTS")

#define SPE_COLUMNS_page_stat(C)                                                                                 \
	C(page_stat, source_id, I64, NEVER, SPE_SOURCE_REF, "the source")                                        \
	C(page_stat, pid, I32, NEG, "INTEGER", "process, NULL when unknown")                                     \
	C(page_stat, page, U64, NEVER, "INTEGER NOT NULL", "`data_va >> 12`")                                    \
	C(page_stat, accesses, U64, NEVER, "INTEGER NOT NULL", "records with a data address in the page")        \
	C(page_stat, has_events, FLAG, NEVER, NULL, "some record had an EVENTS packet")                          \
	C(page_stat, tlb_walks, U64, IF(has_events), "INTEGER", "records with a TLB walk, NULL without EVENTS")  \
	C(page_stat, translated, U64, NEVER, "INTEGER NOT NULL", "records with a translation latency")           \
	C(page_stat, translation_latency, U64, IF(translated), "INTEGER", "their sum, NULL when `translated` is 0") \
	C(page_stat, timed, U64, NEVER, "INTEGER NOT NULL", "records with a total latency (since version 6)")    \
	C(page_stat, total_latency, U64, IF(timed), "INTEGER", "their sum, NULL when `timed` is 0")              \
	C(page_stat, data_object_ids, IDS, NEVER, "TEXT",                                                        \
	  "JSON array of the distinct `data_object` ids, first-seen order; NULL: none")

/* the loads of mem_level_stat with a total latency, by latency_bucket's log2 buckets: the page's histograms */
#define SPE_COLUMNS_level_latency_bucket(C)                                                                      \
	C(level_latency_bucket, source_id, I64, NEVER, SPE_SOURCE_REF, "the source")                             \
	C(level_latency_bucket, mem_level, I32, ZERO, "INTEGER REFERENCES spe_mem_level(code)",                  \
	  "`spe_mem_level.code`, NULL: loads without a level")                                                  \
	C(level_latency_bucket, latency_lo, U64, NEVER, "INTEGER NOT NULL", "the bucket's lowest latency: 0, 1, 2, 4, ...") \
	C(level_latency_bucket, samples, U64, NEVER, "INTEGER NOT NULL", "loads in the bucket")                  \
	C(level_latency_bucket, total_latency, U64, NEVER, "INTEGER NOT NULL", "their total latency")

/* the records of each data object (analysis/load/object_tally.c): what hot_data_object groups from spe_record */
#define SPE_COLUMNS_data_object_stat(C)                                                                          \
	C(data_object_stat, source_id, I64, NEVER, SPE_SOURCE_REF, "the source")                                 \
	C(data_object_stat, data_object_id, I64, NEVER, "INTEGER NOT NULL REFERENCES data_object(id)", "the data object") \
	C(data_object_stat, samples, U64, NEVER, "INTEGER NOT NULL", "records with the object's data address")  \
	C(data_object_stat, typed, FLAG, NEVER, NULL, "some record had an op type")                              \
	C(data_object_stat, loads, U64, IF(typed), "INTEGER", "of them loads, NULL when none had an op type")    \
	C(data_object_stat, stores, U64, IF(typed), "INTEGER", "stores, NULL when none had an op type")          \
	C(data_object_stat, has_events, FLAG, NEVER, NULL, "some record had an EVENTS packet")                   \
	C(data_object_stat, tlb_walks, U64, IF(has_events), "INTEGER", "records with a TLB walk, NULL without EVENTS") \
	C(data_object_stat, timed, U64, NEVER, "INTEGER NOT NULL", "records with a total latency")               \
	C(data_object_stat, total_latency, U64, IF(timed), "INTEGER", "their sum, NULL when `timed` is 0")       \
	C(data_object_stat, p99, I32, NEG, "INTEGER",                                                            \
	  "nearest-rank 99th percentile of their total latency, exact (from every latency), NULL when `timed` is 0")

/* the loads of each data object by memory level (analysis/load/object_tally.c): hot_data_object.levels */
#define SPE_COLUMNS_data_object_level(C)                                                                         \
	C(data_object_level, source_id, I64, NEVER, SPE_SOURCE_REF, "the source")                                \
	C(data_object_level, data_object_id, I64, NEVER, "INTEGER NOT NULL REFERENCES data_object(id)", "the data object") \
	C(data_object_level, mem_level, I32, NEVER, "INTEGER NOT NULL REFERENCES spe_mem_level(code)",           \
	  "`spe_mem_level.code` (loads without a level are not counted)")                                       \
	C(data_object_level, loads, U64, NEVER, "INTEGER NOT NULL", "loads")

/* the loads of each PC of a function by memory level (analysis/load/pc_level_tally.c): the page's annotations */
#define SPE_COLUMNS_pc_level_stat(C)                                                                             \
	C(pc_level_stat, source_id, I64, NEVER, SPE_SOURCE_REF, "the source")                                    \
	C(pc_level_stat, symbol_id, I64, NEVER, "INTEGER NOT NULL REFERENCES symbol(id)", "the function")       \
	C(pc_level_stat, base_pc, U64, NEVER, "INTEGER NOT NULL", "the lowest of its load PCs")                  \
	C(pc_level_stat, loads, TEXT, NEVER, "TEXT NOT NULL",                                                    \
	  "JSON array of [PC - `base_pc`, `spe_mem_level.code` (0: none), loads], one per PC and level")

/* page_stat's rows and the pages past the page budget added up by the loader (record_summary.c): data_page's 2 MiB rows */
#define SPE_COLUMNS_page_region_stat(C)                                                                          \
	C(page_region_stat, source_id, I64, NEVER, SPE_SOURCE_REF, "the source")                                 \
	C(page_region_stat, pid, I32, NEG, "INTEGER", "process, NULL when unknown")                              \
	C(page_region_stat, region, U64, NEVER, "INTEGER NOT NULL", "`data_va >> 21` (`page_stat.page >> 9`)")   \
	C(page_region_stat, accesses, U64, NEVER, "INTEGER NOT NULL", "records with a data address in the region") \
	C(page_region_stat, has_events, FLAG, NEVER, NULL, "some record had an EVENTS packet")                   \
	C(page_region_stat, tlb_walks, U64, IF(has_events), "INTEGER", "records with a TLB walk, NULL without EVENTS") \
	C(page_region_stat, translated, U64, NEVER, "INTEGER NOT NULL", "records with a translation latency")    \
	C(page_region_stat, translation_latency, U64, IF(translated), "INTEGER",                                 \
	  "their sum, NULL when `translated` is 0")                                                               \
	C(page_region_stat, timed, U64, NEVER, "INTEGER NOT NULL", "records with a total latency")               \
	C(page_region_stat, total_latency, U64, IF(timed), "INTEGER", "their sum, NULL when `timed` is 0")       \
	C(page_region_stat, pages_4k, U64, NEVER, "INTEGER NOT NULL",                                            \
	  "its 4 KiB pages with a record (`page_stat` rows and pages past the page budget)")                     \
	C(page_region_stat, walked_pages_4k, U64, NEVER, "INTEGER NOT NULL", "of them, those with a TLB walk")   \
	C(page_region_stat, data_object_ids, IDS, NEVER, "TEXT",                                                 \
	  "JSON array of the distinct `data_object` ids of its pages, in `page_stat`'s order, then those of its " \
	  "pages past the page budget not yet named, in the order the load met them; NULL: none")

#define SPE_COLUMNS_numa_stat(C)                                                                                 \
	C(numa_stat, source_id, I64, NEVER, SPE_SOURCE_REF, "the source")                                        \
	C(numa_stat, cpu, I32, NEVER, "INTEGER NOT NULL", "the loads' CPU")                                      \
	C(numa_stat, physical, INT, NEVER, "INTEGER NOT NULL", "1: the loads had a physical address")            \
	C(numa_stat, memory_node, I32, NEG, "INTEGER",                                                           \
	  "physical: the node of the `numa_memory` range holding it, a load counting once per range that "      \
	  "does; NULL: none")                                                                                   \
	C(numa_stat, has_data_source, FLAG, NEVER, NULL, "not physical, and the loads had a data source")        \
	C(numa_stat, data_source, U64, IF(has_data_source), "INTEGER",                                           \
	  "not physical: the raw code `numa_traffic` asks the facts about")                                     \
	C(numa_stat, loads, U64, NEVER, "INTEGER NOT NULL", "loads")                                             \
	C(numa_stat, timed, U64, NEVER, "INTEGER NOT NULL", "loads with a total latency")                        \
	C(numa_stat, total_latency, U64, IF(timed), "INTEGER", "their sum, NULL when `timed` is 0")              \
	C(numa_stat, has_events, FLAG, NEVER, NULL, "some load had an EVENTS packet")                            \
	C(numa_stat, remote_access, U64, IF(has_events), "INTEGER", "loads with the remote_access event, NULL without EVENTS")

#define SPE_COLUMNS_prefetch_stat(C)                                                                             \
	C(prefetch_stat, source_id, I64, NEVER, SPE_SOURCE_REF, "the source")                                    \
	C(prefetch_stat, has_pc, FLAG, NEVER, NULL, "the loads had a PC")                                        \
	C(prefetch_stat, pc, U64, IF(has_pc), "INTEGER", "load PC, as in `spe_record`")                          \
	C(prefetch_stat, insn_id, I64, ZERO, "INTEGER REFERENCES insn(id)", "its instruction, as in `spe_record`") \
	C(prefetch_stat, symbol_id, I64, ZERO, "INTEGER REFERENCES symbol(id)", "its function, as in `spe_record`") \
	C(prefetch_stat, data_object_id, I64, ZERO, "INTEGER REFERENCES data_object(id)",                        \
	  "the data object of the loads, NULL: none")                                                           \
	C(prefetch_stat, loads, U64, NEVER, "INTEGER NOT NULL", "loads (every load PC has rows, not only those with the events, so sources add up exactly)") \
	C(prefetch_stat, timed, U64, NEVER, "INTEGER NOT NULL", "loads with a total latency")                    \
	C(prefetch_stat, total_latency, U64, IF(timed), "INTEGER", "their sum, NULL when `timed` is 0")          \
	C(prefetch_stat, has_late, FLAG, NEVER, NULL, "some load's part names a late-prefetch bit and it had EVENTS") \
	C(prefetch_stat, late_prefetch, U64, IF(has_late), "INTEGER",                                            \
	  "loads with the part's late-prefetch bit; NULL when no load's part names one or none had EVENTS")     \
	C(prefetch_stat, has_late_latency, FLAG, NEVER, NULL, "some late load had a total latency")              \
	C(prefetch_stat, late_latency, U64, IF(has_late_latency), "INTEGER", "the late loads' total latency")    \
	C(prefetch_stat, has_events, FLAG, NEVER, NULL, "some load had an EVENTS packet")                        \
	C(prefetch_stat, recently_fetched, U64, IF(has_events), "INTEGER",                                       \
	  "loads with the recently_fetched event (SPEv1.4: the line was already being fetched), NULL without "  \
	  "EVENTS")

/* The counts a line's records may lack are -1 (NULL): "no record had the value". */
#define SPE_COLUMNS_cacheline_stat(C)                                                                            \
	C(cacheline_stat, source_id, I64, NEVER, SPE_SOURCE_REF, "the source")                                   \
	C(cacheline_stat, pid, I32, NEG, "INTEGER", "process, NULL when unknown")                                \
	C(cacheline_stat, line, U64, NEVER, "INTEGER NOT NULL", "`data_va >> 6`")                                \
	C(cacheline_stat, accesses, U64, NEVER, "INTEGER NOT NULL",                                              \
	  "records of the line (all of them, those before its first write too); the counts below are "          \
	  "`cacheline_sharing`'s, each NULL as the view's SQL would give it")                                   \
	C(cacheline_stat, loads, I64, NEG, "INTEGER", "loads")                                                   \
	C(cacheline_stat, stores, I64, NEG, "INTEGER", "stores")                                                 \
	C(cacheline_stat, cpus, U32, NEVER, "INTEGER NOT NULL", "distinct CPUs")                                 \
	C(cacheline_stat, threads, U32, NEVER, "INTEGER NOT NULL", "distinct threads")                           \
	C(cacheline_stat, offsets, U32, NEVER, "INTEGER NOT NULL", "distinct byte offsets")                      \
	C(cacheline_stat, snooped, I64, NEG, "INTEGER", "`data_snooped` events")                                 \
	C(cacheline_stat, hitm, I64, NEG, "INTEGER", "loads that hit a line another core modified")              \
	C(cacheline_stat, peer_hits, I64, NEG, "INTEGER", "loads served by a peer cache")                        \
	C(cacheline_stat, total_latency, I64, NEG, "INTEGER", "total latency")                                   \
	C(cacheline_stat, atomics, I64, NEG, "INTEGER", "atomics")                                               \
	C(cacheline_stat, writes, I64, NEG, "INTEGER", "stores and atomics")                                     \
	C(cacheline_stat, modified_events, I64, NEG, "INTEGER", "`cache_data_modified` events")                  \
	C(cacheline_stat, modified_sources, I64, NEG, "INTEGER", "loads whose data-source code says modified")   \
	C(cacheline_stat, remote_hits, I64, NEG, "INTEGER", "loads from another socket")                         \
	C(cacheline_stat, symbol_ids, IDS, NEVER, "TEXT",                                                        \
	  "JSON array of the distinct `symbol` ids, in first-seen order; NULL: none")                           \
	C(cacheline_stat, data_object_ids, IDS, NEVER, "TEXT",                                                   \
	  "JSON array of the distinct `data_object` ids, in first-seen order; NULL: none")

/* ---- _spe_record ------------------------------------------------------------------ */

/*
 * The stored columns of a record row (the table _spe_record minus its id), in
 * table order: X(IDENT, name, type, sql, meaning), counters from the facts
 * table through XC (facts.h SPE_COUNTER_LIST).  Rows hold integer codes and
 * only what cannot be derived (schema version 4, docs/schema.md): the
 * spe_record view computes op_class, op, mem_level, time, pc, mapping_id
 * and symbol_id from them (SPE_RECORD_VIEW_COLUMNS below).  A new column is
 * one line here, plus its value in the loader's record_row()
 * (analysis/load/loader.c).  type is I64 (every column since schema 4) or
 * TEXT; a value is NULL when its bit of spe_row_record.present is clear.
 */
#define SPE_RECORD_COLUMNS(X, XC)                                                                           \
	X(SOURCE_ID, source_id, I64, "INTEGER NOT NULL REFERENCES source(id)", "the load (`source.id`)")    \
	X(TS, ts, I64, "INTEGER", "raw SPE timestamp, NULL if the record had none")                         \
	X(TIME, time, I64, "INTEGER",                                                                       \
	  "perf time when it is not `ts` converted through the source's `time_conv` row; NULL otherwise "   \
	  "(the view computes it)")                                                                          \
	X(CPU, cpu, I64, "INTEGER", "CPU whose aux buffer held the record (0 for per-thread queues)")        \
	X(PID, pid, I64, "INTEGER",                                                                         \
	  "process: from the CONTEXT packet's thread (via COMM), else the thread switched in on that CPU "   \
	  "(ITRACE_START, SWITCH), else the AUXTRACE record; NULL when unknown")                              \
	X(TID, tid, I64, "INTEGER", "thread, found as `pid` is; NULL when unknown")                          \
	X(PC, pc, I64, "INTEGER", "PC address (canonicalised) when `insn_id` is NULL; else NULL (`insn.pc` holds it)") \
	X(CODES, codes, I64, "INTEGER NOT NULL",                                                            \
	  "small codes in one integer (`SPE_CODES_*`): `op_raw` (bits 0-9) and whether the record had an "  \
	  "op type (bit 10), `el` (bits 11-12), the `spe_mem_level.code` of the data source (bits 13-17, 0: " \
	  "none), `context` equals `tid` (bit 18), no perf time (bit 19)")                                  \
	X(EVENTS, events, I64, "INTEGER", "raw EVENTS payload, IMPDEF bits kept; NULL if the record had no EVENTS packet") \
	SPE_COUNTER_LIST(XC)                                                                                 \
	X(DATA_VA, data_va, I64, "INTEGER", "data virtual address (tag byte removed)")                      \
	X(DATA_PA, data_pa, I64, "INTEGER", "data physical address")                                        \
	X(DATA_SOURCE, data_source, I64, "INTEGER", "raw DATA SOURCE payload")                              \
	X(BRANCH_TARGET, branch_target, I64, "INTEGER", "branch target address")                            \
	X(PREV_BRANCH_TARGET, prev_branch_target, I64, "INTEGER", "previous branch target address")         \
	X(CONTEXT, context, I64, "INTEGER", "CONTEXT packet value when it is not `tid` (`codes` bit 18 says it is)") \
	X(INSN_ID, insn_id, I64, "INTEGER REFERENCES insn(id)",                                             \
	  "the instruction (`insn`) at the PC, which holds the PC and names its mapping and symbol; NULL when " \
	  "the PC is in no mapping")                                                                         \
	X(DATA_OBJECT_ID, data_object_id, I64, "INTEGER REFERENCES data_object(id)",                         \
	  "the `data_object` holding `data_va` (user addresses only), NULL when none")

/* The `codes` column: where each code sits. */
#define SPE_CODES_OP_RAW_MASK 0x3ffu     /* (op-type header class << 8) | payload */
#define SPE_CODES_HAS_OP (1u << 10)      /* the record had an op type */
#define SPE_CODES_EL_SHIFT 11            /* exception level of the PC, 2 bits */
#define SPE_CODES_MEM_LEVEL_SHIFT 13     /* memory level + 1 (enum spe_mem_level), 5 bits; 0 = none */
#define SPE_CODES_CONTEXT_IS_TID (1u << 18)
#define SPE_CODES_NO_TIME (1u << 19)     /* no perf time, even if ts and time_conv would give one */

/*
 * The columns of the spe_record view, in order: X(name, meaning), XC as in
 * SPE_RECORD_COLUMNS; the per-event columns follow `events`.  They are the
 * documented contract (docs/schema.md); a sink that keeps the narrow rows
 * above computes them (analysis/store/schema.c for SQLite).
 */
#define SPE_RECORD_VIEW_COLUMNS(X, XC)                                                                      \
	X(id, "row id")                                                                                          \
	X(source_id, "the load (`source.id`)")                                                                   \
	X(ts, "raw SPE timestamp, NULL if the record had none")                                                  \
	X(time, "perf clock ns (`ts` through the source's TIME_CONV), NULL when unknown")                         \
	X(cpu, "CPU whose aux buffer held the record (0 for per-thread queues)")                                 \
	X(pid, "process: from the CONTEXT packet's thread (via COMM), else the thread switched in on that CPU "  \
	       "(ITRACE_START, SWITCH), else the AUXTRACE record; NULL when unknown")                             \
	X(tid, "thread, found as `pid` is; NULL when unknown")                                                   \
	X(pc, "PC address (canonicalised)")                                                                      \
	X(el, "exception level of the PC")                                                                       \
	X(op_class, "`other`, `load`, `store`, `branch`, `unknown` (from `spe_op_code`)")                        \
	X(op, "perf-style text, e.g. `LD GP-REG`, `B COND` (from `spe_op_code`)")                                \
	X(op_raw, "`(op-type header class << 8) \\| payload`")                                                    \
	X(events, "raw EVENTS payload, IMPDEF bits kept; NULL if the record had no EVENTS packet")               \
	SPE_COUNTER_LIST(XC)                                                                                      \
	X(data_va, "data virtual address (tag byte removed)")                                                    \
	X(data_pa, "data physical address")                                                                      \
	X(data_source, "raw DATA SOURCE payload")                                                                \
	X(mem_level, "memory level of the data source for the CPU's MIDR, named as in the facts table "         \
		     "(spe-facts.md); NULL where the part or code is unknown")                                    \
	X(branch_target, "branch target address")                                                                \
	X(prev_branch_target, "previous branch target address")                                                  \
	X(context, "CONTEXT packet value")                                                                       \
	X(mapping_id, "the `mapping` holding the PC (through `insn`); NULL when unknown")                       \
	X(symbol_id, "the function (`symbol`) of the PC (through `insn`); NULL when unknown")                   \
	X(insn_id, "the instruction (`insn`) at the PC; NULL when the PC is in no mapping")                     \
	X(data_object_id, "the `data_object` holding `data_va` (user addresses only), NULL when none")

/* SPE_RECORD_COL_SOURCE_ID ... : a column's index in the row. */
enum spe_record_column {
#define SPE_X(IDENT, name, type, sql, doc) SPE_RECORD_COL_##IDENT,
#define SPE_XC(idx, IDENT, word, col, desc) SPE_RECORD_COL_COUNTER_##IDENT,
	SPE_RECORD_COLUMNS(SPE_X, SPE_XC)
#undef SPE_X
#undef SPE_XC
	SPE_RECORD_NCOLS
};

/* One record row: value i is set (not NULL) when bit i of present is. */
struct spe_row_record {
	uint64_t present;
	union {
		int64_t i;     /* I64 */
		const char *s; /* TEXT (no stored column is text since schema 4) */
	} col[SPE_RECORD_NCOLS];
};

/* ---- the tables the store fills itself ------------------------------------------- */

/*
 * The tables that no sink writes: the store's own (meta), the code and
 * facts tables made with the schema from libspe's facts (schema.c,
 * memory_schema.c) and the rollups at the end of each load
 * (latency_rollup.c, branch_rollup.c).  S(name, flags, key, ch_order_by,
 * title) as T above (ch_order_by NULL: not in ClickHouse); the columns
 * D(table, name, sql, doc).
 */
#define SPE_STORE_TABLES(S)                                                                                       \
	S(meta, SPE_TABLE_WITHOUT_ROWID, NULL, "key", "what the database is")                                     \
	S(spe_op_code, 0, NULL, NULL, "every op-type class and payload (1024 rows)")                               \
	S(spe_mem_level, 0, NULL, NULL, "the memory levels of the facts table")                                    \
	S(data_object_kind, 0, NULL, "id", "the kinds of `data_object`")                                           \
	S(spe_part_fact, SPE_TABLE_WITHOUT_ROWID, NULL, "part", "the facts of each CPU part the views join with")                      \
	S(spe_data_source_fact, 0, "part, code", "(part, code)", "every data-source code of each part's map")       \
	S(_hot_pc, SPE_TABLE_REBUILT, NULL, NULL, "`hot_pc`'s statistics, in its order (rebuilt at each load)")   \
	S(symbol_summary, 0, NULL, NULL, "`hot_symbol`'s statistics (rebuilt at each load)")                       \
	S(_branch_mispredict, 0, NULL, NULL, "`branch_stat` over every source, in `branch_mispredict`'s order")

#define SPE_STORE_COLUMNS_meta(D)                                                            \
	D(meta, key, "TEXT PRIMARY KEY", "`schema_version`, `application`, `load.symfs`, `load.source_dir` (each with its seal, `load.symfs.seal` and `load.source_dir.seal`: the HMAC-SHA256 of the value under the loading user's key, cli/common/kept_dirs.h), `load.selection` (the records are only those a selection chose: spe-report's private database of a page or `--annotate` with `--pid`..., in words, `pid 42; cpu 1`)") \
	D(meta, value, "TEXT",                                                                      \
	  "the schema version; `spekit`; the absolute `--symfs` and `--source-dir` (one per line) of the "  \
	  "last `spe-load` given them, which spe-report uses when not given its own and the seal is its user's (spe/settings.h); a seal in hex")

#define SPE_STORE_COLUMNS_spe_op_code(D)                                                                     \
	D(spe_op_code, code, "INTEGER PRIMARY KEY", "`op_raw` with bit 10 set, as `_spe_record.codes` holds it") \
	D(spe_op_code, op_raw, "INTEGER NOT NULL", "`(op-type header class << 8) \\| payload`")             \
	D(spe_op_code, op_class, "TEXT NOT NULL", "`other`, `load`, `store`, `branch`, `unknown`")          \
	D(spe_op_code, op, "TEXT NOT NULL", "perf-style text, e.g. `LD GP-REG`, `B COND`")

#define SPE_STORE_COLUMNS_spe_mem_level(D)                                                           \
	D(spe_mem_level, code, "INTEGER PRIMARY KEY", "1 up (`_spe_record.codes` bits 13-17)")       \
	D(spe_mem_level, name, "TEXT NOT NULL", "the level's name in the facts table")               \
	D(spe_mem_level, peer, "INTEGER NOT NULL", "1: a peer's cache")                              \
	D(spe_mem_level, remote, "INTEGER NOT NULL", "1: on another socket")                         \
	D(spe_mem_level, description, "TEXT NOT NULL", "what the level is")

#define SPE_STORE_COLUMNS_data_object_kind(D)                                          \
	D(data_object_kind, id, "INTEGER PRIMARY KEY", "`data_object.kind`")           \
	D(data_object_kind, name, "TEXT NOT NULL", "`variable`, `symbol`, ...")        \
	D(data_object_kind, description, "TEXT", "what the kind is")

#define SPE_STORE_COLUMNS_spe_part_fact(D)                                                                         \
	D(spe_part_fact, part, "TEXT PRIMARY KEY", "part name (`cpu.part`)")                                       \
	D(spe_part_fact, spe_version, "TEXT", "SPE version of the part, NULL if unknown")                          \
	D(spe_part_fact, coherence_events, "INTEGER",                                                              \
	  "1 when the part's SPE version records `cache_data_modified` and `data_snooped` (SPEv1.4), 0 when not, " \
	  "NULL when unknown")                                                                                     \
	D(spe_part_fact, late_prefetch_bit, "INTEGER",                                                             \
	  "the IMPLEMENTATION DEFINED event bit the facts table names `late_prefetch` for the part (Neoverse N1: " \
	  "12), else NULL")

#define SPE_STORE_COLUMNS_spe_data_source_fact(D)                                                           \
	D(spe_data_source_fact, part, "TEXT NOT NULL", "part name")                                         \
	D(spe_data_source_fact, code, "INTEGER NOT NULL", "data-source code")                               \
	D(spe_data_source_fact, mem_level, "TEXT NOT NULL", "its memory level")                             \
	D(spe_data_source_fact, peer, "INTEGER NOT NULL", "1: a peer's cache")                              \
	D(spe_data_source_fact, modified, "INTEGER NOT NULL", "1: the line was modified there (HiSilicon)") \
	D(spe_data_source_fact, remote, "INTEGER NOT NULL", "1: on another socket")

#define SPE_STORE_COLUMNS__hot_pc(D)                                                                         \
	D(_hot_pc, pc_value, "INTEGER",                                                                      \
	  "the PC when it has no instruction row (`insn_id` NULL), else NULL: `insn.pc` holds it (a version-7 " \
	  "database has it on every row)")                                                  \
	D(_hot_pc, insn_id, "INTEGER REFERENCES insn(id)", "its instruction")                                \
	D(_hot_pc, samples, "INTEGER NOT NULL", "records of the PC over every source")                       \
	D(_hot_pc, total_latency, "INTEGER", "their total latency, NULL when `timed` is 0")                  \
	D(_hot_pc, timed, "INTEGER NOT NULL", "records with a total latency")                                \
	D(_hot_pc, p50, "INTEGER", "nearest-rank percentile of total latency, NULL when `timed` is 0")       \
	D(_hot_pc, p90, "INTEGER", "the same, 90 %")                                                         \
	D(_hot_pc, p99, "INTEGER", "the same, 99 %")

#define SPE_STORE_COLUMNS_symbol_summary(D)                                                                      \
	D(symbol_summary, symbol_id, "INTEGER REFERENCES symbol(id)",                                            \
	  "the smallest id of the function's `symbol` rows (one function name and mapped file); NULL: records " \
	  "without a symbol (user ones in one row; kernel ones per kernel map: `mapping_id`)")                                                                                   \
	D(symbol_summary, samples, "INTEGER NOT NULL", "records in the group")                                   \
	D(symbol_summary, total_latency, "INTEGER", "their total latency, NULL when `timed` is 0")               \
	D(symbol_summary, timed, "INTEGER NOT NULL", "records with a total latency")                             \
	D(symbol_summary, p50, "INTEGER", "nearest-rank percentile of total latency, NULL when `timed` is 0")    \
	D(symbol_summary, p90, "INTEGER", "the same, 90 %")                                                      \
	D(symbol_summary, p99, "INTEGER", "the same, 99 %")                                                      \
	D(symbol_summary, mapping_id, "INTEGER REFERENCES mapping(id)",                                          \
	  "records without a symbol in a kernel map: the smallest `mapping` id of that path; else NULL.  Added " \
	  "within version 7: `--append` adds it to a database written before")

#define SPE_STORE_COLUMNS__branch_mispredict(D)                                                                  \
	D(_branch_mispredict, pc_value, "INTEGER", "branch PC")                                                  \
	D(_branch_mispredict, insn_id, "INTEGER REFERENCES insn(id)", "its instruction")                         \
	D(_branch_mispredict, branches, "INTEGER NOT NULL", "branch records over every source")                  \
	D(_branch_mispredict, mispredicted, "INTEGER", "mispredicted ones, NULL when no source had EVENTS for the PC") \
	D(_branch_mispredict, mispredict_rate, "REAL", "`round(1.0 * mispredicted / branches, 3)`")              \
	D(_branch_mispredict, not_taken, "INTEGER", "not-taken ones")

/* ---- what the lists become ------------------------------------------------------------- */

/* SPE_TABLE_SOURCE ...: the tables a sink takes, SPE_TABLE_RECORD last. */
enum spe_table {
#define SPE_X(name, NAME, flags, key, order, title) SPE_TABLE_##NAME,
	SPE_TABLES(SPE_X)
#undef SPE_X
	SPE_TABLE_RECORD,
	SPE_TABLE_COUNT
};
#define SPE_TABLE_BIT(NAME) ((uint64_t)1 << SPE_TABLE_##NAME)
#define SPE_TABLES_ALL (((uint64_t)1 << SPE_TABLE_COUNT) - 1)

/* The C field(s) of each kind. */
#define SPE_FIELD_I64(f) int64_t f;
#define SPE_FIELD_U64(f) uint64_t f;
#define SPE_FIELD_I32(f) int32_t f;
#define SPE_FIELD_U32(f) uint32_t f;
#define SPE_FIELD_INT(f) int f;
#define SPE_FIELD_FLAG(f) int f;
#define SPE_FIELD_TEXT(f) const char *f;
#define SPE_FIELD_BYTES(f) \
	const uint8_t *f;  \
	uint32_t n_##f;
#define SPE_FIELD_IDS(f) \
	size_t n_##f;    \
	const int64_t *f;
#define SPE_FIELD_HIST(f)                                                                     \
	size_t n;                /* distinct latencies */                                     \
	const int32_t *latency;  /* ascending, 0..65535 */                                    \
	const uint64_t *samples; /* records of each */

/* struct spe_row_source ...: one row of each table (pointers live as the caller says). */
#define SPE_ROW_FIELD(table, name, kind, null, sql, doc) SPE_FIELD_##kind(name)
#define SPE_X(name, NAME, flags, key, order, title) \
	struct spe_row_##name {                      \
		SPE_COLUMNS_##name(SPE_ROW_FIELD)    \
	};
SPE_TABLES(SPE_X)
#undef SPE_X
#undef SPE_ROW_FIELD

/*
 * For code generated per table from the column lists (a sink's binder):
 * SPE_IS_NULL(null, r, name) is column name's NULL rule as an expression
 * on the row pointer r (a NULL pointer aside).  SPE_NULL_SPLIT_<rule> splits
 * a rule into its name and the field IF names.
 */
#define SPE_NULL_SPLIT_NEVER NEVER,
#define SPE_NULL_SPLIT_ZERO ZERO,
#define SPE_NULL_SPLIT_NEG NEG,
#define SPE_NULL_SPLIT_NO_TIME NO_TIME,
#define SPE_NULL_SPLIT_IF(f) UNLESS, f
#define SPE_IS_NULL(null, r, name) SPE_IS_NULL_(SPE_NULL_SPLIT_##null, r, name)
#define SPE_IS_NULL_(...) SPE_IS_NULL__(__VA_ARGS__)
#define SPE_IS_NULL__(rule, f, r, name) SPE_IS_NULL_##rule(r, name, f)
#define SPE_IS_NULL_NEVER(r, name, f) 0
#define SPE_IS_NULL_ZERO(r, name, f) ((r)->name == 0)
#define SPE_IS_NULL_NEG(r, name, f) ((r)->name < 0)
#define SPE_IS_NULL_NO_TIME(r, name, f) ((r)->name == SPE_ROW_NO_TIME)
#define SPE_IS_NULL_UNLESS(r, name, f) (!(r)->f)

/* The kind of a column: how the row holds its value (SPE_FIELD_* above). */
enum spe_column_kind {
	SPE_KIND_I64,
	SPE_KIND_U64,
	SPE_KIND_I32,
	SPE_KIND_U32,
	SPE_KIND_INT,
	SPE_KIND_FLAG,
	/* the kinds from here on point to memory the row does not hold */
	SPE_KIND_TEXT,
	SPE_KIND_BYTES,
	SPE_KIND_IDS,
	SPE_KIND_HIST,
};

/* When a column's value is SQL NULL (besides a NULL pointer). */
enum spe_null_rule {
	SPE_NULL_NEVER,
	SPE_NULL_ZERO,
	SPE_NULL_NEG,
	SPE_NULL_NO_TIME,
	SPE_NULL_UNLESS, /* the field at flag (flag_size bytes, an integer) is zero */
	SPE_NULL_ABSENT, /* a record row's column whose bit (flag) of present is clear */
};

/* One column of a table, as data. */
struct spe_column {
	const char *name;
	enum spe_column_kind kind;
	enum spe_null_rule null;
	uint16_t offset; /* of the value in the row (HIST: of latency) */
	uint16_t count;  /* BYTES, IDS, HIST: of the element count (uint32_t n_bytes, size_t otherwise) */
	uint16_t more;   /* HIST: of samples */
	uint16_t flag;   /* UNLESS: of the field; ABSENT: the bit */
	uint8_t flag_size;
	const char *sql; /* the SQLite type and constraints; NULL: not stored (FLAG) */
	const char *doc;
};

/* One table, as data. */
struct spe_table_info {
	const char *name;
	unsigned flags;          /* SPE_TABLE_* */
	const char *key;         /* SQLite PRIMARY KEY of a WITHOUT ROWID table, or NULL */
	const char *ch_order_by; /* ClickHouse's sort key; NULL: not in ClickHouse */
	const char *title;       /* docs/schema.md's heading */
	size_t row_size;         /* 0 for the store's tables (no row struct) */
	const struct spe_column *columns;
	int n_columns;           /* FLAG fields included */
};

/* The columns of spe_record, indexed by enum spe_record_column (spe_table_info(SPE_TABLE_RECORD)'s). */
extern const struct spe_column spe_record_columns[SPE_RECORD_NCOLS];

/* Table @p t (enum spe_table). */
const struct spe_table_info *spe_table_info(enum spe_table t);
/* The store's own tables (SPE_STORE_TABLES), in order; their count in *n. */
const struct spe_table_info *spe_store_tables(int *n);
/* The table (either list) named @p name, or NULL. */
const struct spe_table_info *spe_table_named(const char *name);

/* ---- reading a value ------------------------------------------------------------------- */

static inline const void *spe_column_at(const void *row, unsigned offset)
{
	return (const char *)row + offset;
}

/* An integer column's value (U64 as its 64-bit pattern). */
static inline int64_t spe_column_int(const struct spe_column *c, const void *row)
{
	const void *p = spe_column_at(row, c->offset);
	switch (c->kind) {
	case SPE_KIND_I64:
		return *(const int64_t *)p;
	case SPE_KIND_U64:
		return (int64_t)*(const uint64_t *)p;
	case SPE_KIND_I32:
		return *(const int32_t *)p;
	case SPE_KIND_U32:
		return *(const uint32_t *)p;
	case SPE_KIND_INT:
	case SPE_KIND_FLAG:
		return *(const int *)p;
	default:
		return 0;
	}
}

/* A pointer column's pointer (TEXT, BYTES, IDS; HIST: latency). */
static inline const void *spe_column_pointer(const struct spe_column *c, const void *row)
{
	return *(const void *const *)spe_column_at(row, c->offset);
}

/* BYTES, IDS, HIST: the element count. */
static inline size_t spe_column_count(const struct spe_column *c, const void *row)
{
	const void *p = spe_column_at(row, c->count);
	return c->kind == SPE_KIND_BYTES ? *(const uint32_t *)p : *(const size_t *)p;
}

/* Is column @p c of @p row SQL NULL? (IDS: an empty list is NULL in SQLite, an empty array in ClickHouse.) */
static inline int spe_column_is_null(const struct spe_column *c, const void *row)
{
	switch (c->null) {
	case SPE_NULL_NEVER:
		break;
	case SPE_NULL_ZERO:
		return spe_column_int(c, row) == 0;
	case SPE_NULL_NEG:
		return spe_column_int(c, row) < 0;
	case SPE_NULL_NO_TIME:
		return (uint64_t)spe_column_int(c, row) == SPE_ROW_NO_TIME;
	case SPE_NULL_UNLESS: {
		const void *f = spe_column_at(row, c->flag);
		if (c->flag_size == 8 ? !*(const uint64_t *)f : !*(const uint32_t *)f)
			return 1;
		break;
	}
	case SPE_NULL_ABSENT:
		return !(((const struct spe_row_record *)row)->present >> c->flag & 1);
	}
	return (c->kind == SPE_KIND_TEXT || c->kind == SPE_KIND_BYTES) && !spe_column_pointer(c, row);
}

#ifdef __cplusplus
}
#endif

#endif /* SPE_TABLES_H */
