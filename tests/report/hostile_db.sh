#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# A database someone sends: spe-report (text, JSON, page) and spe-export on
# copies of a real load made wrong in each way a file can be, and the exit
# status and message each must give (spe-report(1), spe-export(1), EXIT STATUS):
#  - a corrupted page (0xff over three pages of a copy): 65, "database disk image is
#    malformed" with what was read, never an empty section and exit 0;
#  - a view dropped, or replaced by one that lies (fake counts): the report is the
#    untouched database's byte for byte, exit 0 (spekit's own views as TEMP views,
#    analysis/store/db_trust.c); the lie stays in the file;
#  - a database of an earlier build (a column added within the version missing, its
#    older view): read-only, the same report and hot_symbol rows;
#  - a table replaced by a view (a recursive symbol): 65, naming it (report and export);
#  - a table dropped: 65 "no such table", not 74;
#  - text where a number is expected: 65, naming the column;
#  - a real table made big (a 23 MB pc_histogram histogram): the temporary directory
#    full (a 64 KiB tmpfs, when mount works) 74, "database or disk is full"; --timeout=1
#    69; --max-memory=16M 69, "needs more than --max-memory"; with no cap under
#    ulimit -v, "out of memory" (69) not blamed on the cap;
#  - export's --where (the user's SQL) looping forever: --timeout (69); building a
#    900 MB string: the default --max-memory (69) (a report query that never ends
#    needed an object of the file's in place of spekit's; its views are its own now);
#  - triggers (on source, on meta): spe-load --append and spe-query --write run none of
#    them, every record kept;
#  - a WAL database with no -wal beside it: spe-report and spe-query create nothing
#    beside it, the same report;
#  - --diff whose second database has an edited view it reads (pc_latency): 65, naming it;
#    another view edited there (as a file of another build has them): compared, the same;
#    edited in the first, spekit's view is read;
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

# where to corrupt, asked of SQLite (pages are 8 KiB, numbered from 1): three pages from
# mem_level_stat's first (the memory levels every report reads), and the first three leaves
# of _spe_record's rows
at() { run "$query" -d "$tmp/d.db" --format=csv "$1" | tail -1 | tr -d '\r'; }
summary_pages=$(( $(at "SELECT min(pageno) FROM dbstat WHERE name = 'mem_level_stat'") - 1 ))
record_pages=$(( $(at "SELECT min(pageno) FROM dbstat WHERE name = '_spe_record' AND pagetype = 'leaf'") - 1 ))

# a corrupted page: the memory summaries'
cp "$tmp/d.db" "$tmp/corrupt.db"
head -c $((8192 * 3)) /dev/zero | tr '\0' '\377' | dd of="$tmp/corrupt.db" bs=8192 seek=$summary_pages conv=notrunc 2>/dev/null
expect corrupt_text "$(rep -d "$tmp/corrupt.db")" 65
has corrupt_text_msg "$(cat "$tmp/err")" "database disk image is malformed"
expect corrupt_json "$(rep -d "$tmp/corrupt.db" --format=json)" 65
expect corrupt_html "$(rep -d "$tmp/corrupt.db" --html="$tmp/c.html")" 65
has corrupt_html_msg "$(cat "$tmp/err")" ": database disk image is malformed"
has corrupt_html_query "$(cat "$tmp/err")" "query "
expect corrupt_no_page "$(ls "$tmp" | grep -c 'c.html')" 0
# pages of _spe_record's rows
cp "$tmp/d.db" "$tmp/corrupt2.db"
head -c $((8192 * 3)) /dev/zero | tr '\0' '\377' | dd of="$tmp/corrupt2.db" bs=8192 seek=$record_pages conv=notrunc 2>/dev/null
expect corrupt_count "$(rep -d "$tmp/corrupt2.db")" 65
has corrupt_count_msg "$(cat "$tmp/err")" "counting the SPE records: database disk image is malformed"
expect corrupt_export "$(exp -d "$tmp/corrupt2.db" --format=folded)" 65
has corrupt_export_msg "$(cat "$tmp/err")" "malformed"

