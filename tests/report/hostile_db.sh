#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# A database someone sends: spe-report (text, JSON, page) and spe-export on
# copies of a real load made wrong in each way a file can be, and the exit
# status and message each must give (spe-report(1), spe-export(1), EXIT STATUS):
#  - a corrupted page (0xff over three pages of a copy): 65, "database disk image is
#    malformed" with what was read, never an empty section and exit 0;
#  - a view dropped, a table dropped: 65 "no such table", not 74;
#  - text where a number is expected: 65, naming the column;
#  - the temporary directory full (a 64 KiB tmpfs, when mount works): 74, "database or
#    disk is full", not "no record has a data address";
#  - a recursive view that never ends under a name the report reads: stopped at
#    --timeout (69);
#  - a view building a 900 MB string: refused at the default --max-memory (69, "needs
#    more than --max-memory"), and with no cap under ulimit -v, "out of memory" (69);
#  - a 20 MB name: every text and the page bounded (the value cut at 4096 characters,
#    the count said), the page far smaller than the value;
#  - --diff of databases named run#2.db and load%41.db (beside run and loadA.db, other
#    captures): each side is the file named, not what an unescaped URI opens;
#  - export sums that would pass 2^64: held at the largest value, with a warning.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
record=$1 load=$2 query=$3 report=$4 export=$5 fx=$6
scratch_dir report-hostile-db
run() { ${SPE_RUN:-} "$@"; }
run "$record" --replay="$fx/workloads/traces/datawork.replay" -o "$tmp/d.data" >/dev/null 2>&1 ||
	{ echo "FAIL replay"; exit 1; }
run "$load" "$tmp/d.data" -o "$tmp/d.db" --symfs="$fx/elf" 2>/dev/null || { echo "FAIL load"; exit 1; }
q() { db=$1; shift; run "$query" -d "$tmp/$db" --write "$@" >/dev/null || echo "FAIL crafting $db: $*"; }
rep() { run "$report" "$@" >"$tmp/out" 2>"$tmp/err"; echo "$?"; }
exp() { run "$export" "$@" >"$tmp/out" 2>"$tmp/err"; echo "$?"; }

# a corrupted page: the last pages of the file (pc_histogram's, the memory summaries')
cp "$tmp/d.db" "$tmp/corrupt.db"
head -c $((8192 * 3)) /dev/zero | tr '\0' '\377' | dd of="$tmp/corrupt.db" bs=8192 seek=54 conv=notrunc 2>/dev/null
expect corrupt_text "$(rep -d "$tmp/corrupt.db")" 65
has corrupt_text_msg "$(cat "$tmp/err")" "database disk image is malformed"
expect corrupt_json "$(rep -d "$tmp/corrupt.db" --format=json)" 65
expect corrupt_html "$(rep -d "$tmp/corrupt.db" --html="$tmp/c.html")" 65
has corrupt_html_msg "$(cat "$tmp/err")" ": database disk image is malformed"
has corrupt_html_query "$(cat "$tmp/err")" "query "
expect corrupt_no_page "$(ls "$tmp" | grep -c 'c.html')" 0
cp "$tmp/d.db" "$tmp/corrupt2.db"
head -c $((8192 * 3)) /dev/zero | tr '\0' '\377' | dd of="$tmp/corrupt2.db" bs=8192 seek=40 conv=notrunc 2>/dev/null
expect corrupt_count "$(rep -d "$tmp/corrupt2.db")" 65
has corrupt_count_msg "$(cat "$tmp/err")" "counting the SPE records: database disk image is malformed"
expect corrupt_export "$(exp -d "$tmp/corrupt2.db" --format=folded)" 65
has corrupt_export_msg "$(cat "$tmp/err")" "malformed"

# a view dropped (the text report's pc_latency), a table dropped (the memory section's data_object)
cp "$tmp/d.db" "$tmp/noview.db"
q noview.db "DROP VIEW pc_latency"
expect noview_text "$(rep -d "$tmp/noview.db")" 65
has noview_msg "$(cat "$tmp/err")" "query hot symbols: no such table: pc_latency"
cp "$tmp/d.db" "$tmp/notable.db"
q notable.db "DROP TABLE data_object"
expect notable_text "$(rep -d "$tmp/notable.db")" 65
has notable_msg "$(cat "$tmp/err")" "memory section: no such table"
expect notable_export "$(exp -d "$tmp/notable.db" --format=pprof --by=data -o "$tmp/p.pb.gz")" 65
has notable_export_msg "$(cat "$tmp/err")" "no such table"

# text where a number is expected
cp "$tmp/d.db" "$tmp/text.db"
q text.db "UPDATE symbol SET line = 'x' || line"
expect textnum "$(rep -d "$tmp/text.db")" 65
has textnum_msg "$(cat "$tmp/err")" "holds text where a number is expected"

# the temporary directory full: a view whose materialized rows (10 MB) spill past SQLite's 2 MB cache
cp "$tmp/d.db" "$tmp/sort.db"
q sort.db "DROP VIEW pc_latency; CREATE VIEW pc_latency AS
	WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r LIMIT 20000),
	     b AS MATERIALIZED (SELECT x, randomblob(500) AS pad FROM r)
	SELECT 1 AS source_id, x AS pc, NULL AS insn_id, 1 + x % 7 AS symbol_id, x AS total_latency, length(pad) AS samples
	FROM b"
mkdir -p "$tmp/tiny"
if mount -t tmpfs -o size=64k tmpfs "$tmp/tiny" 2>/dev/null; then
	expect full_tmp "$(SQLITE_TMPDIR="$tmp/tiny" rep -d "$tmp/sort.db")" 74
	has full_tmp_msg "$(cat "$tmp/err")" "query hot symbols: database or disk is full"
	expect full_tmp_ok "$(rep -d "$tmp/sort.db")" 0 # the same with room
	umount "$tmp/tiny"
