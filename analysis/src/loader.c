/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One load: a source row, its sideband (threads, mappings, switches, time
 * conversion) and its records, all inside the database's one transaction.
 *
 * Attribution of a record (docs/schema.md, spe_record.pid/tid):
 *   1. a CONTEXT packet gives the tid (pid from that tid's COMM);
 *   2. else the thread switched in on that CPU at or before the record's
 *      time (ITRACE_START, SWITCH in);
 *   3. else the pid/tid of the AUXTRACE record that carried the bytes.
 * PCs resolve through the pid's MMAP2 mappings (latest at or before the
 * record's time), kernel PCs through --kallsyms.  Each distinct
 * (pid, PC) is symbolized and disassembled once, then memoized.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "data_attrib.h"
#include "db_internal.h"
#include "latency_hist.h"
#include "numa_tables.h"
#include "pc_cache.h"
#include "spe/analysis.h"

#define NO_TIME UINT64_MAX
#define KERNEL_PID (-2) /* address-space key of kernel PCs */

struct mapping {
	int64_t id;
	int pid;
	uint64_t start, end, pgoff, time;
	char *path, *build_id;
	struct spe_sym_binary *bin; /* NULL until opened (or if unreadable) */
	int bin_tried;
};

struct thread {
	int tid, pid;
	char *comm;
};

struct switch_in {
	uint64_t time;
	int pid, tid;
};

struct cpu_state {
	int known;
	uint32_t midr;
	struct spe_rec_decoder *dec;
	struct switch_in *sw;
	size_t n_sw, cap_sw;
};

/*
 * Records are inserted RECORD_BATCH rows per INSERT statement: SQLite's
 * per-statement cost (cursor open/close, transaction checks) then counts
 * once per batch instead of once per record.
 */
#define RECORD_COLUMNS 26
#define RECORD_BATCH 32

struct record_row {
	int64_t v[RECORD_COLUMNS];
	const char *text[RECORD_COLUMNS]; /* static strings for the TEXT columns */
	uint32_t present;                 /* bit i: column i+1 is not NULL */
};

static inline void row_int(struct record_row *r, int col, int has, uint64_t v)
{
	if (has) {
		r->v[col - 1] = (int64_t)v;
		r->text[col - 1] = NULL;
		r->present |= 1u << (col - 1);
	}
}

static inline void row_text(struct record_row *r, int col, const char *s)
{
	if (s) {
		r->text[col - 1] = s;
		r->present |= 1u << (col - 1);
	}
}

static void bind_row(sqlite3_stmt *st, int first, const struct record_row *r)
{
	for (int c = 0; c < RECORD_COLUMNS; c++) {
		if (!(r->present & (1u << c)))
			sqlite3_bind_null(st, first + c);
		else if (r->text[c])
			sqlite3_bind_text(st, first + c, r->text[c], -1, SQLITE_STATIC);
		else
			sqlite3_bind_int64(st, first + c, r->v[c]);
	}
}

struct spe_loader {
	struct spe_db *db;
	sqlite3 *sql;
	int64_t source_id;
	struct spe_load_opts opts;
	char err[512];
	struct spe_load_counts counts;

	int has_time_conv;
	struct spe_perf_time_conv tc;

	struct mapping *maps;
	size_t n_maps, cap_maps;
	int64_t kernel_mapping_id;

	struct thread *threads; /* sorted by tid at finish; appended meanwhile */
	size_t n_threads, cap_threads;
	struct pc_cache thread_index; /* tid -> index+1 in threads (in mapping_id) */

	struct cpu_state *cpus;
	int n_cpus;

	struct spe_symbolizer *sym;
	struct spe_disasm *dis;
	struct spe_kallsyms *ks;
	struct pc_cache pcs;     /* (pid, pc) -> rows */
	struct pc_cache symbols; /* (mapping_id, function start) -> symbol id */
	struct latency_groups latency; /* by (pc, insn, symbol): the pc_latency rows */
	int64_t no_pc_group;           /* records without a PC; -1 until one is seen */

	sqlite3_stmt *ins_record, *ins_batch, *ins_symbol, *ins_insn;
	struct record_row rows[RECORD_BATCH]; /* rows waiting for the batch insert */
	int n_rows;
	char op_text[4][256][48]; /* by op-type class and payload; "" = not built yet */
	uint8_t op_text_built[4][256];
	int decode_error;
	struct data_attrib dattr; /* data addresses -> data_object rows */
};

/* ---- small helpers ------------------------------------------------------ */

static int sql_fail(struct spe_loader *ld, const char *what)
{
	snprintf(ld->err, sizeof ld->err, "%s: %s", what, sqlite3_errmsg(ld->sql));
	return -spe_io;
}

static void bind_text_or_null(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static int step_done(struct spe_loader *ld, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(ld, what);
}

static void *grow_array(void *p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return p;
	size_t n = *cap ? *cap * 2 : 16;
	while (n < need)
		n *= 2;
	void *q = realloc(p, n * elem);
	if (q)
		*cap = n;
	return q;
}

static struct cpu_state *cpu_state(struct spe_loader *ld, int cpu)
{
	if (cpu < 0)
		cpu = 0;
	if (cpu >= 4096)
		return NULL;
	if (cpu >= ld->n_cpus) {
		struct cpu_state *p = realloc(ld->cpus, (size_t)(cpu + 1) * sizeof *p);
		if (!p)
			return NULL;
		memset(p + ld->n_cpus, 0, (size_t)(cpu + 1 - ld->n_cpus) * sizeof *p);
		ld->cpus = p;
		ld->n_cpus = cpu + 1;
	}
	return &ld->cpus[cpu];
}

/* ---- setup -------------------------------------------------------------- */

static const char insert_record_sql[] =
	"INSERT INTO _spe_record(source_id, ts, time, cpu, pid, tid, pc, el, op_class, op, op_raw, events,"
	" total_latency, issue_latency, translation_latency, data_va, data_pa, data_source, mem_level,"
	" branch_target, prev_branch_target, context, mapping_id, symbol_id, insn_id, data_object_id)"
	" VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19,"
	" ?20, ?21, ?22, ?23, ?24, ?25, ?26)";

static int insert_source(struct spe_loader *ld, const struct spe_source_info *src)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(ld->sql,
			       "INSERT INTO source(file, kind, host, command_line, cpus, loaded_at)"
			       " VALUES(?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
			       -1, &st, NULL) != SQLITE_OK)
		return sql_fail(ld, "source");
	bind_text_or_null(st, 1, src->file ? src->file : "");
	bind_text_or_null(st, 2, src->kind ? src->kind : "perf.data");
	bind_text_or_null(st, 3, src->host);
	bind_text_or_null(st, 4, src->command_line);
	if (src->nr_cpus >= 0)
		sqlite3_bind_int(st, 5, src->nr_cpus);
	int rc = step_done(ld, st, "source");
	sqlite3_finalize(st);
	ld->source_id = sqlite3_last_insert_rowid(ld->sql);
	return rc;
}

