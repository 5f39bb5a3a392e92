/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The public raw samples in fixtures/public/ decode to what their publishers
 * expect.  The expectations are read from the publishers' own files, copied
 * next to the samples (*.expected.txt: packet texts; *.expected.csv:
 * spe-parser's record rows; fixtures/public/PROVENANCE.md): the dump must
 * print the same packet texts, and each record must hold the values those
 * texts and rows give, canonicalised as docs/spe-format.md §1.4 says.
 */
#include <inttypes.h>

#include "check.h"
#include "test_util.h"

static const char *dir;

#define MAX_TEXTS 64
#define TOP_BYTE UINT64_C(0xFF00000000000000)
#define ADDR_MASK UINT64_C(0x00FFFFFFFFFFFFFF)

static uint8_t *load(const char *name, size_t *len)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	uint8_t *buf = test_read_file(path, len);
	if (!buf)
		CHECK_FAIL_("cannot read %s", path);
	else
		buf[*len] = '\0'; /* test_read_file leaves room: text files become strings */
	return buf;
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

/*
 * The packet texts of an *.expected.txt, in order, PAD left out (the files
 * differ in whether they list it).  Texts are one per line or joined by
 * " | "; "record N:" starts a record's list.  With @p section, only the
 * lines after the comment line that names it, up to the next comment.
 */
static int expected_texts(char *file, const char *section, char **texts)
{
	int n = 0, in = section == NULL;
	for (char *line = strtok(file, "\n"); line; line = strtok(NULL, "\n")) {
		if (line[0] == '#') {
			in = section ? strstr(line, section) != NULL : 1;
			continue;
		}
		if (!in)
			continue;
		if (!strncmp(line, "record ", 7) && strchr(line, ':'))
			line = strchr(line, ':') + 1;
		for (char *t = line, *bar; t; t = bar) {
			bar = strchr(t, '|');
			if (bar)
				*bar++ = '\0';
			t = trim(t);
			if (*t && strcmp(t, "PAD") && n < MAX_TEXTS)
				texts[n++] = t;
		}
	}
	return n;
}

/* The descriptions of the dump lines (PAD left out) equal @p texts. */
static void check_dump_texts(const uint8_t *buf, size_t len, enum spe_dialect d, char **texts, int n)
{
	static struct test_text t;
	int i = 0;
	test_dump(buf, len, d, 0, &t);
	for (char *line = strtok(t.buf, "\n"); line; line = strtok(NULL, "\n")) {
		const char *desc = line + 62; /* perf's description column */
		if (!strcmp(desc, "PAD"))
			continue;
		if (i >= n) {
			CHECK_FAIL_("dump line %d '%s': the expected decode has only %d texts", i, desc, n);
			return;
		}
		CHECK_STR_EQ(desc, texts[i]);
		i++;
	}
	CHECK_INT_EQ(i, n);
}

/* PC/TGT canonical address: NS=1 at EL1/EL2 fills the top byte (docs/spe-format.md §1.4). */
static uint64_t canonical_ip(uint64_t addr, unsigned el, unsigned ns)
{
	return ns && (el == 1 || el == 2) ? addr | TOP_BYTE : addr;
}

/* The events of an "EV A B C" text: each word looked up among the facts table's dump words. */
static uint64_t events_of(const char *words)
{
	uint64_t ev = 0;
	char copy[256], *save;
	snprintf(copy, sizeof copy, "%s", words);
	for (char *w = strtok_r(copy, " :", &save); w; w = strtok_r(NULL, " :", &save)) {
		unsigned b = 0;
		while (b < 64 && !(spe_event_dump_word(b) && !strcmp(spe_event_dump_word(b), w)))
			b++;
		if (b == 64)
			CHECK_FAIL_("event word '%s' is not in the facts table", w);
		else
			ev |= UINT64_C(1) << b;
	}
	return ev;
}

/* Record @p r holds what packet text @p t says. */
static void check_text_in_record(const char *t, const struct spe_record *r)
{
	uint64_t a;
	unsigned el, ns, ch, pat, v;
	uint32_t ctx;
	char word[32], op[128];
	if (sscanf(t, "PC 0x%" SCNx64 " el%u ns=%u", &a, &el, &ns) == 3) {
		CHECK(r->has & SPE_HAS_PC);
		CHECK_U64_EQ(r->pc.addr, canonical_ip(a, el, ns));
		CHECK_INT_EQ(r->pc.el, el);
		CHECK_INT_EQ(r->pc.ns, ns);
	} else if (sscanf(t, "TGT 0x%" SCNx64 " el%u ns=%u", &a, &el, &ns) == 3) {
		CHECK(r->has & SPE_HAS_BRANCH_TARGET);
		CHECK_U64_EQ(r->branch_target.addr, canonical_ip(a, el, ns));
		CHECK_INT_EQ(r->branch_target.el, el);
	} else if (sscanf(t, "CONTEXT 0x%" SCNx32 " el%u", &ctx, &el) == 2) {
		CHECK(r->has & SPE_HAS_CONTEXT);
		CHECK_U64_EQ(r->context, ctx);
		CHECK_INT_EQ(r->context_index + 1u, el); /* perf prints index + 1 */
	} else if (sscanf(t, "LAT %u %31s", &v, word) == 2) {
		if (!strcmp(word, "TOT"))
			CHECK_INT_EQ(r->total_latency, v);
		else if (!strcmp(word, "ISSUE"))
			CHECK_INT_EQ(r->issue_latency, v);
		else if (!strcmp(word, "XLAT"))
			CHECK_INT_EQ(r->translation_latency, v);
		else
			CHECK_FAIL_("unexpected counter text '%s'", t);
	} else if (sscanf(t, "VA 0x%" SCNx64, &a) == 1) {
		/* the text is the whole payload; the record drops the tag and fills bits 63:56 if 55:52 are ones */
		uint64_t va = a & ADDR_MASK;
		CHECK(r->has & SPE_HAS_DATA_VA);
		CHECK_U64_EQ(r->data_va, ((va >> 52) & 0xF) == 0xF ? va | TOP_BYTE : va);
		CHECK_INT_EQ(r->data_va_tag, (unsigned)(a >> 56));
	} else if (sscanf(t, "PA 0x%" SCNx64 " ns=%u ch=%u pat=%x", &a, &ns, &ch, &pat) == 4) {
		CHECK(r->has & SPE_HAS_DATA_PA);
		CHECK_U64_EQ(r->data_pa, a);
		CHECK_INT_EQ(r->data_pa_ns, ns);
		CHECK_INT_EQ(r->data_pa_ch, ch);
		CHECK_INT_EQ(r->data_pa_pat, pat);
	} else if (sscanf(t, "DATA-SOURCE %" SCNu64, &a) == 1) {
		CHECK(r->has & SPE_HAS_DATA_SOURCE);
		CHECK_U64_EQ(r->data_source, a);
	} else if (sscanf(t, "TS %" SCNu64, &a) == 1) {
		CHECK(r->has & SPE_HAS_TIMESTAMP);
		CHECK_U64_EQ(r->timestamp, a);
	} else if (!strcmp(t, "END")) {
		CHECK(r->has & SPE_HAS_END);
	} else if (!strncmp(t, "EV", 2) && (t[2] == ' ' || !t[2])) {
		CHECK(r->has & SPE_HAS_EVENTS);
		CHECK_U64_EQ(r->events, events_of(t + 2));
	} else {
		/* an op text: "LD GP-REG", "B COND" (the same in perf 6.1 and the newest perf for these) */
		CHECK(r->has & SPE_HAS_OP_TYPE);
		spe_record_op_text(r, op, sizeof op);
		CHECK_STR_EQ(op, t);
	}
}

/* All records of @p buf, the one the data cuts included (emit_partial); returns how many (max @p max). */
static int decode_all(const uint8_t *buf, size_t len, struct spe_record *recs, int max, struct spe_rec_stats *st)
{
	struct spe_rec_config cfg = SPE_OPTS(spe_rec_config, .emit_partial = 1);
	struct spe_rec_decoder *dec = spe_rec_alloc_decoder(&cfg);
	struct spe_record r;
	int n = 0;
	if (!dec)
		return -1;
	spe_rec_feed(dec, buf, len, 0, 0);
	for (int flushed = 0; flushed < 2; flushed++) {
		while (spe_rec_next(dec, &r, sizeof r) == 0)
			if (n < max)
				recs[n++] = r;
		if (!flushed)
			spe_rec_flush(dec); /* the record the data cuts comes out here */
	}
	spe_rec_get_stats(dec, st, sizeof *st);
	spe_rec_free_decoder(dec);
	return n;
}

/*
 * The records of @p buf hold what @p texts say: a TS or END text closes a
 * record; texts after the last one are a record the data cuts, returned
 * partial.  Returns the number of records decoded into @p r.
 */
static int check_records(const uint8_t *buf, size_t len, char **texts, int n, struct spe_record *r, int max)
{
	struct spe_rec_stats st;
	int got = decode_all(buf, len, r, max, &st), rec = 0, open = 0;
	for (int i = 0; i < n; i++) {
		if (rec >= got) {
			CHECK_FAIL_("text '%s': no record %d decoded", texts[i], rec);
			return got;
		}
		check_text_in_record(texts[i], &r[rec]);
		open = !(!strncmp(texts[i], "TS ", 3) || !strcmp(texts[i], "END"));
		if (!open)
			CHECK(!(r[rec++].has & SPE_HAS_PARTIAL));
	}
	if (open)
		CHECK(rec < got && (r[rec++].has & SPE_HAS_PARTIAL));
	CHECK_INT_EQ(got, rec);
	CHECK_U64_EQ(st.records, (uint64_t)(rec - open));
	CHECK_U64_EQ(st.partial_records, (uint64_t)open);
	CHECK_U64_EQ(st.bad_bytes, 0);
	return got;
}

/* @p bin dumps and decodes as the texts of @p decoded (its @p section, or all of it) say. */
static int check_sample(const char *bin, const char *decoded, const char *section, enum spe_dialect d,
			struct spe_record *r, int max)
{
	size_t len, tlen;
	uint8_t *buf = load(bin, &len), *file = load(decoded, &tlen);
	char *texts[MAX_TEXTS];
	int got = 0;
	if (buf && file) {
		int n = expected_texts((char *)file, section, texts);
		CHECK(n > 0);
		check_dump_texts(buf, len, d, texts, n);
		got = check_records(buf, len, texts, n, r, max);
	}
	free(buf);
	free(file);
	return got;
}

TEST(quipper_two_records)
{
	struct spe_record r[4];
	CHECK_INT_EQ(check_sample("quipper-test_neoverse_2records.bin", "quipper-test_2records.expected.txt", NULL,
				  SPE_DIALECT_PERF_6_1, r, 4),
		     2);
	CHECK_U64_EQ(r[1].offset, 64); /* 64-byte records */
}

TEST(spe_parser_get_frame_fragment)
{
	/* The leading TS closes an (empty) record; the load has no TS: cut by the end of the data. */
	struct spe_record r[3];
	CHECK_INT_EQ(check_sample("spe-parser-test_get_frame_fragment.bin", "spe-parser-test_get_frame.expected.txt",
				  NULL, SPE_DIALECT_PERF_6_1, r, 3),
		     2);
	CHECK_INT_EQ(r[0].has, SPE_HAS_TIMESTAMP);
}

/* One row of spe-parser's CSV (header line, then the row), as column name → value. */
struct csv {
	char *names[32], *values[32];
	int n;
};

static const char *csv_get(const struct csv *c, const char *name)
{
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->names[i], name))
			return c->values[i];
	CHECK_FAIL_("CSV column '%s' missing", name);
	return "";
}

