/* SPDX-License-Identifier: Apache-2.0 */
/* The term table, feature names and term lookup by either spelling. */
#include "spe/filters.h"

#include <string.h>

static const struct spe_term_info terms[SPE_TERM_COUNT] = {
#define SPE_X(id, name, word, lo, hi, kind, feat, since, reg, bit, help) \
	[SPE_TERM_##id] = { name, word, lo, hi, SPE_TERM_##kind, SPE_FEAT_##feat, since, SPE_REG_##reg, bit, help },
	SPE_FILTER_TERM_LIST(SPE_X)
#undef SPE_X
};

static const struct {
	const char *name, *version;
} features[SPE_FEAT_COUNT] = {
#define SPE_X(id, name, version) [SPE_FEAT_##id] = { name, version },
	SPE_FEATURE_LIST(SPE_X)
#undef SPE_X
};

const struct spe_term_info *spe_term_info(enum spe_term t)
{
	if ((unsigned)t >= SPE_TERM_COUNT)
		return NULL;
	return &terms[t];
}

const char *spe_feature_name(enum spe_feature f)
{
	return (unsigned)f < SPE_FEAT_COUNT ? features[f].name : NULL;
}

const char *spe_feature_version(enum spe_feature f)
{
	return (unsigned)f < SPE_FEAT_COUNT ? features[f].version : NULL;
}

/* Compare a user's spelling with a table name, treating '-' as '_'. */
static bool same_name(const char *user, size_t len, const char *name)
{
	size_t i;
	for (i = 0; i < len && name[i]; i++) {
		char c = user[i] == '-' ? '_' : user[i];
		if (c != name[i])
			return false;
	}
	return i == len && name[i] == '\0';
}

int spe_term_lookup(const char *name, size_t len)
{
	while (len > 0 && *name == '-') {
		name++;
		len--;
	}
	for (int t = 0; t < SPE_TERM_COUNT; t++) {
		if (same_name(name, len, terms[t].name))
			return t;
	}
	return -1;
}
