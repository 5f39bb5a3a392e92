/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe-dump: the SPE data of a perf.data (or raw aux) file as `perf report -D`
 * packet lines, as one JSON object per record, or one human line per record.
 * See docs/spe-dump.1.md.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli_util.h"
#include "spe/spe.h"

static const char prog[] = "spe-dump";

enum dump_mode { MODE_DUMP, MODE_RECORDS, MODE_JSON };

/* One record decoder per AUXTRACE queue (idx), as perf keeps one per queue. */
struct queue {
	uint32_t idx;
	int32_t cpu, tid;
	uint32_t midr;
	struct spe_rec_decoder *dec;
	uint64_t fed;              /* stream bytes fed so far */
	uint64_t chunk_stream;     /* stream offset and file offset of the last chunk */
	uint64_t chunk_file;
	uint64_t prev_chunk_stream, prev_chunk_file;
};

struct dump {
	enum dump_mode mode;
	enum spe_dialect dialect;
	const char *input;
	int has_time_conv;
	struct spe_perf_time_conv time_conv;
	uint64_t record_offset_bias; /* perf counts pipe-mode offsets after the 16-byte header */
	struct queue *queues;
	size_t n_queues;
	struct queue *cur;         /* queue whose records are being printed (for on_error) */
	uint64_t records, decode_errors;
	struct spe_rec_stats total;
	uint64_t dump_bad_bytes;
	int out_error;
};

static int write_out(void *ctx, const char *text, size_t len)
{
	struct dump *d = ctx;
	if (fwrite(text, 1, len, stdout) != len) {
		d->out_error = 1;
		return -spe_io;
	}
	return 0;
}

static void on_error(void *ctx, uint64_t offset, int err, const char *reason)
{
	struct dump *d = ctx;
	struct queue *q = d->cur;
	d->decode_errors++;
	if (d->mode == MODE_JSON) {
		printf("{\"error\":");
		cli_json_string(stdout, reason ? reason : "");
		printf(",\"code\":");
		cli_json_string(stdout, spe_errstr(err));
		printf(",\"offset\":%" PRIu64 ",\"idx\":%" PRIu32 ",\"cpu\":%d}\n", offset, q ? q->idx : 0,
		       q ? q->cpu : -1);
	} else if (d->mode == MODE_RECORDS)
		printf("error idx=%" PRIu32 " offset=0x%08" PRIx64 ": %s\n", q ? q->idx : 0, offset,
		       reason ? reason : spe_errstr(err));
}

static struct queue *get_queue(struct dump *d, uint32_t idx, int32_t cpu, int32_t tid, uint32_t midr)
{
	for (size_t i = 0; i < d->n_queues; i++)
		if (d->queues[i].idx == idx)
			return &d->queues[i];
	struct queue *nq = realloc(d->queues, (d->n_queues + 1) * sizeof *nq);
	if (!nq)
		return NULL;
	d->queues = nq;
	struct queue *q = &d->queues[d->n_queues];
	memset(q, 0, sizeof *q);
	q->idx = idx;
	q->cpu = cpu;
	q->tid = tid;
	q->midr = midr;
	struct spe_rec_config cfg = SPE_OPTS(spe_rec_config, .midr = midr, .on_error = on_error, .ctx = d);
	q->dec = spe_rec_alloc_decoder(&cfg);
	if (!q->dec)
		return NULL;
	d->n_queues++;
	return q;
}

/* File offset of a record that starts at stream offset @p off of queue @p q. */
static int64_t file_offset_of(const struct queue *q, uint64_t off)
{
	if (off >= q->chunk_stream)
		return (int64_t)(q->chunk_file + (off - q->chunk_stream));
	if (off >= q->prev_chunk_stream)
		return (int64_t)(q->prev_chunk_file + (off - q->prev_chunk_stream));
	return -1;
}

/* Column name of event @p bit: architected, or an IMPDEF bit that CPU @p midr names (N1's late_prefetch). */
static const char *event_column(uint32_t midr, unsigned bit)
{
	const char *col = spe_event_column(bit);
	return col ? col : spe_impdef_event_column(midr, bit);
}

static void print_events_json(uint32_t midr, uint64_t ev)
{
	int first = 1;
	printf(",\"events\":[");
	for (unsigned bit = 0; bit < 64; bit++) {
		const char *col = event_column(midr, bit);
		if (!(ev >> bit & 1) || !col)
			continue;
		printf("%s\"%s\"", first ? "" : ",", col);
		first = 0;
	}
	printf("],\"events_raw\":\"0x%" PRIx64 "\"", ev);
}

