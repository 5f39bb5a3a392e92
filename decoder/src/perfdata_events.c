/* SPDX-License-Identifier: Apache-2.0 */
/* perf.data reader: the event iterator and the typed parse of each record. */
#include <stdlib.h>

#include "perfdata_internal.h"

const char *spe_perf_record_name(uint32_t type)
{
	switch (type) {
	case SPE_PERF_RECORD_MMAP: return "MMAP";
	case SPE_PERF_RECORD_LOST: return "LOST";
	case SPE_PERF_RECORD_COMM: return "COMM";
	case SPE_PERF_RECORD_EXIT: return "EXIT";
	case SPE_PERF_RECORD_FORK: return "FORK";
	case SPE_PERF_RECORD_SAMPLE: return "SAMPLE";
	case SPE_PERF_RECORD_MMAP2: return "MMAP2";
	case SPE_PERF_RECORD_AUX: return "AUX";
	case SPE_PERF_RECORD_ITRACE_START: return "ITRACE_START";
	case SPE_PERF_RECORD_LOST_SAMPLES: return "LOST_SAMPLES";
	case SPE_PERF_RECORD_SWITCH: return "SWITCH";
	case SPE_PERF_RECORD_SWITCH_CPU_WIDE: return "SWITCH_CPU_WIDE";
	case SPE_PERF_RECORD_KSYMBOL: return "KSYMBOL";
	case SPE_PERF_RECORD_BPF_EVENT: return "BPF_EVENT";
	case SPE_PERF_RECORD_HEADER_ATTR: return "HEADER_ATTR";
	case SPE_PERF_RECORD_HEADER_EVENT_TYPE: return "HEADER_EVENT_TYPE";
	case SPE_PERF_RECORD_HEADER_TRACING_DATA: return "HEADER_TRACING_DATA";
	case SPE_PERF_RECORD_HEADER_BUILD_ID: return "HEADER_BUILD_ID";
	case SPE_PERF_RECORD_FINISHED_ROUND: return "FINISHED_ROUND";
	case SPE_PERF_RECORD_ID_INDEX: return "ID_INDEX";
	case SPE_PERF_RECORD_AUXTRACE_INFO: return "AUXTRACE_INFO";
	case SPE_PERF_RECORD_AUXTRACE: return "AUXTRACE";
	case SPE_PERF_RECORD_AUXTRACE_ERROR: return "AUXTRACE_ERROR";
	case SPE_PERF_RECORD_TIME_CONV: return "TIME_CONV";
	case SPE_PERF_RECORD_HEADER_FEATURE: return "HEADER_FEATURE";
	case SPE_PERF_RECORD_COMPRESSED: return "COMPRESSED";
	case SPE_PERF_RECORD_FINISHED_INIT: return "FINISHED_INIT";
	case SPE_PERF_RECORD_COMPRESSED2: return "COMPRESSED2";
	}
	return NULL;
}

uint64_t spe_perf_tsc_to_time(const struct spe_perf_time_conv *tc, uint64_t cyc)
{
	return pd_tsc_to_time(tc, cyc);
}

/* Bytes of the sample_id trailer for @p sample_type. */
static uint32_t sid_size(uint64_t t)
{
	uint32_t n = 0;
	n += (t & SPE_PERF_SAMPLE_TID) ? 8 : 0;
	n += (t & SPE_PERF_SAMPLE_TIME) ? 8 : 0;
	n += (t & SPE_PERF_SAMPLE_ID) ? 8 : 0;
	n += (t & SPE_PERF_SAMPLE_STREAM_ID) ? 8 : 0;
	n += (t & SPE_PERF_SAMPLE_CPU) ? 8 : 0;
	n += (t & SPE_PERF_SAMPLE_IDENTIFIER) ? 8 : 0;
	return n;
}

static int attr_by_id(const struct spe_perf_file *f, uint64_t id)
{
	for (uint32_t i = 0; i < f->n_attrs; i++)
		for (uint32_t j = 0; j < f->attrs[i].pub.n_ids; j++)
			if (f->attrs[i].ids[j] == id)
				return (int)i;
	return -1;
}

/*
 * Parse the trailer at the end of a kernel record whose fixed part is
 * @p fixed bytes.  A trailer that does not fit is left unparsed.
 */
