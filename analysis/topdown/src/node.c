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
 * normalisation (lower case, spaces -> '_').
 *   perf <= 6.3 labels (docs/topdown-formulas.md §7): "branch mispredict", and the
 *     fallback "backend bound/bad spec" when recovery bubbles are missing
 *   AmpereOne metrics (docs/topdown-formulas.md §7): retired_fraction, slots_lost_misspeculation_fraction
 *   toplev before the 2021 rename (docs/topdown-formulas.md §7): Frontend_Latency, Frontend_Bandwidth
 */
static const struct {
	const char *alias;
	enum td_node node;
} aliases[] = {
	{ "branch_mispredict", TD_BRANCH_MISPREDICTS },
	{ "backend_bound/bad_spec", TD_BACKEND_BOUND_BAD_SPECULATION },
	{ "retired_fraction", TD_RETIRING },
	{ "slots_lost_misspeculation_fraction", TD_BAD_SPECULATION },
	{ "frontend_latency", TD_FETCH_LATENCY },
	{ "frontend_bandwidth", TD_FETCH_BANDWIDTH },
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

enum td_node td_node_from_label_n(const char *label, size_t len)
{
	char buf[96];
	size_t n = 0;
	int dots = 0;

	/* Trim, lower-case, map ' ' and '-' to '_', keep only the last dotted component. */
	while (len && isspace((unsigned char)*label))
		label++, len--;
	while (len && isspace((unsigned char)label[len - 1]))
		len--;
	for (size_t i = 0; i < len; i++) {
		char c = label[i];
		if (c == '.') {
			dots++;
			n = 0;
			continue;
		}
		if (n + 1 >= sizeof buf)
			return TD_NONE;
		buf[n++] = (c == ' ' || c == '-') ? '_' : (char)tolower((unsigned char)c);
	}
	buf[n] = '\0';
	if (dots > 1 || n == 0)
		return TD_NONE; /* level 3 and below have no canonical node */

	const char *name = buf;
	if (strncmp(name, "tma_", 4) == 0)
		name += 4;
	for (int i = 0; i < TD_NODE_COUNT; i++) {
		if (strcmp(name, nodes[i].name) == 0)
			return (enum td_node)i;
	}
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
		if (strcmp(name, aliases[i].alias) == 0)
			return aliases[i].node;
	}
	return TD_NONE;
}

enum td_node td_node_from_label(const char *label)
{
	return label ? td_node_from_label_n(label, strlen(label)) : TD_NONE;
}
