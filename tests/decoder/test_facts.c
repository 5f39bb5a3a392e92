/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Facts lookups: names by value (NULL outside the table), CPU parts by MIDR
 * (variant and revision ignored) and by name, data-source levels per CPU map
 * (docs/spe-format.md §3.5), error strings.
 */
#include <string.h>

#include "check.h"
#include "spe/spe.h"

TEST(names)
{
	CHECK_STR_EQ(spe_op_class_name(SPE_OP_CLASS_LOAD), "load");
	CHECK_STR_EQ(spe_op_class_name(SPE_OP_CLASS_UNKNOWN), "unknown");
	CHECK(spe_op_class_name(SPE_OP_CLASS_UNKNOWN + 1) == NULL);
	CHECK_STR_EQ(spe_event_column(SPE_EV_LLC_MISS), "llc_miss");
	CHECK_STR_EQ(spe_event_dump_word(SPE_EV_LLC_MISS), "LLC-REFILL");
	CHECK_STR_EQ(spe_event_dump_word(5), "TLB-REFILL");
	CHECK_STR_EQ(spe_event_column(16), "transactional");
	CHECK(spe_event_column(12) == NULL); /* IMPDEF: not a row */
	CHECK(spe_event_dump_word(26) == NULL);
	CHECK(spe_event_column(64) == NULL);
	CHECK_STR_EQ(spe_counter_column(SPE_CNT_TRANSLATION), "translation_latency");
	CHECK(spe_counter_column(3) == NULL);
	CHECK_STR_EQ(spe_address_column(SPE_ADDR_PREV_BRANCH_TARGET), "prev_branch_target");
	CHECK(spe_address_column(5) == NULL);
	CHECK_STR_EQ(spe_op_flag_word(SPE_OPF_BIT_SVE_SME_REG), "SVE-SME-REG");
	CHECK(spe_op_flag_word(SPE_OPF_BIT_COUNT) == NULL);
	CHECK_STR_EQ(spe_impdef_event_name(0x410fd0c0, 12), "LATE-PREFETCH");
	CHECK_STR_EQ(spe_impdef_event_name(0x413fd0c1, 12), "LATE-PREFETCH"); /* r3p1 is still N1 */
	CHECK(spe_impdef_event_name(0x410fd0c0, 13) == NULL);
	CHECK(spe_impdef_event_name(0x410fd490, 12) == NULL); /* N2 */
	CHECK(spe_impdef_event_name(0, 12) == NULL);
	CHECK_STR_EQ(spe_impdef_event_column(0x410fd0c0, 12), "late_prefetch");
	CHECK(spe_impdef_event_column(0x410fd490, 12) == NULL);
}

