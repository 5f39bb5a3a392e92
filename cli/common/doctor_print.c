/* SPDX-License-Identifier: Apache-2.0 */
/* Text and JSON forms of a spe doctor report (doctor_print.h). */
#include "doctor_print.h"
#include "cli_util.h"
#include "util/json.h"

#include <string.h>

int cli_doctor_exit_code(const struct spe_doctor_report *r)
{
	switch (r->verdict) {
	case SPE_DOCTOR_UNAVAILABLE: return CLI_UNAVAILABLE;
	case SPE_DOCTOR_NO_PERMISSION: return CLI_NOPERM;
	default: return CLI_OK;
	}
}

static const char *system_text(const struct spe_doctor_report *r)
{
	return strcmp(r->root, "/") ? "a captured tree" : "this system";
}

void cli_doctor_print_text(FILE *out, const struct spe_doctor_report *r)
{
	fprintf(out, "spe doctor: %s, Linux %s on %s\n", system_text(r), r->release[0] ? r->release : "?",
		r->arch[0] ? r->arch : "?");
	for (int i = 0; i < SPE_CHECK_COUNT; i++) {
		const struct spe_check *k = &r->check[i];
		fprintf(out, "%-4s  %-9s %s\n", spe_check_status_name(k->status), spe_check_name(k->id), k->summary);
		for (unsigned e = 0; e < k->n_evidence; e++)
			fprintf(out, "                %s: %s\n", k->evidence[e].source, k->evidence[e].value);
		if (k->fix[0] && k->status != SPE_CHECK_OK && k->status != SPE_CHECK_SKIP)
			fprintf(out, "                fix: %s\n", k->fix);
	}
	fprintf(out, "verdict: %s (exit %d)", spe_doctor_verdict_name(r->verdict), cli_doctor_exit_code(r));
	if (r->first_failure >= 0)
		fprintf(out, ": first failing check: %s", spe_check_name(r->first_failure));
	fputc('\n', out);
	if (r->command[0])
		fprintf(out, "works now: %s\n", r->command);
}

static void json_or_null(FILE *out, const char *s)
{
	if (s && *s)
		util_json_string(out, s);
	else
		fputs("null", out);
}

static const char *status_json(enum spe_check_status s)
{
	static const char *const names[] = { "ok", "warn", "fail", "skip" };
	return names[s];
}

void cli_doctor_print_json(FILE *out, const struct spe_doctor_report *r)
{
	fprintf(out, "{\"live\":%s,\"release\":", strcmp(r->root, "/") ? "false" : "true");
	json_or_null(out, r->release);
	fputs(",\"arch\":", out);
	json_or_null(out, r->arch);
	fprintf(out, ",\"verdict\":\"%s\",\"exit\":%d,\"first_failure\":", spe_doctor_verdict_name(r->verdict),
		cli_doctor_exit_code(r));
	json_or_null(out, r->first_failure >= 0 ? spe_check_name(r->first_failure) : NULL);
	fputs(",\"command\":", out);
	json_or_null(out, r->command);
	fputs(",\"checks\":[", out);
	for (int i = 0; i < SPE_CHECK_COUNT; i++) {
		const struct spe_check *k = &r->check[i];
		fprintf(out, "%s{\"id\":\"%s\",\"status\":\"%s\",\"blocks\":", i ? "," : "", spe_check_name(k->id),
			status_json(k->status));
		json_or_null(out, k->status == SPE_CHECK_FAIL ? spe_doctor_verdict_name(k->blocks) : NULL);
		fputs(",\"summary\":", out);
		util_json_string(out, k->summary);
		fputs(",\"evidence\":[", out);
		for (unsigned e = 0; e < k->n_evidence; e++) {
			fputs(e ? ",{\"source\":" : "{\"source\":", out);
			util_json_string(out, k->evidence[e].source);
			fputs(",\"value\":", out);
			util_json_string(out, k->evidence[e].value);
			fputc('}', out);
		}
		fputs("],\"fix\":", out);
		json_or_null(out, k->status == SPE_CHECK_OK || k->status == SPE_CHECK_SKIP ? NULL : k->fix);
		fputc('}', out);
	}
	fputs("]}\n", out);
}

void cli_doctor_print_blocker(FILE *out, const char *prog, const struct spe_doctor_report *r)
{
	if (r->first_failure < 0)
		return;
	const struct spe_check *k = &r->check[r->first_failure];
	fprintf(out, "%s: cannot record: %s: %s\n", prog, spe_check_name(k->id), k->summary);
	if (k->fix[0])
		fprintf(out, "%s: fix: %s\n", prog, k->fix);
	if (r->command[0])
		fprintf(out, "%s: this works now: %s\n", prog, r->command);
	fprintf(out, "%s: 'spe doctor' (or %s --check) shows every check and its evidence\n", prog, prog);
}

void cli_doctor_print_warning(FILE *out, const char *prog, const struct spe_doctor_report *r, enum spe_check_id id)
{
	const struct spe_check *k = &r->check[id];
	if (k->status != SPE_CHECK_WARN)
		return;
	fprintf(out, "%s: warning: %s: %s\n", prog, spe_check_name(k->id), k->summary);
	if (k->fix[0])
		fprintf(out, "%s: fix: %s\n", prog, k->fix);
}