int spe_loader_new(struct spe_db *db, const struct spe_source_info *src, const struct spe_load_opts *opts,
		   struct spe_loader **out, char *err, size_t errlen)
{
	*out = NULL;
	struct spe_loader *ld = calloc(1, sizeof *ld);
	if (!ld) {
		snprintf(err, errlen, "out of memory");
		return -spe_nomem;
	}
	ld->db = db;
	ld->sql = spe_db_sqlite(db);
	ld->no_pc_group = -1;
	if (opts)
		memcpy(&ld->opts, opts, opts->size < sizeof ld->opts ? opts->size : sizeof ld->opts);
	int rc = insert_source(ld, src);
	char batch_sql[sizeof insert_record_sql + RECORD_BATCH * (RECORD_COLUMNS * 2 + 4)];
	if (rc == 0) {
		size_t n = (size_t)(strstr(insert_record_sql, " VALUES") - insert_record_sql);
		memcpy(batch_sql, insert_record_sql, n);
		n += (size_t)sprintf(batch_sql + n, " VALUES");
		for (int r = 0; r < RECORD_BATCH; r++) {
			n += (size_t)sprintf(batch_sql + n, "%s(", r ? "," : "");
			for (int c = 0; c < RECORD_COLUMNS; c++)
				n += (size_t)sprintf(batch_sql + n, "%s?", c ? "," : "");
			n += (size_t)sprintf(batch_sql + n, ")");
		}
	}
	if (rc == 0 && (sqlite3_prepare_v2(ld->sql, insert_record_sql, -1, &ld->ins_record, NULL) != SQLITE_OK ||
			sqlite3_prepare_v2(ld->sql, batch_sql, -1, &ld->ins_batch, NULL) != SQLITE_OK ||
			sqlite3_prepare_v2(ld->sql,
					   "INSERT INTO symbol(mapping_id, name, start, size, file, line)"
					   " VALUES(?, ?, ?, ?, ?, ?)",
					   -1, &ld->ins_symbol, NULL) != SQLITE_OK ||
			sqlite3_prepare_v2(ld->sql,
					   "INSERT INTO insn(mapping_id, pc, symbol_id, bytes, mnemonic, operands,"
					   " file, line, inline_function) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)",
					   -1, &ld->ins_insn, NULL) != SQLITE_OK))
		rc = sql_fail(ld, "prepare");
	if (rc == 0 && ld->opts.symbolize) {
		struct spe_sym_opts so = { .size = sizeof so, .symfs = ld->opts.symfs, .debug_path = ld->opts.debug_path };
		ld->sym = spe_sym_new(&so);
		ld->dis = spe_disasm_new();
		if (!ld->sym || !ld->dis) {
			snprintf(ld->err, sizeof ld->err, "cannot start the symbolizer or disassembler");
			rc = -spe_nomem;
		}
	}
	if (rc == 0)
		rc = data_attrib_init(&ld->dattr, ld->sql, ld->source_id, ld->sym);
	if (rc < 0 && !ld->err[0])
		snprintf(ld->err, sizeof ld->err, "%s", ld->dattr.err);
	if (rc == 0 && ld->opts.kallsyms) {
		ld->ks = spe_kallsyms_load(ld->opts.kallsyms, ld->err, sizeof ld->err);
		if (!ld->ks)
			rc = -spe_io;
	}
	if (rc < 0) {
		snprintf(err, errlen, "%s", ld->err);
		spe_loader_free(ld);
		return rc;
	}
	*out = ld;
	return 0;
}

