/* SPDX-License-Identifier: Apache-2.0 */
/* Internal to spe_safeio: naming what a path is, for messages. */
#ifndef SPE_SAFEIO_FILE_KIND_H
#define SPE_SAFEIO_FILE_KIND_H

#include <sys/stat.h>

/* "a directory", "a FIFO (pipe)", "a character device", ... for a non-regular st_mode. */
const char *safeio_kind_name(mode_t mode);

#endif
