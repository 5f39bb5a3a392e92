/* SPDX-License-Identifier: Apache-2.0 */
/* What the whole-file front ends (load_file.c) use of the loader beyond its public API. */
#ifndef SPE_LOADER_INTERNAL_H
#define SPE_LOADER_INTERNAL_H

#include "spe/analysis.h"

/* spe_loader_record with the record's perf time known (the AUX layer's item.time; UINT64_MAX = none). */
int spe_loader_record_at(struct spe_loader *ld, int cpu, int pid, int tid, const struct spe_record *rec, uint64_t time);
/* A hint: start loading the PC memo entry @p rec will look up (a few records ahead). */
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

#endif
