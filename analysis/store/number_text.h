/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Numbers as SQLite's text of them, without asking SQLite: printing a query
 * result converted every integer and float cell through SQLite's printf (a
 * quarter of `SELECT * FROM hot_pc` as CSV).
 */
#ifndef SPE_NUMBER_TEXT_H
#define SPE_NUMBER_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* Room for any text these write, with its NUL. */
#define NUMBER_TEXT_MAX 32

/* @p v as SQLite's printf('0x%x', v): 0x and lowercase digits of its 64 bits; returns the length. */
size_t ana_hex_text(char *buf, int64_t v);

/* @p v in decimal, as SQLite prints an INTEGER; returns the length. */
size_t ana_int64_text(char *buf, int64_t v);
/* @p v in decimal (all 64 bits unsigned); returns the length. */
size_t ana_uint64_text(char *buf, uint64_t v);

/*
 * @p v as SQLite prints a REAL ("%!.15g": 27.04, 3.0, 0.0001) when it is a
 * short decimal -- at most 6 places and 15 significant digits, 1e-4 <= |v| <
 * 1e15, or 0.0 -- which is what the views' round() gives; returns the
 * length, or 0 for any other value, which the caller has SQLite print.
 */
size_t ana_short_float_text(char *buf, double v);

/*
 * round(@p num / @p den, @p places) as SQLite's round() writes it before
 * reading it back as a REAL: the quotient rounded half up to @p places
 * (1..6) decimals, e.g. "27.04"; bound to a REAL column, SQLite reads it as
 * round() would.  Returns the length, or 0 -- ask SQLite's round() -- when
 * den is 0, a value is past 2^53, or the quotient is so near a half of the
 * last place (1e-13 of it, exactly half included) that SQLite's binary
 * arithmetic could round it either way.
 */
size_t ana_ratio_round_text(char *buf, uint64_t num, uint64_t den, int places);

#endif
