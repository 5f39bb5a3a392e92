#!/bin/sh
# spe-export --format=folded, line by line against the same stacks built in SQL
# from the spe_sample view: mapping base name; function; inlined function;
# file:line; +offset instruction [; memory level], weighted by total latency or
# by records, stacks of weight 0 left out.  With and without the binaries
# (--symfs): the frames are the database's either way.
#   cli_export_folded.sh RECORD LOAD QUERY EXPORT FIXTURES
set -u
. "$(dirname "$0")/../lib/testlib.sh"
record=$1 load=$2 query=$3 export=$4 fixtures=$5
. "$(dirname "$0")/export_lib.sh"
scratch_dir export-folded
db=$tmp/memwork.db
demo_db "$db"

# the stack of a spe_sample row, as spe-export(1) defines it
base="replace(mapping, rtrim(mapping, replace(mapping, '/', '')), '')"
stack="$base || ';' || symbol || coalesce(';' || inline_function, '') || ';' || src_file || ':' || src_line
       || ';' || printf('+0x%x', symbol_offset) || ' ' || mnemonic || ' ' || operands"
folded_sql() { # WEIGHT-EXPR [EXTRA-FRAME-EXPR]
	query "$db" "SELECT s || ' ' || w FROM (SELECT $stack ${2:-} AS s, $1 AS w FROM spe_sample GROUP BY s)
		     WHERE w > 0 ORDER BY s" | sed 's/^"//; s/"$//' | LC_ALL=C sort
}

want=$(folded_sql "sum(total_latency)")
expect sql_nonempty "$(echo "$want" | wc -l)" 5
got=$(export_ -d "$db" --format=folded 2>"$tmp/err")
expect latency_rc $? 0
expect latency "$(echo "$got" | LC_ALL=C sort)" "$want"
# sorted output: the same bytes every run
expect sorted "$got" "$(echo "$got" | LC_ALL=C sort)"
has summary "$(cat "$tmp/err")" "1200 records, 1200 exported as 5 stacks"
expect with_symfs "$(export_ -d "$db" --format=folded --symfs="$fixtures/elf" 2>/dev/null | LC_ALL=C sort)" "$want"

expect samples "$(export_ -d "$db" --format=folded --weight=samples 2>/dev/null | LC_ALL=C sort)" \
	"$(folded_sql "count(*)")"
expect split_mem_level "$(export_ -d "$db" --format=folded --split=mem_level 2>/dev/null | LC_ALL=C sort)" \
	"$(folded_sql "sum(total_latency)" "|| coalesce(';' || mem_level, '')")"
expect split_samples_where \
	"$(export_ -d "$db" --format=folded --split=mem_level --weight=samples --where="op_class = 'load'" 2>/dev/null |
		LC_ALL=C sort)" \
	"$(query "$db" "SELECT s || ' ' || count(*) FROM (SELECT $stack || coalesce(';' || mem_level, '') AS s
			FROM spe_sample WHERE op_class = 'load') GROUP BY s ORDER BY s" | sed 's/^"//; s/"$//' | LC_ALL=C sort)"
# every line is "frames weight" with a numeric weight after the last space (flamegraph.pl's reading)
expect shape "$(export_ -d "$db" --format=folded --split=mem_level 2>/dev/null | grep -cv '^[^;]*;[^;]*;.* [0-9][0-9]*$')" 0

# -o FILE: the same text in the file
export_ -d "$db" --format=folded -o "$tmp/out.folded" 2>/dev/null
expect to_file "$(LC_ALL=C sort "$tmp/out.folded")" "$want"
exit $fail