static void print_ip_json(const char *key, const struct spe_ip *ip)
{
	printf(",\"%s\":\"0x%" PRIx64 "\",\"%s_el\":%u,\"%s_ns\":%u,\"%s_nse\":%u", key, ip->addr, key, ip->el, key,
	       ip->ns, key, ip->nse);
}

static void print_json(const struct dump *d, const struct queue *q, const struct spe_record *r)
{
	char op[128];
	printf("{\"offset\":%" PRIu64 ",\"file_offset\":%" PRId64 ",\"idx\":%" PRIu32 ",\"cpu\":%d,\"tid\":%d", r->offset,
	       file_offset_of(q, r->offset), q->idx, q->cpu, q->tid);
	if (r->has & SPE_HAS_TIMESTAMP) {
		printf(",\"timestamp\":%" PRIu64, r->timestamp);
		if (d->has_time_conv)
			printf(",\"time\":%" PRIu64, spe_perf_tsc_to_time(&d->time_conv, r->timestamp));
	}
	if (r->has & SPE_HAS_PC)
		print_ip_json(spe_address_column(SPE_ADDR_PC), &r->pc);
	if (r->has & SPE_HAS_BRANCH_TARGET)
		print_ip_json(spe_address_column(SPE_ADDR_BRANCH_TARGET), &r->branch_target);
	if (r->has & SPE_HAS_PREV_BRANCH_TARGET)
		print_ip_json(spe_address_column(SPE_ADDR_PREV_BRANCH_TARGET), &r->prev_branch_target);
	if (r->has & SPE_HAS_OP_TYPE) {
		spe_record_op_text(r, op, sizeof op);
		const char *cls = spe_op_class_name(r->op_class);
		printf(",\"op_class\":\"%s\",\"op\":", cls ? cls : "unknown");
		cli_json_string(stdout, op);
		printf(",\"op_raw_class\":%u,\"op_raw\":%u", r->op_raw_class, r->op_raw);
		if (r->sve_evl)
			printf(",\"sve_evl\":%u", r->sve_evl);
	}
	if (r->has & SPE_HAS_EVENTS)
		print_events_json(q->midr, r->events);
	if (r->has & SPE_HAS_TOTAL_LATENCY)
		printf(",\"%s\":%u", spe_counter_column(SPE_CNT_TOTAL), r->total_latency);
	if (r->has & SPE_HAS_ISSUE_LATENCY)
		printf(",\"%s\":%u", spe_counter_column(SPE_CNT_ISSUE), r->issue_latency);
	if (r->has & SPE_HAS_TRANSLATION_LATENCY)
		printf(",\"%s\":%u", spe_counter_column(SPE_CNT_TRANSLATION), r->translation_latency);
	if (r->has & SPE_HAS_DATA_VA)
		printf(",\"%s\":\"0x%" PRIx64 "\",\"%s_tag\":%u", spe_address_column(SPE_ADDR_DATA_VA), r->data_va,
		       spe_address_column(SPE_ADDR_DATA_VA), r->data_va_tag);
	if (r->has & SPE_HAS_DATA_PA) {
		const char *pa = spe_address_column(SPE_ADDR_DATA_PA);
		printf(",\"%s\":\"0x%" PRIx64 "\",\"%s_ns\":%u,\"%s_ch\":%u,\"%s_pat\":%u", pa, r->data_pa, pa,
		       r->data_pa_ns, pa, r->data_pa_ch, pa, r->data_pa_pat);
	}
	if (r->has & SPE_HAS_DATA_SOURCE)
		printf(",\"data_source\":%" PRIu64, r->data_source);
	if (r->has & SPE_HAS_CONTEXT)
		printf(",\"context\":%" PRIu32 ",\"context_el\":%u", r->context, r->context_index + 1u);
	for (unsigned i = 0; i < r->n_extra_counters && i < SPE_REC_MAX_EXTRA; i++)
		printf("%s{\"index\":%u,\"value\":%u}%s", i ? "," : ",\"extra_counters\":[", r->extra_counters[i].index,
		       r->extra_counters[i].value, i + 1 == r->n_extra_counters ? "]" : "");
	for (unsigned i = 0; i < r->n_extra_addresses && i < SPE_REC_MAX_EXTRA; i++)
		printf("%s{\"index\":%u,\"value\":\"0x%" PRIx64 "\"}%s", i ? "," : ",\"extra_addresses\":[",
		       r->extra_addresses[i].index, r->extra_addresses[i].value,
		       i + 1 == r->n_extra_addresses ? "]" : "");
	if (r->n_unknown_packets)
		printf(",\"unknown_packets\":%u", r->n_unknown_packets);
	printf(",\"end\":\"%s\"}\n", r->has & SPE_HAS_END ? "end" : (r->has & SPE_HAS_TIMESTAMP) ? "timestamp" : "none");
}

