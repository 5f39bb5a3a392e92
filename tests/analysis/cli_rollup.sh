#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# hot_pc and hot_symbol read _hot_pc/symbol_summary, which spe-load rolls
# up from pc_latency at the end of each load.  This checks every row of both
# views against the definition computed straight from pc_latency with window
# functions (nearest-rank percentiles, as docs/schema.md states) -- for
# hot_pc every column, joined with insn and symbol, in the view's order, and
# pc_summary's -- on a
# generated trace of many PCs loaded as one source, then again after a second
# and third --append (functions merged across sources, the summaries rebuilt
# each time, not added to); the same three files in one run (a new database,
# whose rollup reads what the load kept in memory), two raw files sharing PCs,
# and with --replace of a file loaded earlier in the run; and an append
# refused over a pc_latency row no load writes, leaving the database as it was.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
gen=$1 record=$2 load=$3 query=$4
scratch_dir cli-rollup
query() {
	${SPE_RUN:-} "$query" -d "$1" --format=csv "$2" | tr -d '\r'
}

# Per group: samples, total and timed latency, nearest-rank p50/p90/p99.
# $1: a SELECT of key columns plus total_latency and samples; $2: the key.
reference() {
	cat <<EOF
WITH lat AS (SELECT $2, total_latency AS lat, sum(samples) AS n FROM ($1) GROUP BY $2, total_latency),
cum AS (SELECT $2, lat, n,
  sum(CASE WHEN lat IS NULL THEN 0 ELSE n END) OVER (PARTITION BY $2 ORDER BY lat ROWS UNBOUNDED PRECEDING) AS below,
  sum(CASE WHEN lat IS NULL THEN 0 ELSE n END) OVER (PARTITION BY $2) AS timed FROM lat),
st AS (SELECT $2, sum(n) AS samples, sum(n * lat) AS total, max(timed) AS timed,
  min(CASE WHEN lat IS NOT NULL AND below * 100 >= timed * 50 THEN lat END) AS p50,
  min(CASE WHEN lat IS NOT NULL AND below * 100 >= timed * 90 THEN lat END) AS p90,
  min(CASE WHEN lat IS NOT NULL AND below * 100 >= timed * 99 THEN lat END) AS p99
  FROM cum GROUP BY $2),
e AS (SELECT sum(total_latency * samples) AS all_lat FROM pc_latency)
EOF
}
# hot_pc in full and in its order: total_latency DESC (NULL last), samples DESC, then the order in
# which the rollup met the (pc, insn) groups reading pc_histogram
pc_ref="$(reference "SELECT pc, insn_id, total_latency, samples FROM pc_latency" "pc, insn_id"),
first AS (SELECT pc, insn_id, min(rowid) AS seen FROM pc_histogram GROUP BY pc, insn_id)
SELECT printf('0x%x', st.pc), s.name, st.pc - s.start, i.file, i.line, i.mnemonic, i.operands,
  samples, total, round(1.0 * total / nullif(timed, 0), 2), p50, p90, p99,
  round(100.0 * total / nullif(e.all_lat, 0), 2), st.pc, st.insn_id
  FROM st CROSS JOIN e JOIN first f ON f.pc IS st.pc AND f.insn_id IS st.insn_id
  LEFT JOIN insn i ON i.id = st.insn_id LEFT JOIN symbol s ON s.id = i.symbol_id
  ORDER BY total IS NULL, total DESC, samples DESC, f.seen"
pc_got="SELECT * FROM hot_pc"
ps_ref="$(reference "SELECT pc, insn_id, total_latency, samples FROM pc_latency" "pc, insn_id")
SELECT pc, insn_id, samples, total, timed, p50, p90, p99 FROM st ORDER BY pc, insn_id"
ps_got="SELECT pc, insn_id, samples, total_latency, timed, p50, p90, p99 FROM pc_summary ORDER BY pc, insn_id"
# hot_pc's order: a row hotter than the one before it
pc_order="WITH v AS (SELECT row_number() OVER () AS n, coalesce(total_latency, -1) AS t, samples FROM hot_pc)
  SELECT count(*) FROM v a JOIN v b ON b.n = a.n + 1 WHERE b.t > a.t OR (b.t = a.t AND b.samples > a.samples)"