else
	echo "SKIP full temporary directory: cannot mount a tmpfs here"
fi

# a recursive view that never ends: --timeout stops it (text, page, export)
cp "$tmp/d.db" "$tmp/loop.db"
q loop.db "DROP VIEW pc_latency; CREATE VIEW pc_latency AS
	WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r)
	SELECT 1 AS source_id, x AS pc, NULL AS insn_id, 1 AS symbol_id, x AS total_latency, 1 AS samples FROM r;
	DROP VIEW hot_symbol; CREATE VIEW hot_symbol AS
	WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r)
	SELECT 'f' AS symbol, NULL AS mapping, NULL AS src_file, 0 AS src_line, sum(x) AS samples, 0 AS total_latency,
	       0 AS mean_latency, 0 AS p50, 0 AS p90, 0 AS p99, 0 AS latency_share, 1 AS symbol_id FROM r"
start=$(date +%s)
expect loop_text "$(rep -d "$tmp/loop.db" --timeout=1)" 69
has loop_text_msg "$(cat "$tmp/err")" "ran past --timeout=1 seconds"
expect loop_html "$(rep -d "$tmp/loop.db" --timeout=1 --html="$tmp/loop.html")" 69
expect loop_no_page "$(ls "$tmp" | grep -c 'loop.html')" 0
q loop.db "DROP VIEW spe_sample; CREATE VIEW spe_sample AS WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r)
	SELECT x AS id FROM r"
expect loop_export "$(exp -d "$tmp/loop.db" --format=folded --where='id < 0' --timeout=1)" 69
expect loop_fast "$(($(date +%s) - start < 60))" 1

# a view building a 900 MB string: the default cap refuses it; with none, the system's allocator under ulimit -v
cp "$tmp/d.db" "$tmp/huge.db"
q huge.db "DROP VIEW hot_symbol; CREATE VIEW hot_symbol AS
	SELECT printf('%.*c', 900000000, 'x') AS symbol, NULL AS mapping, NULL AS src_file, 0 AS src_line, 1 AS samples,
	       1 AS total_latency, 1 AS mean_latency, 1 AS p50, 1 AS p90, 1 AS p99, 100 AS latency_share, 1 AS symbol_id"
expect huge_cap "$(rep -d "$tmp/huge.db" --html="$tmp/h.html")" 69
has huge_cap_msg "$(cat "$tmp/err")" "needs more than --max-memory=536870912 bytes"
if ldd "$report" 2>/dev/null | grep -q libasan || [ -n "${SPE_RUN:-}" ]; then
	echo "SKIP ulimit -v: a sanitizer's or an emulator's address space"
else
	expect huge_oom "$( (ulimit -v 700000; rep -d "$tmp/huge.db" --html="$tmp/h.html" --max-memory=0))" 69
	has huge_oom_msg "$(cat "$tmp/err")" "out of memory"
	case "$(cat "$tmp/err")" in *max-memory*) echo "FAIL huge_oom_blamed_on_cap: $(cat "$tmp/err")"; fail=1 ;; esac
fi

# a 200 KB name: cut on the text and the page, the count said; the page stays small
cp "$tmp/d.db" "$tmp/long.db"
q long.db "UPDATE symbol SET name = printf('%.*c', 200000, 'y') WHERE name = 'scatter'"
expect long_text "$(rep -d "$tmp/long.db")" 0
expect long_text_size "$(($(wc -c <"$tmp/out") < 50000))" 1
has long_text_cut "$(cat "$tmp/out")" "$(printf '%4095s' '' | tr ' ' y)…"
has long_text_said "$(cat "$tmp/err")" "longer than 4096 characters"
expect long_html "$(rep -d "$tmp/long.db" --html="$tmp/long.html")" 0
expect long_html_size "$(($(wc -c <"$tmp/long.html") < 1000000))" 1
has long_html_said "$(cat "$tmp/long.html")" "longer than 4096 characters: shown cut"

# --diff of databases whose names a URI reads otherwise: run#2.db beside run, load%41.db beside loadA.db
cp "$tmp/d.db" "$tmp/run#2.db"
cp "$tmp/d.db" "$tmp/load%41.db"
cp "$tmp/d.db" "$tmp/run"
cp "$tmp/d.db" "$tmp/loadA.db"
q run "UPDATE pc_histogram SET untimed = untimed + 1000000"
q loadA.db "UPDATE pc_histogram SET untimed = untimed + 1000000"
for b in 'run#2.db' 'load%41.db'; do
	expect "diff_$b" "$(rep --diff "$tmp/d.db" "$tmp/$b" --format=json)" 0
	# the same capture on both sides: every row noise, the same samples
	expect "diff_${b}_same" "$(grep -o '"verdict": "[a-z]*"' "$tmp/out" | sort -u)" '"verdict": "noise"'
	has "diff_${b}_samples" "$(head -c 200 "$tmp/out")" '"samples": 2020}, "b": {"sources": "source 1 (d.data)", "samples": 2020}'
done

# export sums past 2^64: held, and said
cp "$tmp/d.db" "$tmp/sum.db"
q sum.db "UPDATE _spe_record SET $(run "$query" -d "$tmp/d.db" --format=csv "SELECT name FROM pragma_table_info('_spe_record') WHERE name LIKE '%total%' LIMIT 1" | tail -1 | tr -d '\r') = 9000000000000000000"
expect sum_rc "$(exp -d "$tmp/sum.db" --format=folded)" 0
has sum_warned "$(cat "$tmp/err")" "latency sums passed 2^64"
expect sum_max "$(sort -k2 -n "$tmp/out" | awk '{ print $NF }' | tail -1)" 18446744073709551615
exit $fail
