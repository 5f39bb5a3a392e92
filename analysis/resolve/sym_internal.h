/* SPDX-License-Identifier: Apache-2.0 */
/* The symbolizer's handles, for other parts of spe_analysis (data_object.c). */
#ifndef SPE_SYM_INTERNAL_H
#define SPE_SYM_INTERNAL_H

#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "spe/analysis.h"

/* The binary's dwfl module (reported at base 0: its addresses are the ELF's vaddrs) and its ELF. */
Dwfl_Module *ana_sym_binary_module(struct spe_sym_binary *bin);
Elf *ana_sym_binary_elf(struct spe_sym_binary *bin);

#endif