/* ---- sideband ----------------------------------------------------------- */

void spe_loader_cpu(struct spe_loader *ld, int cpu, uint32_t midr)
{
	struct cpu_state *c = cpu_state(ld, cpu);
	if (c) {
		c->midr = midr;
		c->known = 1;
	}
}

void spe_loader_time_conv(struct spe_loader *ld, const struct spe_perf_time_conv *tc)
{
	ld->tc = *tc;
	ld->has_time_conv = 1;
}

static struct thread *find_thread(struct spe_loader *ld, int tid)
{
	struct pc_value *v = pc_cache_find(&ld->thread_index, (uint64_t)(int64_t)tid);
	return v ? &ld->threads[v->mapping_id - 1] : NULL;
}

static struct thread *add_thread(struct spe_loader *ld, int tid)
{
	struct thread *t = find_thread(ld, tid);
	if (t)
		return t;
	struct thread *p = grow_array(ld->threads, &ld->cap_threads, ld->n_threads + 1, sizeof *p);
	if (!p)
		return NULL;
	ld->threads = p;
	t = &ld->threads[ld->n_threads++];
	t->tid = tid;
	t->pid = -1;
	t->comm = NULL;
	struct pc_value v = { .mapping_id = (int64_t)ld->n_threads };
	if (!pc_cache_put(&ld->thread_index, (uint64_t)(int64_t)tid, v))
		return NULL;
	return t;
}

int spe_loader_comm(struct spe_loader *ld, int pid, int tid, const char *comm, uint64_t time)
{
	(void)time;
	struct thread *t = add_thread(ld, tid);
	if (!t)
		return -spe_nomem;
	t->pid = pid;
	if (comm) {
		free(t->comm);
		t->comm = strdup(comm);
	}
	return 0;
}

/* A `mapping` row (@p prot < 0: an executable mapping, prot NULL); its id in *@p id. */
static int insert_mapping(struct spe_loader *ld, int pid, const char *path, const char *build_id, uint64_t start,
			  uint64_t len, uint64_t pgoff, uint64_t time, int64_t prot, int64_t *id)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(ld->sql,
			       "INSERT INTO mapping(source_id, pid, path, build_id, start, end, pgoff, time, prot)"
			       " VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)",
			       -1, &st, NULL) != SQLITE_OK)
		return sql_fail(ld, "mapping");
	sqlite3_bind_int64(st, 1, ld->source_id);
	if (pid >= 0)
		sqlite3_bind_int(st, 2, pid);
	bind_text_or_null(st, 3, path);
	bind_text_or_null(st, 4, build_id);
	sqlite3_bind_int64(st, 5, (int64_t)start);
	sqlite3_bind_int64(st, 6, (int64_t)(start + len));
	sqlite3_bind_int64(st, 7, (int64_t)pgoff);
	if (time != NO_TIME)
		sqlite3_bind_int64(st, 8, (int64_t)time);
	if (prot >= 0)
		sqlite3_bind_int64(st, 9, prot);
	int rc = step_done(ld, st, "mapping");
	sqlite3_finalize(st);
	*id = sqlite3_last_insert_rowid(ld->sql);
	return rc;
}

int spe_loader_mmap(struct spe_loader *ld, int pid, uint64_t start, uint64_t len, uint64_t pgoff,
		    const char *path, const char *build_id, uint64_t time)
{
	struct mapping *p = grow_array(ld->maps, &ld->cap_maps, ld->n_maps + 1, sizeof *p);
	if (!p)
		return -spe_nomem;
	ld->maps = p;
	struct mapping *m = &ld->maps[ld->n_maps];
	memset(m, 0, sizeof *m);
	m->pid = pid;
	m->start = start;
	m->end = start + len;
	m->pgoff = pgoff;
	m->time = time;
	m->path = strdup(path ? path : "");
	m->build_id = build_id && *build_id ? strdup(build_id) : NULL;
	int rc = insert_mapping(ld, pid, m->path, m->build_id, start, len, pgoff, time, -1, &m->id);
	ld->n_maps++;
	/* an image whose variables may hold data addresses (the kernel's symbolic row has no range) */
	if (rc == 0 && len && pid >= 0)
		rc = data_attrib_add_image(&ld->dattr, pid, start, len, pgoff, m->path, m->build_id, m->id);
	return rc;
}

int spe_loader_data_mmap(struct spe_loader *ld, int pid, uint64_t start, uint64_t len, uint64_t pgoff, uint32_t prot,
			 uint32_t flags, const char *path, uint64_t time)
{
	int64_t id = 0;
	int rc = insert_mapping(ld, pid, path ? path : "", NULL, start, len, pgoff, time, (int64_t)prot, &id);
	if (rc == 0)
		rc = data_attrib_add_map(&ld->dattr, pid, start, len, pgoff, prot, flags, path, id);
	return rc;
}

int spe_loader_numa(struct spe_loader *ld, const struct spe_perf_numa_node *nodes, uint32_t n, uint64_t block_size)
{
	return numa_tables_write(ld->sql, ld->source_id, nodes, n, block_size, ld->err, sizeof ld->err);
}

