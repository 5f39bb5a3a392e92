/* SPDX-License-Identifier: Apache-2.0 */
/* What the whole-file front ends (load_file.c) use of the loader beyond its public API. */
#ifndef SPE_LOADER_INTERNAL_H
#define SPE_LOADER_INTERNAL_H

#include "spe/analysis.h"

/* spe_loader_record with the record's perf time known (the AUX layer's item.time; UINT64_MAX = none). */
int spe_loader_record_at(struct spe_loader *ld, int cpu, int pid, int tid, const struct spe_record *rec, uint64_t time);
/* A hint: start loading the memo entries @p rec will look up, its PC's and its data page's (a few records ahead). */
void spe_loader_prefetch(struct spe_loader *ld, const struct spe_record *rec, uint64_t time);
/* The AUX layer's decoder counts and the lost AUX data, into load_stats. */
void spe_loader_add_aux_stats(struct spe_loader *ld, const struct spe_aux_stats *s);
/* The file was cut short (s->cut): @p what, the AUX layer's message naming file, offset and what was cut. */
void spe_loader_note_cut(struct spe_loader *ld, const char *what);

/*
 * PERF_RECORD_KSYMBOL: kernel code over [addr, addr + len) named @p name (a
 * BPF program, trampoline or OOL code), a kernel map of its own with one
 * symbol covering it from @p time; @p unregister: the code is gone, its map
 * ends.
 */
int spe_loader_ksymbol(struct spe_loader *ld, uint64_t addr, uint32_t len, int unregister, const char *name,
		       uint64_t time);
/* The recording's HEADER_OSRELEASE (the kernel's vmlinux paths name it).  0 or -spe_nomem. */
int spe_loader_osrelease(struct spe_loader *ld, const char *release);
/* PERF_RECORD_BPF_EVENT: a program loaded (@p unload 0) or unloaded; counted (its code comes as KSYMBOL). */
void spe_loader_bpf_event(struct spe_loader *ld, int unload);
/* MAP_HUGETLB of an MMAP2's flags (the same on arm64 and x86: asm-generic/mman.h). */
#define SPE_MAP_HUGETLB 0x40000u
/* spe_loader_mmap with the MMAP2's flags (MAP_HUGETLB makes anonymous memory of it). */
int spe_loader_exec_mmap(struct spe_loader *ld, int pid, uint64_t start, uint64_t len, uint64_t pgoff,
			 const char *path, const char *build_id, uint64_t time, uint32_t flags);
/* Whether every event of the recording used CLOCK_MONOTONIC (perf record -k 1): jitdump times are perf's then. */
void spe_loader_clock(struct spe_loader *ld, int monotonic);

#endif
