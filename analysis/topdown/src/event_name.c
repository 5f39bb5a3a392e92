/* SPDX-License-Identifier: Apache-2.0 */
/* Event names as printed -> what they count (event_name.h). */
#include "topdown/event_name.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* perf's event modifiers (tools/perf/Documentation/perf-list.txt "EVENT MODIFIERS"). */
static int all_modifier_chars(const char *s, size_t n)
{
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!strchr("ukhIGHpPSDWebR", s[i]))
			return 0;
	return 1;
}

void td_event_base(const char *name, char *out, size_t cap, char *pmu, size_t pmu_cap)
{
	const char *s = name, *end = name + strlen(name);
	if (pmu && pmu_cap)
		pmu[0] = '\0';
	const char *slash = memchr(s, '/', (size_t)(end - s));
	if (slash) {
		const char *close = memchr(slash + 1, '/', (size_t)(end - slash - 1));
		if (pmu && pmu_cap)
			snprintf(pmu, pmu_cap, "%.*s", (int)(slash - s), s);
		s = slash + 1;
		if (close)
			end = close; /* "cpu_core/cycles/u": modifiers after the slash are dropped */
	}
	const char *colon = NULL;
	for (const char *p = end; p-- > s;)
		if (*p == ':') {
			colon = p;
			break;
		}
	if (colon && all_modifier_chars(colon + 1, (size_t)(end - colon - 1)))
		end = colon;
	size_t n = 0;
	for (const char *p = s; p < end && n + 1 < cap; p++)
		out[n++] = (char)tolower((unsigned char)*p);
	if (cap)
		out[n] = '\0';
}

enum td_event_kind td_event_kind_of(const char *name)
{
	static const struct {
		const char *base;
		enum td_event_kind kind;
	} table[] = {
		{ "slots", TD_EV_SLOTS },
		{ "topdown.slots", TD_EV_SLOTS },
		{ "topdown-total-slots", TD_EV_SLOTS },
		{ "tma_info_thread_slots", TD_EV_SLOTS },
		{ "cycles", TD_EV_CYCLES },
		{ "cpu-cycles", TD_EV_CYCLES },
		{ "cpu_cycles", TD_EV_CYCLES },
		{ "cpu_clk_unhalted.thread", TD_EV_CYCLES },
		{ "cpu_clk_unhalted.thread_p", TD_EV_CYCLES },
		{ "cpu_clk_unhalted.core", TD_EV_CYCLES },
		{ "ls_not_halted_cyc", TD_EV_CYCLES },
		{ "clks", TD_EV_CYCLES },
		{ "instructions", TD_EV_INSTRUCTIONS },
		{ "inst_retired", TD_EV_INSTRUCTIONS },
		{ "inst_retired.any", TD_EV_INSTRUCTIONS },
		{ "ex_ret_instr", TD_EV_INSTRUCTIONS },
	};
	char base[128];
	td_event_base(name, base, sizeof base, NULL, 0);
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (strcmp(base, table[i].base) == 0)
			return table[i].kind;
	return TD_EV_OTHER;
}

const char *td_event_hybrid_pmu(const char *name, size_t len)
{
	static const char *const pmus[] = { "cpu_core", "cpu_atom", "cpu_lowpower" };
	for (size_t i = 0; i < sizeof pmus / sizeof pmus[0]; i++) {
		size_t n = strlen(pmus[i]);
		if (len > n && strncmp(name, pmus[i], n) == 0 && name[n] == '/')
			return pmus[i];
	}
	return NULL;
}

int td_event_is_amd(const char *name)
{
	static const char *const prefixes[] = { "ls_not_halted_cyc", "de_src_op_disp", "ex_ret_ops", "de_no_dispatch_per_slot",
						"ex_no_retire", "ex_ret_ucode_ops" };
	char base[128];
	td_event_base(name, base, sizeof base, NULL, 0);
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (strncmp(base, prefixes[i], strlen(prefixes[i])) == 0)
			return 1;
	return 0;
}
