/* SPDX-License-Identifier: Apache-2.0 */
/* Op-type flags → `-D` words (shared by the describer and spe_record_op_text). */
#ifndef SPE_OP_TEXT_H
#define SPE_OP_TEXT_H

#include "spe/spe.h"
#include "text_out.h"

void spe_op_text_out(struct text_out *o, uint8_t raw_class, uint8_t payload, uint8_t op_class, uint32_t op_flags,
		     uint32_t evl);

#endif