static void parse_sid(const struct spe_perf_file *f, const uint8_t *p, uint32_t size, uint32_t fixed,
		      struct spe_perf_event *ev)
{
	ev->attr_index = f->n_attrs == 1 ? 0 : -1;
	if (!f->n_attrs)
		return;
	int ai = 0;
	if (!f->sid_same) {
		if (!f->sid_identifier || size < fixed + 8)
			return;
		ai = attr_by_id(f, pd_le64(p + size - 8));
		if (ai < 0)
			return;
	}
	const struct spe_perf_attr *a = &f->attrs[ai].pub;
	if (!a->sample_id_all)
		return;
	uint64_t t = a->sample_type;
	uint32_t n = sid_size(t);
	if (n == 0 || size < fixed + n)
		return;
	const uint8_t *q = p + size - n;
	struct spe_perf_sample_id *s = &ev->sid;
	if (t & SPE_PERF_SAMPLE_TID) {
		s->pid = pd_le32(q);
		s->tid = pd_le32(q + 4);
		s->has |= SPE_PERF_SID_TID;
		q += 8;
	}
	if (t & SPE_PERF_SAMPLE_TIME) {
		s->time = pd_le64(q);
		s->has |= SPE_PERF_SID_TIME;
		q += 8;
	}
	if (t & SPE_PERF_SAMPLE_ID) {
		s->id = pd_le64(q);
		s->has |= SPE_PERF_SID_ID;
		q += 8;
	}
	if (t & SPE_PERF_SAMPLE_STREAM_ID) {
		s->stream_id = pd_le64(q);
		s->has |= SPE_PERF_SID_STREAM_ID;
		q += 8;
	}
	if (t & SPE_PERF_SAMPLE_CPU) {
		s->cpu = pd_le32(q);
		s->has |= SPE_PERF_SID_CPU;
		q += 8;
	}
	if (t & SPE_PERF_SAMPLE_IDENTIFIER) {
		s->id = pd_le64(q);
		s->has |= SPE_PERF_SID_ID;
	}
	if (s->has & SPE_PERF_SID_ID) {
		int by_id = attr_by_id(f, s->id);
		if (by_id >= 0)
			ev->attr_index = by_id;
	}
	if (ev->attr_index < 0)
		ev->attr_index = ai;
}

/* Copy a name field into the scratch buffer, NUL-terminated, bounded by the record. */
static const char *scratch_name(struct spe_perf_file *f, const uint8_t *p, size_t max)
{
	size_t len = strnlen((const char *)p, max);
	if (len + 1 > f->scratch_cap) {
		char *ns = realloc(f->scratch, len + 1);
		if (!ns)
			return "";
		f->scratch = ns;
		f->scratch_cap = len + 1;
	}
	memcpy(f->scratch, p, len);
	f->scratch[len] = 0;
	return f->scratch;
}

/* Fixed bytes of the records the reader decodes (before name and trailer). */
static uint32_t fixed_size(uint32_t type)
{
	switch (type) {
	case SPE_PERF_RECORD_MMAP: return 40;
	case SPE_PERF_RECORD_MMAP2: return 72;
	case SPE_PERF_RECORD_COMM: return 16;
	case SPE_PERF_RECORD_EXIT:
	case SPE_PERF_RECORD_FORK: return 32;
	case SPE_PERF_RECORD_LOST: return 24;
	case SPE_PERF_RECORD_LOST_SAMPLES: return 16;
	case SPE_PERF_RECORD_AUX: return 32;
	case SPE_PERF_RECORD_ITRACE_START: return 16;
	case SPE_PERF_RECORD_KSYMBOL: return 24;
	case SPE_PERF_RECORD_BPF_EVENT: return 24;
	case SPE_PERF_RECORD_SWITCH: return 8;
	case SPE_PERF_RECORD_SWITCH_CPU_WIDE: return 16;
	case SPE_PERF_RECORD_TIME_CONV: return 32;
	case SPE_PERF_RECORD_AUXTRACE: return PD_AUXTRACE_SIZE;
	case SPE_PERF_RECORD_HEADER_FEATURE: return 16;
	case SPE_PERF_RECORD_HEADER_ATTR: return 8 + PD_ATTR_MIN;
	case SPE_PERF_RECORD_HEADER_TRACING_DATA: return PD_TRACING_DATA_MIN;
	case SPE_PERF_RECORD_COMPRESSED2: return 16;
	}
	return 8;
}

