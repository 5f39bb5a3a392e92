/* SPDX-License-Identifier: Apache-2.0 */
/* The message table and the diagnostics list. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const struct {
	const char *id;
	enum spe_diag_class cls;
	const char *what;
} messages[SPE_MSG_COUNT] = {
#define SPE_X(ident, id, cls, what) [SPE_MSG_##ident] = { id, SPE_DIAG_##cls, what },
	SPE_FILTER_MSG_LIST(SPE_X)
#undef SPE_X
};

const char *spe_filter_msg_id(enum spe_filter_msg m)
{
	return (unsigned)m < SPE_MSG_COUNT ? messages[m].id : NULL;
}

enum spe_diag_class spe_filter_msg_class(enum spe_filter_msg m)
{
	return (unsigned)m < SPE_MSG_COUNT ? messages[m].cls : SPE_DIAG_USAGE;
}

const char *spe_filter_msg_what(enum spe_filter_msg m)
{
	return (unsigned)m < SPE_MSG_COUNT ? messages[m].what : NULL;
}

int spe_filter_class_code(enum spe_diag_class cls)
{
	switch (cls) {
	case SPE_DIAG_UNSUPPORTED: return -spe_unavailable;
	case SPE_DIAG_PRIVILEGE: return -spe_no_permission;
	default: return -spe_invalid; /* usage, EINVAL, ENOENT, a strict check */
	}
}

unsigned spe_filter_diag_errors(const struct spe_filter_diags *diags)
{
	unsigned n = 0;
	for (unsigned i = 0; i < diags->count; i++)
		n += diags->d[i].error;
	return n;
}

void filt_diag_add(struct spe_filter_diags *diags, enum spe_filter_msg msg, bool strict, const char *option,
		   const char *fmt, ...)
{
	if (diags->count >= SPE_FILTER_MAX_DIAGS) {
		diags->dropped++;
		return;
	}
	struct spe_filter_diag *d = &diags->d[diags->count++];
	memset(d, 0, sizeof *d);
	d->msg = msg;
	d->cls = messages[msg].cls;
	d->error = d->cls != SPE_DIAG_STRICT || strict;
	snprintf(d->option, sizeof d->option, "%s", option);
	int n = snprintf(d->text, sizeof d->text, "%s: ", option);
	if (n < 0 || (size_t)n >= sizeof d->text)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->text + n, sizeof d->text - (size_t)n, fmt, ap);
	va_end(ap);
}