sym_ref="$(reference "SELECT s.name AS name, m.path AS path, p.total_latency, p.samples FROM pc_latency p
  LEFT JOIN symbol s ON s.id = p.symbol_id LEFT JOIN mapping m ON m.id = s.mapping_id" "name, path")
SELECT name, path, samples, total, round(1.0 * total / nullif(timed, 0), 2), p50, p90, p99,
  round(100.0 * total / nullif(e.all_lat, 0), 2) FROM st, e ORDER BY name, path"
sym_got="SELECT symbol, mapping, samples, total_latency, mean_latency, p50, p90, p99, latency_share
  FROM hot_symbol ORDER BY symbol, mapping"

check_views() { # label db
	ref=$(query "$2" "$pc_ref" | tail -n +2)
	got=$(query "$2" "$pc_got" | tail -n +2)
	expect "$1 hot_pc" "$got" "$ref"
	expect "$1 hot_pc order" "$(query "$2" "$pc_order" | tail -1)" 0
	# not vacuous: rows tied in (total_latency, samples) whose order the last key decides
	expect "$1 hot_pc ties" "$(query "$2" "SELECT count(*) > 10 FROM (SELECT 1 FROM hot_pc
	  GROUP BY total_latency, samples HAVING count(*) > 1)" | tail -1)" 1
	ref=$(query "$2" "$ps_ref" | tail -n +2)
	got=$(query "$2" "$ps_got" | tail -n +2)
	expect "$1 pc_summary" "$got" "$ref"
	ref=$(query "$2" "$sym_ref" | tail -n +2)
	got=$(query "$2" "$sym_got" | tail -n +2)
	expect "$1 hot_symbol" "$got" "$ref"
	# not vacuous: many PCs and functions, percentiles that differ
	n=$(query "$2" "SELECT count(*) > 1000, count(DISTINCT p90) > 10 FROM hot_pc" | tail -1)
	expect "$1 hot_pc rows" "$n" "1,1"
}

# 40,000 records over 3,000 PCs in 300 functions
${SPE_RUN:-} "$gen" "$tmp" 40000 3000 300 >/dev/null || { echo "FAIL gen_bench"; exit 1; }
${SPE_RUN:-} "$record" --replay="$tmp/bench.replay" -o "$tmp/trace.data" >/dev/null 2>&1 ||
	{ echo "FAIL replay"; exit 1; }
${SPE_RUN:-} "$load" "$tmp/trace.data" -o "$tmp/t.db" --symfs="$tmp" 2>/dev/null || { echo "FAIL load"; exit 1; }
check_views one_source "$tmp/t.db"
one=$(query "$tmp/t.db" "SELECT samples FROM hot_symbol LIMIT 1" | tail -1)

# the same records in two more files (a byte past the end of the perf.data, which readers ignore:
# other digests; spe-load refuses the same file twice)
for n in 2 3; do
	{ cat "$tmp/trace.data"; printf '%s' "$n"; } >"$tmp/trace-$n.data"
	${SPE_RUN:-} "$load" "$tmp/trace-$n.data" -o "$tmp/t.db" --symfs="$tmp" --append 2>/dev/null ||
		{ echo "FAIL append"; exit 1; }
done
check_views three_sources "$tmp/t.db"
three=$(query "$tmp/t.db" "SELECT samples FROM hot_symbol LIMIT 1" | tail -1)
expect top_symbol_tripled "$three" "$((one * 3))"
expect symbols_merged "$(query "$tmp/t.db" "SELECT count(*) = count(DISTINCT symbol) FROM hot_symbol" | tail -1)" 1

