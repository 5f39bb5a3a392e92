/* SPDX-License-Identifier: Apache-2.0 */
#include "fixture_target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *fixtures = "fixtures", *docs = "docs";

void fixture_init(int argc, char **argv)
{
	if (argc > 1)
		fixtures = argv[1];
	if (argc > 2)
		docs = argv[2];
}

const char *fixture_dir(void)
{
	return fixtures;
}

const char *docs_dir(void)
{
	return docs;
}

struct spe_target sysfs_target(const char *name)
{
	static struct spe_system sys;
	char path[1024], err[512];
	snprintf(path, sizeof path, "%s/sysfs/%s", fixtures, name);
	if (spe_system_load_sysfs(path, 0, false, &sys, err, sizeof err) || sys.count != 1) {
		printf("cannot load fixture %s: %s\n", path, err);
		exit(1);
	}
	sys.pmu[0].privileged = true;
	return sys.pmu[0];
}

struct spe_target profile_target(const char *cpu, unsigned kernel)
{
	struct spe_target t;
	char err[256];
	if (spe_target_from_profile(cpu, kernel, &t, err, sizeof err)) {
		printf("cannot build profile %s: %s\n", cpu, err);
		exit(1);
	}
	t.privileged = true;
	return t;
}

int compile_event(const struct spe_target *t, const char *event, bool strict, struct spe_filter_result *out)
{
	static struct spe_filter_request req;
	spe_filter_request_init(&req);
	req.strict = strict;
	if (event)
		spe_filter_parse_terms(&req, event);
	return spe_filter_compile(&req, t, out);
}

int find_diag(const struct spe_filter_diags *d, enum spe_filter_msg m)
{
	for (unsigned i = 0; i < d->count; i++)
		if (d->d[i].msg == m)
			return (int)i;
	return -1;
}

bool diag_text_has(const struct spe_filter_diags *d, const char *s)
{
	for (unsigned i = 0; i < d->count; i++)
		if (strstr(d->d[i].text, s))
			return true;
	return false;
}
