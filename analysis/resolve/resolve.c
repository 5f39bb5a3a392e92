/* SPDX-License-Identifier: Apache-2.0 */
/* Resolution (resolve.h): PCs to mappings, symbols and instructions, memoized. */
#include "resolve.h"

#include <string.h>

#define KERNEL_PID (-2) /* address-space key of kernel PCs */

/* Each mapped file once, when first looked up (by resolution or data_attrib): counted, then the load's notice. */
static void binary_found(void *arg, const char *path, const char *build_id, const struct spe_sym_check *check)
{
	struct resolver *r = arg;
	if (check->match <= SPE_SYM_NOT_FOUND)
		r->files[check->match]++;
	if (r->on_binary)
		r->on_binary(r->notice_arg, path, build_id, check);
}

int ana_resolver_init(struct resolver *r, const struct spe_load_opts *opts, struct attribution *at,
		      const struct spe_row_sink *sink, struct spe_row_ids *next, char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	r->at = at;
	r->sink = sink;
	r->next = next;
	if (opts->symbolize) {
		r->on_binary = opts->on_binary;
		r->notice_arg = opts->notice_arg;
		struct spe_sym_opts so = { .size = sizeof so,
					   .symfs = opts->symfs,
					   .debug_path = opts->debug_path,
					   .buildid_dir = opts->buildid_dir,
					   .debuginfod = opts->debuginfod,
					   .debuginfod_timeout = opts->debuginfod_timeout,
					   .cancel = opts->cancel,
					   .on_fetch = opts->on_fetch,
					   .on_binary = binary_found,
					   .arg = r };
		r->sym = spe_sym_new(&so);
		r->dis = spe_disasm_new();
		if (!r->sym || !r->dis) {
			snprintf(err, errlen, "cannot start the symbolizer or disassembler");
			return -spe_nomem;
		}
	}
	if (opts->kallsyms && !(r->ks = spe_kallsyms_new(opts->kallsyms, err, errlen)))
		return -spe_io;
	return 0;
}

void ana_resolver_fini(struct resolver *r)
{
	spe_sym_free(r->sym);
	spe_disasm_free(r->dis);
	spe_kallsyms_free(r->ks);
	ana_pc_cache_free(&r->pcs);
	ana_pc_cache_free(&r->symbols);
	memset(r, 0, sizeof *r);
}

/* The symbol row of (mapping, start), written on first sight; its id in *id. */
static int symbol_row(struct resolver *r, int64_t mapping_id, const char *name, uint64_t start, uint64_t size,
		      const char *file, int line, int64_t *id)
{
	uint64_t key = pc_cache_key2((uint64_t)mapping_id, start);
	const int64_t *known = ana_pc_cache_find_id(&r->symbols, key);
	if (known) {
		*id = *known;
		return 0;
	}
	struct spe_row_symbol row = { .id = r->next->symbol, .mapping_id = mapping_id, .name = name, .start = start,
				      .size = size, .file = file, .line = line > 0 ? line : 0 };
	int rc = r->sink->symbols(r->sink->ctx, &row, 1);
	if (rc < 0)
		return rc;
	if (ana_pc_cache_put_id(&r->symbols, key, row.id) < 0)
		return -spe_nomem;
	r->next->symbol++;
	*id = row.id;
	return 0;
}

/* The kernel's mapping: a symbolic row (empty range, so user lookups never match it). */
static int64_t kernel_mapping(struct resolver *r)
{
	if (!r->kernel_mapping_id &&
	    ana_attrib_add_mapping(r->at, r->next->mapping, -1, 0, 0, 0, "[kernel.kallsyms]", NULL, ATTRIB_NO_TIME, -1))
		r->kernel_mapping_id = r->next->mapping++;
	return r->kernel_mapping_id;
}

/*
 * The insn row of a PC in a mapping: its bytes and text when the file is
 * readable, else only where it is (mapping, symbol).  spe_record rows name
 * their mapping and symbol through it.
 */
static int insn_row(struct resolver *r, uint64_t pc, struct pc_value *out, const uint8_t *code,
		    const struct spe_sym_result *sr)
{
	char mnem[32], ops[160];
	if (code)
		spe_disasm_one(r->dis, code, pc, mnem, sizeof mnem, ops, sizeof ops);
	struct spe_row_insn row = { .id = r->next->insn,
				    .mapping_id = out->mapping_id,
				    .symbol_id = out->symbol_id,
				    .pc = pc,
				    .bytes = code,
				    .n_bytes = code ? 4 : 0,
				    .mnemonic = code ? mnem : NULL,
				    .operands = code ? ops : NULL,
				    .file = sr ? sr->file : NULL,
				    .line = sr && sr->line > 0 ? sr->line : 0,
				    .inline_function = sr ? sr->inline_function : NULL };
	int rc = r->sink->insns(r->sink->ctx, &row, 1);
	if (rc < 0)
		return rc;
	out->insn_id = r->next->insn++;
	return 0;
}