# the same three files in one spe-load run: a new database, so the rollup takes the
# pc_histogram rows from memory (rollup_feed.h) instead of the table the appends read;
# the views must be the same, row for row
${SPE_RUN:-} "$load" "$tmp/trace.data" "$tmp/trace-2.data" "$tmp/trace-3.data" -o "$tmp/one_run.db" \
	--symfs="$tmp" 2>/dev/null || { echo "FAIL one-run load"; exit 1; }
check_views one_run "$tmp/one_run.db"
for v in "SELECT * FROM hot_pc" "SELECT * FROM hot_symbol" "SELECT * FROM pc_summary ORDER BY pc, insn_id"; do
	expect "one_run_as_appends: $v" "$(query "$tmp/one_run.db" "$v")" "$(query "$tmp/t.db" "$v")"
done
# raw SPE files have no mappings, so no instruction rows: the two CPUs' files share their
# (pc, insn) groups, which the rollup merges -- from memory in one run, from the table by append
raw="--raw --midr=neoverse-n1"
${SPE_RUN:-} "$load" $raw "$tmp/bench-cpu0.bin" "$tmp/bench-cpu1.bin" -o "$tmp/raw_one_run.db" 2>/dev/null ||
	{ echo "FAIL raw load"; exit 1; }
${SPE_RUN:-} "$load" $raw "$tmp/bench-cpu0.bin" -o "$tmp/raw_appended.db" 2>/dev/null &&
	${SPE_RUN:-} "$load" $raw "$tmp/bench-cpu1.bin" -o "$tmp/raw_appended.db" --append 2>/dev/null ||
	{ echo "FAIL raw append"; exit 1; }
check_views raw_one_run "$tmp/raw_one_run.db"
expect raw_groups_shared "$(query "$tmp/raw_one_run.db" "SELECT (SELECT count(*) FROM pc_histogram) >
  (SELECT count(*) FROM hot_pc) + 1000" | tail -1)" 1
for v in "SELECT * FROM hot_pc" "SELECT * FROM hot_symbol" "SELECT * FROM pc_summary ORDER BY pc, insn_id"; do
	expect "raw_one_run_as_append: $v" "$(query "$tmp/raw_one_run.db" "$v")" "$(query "$tmp/raw_appended.db" "$v")"
done
# a file loaded twice (two copies) in one run with --replace: the second deletes the first's rows, so the
# rollup reads the table (what is left), not what the load kept
cp "$tmp/trace.data" "$tmp/trace-copy.data" # the same content: the same source digest
${SPE_RUN:-} "$load" "$tmp/trace.data" "$tmp/trace-copy.data" -o "$tmp/replaced.db" --replace \
	--symfs="$tmp" 2>/dev/null || { echo "FAIL replace load"; exit 1; }
check_views replaced "$tmp/replaced.db"
expect replaced_counted_once "$(query "$tmp/replaced.db" "SELECT samples FROM hot_symbol LIMIT 1" | tail -1)" "$one"

# a pc_histogram row no load writes (latency past the 16-bit counter): the next
# append's rollup refuses it, exit 65, and the database is left as it was
${SPE_RUN:-} "$query" -d "$tmp/t.db" --write \
	"INSERT INTO pc_histogram(source_id, pc, untimed, histogram) VALUES(1, 0, 0, '{\"70000\":1}')" >/dev/null
before=$(cksum <"$tmp/t.db")
{ cat "$tmp/trace.data"; printf 4; } >"$tmp/trace-4.data"
${SPE_RUN:-} "$load" "$tmp/trace-4.data" -o "$tmp/t.db" --symfs="$tmp" --append 2>"$tmp/err"
expect bad_row_rc $? 65
has bad_row_message "$(cat "$tmp/err")" "pc_histogram: a histogram no load writes (pc 0): {\"70000\":1}"
expect bad_row_unchanged "$(cksum <"$tmp/t.db")" "$before"