static int csv_split(char *line, char **out)
{
	int n = 0;
	for (char *f = line, *comma; f && n < 32; f = comma) {
		comma = strchr(f, ',');
		if (comma)
			*comma++ = '\0';
		f = trim(f);
		size_t k = strlen(f);
		if (k >= 2 && f[0] == '"' && f[k - 1] == '"') {
			f[k - 1] = '\0';
			f++;
		}
		out[n++] = f;
	}
	return n;
}

/* The WindowsPerf buffer @p bin: packet texts from the shared .txt, record values from its .csv row. */
static void check_b1(const char *bin, const char *csv_name)
{
	struct spe_record r[2];
	struct csv c = { 0 };
	size_t len;
	if (check_sample(bin, "spe-b1-raw-buffers.expected.txt", bin, SPE_DIALECT_NEWEST, r, 2) != 1)
		return;
	char *file = (char *)load(csv_name, &len);
	if (!file)
		return;
	char *row = strchr(file, '\n');
	CHECK(row != NULL);
	if (row) {
		*row++ = '\0';
		row[strcspn(row, "\n")] = '\0';
		c.n = csv_split(file, c.names);
		CHECK_INT_EQ(csv_split(row, c.values), c.n);
	}
	const char *op = csv_get(&c, "op");
	const char *cls = !strcmp(op, "B") ? "branch" : !strcmp(op, "LD") ? "load" : !strcmp(op, "ST") ? "store" : op;
	CHECK_STR_EQ(spe_op_class_name(r[0].op_class), cls);
	CHECK_U64_EQ(r[0].pc.addr, strtoull(csv_get(&c, "pc"), NULL, 0));
	CHECK_INT_EQ(r[0].pc.el, atoi(csv_get(&c, "el")));
	CHECK_INT_EQ(!!(r[0].op_flags & SPE_OPF(BR_COND)), !strcmp(csv_get(&c, "condition"), "true"));
	CHECK_INT_EQ(!!(r[0].op_flags & SPE_OPF(BR_INDIRECT)), !strcmp(csv_get(&c, "indirect"), "true"));
	CHECK_U64_EQ(r[0].events, events_of(csv_get(&c, "event")));
	CHECK_INT_EQ(r[0].issue_latency, atoi(csv_get(&c, "issue_lat")));
	CHECK_INT_EQ(r[0].total_latency, atoi(csv_get(&c, "total_lat")));
	CHECK_U64_EQ(r[0].branch_target.addr, strtoull(csv_get(&c, "br_tgt"), NULL, 0));
	CHECK_INT_EQ(r[0].branch_target.el, atoi(csv_get(&c, "br_tgt_lvl")));
	/* empty columns: no PBT, no CONTEXT packet; ts 0 when the record ends with END */
	CHECK_INT_EQ(!!(r[0].has & SPE_HAS_PREV_BRANCH_TARGET), *csv_get(&c, "pbt") != '\0');
	CHECK_INT_EQ(!!(r[0].has & SPE_HAS_CONTEXT), *csv_get(&c, "context") != '\0');
	CHECK_U64_EQ(r[0].timestamp, strtoull(csv_get(&c, "ts"), NULL, 0));
	free(file);
}

TEST(windowsperf_b1_ts0)
{
	check_b1("spe-b1-ts0.data", "spe-b1-ts0.expected.csv");
}

TEST(windowsperf_b1_ts1)
{
	check_b1("spe-b1-ts1.data", "spe-b1-ts1.expected.csv");
}

int main(int argc, char **argv)
{
	dir = argc > 1 ? argv[1] : "fixtures/public";
	RUN(quipper_two_records);
	RUN(spe_parser_get_frame_fragment);
	RUN(windowsperf_b1_ts0);
	RUN(windowsperf_b1_ts1);
	return check_summary();
}