static uint32_t name_bytes(uint32_t size, uint32_t fixed, uint64_t sample_type_trailer)
{
	uint32_t end = size;
	if (sample_type_trailer && size >= fixed + sample_type_trailer)
		end = size - (uint32_t)sample_type_trailer;
	return end > fixed ? end - fixed : 0;
}

int pd_parse_event(struct spe_perf_file *f, const uint8_t *p, uint32_t size, uint64_t off,
		   struct spe_perf_event *ev)
{
	uint32_t type = ev->type, fixed = fixed_size(type);
	if (size < fixed)
		return pd_fail(f, -spe_bad_file, off, "%s record of %u bytes is shorter than its fixed part (%u)",
			       spe_perf_record_name(type), size, fixed);
	if (type < SPE_PERF_RECORD_USER_START && type != SPE_PERF_RECORD_SAMPLE)
		parse_sid(f, p, size, fixed, ev);
	else
		ev->attr_index = -1;
	uint32_t trailer = 0;
	if (ev->attr_index >= 0 && f->attrs[ev->attr_index].pub.sample_id_all)
		trailer = sid_size(f->attrs[ev->attr_index].pub.sample_type);

	switch (type) {
	case SPE_PERF_RECORD_MMAP:
	case SPE_PERF_RECORD_MMAP2: {
		struct spe_perf_mmap *m = &ev->u.mmap;
		m->pid = pd_le32(p + 8);
		m->tid = pd_le32(p + 12);
		m->start = pd_le64(p + 16);
		m->len = pd_le64(p + 24);
		m->pgoff = pd_le64(p + 32);
		if (type == SPE_PERF_RECORD_MMAP2) {
			if (ev->misc & SPE_PERF_MISC_MMAP_BUILD_ID) {
				m->build_id_size = p[40] > 20 ? 20 : p[40];
				memcpy(m->build_id, p + 44, 20);
			} else {
				m->maj = pd_le32(p + 40);
				m->min = pd_le32(p + 44);
				m->ino = pd_le64(p + 48);
				m->ino_generation = pd_le64(p + 56);
			}
			m->prot = pd_le32(p + 64);
			m->flags = pd_le32(p + 68);
		}
		m->filename = scratch_name(f, p + fixed, name_bytes(size, fixed, trailer));
		break;
	}
	case SPE_PERF_RECORD_COMM:
		ev->u.comm.pid = pd_le32(p + 8);
		ev->u.comm.tid = pd_le32(p + 12);
		ev->u.comm.exec = !!(ev->misc & SPE_PERF_MISC_COMM_EXEC);
		ev->u.comm.comm = scratch_name(f, p + fixed, name_bytes(size, fixed, trailer));
		break;
	case SPE_PERF_RECORD_EXIT:
	case SPE_PERF_RECORD_FORK:
		ev->u.task.pid = pd_le32(p + 8);
		ev->u.task.ppid = pd_le32(p + 12);
		ev->u.task.tid = pd_le32(p + 16);
		ev->u.task.ptid = pd_le32(p + 20);
		ev->u.task.time = pd_le64(p + 24);
		break;
	case SPE_PERF_RECORD_LOST:
		ev->u.lost.id = pd_le64(p + 8);
		ev->u.lost.lost = pd_le64(p + 16);
		f->info.n_lost_events += ev->u.lost.lost;
		break;
	case SPE_PERF_RECORD_LOST_SAMPLES:
		ev->u.lost.lost = pd_le64(p + 8);
		break;
	case SPE_PERF_RECORD_AUX:
		ev->u.aux.aux_offset = pd_le64(p + 8);
		ev->u.aux.aux_size = pd_le64(p + 16);
		ev->u.aux.flags = pd_le64(p + 24);
		f->info.n_aux++;
		f->info.n_aux_truncated += !!(ev->u.aux.flags & SPE_PERF_AUX_TRUNCATED);
		f->info.n_aux_partial += !!(ev->u.aux.flags & SPE_PERF_AUX_PARTIAL);
		f->info.n_aux_collision += !!(ev->u.aux.flags & SPE_PERF_AUX_COLLISION);
		break;
	case SPE_PERF_RECORD_ITRACE_START:
		ev->u.itrace_start.pid = pd_le32(p + 8);
		ev->u.itrace_start.tid = pd_le32(p + 12);
		break;
	case SPE_PERF_RECORD_KSYMBOL:
		ev->u.ksymbol.addr = pd_le64(p + 8);
		ev->u.ksymbol.len = pd_le32(p + 16);
		ev->u.ksymbol.ksym_type = pd_le16(p + 20);
		ev->u.ksymbol.flags = pd_le16(p + 22);
		ev->u.ksymbol.name = scratch_name(f, p + fixed, name_bytes(size, fixed, trailer));
		break;
	case SPE_PERF_RECORD_BPF_EVENT:
		ev->u.bpf_event.type = pd_le16(p + 8);
		ev->u.bpf_event.flags = pd_le16(p + 10);
		ev->u.bpf_event.id = pd_le32(p + 12);
		memcpy(ev->u.bpf_event.tag, p + 16, 8);
		break;
	case SPE_PERF_RECORD_SWITCH:
	case SPE_PERF_RECORD_SWITCH_CPU_WIDE:
		ev->u.sw.out = !!(ev->misc & SPE_PERF_MISC_SWITCH_OUT);
		ev->u.sw.preempt = !!(ev->misc & SPE_PERF_MISC_SWITCH_OUT_PREEMPT);
		if (type == SPE_PERF_RECORD_SWITCH_CPU_WIDE) {
			ev->u.sw.next_prev_pid = pd_le32(p + 8);
			ev->u.sw.next_prev_tid = pd_le32(p + 12);
		}
		break;
	case SPE_PERF_RECORD_TIME_CONV: {
		struct spe_perf_time_conv *tc = &ev->u.time_conv;
		tc->time_shift = pd_le64(p + 8);
		tc->time_mult = pd_le64(p + 16);
		tc->time_zero = pd_le64(p + 24);
		if (size >= 56) {
			tc->time_cycles = pd_le64(p + 32);
			tc->time_mask = pd_le64(p + 40);
			tc->cap_user_time_zero = p[48];
			tc->cap_user_time_short = p[49];
			tc->long_form = 1;
		} else {
			tc->cap_user_time_zero = 1;
		}
		f->info.has_time_conv = 1;
		f->info.time_conv = *tc;
		break;
	}
	case SPE_PERF_RECORD_AUXTRACE_INFO: {
		int err = pd_parse_auxtrace_info(f, p, size, off, &ev->u.auxtrace_info);
		if (err)
			return err;
		f->info.has_auxtrace_info = 1;
		f->info.auxtrace_info = ev->u.auxtrace_info;
		break;
	}
	case SPE_PERF_RECORD_HEADER_ATTR: {
		uint32_t asz = pd_le32(p + 8 + 4);
		if (asz == 0)
			asz = PD_ATTR_MIN;
		if (asz < PD_ATTR_MIN || asz > size - 8)
			return pd_fail(f, -spe_bad_file, off, "HEADER_ATTR announces an attr of %u bytes in a %u-byte record",
				       asz, size);
		uint32_t nid = (size - 8 - asz) / 8;
		int err = pd_add_attr(f, p + 8, asz, p + 8 + asz, nid, off);
		if (err)
			return err;
		pd_update_sid_layout(f);
		break;
	}
	case SPE_PERF_RECORD_HEADER_FEATURE: {
		/*
		 * The writer ends the list with an empty record whose id is its
		 * HEADER_LAST_FEATURE (32 in perf 6.1, 35 in 7.2): no feature.
		 * Ids we do not know are skipped; one that does not parse too,
		 * with a warning (pd_parse_optional_feature).
		 */
		uint64_t bit = pd_le64(p + 8);
		ev->u.header_feature.feature = bit;
		if (bit < SPE_PERF_FEAT_COUNT && size > 16) {
			f->info.features[bit / 64] |= 1ull << (bit % 64);
			int err = pd_parse_optional_feature(f, (unsigned)bit, p + 16, size - 16, off + 16);
			if (err)
				return err;
		}
		break;
	}
	case SPE_PERF_RECORD_HEADER_BUILD_ID: {
		/* pipe mode: one entry of the BUILD_ID feature as an event */
		int err = pd_parse_optional_feature(f, SPE_PERF_FEAT_BUILD_ID, p, size, off);
		if (err)
			return err;
		break;
	}
	case SPE_PERF_RECORD_HEADER_TRACING_DATA:
		ev->u.tracing_data.size = pd_le32(p + 8);
		break;
	default:
		break;
	}
	return 0;
}

