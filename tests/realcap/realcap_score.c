/* SPDX-License-Identifier: Apache-2.0 */
/*
 * realcap_score --name=CASE --truth=FILE --perf=FILE --spe=FILE
 *
 * Scores one real-capture case: for every SPE record spe-splice added
 * (--truth, its truth file), what `perf script` printed for it (--perf: the
 * output of perf script --itrace=i1i --ns -F event,cpu,time,pid,tid,ip,sym,dso)
 * and what spe-load stored (--spe: spe-query --format=csv of cpu, ts, pc,
 * pid, tid, mapping path, symbol name), field by field: pid, tid, dso (the
 * mapped file) and sym.
 *
 * Matching, one to one: a perf sample is the record whose perf time it
 * carries (spe-splice gives every record its own timer tick, and perf time
 * is TIME_CONV applied to it, so the time is a key; the ip must then be the
 * record's PC); a spe-load row is the record of its (cpu, raw timestamp).
 *
 * Each field of each record is judged against the truth (what the recorded
 * machine ran, from spe-splice); where the truth is '-' (a raw address: not
 * asserted) perf's answer stands in for it when perf has one.  spe-load is
 * "wrong" when it names something else than the truth, "unknown" when it
 * names nothing; unknowns are split into those where perf is right and
 * those where perf is unknown or wrong too.
 *
 * Exit status: 0 when spe-load is never wrong, never unknown where perf is
 * right, and stored exactly the records added; 1 otherwise; 64 usage; 65 an
 * input it cannot read.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELD 512

enum { F_PID, F_TID, F_DSO, F_SYM, NF };
static const char *const field_name[NF] = { "pid", "tid", "dso", "sym" };

struct answer {
	int present;        /* a sample / row matched this record */
	char v[NF][FIELD];  /* "" = unknown */
	uint64_t ip;
};

struct truth {
	unsigned n;
	uint32_t cpu;
	uint64_t ts, time, pc;
	char v[NF][FIELD];  /* '|'-separated right answers; "-" = not asserted */
	int line;
	struct answer perf, spe;
};

static struct truth *recs;
static unsigned n_recs;

static void fatal(const char *file, int line, const char *what)
{
	fprintf(stderr, "realcap_score: %s:%d: %s\n", file, line, what);
	exit(65);
}

static char *slurp_line(FILE *f, char *buf, size_t cap)
{
	if (!fgets(buf, (int)cap, f))
		return NULL;
	buf[strcspn(buf, "\r\n")] = 0;
	return buf;
}

static void read_truth(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		fatal(path, 0, "cannot open");
	char line[4096];
	int ln = 0;
	while (slurp_line(f, line, sizeof line)) {
		ln++;
		if (line[0] == '#' || !line[0])
			continue;
		char *col[11];
		int nc = 0;
		for (char *save = NULL, *t = strtok_r(line, "\t", &save); t && nc < 11; t = strtok_r(NULL, "\t", &save))
			col[nc++] = t;
		if (nc != 11)
			fatal(path, ln, "expected 11 tab-separated columns");
		recs = realloc(recs, (n_recs + 1) * sizeof *recs);
		if (!recs)
			fatal(path, ln, "out of memory");
		struct truth *r = &recs[n_recs++];
		memset(r, 0, sizeof *r);
		r->n = (unsigned)strtoul(col[0], NULL, 10);
		r->cpu = (uint32_t)strtoul(col[1], NULL, 10);
		r->ts = strtoull(col[2], NULL, 10);
		r->time = strtoull(col[3], NULL, 10);
		r->pc = strtoull(col[4], NULL, 16);
		snprintf(r->v[F_PID], FIELD, "%s", col[6]);
		snprintf(r->v[F_TID], FIELD, "%s", col[7]);
		snprintf(r->v[F_DSO], FIELD, "%s", col[8]);
		snprintf(r->v[F_SYM], FIELD, "%s", col[9]);
		r->line = atoi(col[10]);
	}
	fclose(f);
}

