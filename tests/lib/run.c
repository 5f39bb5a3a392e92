/* SPDX-License-Identifier: Apache-2.0 */
#include "run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SPE_RUN_MAX_WORDS 16

const char *spe_run_prefix(void)
{
	static char prefix[1024];
	const char *run = getenv("SPE_RUN");
	if (!run || !*run)
		return "";
	snprintf(prefix, sizeof prefix, "%s ", run);
	return prefix;
}

int spe_run_execv(const char *path, char *const argv[])
{
	const char *run = getenv("SPE_RUN");
	if (!run || !*run)
		return execv(path, argv);

	static char words[1024];
	char *args[SPE_RUN_MAX_WORDS + 256];
	size_t n = 0;
	snprintf(words, sizeof words, "%s", run);
	for (char *save = NULL, *w = strtok_r(words, " ", &save); w && n < SPE_RUN_MAX_WORDS;
	     w = strtok_r(NULL, " ", &save))
		args[n++] = w;
	args[n++] = (char *)path; /* the emulator runs path; argv[0] is dropped, as qemu sets it from path */
	for (size_t i = 1; argv[0] && argv[i] && n < sizeof args / sizeof *args - 1; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	return execvp(args[0], args);
}
