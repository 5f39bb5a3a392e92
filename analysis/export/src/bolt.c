/* SPDX-License-Identifier: Apache-2.0 */
#include "export_internal.h"
int export_bolt(struct export_ctx *x, FILE *out)
{
	(void)out;
	return export_fail(x, -spe_unsupported, "this format is not implemented yet");
}
