/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Requests: setting terms from --options and parsing perf event strings.
 * Values are decimal or 0x hex; masks also take a comma-separated list of
 * bit numbers or (event_filter, inv_event_filter) facts.h event names.
 */
#include "diag.h"
#include "spe/facts.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void spe_filter_request_init(struct spe_filter_request *req)
{
	memset(req, 0, sizeof *req);
}

/* Parse a whole decimal or 0x-hex number of @p len bytes. */
static bool parse_number(const char *s, size_t len, uint64_t *out)
{
	char buf[32];
	if (len == 0 || len >= sizeof buf || !isdigit((unsigned char)s[0]))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	char *end;
	errno = 0;
	unsigned long long v = strtoull(buf, &end, 0);
	if (errno || *end || (buf[0] == '0' && len > 1 && buf[1] != 'x' && buf[1] != 'X'))
		return false; /* no octal: "010" is a mistake, not 8 */
	*out = v;
	return true;
}

static int event_bit_by_name(const char *s, size_t len)
{
#define SPE_X(bit, id, word, column, since, desc)                          \
	if (strlen(column) == len && strncmp(s, column, len) == 0)          \
		return bit;
	SPE_EVENT_LIST(SPE_X)
#undef SPE_X
	return -spe_invalid;
}

/*
 * A mask value: one number is the mask itself; a list (a comma, or any
 * name) is a set of bit numbers and names.  Returns false with the bad
 * item in *bad / *bad_len.
 */
