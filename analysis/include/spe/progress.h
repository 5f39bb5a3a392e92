/* SPDX-License-Identifier: Apache-2.0 */
/*
 * How long work tells its caller how far it got: the load (spe_load_opts),
 * the export (spe_export_opts) and the HTML report (spe_report_opts) call a
 * function of the caller's now and then, on the working thread.  The library
 * never prints; the command decides whether and how to show it
 * (cli/common/progress.h draws one line on a terminal).
 *
 * The calls are cheap to make: they come every few tens of thousands of
 * items (a load calls about every 65,536 records), never per item, so the
 * caller may read a clock in each and draw only when enough time passed.
 */
#ifndef SPE_PROGRESS_H
#define SPE_PROGRESS_H

#include <stdint.h>

struct spe_progress {
	const char *unit; /* what count counts: "records", "rows", "sections" */
	uint64_t count;   /* items done so far */
	/*
	 * How far through the input: done of total (bytes of the file's SPE
	 * data, record ids, sections); total 0 when not known.
	 */
	uint64_t done, total;
	/*
	 * NULL while items are counted; else the step under way that has no
	 * count ("writing the summaries"): the line says it instead.
	 */
	const char *step;
};

typedef void spe_progress_fn(void *arg, const struct spe_progress *p);

#endif