/* Does the end of the file (not a bad size inside a whole file) cut a record ending at @p rec_end? */
static int file_cut(const struct spe_perf_file *f, uint64_t rec_end)
{
	return !f->src.streamed && rec_end > f->src.len && f->end >= f->src.len;
}

/*
 * If the end of the input cuts the record at @p off, which should run to
 * @p rec_end, note where and how much is missing (spe_perf_info.cut); the
 * caller fails with its message.
 */
static void note_cut(struct spe_perf_file *f, uint64_t off, uint64_t rec_end)
{
	if (!f->src.streamed && !file_cut(f, rec_end))
		return; /* a size past the data section of a whole file: bad data, not a cut */
	uint64_t want = rec_end > f->end || f->end == UINT64_MAX ? rec_end : f->end;
	f->info.cut = 1;
	f->info.cut_offset = off;
	f->info.cut_bytes = f->src.streamed || want < f->src.len ? 0 : want - f->src.len;
}

static const char *name_or_a(uint32_t type)
{
	const char *n = spe_perf_record_name(type);
	return n ? n : "a";
}

/*
 * AUXTRACE: its data follows the record.  Sets *@p total (header.size plus
 * the data present) and *@p cut (data bytes the end of the file cut off).
 */
static int auxtrace_extent(struct spe_perf_file *f, uint64_t off, uint32_t size, uint64_t *total, uint64_t *cut)
{
	const uint8_t *p;
	if (pd_source_get(&f->src, off, PD_AUXTRACE_SIZE, &p)) {
		note_cut(f, off, off + size);
		return pd_fail(f, -spe_truncated, off, "the file ends inside an AUXTRACE record");
	}
	uint64_t dsize = pd_le64(p + 8), dend;
	*cut = 0;
	if (pd_add_ok(off + size, dsize, &dend) && dend > f->src.len && file_cut(f, dend)) {
		/* the end of the file cuts its data: the bytes present are returned, then -spe_truncated */
		*cut = dend - f->src.len;
		dsize -= *cut;
		dend = f->src.len;
		note_cut(f, off, off + size + dsize + *cut);
		pd_fail(f, -spe_truncated, off,
			"the file ends inside a %llu-byte AUXTRACE record: %llu of its %llu data bytes are present",
			(unsigned long long)(size + dsize + *cut), (unsigned long long)dsize,
			(unsigned long long)(dsize + *cut));
	}
	if (!pd_add_ok(off + size, dsize, &dend) || dend > f->end)
		return pd_fail(f, -spe_truncated, off, "AUXTRACE data of 0x%llx bytes runs past the end of the %s (0x%llx)",
			       (unsigned long long)dsize, f->end == UINT64_MAX ? "input" : "data section",
			       (unsigned long long)f->end);
	*total = size + dsize;
	return 0;
}

