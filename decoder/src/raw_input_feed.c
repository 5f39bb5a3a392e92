/* SPDX-License-Identifier: Apache-2.0 */
/* Raw input into the record decoder, window by window, packets joined across windows. */
#include "spe/spe.h"

int spe_raw_feed_next(struct spe_raw_input *r, struct spe_rec_decoder *dec)
{
	const uint8_t *buf;
	size_t len;
	uint64_t off;
	int err = spe_raw_next_window(r, &buf, &len, &off);
	if (err)
		return err;
	return spe_rec_feed(dec, buf, len, off, off != 0);
}