void spe_loader_switch_in(struct spe_loader *ld, int cpu, int pid, int tid, uint64_t time)
{
	struct cpu_state *c = cpu_state(ld, cpu);
	if (!c)
		return;
	struct switch_in *p = grow_array(c->sw, &c->cap_sw, c->n_sw + 1, sizeof *p);
	if (!p)
		return;
	c->sw = p;
	/* keep the timeline sorted even if records arrive slightly out of order */
	size_t i = c->n_sw;
	uint64_t t = time == NO_TIME ? 0 : time;
	while (i > 0 && c->sw[i - 1].time > t) {
		c->sw[i] = c->sw[i - 1];
		i--;
	}
	c->sw[i] = (struct switch_in){ t, pid, tid };
	c->n_sw++;
	if (pid >= 0 && tid >= 0) {
		struct thread *th = add_thread(ld, tid);
		if (th && th->pid < 0)
			th->pid = pid;
	}
}

void spe_loader_lost(struct spe_loader *ld, uint64_t count)
{
	ld->counts.lost_aux += count;
}

/* ---- per-record resolution ---------------------------------------------- */

static const struct switch_in *switched_in(const struct cpu_state *c, uint64_t time)
{
	if (!c || !c->n_sw)
		return NULL;
	if (time == NO_TIME)
		return &c->sw[c->n_sw - 1];
	size_t lo = 0, hi = c->n_sw;
	while (lo < hi) { /* first entry with time > t */
		size_t mid = (lo + hi) / 2;
		if (c->sw[mid].time <= time)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &c->sw[lo - 1] : NULL;
}

static struct mapping *find_mapping(struct spe_loader *ld, int pid, uint64_t pc, uint64_t time)
{
	struct mapping *best = NULL;
	for (size_t i = 0; i < ld->n_maps; i++) {
		struct mapping *m = &ld->maps[i];
		if (pc < m->start || pc >= m->end || (m->pid != pid && m->pid != -1 && pid >= 0))
			continue;
		/* the latest mapping not after the record; else the earliest */
		int usable = time == NO_TIME || m->time == NO_TIME || m->time <= time;
		if (!best)
			best = m;
		else if (usable && (best->time == NO_TIME || best->time > time || m->time >= best->time))
			best = m;
	}
	return best;
}

static int64_t insert_symbol(struct spe_loader *ld, int64_t mapping_id, const char *name, uint64_t start,
			     uint64_t size, const char *file, int line)
{
	uint64_t key = pc_cache_key2((uint64_t)mapping_id, start);
	struct pc_value *v = pc_cache_find(&ld->symbols, key);
	if (v)
		return v->symbol_id;
	sqlite3_stmt *st = ld->ins_symbol;
	if (mapping_id)
		sqlite3_bind_int64(st, 1, mapping_id);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 3, (int64_t)start);
	if (size)
		sqlite3_bind_int64(st, 4, (int64_t)size);
	bind_text_or_null(st, 5, file);
	if (line > 0)
		sqlite3_bind_int(st, 6, line);
	if (step_done(ld, st, "symbol") < 0)
		return -1;
	int64_t id = sqlite3_last_insert_rowid(ld->sql);
	struct pc_value nv = { .symbol_id = id };
	if (!pc_cache_put(&ld->symbols, key, nv))
		return -1;
	return id;
}

static int64_t kernel_mapping(struct spe_loader *ld)
{
	if (ld->kernel_mapping_id)
		return ld->kernel_mapping_id;
	/* a symbolic row (empty range, so user lookups never match it) */
	if (spe_loader_mmap(ld, -1, 0, 0, 0, "[kernel.kallsyms]", NULL, NO_TIME) < 0)
		return -1;
	ld->kernel_mapping_id = ld->maps[ld->n_maps - 1].id;
	return ld->kernel_mapping_id;
}

static int resolve_kernel(struct spe_loader *ld, uint64_t pc, struct pc_value *out)
{
	uint64_t start, size;
	const char *name = spe_kallsyms_lookup(ld->ks, pc, &start, &size);
	if (!name)
		return 0;
	int64_t mid = kernel_mapping(ld);
	if (mid < 0)
		return -1;
	out->mapping_id = mid;
	out->symbol_id = insert_symbol(ld, mid, name, start, size, NULL, 0);
	return out->symbol_id < 0 ? -1 : 0;
}