/*
 * HEADER_TRACING_DATA: a u32 count of bytes follows the record (the
 * tracepoint formats, perf pads them to 8), not counted in header.size.
 * perf reads them with the record (perf_event__process_tracing_data in
 * tools/perf/util/header.c); we skip them.  A stream cannot keep the
 * header while it reads past the payload: *@p p then points at a copy.
 */
static int skip_tracing_data(struct spe_perf_file *f, uint64_t off, uint32_t size, const uint8_t **p,
			     uint64_t *total)
{
	uint64_t payload = pd_le32(*p + 8), end = off + size + payload;
	if (end > f->end) {
		note_cut(f, off, end);
		return pd_fail(f, -spe_truncated, off,
			       "the %llu bytes after a HEADER_TRACING_DATA record run past the end of the %s (0x%llx)",
			       (unsigned long long)payload, f->end == UINT64_MAX ? "input" : "data section",
			       (unsigned long long)f->end);
	}
	if (f->src.streamed) {
		if (size > f->held_cap) {
			uint8_t *nh = realloc(f->held, size);
			if (!nh)
				return pd_fail(f, -spe_nomem, off, "out of memory");
			f->held = nh;
			f->held_cap = size;
		}
		memcpy(f->held, *p, size);
		*p = f->held;
		const uint8_t *unused;
		int err = pd_source_get(&f->src, end, 0, &unused);
		if (err == -spe_io)
			return pd_fail(f, err, off, "read error");
		if (err) {
			note_cut(f, off, end);
			return pd_fail(f, -spe_truncated, off,
				       "the input ends inside the %llu bytes after a HEADER_TRACING_DATA record",
				       (unsigned long long)payload);
		}
	}
	*total = size + payload;
	return 0;
}

