/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the jitdump reader (analysis/resolve/jitdump.c) on a dump in
 * memory: header, records of every kind, either byte order, cut anywhere.
 * Every code it keeps must lie in the buffer (its name's NUL, its bytes),
 * and the line lookup of each code's first and last address must stay in
 * that code's lines.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jitdump.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jitdump d;
	ana_jitdump_init(&d);
	char err[256];
	if (ana_jitdump_parse(&d, data, size, "fuzz", err, sizeof err) == 0) {
		for (size_t i = 0; i < d.n_codes; i++) {
			const struct jit_code *c = &d.codes[i];
			if (c->name >= d.n_strings || c->code_offset + d.codes[c->load].size > size ||
			    c->first_line + (size_t)c->n_lines > d.n_lines || c->load > i)
				abort();
			const struct jit_line *l = ana_jitdump_line(&d, c, c->addr);
			const struct jit_line *r = ana_jitdump_line(&d, c, c->addr + (c->size ? c->size - 1 : 0));
			if (!c->n_lines && (l || r))
				abort();
			if (c->n_lines) {
				const struct jit_line *lo = d.lines + c->first_line, *hi = lo + c->n_lines;
				if ((l && (l < lo || l >= hi)) || (r && (r < lo || r >= hi)) || (r && r->file >= d.n_strings))
					abort();
			}
			if (strlen(d.strings + c->name) + c->name >= d.n_strings)
				abort();
		}
	}
	ana_jitdump_fini(&d);
	return 0;
}
