/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A fixture capture as the user makes one: spe-record --replay a manifest
 * into DIR/NAME.data, then spe-load it (appending) into a database with
 * --symfs.  Shared by the memory-view and diff tests.
 */
#ifndef SPE_TEST_REPLAY_LOAD_H
#define SPE_TEST_REPLAY_LOAD_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "run.h"

static inline int replay_load_sh(const char *cmd)
{
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* 0, or -1 when the replay or the load failed. */
static inline int replay_load(const char *replay_tool, const char *spe_load, const char *traces, const char *manifest,
			      const char *dir, const char *name, const char *db_path, const char *elf_dir)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "%s%s --replay=%s/%s -o %s/%s.data >/dev/null 2>&1", spe_run_prefix(), replay_tool,
		 traces, manifest, dir, name);
	if (replay_load_sh(cmd) != 0)
		return -1;
	snprintf(cmd, sizeof cmd, "%s%s %s/%s.data -o %s --append --symfs=%s 2>/dev/null", spe_run_prefix(), spe_load,
		 dir, name, db_path, elf_dir);
	return replay_load_sh(cmd) == 0 ? 0 : -1;
}

#endif