/* A perf script line: "PID/TID [CPU] SEC.NSEC: EVENT: IP SYM (DSO)". */
static unsigned read_perf(const char *path, unsigned *unmatched)
{
	FILE *f = fopen(path, "r");
	if (!f)
		fatal(path, 0, "cannot open");
	char line[4096];
	unsigned samples = 0;
	*unmatched = 0;
	while (slurp_line(f, line, sizeof line)) {
		long pid, tid;
		unsigned cpu;
		unsigned long long sec, nsec, ip;
		char event[128];
		int pos = 0;
		if (sscanf(line, " %ld/%ld [%u] %llu.%llu: %127[^:]: %llx %n", &pid, &tid, &cpu, &sec, &nsec, event, &ip,
			   &pos) != 7 || !pos)
			continue;
		if (strcmp(event, "instructions"))
			continue;
		samples++;
		/* SYM (DSO): the DSO is in the last parentheses; SYM may hold parentheses and spaces */
		char *rest = line + pos;
		size_t rl = strlen(rest);
		char *open = NULL;
		if (rl && rest[rl - 1] == ')')
			for (char *p = rest; (p = strstr(p, " (")); p++)
				open = p;
		char sym[FIELD] = "", dso[FIELD] = "";
		if (open) {
			snprintf(sym, sizeof sym, "%.*s", (int)(open - rest), rest);
			snprintf(dso, sizeof dso, "%.*s", (int)(rl - (size_t)(open - rest) - 3), open + 2);
		} else {
			snprintf(sym, sizeof sym, "%.*s", (int)(sizeof sym - 1), rest);
		}
		uint64_t t = sec * 1000000000ull + nsec;
		struct truth *r = NULL;
		for (unsigned i = 0; i < n_recs && !r; i++)
			if (recs[i].time == t && !recs[i].perf.present)
				r = &recs[i];
		if (!r) {
			(*unmatched)++;
			continue;
		}
		r->perf.present = 1;
		r->perf.ip = ip;
		if (pid >= 0)
			snprintf(r->perf.v[F_PID], FIELD, "%ld", pid);
		if (tid >= 0)
			snprintf(r->perf.v[F_TID], FIELD, "%ld", tid);
		if (strcmp(dso, "[unknown]"))
			snprintf(r->perf.v[F_DSO], FIELD, "%s", dso);
		if (strcmp(sym, "[unknown]"))
			snprintf(r->perf.v[F_SYM], FIELD, "%s", sym);
	}
	fclose(f);
	return samples;
}

/* One RFC 4180 CSV record into @p col (at most @p max columns); returns the count. */
static int csv_split(char *line, char **col, int max)
{
	int n = 0;
	char *p = line;
	while (n < max) {
		char *out = p, *start = p;
		if (*p == '"') {
			p++;
			for (;;) {
				if (*p == '"' && p[1] == '"') {
					*out++ = '"';
					p += 2;
				} else if (*p == '"') {
					p++;
					break;
				} else if (!*p) {
					break;
				} else {
					*out++ = *p++;
				}
			}
		} else {
			while (*p && *p != ',')
				*out++ = *p++;
		}
		int more = *p == ',';
		*out = 0;
		col[n++] = start;
		if (!more)
			break;
		p++;
	}
	return n;
}

static unsigned read_spe(const char *path, unsigned *unmatched)
{
	FILE *f = fopen(path, "r");
	if (!f)
		fatal(path, 0, "cannot open");
	char line[4096];
	int ln = 0;
	unsigned rows = 0;
	*unmatched = 0;
	while (slurp_line(f, line, sizeof line)) {
		if (ln++ == 0)
			continue; /* the header */
		char *col[7];
		if (csv_split(line, col, 7) != 7)
			fatal(path, ln, "expected 7 CSV columns: cpu, ts, pc, pid, tid, path, name");
		rows++;
		uint32_t cpu = (uint32_t)strtoul(col[0], NULL, 10);
		uint64_t ts = strtoull(col[1], NULL, 10);
		struct truth *r = NULL;
		for (unsigned i = 0; i < n_recs && !r; i++)
			if (recs[i].cpu == cpu && recs[i].ts == ts && !recs[i].spe.present)
				r = &recs[i];
		if (!r) {
			(*unmatched)++;
			continue;
		}
		r->spe.present = 1;
		r->spe.ip = strtoull(col[2], NULL, 0);
		snprintf(r->spe.v[F_PID], FIELD, "%s", col[3]);
		snprintf(r->spe.v[F_TID], FIELD, "%s", col[4]);
		snprintf(r->spe.v[F_DSO], FIELD, "%s", col[5]);
		snprintf(r->spe.v[F_SYM], FIELD, "%s", col[6]);
	}
	fclose(f);
	return rows;
}

static int in_set(const char *set, const char *v)
{
	size_t vl = strlen(v);
	for (const char *p = set; *p;) {
		const char *bar = strchr(p, '|');
		size_t l = bar ? (size_t)(bar - p) : strlen(p);
		if (l == vl && !strncmp(p, v, l))
			return 1;
		if (!bar)
			break;
		p = bar + 1;
	}
	return 0;
}

enum verdict { RIGHT, WRONG, UNKNOWN, UNJUDGED };

static enum verdict judge(const char *truth, const char *v)
{
	if (!v[0])
		return UNKNOWN;
	if (!strcmp(truth, "-"))
		return UNJUDGED;
	return in_set(truth, v) ? RIGHT : WRONG;
}

struct counts {
	unsigned right, wrong, unk_perf_right, unk_perf_not, perf_wrong, perf_unknown, better_than_perf, unjudged;
};

