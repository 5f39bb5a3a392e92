/* SPDX-License-Identifier: Apache-2.0 */
/* The canonical tree and the label spellings of each perf era and tool. */
#include "check.h"
#include "topdown/node.h"

TEST(tree)
{
	CHECK_STR_EQ(td_node_name(TD_MEMORY_BOUND), "memory_bound");
	CHECK_INT_EQ(td_node_parent(TD_MEMORY_BOUND), TD_BACKEND_BOUND);
	CHECK_INT_EQ(td_node_level(TD_RETIRING), 1);
	CHECK_INT_EQ(td_node_level(TD_LIGHT_OPERATIONS), 2);
	CHECK_STR_EQ(td_node_basis(TD_BACKEND_MEM_BOUND), "parent_cycles");
	CHECK_STR_EQ(td_node_basis(TD_FRONTEND_STALLED_CYCLES), "cycles");
	CHECK(td_node_name(TD_NODE_COUNT) == NULL);
}

TEST(labels)
{
	CHECK_INT_EQ(td_node_from_label("bad speculation"), TD_BAD_SPECULATION); /* perf <= 6.3 */
	CHECK_INT_EQ(td_node_from_label("Core bound"), TD_CORE_BOUND);
	CHECK_INT_EQ(td_node_from_label("backend bound/bad spec"), TD_BACKEND_BOUND_BAD_SPECULATION);
	CHECK_INT_EQ(td_node_from_label("branch mispredict"), TD_BRANCH_MISPREDICTS);
	CHECK_INT_EQ(td_node_from_label("tma_fetch_latency"), TD_FETCH_LATENCY);     /* >= 6.4 */
	CHECK_INT_EQ(td_node_from_label("frontend_bound"), TD_FRONTEND_BOUND);       /* Arm */
	CHECK_INT_EQ(td_node_from_label("retired_fraction"), TD_RETIRING);           /* AmpereOne */
	CHECK_INT_EQ(td_node_from_label("Backend_Bound.Memory_Bound"), TD_MEMORY_BOUND); /* toplev */
	CHECK_INT_EQ(td_node_from_label("Frontend_Bound.Frontend_Latency"), TD_FETCH_LATENCY);
	CHECK_INT_EQ(td_node_from_label("Frontend_Bound.Frontend_Latency.ITLB_Misses"), TD_NONE);
	CHECK_INT_EQ(td_node_from_label("Frontend Bound"), TD_FRONTEND_BOUND);       /* topdown-tool title */
	CHECK_INT_EQ(td_node_from_label("tma_backend_bound_aux"), TD_NONE);
	CHECK_INT_EQ(td_node_from_label(""), TD_NONE);
}

int main(void)
{
	RUN(tree);
	RUN(labels);
	return check_summary();
}
