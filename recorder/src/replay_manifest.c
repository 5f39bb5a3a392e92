/* SPDX-License-Identifier: Apache-2.0 */
/* Parser for replay manifests, format v1 (docs/replay-manifest.md). */
#include "spe/replay_manifest.h"
#include "spe/infile.h"
#include "spe/spe.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_TOKENS 10
/* a busy host's sideband (2,000 processes of 40 mappings) is 4-5 MB of text; a bigger file is no manifest */
#define MANIFEST_MAX_BYTES (64u << 20)

struct parser {
	const char *name, *dir;
	unsigned line;
	char *err;
	size_t errsize;
	struct spe_replay_manifest *m;
	struct spe_replay_cpu *cur;  /* CPU block the next aux/itrace_start belongs to */
	uint64_t default_midr;       /* last 'midr' seen: inherited by later 'cpu' blocks */
};

static int fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct parser *p, const char *fmt, ...)
{
	if (p->err && p->errsize) {
		int n = p->line ? snprintf(p->err, p->errsize, "%s:%u: ", p->name, p->line)
				: snprintf(p->err, p->errsize, "%s: ", p->name);
		if (n >= 0 && (size_t)n < p->errsize) {
			va_list ap;
			va_start(ap, fmt);
			vsnprintf(p->err + n, p->errsize - (size_t)n, fmt, ap);
			va_end(ap);
		}
	}
	return -spe_bad_file;
}

static int parse_u64(struct parser *p, const char *tok, const char *what, uint64_t max, uint64_t *v)
{
	char *end;
	if (!tok || tok[0] == '-' || tok[0] == '+' || !*tok)
		return fail(p, "%s: expected a number, got '%s'", what, tok ? tok : "");
	errno = 0;
	unsigned long long x = strtoull(tok, &end, 0);
	if (errno || *end)
		return fail(p, "%s: '%s' is not a number", what, tok);
	if (x > max)
		return fail(p, "%s: %s is out of range (max %llu)", what, tok, (unsigned long long)max);
	*v = x;
	return 0;
}

static int parse_u32(struct parser *p, const char *tok, const char *what, uint32_t *v)
{
	uint64_t x = 0;
	int r = parse_u64(p, tok, what, UINT32_MAX, &x);
	if (!r)
		*v = (uint32_t)x;
	return r;
}

/* Join dir and a relative path; absolute paths are kept. */
static char *resolve(const char *dir, const char *path)
{
	if (path[0] == '/' || !dir || !*dir)
		return strdup(path);
	size_t n = strlen(dir) + strlen(path) + 2;
	char *s = malloc(n);
	if (s)
		snprintf(s, n, "%s/%s", dir, path);
	return s;
}

/* perf opens MMAP2 paths on the machine running perf: store them absolute. */
static char *resolve_absolute(const char *dir, const char *path)
{
	char *joined = resolve(dir, path);
	if (!joined || joined[0] == '/')
		return joined;
	char *abs = realpath(joined, NULL);
	if (abs) {
		free(joined);
		return abs;
	}
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd))
		return joined;
	char *s = resolve(cwd, joined);
	free(joined);
	return s;
}

static struct spe_replay_cpu *add_cpu(struct parser *p, uint32_t cpu)
{
	struct spe_replay_manifest *m = p->m;
	for (size_t i = 0; i < m->n_cpus; i++) {
		if (m->cpus[i].cpu == cpu) {
			fail(p, "cpu %u appears twice", cpu);
			return NULL;
		}
	}
	if (m->n_cpus >= SPE_REPLAY_MAX_CPUS) {
		fail(p, "more than %d cpus", SPE_REPLAY_MAX_CPUS);
		return NULL;
	}
	struct spe_replay_cpu *c = realloc(m->cpus, (m->n_cpus + 1) * sizeof *c);
	if (!c)
		return NULL;
	m->cpus = c;
	c = &m->cpus[m->n_cpus++];
	memset(c, 0, sizeof *c);
	c->cpu = cpu;
	c->midr = p->default_midr;
	return c;
}