static void print_record_line(const struct queue *q, const struct spe_record *r)
{
	char op[128];
	printf("0x%08" PRIx64 " cpu=%d", r->offset, q->cpu);
	if (r->has & SPE_HAS_TIMESTAMP)
		printf(" ts=%" PRIu64, r->timestamp);
	if (r->has & SPE_HAS_PC)
		printf(" pc=0x%" PRIx64 " el=%u", r->pc.addr, r->pc.el);
	if (r->has & SPE_HAS_OP_TYPE) {
		spe_record_op_text(r, op, sizeof op);
		printf(" op=\"%s\"", op);
	}
	if (r->has & SPE_HAS_EVENTS) {
		int first = 1;
		printf(" ev=");
		for (unsigned bit = 0; bit < 64; bit++) {
			const char *col = event_column(q->midr, bit);
			if (!(r->events >> bit & 1) || !col)
				continue;
			printf("%s%s", first ? "" : ",", col);
			first = 0;
		}
		if (first)
			printf("0x%" PRIx64, r->events);
	}
	if (r->has & SPE_HAS_TOTAL_LATENCY)
		printf(" %s=%u", spe_counter_column(SPE_CNT_TOTAL), r->total_latency);
	if (r->has & SPE_HAS_ISSUE_LATENCY)
		printf(" %s=%u", spe_counter_column(SPE_CNT_ISSUE), r->issue_latency);
	if (r->has & SPE_HAS_TRANSLATION_LATENCY)
		printf(" %s=%u", spe_counter_column(SPE_CNT_TRANSLATION), r->translation_latency);
	if (r->has & SPE_HAS_BRANCH_TARGET)
		printf(" %s=0x%" PRIx64, spe_address_column(SPE_ADDR_BRANCH_TARGET), r->branch_target.addr);
	if (r->has & SPE_HAS_DATA_VA)
		printf(" %s=0x%" PRIx64, spe_address_column(SPE_ADDR_DATA_VA), r->data_va);
	if (r->has & SPE_HAS_DATA_PA)
		printf(" %s=0x%" PRIx64, spe_address_column(SPE_ADDR_DATA_PA), r->data_pa);
	if (r->has & SPE_HAS_DATA_SOURCE)
		printf(" data_source=%" PRIu64, r->data_source);
	if (r->has & SPE_HAS_CONTEXT)
		printf(" context=%" PRIu32, r->context);
	putchar('\n');
}

/* Drain the records the queue's decoder has ready. */
static void drain(struct dump *d, struct queue *q)
{
	struct spe_record r;
	d->cur = q;
	while (spe_rec_next(q->dec, &r, sizeof r) == 0) {
		d->records++;
		if (d->mode == MODE_JSON)
			print_json(d, q, &r);
		else if (d->mode == MODE_RECORDS)
			print_record_line(q, &r);
	}
	d->cur = NULL;
}

static int feed_chunk(struct dump *d, struct queue *q, const uint8_t *data, uint64_t size, uint64_t file_off, int join)
{
	q->prev_chunk_stream = q->chunk_stream;
	q->prev_chunk_file = q->chunk_file;
	q->chunk_stream = q->fed;
	q->chunk_file = file_off;
	int err = spe_rec_feed(q->dec, data, (size_t)size, q->fed, join);
	if (err < 0)
		return err;
	q->fed += size;
	drain(d, q);
	return 0;
}

static void finish_queues(struct dump *d)
{
	for (size_t i = 0; i < d->n_queues; i++) {
		struct queue *q = &d->queues[i];
		d->cur = q;
		spe_rec_flush(q->dec);
		drain(d, q);
		struct spe_rec_stats st;
		spe_rec_get_stats(q->dec, &st, sizeof st);
		d->total.records += st.records;
		d->total.bad_bytes += st.bad_bytes;
		d->total.skipped_bytes += st.skipped_bytes;
		d->total.partial_records += st.partial_records;
		d->total.unknown_packets += st.unknown_packets;
		d->total.dropped_extras += st.dropped_extras;
		spe_rec_free_decoder(q->dec);
	}
	free(d->queues);
	d->queues = NULL;
	d->n_queues = 0;
}

