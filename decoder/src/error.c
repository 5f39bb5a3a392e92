/* SPDX-License-Identifier: Apache-2.0 */
/* spe_errstr: the one place error codes get their text. */
#include "spe/spe.h"

const char *spe_errstr(int code)
{
	if (code < 0)
		code = -code;
	switch ((enum spe_error_code)code) {
	case spe_ok: return "success";
	case spe_internal: return "internal error";
	case spe_invalid: return "invalid argument";
	case spe_eos: return "end of stream";
	case spe_need_more: return "packet cut by the end of the buffer";
	case spe_bad_packet: return "invalid packet header";
	case spe_nomem: return "out of memory";
	case spe_io: return "input/output error";
	case spe_bad_file: return "not a valid perf.data or SPE file";
	case spe_unsupported: return "unsupported input";
	case spe_truncated: return "file is truncated";
	case spe_cancelled: return "cancelled";
	case spe_not_found: return "not found";
	case spe_no_permission: return "permission denied";
	case spe_unavailable: return "not available on this system";
	case spe_bad_input: return "malformed input";
	case spe_no_data: return "no usable data";
	}
	return "unknown error";
}