/* The CPU block for aux/itrace_start lines: cpu 0 is implied before any 'cpu' line. */
static struct spe_replay_cpu *current_cpu(struct parser *p)
{
	if (!p->cur)
		p->cur = add_cpu(p, 0);
	return p->cur;
}

static struct spe_replay_side *add_side(struct parser *p, enum spe_replay_side_kind kind)
{
	struct spe_replay_manifest *m = p->m;
	struct spe_replay_side *s = realloc(m->side, (m->n_side + 1) * sizeof *s);
	if (!s)
		return NULL;
	m->side = s;
	s = &m->side[m->n_side++];
	memset(s, 0, sizeof *s);
	s->kind = kind;
	return s;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int parse_build_id(struct parser *p, const char *tok, struct spe_replay_mmap2 *mm)
{
	const char *hex = tok + strlen("build_id=");
	size_t n = strlen(hex);
	if (n == 0 || n % 2 || n / 2 > SPE_REPLAY_BUILD_ID_MAX)
		return fail(p, "build_id: expected 2 to %d hex digits in pairs, got '%s'",
			    2 * SPE_REPLAY_BUILD_ID_MAX, hex);
	for (size_t i = 0; i < n; i += 2) {
		int hi = hexval(hex[i]), lo = hexval(hex[i + 1]);
		if (hi < 0 || lo < 0)
			return fail(p, "build_id: '%s' is not hex", hex);
		mm->build_id[i / 2] = (uint8_t)(hi << 4 | lo);
	}
	mm->build_id_size = (uint8_t)(n / 2);
	return 0;
}

/* prot=PERMS as /proc/PID/maps prints them: "r-xp", "rw-p", "rw-s" (4 characters). */
static int parse_perms(struct parser *p, const char *perms, struct spe_replay_mmap2 *mm)
{
	if (strlen(perms) != 4 || !strchr("r-", perms[0]) || !strchr("w-", perms[1]) || !strchr("x-", perms[2]) ||
	    !strchr("ps", perms[3]))
		return fail(p, "mmap2: prot '%s' is not of the form r-xp / rw-p / rw-s", perms);
	mm->prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
		   (perms[2] == 'x' ? PROT_EXEC : 0);
	mm->flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
	return 0;
}

/* A kernel list "0-3,8" (or "-" for none): each number below @p max; bits set in *@p bits. */
static int parse_list(struct parser *p, const char *what, const char *list, uint64_t max, uint64_t **bits,
		      uint64_t *n_bits)
{
	*bits = NULL;
	*n_bits = 0;
	if (!strcmp(list, "-"))
		return 0;
	const char *s = list;
	for (;;) {
		char *end;
		if (!isdigit((unsigned char)*s))
			goto bad;
		unsigned long long a = strtoull(s, &end, 10), b = a;
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				goto bad;
			b = strtoull(end + 1, &end, 10);
		}
		if (b < a || b >= max) {
			free(*bits);
			*bits = NULL;
			return fail(p, "%s: range %llu-%llu in '%s' is empty or above %llu", what, a, b, list,
				    (unsigned long long)max - 1);
		}
		if (b + 1 > *n_bits) {
			uint64_t words = (*n_bits + 63) / 64, need = b / 64 + 1;
			if (need > words) {
				uint64_t *q = realloc(*bits, need * 8);
				if (!q) {
					free(*bits);
					*bits = NULL;
					return -spe_nomem;
				}
				memset(q + words, 0, (need - words) * 8);
				*bits = q;
			}
			*n_bits = b + 1;
		}
		for (unsigned long long i = a; i <= b; i++)
			(*bits)[i / 64] |= 1ull << (i % 64);
		if (!*end)
			return 0;
		if (*end != ',')
			goto bad;
		s = end + 1;
	}
bad:
	free(*bits); /* a list cut by a bad character: nothing of it is kept */
	*bits = NULL;
	return fail(p, "%s: '%s' is not a list like 0-3,8", what, list);
}

static int want_args(struct parser *p, const char *dir, int ntok, int min, int max);