# spekit's views are its own (analysis/store/db_trust.c): a view dropped, or replaced by one that lies
# (fake counts), reads as spekit defines it, so the report is the untouched database's, byte for byte
rep -d "$tmp/d.db" >/dev/null
cp "$tmp/out" "$tmp/plain.txt"
rep -d "$tmp/d.db" --format=json >/dev/null
cp "$tmp/out" "$tmp/plain.json"
cp "$tmp/d.db" "$tmp/noview.db"
q noview.db "DROP VIEW pc_latency"
expect noview_text "$(rep -d "$tmp/noview.db")" 0
expect noview_same "$(cmp "$tmp/out" "$tmp/plain.txt" && echo same)" same
cp "$tmp/d.db" "$tmp/lie.db"
q lie.db "DROP VIEW hot_symbol; CREATE VIEW hot_symbol AS
	SELECT 'fake' AS symbol, NULL AS mapping, NULL AS src_file, 0 AS src_line, 400000 AS samples, 1 AS total_latency,
	       1 AS mean_latency, 1 AS p50, 1 AS p90, 1 AS p99, 100 AS latency_share, 1 AS symbol_id;
	DROP VIEW pc_latency; CREATE VIEW pc_latency AS SELECT source_id, pc, insn_id, symbol_id, NULL AS total_latency,
	       1000 * untimed AS samples FROM pc_histogram"
expect lie_text "$(rep -d "$tmp/lie.db")" 0
expect lie_same "$(cmp "$tmp/out" "$tmp/plain.txt" && echo same)" same
expect lie_json "$(rep -d "$tmp/lie.db" --format=json)" 0
expect lie_json_same "$(cmp "$tmp/out" "$tmp/plain.json" && echo same)" same
expect lie_query "$(run "$query" -d "$tmp/lie.db" --format=csv "SELECT count(*) FROM hot_symbol WHERE symbol = 'fake'" | tail -1 | tr -d '\r')" 0
# the lie is still in the file (read, not rewritten): only this connection's TEMP view shadows it
expect lie_kept "$(run "$query" -d "$tmp/lie.db" --format=csv "SELECT count(*) FROM main.sqlite_schema WHERE sql LIKE '%400000%'" | tail -1 | tr -d '\r')" 1

# a database of an earlier build of this schema version: symbol_summary without mapping_id (added within
# version 7) and its hot_symbol view of then; read-only, this build's views read it (the column NULL)
cp "$tmp/d.db" "$tmp/older.db"
python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1])
sql = c.execute(\"SELECT sql FROM sqlite_schema WHERE name = 'hot_symbol'\").fetchone()[0]
older = sql.replace('coalesce(m.path, km.path)', 'm.path').replace('\nLEFT JOIN mapping km ON km.id = st.mapping_id', '')
assert older != sql
c.executescript('DROP VIEW hot_symbol; ALTER TABLE symbol_summary DROP COLUMN mapping_id;'); c.execute(older); c.commit()" \
	"$tmp/older.db" || echo "FAIL crafting older.db"
expect older_html "$(rep -d "$tmp/older.db" --html="$tmp/older.html")" 0
expect older_text "$(rep -d "$tmp/older.db")" 0
expect older_same "$(cmp "$tmp/out" "$tmp/plain.txt" && echo same)" same
hot='SELECT symbol, samples FROM hot_symbol ORDER BY 1'
expect older_query "$(run "$query" -d "$tmp/older.db" --format=csv "$hot")" "$(run "$query" -d "$tmp/d.db" --format=csv "$hot")"

# a table of spekit's replaced by a view (a recursive symbol would feed spekit's own views): refused, named
cp "$tmp/d.db" "$tmp/tableview.db"
python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript('''DROP TABLE symbol;
	CREATE VIEW symbol AS WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r)
	SELECT x AS id, NULL AS mapping_id, 'f' AS name, x AS start, 1 AS size, NULL AS file, NULL AS line FROM r''')" \
	"$tmp/tableview.db" || echo "FAIL crafting tableview.db"
expect tableview_text "$(rep -d "$tmp/tableview.db" --timeout=20)" 65
has tableview_msg "$(cat "$tmp/err")" "tableview.db: symbol is a view, not the table spekit defines"
expect tableview_export "$(exp -d "$tmp/tableview.db" --format=folded --timeout=20)" 65
has tableview_export_msg "$(cat "$tmp/err")" "symbol is a view, not the table spekit defines"

# a table dropped (the memory section's data_object): 65 "no such table", not 74
cp "$tmp/d.db" "$tmp/notable.db"
q notable.db "DROP TABLE data_object"
expect notable_text "$(rep -d "$tmp/notable.db")" 65
# the first of the memory section's queries to read it (the huge-page hint reads page_region_stat)
has notable_msg "$(cat "$tmp/err")" "query cacheline_sharing: no such table: main.data_object"
expect notable_export "$(exp -d "$tmp/notable.db" --format=pprof --by=data -o "$tmp/p.pb.gz")" 65
has notable_export_msg "$(cat "$tmp/err")" "no such table"

# text where a number is expected
cp "$tmp/d.db" "$tmp/text.db"
q text.db "UPDATE symbol SET line = 'x' || line"
expect textnum "$(rep -d "$tmp/text.db")" 65
has textnum_msg "$(cat "$tmp/err")" "holds text where a number is expected"

# a real table made big: one pc_histogram row's histogram a JSON object of 2,000,000 latencies (23 MB),
# which pc_latency (json_each) expands for the hot symbols; every object is spekit's own
cp "$tmp/d.db" "$tmp/big.db"
q big.db "UPDATE pc_histogram SET histogram = (WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r LIMIT 2000000)
	SELECT '{' || group_concat('\"' || x || '\":1', ',') || '}' FROM r) WHERE rowid = (SELECT min(rowid) FROM pc_histogram)"

