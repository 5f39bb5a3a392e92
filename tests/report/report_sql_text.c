/* SPDX-License-Identifier: Apache-2.0 */
/*
 * report_sql_text NAME STORED: the SQLite text of the page's query NAME
 * (report_query_name(), e.g. data_page), reading the summaries of STORED
 * (report_sql.h's REPORT_STORED_* bits, 0: none): for tests that run a
 * query and its summary-based twin through spe-query and compare.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_sql.h"

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: report_sql_text NAME STORED\n");
		return 64;
	}
	for (int q = 0; q < RQ_COUNT; q++)
		if (!strcmp(report_query_name((enum report_query)q), argv[1])) {
			char *sql = report_query_sql((enum report_query)q, REPORT_SQLITE, (unsigned)strtoul(argv[2], NULL, 0));
			if (!sql)
				return 70;
			puts(sql);
			free(sql);
			return 0;
		}
	fprintf(stderr, "report_sql_text: no query named %s\n", argv[1]);
	return 64;
}