/* numa_node NODE CPULIST [BLOCKLIST]: a NUMA node of the traced machine (docs/replay-manifest.md). */
static int numa_node(struct parser *p, char **tok, int ntok)
{
	uint32_t node;
	int r;
	if ((r = want_args(p, tok[0], ntok, 2, 3)) || (r = parse_u32(p, tok[1], "numa_node node", &node)))
		return r;
	if (node > 4095)
		return fail(p, "numa_node: node %u is above 4095", node);
	struct spe_replay_manifest *m = p->m;
	for (size_t i = 0; i < m->n_numa_nodes; i++)
		if (m->numa_nodes[i].node == node)
			return fail(p, "numa_node %u appears twice", node);
	uint64_t *cpus, n_cpus, *blocks = NULL, n_blocks = 0;
	if ((r = parse_list(p, "numa_node cpus", tok[2], 1u << 20, &cpus, &n_cpus)))
		return r;
	free(cpus); /* validated; the text is what the feature stores */
	if (ntok == 4 && (r = parse_list(p, "numa_node blocks", tok[3], 1u << 24, &blocks, &n_blocks)))
		return r;
	/* bitmaps of all nodes together at most 2 MiB: a machine has far fewer blocks */
	uint64_t all = n_blocks;
	for (size_t i = 0; i < m->n_numa_nodes; i++)
		all += m->numa_nodes[i].n_block_bits;
	if (all > 1u << 24) {
		free(blocks);
		return fail(p, "numa_node: the nodes' block lists reach past %u blocks in all", 1u << 24);
	}
	struct spe_perf_numa_node *nn = realloc(m->numa_nodes, (m->n_numa_nodes + 1) * sizeof *nn);
	if (nn)
		m->numa_nodes = nn;
	char *text = nn ? strdup(strcmp(tok[2], "-") ? tok[2] : "") : NULL;
	if (!text) {
		free(blocks);
		return -spe_nomem;
	}
	m->numa_nodes[m->n_numa_nodes++] =
		(struct spe_perf_numa_node){ .node = node, .cpus = text, .n_block_bits = n_blocks, .blocks = blocks };
	return 0;
}

static int want_args(struct parser *p, const char *dir, int ntok, int min, int max)
{
	if (ntok - 1 < min || ntok - 1 > max) {
		if (min == max)
			return fail(p, "'%s' takes %d argument%s, got %d", dir, min, min == 1 ? "" : "s", ntok - 1);
		return fail(p, "'%s' takes %d to %d arguments, got %d", dir, min, max, ntok - 1);
	}
	return 0;
}

static int dir_midr(struct parser *p, char **tok, int ntok)
{
	uint64_t v = 0;
	int r = parse_u64(p, tok[1], "midr", UINT32_MAX, &v);
	(void)ntok;
	if (r)
		return r;
	p->default_midr = v;
	if (p->cur)
		p->cur->midr = v;
	return 0;
}

static int dir_cpu(struct parser *p, char **tok, int ntok)
{
	uint32_t cpu;
	int r = parse_u32(p, tok[1], "cpu", &cpu);
	(void)ntok;
	if (r)
		return r;
	if (cpu >= 1u << 20)
		return fail(p, "cpu: %u is not a plausible CPU number", cpu);
	p->cur = add_cpu(p, cpu);
	return p->cur ? 0 : -spe_bad_file;
}

static int dir_time_conv(struct parser *p, char **tok, int ntok)
{
	struct spe_replay_manifest *m = p->m;
	int r;
	(void)ntok;
	if ((r = parse_u64(p, tok[1], "time_conv shift", 63, &m->time_shift)) ||
	    (r = parse_u64(p, tok[2], "time_conv mult", UINT32_MAX, &m->time_mult)) ||
	    (r = parse_u64(p, tok[3], "time_conv zero", UINT64_MAX, &m->time_zero)))
		return r;
	if (m->time_mult == 0)
		return fail(p, "time_conv: mult 0 would make perf divide by zero");
	m->has_time_conv = 1;
	return 0;
}

