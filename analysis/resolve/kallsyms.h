/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A kallsyms file's symbols by group (kallsyms.c): group 0 is the kernel
 * image's, each module has its own.  Addresses are the file's (the boot it
 * was read on); kernel_syms.c lines them up with a recording.
 */
#ifndef SPE_KALLSYMS_H
#define SPE_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct spe_kallsyms;

/*
 * Read @p path.  0, or a negative code with a message naming the file (and
 * the line) in @p err: -spe_bad_input for what is not a kallsyms file (a
 * line too long or of another form, every address 0, no line), -spe_io,
 * -spe_nomem, or spe_infile_open's code.
 */
int ana_kallsyms_read(const char *path, struct spe_kallsyms **out, char *err, size_t errlen);
/* The same from @p f, named @p path in messages (the caller closes it). */
int ana_kallsyms_parse(FILE *f, const char *path, struct spe_kallsyms **out, char *err, size_t errlen);
/* The number of groups: the image's (0), and one per module listed. */
int ana_kallsyms_groups(const struct spe_kallsyms *ks);
/* The group of @p module (NULL: the image, 0); -1 when the file lists none of its symbols. */
int ana_kallsyms_group(const struct spe_kallsyms *ks, const char *module);
/* Group @p group's text symbols: their count, and [lo, hi) from the first's start to the last's end. */
void ana_kallsyms_group_range(const struct spe_kallsyms *ks, int group, uint64_t *lo, uint64_t *hi, size_t *n);
/* The text symbol of @p group holding @p addr (file addresses); NULL if none, or past the last one's known end. */
const char *ana_kallsyms_find(const struct spe_kallsyms *ks, int group, uint64_t addr, uint64_t *start,
			      uint64_t *size);
/* The image's reference symbol @p name (_text or _stext, as perf names it in the kernel MMAP): 1 with its address. */
int ana_kallsyms_ref(const struct spe_kallsyms *ks, const char *name, uint64_t *addr);

#endif