static bool parse_mask(const char *v, bool names, uint64_t *out, const char **bad, size_t *bad_len)
{
	size_t len = strlen(v);
	if (!strchr(v, ',') && parse_number(v, len, out))
		return true;
	uint64_t mask = 0;
	const char *p = v;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		uint64_t bit;
		int named = names ? event_bit_by_name(p, n) : -1;
		if (named >= 0)
			mask |= 1ull << named;
		else if (parse_number(p, n, &bit) && bit < 64)
			mask |= 1ull << bit;
		else {
			*bad = p;
			*bad_len = n;
			return false;
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	*out = mask;
	return true;
}

int spe_filter_set_term(struct spe_filter_request *req, const char *name, const char *value)
{
	size_t nlen = strlen(name);
	int t = spe_term_lookup(name, nlen);
	while (*name == '-')
		name++;
	if (t < 0) {
		filt_diag_add(&req->diags, SPE_MSG_UNKNOWN_TERM, true, name, "not an arm_spe term (see --list-filters)");
		return -spe_invalid;
	}
	const struct spe_term_info *info = spe_term_info(t);
	uint64_t v = 1;
	const char *bad = value;
	size_t bad_len = value ? strlen(value) : 0;
	bool ok = true;
	if (!value) {
		if (info->kind != SPE_TERM_FLAG) {
			filt_diag_add(&req->diags, SPE_MSG_BAD_VALUE, true, info->name, "needs a value (%s=N)", info->name);
			return -spe_invalid;
		}
	} else if (info->kind == SPE_TERM_EVENTS || info->kind == SPE_TERM_SOURCES) {
		ok = parse_mask(value, info->kind == SPE_TERM_EVENTS, &v, &bad, &bad_len);
	} else {
		ok = parse_number(value, strlen(value), &v);
	}
	if (!ok) {
		const char *expect = info->kind == SPE_TERM_EVENTS    ? "a number, or a list of event names and bit numbers"
				     : info->kind == SPE_TERM_SOURCES ? "a number, or a list of bit numbers 0-63"
				     : info->kind == SPE_TERM_FLAG    ? "0 or 1"
								      : "a decimal or 0x-hex number";
		filt_diag_add(&req->diags, SPE_MSG_BAD_VALUE, true, info->name, "'%.*s' is not %s", (int)bad_len, bad,
			      expect);
		return -spe_invalid;
	}
	if (info->kind == SPE_TERM_FLAG && v > 1) {
		filt_diag_add(&req->diags, SPE_MSG_VALUE_TOO_BIG, true, info->name,
			      "value %llu too big for a one-bit field (0 or 1)", (unsigned long long)v);
		return -spe_invalid;
	}
	req->value[t] = v;
	req->set[t] = true;
	return 0;
}

/* period=N and freq=N: perf's own terms, not format fields. */
static int set_perf_term(struct spe_filter_request *req, const char *name, size_t nlen, const char *value)
{
	uint64_t v;
	bool period = nlen == 6 && !strncmp(name, "period", 6);
	if (!value || !parse_number(value, strlen(value), &v)) {
		filt_diag_add(&req->diags, SPE_MSG_BAD_VALUE, true, period ? "period" : "freq",
			      "'%s' is not a decimal or 0x-hex number", value ? value : "");
		return -spe_invalid;
	}
	if (period) {
		req->period_set = true;
		req->period = v;
	} else {
		req->freq_set = true;
		req->freq = v;
	}
	return 0;
}

static bool is_perf_term(const char *s, size_t n)
{
	return (n == 6 && !strncmp(s, "period", 6)) || (n == 4 && !strncmp(s, "freq", 4));
}

/* Apply one "name[=value]" item (value text already joined). */
static int apply_item(struct spe_filter_request *req, const char *item)
{
	const char *eq = strchr(item, '=');
	size_t nlen = eq ? (size_t)(eq - item) : strlen(item);
	if (is_perf_term(item, nlen))
		return set_perf_term(req, item, nlen, eq ? eq + 1 : NULL);
	char name[64];
	if (nlen >= sizeof name) {
		filt_diag_add(&req->diags, SPE_MSG_UNKNOWN_TERM, true, "event", "term name '%.20s...' is too long", item);
		return -spe_invalid;
	}
	memcpy(name, item, nlen);
	name[nlen] = '\0';
	return spe_filter_set_term(req, name, eq ? eq + 1 : NULL);
}

/* Apply "u", "k", ":u" style modifiers. */
static int apply_modifiers(struct spe_filter_request *req, const char *mods)
{
	bool u = false, k = false;
	for (const char *p = mods; *p; p++) {
		if (*p == 'u')
			u = true;
		else if (*p == 'k')
			k = true;
		else if (*p != ':') {
			filt_diag_add(&req->diags, SPE_MSG_BAD_VALUE, true, "event", "unknown event modifier '%c' (u, k)", *p);
			return -spe_invalid;
		}
	}
	if (u || k) {
		req->exclude_user = !u;
		req->exclude_kernel = !k;
		req->kernel_explicit = k;
	}
	return 0;
}

/* Does "name=..." name a mask term (whose value a following item may continue)? */
static bool is_mask_item(const char *item, size_t len)
{
	const char *eq = memchr(item, '=', len);
	int t = eq ? spe_term_lookup(item, (size_t)(eq - item)) : -1;
	if (t < 0)
		return false;
	enum spe_term_kind k = spe_term_info(t)->kind;
	return k == SPE_TERM_EVENTS || k == SPE_TERM_SOURCES;
}

int spe_filter_parse_terms(struct spe_filter_request *req, const char *text)
{
	const char *body = text, *end = text + strlen(text);
	const char *slash = strchr(text, '/');
	if (slash) {
		size_t plen = (size_t)(slash - text);
		const char *close = strrchr(text, '/');
		bool name_ok = plen >= 7 && !strncmp(text, "arm_spe", 7) && plen < sizeof req->pmu;
		for (size_t i = 7; name_ok && i < plen; i++)
			name_ok = i == 7 ? text[i] == '_' && plen > 8 : isdigit((unsigned char)text[i]);
		if (!name_ok || close == slash) {
			filt_diag_add(&req->diags, SPE_MSG_BAD_PMU, true, "event",
				      "'%.*s' is not arm_spe/terms/ or arm_spe_N/terms/", (int)(plen < 40 ? plen : 40), text);
			return -spe_invalid;
		}
		memcpy(req->pmu, text, plen);
		req->pmu[plen] = '\0';
		body = slash + 1;
		end = close;
		if (apply_modifiers(req, close + 1))
			return -spe_invalid;
	}
	/* Split on commas; join items without '=' that are not terms onto the previous one. */
	char item[512];
	size_t ilen = 0;
	int rc = 0;
	bool have = false;
	for (const char *p = body; p <= end; p++) {
		const char *next = memchr(p, ',', (size_t)(end - p));
		if (!next)
			next = end;
		size_t n = (size_t)(next - p);
		bool continues = have && n > 0 && !memchr(p, '=', n) && spe_term_lookup(p, n) < 0 &&
				 !is_perf_term(p, n) && is_mask_item(item, ilen);
		if (continues && ilen + 1 + n < sizeof item) {
			item[ilen++] = ',';
			memcpy(item + ilen, p, n);
			ilen += n;
		} else {
			if (have) {
				item[ilen] = '\0';
				rc |= apply_item(req, item);
			}
			have = n > 0;
			ilen = n < sizeof item ? n : sizeof item - 1;
			memcpy(item, p, ilen);
		}
		p = next;
	}
	if (have) {
		item[ilen] = '\0';
		rc |= apply_item(req, item);
	}
	return rc ? -spe_invalid : 0;
}