/* Dump @p size bytes whose first byte has buffer offset @p offset and host-alignment offset @p align. */
static int dump_piece(struct dump *d, const uint8_t *data, uint64_t size, uint64_t offset, uint64_t align,
		      uint32_t midr)
{
	struct spe_dump_config cfg = SPE_OPTS(spe_dump_config, .dialect = d->dialect, .midr = midr, .offset = offset,
					      .align_offset = align, .write = write_out, .ctx = d);
	struct spe_dump_stats st;
	int err = spe_dump_buffer(&cfg, data, (size_t)size, &st);
	d->dump_bad_bytes += st.bad_bytes;
	return err;
}

static int dump_block(struct dump *d, const uint8_t *data, uint64_t size, uint64_t file_off, uint32_t midr)
{
	printf(".\n. ... ARM SPE data: size %#" PRIx64 " bytes\n", size);
	return dump_piece(d, data, size, 0, file_off, midr);
}

/*
 * A place at or after @p target where the dump of [@p from, len) can be cut
 * without changing a line: a packet boundary as the dump walks (bad bytes
 * one at a time, PAD runs coalesced), and at least 16 bytes after the last
 * alignment pad, which needs its alignment's worth of bytes to decode.
 */
static uint64_t dump_cut(const uint8_t *base, uint64_t len, uint64_t from, uint64_t target)
{
	uint64_t p = from, last_align = UINT64_MAX;
	while (p < len && (p < target || (last_align != UINT64_MAX && p - last_align < 16))) {
		struct spe_packet pkt;
		int ret = spe_pkt_read(base + p, (size_t)(len - p), p, &pkt);
		unsigned size = 1;
		if (ret > 0) {
			size = pkt.size;
			if (pkt.type == SPE_PKT_PAD || pkt.type == SPE_PKT_ALIGN_PAD)
				size = spe_pad_coalesce(base + p, (size_t)(len - p), size);
			if (pkt.type == SPE_PKT_ALIGN_PAD)
				last_align = p;
		}
		p += size;
	}
	return p < len ? p : len;
}

static int run_perf(struct dump *d, struct spe_perf_file *f, int *exit_code)
{
	struct spe_perf_event ev;
	int rc;
	while ((rc = spe_perf_next(f, &ev, sizeof ev)) == 0) {
		if (ev.type == SPE_PERF_RECORD_TIME_CONV) {
			d->has_time_conv = 1;
			d->time_conv = ev.u.time_conv;
		}
		if (ev.type == SPE_PERF_RECORD_AUXTRACE_INFO && ev.u.auxtrace_info.kind != SPE_PERF_AUXTRACE_ARM_SPE) {
			fprintf(stderr, "%s: %s: offset 0x%" PRIx64 ": AUXTRACE_INFO of kind %u: not Arm SPE data\n", prog,
				d->input, ev.file_offset, ev.u.auxtrace_info.kind);
			*exit_code = CLI_DATAERR;
			return 0;
		}
		if (ev.type != SPE_PERF_RECORD_AUXTRACE)
			continue;
		const struct spe_perf_auxtrace *a = &ev.u.auxtrace;
		uint32_t midr = spe_perf_midr(f, a->cpu);
		struct queue *q = get_queue(d, a->idx, a->cpu, a->tid, midr);
		if (!q) {
			fprintf(stderr, "%s: out of memory\n", prog);
			*exit_code = CLI_IOERR;
			return 0;
		}
		if (d->mode == MODE_DUMP) {
			printf("\n0x%" PRIx64 " [%#x]: PERF_RECORD_AUXTRACE size: %#" PRIx64 "  offset: %#" PRIx64
			       "  ref: %#" PRIx64 "  idx: %" PRIu32 "  tid: %d  cpu: %d\n",
			       ev.file_offset - d->record_offset_bias, ev.header_size, a->size, a->offset, a->reference, a->idx, a->tid, a->cpu);
			/*
			 * perf measures alignment pads from the host address of the data:
			 * its mmap of the file (so the file offset) or, for a pipe, a
			 * malloc'd 16-byte aligned buffer (so 0).
			 */
			uint64_t align = d->record_offset_bias ? 0 : a->data_offset;
			if (dump_block(d, a->data, a->size, align, q->midr) < 0)
				break;
		}
		/* perf does not rejoin packets split between AUXTRACE buffers: join = 0 */
		if (feed_chunk(d, q, a->data, a->size, a->data_offset, 0) < 0 || d->out_error)
			break;
	}
	if (rc != -spe_eos && rc != 0) {
		fprintf(stderr, "%s: %s\n", prog, spe_perf_errmsg(f));
		*exit_code = rc == -spe_io ? CLI_IOERR : CLI_PARTIAL;
	}
	return 0;
}

