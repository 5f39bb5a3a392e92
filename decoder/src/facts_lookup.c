/* SPDX-License-Identifier: Apache-2.0 */
/* Lookups into facts.h: names by value, CPU parts by MIDR or name, data-source levels. */
#include <string.h>

#include "spe/spe.h"

/* MIDR_EL1 fields used for matching: implementer [31:24], part number [15:4]. */
#define MIDR_IMPLEMENTER(m) (((m) >> 24) & 0xFF)
#define MIDR_PART(m) (((m) >> 4) & 0xFFF)

const char *spe_op_class_name(unsigned op_class)
{
	static const char *const names[] = {
#define SPE_X(id, name) [SPE_OP_CLASS_##id] = name,
		SPE_OP_CLASS_LIST(SPE_X)
#undef SPE_X
	};
	return op_class < sizeof names / sizeof names[0] ? names[op_class] : NULL;
}

static const char *const event_columns[64] = {
#define SPE_X(bit, id, word, col, since, desc) [bit] = col,
	SPE_EVENT_LIST(SPE_X)
#undef SPE_X
};

static const char *const event_words[64] = {
#define SPE_X(bit, id, word, col, since, desc) [bit] = word,
	SPE_EVENT_LIST(SPE_X)
#undef SPE_X
};

const char *spe_event_column(unsigned bit)
{
	return bit < 64 ? event_columns[bit] : NULL;
}

const char *spe_event_dump_word(unsigned bit)
{
	return bit < 64 ? event_words[bit] : NULL;
}

/* The SPE_IMPDEF_EVENT_LIST row for @p midr's part and @p bit, or NULL. */
static const struct impdef_row {
	uint8_t implementer;
	uint16_t part;
	uint8_t bit;
	const char *word, *column;
} *impdef_row(uint32_t midr, unsigned bit)
{
	static const struct impdef_row rows[] = {
#define SPE_X(impl, part, bit, word, col, desc) { impl, part, bit, word, col },
		SPE_IMPDEF_EVENT_LIST(SPE_X)
#undef SPE_X
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		if (rows[i].bit == bit && rows[i].implementer == MIDR_IMPLEMENTER(midr) &&
		    rows[i].part == MIDR_PART(midr))
			return &rows[i];
	return NULL;
}

const char *spe_impdef_event_name(uint32_t midr, unsigned bit)
{
	const struct impdef_row *r = impdef_row(midr, bit);
	return r ? r->word : NULL;
}

const char *spe_impdef_event_column(uint32_t midr, unsigned bit)
{
	const struct impdef_row *r = impdef_row(midr, bit);
	return r ? r->column : NULL;
}

const char *spe_counter_column(unsigned index)
{
	static const char *const names[] = {
#define SPE_X(idx, id, word, col, desc) [idx] = col,
		SPE_COUNTER_LIST(SPE_X)
#undef SPE_X
	};
	return index < sizeof names / sizeof names[0] ? names[index] : NULL;
}

const char *spe_address_column(unsigned index)
{
	static const char *const names[] = {
#define SPE_X(idx, id, word, col, desc) [idx] = col,
		SPE_ADDRESS_LIST(SPE_X)
#undef SPE_X
	};
	return index < sizeof names / sizeof names[0] ? names[index] : NULL;
}

const char *spe_op_flag_word(unsigned flag_bit)
{
	static const char *const words[] = {
#define SPE_X(id, word, desc) [SPE_OPF_BIT_##id] = word,
		SPE_OP_FLAG_LIST(SPE_X)
#undef SPE_X
	};
	return flag_bit < sizeof words / sizeof words[0] ? words[flag_bit] : NULL;
}

static const struct spe_cpu_info cpus[] = {
#define SPE_X(impl, part, name, version, map) { impl, part, name, version, SPE_DS_MAP_##map },
	SPE_CPU_LIST(SPE_X)
#undef SPE_X
};

const struct spe_cpu_info *spe_cpu_lookup(uint32_t midr)
{
	for (size_t i = 0; i < sizeof cpus / sizeof cpus[0]; i++)
		if (cpus[i].implementer == MIDR_IMPLEMENTER(midr) && cpus[i].part == MIDR_PART(midr))
			return &cpus[i];
	return NULL;
}

const struct spe_cpu_info *spe_cpu_by_name(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < sizeof cpus / sizeof cpus[0]; i++)
		if (strcmp(cpus[i].name, name) == 0)
			return &cpus[i];
	return NULL;
}