static int dir_comm(struct parser *p, char **tok, int ntok)
{
	struct spe_replay_side s = { .kind = SPE_REPLAY_COMM };
	int r;
	(void)ntok;
	if ((r = parse_u32(p, tok[1], "comm pid", &s.u.comm.pid)) || (r = parse_u32(p, tok[2], "comm tid", &s.u.comm.tid)))
		return r;
	if (strlen(tok[3]) >= SPE_REPLAY_COMM_LEN)
		return fail(p, "comm: name '%s' is longer than %d characters", tok[3], SPE_REPLAY_COMM_LEN - 1);
	strcpy(s.u.comm.name, tok[3]);
	struct spe_replay_side *dst = add_side(p, SPE_REPLAY_COMM);
	if (!dst)
		return -spe_nomem;
	*dst = s;
	return 0;
}

static int dir_mmap2(struct parser *p, char **tok, int ntok)
{
	struct spe_replay_mmap2 mm = { .prot = PROT_READ | PROT_EXEC, .flags = MAP_PRIVATE };
	int r;
	if ((r = parse_u32(p, tok[1], "mmap2 pid", &mm.pid)) || (r = parse_u32(p, tok[2], "mmap2 tid", &mm.tid)) ||
	    (r = parse_u64(p, tok[3], "mmap2 start", UINT64_MAX, &mm.start)) ||
	    (r = parse_u64(p, tok[4], "mmap2 len", UINT64_MAX, &mm.len)) ||
	    (r = parse_u64(p, tok[5], "mmap2 pgoff", UINT64_MAX, &mm.pgoff)))
		return r;
	if (mm.len == 0 || mm.start + mm.len < mm.start)
		return fail(p, "mmap2: start 0x%llx len 0x%llx is not a valid range", (unsigned long long)mm.start,
			    (unsigned long long)mm.len);
	for (int i = 7; i < ntok; i++) {
		if (!strncmp(tok[i], "build_id=", 9))
			r = parse_build_id(p, tok[i], &mm);
		else if (!strncmp(tok[i], "prot=", 5))
			r = parse_perms(p, tok[i] + 5, &mm);
		else
			r = fail(p, "mmap2: unexpected '%s' (build_id=HEX or prot=PERMS may follow the path)", tok[i]);
		if (r)
			return r;
	}
	/* the kernel's names of anonymous, heap and stack mappings are not paths */
	mm.path = tok[6][0] == '[' || !strcmp(tok[6], "//anon") ? strdup(tok[6]) : resolve_absolute(p->dir, tok[6]);
	if (!mm.path)
		return -spe_nomem;
	struct spe_replay_side *dst = add_side(p, SPE_REPLAY_MMAP2);
	if (!dst) {
		free(mm.path);
		return -spe_nomem;
	}
	dst->u.mmap2 = mm;
	return 0;
}

static int dir_memory_block_size(struct parser *p, char **tok, int ntok)
{
	uint64_t v = 0;
	int r = parse_u64(p, tok[1], "memory_block_size", UINT64_MAX, &v);
	(void)ntok;
	if (r)
		return r;
	if (v < 4096 || (v & (v - 1)))
		return fail(p, "memory_block_size: %s is not a power of two of at least 4096", tok[1]);
	p->m->memory_block_size = v;
	return 0;
}

static int dir_aux(struct parser *p, char **tok, int ntok)
{
	struct spe_replay_cpu *c = current_cpu(p);
	(void)ntok;
	if (!c)
		return -spe_bad_file;
	if (c->aux_path)
		return fail(p, "cpu %u already has an aux file", c->cpu);
	c->aux_path = resolve(p->dir, tok[1]);
	return c->aux_path ? 0 : -spe_nomem;
}

static int dir_itrace_start(struct parser *p, char **tok, int ntok)
{
	struct spe_replay_cpu *c;
	uint32_t pid, tid;
	int r;
	(void)ntok;
	if ((r = parse_u32(p, tok[1], "itrace_start pid", &pid)) || (r = parse_u32(p, tok[2], "itrace_start tid", &tid)))
		return r;
	if (!(c = current_cpu(p)))
		return -spe_bad_file;
	c->has_itrace_start = 1;
	c->itrace_pid = pid;
	c->itrace_tid = tid;
	return 0;
}

