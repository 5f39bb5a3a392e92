/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe-dump: the SPE data of a perf.data (or raw aux) file as `perf report -D`
 * packet lines, as one JSON object per record, or one human line per record.
 * See docs/spe-dump.1.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli_args.h"
#include "common/cli_options.h"
#include "common/cli_signals.h"
#include "common/cli_util.h"
#include "common/progress.h"
#include "spe/spe.h"
#include "util/json.h"

static const char prog[] = "spe-dump";

enum dump_mode { MODE_DUMP, MODE_JSON, MODE_RECORDS }; /* --format's values, in order */

struct dump {
	enum dump_mode mode;
	enum spe_dialect dialect;
	const char *input;
	uint64_t record_offset_bias; /* perf counts pipe-mode offsets after the 16-byte header */
	uint64_t decode_errors;
	uint64_t dump_bad_bytes;
	uint64_t dumped;             /* raw input: bytes of the text dump printed so far */
	int out_error;               /* errno of the write that failed, or 0 */
	enum cli_progress_mode progress_mode;
	struct cli_progress progress; /* --format=json and records: the records' progress */
	uint64_t size;               /* the file's bytes, 0 when not known (a pipe): the progress's total */
	int stopped;                 /* a stop signal ended the records (progress shown: cli_signals.h) */
};

enum { PROGRESS_EVERY = 65536 }; /* records between progress updates */

static int write_out(void *ctx, const char *text, size_t len)
{
	struct dump *d = ctx;
	if (fwrite(text, 1, len, stdout) != len) {
		d->out_error = errno ? errno : EIO;
		return -spe_io;
	}
	return 0;
}

static void on_error(void *ctx, const struct spe_aux_error *e)
{
	struct dump *d = ctx;
	d->decode_errors++;
	if (d->mode == MODE_JSON) {
		printf("{\"error\":");
		util_json_string(stdout, e->reason ? e->reason : "");
		printf(",\"code\":");
		util_json_string(stdout, spe_errstr(e->code));
		printf(",\"offset\":%" PRIu64 ",\"idx\":%" PRIu32 ",\"cpu\":%d}\n", e->offset, e->queue, e->cpu);
	} else if (d->mode == MODE_RECORDS)
		printf("error idx=%" PRIu32 " offset=0x%08" PRIx64 ": %s\n", e->queue, e->offset,
		       e->reason ? e->reason : spe_errstr(e->code));
}