# a version-7 database, written before _hot_pc lost the names insn and symbol hold (17 columns,
# pc_value on every row): this build's views read it alike, and --append makes the table anew and
# the file version 8
if command -v sqlite3 >/dev/null; then
	cp "$tmp/one_run.db" "$tmp/old_hot.db"
	sqlite3 "$tmp/old_hot.db" "PRAGMA legacy_alter_table = ON;
	CREATE TABLE old_hot AS SELECT printf('0x%x', coalesce(h.pc_value, i.pc)) AS pc, s.name AS symbol,
	  coalesce(h.pc_value, i.pc) - s.start AS symbol_offset, i.file AS src_file, i.line AS src_line, i.mnemonic,
	  i.operands, h.samples, h.total_latency, round(1.0 * h.total_latency / nullif(h.timed, 0), 2) AS mean_latency,
	  h.p50, h.p90, h.p99, round(100.0 * h.total_latency / (SELECT sum(total_latency) FROM _hot_pc), 2) AS latency_share,
	  coalesce(h.pc_value, i.pc) AS pc_value, h.insn_id, h.timed
	  FROM _hot_pc h LEFT JOIN insn i ON i.id = h.insn_id LEFT JOIN symbol s ON s.id = i.symbol_id ORDER BY h.rowid;
	DROP TABLE _hot_pc; ALTER TABLE old_hot RENAME TO _hot_pc;
	DROP VIEW hot_pc; DROP VIEW pc_summary;
	CREATE VIEW hot_pc AS SELECT pc, symbol, symbol_offset, src_file, src_line, mnemonic, operands, samples,
	  total_latency, mean_latency, p50, p90, p99, latency_share, pc_value, insn_id FROM _hot_pc ORDER BY rowid;
	CREATE VIEW pc_summary AS SELECT pc_value AS pc, insn_id, samples, total_latency, timed, p50, p90, p99 FROM _hot_pc;
	UPDATE meta SET value = '7' WHERE key = 'schema_version'; PRAGMA user_version = 7;" ||
		{ echo "FAIL old _hot_pc"; exit 1; }
	expect old_hot_columns "$(query "$tmp/old_hot.db" "SELECT count(*) FROM pragma_table_info('_hot_pc')" | tail -1)" 17
	for v in "SELECT * FROM hot_pc" "SELECT * FROM pc_summary ORDER BY pc, insn_id"; do
		expect "old_hot_reads_alike: $v" "$(query "$tmp/old_hot.db" "$v")" "$(query "$tmp/one_run.db" "$v")"
	done
	{ cat "$tmp/trace.data"; printf 5; } >"$tmp/trace-5.data"
	${SPE_RUN:-} "$load" "$tmp/trace-5.data" -o "$tmp/old_hot.db" --symfs="$tmp" --append 2>/dev/null ||
		{ echo "FAIL append to old _hot_pc"; exit 1; }
	expect old_hot_remade "$(query "$tmp/old_hot.db" "SELECT group_concat(name, ' ') FROM pragma_table_info('_hot_pc')" | tail -1)" \
		"pc_value insn_id samples total_latency timed p50 p90 p99"
	expect old_hot_version "$(query "$tmp/old_hot.db" "SELECT (SELECT value FROM meta WHERE key = 'schema_version')
	  || ' ' || user_version FROM pragma_user_version" | tail -1)" "8 8"
	check_views old_hot_appended "$tmp/old_hot.db"
	# the file's own views (what sqlite3 reads) are version 8's: the same rows as spekit's
	for v in hot_pc pc_summary; do
		expect "old_hot_file_view_$v" "$(sqlite3 -csv "$tmp/old_hot.db" "SELECT * FROM $v" | tr -d '\r' | md5sum)" \
			"$(query "$tmp/old_hot.db" "SELECT * FROM $v" | tail -n +2 | md5sum)"
	done
	expect old_hot_four_sources "$(query "$tmp/old_hot.db" "SELECT samples FROM hot_symbol LIMIT 1" | tail -1)" "$((one * 4))"
else
	echo "SKIP old _hot_pc layout: no sqlite3"
fi

[ $fail -eq 0 ] && echo "ok cli_rollup"
exit $fail