/* hostname, osrelease: the traced machine's, for HOSTNAME / OSRELEASE (uname fields hold 64 bytes). */
static int dir_uname(struct parser *p, char **tok, int ntok)
{
	const char *d = tok[0];
	char **dst = d[0] == 'h' ? &p->m->hostname : &p->m->osrelease;
	(void)ntok;
	if (*dst)
		return fail(p, "%s given twice", d);
	if (strlen(tok[1]) > 64)
		return fail(p, "%s: '%s' is longer than 64 characters", d, tok[1]);
	*dst = strdup(tok[1]);
	return *dst ? 0 : -spe_nomem;
}

/* Every directive after the first line, with its argument counts (docs/replay-manifest.md). */
static const struct {
	const char *name;
	int min, max; /* arguments; -1: the handler checks */
	int (*handle)(struct parser *p, char **tok, int ntok);
} directives[] = {
	{ "midr", 1, 1, dir_midr },
	{ "cpu", 1, 1, dir_cpu },
	{ "time_conv", 3, 3, dir_time_conv },
	{ "comm", 3, 3, dir_comm },
	{ "mmap2", 6, 8, dir_mmap2 },
	{ "memory_block_size", 1, 1, dir_memory_block_size },
	{ "numa_node", -1, -1, numa_node },
	{ "aux", 1, 1, dir_aux },
	{ "itrace_start", 2, 2, dir_itrace_start },
	{ "hostname", 1, 1, dir_uname },
	{ "osrelease", 1, 1, dir_uname },
};

static int directive(struct parser *p, char **tok, int ntok)
{
	const char *d = tok[0];
	for (size_t i = 0; i < sizeof directives / sizeof directives[0]; i++) {
		if (strcmp(d, directives[i].name))
			continue;
		int r = directives[i].min < 0 ? 0 : want_args(p, d, ntok, directives[i].min, directives[i].max);
		return r ? r : directives[i].handle(p, tok, ntok);
	}
	if (!strcmp(d, "spekit-replay"))
		return fail(p, "'spekit-replay' must be the first directive");
	return fail(p, "unknown directive '%s'", d);
}

/* Split one line (modified in place) into tokens; '#' starts a comment. */
static int tokenize(char *line, char **tok)
{
	int n = 0;
	char *s = line;
	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (!*s || *s == '#')
			return n;
		if (n == MAX_TOKENS)
			return n + 1;
		tok[n++] = s;
		while (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '#')
			s++;
		if (*s == '#') {
			*s = 0;
			return n;
		}
		if (*s)
			*s++ = 0;
	}
}

int spe_replay_manifest_parse_text(const char *text, size_t len, const char *dir, const char *name,
				   struct spe_replay_manifest **out, char *err, size_t errsize)
{
	struct parser p = { .name = name ? name : "manifest", .dir = dir, .err = err, .errsize = errsize };
	char *buf = NULL;
	int r = 0, seen_version = 0;

	if (!text || !out)
		return -spe_invalid;
	*out = NULL;
	if (err && errsize)
		err[0] = 0;
	if (memchr(text, 0, len)) {
		p.line = 1;
		return fail(&p, "contains a NUL byte: not a text manifest");
	}
	p.m = calloc(1, sizeof *p.m);
	buf = malloc(len + 1);
	if (!p.m || !buf) {
		r = -spe_nomem;
		goto out;
	}
	memcpy(buf, text, len);
	buf[len] = 0;

	for (char *line = buf; line && !r;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		p.line++;
		char *tok[MAX_TOKENS];
		int ntok = tokenize(line, tok);
		if (ntok > MAX_TOKENS) {
			r = fail(&p, "too many words on one line");
		} else if (ntok > 0 && !seen_version) {
			if (strcmp(tok[0], "spekit-replay"))
				r = fail(&p, "expected 'spekit-replay 1' as the first directive, got '%s'", tok[0]);
			else if (ntok != 2 || strcmp(tok[1], "1"))
				r = fail(&p, "unsupported manifest version '%s' (this spe-record reads version 1)",
					 ntok > 1 ? tok[1] : "");
			seen_version = 1;
		} else if (ntok > 0) {
			r = directive(&p, tok, ntok);
		}
		line = nl ? nl + 1 : NULL;
	}
	p.line = 0; /* problems of the whole file have no line */
	if (!r && !seen_version)
		r = fail(&p, "empty manifest: expected 'spekit-replay 1'");
	if (!r) {
		size_t with_aux = 0;
		for (size_t i = 0; i < p.m->n_cpus; i++)
			with_aux += p.m->cpus[i].aux_path != NULL;
		if (!with_aux)
			r = fail(&p, "no 'aux FILE' line: nothing to replay");
	}
out:
	free(buf);
	if (r) {
		if (r == -spe_nomem && err && errsize)
			snprintf(err, errsize, "%s: out of memory", p.name);
		spe_replay_manifest_free(p.m);
		return r;
	}
	if (!p.m->has_time_conv)
		p.m->time_mult = 1;
	*out = p.m;
	return 0;
}