/* Every event row: the column and dump word lookups agree with the list. */
TEST(every_event_row)
{
	int rows = 0;
#define SPE_X(bit, id, word, col, since, desc)                 \
	CHECK_STR_EQ(spe_event_column(bit), col);               \
	CHECK_STR_EQ(spe_event_dump_word(bit), word);           \
	CHECK_INT_EQ(SPE_EV_##id, bit);                         \
	rows++;
	SPE_EVENT_LIST(SPE_X)
#undef SPE_X
	int named = 0;
	for (unsigned b = 0; b < 64; b++)
		named += spe_event_column(b) != NULL;
	CHECK_INT_EQ(named, rows);
}

TEST(cpu_lookup)
{
	const struct spe_cpu_info *c = spe_cpu_lookup(0x410fd0c0);
	CHECK(c != NULL);
	if (c) {
		CHECK_STR_EQ(c->name, "neoverse-n1");
		CHECK_STR_EQ(c->spe_version, "1.1");
		CHECK_INT_EQ(c->ds_map, SPE_DS_MAP_COMMON);
		CHECK_INT_EQ(c->part, 0xD0C);
	}
	CHECK(spe_cpu_lookup(0x414fd0c3) == c); /* variant/revision ignored */
	CHECK(spe_cpu_lookup(0x420fd0c0) == NULL); /* other implementer */
	CHECK(spe_cpu_lookup(0) == NULL);
	c = spe_cpu_by_name("ampereone-a");
	CHECK(c && c->implementer == 0xC0 && c->part == 0xAC4 && c->ds_map == SPE_DS_MAP_AMPEREONE);
	CHECK(spe_cpu_by_name("hisilicon-hip12") == spe_cpu_lookup(0x480fd060));
	CHECK(spe_cpu_by_name("Neoverse-N1") == NULL); /* names are lower case */
	CHECK(spe_cpu_by_name(NULL) == NULL);
	/* every row can be found both ways */
#define SPE_X(impl, part, name, version, map)                                                     \
	CHECK(spe_cpu_by_name(name) == spe_cpu_lookup((uint32_t)(impl) << 24 | (uint32_t)(part) << 4)); \
	CHECK(spe_cpu_by_name(name) != NULL);
	SPE_CPU_LIST(SPE_X)
#undef SPE_X
}

/* Events a part records: its SPE version against the version that introduced the bit. */
TEST(cpu_has_event)
{
	const struct spe_cpu_info *n1 = spe_cpu_by_name("neoverse-n1"), *n2 = spe_cpu_by_name("neoverse-n2");
	CHECK_INT_EQ(spe_cpu_has_event(n1, SPE_EV_CACHE_DATA_MODIFIED), 0); /* SPEv1.4 */
	CHECK_INT_EQ(spe_cpu_has_event(n1, SPE_EV_RECENTLY_FETCHED), 0);
	CHECK_INT_EQ(spe_cpu_has_event(n1, SPE_EV_MISALIGNED), 1);          /* SPEv1.1 */
	CHECK_INT_EQ(spe_cpu_has_event(n1, SPE_EV_NOT_TAKEN), 0);           /* SPEv1.2 */
	CHECK_INT_EQ(spe_cpu_has_event(n2, SPE_EV_NOT_TAKEN), 1);
	CHECK_INT_EQ(spe_cpu_has_event(n2, SPE_EV_TRANSACTIONAL), -1);      /* a feature, not a version */
	CHECK_INT_EQ(spe_cpu_has_event(NULL, SPE_EV_RETIRED), -1);
	CHECK_INT_EQ(spe_cpu_has_event(n1, 12), -1);                        /* IMPDEF: not in the event list */
	CHECK_INT_EQ(spe_impdef_event_bit(0x410fd0c0, "late_prefetch"), 12);
	CHECK_INT_EQ(spe_impdef_event_bit(0x410fd490, "late_prefetch"), -1);
	/* the HiSilicon map: 14 codes, code 1 a peer core's modified line */
	struct spe_ds_entry ds[32];
	CHECK_INT_EQ(spe_cpu_data_sources(spe_cpu_by_name("hisilicon-hip12"), ds, 32), 14);
	CHECK(ds[1].code == 1 && ds[1].level == SPE_MEM_LEVEL_PEER_CORE && ds[1].modified == 1);
	CHECK_INT_EQ(spe_cpu_data_sources(spe_cpu_by_name("ampereone"), ds, 32), 0);
	CHECK_INT_EQ(spe_mem_level_is_peer(SPE_MEM_LEVEL_PEER_CLUSTER), 1);
	CHECK_INT_EQ(spe_mem_level_is_peer(SPE_MEM_LEVEL_DRAM), 0);
}

TEST(mem_levels)
{
	int modified = -1;
	/* common map on N1 */
	CHECK_INT_EQ(spe_mem_level(0x410fd0c0, 0x0, &modified), SPE_MEM_LEVEL_L1D);
	CHECK_INT_EQ(modified, 0);
	CHECK_INT_EQ(spe_mem_level(0x410fd0c0, 0x8, NULL), SPE_MEM_LEVEL_L2);
	CHECK_INT_EQ(spe_mem_level(0x410fd0c0, 0x9, NULL), SPE_MEM_LEVEL_PEER_CORE);
	CHECK_INT_EQ(spe_mem_level(0x410fd0c0, 0xB, NULL), SPE_MEM_LEVEL_SLC);
	CHECK_INT_EQ(spe_mem_level(0x410fd0c0, 0xD, NULL), SPE_MEM_LEVEL_REMOTE);
	CHECK_INT_EQ(spe_mem_level(0x410fd0c0, 0xE, NULL), SPE_MEM_LEVEL_DRAM);
	CHECK_INT_EQ(spe_mem_level(0x410fd0c0, 0x1, NULL), SPE_MEM_LEVEL_UNKNOWN);
	CHECK_INT_EQ(spe_mem_level(0x410fd0c0, 0x100, NULL), SPE_MEM_LEVEL_UNKNOWN);
	/* AmpereOne-A: 0x8 is L1D, 0x0 a peer core */
	CHECK_INT_EQ(spe_mem_level(0xc00fac40, 0x8, NULL), SPE_MEM_LEVEL_L1D);
	CHECK_INT_EQ(spe_mem_level(0xc00fac40, 0x0, NULL), SPE_MEM_LEVEL_PEER_CORE);
	/* plain AmpereOne has no map */
	CHECK_INT_EQ(spe_mem_level(0xc00fac30, 0x8, NULL), SPE_MEM_LEVEL_UNKNOWN);
	/* HiSilicon HIP12: odd codes are the modified variants */
	CHECK_INT_EQ(spe_mem_level(0x480fd060, 1, &modified), SPE_MEM_LEVEL_PEER_CORE);
	CHECK_INT_EQ(modified, 1);
	CHECK_INT_EQ(spe_mem_level(0x480fd060, 9, &modified), SPE_MEM_LEVEL_REMOTE_DRAM);
	CHECK_INT_EQ(modified, 0);
	CHECK_INT_EQ(spe_mem_level(0x480fd060, 13, NULL), SPE_MEM_LEVEL_IO);
	CHECK_INT_EQ(spe_mem_level(0x480fd060, 10, NULL), SPE_MEM_LEVEL_UNKNOWN);
	/* unknown CPU */
	CHECK_INT_EQ(spe_mem_level(0x12345678, 0, &modified), SPE_MEM_LEVEL_UNKNOWN);
	CHECK_STR_EQ(spe_mem_level_name(SPE_MEM_LEVEL_REMOTE_DRAM), "remote-DRAM");
	CHECK_STR_EQ(spe_mem_level_name(SPE_MEM_LEVEL_L1D), "L1D");
	CHECK(spe_mem_level_name(SPE_MEM_LEVEL_UNKNOWN) == NULL);
	CHECK(spe_mem_level_name(SPE_MEM_LEVEL_IO + 1) == NULL);
	/* remote levels: another socket's cache or memory, nothing local */
	CHECK_INT_EQ(spe_mem_level_is_remote(SPE_MEM_LEVEL_REMOTE), 1);
	CHECK_INT_EQ(spe_mem_level_is_remote(SPE_MEM_LEVEL_REMOTE_DRAM), 1);
	CHECK_INT_EQ(spe_mem_level_is_remote(SPE_MEM_LEVEL_DRAM), 0);
	CHECK_INT_EQ(spe_mem_level_is_remote(SPE_MEM_LEVEL_PEER_CLUSTER), 0);
	CHECK_INT_EQ(spe_mem_level_is_remote(SPE_MEM_LEVEL_UNKNOWN), 0);
}

TEST(errstr)
{
	CHECK_STR_EQ(spe_errstr(-spe_bad_packet), "invalid packet header");
	CHECK_STR_EQ(spe_errstr(spe_bad_packet), "invalid packet header");
	CHECK_STR_EQ(spe_errstr(0), "success");
	CHECK_STR_EQ(spe_errstr(-999), "unknown error");
	/* every code of the one enum has its own text (cancellation used to sit outside it) */
	for (int c = spe_ok; c <= spe_no_data; c++) {
		CHECK(strcmp(spe_errstr(-c), "unknown error") != 0);
		for (int d = spe_ok; d < c; d++)
			CHECK(strcmp(spe_errstr(c), spe_errstr(d)) != 0);
	}
	CHECK_STR_EQ(spe_errstr(-spe_cancelled), "cancelled");
	CHECK_STR_EQ(spe_errstr(spe_no_data + 1), "unknown error");
}

int main(void)
{
	RUN(names);
	RUN(every_event_row);
	RUN(cpu_lookup);
	RUN(mem_levels);
	RUN(cpu_has_event);
	RUN(errstr);
	return check_summary();
}
