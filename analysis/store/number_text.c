/* SPDX-License-Identifier: Apache-2.0 */
#include "number_text.h"

#include <math.h>
#include <string.h>

/* Digits of @p u, most significant first, at the end of @p tmp; returns where they start. */
static char *digits(char *end, uint64_t u)
{
	do {
		*--end = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	return end;
}

size_t ana_uint64_text(char *buf, uint64_t v)
{
	char tmp[24], *end = tmp + sizeof tmp;
	char *p = digits(end, v);
	size_t n = (size_t)(end - p);
	memcpy(buf, p, n);
	buf[n] = 0;
	return n;
}

size_t ana_int64_text(char *buf, int64_t v)
{
	if (v >= 0)
		return ana_uint64_text(buf, (uint64_t)v);
	*buf = '-';
	return 1 + ana_uint64_text(buf + 1, 0 - (uint64_t)v);
}

size_t ana_hex_text(char *buf, int64_t v)
{
	char tmp[24], *end = tmp + sizeof tmp, *p = end;
	uint64_t u = (uint64_t)v;
	do {
		*--p = "0123456789abcdef"[u & 15];
		u >>= 4;
	} while (u);
	*--p = 'x';
	*--p = '0';
	size_t n = (size_t)(end - p);
	memcpy(buf, p, n);
	buf[n] = 0;
	return n;
}

static const double pow10_of[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6 };

/*
 * A decimal m / 10^k of at most 15 significant digits whose nearest double
 * is v rounds back to itself at 15 significant digits: the double is within
 * half an ulp (1.1e-16 relative) of it, the 15-digit grid 1e-15 apart or
 * more.  So "%.15g" of v shows that decimal, trailing zeros dropped, and
 * SQLite's '!' keeps one zero after the point of a whole number.
 */
size_t ana_short_float_text(char *buf, double v)
{
	if (v == 0) {
		if (signbit(v))
			return 0;
		memcpy(buf, "0.0", 4);
		return 3;
	}
	double a = fabs(v);
	if (!(a >= 1e-4 && a < 1e15))
		return 0; /* NaN, infinities, and what %g shows with an exponent */
	for (int k = 0; k < (int)(sizeof pow10_of / sizeof *pow10_of); k++) {
		double s = a * pow10_of[k];
		if (s >= 1e15)
			return 0; /* more than 15 significant digits */
		uint64_t m = (uint64_t)llround(s);
		if ((double)m / pow10_of[k] != a)
			continue;
		char tmp[40], *end = tmp + sizeof tmp, *p = end;
		if (k == 0) {
			*--p = '0';
			*--p = '.';
			p = digits(p, m);
		} else {
			for (int i = 0; i < k; i++, m /= 10)
				*--p = (char)('0' + m % 10);
			*--p = '.';
			p = digits(p, m);
		}
		if (v < 0)
			*--p = '-';
		size_t n = (size_t)(end - p);
		memcpy(buf, p, n);
		buf[n] = 0;
		return n;
	}
	return 0;
}

size_t ana_ratio_round_text(char *buf, uint64_t num, uint64_t den, int places)
{
	const uint64_t exact = 1ull << 53; /* SQLite divides doubles: both convert exactly below this */
	if (!den || num >= exact || den >= exact || places < 1 || places >= (int)(sizeof pow10_of / sizeof *pow10_of))
		return 0;
	unsigned __int128 n = (unsigned __int128)num * (uint64_t)pow10_of[places];
	uint64_t q = (uint64_t)(n / den), rem = (uint64_t)(n % den);
	if (q >= exact)
		return 0;
	/* distance from a half of the last place, in last places: |2 rem - den| / 2 den */
	unsigned __int128 twice = (unsigned __int128)rem * 2;
	uint64_t off = (uint64_t)(twice > den ? twice - den : den - twice);
	if ((double)off / (2.0 * (double)den) <= ((double)q + 1.0) * 1e-13)
		return 0;
	uint64_t m = q + (twice > den);
	char tmp[40], *end = tmp + sizeof tmp, *p = end;
	for (int i = 0; i < places; i++, m /= 10)
		*--p = (char)('0' + m % 10);
	*--p = '.';
	p = digits(p, m);
	size_t len = (size_t)(end - p);
	memcpy(buf, p, len);
	buf[len] = 0;
	return len;
}
