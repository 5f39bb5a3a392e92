/* SPDX-License-Identifier: Apache-2.0 */
/* Memory levels in the page: the facts table's names, in its order, and a colour for each. */
#include <string.h>

#include "report_internal.h"

static const char *const level_names[MEM_LEVELS] = {
#define SPE_X(id, name, peer, desc) name,
	SPE_MEM_LEVEL_LIST(SPE_X)
#undef SPE_X
};

/*
 * Colours by level, in the facts table's order: green for the core's own
 * caches, orange for another core's, yellow for the system cache, red for
 * memory; grey for unknown.  A level added to the facts table gets grey
 * until it is given a colour here.
 */
static const struct {
	const char *name;
	unsigned rgb;
} level_colours[] = {
	{ "L1D", 0x43a047 },    { "L2", 0x9ccc65 },     { "peer-core", 0xfb8c00 }, { "local-cluster", 0xffb74d },
	{ "SLC", 0xfdd835 },    { "peer-cluster", 0xf4511e }, { "remote", 0x8e24aa }, { "DRAM", 0xe53935 },
	{ "remote-DRAM", 0x8b0000 }, { "IO", 0x546e7a },
};
#define UNKNOWN_RGB 0xbdbdbd

int report_mem_level_index(const char *name)
{
	for (int i = 0; name && i < MEM_LEVELS; i++)
		if (strcmp(level_names[i], name) == 0)
			return i;
	return MEM_LEVELS;
}

const char *report_mem_level_label(int index)
{
	return index >= 0 && index < MEM_LEVELS ? level_names[index] : "unknown";
}

unsigned report_mem_level_rgb(int index)
{
	const char *name = report_mem_level_label(index);
	for (size_t i = 0; i < sizeof level_colours / sizeof level_colours[0]; i++)
		if (strcmp(level_colours[i].name, name) == 0)
			return level_colours[i].rgb;
	return UNKNOWN_RGB;
}