int main(int argc, char **argv)
{
	static const struct option opts[] = { { "name", required_argument, NULL, 'n' },
					      { "truth", required_argument, NULL, 't' },
					      { "perf", required_argument, NULL, 'p' },
					      { "spe", required_argument, NULL, 's' },
					      { NULL, 0, NULL, 0 } };
	const char *name = "?", *truth = NULL, *perf = NULL, *spe = NULL;
	int c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'n')
			name = optarg;
		else if (c == 't')
			truth = optarg;
		else if (c == 'p')
			perf = optarg;
		else if (c == 's')
			spe = optarg;
		else
			return 64;
	}
	if (!truth || !perf || !spe || optind != argc) {
		fprintf(stderr, "usage: realcap_score --name=CASE --truth=FILE --perf=FILE --spe=FILE\n");
		return 64;
	}
	read_truth(truth);
	if (n_recs == 0)
		fatal(truth, 0, "no records");
	unsigned perf_unmatched, spe_unmatched;
	unsigned samples = read_perf(perf, &perf_unmatched);
	unsigned rows = read_spe(spe, &spe_unmatched);
	unsigned perf_matched = 0, spe_matched = 0, perf_ip_bad = 0, spe_ip_bad = 0;
	struct counts k[NF];
	memset(k, 0, sizeof k);
	for (unsigned i = 0; i < n_recs; i++) {
		struct truth *r = &recs[i];
		perf_matched += r->perf.present;
		spe_matched += r->spe.present;
		/* a sample at the record's time but another PC is not an answer about this record */
		if (r->perf.present && r->perf.ip != r->pc) {
			perf_ip_bad++;
			memset(r->perf.v, 0, sizeof r->perf.v);
		}
		if (r->spe.present && r->spe.ip != r->pc) {
			spe_ip_bad++;
			memset(r->spe.v, 0, sizeof r->spe.v);
		}
		for (int f = 0; f < NF; f++) {
			const char *t = r->v[f];
			/* not asserted: perf's answer, when it has one, is the reference */
			if (!strcmp(t, "-") && r->perf.v[f][0])
				t = r->perf.v[f];
			enum verdict pv = judge(t, r->perf.v[f]), sv = judge(t, r->spe.v[f]);
			struct counts *kc = &k[f];
			kc->perf_wrong += pv == WRONG;
			kc->perf_unknown += pv == UNKNOWN;
			kc->right += sv == RIGHT;
			kc->wrong += sv == WRONG;
			kc->unjudged += sv == UNJUDGED;
			kc->unk_perf_right += sv == UNKNOWN && pv == RIGHT;
			kc->unk_perf_not += sv == UNKNOWN && pv != RIGHT;
			kc->better_than_perf += sv == RIGHT && pv != RIGHT;
		}
	}
	printf("realcap %s: %u SPE records; perf script: %u of %u samples matched%s; spe-load: %u of %u rows matched\n",
	       name, n_recs, perf_matched, samples, perf_unmatched ? " (others at no record's time)" : "", spe_matched,
	       rows);
	if (perf_ip_bad || spe_ip_bad)
		printf("  at a record's time but another PC: perf %u, spe-load %u (their answers are not counted)\n",
		       perf_ip_bad, spe_ip_bad);
	printf("  %-5s %6s %6s %13s %13s %11s %13s %15s\n", "field", "right", "WRONG", "unk(perf ok)", "unk(perf not)",
	       "perf-wrong", "perf-unknown", "right(perf not)");
	unsigned wrong = 0, unk_right = 0;
	for (int f = 0; f < NF; f++) {
		printf("  %-5s %6u %6u %13u %13u %11u %13u %15u\n", field_name[f], k[f].right, k[f].wrong,
		       k[f].unk_perf_right, k[f].unk_perf_not, k[f].perf_wrong, k[f].perf_unknown, k[f].better_than_perf);
		wrong += k[f].wrong;
		unk_right += k[f].unk_perf_right;
	}
	int header = 0;
	for (unsigned i = 0; i < n_recs; i++) {
		const struct truth *r = &recs[i];
		for (int f = 0; f < NF; f++) {
			const char *t = strcmp(r->v[f], "-") || !r->perf.v[f][0] ? r->v[f] : r->perf.v[f];
			enum verdict pv = judge(t, r->perf.v[f]), sv = judge(t, r->spe.v[f]);
			if (pv == RIGHT && sv == RIGHT)
				continue;
			/* not asserted and nobody answers: nothing to say */
			if (!strcmp(t, "-") && pv != RIGHT && sv == UNKNOWN && r->spe.present)
				continue;
			if (!header++)
				printf("  disagreements (record, plan line, time, pc, field: truth | perf | spe-load):\n");
			printf("    #%u line %d %" PRIu64 " 0x%" PRIx64 " %s: %s | %s | %s%s\n", r->n, r->line, r->time, r->pc,
			       field_name[f], r->v[f], r->perf.present ? (r->perf.v[f][0] ? r->perf.v[f] : "[unknown]") : "(no sample)",
			       r->spe.present ? (r->spe.v[f][0] ? r->spe.v[f] : "NULL") : "(no row)",
			       sv == WRONG ? "  <- spe-load WRONG" : sv == UNKNOWN && pv == RIGHT ? "  <- spe-load unknown, perf right" : "");
		}
	}
	int fail = wrong || unk_right || spe_matched != n_recs || spe_unmatched;
	printf("  verdict: %s (spe-load wrong %u, unknown where perf is right %u, records missing %u, rows extra %u)\n",
	       fail ? "FAIL" : "pass", wrong, unk_right, n_recs - spe_matched, spe_unmatched);
	free(recs);
	return fail ? 1 : 0;
}