static int resolve_user(struct spe_loader *ld, struct mapping *m, uint64_t pc, struct pc_value *out)
{
	out->mapping_id = m->id;
	if (!ld->sym)
		return 0;
	if (!m->bin_tried) {
		m->bin_tried = 1;
		m->bin = spe_sym_binary(ld->sym, m->path, m->build_id);
		if (m->bin && !m->build_id && *spe_sym_binary_build_id(m->bin)) {
			/* remember the build-id of the file actually used */
			sqlite3_stmt *st;
			if (sqlite3_prepare_v2(ld->sql, "UPDATE mapping SET build_id = ? WHERE id = ?", -1, &st, NULL) ==
			    SQLITE_OK) {
				sqlite3_bind_text(st, 1, spe_sym_binary_build_id(m->bin), -1, SQLITE_TRANSIENT);
				sqlite3_bind_int64(st, 2, m->id);
				sqlite3_step(st);
				sqlite3_finalize(st);
			}
		}
	}
	uint64_t vaddr;
	if (!m->bin || spe_sym_offset_to_vaddr(m->bin, pc - m->start + m->pgoff, &vaddr) != 0)
		return 0;
	struct spe_sym_result r;
	spe_sym_lookup(m->bin, vaddr, &r);
	if (r.function) {
		uint64_t start = pc - (vaddr - r.function_start);
		out->symbol_id = insert_symbol(ld, m->id, r.function, start, r.function_size, r.decl_file, r.decl_line);
		if (out->symbol_id < 0)
			return -1;
	}
	uint8_t code[4];
	int have_code = spe_sym_read_code(m->bin, vaddr, code, 4) == 4;
	char mnem[32], ops[160];
	if (have_code)
		spe_disasm_one(ld->dis, code, pc, mnem, sizeof mnem, ops, sizeof ops);
	sqlite3_stmt *st = ld->ins_insn;
	sqlite3_bind_int64(st, 1, m->id);
	sqlite3_bind_int64(st, 2, (int64_t)pc);
	if (out->symbol_id)
		sqlite3_bind_int64(st, 3, out->symbol_id);
	if (have_code) {
		sqlite3_bind_blob(st, 4, code, 4, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 5, mnem, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 6, ops, -1, SQLITE_TRANSIENT);
	}
	bind_text_or_null(st, 7, r.file);
	if (r.line > 0)
		sqlite3_bind_int(st, 8, r.line);
	bind_text_or_null(st, 9, r.inline_function);
	if (step_done(ld, st, "insn") < 0)
		return -1;
	out->insn_id = sqlite3_last_insert_rowid(ld->sql);
	return 0;
}

/* Kernel addresses: EL1/EL2, or the upper half of the address space. */
static int is_kernel_pc(const struct spe_record *rec)
{
	return rec->pc.el >= 1 || (rec->pc.addr >> 63);
}

static int resolve_pc(struct spe_loader *ld, const struct spe_record *rec, int pid, uint64_t time,
		      struct pc_value *out)
{
	memset(out, 0, sizeof *out);
	uint64_t pc = rec->pc.addr;
	int kernel = is_kernel_pc(rec);
	uint64_t key = pc_cache_key2((uint64_t)(int64_t)(kernel ? KERNEL_PID : pid), pc);
	struct pc_value *v = pc_cache_find(&ld->pcs, key);
	if (v) {
		*out = *v;
	} else {
		int rc = 0;
		if (kernel) {
			if (ld->ks)
				rc = resolve_kernel(ld, pc, out);
		} else {
			struct mapping *m = find_mapping(ld, pid, pc, time);
			if (m)
				rc = resolve_user(ld, m, pc, out);
		}
		if (rc < 0)
			return -1;
		struct latency_key lk = { { pc, (uint64_t)out->insn_id, (uint64_t)out->symbol_id << 1 | 1 } };
		int64_t group = latency_group_of(&ld->latency, &lk);
		if (group < 0)
			return -1;
		out->latency_group = (uint32_t)group;
		if (!pc_cache_put(&ld->pcs, key, *out))
			return -1;
	}
	if (!out->mapping_id && !kernel)
		ld->counts.no_mapping++;
	else if (out->mapping_id && !out->symbol_id)
		ld->counts.no_symbol++;
	return 0;
}

static const char *op_text(struct spe_loader *ld, const struct spe_record *rec)
{
	unsigned c = rec->op_raw_class & 3, p = rec->op_raw;
	if (!ld->op_text_built[c][p]) {
		spe_record_op_text(rec, ld->op_text[c][p], sizeof ld->op_text[c][p]);
		ld->op_text_built[c][p] = 1;
	}
	return ld->op_text[c][p];
}

/* Insert the buffered rows: one batch statement when full, else row by row. */
static int flush_rows(struct spe_loader *ld)
{
	int rc = SQLITE_DONE;
	if (ld->n_rows == RECORD_BATCH) {
		for (int r = 0; r < RECORD_BATCH; r++)
			bind_row(ld->ins_batch, 1 + r * RECORD_COLUMNS, &ld->rows[r]);
		rc = sqlite3_step(ld->ins_batch);
		sqlite3_reset(ld->ins_batch);
	} else {
		for (int r = 0; r < ld->n_rows && rc == SQLITE_DONE; r++) {
			bind_row(ld->ins_record, 1, &ld->rows[r]);
			rc = sqlite3_step(ld->ins_record);
			sqlite3_reset(ld->ins_record);
		}
	}
	ld->n_rows = 0;
	return rc == SQLITE_DONE ? 0 : sql_fail(ld, "inserting records");
}

#define HAS(f) (rec->has & SPE_HAS_##f)