int spe_replay_manifest_parse(const char *path, struct spe_replay_manifest **out, char *err, size_t errsize)
{
	if (!path || !out)
		return -spe_invalid;
	char ignored[8];
	int code = -spe_io;
	FILE *f = spe_infile_fopen(path, &code, err && errsize ? err : ignored, err && errsize ? errsize : sizeof ignored);
	if (!f)
		return code == -spe_nomem ? code : -spe_io;
	char *text = malloc(MANIFEST_MAX_BYTES + 1);
	size_t n = text ? fread(text, 1, MANIFEST_MAX_BYTES + 1, f) : 0;
	int rerr = ferror(f);
	fclose(f);
	if (!text)
		return -spe_nomem;
	if (rerr) {
		free(text);
		if (err && errsize)
			snprintf(err, errsize, "%s: read error", path);
		return -spe_io;
	}
	if (n > MANIFEST_MAX_BYTES) {
		free(text);
		if (err && errsize)
			snprintf(err, errsize, "%s: larger than %u bytes: not a manifest", path, MANIFEST_MAX_BYTES);
		return -spe_bad_file;
	}
	char *dir = strdup(path);
	if (!dir) {
		free(text);
		return -spe_nomem;
	}
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	else
		strcpy(dir, ".");
	int r = spe_replay_manifest_parse_text(text, n, slash == dir ? "/" : dir, path, out, err, errsize);
	free(dir);
	free(text);
	return r;
}

int spe_replay_manifest_for_raw(const char *raw_path, uint32_t cpu, uint64_t midr, struct spe_replay_manifest **out)
{
	if (!raw_path || !out)
		return -spe_invalid;
	struct spe_replay_manifest *m = calloc(1, sizeof *m);
	if (!m)
		return -spe_nomem;
	m->cpus = calloc(1, sizeof *m->cpus);
	if (!m->cpus || !(m->cpus[0].aux_path = strdup(raw_path))) {
		spe_replay_manifest_free(m);
		return -spe_nomem;
	}
	m->n_cpus = 1;
	m->cpus[0].cpu = cpu;
	m->cpus[0].midr = midr;
	m->time_mult = 1;
	*out = m;
	return 0;
}

int spe_replay_is_manifest(const char *path)
{
	static const char magic[] = "spekit-replay";
	char buf[256], ignored[256];
	FILE *f = spe_infile_fopen(path, NULL, ignored, sizeof ignored);
	if (!f)
		return -spe_io;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	/* Skip blank and comment lines before the version line. */
	const char *s = buf;
	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
			s++;
		if (*s != '#')
			break;
		while (*s && *s != '\n')
			s++;
	}
	return strncmp(s, magic, sizeof magic - 1) == 0;
}

void spe_replay_manifest_free(struct spe_replay_manifest *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n_cpus; i++)
		free(m->cpus[i].aux_path);
	for (size_t i = 0; i < m->n_side; i++)
		if (m->side[i].kind == SPE_REPLAY_MMAP2)
			free(m->side[i].u.mmap2.path);
	free(m->cpus);
	free(m->side);
	free(m->hostname);
	free(m->osrelease);
	for (size_t i = 0; i < m->n_numa_nodes; i++) {
		free((char *)m->numa_nodes[i].cpus);
		free((uint64_t *)m->numa_nodes[i].blocks);
	}
	free(m->numa_nodes);
	free(m);
}