static const struct {
	uint8_t map;
	uint8_t code;
	int8_t level;
	uint8_t modified;
} data_sources[] = {
#define SPE_X(map, code, level, modified) { SPE_DS_MAP_##map, code, SPE_MEM_LEVEL_##level, modified },
	SPE_DATA_SOURCE_LIST(SPE_X)
#undef SPE_X
};

int spe_mem_level(uint32_t midr, uint64_t data_source, int *modified)
{
	const struct spe_cpu_info *cpu = spe_cpu_lookup(midr);
	if (modified)
		*modified = 0;
	if (!cpu || cpu->ds_map == SPE_DS_MAP_NONE || data_source > 0xFF)
		return SPE_MEM_LEVEL_UNKNOWN;
	for (size_t i = 0; i < sizeof data_sources / sizeof data_sources[0]; i++) {
		if (data_sources[i].map == cpu->ds_map && data_sources[i].code == data_source) {
			if (modified)
				*modified = data_sources[i].modified;
			return data_sources[i].level;
		}
	}
	return SPE_MEM_LEVEL_UNKNOWN;
}

const char *spe_mem_level_name(int level)
{
	static const char *const names[] = {
#define SPE_X(id, name, peer, desc) [SPE_MEM_LEVEL_##id] = name,
		SPE_MEM_LEVEL_LIST(SPE_X)
#undef SPE_X
	};
	return level >= 0 && (size_t)level < sizeof names / sizeof names[0] ? names[level] : NULL;
}

int spe_mem_level_is_remote(int level)
{
	switch (level) {
#define SPE_X(id)                  \
	case SPE_MEM_LEVEL_##id:   \
		return 1;
		SPE_MEM_LEVEL_REMOTE_LIST(SPE_X)
#undef SPE_X
	}
	return 0;
}

/* "1.4" -> 104; anything else (feature names, "") -> -1. */
static int version_number(const char *v)
{
	if (!v || v[0] < '0' || v[0] > '9' || v[1] != '.' || v[2] < '0' || v[2] > '9' || v[3])
		return -1;
	return (v[0] - '0') * 100 + (v[2] - '0');
}

int spe_cpu_has_event(const struct spe_cpu_info *cpu, unsigned bit)
{
	static const char *const since[64] = {
#define SPE_X(bit, id, word, col, since, desc) [bit] = since,
		SPE_EVENT_LIST(SPE_X)
#undef SPE_X
	};
	int need = bit < 64 ? version_number(since[bit]) : -1;
	int have = cpu ? version_number(cpu->spe_version) : -1;
	if (need < 0 || have < 0)
		return -1;
	return have >= need;
}

int spe_mem_level_is_peer(int level)
{
	static const int8_t peer[] = {
#define SPE_X(id, name, p, desc) [SPE_MEM_LEVEL_##id] = p,
		SPE_MEM_LEVEL_LIST(SPE_X)
#undef SPE_X
	};
	return level >= 0 && (size_t)level < sizeof peer ? peer[level] : 0;
}

size_t spe_cpu_data_sources(const struct spe_cpu_info *cpu, struct spe_ds_entry *out, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; cpu && i < sizeof data_sources / sizeof data_sources[0]; i++) {
		if (data_sources[i].map != cpu->ds_map)
			continue;
		if (n < cap)
			out[n] = (struct spe_ds_entry){ data_sources[i].code, data_sources[i].level, data_sources[i].modified };
		n++;
	}
	return n;
}

int spe_impdef_event_bit(uint32_t midr, const char *column)
{
	for (unsigned bit = 0; column && bit < 64; bit++) {
		const char *c = spe_impdef_event_column(midr, bit);
		if (c && !strcmp(c, column))
			return (int)bit;
	}
	return -1;
}
