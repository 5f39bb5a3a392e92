/* SPDX-License-Identifier: Apache-2.0 */
/* Resolution (resolve.h): PCs to mappings, symbols and instructions, memoized. */
#include "resolve.h"

#include <string.h>

/* the address-space key of kernel PCs in the memo (spaces are 32-bit) */
#define KERNEL_SPACE_KEY (UINT64_C(1) << 32)

/* Each mapped file once, when first looked up (by resolution or data_attrib): counted, then the load's notice. */
static void binary_found(void *arg, const char *path, const char *build_id, const struct spe_sym_check *check)
{
	struct resolver *r = arg;
	if (r->ksyms.looking_up)
		return; /* a kernel file: not a mapped file; the kernel's sentence says what was found */
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
	return ana_ksyms_init(&r->ksyms, opts, r->sym, &at->recorded_ids, err, errlen);
}

void ana_resolver_fini(struct resolver *r)
{
	spe_sym_free(r->sym);
	spe_disasm_free(r->dis);
	ana_ksyms_fini(&r->ksyms);
	ana_pc_cache_free(&r->pcs);
	ana_pc_cache_free(&r->by_mapping);
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

/*
 * The mapping row of kernel PCs in no kernel map (the recording had no
 * kernel MMAP there): a symbolic row, empty range, in no address space.
 * Its index in the attribution's table in *@p index.
 */
static int64_t kernel_symbolic_mapping(struct resolver *r, size_t *index)
{
	struct attrib_mapping *m;
	if (!r->kernel_mapping_id &&
	    (m = ana_attrib_add_mapping(r->at, r->next->mapping, -1, 0, 0, 0, "[kernel.kallsyms]", NULL, ATTRIB_NO_TIME,
					-1))) {
		m->kernel_kind = KMAP_NOWHERE;
		r->kernel_mapping_id = r->next->mapping++;
		r->kernel_mapping_index = r->at->n_maps - 1;
	}
	*index = r->kernel_mapping_index;
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

/* A kernel PC in mapping @p m: its function from the kernel's symbol source (kernel_syms.h), else none. */
static int resolve_kernel(struct resolver *r, struct attrib_mapping *m, uint64_t pc, struct pc_value *out)
{
	out->mapping_id = m->id;
	struct ksym_result ks = { 0 };
	if (ana_ksyms_lookup(&r->ksyms, m, pc, &ks)) {
		int rc = symbol_row(r, out->mapping_id, ks.name, ks.start, ks.size, ks.bin ? ks.sr.decl_file : NULL,
				    ks.bin ? ks.sr.decl_line : 0, &out->symbol_id);
		if (rc < 0)
			return rc;
	}
	if (!ks.bin)
		return insn_row(r, pc, out, NULL, NULL);
	/* a vmlinux: the instruction and its source line too */
	uint8_t code[4];
	int have_code = r->dis && spe_sym_read_code(ks.bin, ks.vaddr, code, 4) == 4;
	return insn_row(r, pc, out, have_code ? code : NULL, &ks.sr);
}

/*
 * The file behind @p m, opened once: the recorded build-id (MMAP2's, else
 * the recording's table's by path) decides which file it is; without one,
 * the file at the path is taken (the mapping row then shows its id).
 */
static struct spe_sym_binary *binary_of(struct resolver *r, struct attrib_mapping *m)
{
	if (m->bin_tried)
		return m->bin;
	m->bin_tried = 1;
	const char *recorded = m->build_id ? m->build_id : ana_bid_table_find(&r->at->recorded_ids, m->path, m->pid);
	struct spe_sym_check check;
	m->bin = spe_sym_binary_check(r->sym, m->path, recorded, &check);
	m->bid_match = check.match;
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

/*
 * The rows of @p pc in mapping row @p m (index @p index of the
 * attribution's table), resolved on first sight of that pair.
 */
static int rows_in_mapping(struct resolver *r, struct attrib_mapping *m, int kernel, uint64_t pc, struct pc_value *out)
{
	uint64_t key = pc_cache_key2((uint64_t)m->id, pc);
	const struct pc_value *known = ana_pc_cache_find(&r->by_mapping, key);
	if (known) {
		*out = *known;
		return 0;
	}
	struct pc_value nv = { .latency_group = PC_NO_GROUP, .map = PROC_NONE };
	int rc = kernel ? resolve_kernel(r, m, pc, &nv) : resolve_user(r, m, pc, &nv);
	if (rc < 0)
		return rc;
	if (!ana_pc_cache_put(&r->by_mapping, key, nv))
		return -spe_nomem;
	*out = nv;
	return 0;
}

/*
 * The memo entry of (@p space, @p pc) at @p time: reused while the map it
 * came from is still there; else the map found now, and its mapping's rows.
 */
static int memo_entry(struct resolver *r, uint32_t space, uint64_t key, int kernel, uint64_t pc, uint64_t time,
		      struct pc_value **out)
{
	struct processes *p = &r->at->procs;
	struct pc_value *v = ana_pc_cache_find(&r->pcs, key);
	if (v && v->map != PROC_NONE && ana_procs_map_live(p, v->map, time)) {
		*out = v;
		return 0;
	}
	uint32_t map = space != PROC_NONE ? ana_procs_map_at(p, space, pc, time) : PROC_NONE;
	struct attrib_mapping *m = map != PROC_NONE ? ana_attrib_map_row(r->at, map) : NULL;
	if (m && m->prot >= 0)
		m = NULL, map = PROC_NONE; /* a data mapping: no code there */
	struct pc_value nv = { .latency_group = PC_NO_GROUP, .map = PROC_NONE };
	if (!m && kernel) {
		size_t index;
		if (!kernel_symbolic_mapping(r, &index))
			return -spe_nomem;
		m = &r->at->maps[index];
	}
	if (m) {
		int rc = rows_in_mapping(r, m, kernel, pc, &nv);
		if (rc < 0)
			return rc;
		nv.map = map;
	} else if (v && v->map == PROC_NONE) {
		*out = v; /* still in no mapping */
		return 0;
	}
	if (v)
		*v = nv;
	else if (!(v = ana_pc_cache_put(&r->pcs, key, nv)))
		return -spe_nomem;
	*out = v;
	return 0;
}

int ana_resolver_pc(struct resolver *r, const struct spe_record *rec, uint32_t space, uint64_t time,
		    struct pc_value **out)
{
	uint64_t pc = rec->pc.addr;
	int kernel = is_kernel_pc(rec);
	if (kernel)
		space = r->at->procs.kernel;
	uint64_t key = pc_cache_key2(kernel ? KERNEL_SPACE_KEY : (uint64_t)space, pc);
	int rc = memo_entry(r, space, key, kernel, pc, time, out);
	if (rc < 0)
		return rc;
	const struct pc_value *v = *out;
	if (kernel) {
		r->kernel_no_symbol += !v->symbol_id;
		r->kernel_no_map += !v->symbol_id && v->mapping_id == r->kernel_mapping_id;
	}
	else if (space == PROC_NONE)
		r->no_pid++;
	else if (!v->mapping_id)
		r->no_mapping++;
	else if (!v->symbol_id)
		r->no_symbol++;
	return 0;
}

void ana_resolver_prefetch(const struct resolver *r, const struct spe_record *rec, uint32_t space)
{
	if (!(rec->has & SPE_HAS_PC))
		return;
	uint64_t as;
	if (is_kernel_pc(rec))
		as = KERNEL_SPACE_KEY;
	else if (space != PROC_NONE)
		as = space;
	else
		return;
	ana_pc_cache_prefetch(&r->pcs, pc_cache_key2(as, rec->pc.addr));
}
