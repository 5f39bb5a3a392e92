/* SPDX-License-Identifier: Apache-2.0 */
/* What other layers of libspe use of the record decoder beyond its public API. */
#ifndef SPE_RECORD_INTERNAL_H
#define SPE_RECORD_INTERNAL_H

#include "spe/spe.h"

/*
 * spe_rec_next(dec, rec, sizeof *rec) for a caller whose *rec always holds
 * the last record a decoder returned (or zeros): clearing it for the next
 * record skips the extra arrays a record did not use (the AUX layer's
 * per-record path).
 */
int rec_next_reused(struct spe_rec_decoder *dec, struct spe_record *rec);

#endif
