/* SPDX-License-Identifier: Apache-2.0 */
/* Printing a spe doctor report: spe doctor and spe-record --check share it. */
#ifndef SPE_CLI_DOCTOR_PRINT_H
#define SPE_CLI_DOCTOR_PRINT_H

#include <stdio.h>

#include "spe/doctor.h"

/* The checklist: one line per check, its evidence and fix, then the verdict. */
void cli_doctor_print_text(FILE *out, const struct spe_doctor_report *r);
/* One JSON object (docs/spe-doctor.1.md, OUTPUT). */
void cli_doctor_print_json(FILE *out, const struct spe_doctor_report *r);
/* 0, 69 or 77 from the verdict. */
int cli_doctor_exit_code(const struct spe_doctor_report *r);
/* "PROG: cannot record: CHECK: SUMMARY" and the fix, for spe-record. */
void cli_doctor_print_blocker(FILE *out, const char *prog, const struct spe_doctor_report *r);
/* "PROG: warning: CHECK: SUMMARY" and the fix when check @p id WARNs. */
void cli_doctor_print_warning(FILE *out, const char *prog, const struct spe_doctor_report *r, enum spe_check_id id);

#endif
