/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Topdown of a region of one's own code (the example of spe-topdown(1)).
 * Built and run by the tests: where the CPU has no topdown PMU it prints
 * the library's message and exits 77 (skip).
 */
#include <stdio.h>
#include <stdlib.h>

#include "topdown/measure.h"

static volatile double sink;

static void work(void)
{
	double x = 0;
	for (int i = 0; i < 10 * 1000 * 1000; i++)
		x += i * 0.5;
	sink = x;
}

int main(void)
{
	struct td_probe probe;
	char err[256] = "";
	struct td_session *s;
	struct td_snapshot start;
	struct td_run run;

	if (td_probe(NULL, 2, &probe, err, sizeof err) < 0 || td_session_open(&probe, 0, 0, &s, err, sizeof err) < 0) {
		printf("SKIP: %s\n", err);
		return 77;
	}
	td_run_init(&run);
	struct td_interval *iv = td_run_interval(&run, 0, NULL);
	if (!iv || td_region_begin(s, &start) < 0) {
		fprintf(stderr, "region: %s\n", iv ? td_session_errmsg(s) : "out of memory");
		return 1;
	}
	work();
	int rc = td_region_end(s, &start, iv);
	if (rc < 0) {
		fprintf(stderr, "region: %s\n", td_session_errmsg(s));
		td_session_close(s);
		return 1;
	}
	td_session_close(s);
	for (int k = 0; k < TD_NODE_COUNT; k++)
		if (iv->values.set[k])
			printf("%s=%.4f\n", td_node_name(k), iv->values.frac[k]);
	td_run_fini(&run);
	return 0;
}
