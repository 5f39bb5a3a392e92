/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Starting the programs under test.  When the build cross-compiles, ctest
 * sets SPE_RUN to the emulator command (CMAKE_CROSSCOMPILING_EMULATOR, e.g.
 * "qemu-aarch64 -L /"); natively it is empty.  Every
 * built program a test starts goes through it; host tools (sh, perf) do not.
 */
#ifndef SPE_TEST_RUN_H
#define SPE_TEST_RUN_H

/* "$SPE_RUN " (with a trailing space) or "": put it before a built program in a shell command. */
const char *spe_run_prefix(void);

/* execv(path, argv) through $SPE_RUN (words split on spaces); returns only on failure. */
int spe_run_execv(const char *path, char *const argv[]);

#endif
