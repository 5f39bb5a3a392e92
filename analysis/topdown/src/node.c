/* SPDX-License-Identifier: Apache-2.0 */
/* The canonical topdown tree and the label spellings that map onto it. */
#include "topdown/node.h"

#include <ctype.h>
#include <string.h>

struct node_row {
	const char *name;
	enum td_node parent;
	int level;
	const char *basis;
	const char *description;
};

static const struct node_row nodes[TD_NODE_COUNT] = {
#define TD_NODE_ROW(id, name, parent, level, basis, desc) [TD_##id] = { name, TD_##parent, level, basis, desc },
	TD_NODE_LIST(TD_NODE_ROW)
#undef TD_NODE_ROW
};

/*
 * Spellings other than "<canonical>" and "tma_<canonical>", after
 * normalisation (lower case, ' ' and '-' -> '_').  @parent, when set, is the
 * only toplev parent path under which the spelling means the node.
 *   perf <= 6.3 labels (docs/topdown-formulas.md §7): "branch mispredict", and the
 *     fallback "backend bound/bad spec" when recovery bubbles are missing
 *   AmpereOne metrics (§7): retired_fraction, slots_lost_misspeculation_fraction
 *   toplev before the 2021 rename (§7): Frontend_Latency, Frontend_Bandwidth,
 *     and its short forms FE_Latency, FE_Bandwidth, Branch_Mispred; the
 *     Skylake-era Retiring.Base / Retiring.Microcode_Sequencer (light and
 *     heavy operations before the rename)
 *   topdown-tool titles of the V3/N3 stage 1 level 2 (telemetry-solution
 *     data/pmu/cpu/neoverse/neoverse-v3.json): "Backend Memory Bound", ...
 *   AMD Zen 4 PipelineL2 (perf's amdzen4/pipeline.json): the split of each
 *     level 1 category, in dispatch slots
 */
static const struct {
	const char *alias;
	enum td_node node;
	const char *parent;
	unsigned char amd;
} aliases[] = {
	{ "branch_mispredict", TD_BRANCH_MISPREDICTS, NULL, 0 },
	{ "backend_bound/bad_spec", TD_BACKEND_BOUND_BAD_SPECULATION, NULL, 0 },
	{ "retired_fraction", TD_RETIRING, NULL, 0 },
	{ "slots_lost_misspeculation_fraction", TD_BAD_SPECULATION, NULL, 0 },
	{ "frontend_latency", TD_FETCH_LATENCY, NULL, 0 },
	{ "frontend_bandwidth", TD_FETCH_BANDWIDTH, NULL, 0 },
	{ "fe_latency", TD_FETCH_LATENCY, NULL, 0 },
	{ "fe_bandwidth", TD_FETCH_BANDWIDTH, NULL, 0 },
	{ "branch_mispred", TD_BRANCH_MISPREDICTS, NULL, 0 },
	{ "base", TD_LIGHT_OPERATIONS, "retiring", 0 },
	{ "microcode_sequencer", TD_HEAVY_OPERATIONS, "retiring", 0 },
	{ "backend_memory_bound", TD_BACKEND_MEM_BOUND, NULL, 0 },
	{ "frontend_memory_bound", TD_FRONTEND_MEM_BOUND, NULL, 0 },
	{ "bad_speculation_mispredicts", TD_BRANCH_MISPREDICTS, NULL, 1 },
	{ "bad_speculation_pipeline_restarts", TD_MACHINE_CLEARS, NULL, 1 },
	{ "frontend_bound_latency", TD_FETCH_LATENCY, NULL, 1 },
	{ "frontend_bound_bandwidth", TD_FETCH_BANDWIDTH, NULL, 1 },
	{ "backend_bound_memory", TD_MEMORY_BOUND, NULL, 1 },
	{ "backend_bound_cpu", TD_CORE_BOUND, NULL, 1 },
	{ "retiring_fastpath", TD_LIGHT_OPERATIONS, NULL, 1 },
	{ "retiring_microcode", TD_HEAVY_OPERATIONS, NULL, 1 },
	{ "smt_contention", TD_SMT_CONTENTION, NULL, 1 },
};

static int valid(enum td_node node)
{
	return node >= 0 && node < TD_NODE_COUNT;
}

const char *td_node_name(enum td_node node)
{
	return valid(node) ? nodes[node].name : NULL;
}

enum td_node td_node_parent(enum td_node node)
{
	return valid(node) ? nodes[node].parent : TD_NONE;
}

int td_node_level(enum td_node node)
{
	return valid(node) ? nodes[node].level : 0;
}

const char *td_node_basis(enum td_node node)
{
	return valid(node) ? nodes[node].basis : NULL;
}

const char *td_node_description(enum td_node node)
{
	return valid(node) ? nodes[node].description : NULL;
}

/*
 * Normalise [label, label+len): trim, lower-case, ' ' and '-' -> '_'.  The
 * last dotted component goes to @p leaf, the one before it (if any) to
 * @p parent; *dots counts the dots.  0, or -1 when a part does not fit.
 */
static int normalise(const char *label, size_t len, char *leaf, char *parent, size_t cap, int *dots)
{
	size_t n = 0;
	*dots = 0;
	leaf[0] = parent[0] = '\0';
	while (len && isspace((unsigned char)*label))
		label++, len--;
	while (len && isspace((unsigned char)label[len - 1]))
		len--;
	for (size_t i = 0; i < len; i++) {
		char c = label[i];
		if (c == '.') {
			(*dots)++;
			leaf[n] = '\0';
			memcpy(parent, leaf, n + 1);
			n = 0;
			continue;
		}
		if (n + 1 >= cap)
			return -1;
		leaf[n++] = (c == ' ' || c == '-') ? '_' : (char)tolower((unsigned char)c);
	}
	leaf[n] = '\0';
	return n ? 0 : -1;
}

/* The alias row of @p name under @p parent ("" = none), or -1. */
static int alias_row(const char *name, const char *parent)
{
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
		if (strcmp(name, aliases[i].alias) != 0)
			continue;
		if (aliases[i].parent && strcmp(parent, aliases[i].parent) != 0)
			continue;
		return (int)i;
	}
	return -1;
}

enum td_node td_node_from_label_n(const char *label, size_t len)
{
	char leaf[96], parent[96];
	int dots;
	if (normalise(label, len, leaf, parent, sizeof leaf, &dots) != 0 || dots > 1)
		return TD_NONE; /* level 3 and below have no canonical node */

	const char *name = leaf;
	if (strncmp(name, "tma_", 4) == 0)
		name += 4;
	enum td_node node = TD_NONE;
	for (int i = 0; i < TD_NODE_COUNT && node == TD_NONE; i++) {
		if (strcmp(name, nodes[i].name) == 0)
			node = (enum td_node)i;
	}
	if (node == TD_NONE) {
		int row = alias_row(name, parent);
		if (row >= 0)
			node = aliases[row].node;
	}
	/* "Parent.Leaf" is how toplev spells a level 2 node; nothing else is one */
	if (dots == 1 && node != TD_NONE && nodes[node].level != 2)
		return TD_NONE;
	return node;
}

int td_node_label_is_amd(const char *label, size_t len)
{
	char leaf[96], parent[96];
	int dots;
	if (normalise(label, len, leaf, parent, sizeof leaf, &dots) != 0 || dots)
		return 0;
	int row = alias_row(leaf, parent);
	return row >= 0 && aliases[row].amd;
}

enum td_node td_node_from_label(const char *label)
{
	return label ? td_node_from_label_n(label, strlen(label)) : TD_NONE;
}