int spe_loader_record(struct spe_loader *ld, int cpu, int pid, int tid, const struct spe_record *rec)
{
	if (ld->opts.cancel && *ld->opts.cancel) {
		snprintf(ld->err, sizeof ld->err, "interrupted");
		return -SPE_LOAD_CANCELLED;
	}
	struct cpu_state *c = cpu_state(ld, cpu);
	if (!c)
		return -spe_nomem;
	uint64_t time = NO_TIME;
	if (HAS(TIMESTAMP) && ld->has_time_conv)
		time = spe_perf_tsc_to_time(&ld->tc, rec->timestamp);
	if (time == NO_TIME)
		ld->counts.no_time++;

	/* attribution: CONTEXT, then switches on this CPU, then the AUXTRACE record */
	if (HAS(CONTEXT)) {
		tid = (int)rec->context;
		struct thread *t = find_thread(ld, tid);
		pid = t ? t->pid : -1;
	} else {
		const struct switch_in *s = switched_in(c, time);
		if (s) {
			pid = s->pid;
			tid = s->tid;
		}
	}
	if (tid >= 0 && !find_thread(ld, tid)) {
		struct thread *t = add_thread(ld, tid);
		if (t)
			t->pid = pid;
	}

	struct pc_value where = { 0 };
	if (HAS(PC) && resolve_pc(ld, rec, pid, time, &where) < 0) {
		if (!ld->err[0])
			snprintf(ld->err, sizeof ld->err, "out of memory");
		return -spe_nomem;
	}
	struct record_row *row = &ld->rows[ld->n_rows];
	row->present = 0;
	row_int(row, 1, 1, (uint64_t)ld->source_id);
	row_int(row, 2, HAS(TIMESTAMP), rec->timestamp);
	row_int(row, 3, time != NO_TIME, time);
	row_int(row, 4, 1, (uint64_t)(int64_t)cpu);
	row_int(row, 5, pid >= 0, (uint64_t)pid);
	row_int(row, 6, tid >= 0, (uint64_t)tid);
	row_int(row, 7, HAS(PC), rec->pc.addr);
	row_int(row, 8, HAS(PC), rec->pc.el);
	if (HAS(OP_TYPE)) {
		row_text(row, 9, spe_op_class_name(rec->op_class));
		row_text(row, 10, op_text(ld, rec));
	}
	row_int(row, 11, HAS(OP_TYPE), (uint64_t)(rec->op_raw_class << 8 | rec->op_raw));
	row_int(row, 12, HAS(EVENTS), rec->events);
	row_int(row, 13, HAS(TOTAL_LATENCY), rec->total_latency);
	row_int(row, 14, HAS(ISSUE_LATENCY), rec->issue_latency);
	row_int(row, 15, HAS(TRANSLATION_LATENCY), rec->translation_latency);
	row_int(row, 16, HAS(DATA_VA), rec->data_va);
	row_int(row, 17, HAS(DATA_PA), rec->data_pa);
	row_int(row, 18, HAS(DATA_SOURCE), rec->data_source);
	if (HAS(DATA_SOURCE)) {
		int modified = 0;
		int level = spe_mem_level(c->midr, rec->data_source, &modified);
		row_text(row, 19, level >= 0 ? spe_mem_level_name(level) : NULL);
	}
	row_int(row, 20, HAS(BRANCH_TARGET), rec->branch_target.addr);
	row_int(row, 21, HAS(PREV_BRANCH_TARGET), rec->prev_branch_target.addr);
	row_int(row, 22, HAS(CONTEXT), rec->context);
	row_int(row, 23, where.mapping_id != 0, (uint64_t)where.mapping_id);
	row_int(row, 24, where.symbol_id != 0, (uint64_t)where.symbol_id);
	row_int(row, 25, where.insn_id != 0, (uint64_t)where.insn_id);
	int64_t object = 0;
	if (HAS(DATA_VA) && pid >= 0 && !(rec->data_va >> 63)) {
		object = data_attrib_resolve(&ld->dattr, pid, rec->data_va);
		if (object < 0) {
			snprintf(ld->err, sizeof ld->err, "%s", ld->dattr.err);
			return (int)object;
		}
	}
	row_int(row, 26, object > 0, (uint64_t)object);
	if (++ld->n_rows == RECORD_BATCH && flush_rows(ld) < 0)
		return -spe_io;
	int64_t group = where.latency_group;
	if (!HAS(PC)) {
		if (ld->no_pc_group < 0) {
			struct latency_key none = { { 0, 0, 0 } };
			ld->no_pc_group = latency_group_of(&ld->latency, &none);
		}
		group = ld->no_pc_group;
	}
	if (group < 0 ||
	    latency_groups_count(&ld->latency, (uint32_t)group,
				 HAS(TOTAL_LATENCY) ? rec->total_latency : LATENCY_NONE) < 0) {
		snprintf(ld->err, sizeof ld->err, "out of memory");
		return -spe_nomem;
	}
	ld->counts.records++;
	return 0;
}

/* ---- aux bytes ---------------------------------------------------------- */

/*
 * Start loading the PC memo entry a record will look up.  Over hundreds of
 * thousands of PCs the lookup is a cache miss per record; issued a few
 * records ahead it overlaps with the work on the ones before.  Only when the
 * address space is known without the switch history (CONTEXT or a kernel
 * PC): a hint, so a wrong guess costs nothing but the load.
 */