static int resolve_kernel(struct resolver *r, uint64_t pc, struct pc_value *out)
{
	uint64_t start, size;
	const char *name = spe_kallsyms_lookup(r->ks, pc, &start, &size);
	if (!name)
		return 0;
	if (!(out->mapping_id = kernel_mapping(r)))
		return -spe_nomem;
	int rc = symbol_row(r, out->mapping_id, name, start, size, NULL, 0, &out->symbol_id);
	return rc < 0 ? rc : insn_row(r, pc, out, NULL, NULL);
}

/*
 * The file behind @p m, opened once: the recorded build-id (MMAP2's, else
 * the recording's table's by path) decides which file it is; without one,
 * the file at the path is taken and its build-id kept.
 */
static struct spe_sym_binary *binary_of(struct resolver *r, struct attrib_mapping *m)
{
	if (m->bin_tried)
		return m->bin;
	m->bin_tried = 1;
	const char *recorded = m->build_id ? m->build_id : ana_bid_table_find(&r->at->recorded_ids, m->path, m->pid);
	if (recorded && !m->build_id && !(m->build_id = strdup(recorded)))
		return NULL; /* without memory: unknown, never unverified */
	struct spe_sym_check check;
	m->bin = spe_sym_binary_check(r->sym, m->path, m->build_id, &check);
	m->bid_match = check.match;
	if (m->bin && !m->build_id && *spe_sym_binary_build_id(m->bin))
		m->build_id = strdup(spe_sym_binary_build_id(m->bin)); /* NULL without memory: stays unknown */
	return m->bin;
}

static int resolve_user(struct resolver *r, struct attrib_mapping *m, uint64_t pc, struct pc_value *out)
{
	out->mapping_id = m->id;
	struct spe_sym_binary *bin = r->sym ? binary_of(r, m) : NULL;
	uint64_t vaddr;
	if (!bin || spe_sym_offset_to_vaddr(bin, pc - m->start + m->pgoff, &vaddr) != 0)
		return insn_row(r, pc, out, NULL, NULL);
	struct spe_sym_result sr;
	spe_sym_lookup(bin, vaddr, &sr);
	if (sr.function) {
		uint64_t start = pc - (vaddr - sr.function_start);
		int rc = symbol_row(r, m->id, sr.function, start, sr.function_size, sr.decl_file, sr.decl_line,
				    &out->symbol_id);
		if (rc < 0)
			return rc;
	}
	uint8_t code[4];
	int have_code = spe_sym_read_code(bin, vaddr, code, 4) == 4;
	return insn_row(r, pc, out, have_code ? code : NULL, &sr);
}

/* Kernel addresses: EL1/EL2, or the upper half of the address space. */
static int is_kernel_pc(const struct spe_record *rec)
{
	return rec->pc.el >= 1 || (rec->pc.addr >> 63);
}

int ana_resolver_pc(struct resolver *r, const struct spe_record *rec, int pid, uint64_t time, struct pc_value **out)
{
	uint64_t pc = rec->pc.addr;
	int kernel = is_kernel_pc(rec);
	uint64_t key = pc_cache_key2((uint64_t)(int64_t)(kernel ? KERNEL_PID : pid), pc);
	struct pc_value *v = ana_pc_cache_find(&r->pcs, key);
	if (!v) {
		struct pc_value nv = { .latency_group = PC_NO_GROUP };
		int rc = 0;
		if (kernel) {
			if (r->ks)
				rc = resolve_kernel(r, pc, &nv);
		} else {
			struct attrib_mapping *m = ana_attrib_find_mapping(r->at, pid, pc, time);
			if (m)
				rc = resolve_user(r, m, pc, &nv);
		}
		if (rc < 0)
			return rc;
		if (!(v = ana_pc_cache_put(&r->pcs, key, nv)))
			return -spe_nomem;
	}
	if (!v->mapping_id && !kernel)
		r->no_mapping++;
	else if (v->mapping_id && !v->symbol_id)
		r->no_symbol++;
	*out = v;
	return 0;
}

void ana_resolver_prefetch(const struct resolver *r, const struct spe_record *rec, int pid, int pid_known)
{
	if (!(rec->has & SPE_HAS_PC))
		return;
	if (is_kernel_pc(rec))
		pid = KERNEL_PID;
	else if (!pid_known)
		return;
	ana_pc_cache_prefetch(&r->pcs, pc_cache_key2((uint64_t)(int64_t)pid, rec->pc.addr));
}