# the temporary directory full (its sorts spill past SQLite's cache): 74, not "no record has a data address"
mkdir -p "$tmp/tiny"
if mount -t tmpfs -o size=64k tmpfs "$tmp/tiny" 2>/dev/null; then
	expect full_tmp "$(SQLITE_TMPDIR="$tmp/tiny" rep -d "$tmp/big.db")" 74
	has full_tmp_msg "$(cat "$tmp/err")" "query hot symbols: database or disk is full"
	expect full_tmp_ok "$(rep -d "$tmp/big.db")" 0 # the same with room
	umount "$tmp/tiny"
else
	echo "SKIP full temporary directory: cannot mount a tmpfs here"
fi

# --timeout stops a report that runs long (text, page); export's --where (the user's SQL) a query that never ends
start=$(date +%s)
expect slow_text "$(rep -d "$tmp/big.db" --timeout=1)" 69
has slow_text_msg "$(cat "$tmp/err")" "ran past --timeout=1 seconds"
expect slow_html "$(rep -d "$tmp/big.db" --timeout=1 --html="$tmp/slow.html")" 69
expect slow_no_page "$(ls "$tmp" | grep -c 'slow.html')" 0
expect loop_export "$(exp -d "$tmp/d.db" --format=folded --timeout=1 \
	--where='id IN (WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT x FROM r WHERE x < 0)')" 69
has loop_export_msg "$(cat "$tmp/err")" "ran past --timeout=1 seconds"
expect slow_fast "$(($(date +%s) - start < 60))" 1

# memory: the big histogram needs more than a 16 MiB cap (69, "needs more than --max-memory"); with no cap,
# the system's allocator under ulimit -v (it needs about 230 MB; the report starts in under 60 MB)
expect big_cap "$(rep -d "$tmp/big.db" --html="$tmp/h.html" --max-memory=16M)" 69
has big_cap_msg "$(cat "$tmp/err")" "needs more than --max-memory=16777216 bytes"
expect huge_cap "$(exp -d "$tmp/d.db" --format=folded --where="length(printf('%.*c', 900000000, 'x')) > 0")" 69
has huge_cap_msg "$(cat "$tmp/err")" "needs more than --max-memory=536870912 bytes"
if ldd "$report" 2>/dev/null | grep -q libasan || [ -n "${SPE_RUN:-}" ]; then
	echo "SKIP ulimit -v: a sanitizer's or an emulator's address space"
else
	expect big_oom "$( (ulimit -v 120000; rep -d "$tmp/big.db" --html="$tmp/h.html" --max-memory=0))" 69
	has big_oom_msg "$(cat "$tmp/err")" "out of memory"
	case "$(cat "$tmp/err")" in *max-memory*) echo "FAIL big_oom_blamed_on_cap: $(cat "$tmp/err")"; fail=1 ;; esac
fi

# a received database's triggers never run: an append and spe-query --write leave every record
cp "$tmp/d.db" "$tmp/trig.db"
python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript('''
	CREATE TRIGGER wipe_on_load AFTER INSERT ON source BEGIN DELETE FROM _spe_record; UPDATE meta SET value = 'x'; END;
	CREATE TRIGGER wipe_on_meta AFTER INSERT ON meta BEGIN DELETE FROM _spe_record; END''')" "$tmp/trig.db" ||
	echo "FAIL crafting trig.db"