/* file_offset in JSON: -1 when not known */
static int64_t json_offset(uint64_t off)
{
	return off == SPE_AUX_NO_OFFSET ? -1 : (int64_t)off;
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

static void print_json(const struct spe_aux_item *it)
{
	const struct spe_record *r = it->record;
	char op[128];
	printf("{\"offset\":%" PRIu64 ",\"file_offset\":%" PRId64 ",\"idx\":%" PRIu32 ",\"cpu\":%d,\"tid\":%d", r->offset,
	       json_offset(it->file_offset), it->queue, it->cpu, it->tid);
	if (r->has & SPE_HAS_TIMESTAMP) {
		printf(",\"timestamp\":%" PRIu64, r->timestamp);
		if (it->time != SPE_AUX_NO_TIME)
			printf(",\"time\":%" PRIu64, it->time);
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
		util_json_string(stdout, op);
		printf(",\"op_raw_class\":%u,\"op_raw\":%u", r->op_raw_class, r->op_raw);
		if (r->sve_evl)
			printf(",\"sve_evl\":%u", r->sve_evl);
	}
	if (r->has & SPE_HAS_EVENTS)
		print_events_json(it->midr, r->events);
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

static void print_record_line(const struct spe_aux_item *it)
{
	const struct spe_record *r = it->record;
	char op[128];
	printf("0x%08" PRIx64 " cpu=%d", r->offset, it->cpu);
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
			const char *col = event_column(it->midr, bit);
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

/* The AUXTRACE line and the packet lines of one buffer, as perf report -D prints them. */
static int dump_auxtrace(struct dump *d, struct spe_perf_file *f, const struct spe_perf_event *ev)
{
	const struct spe_perf_auxtrace *a = &ev->u.auxtrace;
	printf("\n0x%" PRIx64 " [%#x]: PERF_RECORD_AUXTRACE size: %#" PRIx64 "  offset: %#" PRIx64 "  ref: %#" PRIx64
	       "  idx: %" PRIu32 "  tid: %d  cpu: %d\n",
	       ev->file_offset - d->record_offset_bias, ev->header_size, a->size, a->offset, a->reference, a->idx, a->tid,
	       a->cpu);
	/*
	 * perf measures alignment pads from the host address of the data: its
	 * mmap of the file (so the file offset) or, for a pipe, a malloc'd
	 * 16-byte aligned buffer (so 0).
	 */
	uint64_t align = d->record_offset_bias ? 0 : a->data_offset;
	return dump_block(d, a->data, a->size, align, spe_perf_midr(f, a->cpu));
}

/* Raw input: the dump follows the windows in pieces cut where no line changes. */
static int dump_raw_window(struct dump *d, struct spe_raw_input *r, const struct spe_aux_item *it)
{
	uint64_t end = it->offset + it->size, total = spe_raw_size(r);
	if (d->dumped >= end)
		return 0;
	uint64_t cut = dump_cut(spe_raw_data(r), total, d->dumped, end);
	int err = dump_piece(d, spe_raw_data(r) + d->dumped, cut - d->dumped, d->dumped, d->dumped, it->midr);
	d->dumped = cut;
	return err;
}

/*
 * Decode through the AUX stream layer, in file order (perf -D's order, and
 * the one a pipe allows).  Returns 0 or the layer's negative code.
 */
static int run(struct dump *d, struct spe_perf_file *f, struct spe_raw_input *r, struct spe_aux_stats *st)
{
	/* perf does not rejoin packets split between AUXTRACE buffers: neither does its dialect */
	struct spe_aux_config cfg = SPE_OPTS(spe_aux_config, .perf = f, .raw = r, .raw_cpu = -1, .order = SPE_AUX_ORDER_FILE,
					     .join = d->dialect == SPE_DIALECT_PERF_6_1 ? SPE_AUX_JOIN_NEVER
											: SPE_AUX_JOIN_CONTIGUOUS,
					     .on_error = on_error, .ctx = d);
	if (d->mode == MODE_DUMP)
		cfg.items = r ? SPE_AUX_WANT_CHUNKS : SPE_AUX_WANT_EVENTS;
	struct spe_aux_decoder *aux = spe_aux_alloc_decoder(&cfg);
	if (!aux)
		return -spe_nomem;
	if (r && d->mode == MODE_DUMP)
		printf(".\n. ... ARM SPE data: size %#" PRIx64 " bytes\n", spe_raw_size(r));
	struct spe_aux_item it;
	int type = 0;
	/* records, one line each: a progress line when that is long work (a stop signal then ends it cleanly) */
	struct spe_progress pr = { .unit = "records", .total = d->size };
	volatile sig_atomic_t *stop = NULL;
	if (d->mode != MODE_DUMP) {
		cli_progress_start(&d->progress, prog, d->input, cli_progress_for_stdout(d->progress_mode, 1));
		if (d->progress.draw && cli_signals_install() == 0)
			stop = cli_stop_flag();
	}
	while (!d->out_error && (type = spe_aux_next(aux, &it, sizeof it)) > 0) {
		if (type == SPE_AUX_RECORD && d->progress.draw && ++pr.count % PROGRESS_EVERY == 0) {
			if (stop && *stop) {
				d->stopped = 1;
				break;
			}
			pr.done = it.file_offset != SPE_AUX_NO_OFFSET ? it.file_offset : it.offset;
			if (pr.total && pr.done > pr.total)
				pr.done = pr.total;
			cli_progress_update(&d->progress, &pr);
		}
		if (type == SPE_AUX_RECORD && d->mode == MODE_JSON)
			print_json(&it);
		else if (type == SPE_AUX_RECORD && d->mode == MODE_RECORDS)
			print_record_line(&it);
		else if (type == SPE_AUX_EVENT && it.event->type == SPE_PERF_RECORD_AUXTRACE)
			dump_auxtrace(d, f, it.event);
		else if (type == SPE_AUX_CHUNK)
			dump_raw_window(d, r, &it);
	}
	cli_progress_clear(&d->progress);
	int rc = d->out_error || d->stopped || type == -spe_eos ? 0 : type;
	if (rc < 0)
		fprintf(stderr, "%s: %s\n", prog, *spe_aux_errmsg(aux) ? spe_aux_errmsg(aux) : spe_errstr(rc));
	spe_aux_get_stats(aux, st, sizeof *st);
	spe_aux_free_decoder(aux);
	return rc;
}

struct dump_opts {
	int raw, quiet;
	uint32_t midr;
	size_t window;
};

enum { OPT_PERF_COMPAT = CLI_ID(0), OPT_FORMAT, OPT_RECORDS, OPT_RAW, OPT_MIDR, OPT_WINDOW, OPT_PROGRESS,
       OPT_NO_PROGRESS };
static const char *const dialects[] = { "6.1", "newest", NULL };
static const char *const formats[] = { "dump", "json", "records", NULL };
static const char *const usage[] = {
	"spe-dump [options] FILE      (FILE '-' = pipe-mode perf.data on stdin)",
	"spe-dump --raw [--midr=MIDR|PART] [options] FILE",
	NULL,
};

static const struct cli_option options[] = {
	{ 'i', "input", 'i', CLI_INPUT, "FILE", .help = "the file to dump, as the FILE operand", .group = "Input" },
	{ OPT_RAW, "raw", 0, CLI_FLAG, .help = "FILE holds bare SPE bytes, not perf.data" },
	{ OPT_MIDR, "midr", 0, CLI_TEXT, "MIDR|PART", .values = cli_cpu_part_name,
	  .help = "MIDR_EL1 of the CPU that wrote a raw file (0x410fd0c0), or its part" },
	{ OPT_WINDOW, "window", 0, CLI_INT, "BYTES", .min = 64, .max = INT64_C(1) << 40,
	  .help = "raw input is read in windows of BYTES (default 16 MiB)" },
	{ OPT_FORMAT, "format", 0, CLI_CHOICE, .choices = formats,
	  .help = "dump (default: perf -D packet lines), json (one object per record), records (one line per record)",
	  .group = "Output" },
	{ OPT_RECORDS, "records", 0, CLI_FLAG, .help = "same as --format=records" },
	{ OPT_PERF_COMPAT, "perf-compat", 0, CLI_CHOICE, .choices = dialects,
	  .help = "print exactly what that perf's `perf report -D` prints (default newest)" },
	{ 'q', "quiet", 'q', CLI_FLAG, .help = "no summary on stderr" },
	CLI_PROGRESS_OPTIONS(OPT_PROGRESS, OPT_NO_PROGRESS),
	{ 0 },
};

const struct cli_command cli_command_dump = {
	.name = "dump",
	.prog = "spe-dump",
	.summary = "print the SPE records of a perf.data (or raw) file, as perf report -D or JSON",
	.usage = usage,
	.options = options,
	.footer = "exit: 0 clean, 1 decoded with errors, 64 usage, 65 not SPE/perf.data, 66 cannot open, 74 I/O error,\n"
		  "      128+N stopped by signal N (with the progress line)",
};

/* The options into @p d and @p o; 0, -1 after --help or --version, or the exit status of a usage error (printed). */
static int parse_options(int argc, char **argv, struct dump *d, struct dump_opts *o)
{
	const struct cli_command *cmd = &cli_command_dump;
	struct cli_args a;
	int c;
	cli_args_init(&a, cmd, argc, argv);
	while ((c = cli_args_next(&a)) > 0) {
		switch (c) {
		case OPT_PERF_COMPAT: d->dialect = a.number == 0 ? SPE_DIALECT_PERF_6_1 : SPE_DIALECT_NEWEST; break;
		case OPT_FORMAT: d->mode = (enum dump_mode)a.number; break;
		case OPT_RECORDS: d->mode = MODE_RECORDS; break;
		case OPT_RAW: o->raw = 1; break;
		case OPT_MIDR:
			if (cli_parse_midr(a.value, &o->midr) < 0)
				return cli_usage_error(cmd,
						       "--midr=%s: expected a 32-bit number such as 0x410fd0c0 or a CPU part "
						       "such as neoverse-n1 (spe-facts lists them)",
						       a.value);
			break;
		case OPT_WINDOW: o->window = (size_t)a.number; break;
		case 'q': o->quiet = 1; break;
		case OPT_PROGRESS: d->progress_mode = CLI_PROGRESS_ON; break;
		case OPT_NO_PROGRESS: d->progress_mode = CLI_PROGRESS_OFF; break;
		}
	}
	if (c < 0)
		return a.status == CLI_OK ? -1 : a.status;
	if (a.optind != argc - 1)
		return cli_usage_error(cmd, "expected one input file");
	if (o->midr && !o->raw)
		return cli_usage_error(cmd, "--midr applies to --raw input only (perf.data carries its MIDR)");
	d->input = argv[a.optind];
	return 0;
}

/*
 * Open the input (raw bytes or a perf.data) and dump it.  The decoding
 * result (0 or a negative code, printed) in *@p rc; returns 0, or the exit
 * status of an input that cannot be opened (printed).
 */
static int dump_input(struct dump *d, const struct dump_opts *o, struct spe_aux_stats *st, int *rc)
{
	int bad = o->raw ? cli_refuse_raw_input(prog, d->input, "drop --raw") : 0;
	if (bad)
		return bad;
	if (o->raw) {
		struct spe_raw_config cfg = SPE_OPTS(spe_raw_config, .midr = o->midr, .window = o->window);
		struct spe_raw_input *r = spe_raw_alloc_input(&cfg);
		int err = r ? spe_raw_open(r, d->input) : -spe_nomem;
		if (err) {
			fprintf(stderr, "%s: %s\n", prog, r ? spe_raw_errmsg(r) : "out of memory");
			spe_raw_free_input(r);
			return err == -spe_io ? CLI_NOINPUT : CLI_DATAERR;
		}
		d->size = spe_raw_size(r);
		*rc = run(d, NULL, r, st);
		spe_raw_free_input(r);
		return 0;
	}
	struct spe_perf_file *f = spe_perf_alloc_file(NULL);
	int err = f ? spe_perf_open(f, d->input) : -spe_nomem;
	if (err) {
		fprintf(stderr, "%s: %s\n", prog, f ? spe_perf_errmsg(f) : "out of memory");
		spe_perf_free_file(f);
		return err == -spe_io ? CLI_NOINPUT : CLI_DATAERR;
	}
	struct spe_perf_info info = { 0 };
	spe_perf_get_info(f, &info, sizeof info);
	if (info.pipe_format)
		d->record_offset_bias = 16;
	d->size = info.file_size;
	*rc = run(d, f, NULL, st);
	/* what the reader skipped (a feature section that does not parse), once, after the dump */
	spe_perf_get_info(f, &info, sizeof info);
	for (uint32_t i = 0; i < info.n_warnings && spe_perf_warning(f, i); i++)
		fprintf(stderr, "%s: warning: %s\n", prog, spe_perf_warning(f, i));
	if (info.n_warnings > SPE_PERF_MAX_WARNINGS)
		fprintf(stderr, "%s: warning: and %u more\n", prog, info.n_warnings - SPE_PERF_MAX_WARNINGS);
	spe_perf_free_file(f);
	return 0;
}

/* The decoder statistics line on stderr. */
static void print_summary(const struct spe_aux_stats *st, int raw)
{
	fprintf(stderr, "%s: %" PRIu64 " records, %" PRIu64 " bad bytes, %" PRIu64 " skipped bytes, %" PRIu64
		" partial records", prog, st->records, st->bad_bytes, st->skipped_bytes, st->partial_records);
	if (st->unknown_packets)
		fprintf(stderr, ", %" PRIu64 " unknown packets", st->unknown_packets);
	if (st->dropped_extras)
		fprintf(stderr, ", %" PRIu64 " extra counters/addresses dropped (more than %d in a record)",
			st->dropped_extras, SPE_REC_MAX_EXTRA);
	if (!raw)
		fprintf(stderr, "; %" PRIu64 " AUXTRACE buffers (%" PRIu64 " bytes); AUX lost data %" PRIu64
			" of %" PRIu64 " times (truncated), %" PRIu64 " partial, %" PRIu64 " collisions",
			st->chunks, st->bytes, st->aux_truncated, st->aux_records, st->aux_partial, st->aux_collision);
	if (st->cut)
		fprintf(stderr, "; the file is cut short at offset 0x%" PRIx64 ", %" PRIu64 " bytes missing", st->cut_offset,
			st->cut_bytes);
	fputc('\n', stderr);
}

int cmd_dump(int argc, char **argv);
int cmd_dump(int argc, char **argv)
{
	struct dump d = { .mode = MODE_DUMP, .dialect = SPE_DIALECT_NEWEST };
	struct dump_opts o = { 0 };
	int status = parse_options(argc, argv, &d, &o);
	if (status)
		return status < 0 ? CLI_OK : status; /* --help, --version: written and closed */
	/*
	 * 128 KiB: the text is copied in here and out again by write(); a buffer
	 * that stays in L2 made spe-dump to a file ~5% faster than 1 MiB did
	 * (bench/run.sh, realistic stream), and no slower to /dev/null.
	 */
	static char outbuf[1 << 17];
	setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);

	struct spe_aux_stats st = { 0 };
	int rc = 0;
	if ((status = dump_input(&d, &o, &st, &rc)))
		return status;
	if (d.stopped) { /* what was printed stays printed */
		fflush(stdout);
		fprintf(stderr, "%s: interrupted after %" PRIu64 " records\n", prog, st.records);
		return cli_finish_stdout(prog, cli_stop_status());
	}
	if (!o.quiet)
		print_summary(&st, o.raw);
	/*
	 * Everything before an error was printed: a file cut short after its SPE
	 * data began is partial data; any other problem (a cut before any, too) bad data.
	 */
	status = rc == 0 ? CLI_OK : rc == -spe_truncated && st.cut ? CLI_PARTIAL
		 : rc == -spe_io || rc == -spe_nomem ? CLI_IOERR : CLI_DATAERR;
	if (status == CLI_OK && (st.bad_bytes || d.dump_bad_bytes || d.decode_errors))
		status = CLI_PARTIAL;
	if (d.out_error) {
		/* a write failed before the end (more than the stdout buffer): say why, as a failed flush would */
		if (d.out_error != EPIPE)
			fprintf(stderr, "%s: error writing standard output: %s\n", prog, strerror(d.out_error));
		status = CLI_IOERR;
	}
	return cli_finish_stdout(prog, status);
}
