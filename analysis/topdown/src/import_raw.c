/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Raw counter listings: one event and its count per line, in any of
 *   NAME COUNT      COUNT NAME      NAME,COUNT      NAME=COUNT
 * NAME may be a libpmc spec with commas ("UOPS_ISSUED.ANY,cmask=1,inv"),
 * a perf term list ("cpu/event=0x0e,umask=0x01/") or a plain name.
 * "# cpu: NAME" sets the CPU; other '#' lines are comments;
 * "# interval: T" starts a new interval at T seconds.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "import_util.h"

static int is_count(const char *s, size_t len)
{
	double v;
	int counted;
	return len && td_parse_count(s, len, &v, &counted) == 0 && counted;
}

int td_parse_raw(const char *text, size_t len, long line0, struct td_run *run, struct td_diag *diag)
{
	struct td_line_iter it;
	struct td_line line;
	double t = 0;
	int rc;

	td_lines_begin(&it, text, len, line0);
	while (td_lines_next(&it, &line)) {
		const char *s = line.s;
		size_t n = line.len;
		while (n && isspace((unsigned char)*s))
			s++, n--;
		while (n && isspace((unsigned char)s[n - 1]))
			n--;
		if (!n)
			continue;
		if (s[0] == '#') {
			char key[16], val[64];
			if (sscanf(s, "# %15[a-z]: %63s", key, val) == 2) {
				if (!strcmp(key, "cpu") && !run->cpu)
					td_run_set(&run->cpu, val);
				else if (!strcmp(key, "interval"))
					t = strtod(val, NULL);
			}
			continue;
		}
		const char *name = NULL, *count = NULL;
		size_t nlen = 0, clen = 0;
		/* COUNT NAME or NAME COUNT (white space) */
		struct td_field f[2];
		const char *sp = s;
		while (sp < s + n && !isspace((unsigned char)*sp))
			sp++;
		const char *lastsp = s + n;
		while (lastsp > s && !isspace((unsigned char)lastsp[-1]))
			lastsp--;
		if (sp < s + n && is_count(s, (size_t)(sp - s))) {
			count = s, clen = (size_t)(sp - s);
			td_split_ws(sp, (size_t)(s + n - sp), f, 1);
			name = f[0].s, nlen = (size_t)(s + n - f[0].s);
		} else if (lastsp > s && is_count(lastsp, (size_t)(s + n - lastsp))) {
			count = lastsp, clen = (size_t)(s + n - lastsp);
			name = s, nlen = (size_t)(lastsp - s);
			while (nlen && isspace((unsigned char)name[nlen - 1]))
				nlen--;
		} else {
			/* NAME,COUNT or NAME=COUNT: split at the last separator */
			const char *sep = NULL;
			for (const char *q = s + n; q-- > s;)
				if (*q == ',' || *q == '=') {
					sep = q;
					break;
				}
			if (sep && is_count(sep + 1, (size_t)(s + n - sep - 1))) {
				name = s, nlen = (size_t)(sep - s);
				count = sep + 1, clen = (size_t)(s + n - sep - 1);
			}
		}
		if (!name || !nlen)
			return td_fail(diag, spe_bad_input, line.no, "expected an event name and a count, found '%.*s'",
				       (int)(n > 60 ? 60 : n), s);
		double v;
		int counted;
		td_parse_count(count, clen, &v, &counted);
		if ((rc = td_put_event(run, t, "all", name, nlen, v, counted)) < 0)
			return rc;
	}
	return 0; /* a block without counts is skipped by the caller */
}
