/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe-fixture: compiles a text fixture (.spt, docs/fixture-format.md) into
 * SPE bytes with libspe's own encoder, runs the dumper and the record
 * decoder over them, and compares with the fixture's .exp(...) blocks.
 *
 *   spe-fixture run FILE.spt          compare; exit 0 = all blocks match, 1 = mismatch, 65 = bad fixture
 *   spe-fixture compile FILE.spt OUT  write the bytes
 *   spe-fixture show FILE.spt [dump|records] [key=value...]   print what the tools produce
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "spe/spe.h"

/* ---- a growable string ---- */

struct str {
	char *s;
	size_t len, cap;
};

static void str_add(struct str *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 1024;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *ns = realloc(b->s, cap);
		if (!ns) {
			fprintf(stderr, "spe-fixture: out of memory\n");
			exit(EX_OSERR);
		}
		b->s = ns;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void str_printf(struct str *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void str_printf(struct str *b, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	str_add(b, tmp, n < 0 ? 0 : (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* ---- fixture parsing ---- */

struct expect {
	char kind[16];       /* "dump" or "records" */
	char params[256];    /* key=value list from the parentheses */
	struct str text;     /* expected output */
	int line;
};

struct fixture {
	const char *path;
	struct spe_enc enc;
	uint32_t midr;
	uint64_t base;
	struct expect exp[16];
	int n_exp;
};

static int fixture_error(const struct fixture *f, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fixture_error(const struct fixture *f, int line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s:%d: ", f->path, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;
	if (!s || !*s)
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

/* "key=value" among the words; returns the value or NULL. */
static const char *word_value(char **words, int n, const char *key)
{
	size_t k = strlen(key);
	for (int i = 0; i < n; i++)
		if (!strncmp(words[i], key, k) && words[i][k] == '=')
			return words[i] + k + 1;
	return NULL;
}

static int has_word(char **words, int n, const char *w)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(words[i], w))
			return 1;
	return 0;
}

static int named_index(const char *s, const char *const *names, int n_names, unsigned *index)
{
	uint64_t v;
	for (int i = 0; i < n_names; i++)
		if (names[i] && !strcmp(s, names[i])) {
			*index = (unsigned)i;
			return 0;
		}
	if (parse_u64(s, &v) || v > 31)
		return -1;
	*index = (unsigned)v;
	return 0;
}

static const char *const counter_names[] = {
#define SPE_X(idx, id, word, col, desc) [idx] = col,
	SPE_COUNTER_LIST(SPE_X)
#undef SPE_X
};
static const char *const address_names[] = {
#define SPE_X(idx, id, word, col, desc) [idx] = col,
	SPE_ADDRESS_LIST(SPE_X)
#undef SPE_X
};
static const char *const context_names[] = {
#define SPE_X(idx, id, word, desc) [idx] = word,
	SPE_CONTEXT_LIST(SPE_X)
#undef SPE_X
};
#define N_NAMES(a) ((int)(sizeof a / sizeof a[0]))

/* Short packet names the fixture format accepts besides the facts-table columns. */
static int short_address(const char *w, unsigned *index)
{
	static const struct { const char *name; unsigned index; } alias[] = {
		{ "pc", SPE_ADDR_PC }, { "tgt", SPE_ADDR_BRANCH_TARGET }, { "va", SPE_ADDR_DATA_VA },
		{ "pa", SPE_ADDR_DATA_PA }, { "pbt", SPE_ADDR_PREV_BRANCH_TARGET },
	};
	for (size_t i = 0; i < sizeof alias / sizeof alias[0]; i++)
		if (!strcmp(w, alias[i].name)) {
			*index = alias[i].index;
			return 0;
		}
	return -1;
}

static int short_counter(const char *w, unsigned *index)
{
	static const struct { const char *name; unsigned index; } alias[] = {
		{ "total", SPE_CNT_TOTAL }, { "issue", SPE_CNT_ISSUE }, { "xlat", SPE_CNT_TRANSLATION },
	};
	for (size_t i = 0; i < sizeof alias / sizeof alias[0]; i++)
		if (!strcmp(w, alias[i].name)) {
			*index = alias[i].index;
			return 0;
		}
	return named_index(w, counter_names, N_NAMES(counter_names), index);
}

static int event_bit(const char *w, unsigned *bit)
{
	uint64_t v;
	for (unsigned b = 0; b < 64; b++) {
		const char *c = spe_event_column(b);
		if (c && !strcmp(c, w)) {
			*bit = b;
			return 0;
		}
	}
	if (!strncmp(w, "bit", 3) && !parse_u64(w + 3, &v) && v < 64) {
		*bit = (unsigned)v;
		return 0;
	}
	return -1;
}

static int parse_uint_word(char **words, int n, const char *key, uint64_t def, uint64_t max, uint64_t *out)
{
	const char *v = word_value(words, n, key);
	*out = def;
	if (!v)
		return 0;
	if (parse_u64(v, out) || *out > max)
		return -1;
	return 0;
}

/* One packet line: words[0] is the packet name. */
static int compile_packet(struct fixture *f, int line, char **w, int n)
{
	struct spe_enc *e = &f->enc;
	unsigned index;
	uint64_t v, a, b, c, d;
	int ext = has_word(w, n, "ext");
	int ret = 0;

	if (!strcmp(w[0], "pad")) {
		v = 1;
		if (n > 1 && (parse_u64(w[1], &v) || v > 4096))
			return fixture_error(f, line, "pad: bad count '%s'", w[1]);
		ret = spe_enc_pad(e, (size_t)v);
	} else if (!strcmp(w[0], "end")) {
		ret = spe_enc_end(e);
	} else if (!strcmp(w[0], "ts")) {
		if (n < 2 || parse_u64(w[1], &v))
			return fixture_error(f, line, "ts: needs a value");
		ret = spe_enc_timestamp(e, v);
	} else if (!strcmp(w[0], "align")) {
		if (n < 2 || parse_u64(w[1], &v) || v > 3)
			return fixture_error(f, line, "align: needs n = 0..3 (alignment 2 << n)");
		ret = spe_enc_align_pad(e, (unsigned)v);
	} else if (!strcmp(w[0], "raw")) {
		for (int i = 1; i < n; i++) {
			uint8_t byte;
			char *end;
			unsigned long x = strtoul(w[i], &end, 16);
			if (*end || x > 0xFF)
				return fixture_error(f, line, "raw: '%s' is not a hex byte", w[i]);
			byte = (uint8_t)x;
			ret = spe_enc_raw(e, &byte, 1);
		}
	} else if (!short_address(w[0], &index) || !strcmp(w[0], "addr")) {
		int k = 1;
		if (!strcmp(w[0], "addr")) {
			if (n < 3 || named_index(w[1], address_names, N_NAMES(address_names), &index))
				return fixture_error(f, line, "addr: needs an index and a raw payload");
			k = 2;
		}
		if (n <= k || parse_u64(w[k], &v))
			return fixture_error(f, line, "%s: needs an address", w[0]);
		if (strcmp(w[0], "addr") && index != SPE_ADDR_DATA_VA && index != SPE_ADDR_DATA_PA) {
			if (parse_uint_word(w, n, "el", 0, 3, &a) || parse_uint_word(w, n, "ns", 1, 1, &b) ||
			    parse_uint_word(w, n, "nse", 0, 1, &c))
				return fixture_error(f, line, "%s: bad el/ns/nse", w[0]);
			v = spe_enc_ip_payload(v, (unsigned)a, (unsigned)b, (unsigned)c);
		} else if (index == SPE_ADDR_DATA_VA && strcmp(w[0], "addr")) {
			if (parse_uint_word(w, n, "tag", v >> 56, 0xFF, &a))
				return fixture_error(f, line, "va: bad tag");
			v = spe_enc_va_payload(v, (uint8_t)a);
		} else if (index == SPE_ADDR_DATA_PA && strcmp(w[0], "addr")) {
			if (parse_uint_word(w, n, "ns", 1, 1, &a) || parse_uint_word(w, n, "ch", 0, 1, &b) ||
			    parse_uint_word(w, n, "pat", 0, 15, &d))
				return fixture_error(f, line, "pa: bad ns/ch/pat");
			v = spe_enc_pa_payload(v, (unsigned)a, (unsigned)b, (unsigned)d);
		}
		ret = spe_enc_address(e, index, v, ext);
	} else if (!strcmp(w[0], "lat")) {
		if (n < 3 || short_counter(w[1], &index) || parse_u64(w[2], &v) || v > 0xFFFF)
			return fixture_error(f, line, "lat: needs an index (total/issue/xlat/n) and a 16-bit value");
		ret = spe_enc_counter(e, index, (uint16_t)v, ext);
	} else if (!strcmp(w[0], "ctx")) {
		if (n < 3 || named_index(w[1], context_names, N_NAMES(context_names), &index) || index > 3 ||
		    parse_u64(w[2], &v) || v > 0xFFFFFFFFu)
			return fixture_error(f, line, "ctx: needs el1/el2/0-3 and a 32-bit value");
		ret = spe_enc_context(e, index, (uint32_t)v);
	} else if (!strcmp(w[0], "op")) {
		static const char *const classes[] = { "other", "ldst", "branch", "class3" };
		if (n < 3 || named_index(w[1], classes, 4, &index) || index > 3 || parse_u64(w[2], &v) || v > 0xFF)
			return fixture_error(f, line, "op: needs other/ldst/branch/class3 and a payload byte");
		ret = spe_enc_op_type(e, index, (uint8_t)v);
	} else if (!strcmp(w[0], "ev")) {
		uint64_t ev = 0, size;
		for (int i = 1; i < n; i++) {
			unsigned bit;
			if (strchr(w[i], '='))
				continue;
			if (!event_bit(w[i], &bit))
				ev |= UINT64_C(1) << bit;
			else if (!parse_u64(w[i], &v))
				ev |= v;
			else
				return fixture_error(f, line, "ev: '%s' is not an event column, bitN or number", w[i]);
		}
		if (parse_uint_word(w, n, "size", 0, 8, &size))
			return fixture_error(f, line, "ev: bad size");
		ret = spe_enc_events(e, ev, (unsigned)size);
	} else if (!strcmp(w[0], "ds")) {
		uint64_t size;
		if (n < 2 || parse_u64(w[1], &v) || parse_uint_word(w, n, "size", 0, 8, &size))
			return fixture_error(f, line, "ds: needs a value [size=1|2|4|8]");
		ret = spe_enc_data_source(e, v, (unsigned)size);
	} else {
		return fixture_error(f, line, "unknown packet '%s'", w[0]);
	}
	if (ret < 0)
		return fixture_error(f, line, "cannot encode: %s", spe_errstr(ret));
	return 0;
}

static int split_words(char *s, char **w, int max)
{
	int n = 0;
	for (char *tok = strtok(s, " \t"); tok && n < max; tok = strtok(NULL, " \t"))
		w[n++] = tok;
	return n;
}

static int parse_fixture(struct fixture *f, char *text)
{
	struct expect *cur = NULL;
	int line = 0;
	spe_enc_init(&f->enc, NULL, 0);
	for (char *s = text, *next; s && *s; s = next) {
		char *nl = strchr(s, '\n');
		next = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		line++;
		if (!strncmp(s, ".exp(", 5)) {
			char *close = strchr(s, ')');
			if (!close || f->n_exp == (int)(sizeof f->exp / sizeof f->exp[0]))
				return fixture_error(f, line, "bad .exp line");
			*close = '\0';
			cur = &f->exp[f->n_exp++];
			cur->line = line;
			char *sp = strchr(s + 5, ' ');
			if (sp)
				*sp = '\0';
			snprintf(cur->kind, sizeof cur->kind, "%s", s + 5);
			snprintf(cur->params, sizeof cur->params, "%s", sp ? sp + 1 : "");
			if (strcmp(cur->kind, "dump") && strcmp(cur->kind, "records"))
				return fixture_error(f, line, "unknown block .exp(%s)", cur->kind);
			str_add(&cur->text, "", 0);
			continue;
		}
		if (!strcmp(s, ".end")) {
			cur = NULL;
			continue;
		}
		if (cur) {
			str_add(&cur->text, s, strlen(s));
			str_add(&cur->text, "\n", 1);
			continue;
		}
		char *hash = strchr(s, '#');
		if (hash)
			*hash = '\0';
		char *w[64];
		int n = split_words(s, w, 64);
		if (!n)
			continue;
		if (!strcmp(w[0], "opt")) {
			uint64_t v;
			if (n != 3 || parse_u64(w[2], &v))
				return fixture_error(f, line, "opt: needs a name and a number");
			if (!strcmp(w[1], "midr"))
				f->midr = (uint32_t)v;
			else if (!strcmp(w[1], "base"))
				f->enc.base = f->base = v;
			else
				return fixture_error(f, line, "unknown option '%s'", w[1]);
			continue;
		}
		for (int i = 0; i < n; i++)
			for (char *c = w[i]; *c; c++)
				*c = (char)tolower((unsigned char)*c);
		if (compile_packet(f, line, w, n))
			return -1;
	}
	return 0;
}

/* ---- running the tools ---- */

static int dump_write(void *ctx, const char *text, size_t len)
{
	str_add(ctx, text, len);
	return 0;
}

static int param_u64(const char *params, const char *key, uint64_t def, uint64_t *out)
{
	char buf[256], *w[16];
	snprintf(buf, sizeof buf, "%s", params);
	int n = split_words(buf, w, 16);
	const char *v = word_value(w, n, key);
	*out = def;
	return v && parse_u64(v, out) ? -1 : 0;
}

static const char *param_str(const char *params, const char *key, char *out, size_t size)
{
	char buf[256], *w[16];
	snprintf(buf, sizeof buf, "%s", params);
	int n = split_words(buf, w, 16);
	const char *v = word_value(w, n, key);
	if (!v)
		return NULL;
	snprintf(out, size, "%s", v);
	return out;
}

static int run_dump(const struct fixture *f, const char *params, struct str *out)
{
	char dialect[32];
	uint64_t midr;
	struct spe_dump_config cfg = SPE_OPTS(spe_dump_config, .write = dump_write, .ctx = out,
					      .offset = f->base, .align_offset = f->base);
	if (param_str(params, "dialect", dialect, sizeof dialect)) {
		if (!strcmp(dialect, "perf-6.1"))
			cfg.dialect = SPE_DIALECT_PERF_6_1;
		else if (strcmp(dialect, "newest"))
			return -1;
	}
	uint64_t pad8, from0, align;
	if (param_u64(params, "midr", f->midr, &midr) || param_u64(params, "pad8", 0, &pad8) ||
	    param_u64(params, "from0", 0, &from0) || param_u64(params, "align", f->base, &align))
		return -1;
	cfg.midr = (uint32_t)midr;
	cfg.align_offset = align; /* stream/file offset of the first byte, for alignment pads */
	if (from0) /* offsets printed from 0, as perf prints each AUXTRACE buffer */
		cfg.offset = 0;
	if (pad8) {
		/* the zero padding perf.data adds to AUXTRACE data (to a multiple of 8) */
		uint8_t padded[1 << 16] = { 0 };
		size_t n = (f->enc.len + 7) & ~(size_t)7;
		if (n > sizeof padded)
			return -1;
		memcpy(padded, f->enc.buf, f->enc.len);
		return spe_dump_buffer(&cfg, padded, n, NULL);
	}
	return spe_dump_buffer(&cfg, f->enc.buf, f->enc.len, NULL);
}

static void put_ip(struct str *o, const char *name, const struct spe_ip *ip)
{
	str_printf(o, " %s=0x%" PRIx64 "/el%u/ns%u%s", name, ip->addr, ip->el, ip->ns, ip->nse ? "/nse1" : "");
}

static void format_record(struct str *o, const struct spe_record *r)
{
	char op[128];
	str_printf(o, "record off=0x%" PRIx64, r->offset);
	if (r->has & SPE_HAS_PARTIAL)
		str_printf(o, " partial");
	if (r->has & SPE_HAS_PC)
		put_ip(o, "pc", &r->pc);
	if (r->has & SPE_HAS_BRANCH_TARGET)
		put_ip(o, "tgt", &r->branch_target);
	if (r->has & SPE_HAS_PREV_BRANCH_TARGET)
		put_ip(o, "pbt", &r->prev_branch_target);
	if (r->has & SPE_HAS_CONTEXT)
		str_printf(o, " ctx=%u:0x%" PRIx32, r->context_index, r->context);
	if (r->has & SPE_HAS_OP_TYPE) {
		spe_record_op_text(r, op, sizeof op);
		str_printf(o, " op=%u/0x%02x class=%s text=\"%s\"", r->op_raw_class, r->op_raw,
			   spe_op_class_name(r->op_class), op);
		if (r->op_flags) {
			const char *sep = " flags=";
			for (unsigned b = 0; b < SPE_OPF_BIT_COUNT; b++)
				if (r->op_flags & (1u << b)) {
					str_printf(o, "%s%s", sep, spe_op_flag_word(b));
					sep = ",";
				}
		}
		if (r->sve_evl)
			str_printf(o, " evl=%u", r->sve_evl);
	}
	if (r->has & SPE_HAS_EVENTS) {
		const char *sep = " ev=";
		if (!r->events)
			str_printf(o, " ev=none");
		for (unsigned b = 0; b < 64; b++)
			if (r->events >> b & 1) {
				const char *c = spe_event_column(b);
				if (c)
					str_printf(o, "%s%s", sep, c);
				else
					str_printf(o, "%sbit%u", sep, b);
				sep = ",";
			}
	}
	if (r->has & SPE_HAS_TOTAL_LATENCY)
		str_printf(o, " tot=%u", r->total_latency);
	if (r->has & SPE_HAS_ISSUE_LATENCY)
		str_printf(o, " issue=%u", r->issue_latency);
	if (r->has & SPE_HAS_TRANSLATION_LATENCY)
		str_printf(o, " xlat=%u", r->translation_latency);
	if (r->has & SPE_HAS_DATA_VA)
		str_printf(o, " va=0x%" PRIx64 " tag=0x%02x", r->data_va, r->data_va_tag);
	if (r->has & SPE_HAS_DATA_PA)
		str_printf(o, " pa=0x%" PRIx64 "/ns%u/ch%u/pat%u", r->data_pa, r->data_pa_ns, r->data_pa_ch,
			   r->data_pa_pat);
	if (r->has & SPE_HAS_DATA_SOURCE)
		str_printf(o, " ds=%" PRIu64, r->data_source);
	for (unsigned i = 0; i < r->n_extra_counters; i++)
		str_printf(o, " lat%u=%u", r->extra_counters[i].index, r->extra_counters[i].value);
	for (unsigned i = 0; i < r->n_extra_addresses; i++)
		str_printf(o, " addr%u=0x%" PRIx64, r->extra_addresses[i].index, r->extra_addresses[i].value);
	if (r->n_unknown_packets)
		str_printf(o, " unknown=%u", r->n_unknown_packets);
	if (r->has & SPE_HAS_TIMESTAMP)
		str_printf(o, " ts=%" PRIu64, r->timestamp);
	if (r->has & SPE_HAS_END)
		str_printf(o, " end");
	str_printf(o, "\n");
}

static void on_error(void *ctx, uint64_t offset, int err, const char *reason)
{
	(void)err;
	str_printf(ctx, "error off=0x%" PRIx64 ": %s\n", offset, reason);
}

static int run_records(const struct fixture *f, const char *params, struct str *out)
{
	uint64_t midr, chunk, join, partial;
	if (param_u64(params, "midr", f->midr, &midr) || param_u64(params, "chunk", 0, &chunk) ||
	    param_u64(params, "join", 0, &join) || param_u64(params, "emit_partial", 0, &partial))
		return -1;
	struct spe_rec_config cfg = SPE_OPTS(spe_rec_config, .midr = (uint32_t)midr, .on_error = on_error,
					     .ctx = out, .emit_partial = (int)partial);
	struct spe_rec_decoder *dec = spe_rec_alloc_decoder(&cfg);
	struct spe_record rec;
	struct spe_rec_stats st;
	size_t step = chunk ? (size_t)chunk : f->enc.len ? f->enc.len : 1;
	if (!dec)
		return -1;
	for (size_t pos = 0; pos < f->enc.len || (pos == 0 && !f->enc.len); pos += step) {
		size_t n = f->enc.len - pos < step ? f->enc.len - pos : step;
		if (spe_rec_feed(dec, f->enc.buf + pos, n, f->base + pos, pos ? (int)join : 0) < 0)
			return -1;
		while (spe_rec_next(dec, &rec, sizeof rec) == 0)
			format_record(out, &rec);
		if (!f->enc.len)
			break;
	}
	spe_rec_flush(dec);
	while (spe_rec_next(dec, &rec, sizeof rec) == 0)
		format_record(out, &rec);
	spe_rec_get_stats(dec, &st, sizeof st);
	str_printf(out, "stats records=%" PRIu64 " bad=%" PRIu64 " skipped=%" PRIu64 " partial=%" PRIu64
			" unknown=%" PRIu64,
		   st.records, st.bad_bytes, st.skipped_bytes, st.partial_records, st.unknown_packets);
	if (st.dropped_extras)
		str_printf(out, " dropped_extras=%" PRIu64, st.dropped_extras);
	str_printf(out, "\n");
	spe_rec_free_decoder(dec);
	return 0;
}

static int run_tool(const struct fixture *f, const char *kind, const char *params, struct str *out)
{
	if (!strcmp(kind, "dump"))
		return run_dump(f, params, out);
	return run_records(f, params, out);
}

/* Print the first differing line of two texts. */
static void show_diff(const char *exp, const char *got)
{
	int line = 1;
	while (*exp || *got) {
		const char *e_end = strchr(exp, '\n'), *g_end = strchr(got, '\n');
		size_t el = e_end ? (size_t)(e_end - exp) : strlen(exp);
		size_t gl = g_end ? (size_t)(g_end - got) : strlen(got);
		if (el != gl || memcmp(exp, got, el)) {
			fprintf(stderr, "  first difference at line %d of the block:\n  -%.*s|\n  +%.*s|\n", line,
				(int)el, exp, (int)gl, got);
			return;
		}
		exp += el + (e_end ? 1 : 0);
		got += gl + (g_end ? 1 : 0);
		line++;
	}
}

static char *read_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	struct str s = { 0 };
	char buf[4096];
	size_t n;
	if (!fp)
		return NULL;
	while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
		str_add(&s, buf, n);
	fclose(fp);
	if (!s.s)
		str_add(&s, "", 0);
	return s.s;
}

static void fixture_free(struct fixture *f)
{
	for (int i = 0; i < f->n_exp; i++)
		free(f->exp[i].text.s);
	spe_enc_fini(&f->enc);
}

static int load(struct fixture *f, const char *path)
{
	memset(f, 0, sizeof *f);
	f->path = path;
	char *text = read_file(path);
	if (!text) {
		fprintf(stderr, "spe-fixture: %s: %s\n", path, strerror(errno));
		return EX_NOINPUT;
	}
	int err = parse_fixture(f, text);
	free(text);
	if (err)
		fixture_free(f);
	return err ? EX_DATAERR : 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: spe-fixture run FILE.spt\n"
			"       spe-fixture compile FILE.spt OUT.bin\n"
			"       spe-fixture show FILE.spt dump|records [key=value...]\n");
}

int main(int argc, char **argv)
{
	struct fixture f;
	int status;
	if (argc < 3) {
		usage();
		return EX_USAGE;
	}
	if ((status = load(&f, argv[2])))
		return status;
	if (!strcmp(argv[1], "compile") && argc == 4) {
		FILE *fp = fopen(argv[3], "wb");
		int bad = !fp || (f.enc.len && fwrite(f.enc.buf, 1, f.enc.len, fp) != f.enc.len);
		if ((fp && fclose(fp)) || bad) {
			fprintf(stderr, "spe-fixture: %s: %s\n", argv[3], strerror(errno));
			fixture_free(&f);
			return EX_IOERR;
		}
		fixture_free(&f);
		return 0;
	}
	if (!strcmp(argv[1], "show") && argc >= 4) {
		struct str out = { 0 }, params = { 0 };
		str_add(&params, "", 0);
		for (int i = 4; i < argc; i++)
			str_printf(&params, "%s ", argv[i]);
		status = 0;
		if ((strcmp(argv[3], "dump") && strcmp(argv[3], "records")) || run_tool(&f, argv[3], params.s, &out) < 0)
			status = EX_USAGE;
		else
			fputs(out.s ? out.s : "", stdout);
		free(out.s);
		free(params.s);
		fixture_free(&f);
		return status;
	}
	if (strcmp(argv[1], "run")) {
		usage();
		fixture_free(&f);
		return EX_USAGE;
	}
	if (!f.n_exp) {
		fprintf(stderr, "%s: no .exp(...) block: nothing to check\n", f.path);
		fixture_free(&f);
		return EX_DATAERR;
	}
	status = 0;
	for (int i = 0; i < f.n_exp; i++) {
		struct str out = { 0 };
		str_add(&out, "", 0);
		if (run_tool(&f, f.exp[i].kind, f.exp[i].params, &out) < 0) {
			fprintf(stderr, "%s:%d: bad parameters '%s'\n", f.path, f.exp[i].line, f.exp[i].params);
			free(out.s);
			fixture_free(&f);
			return EX_DATAERR;
		}
		if (strcmp(out.s, f.exp[i].text.s)) {
			fprintf(stderr, "%s:%d: .exp(%s%s%s) differs\n", f.path, f.exp[i].line, f.exp[i].kind,
				*f.exp[i].params ? " " : "", f.exp[i].params);
			show_diff(f.exp[i].text.s, out.s);
			fprintf(stderr, "  actual output:\n%s", out.s);
			status = 1;
		} else {
			printf("ok %s .exp(%s%s%s)\n", f.path, f.exp[i].kind, *f.exp[i].params ? " " : "",
			       f.exp[i].params);
		}
		free(out.s);
	}
	fixture_free(&f);
	return status;
}
