/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Test tool: what libspe's reader makes of a perf.data, in perf 6.1's own
 * words, so tests/perfdata/real_captures.sh can compare it with `perf
 * report -D` and `perf script` on the same file.
 *
 *   perf_events --events FILE
 *       one line per record spe_perf_next returns, as `perf report -D`
 *       heads each record it processes: "0xOFFSET [0xSIZE]: event: TYPE"
 *       (pipe mode: offsets after the 16-byte header, as perf counts them).
 *   perf_events --decoded FILE
 *       one line per record without its place in the file: type, size,
 *       whether it came out of compressed data and its offset in the
 *       decompressed stream, and a hash of its bytes (a COMPRESSED and a
 *       COMPRESSED2 file of the same stream must give the same lines).
 *   perf_events --sideband FILE
 *       the COMM, FORK, EXIT, MMAP and MMAP2 records the AUX layer hands
 *       spe-load (spe_aux_next in queue order, spe/aux.h), as `perf script
 *       --show-task-events --show-mmap-events` prints them after the
 *       sample's columns ("PERF_RECORD_COMM exec: true:12742/12742").
 *
 * Then "warning: ..." for each reader warning and a last line "end: eos", or
 * "end: " and the error message.  Exit 0, or 2 on a usage error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "spe/spe.h"

static void print_sideband(const struct spe_perf_event *ev)
{
	switch (ev->type) {
	case SPE_PERF_RECORD_COMM:
		printf("PERF_RECORD_COMM%s: %s:%u/%u\n", ev->u.comm.exec ? " exec" : "", ev->u.comm.comm,
		       ev->u.comm.pid, ev->u.comm.tid);
		break;
	case SPE_PERF_RECORD_FORK:
	case SPE_PERF_RECORD_EXIT:
		printf("PERF_RECORD_%s(%d:%d):(%d:%d)\n", ev->type == SPE_PERF_RECORD_FORK ? "FORK" : "EXIT",
		       (int)ev->u.task.pid, (int)ev->u.task.tid, (int)ev->u.task.ppid, (int)ev->u.task.ptid);
		break;
	case SPE_PERF_RECORD_MMAP: {
		const struct spe_perf_mmap *m = &ev->u.mmap;
		printf("PERF_RECORD_MMAP %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %s\n", (int)m->pid,
		       (int)m->tid, m->start, m->len, m->pgoff, ev->misc & SPE_PERF_MISC_MMAP_DATA ? 'r' : 'x',
		       m->filename);
		break;
	}
	case SPE_PERF_RECORD_MMAP2: {
		const struct spe_perf_mmap *m = &ev->u.mmap;
		printf("PERF_RECORD_MMAP2 %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, (int)m->pid, (int)m->tid,
		       m->start, m->len, m->pgoff);
		if (ev->misc & SPE_PERF_MISC_MMAP_BUILD_ID) {
			printf(" <");
			for (unsigned i = 0; i < m->build_id_size; i++)
				printf("%02x", m->build_id[i]);
			printf(">");
		} else {
			printf(" %02x:%02x %" PRIu64 " %" PRIu64, m->maj, m->min, m->ino, m->ino_generation);
		}
		printf("]: %c%c%c%c %s\n", m->prot & 1 ? 'r' : '-', m->prot & 2 ? 'w' : '-', m->prot & 4 ? 'x' : '-',
		       m->flags & 1 ? 's' : 'p', m->filename);
		break;
	}
	default:
		break;
	}
}

static void print_warnings(const struct spe_perf_file *f)
{
	struct spe_perf_info info;
	memset(&info, 0, sizeof info);
	spe_perf_get_info(f, &info, sizeof info);
	for (uint32_t i = 0; i < info.n_warnings; i++)
		if (spe_perf_warning(f, i))
			printf("warning: %s\n", spe_perf_warning(f, i));
}

static void events(struct spe_perf_file *f)
{
	struct spe_perf_info info;
	memset(&info, 0, sizeof info);
	spe_perf_get_info(f, &info, sizeof info);
	uint64_t bias = info.pipe_format ? 16 : 0;
	struct spe_perf_event ev;
	int rc;
	while ((rc = spe_perf_next(f, &ev, sizeof ev)) == 0)
		printf("%#" PRIx64 " [%#x]: event: %u\n", ev.file_offset - bias, ev.header_size, ev.type);
	print_warnings(f);
	printf("end: %s\n", rc == -spe_eos ? "eos" : spe_perf_errmsg(f));
}

static void decoded(struct spe_perf_file *f)
{
	struct spe_perf_event ev;
	int rc;
	while ((rc = spe_perf_next(f, &ev, sizeof ev)) == 0) {
		uint64_t h = 14695981039346656037ull; /* FNV-1a of the record's bytes */
		for (uint32_t i = 0; i < ev.header_size; i++)
			h = (h ^ ev.raw[i]) * 1099511628211ull;
		printf("type %u size %u compressed %d stream %#" PRIx64 " fnv %016" PRIx64 "\n", ev.type, ev.header_size,
		       ev.compressed, ev.stream_offset, h);
	}
	print_warnings(f);
	printf("end: %s\n", rc == -spe_eos ? "eos" : spe_perf_errmsg(f));
}

static void sideband(struct spe_perf_file *f)
{
	struct spe_aux_config cfg = SPE_OPTS(spe_aux_config, .perf = f, .order = SPE_AUX_ORDER_QUEUE,
					     .items = SPE_AUX_WANT_EVENTS | SPE_AUX_WANT_CHUNKS);
	struct spe_aux_decoder *aux = spe_aux_alloc_decoder(&cfg);
	struct spe_aux_item it;
	int type;
	while ((type = spe_aux_next(aux, &it, sizeof it)) > 0)
		if (type == SPE_AUX_EVENT)
			print_sideband(it.event);
	print_warnings(f);
	printf("end: %s\n", type == -spe_eos ? "eos" : spe_aux_errmsg(aux));
	spe_aux_free_decoder(aux);
}

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "--events") && strcmp(argv[1], "--decoded") && strcmp(argv[1], "--sideband"))) {
		fprintf(stderr, "usage: perf_events --events|--decoded|--sideband FILE\n");
		return 2;
	}
	struct spe_perf_file *f = spe_perf_alloc_file(NULL);
	if (!f || spe_perf_open(f, argv[2]) != 0) {
		if (f)
			print_warnings(f);
		printf("end: %s\n", f ? spe_perf_errmsg(f) : "out of memory");
		spe_perf_free_file(f);
		return 0;
	}
	if (!strcmp(argv[1], "--events"))
		events(f);
	else if (!strcmp(argv[1], "--decoded"))
		decoded(f);
	else
		sideband(f);
	spe_perf_free_file(f);
	return 0;
}