records() { run "$query" -d "$tmp/$1" --format=csv "SELECT count(*) FROM _spe_record" | tail -1 | tr -d '\r'; }
n=$(records d.db)
run "$record" --replay="$fx/workloads/traces/datawork-after.replay" -o "$tmp/e.data" >/dev/null 2>&1 ||
	echo "FAIL replay after"
run "$load" "$tmp/e.data" -o "$tmp/e.db" --symfs="$fx/elf" 2>/dev/null || echo "FAIL load after"
m=$(records e.db)
expect trig_append "$(run "$load" "$tmp/e.data" -o "$tmp/trig.db" --append --symfs="$fx/elf" 2>/dev/null; echo $?)" 0
expect trig_append_records "$(records trig.db)" $((n + m))
expect trig_meta "$(run "$query" -d "$tmp/trig.db" --format=csv "SELECT value FROM meta WHERE key = 'application'" | tail -1 | tr -d '\r')" spekit
expect trig_write "$(run "$query" -d "$tmp/trig.db" --write "INSERT INTO meta(key, value) VALUES ('note', 'x')" >/dev/null; echo $?)" 0
expect trig_write_records "$(records trig.db)" $((n + m))
expect trig_kept "$(run "$query" -d "$tmp/trig.db" --format=csv "SELECT count(*) FROM sqlite_schema WHERE type = 'trigger'" | tail -1 | tr -d '\r')" 2

# a WAL database with no -wal beside it: reading it creates nothing beside it (opened immutable), same answers
mkdir -p "$tmp/wal"
cp "$tmp/d.db" "$tmp/wal/w.db"
expect wal_mode "$(python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); print(c.execute('PRAGMA journal_mode = WAL').fetchone()[0]); c.close()" "$tmp/wal/w.db")" wal
expect wal_before "$(ls "$tmp/wal")" w.db
expect wal_report "$(rep -d "$tmp/wal/w.db")" 0
expect wal_report_same "$(cmp "$tmp/out" "$tmp/plain.txt" && echo same)" same
expect wal_query "$(records wal/w.db)" "$n"
expect wal_after "$(ls "$tmp/wal")" w.db

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
# --diff's second database is attached (its views cannot be shadowed): an edited view it reads refused, named
expect diff_lie "$(rep --diff "$tmp/d.db" "$tmp/lie.db")" 65
has diff_lie_msg "$(cat "$tmp/err")" "lie.db: view pc_latency is not the one spekit defines"
# a view the diff does not read, defined otherwise (another build's data_page, an edited hot_symbol): compared
cp "$tmp/d.db" "$tmp/other_build.db"
q other_build.db "DROP VIEW data_page; CREATE VIEW data_page AS SELECT 1 AS granularity;
	DROP VIEW hot_symbol; CREATE VIEW hot_symbol AS SELECT 'fake' AS symbol, 400000 AS samples"
expect diff_other_build "$(rep --diff "$tmp/d.db" "$tmp/other_build.db" --format=json)" 0
expect diff_other_build_same "$(grep -o '"verdict": "[a-z]*"' "$tmp/out" | sort -u)" '"verdict": "noise"'
has diff_other_build_samples "$(head -c 200 "$tmp/out")" '"samples": 2020}, "b": {"sources": "source 1 (d.data)", "samples": 2020}'
# the first database's is shadowed: the diff reads spekit's pc_latency on both sides
expect diff_lie_a "$(rep --diff "$tmp/lie.db" "$tmp/d.db" --format=json)" 0
has diff_lie_a_samples "$(head -c 200 "$tmp/out")" '"samples": 2020}, "b": {"sources": "source 1 (d.data)", "samples": 2020}'

# export sums past 2^64: held, and said
cp "$tmp/d.db" "$tmp/sum.db"
q sum.db "UPDATE _spe_record SET $(run "$query" -d "$tmp/d.db" --format=csv "SELECT name FROM pragma_table_info('_spe_record') WHERE name LIKE '%total%' LIMIT 1" | tail -1 | tr -d '\r') = 9000000000000000000"
expect sum_rc "$(exp -d "$tmp/sum.db" --format=folded)" 0
has sum_warned "$(cat "$tmp/err")" "latency sums passed 2^64"
expect sum_max "$(sort -k2 -n "$tmp/out" | awk '{ print $NF }' | tail -1)" 18446744073709551615
exit $fail