static void prefetch_pc(struct spe_loader *ld, const struct spe_record *rec)
{
	if (!HAS(PC))
		return;
	int pid = KERNEL_PID;
	if (!is_kernel_pc(rec)) {
		struct thread *t = HAS(CONTEXT) ? find_thread(ld, (int)rec->context) : NULL;
		if (!t)
			return;
		pid = t->pid;
	}
	pc_cache_prefetch(&ld->pcs, pc_cache_key2((uint64_t)(int64_t)pid, rec->pc.addr));
}

/* Hand every record the decoder has ready to spe_loader_record, prefetching ahead. */
static int drain_decoder(struct spe_loader *ld, struct spe_rec_decoder *dec, int cpu, int pid, int tid)
{
	enum { BATCH = 32, AHEAD = 8 };
	struct spe_record recs[BATCH];
	for (;;) {
		int n = 0, rc = 0;
		while (n < BATCH && (rc = spe_rec_next(dec, &recs[n], sizeof recs[n])) == 0)
			n++;
		for (int i = 0; i < n; i++) {
			if (i + AHEAD < n)
				prefetch_pc(ld, &recs[i + AHEAD]);
			int r = spe_loader_record(ld, cpu, pid, tid, &recs[i]);
			if (r < 0)
				return r;
		}
		if (n < BATCH)
			return rc == -spe_eos ? 0 : rc;
	}
}

static void on_decode_error(void *ctx, uint64_t offset, int err, const char *reason)
{
	(void)offset;
	(void)err;
	(void)reason;
	struct spe_loader *ld = ctx;
	ld->decode_error = 1;
}

int spe_loader_aux(struct spe_loader *ld, int cpu, int pid, int tid, const uint8_t *buf, size_t len,
		   uint64_t offset, int join)
{
	struct cpu_state *c = cpu_state(ld, cpu);
	if (!c)
		return -spe_nomem;
	if (!c->dec) {
		struct spe_rec_config cfg = SPE_OPTS(spe_rec_config, .midr = c->midr, .on_error = on_decode_error,
						     .ctx = ld);
		c->dec = spe_rec_alloc_decoder(&cfg);
		if (!c->dec) {
			snprintf(ld->err, sizeof ld->err, "out of memory");
			return -spe_nomem;
		}
		join = 0;
	} else if (!join) {
		/* a gap: a record cut by it cannot continue in these bytes */
		spe_rec_flush(c->dec);
		int rc = drain_decoder(ld, c->dec, cpu, pid, tid);
		if (rc < 0)
			return rc;
	}
	int rc = spe_rec_feed(c->dec, buf, len, offset, join);
	if (rc < 0) {
		snprintf(ld->err, sizeof ld->err, "cpu %d: offset 0x%" PRIx64 ": %s", cpu, offset, spe_errstr(rc));
		return rc;
	}
	return drain_decoder(ld, c->dec, cpu, pid, tid);
}

/* ---- finish ------------------------------------------------------------- */

static int write_threads(struct spe_loader *ld)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(ld->sql, "INSERT OR REPLACE INTO thread(source_id, tid, pid, comm) VALUES(?, ?, ?, ?)",
			       -1, &st, NULL) != SQLITE_OK)
		return sql_fail(ld, "thread");
	int rc = 0;
	for (size_t i = 0; i < ld->n_threads && rc == 0; i++) {
		struct thread *t = &ld->threads[i];
		sqlite3_bind_int64(st, 1, ld->source_id);
		sqlite3_bind_int(st, 2, t->tid);
		if (t->pid >= 0)
			sqlite3_bind_int(st, 3, t->pid);
		bind_text_or_null(st, 4, t->comm);
		rc = step_done(ld, st, "thread");
	}
	sqlite3_finalize(st);
	return rc;
}

static int write_cpus(struct spe_loader *ld)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(ld->sql, "INSERT INTO cpu(source_id, cpu, midr, part, spe_version) VALUES(?, ?, ?, ?, ?)",
			       -1, &st, NULL) != SQLITE_OK)
		return sql_fail(ld, "cpu");
	int rc = 0;
	for (int i = 0; i < ld->n_cpus && rc == 0; i++) {
		struct cpu_state *c = &ld->cpus[i];
		if (!c->known && !c->dec)
			continue;
		sqlite3_bind_int64(st, 1, ld->source_id);
		sqlite3_bind_int(st, 2, i);
		if (c->midr) {
			sqlite3_bind_int64(st, 3, c->midr);
			const struct spe_cpu_info *info = spe_cpu_lookup(c->midr);
			if (info) {
				bind_text_or_null(st, 4, info->name);
				bind_text_or_null(st, 5, info->spe_version && *info->spe_version ? info->spe_version : NULL);
			}
		}
		rc = step_done(ld, st, "cpu");
	}
	sqlite3_finalize(st);
	return rc;
}