/*
 * COMPRESSED (header + zstd bytes) or COMPRESSED2 (header + u64 data_size +
 * zstd bytes + zero padding to 8): hand the zstd bytes to the decompressor.
 */
static int begin_compressed(struct spe_perf_file *f, const uint8_t *p, uint32_t type, uint32_t size, uint64_t off)
{
	if (type == SPE_PERF_RECORD_COMPRESSED)
		return pd_decomp_begin(f, off, p + PD_EVENT_HEADER_SIZE, size - PD_EVENT_HEADER_SIZE);
	if (size < 16)
		return pd_fail(f, -spe_bad_file, off, "COMPRESSED2 record of %u bytes has no room for its data size", size);
	uint64_t n = pd_le64(p + 8);
	if (n > size - 16u)
		return pd_fail(f, -spe_bad_file, off, "COMPRESSED2 data size %llu exceeds its %u-byte record",
			       (unsigned long long)n, size);
	return pd_decomp_begin(f, off, p + 16, (size_t)n);
}

/*
 * The next record of the file itself at f->pos: 1 with @p ev filled, 0 when
 * it was a compressed record (handed to the decompressor), -spe_eos at the
 * end of the data, or an error (sticky).
 */
static int next_file_record(struct spe_perf_file *f, struct spe_perf_event *ev)
{
	if (f->pos >= f->end || (f->info.pipe_format && !f->src.streamed && f->pos >= f->src.len))
		return -spe_eos;
	const uint8_t *p;
	uint64_t off = f->pos;
	int err = pd_source_get(&f->src, off, PD_EVENT_HEADER_SIZE, &p);
	if (err == -spe_truncated && f->src.streamed && f->src.fill == 0 && f->src.eof)
		return -spe_eos; /* a pipe ending between records */
	if (err == -spe_io)
		return f->err = pd_fail(f, err, off, "read error");
	if (err) {
		note_cut(f, off, off + PD_EVENT_HEADER_SIZE);
		return f->err = pd_fail(f, -spe_truncated, off,
					"the file ends inside a record header (data section should run to 0x%llx)",
					(unsigned long long)f->end);
	}
	memset(ev, 0, sizeof *ev);
	ev->type = pd_le32(p);
	ev->misc = pd_le16(p + 4);
	ev->header_size = pd_le16(p + 6);
	ev->file_offset = off;
	uint32_t size = ev->header_size;
	/* the one thing that stops a walk: a size that does not move it */
	if (size < PD_EVENT_HEADER_SIZE)
		return f->err = pd_fail(f, -spe_bad_file, off, "record header size %u is smaller than 8 (type %u)", size,
					ev->type);
	if (off + size > f->end) {
		note_cut(f, off, off + size);
		return f->err = pd_fail(f, -spe_truncated, off, "%s record of %u bytes runs past the end of the data section (0x%llx)",
					name_or_a(ev->type), size, (unsigned long long)f->end);
	}
	uint64_t total = size, cut = 0;
	if (ev->type == SPE_PERF_RECORD_AUXTRACE && size >= PD_AUXTRACE_SIZE &&
	    (err = auxtrace_extent(f, off, size, &total, &cut)))
		return f->err = err;
	err = pd_source_get(&f->src, off, ev->type == SPE_PERF_RECORD_HEADER_TRACING_DATA ? size : total, &p);
	if (err == -spe_nomem)
		return f->err = pd_fail(f, err, off, "record of %llu bytes exceeds the stream buffer limit (%zu bytes)",
					(unsigned long long)total, f->cfg.max_stream_event);
	if (err == -spe_io)
		return f->err = pd_fail(f, err, off, "read error");
	if (err) {
		note_cut(f, off, off + total);
		return f->err = pd_fail(f, -spe_truncated, off, "the input ends inside a %llu-byte %s record",
					(unsigned long long)total, spe_perf_record_name(ev->type) ? spe_perf_record_name(ev->type) : "perf");
	}
	if (ev->type == SPE_PERF_RECORD_HEADER_TRACING_DATA && size >= PD_TRACING_DATA_MIN &&
	    (err = skip_tracing_data(f, off, size, &p, &total)))
		return f->err = err;
	if (ev->type == SPE_PERF_RECORD_COMPRESSED || ev->type == SPE_PERF_RECORD_COMPRESSED2) {
		if ((err = begin_compressed(f, p, ev->type, size, off)))
			return f->err = err;
		f->pos = off + total;
		pd_source_release(&f->src, off);
		return 0;
	}
	ev->raw = p;
	ev->total_size = total;
	if ((err = pd_parse_event(f, p, size, off, ev)))
		return f->err = err;
	if (ev->type == SPE_PERF_RECORD_AUXTRACE) {
		struct spe_perf_auxtrace *a = &ev->u.auxtrace;
		a->size = pd_le64(p + 8) - cut;
		a->cut = cut;
		a->offset = pd_le64(p + 16);
		a->reference = pd_le64(p + 24);
		a->idx = pd_le32(p + 32);
		a->tid = (int32_t)pd_le32(p + 36);
		a->cpu = (int32_t)pd_le32(p + 40);
		a->data_offset = off + size;
		a->data = p + size;
		f->info.n_auxtrace++;
		f->info.auxtrace_bytes += a->size;
	}
	f->pos = off + total;
	pd_source_release(&f->src, off);
	return 1;
}

