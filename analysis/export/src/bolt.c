/* SPDX-License-Identifier: Apache-2.0 */
/*
 * BOLT's pre-aggregated profile (the input of `perf2bolt -pa -p FILE` and of
 * `llvm-bolt -pa -p FILE`), from SPE branch records:
 *
 *     B FROM TO COUNT MISPREDICTS   a taken branch
 *     F START END COUNT             straight-line execution from START to END
 *
 * Addresses are the binary's own (ELF vaddrs, hex without 0x).  A taken
 * branch record gives B pc target.  Its previous-branch target (PBT,
 * FEAT_SPE_PBT) starts the straight line that ended at the branch: F pbt pc.
 * A not-taken conditional branch fell through to the next instruction:
 * F pc pc+4 (F pbt pc+4 with a PBT), which BOLT turns into the count of
 * that fall-through edge.  Branches whose target lies outside the binary,
 * and PBTs outside it or after the branch, are left out (and counted as
 * skipped when nothing of the record is left).
 */
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"

/* A straight line of more than this is not one (a PBT from another context). */
#define MAX_RANGE 65536

struct bolt_key {
	int64_t kind; /* 'B' or 'F' */
	uint64_t from, to;
};
AGG_WORDS(struct bolt_key);

struct bolt_val {
	uint64_t count, mispredicts;
};
AGG_WORDS(struct bolt_val);

struct bolt {
	struct export_ctx *x;
	struct export_binary bin;
	struct util_map agg;
};

static int add(struct bolt *b, int kind, uint64_t from, uint64_t to, int mispredicted)
{
	struct bolt_key k;
	memset(&k, 0, sizeof k);
	k.kind = kind;
	k.from = from;
	k.to = to;
	struct bolt_val *v = util_map_put(&b->agg, &k);
	if (!v)
		return export_fail(b->x, -spe_nomem, "out of memory");
	v->count++;
	v->mispredicts += mispredicted != 0;
	return 0;
}

static int bolt_row(void *arg, const struct export_row *r)
{
	struct bolt *b = arg;
	uint64_t pc, to, pbt;
	if (r->pc == EXPORT_NULL ||
	    export_binary_vaddr(b->x, &b->bin, r->source_id, r->pid, (uint64_t)r->pc, &pc) != 0) {
		b->x->stats->skipped++;
		return 0;
	}
	int not_taken = r->events != EXPORT_NULL && ((uint64_t)r->events >> SPE_EV_NOT_TAKEN & 1);
	int mispredicted = r->events != EXPORT_NULL && ((uint64_t)r->events >> SPE_EV_MISPREDICTED & 1);
	int used = 0, rc = 0;
	if (!not_taken && r->branch_target != EXPORT_NULL &&
	    export_binary_vaddr(b->x, &b->bin, r->source_id, r->pid, (uint64_t)r->branch_target, &to) == 0) {
		rc = add(b, 'B', pc, to, mispredicted);
		used = 1;
	}
	uint64_t end = not_taken ? pc + 4 : pc;
	if (rc == 0 && r->prev_branch_target != EXPORT_NULL &&
	    export_binary_vaddr(b->x, &b->bin, r->source_id, r->pid, (uint64_t)r->prev_branch_target, &pbt) == 0 &&
	    pbt <= pc && pc - pbt < MAX_RANGE) {
		rc = add(b, 'F', pbt, end, 0);
		used = 1;
	} else if (rc == 0 && not_taken) {
		rc = add(b, 'F', pc, end, 0);
		used = 1;
	}
	if (used)
		b->x->stats->written++;
	else
		b->x->stats->skipped++;
	return rc;
}

static int by_address(const void *a, const void *b)
{
	const struct bolt_key *x = *(const struct bolt_key *const *)a, *y = *(const struct bolt_key *const *)b;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return (x->to > y->to) - (x->to < y->to);
}

int export_bolt(struct export_ctx *x, FILE *out)
{
	struct bolt b = { .x = x };
	util_map_init(&b.agg, sizeof(struct bolt_key), sizeof(struct bolt_val));
	int rc = export_binary_select(x, &b.bin);
	if (rc < 0)
		return rc;
	char extra[64];
	snprintf(extra, sizeof extra, "r.op_class = '%s' AND r.mapping_id IN ", export_op_class_names[SPE_OP_CLASS_BRANCH]);
	char *cond = malloc(strlen(extra) + strlen(b.bin.id_list) + 1);
	if (!cond)
		rc = export_fail(x, -spe_nomem, "out of memory");
	else
		rc = export_scan(x, strcat(strcpy(cond, extra), b.bin.id_list), EXPORT_COL_LABELS | EXPORT_COL_BRANCH,
				 bolt_row, &b);
	free(cond);
	const void **keys = rc == 0 ? export_agg_keys(&b.agg) : NULL;
	if (rc == 0 && !keys)
		rc = export_fail(x, -spe_nomem, "out of memory");
	if (rc == 0)
		qsort(keys, b.agg.n, sizeof *keys, by_address);
	for (size_t i = 0; rc == 0 && i < b.agg.n; i++) {
		const struct bolt_key *k = keys[i];
		const struct bolt_val *v = agg_value(&b.agg, k);
		if (k->kind == 'B')
			rc = export_printf(x, out, "B %llx %llx %llu %llu\n", (unsigned long long)k->from,
					   (unsigned long long)k->to, (unsigned long long)v->count,
					   (unsigned long long)v->mispredicts);
		else
			rc = export_printf(x, out, "F %llx %llx %llu\n", (unsigned long long)k->from,
					   (unsigned long long)k->to, (unsigned long long)v->count);
	}
	x->stats->locations = b.agg.n;
	free(keys);
	util_map_fini(&b.agg);
	export_binary_fini(&b.bin);
	return rc;
}