static int write_latency_summary(struct spe_loader *ld)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(ld->sql,
			       "INSERT INTO pc_latency(source_id, pc, insn_id, symbol_id, total_latency, samples)"
			       " VALUES(?, ?, ?, ?, ?, ?)",
			       -1, &st, NULL) != SQLITE_OK)
		return sql_fail(ld, "pc_latency");
	int rc = 0;
	if (latency_groups_settle(&ld->latency) < 0) {
		sqlite3_finalize(st);
		snprintf(ld->err, sizeof ld->err, "out of memory");
		return -spe_nomem;
	}
	/* group keys are (pc, insn_id, symbol_id << 1 | has_pc), see resolve_pc */
	for (uint32_t g = 0; g < ld->latency.n && rc == 0; g++) {
		const struct latency_group *grp = &ld->latency.groups[g];
		int has_pc = grp->key.w[2] & 1;
		int64_t insn_id = (int64_t)grp->key.w[1], symbol_id = (int64_t)(grp->key.w[2] >> 1);
		LATENCY_HIST_FOREACH(&grp->hist, i)
		{
			if (rc != 0)
				break;
			uint64_t slot = grp->hist.slots[i];
			sqlite3_bind_int64(st, 1, ld->source_id);
			if (has_pc)
				sqlite3_bind_int64(st, 2, (int64_t)grp->key.w[0]);
			if (insn_id)
				sqlite3_bind_int64(st, 3, insn_id);
			if (symbol_id)
				sqlite3_bind_int64(st, 4, symbol_id);
			if (latency_slot_latency(slot) != LATENCY_NONE)
				sqlite3_bind_int(st, 5, latency_slot_latency(slot));
			sqlite3_bind_int64(st, 6, (int64_t)latency_slot_count(slot));
			rc = step_done(ld, st, "pc_latency");
		}
	}
	sqlite3_finalize(st);
	return rc;
}

static int write_stats(struct spe_loader *ld)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(ld->sql,
			       "INSERT INTO load_stats(source_id, records, bad_bytes, skipped_bytes, partial_records,"
			       " unknown_packets, lost_aux, no_mapping, no_symbol, no_time, no_data_object)"
			       " VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			       -1, &st, NULL) != SQLITE_OK)
		return sql_fail(ld, "load_stats");
	ld->counts.no_data_object = ld->dattr.unresolved;
	const struct spe_load_counts *k = &ld->counts;
	uint64_t v[] = { k->records, k->bad_bytes, k->skipped_bytes, k->partial_records, k->unknown_packets,
			 k->lost_aux, k->no_mapping, k->no_symbol, k->no_time, k->no_data_object };
	sqlite3_bind_int64(st, 1, ld->source_id);
	for (size_t i = 0; i < sizeof v / sizeof *v; i++)
		sqlite3_bind_int64(st, (int)i + 2, (int64_t)v[i]);
	int rc = step_done(ld, st, "load_stats");
	sqlite3_finalize(st);
	return rc;
}

int spe_loader_finish(struct spe_loader *ld, struct spe_load_counts *counts)
{
	for (int i = 0; i < ld->n_cpus; i++) {
		struct cpu_state *c = &ld->cpus[i];
		if (!c->dec)
			continue;
		spe_rec_flush(c->dec);
		int rc = drain_decoder(ld, c->dec, i, -1, -1);
		if (rc < 0)
			return rc;
		struct spe_rec_stats s;
		memset(&s, 0, sizeof s);
		spe_rec_get_stats(c->dec, &s, sizeof s);
		ld->counts.bad_bytes += s.bad_bytes;
		ld->counts.skipped_bytes += s.skipped_bytes;
		ld->counts.partial_records += s.partial_records;
		ld->counts.unknown_packets += s.unknown_packets;
	}
	int rc = flush_rows(ld);
	if (rc == 0)
		rc = write_threads(ld);
	if (rc == 0)
		rc = write_cpus(ld);
	if (rc == 0)
		rc = write_stats(ld);
	if (rc == 0)
		rc = write_latency_summary(ld);
	if (counts)
		*counts = ld->counts;
	return rc;
}

void spe_loader_add_decoder_stats(struct spe_loader *ld, const struct spe_rec_stats *s)
{
	ld->counts.bad_bytes += s->bad_bytes;
	ld->counts.skipped_bytes += s->skipped_bytes;
	ld->counts.partial_records += s->partial_records;
	ld->counts.unknown_packets += s->unknown_packets;
}

const char *spe_loader_error(const struct spe_loader *ld)
{
	return ld ? ld->err : "";
}

void spe_loader_free(struct spe_loader *ld)
{
	if (!ld)
		return;
	sqlite3_finalize(ld->ins_record);
	sqlite3_finalize(ld->ins_batch);
	sqlite3_finalize(ld->ins_symbol);
	sqlite3_finalize(ld->ins_insn);
	for (size_t i = 0; i < ld->n_maps; i++) {
		free(ld->maps[i].path);
		free(ld->maps[i].build_id);
	}
	free(ld->maps);
	for (size_t i = 0; i < ld->n_threads; i++)
		free(ld->threads[i].comm);
	free(ld->threads);
	pc_cache_free(&ld->thread_index);
	for (int i = 0; i < ld->n_cpus; i++) {
		spe_rec_free_decoder(ld->cpus[i].dec);
		free(ld->cpus[i].sw);
	}
	free(ld->cpus);
	data_attrib_fini(&ld->dattr);
	spe_sym_free(ld->sym);
	spe_disasm_free(ld->dis);
	spe_kallsyms_free(ld->ks);
	pc_cache_free(&ld->pcs);
	pc_cache_free(&ld->symbols);
	latency_groups_free(&ld->latency);
	free(ld);
}
