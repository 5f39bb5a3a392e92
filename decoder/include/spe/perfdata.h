/* SPDX-License-Identifier: Apache-2.0 */
/* perf.data and raw-aux input layer.  (Filled in by the perf.data reader work.) */
#ifndef SPE_PERFDATA_H
#define SPE_PERFDATA_H
#endif