static int run_raw(struct dump *d, struct spe_raw_input *r)
{
	uint32_t midr = spe_raw_midr(r);
	const uint8_t *base = spe_raw_data(r);
	uint64_t total = spe_raw_size(r), dumped = 0;
	if (d->mode == MODE_DUMP)
		printf(".\n. ... ARM SPE data: size %#" PRIx64 " bytes\n", total);
	struct queue *q = get_queue(d, 0, -1, -1, midr);
	if (!q)
		return -spe_nomem;
	const uint8_t *buf;
	size_t len;
	uint64_t off;
	while (!d->out_error && spe_raw_next_window(r, &buf, &len, &off) == 0) {
		/* the dump follows the windows in pieces cut where no line changes */
		if (d->mode == MODE_DUMP && dumped < off + len) {
			uint64_t cut = dump_cut(base, total, dumped, off + len);
			if (dump_piece(d, base + dumped, cut - dumped, dumped, dumped, midr) < 0)
				break;
			dumped = cut;
		}
		q->prev_chunk_stream = q->chunk_stream = off;
		q->prev_chunk_file = q->chunk_file = off;
		int err = spe_rec_feed(q->dec, buf, len, off, off != 0);
		if (err < 0)
			return err;
		q->fed = off + len;
		drain(d, q);
	}
	return 0;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: spe-dump [options] FILE      (FILE '-' = pipe-mode perf.data on stdin)\n"
		"       spe-dump --raw [--midr=0x...] [options] FILE\n"
		"\n"
		"  --perf-compat=6.1   print exactly what perf 6.1's `perf report -D` prints\n"
		"  --format=FMT        dump (default: perf -D packet lines), json (one object per record),\n"
		"                      records (one line per record)\n"
		"  --records           same as --format=records\n"
		"  --raw               FILE holds bare SPE bytes, not perf.data\n"
		"  --midr=0x...        MIDR_EL1 of the CPU that wrote a raw file\n"
		"  --window=BYTES      raw input is read in windows of BYTES (default 16 MiB)\n"
		"  -q, --quiet         no summary on stderr\n"
		"  -h, --help          this text\n"
		"\n"
		"exit: 0 clean, 1 decoded with errors, 64 usage, 65 not SPE/perf.data, 66 cannot open, 74 I/O error\n");
}