int spe_perf_next(struct spe_perf_file *f, struct spe_perf_event *out, size_t out_size)
{
	if (!f || !out)
		return -spe_invalid;
	if (f->err)
		return f->err;
	if (f->info.cut) /* the cut AUXTRACE record was returned last: its message is already set */
		return f->err = -spe_truncated;
	struct spe_perf_event ev;
	int rc;
	for (;;) {
		/* the records compressed data completed first, then the file's next record */
		rc = pd_decomp_next(f, &ev);
		if (rc)
			break;
		rc = next_file_record(f, &ev);
		if (rc)
			break;
	}
	if (rc == -spe_eos) {
		int err = pd_decomp_finish(f);
		return err ? (f->err = err) : rc;
	}
	if (rc < 0)
		return f->err = rc;
	switch (ev.type) {
	case SPE_PERF_RECORD_MMAP: case SPE_PERF_RECORD_LOST: case SPE_PERF_RECORD_COMM:
	case SPE_PERF_RECORD_EXIT: case SPE_PERF_RECORD_FORK: case SPE_PERF_RECORD_MMAP2:
	case SPE_PERF_RECORD_AUX: case SPE_PERF_RECORD_ITRACE_START: case SPE_PERF_RECORD_LOST_SAMPLES:
	case SPE_PERF_RECORD_SWITCH: case SPE_PERF_RECORD_SWITCH_CPU_WIDE: case SPE_PERF_RECORD_HEADER_ATTR:
	case SPE_PERF_RECORD_KSYMBOL: case SPE_PERF_RECORD_BPF_EVENT:
	case SPE_PERF_RECORD_FINISHED_ROUND: case SPE_PERF_RECORD_AUXTRACE_INFO: case SPE_PERF_RECORD_AUXTRACE:
	case SPE_PERF_RECORD_TIME_CONV: case SPE_PERF_RECORD_HEADER_FEATURE: case SPE_PERF_RECORD_HEADER_BUILD_ID:
		break;
	default:
		f->info.n_skipped++;
	}
	f->info.n_events++;
	memcpy(out, &ev, out_size < sizeof ev ? out_size : sizeof ev);
	return 0;
}