int cmd_dump(int argc, char **argv);
int cmd_dump(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "perf-compat", required_argument, NULL, 'c' },
		{ "format", required_argument, NULL, 'f' },
		{ "records", no_argument, NULL, 'r' },
		{ "raw", no_argument, NULL, 'R' },
		{ "midr", required_argument, NULL, 'm' },
		{ "window", required_argument, NULL, 'w' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct dump d = { .mode = MODE_DUMP, .dialect = SPE_DIALECT_NEWEST };
	int raw = 0, quiet = 0, c;
	uint32_t midr = 0;
	size_t window = 0;
	char *end;
	optind = 1;
	while ((c = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (!strcmp(optarg, "6.1"))
				d.dialect = SPE_DIALECT_PERF_6_1;
			else if (!strcmp(optarg, "newest"))
				d.dialect = SPE_DIALECT_NEWEST;
			else {
				fprintf(stderr, "%s: --perf-compat=%s: known versions are 6.1 and newest\n", prog, optarg);
				return CLI_USAGE;
			}
			break;
		case 'f':
			if (!strcmp(optarg, "dump"))
				d.mode = MODE_DUMP;
			else if (!strcmp(optarg, "json"))
				d.mode = MODE_JSON;
			else if (!strcmp(optarg, "records"))
				d.mode = MODE_RECORDS;
			else {
				fprintf(stderr, "%s: --format=%s: use dump, json or records\n", prog, optarg);
				return CLI_USAGE;
			}
			break;
		case 'r':
			d.mode = MODE_RECORDS;
			break;
		case 'R':
			raw = 1;
			break;
		case 'm': {
			unsigned long long v = strtoull(optarg, &end, 0);
			if (!*optarg || *end || v > 0xffffffffull) {
				fprintf(stderr, "%s: --midr=%s: expected a 32-bit number such as 0x410fd0c0\n", prog, optarg);
				return CLI_USAGE;
			}
			midr = (uint32_t)v;
			break;
		}
		case 'w': {
			unsigned long long v = strtoull(optarg, &end, 0);
			if (!*optarg || *end || v < 64 || v > (1ull << 40)) {
				fprintf(stderr, "%s: --window=%s: expected a byte count of at least 64\n", prog, optarg);
				return CLI_USAGE;
			}
			window = (size_t)v;
			break;
		}
		case 'q':
			quiet = 1;
			break;
		case 'h':
			usage(stdout);
			return cli_finish_stdout(prog, CLI_OK);
		default:
			usage(stderr);
			return CLI_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "%s: expected one input file\n", prog);
		usage(stderr);
		return CLI_USAGE;
	}
	if (midr && !raw) {
		fprintf(stderr, "%s: --midr applies to --raw input only (perf.data carries its MIDR)\n", prog);
		return CLI_USAGE;
	}
	d.input = argv[optind];
	static char outbuf[1 << 20];
	setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);

	int exit_code = CLI_OK;
	struct spe_perf_info info = { 0 };
	if (raw) {
		struct spe_raw_config cfg = SPE_OPTS(spe_raw_config, .midr = midr, .window = window);
		struct spe_raw_input *r = spe_raw_alloc_input(&cfg);
		int err = r ? spe_raw_open(r, d.input) : -spe_nomem;
		if (err) {
			fprintf(stderr, "%s: %s\n", prog, r ? spe_raw_errmsg(r) : "out of memory");
			spe_raw_free_input(r);
			return err == -spe_io ? CLI_NOINPUT : CLI_DATAERR;
		}
		if (run_raw(&d, r) == -spe_nomem)
			exit_code = CLI_IOERR;
		finish_queues(&d);
		spe_raw_free_input(r);
	} else {
		struct spe_perf_file *f = spe_perf_alloc_file(NULL);
		int err = f ? spe_perf_open(f, d.input) : -spe_nomem;
		if (err) {
			fprintf(stderr, "%s: %s\n", prog, f ? spe_perf_errmsg(f) : "out of memory");
			spe_perf_free_file(f);
			return err == -spe_io ? CLI_NOINPUT : CLI_DATAERR;
		}
		spe_perf_get_info(f, &info, sizeof info);
		if (info.pipe_format)
			d.record_offset_bias = 16;
		run_perf(&d, f, &exit_code);
		finish_queues(&d);
		spe_perf_get_info(f, &info, sizeof info);
		spe_perf_free_file(f);
	}
	if (!quiet) {
		fprintf(stderr, "%s: %" PRIu64 " records, %" PRIu64 " bad bytes, %" PRIu64 " skipped bytes, %" PRIu64
			" partial records", prog, d.total.records, d.total.bad_bytes, d.total.skipped_bytes,
			d.total.partial_records);
		if (d.total.unknown_packets)
			fprintf(stderr, ", %" PRIu64 " unknown packets", d.total.unknown_packets);
		if (d.total.dropped_extras)
			fprintf(stderr, ", %" PRIu64 " extra counters/addresses dropped (more than %d in a record)",
				d.total.dropped_extras, SPE_REC_MAX_EXTRA);
		if (!raw)
			fprintf(stderr, "; %" PRIu64 " AUXTRACE buffers (%" PRIu64 " bytes); AUX lost data %" PRIu64
				" of %" PRIu64 " times (truncated), %" PRIu64 " partial, %" PRIu64 " collisions",
				info.n_auxtrace, info.auxtrace_bytes, info.n_aux_truncated, info.n_aux,
				info.n_aux_partial, info.n_aux_collision);
		fputc('\n', stderr);
	}
	if (exit_code == CLI_OK && (d.total.bad_bytes || d.dump_bad_bytes || d.decode_errors))
		exit_code = CLI_PARTIAL;
	if (d.out_error)
		exit_code = CLI_IOERR;
	return cli_finish_stdout(prog, exit_code);
}
