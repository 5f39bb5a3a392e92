#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# spe-load / spe-query / spe-report --clickhouse against a current ClickHouse
# release: the engine of the npm package @chdb/lib-linux-x64-gnu (libchdb.so,
# fetched once into the build tree by chdb_fetch.sh) behind chdb_http, the
# tests' HTTP endpoint over it on 127.0.0.1, started here and stopped at the
# end (tests/clickhouse/chdb.sh).  The same captures as clickhouse_cluster's
# (four hosts, one past its cache-line budget, one program twice), loaded
# into SQLite and into the server (one server: no cluster), then:
#   - the server is a current release (SELECT version() >= 24);
#   - every view and table answers the same rows as SQLite (ch_compare);
#   - the HTML page of every capture and of one host (--host) is SQLite's
#     page cell by cell (page_compare.sh), the annotation byte for byte;
#   - --host scopes every spelling of a view or refuses it (scope_bypass.sh);
#   - the same capture again is refused (65), --replace loads it in place;
#   - the query session cannot write; a URL parameter is checked by its
#     decoded name, an answer past the result cap refused (session_limits.sh).
# Skips (77) only when the npm registry cannot be reached to fetch the package.
# SPE_CLICKHOUSE_TEST_URL=http://[user:password@]host:8123/ runs the same
# checks against that server instead (one server, not a cluster), in a
# database spe_current_PID that the test makes and drops.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/testlib.sh"
record=$1 load=$2 query=$3 report=$4 gen_bench=$5 compare=$6 fixtures=$7 chdb_http=$8 chdb_dir=$9
shift 9
chdb_version=$1 chdb_sha512=$2
chdb_dir=${SPE_CHDB_CACHE:-$chdb_dir}
ch_conf_dir=$here
. "$here/cluster.sh"
. "$here/chdb.sh"
run() { ${SPE_RUN:-} "$@"; }
if [ -n "${SPE_CLICKHOUSE_TEST_URL:-}" ]; then
	# another server: a database of its own there, dropped at the end
	scratch_dir clickhouse-current
	CH_URL=$SPE_CLICKHOUSE_TEST_URL
	dbname=spe_current_$$
	case $CH_URL in *\?*) url="$CH_URL&database=$dbname" ;; *) url="${CH_URL%/}/?database=$dbname" ;; esac
	trap 'ch_http "$CH_URL" "DROP DATABASE IF EXISTS $dbname" >/dev/null; rm -rf "$tmp"' EXIT
	trap 'exit 1' INT TERM
else
	sh "$here/chdb_fetch.sh" "$chdb_dir" "$chdb_version" "$chdb_sha512"
	rc=$?
	[ $rc = 0 ] || exit $rc
	scratch_dir clickhouse-current
	ch_chdb_start "$tmp/chdb" "$chdb_http" "$chdb_dir/libchdb.so" || exit 1
	trap 'ch_chdb_stop "$tmp/chdb"; rm -rf "$tmp"' EXIT
	trap 'exit 1' INT TERM
	url="http://127.0.0.1:$CH_PORT/?database=spe"
fi
db=$tmp/all.db
version=$(ch_http "$CH_URL" "SELECT version()")
if [ -n "${SPE_CLICKHOUSE_TEST_URL:-}" ]; then
	echo "ClickHouse $version at SPE_CLICKHOUSE_TEST_URL, database $dbname"
else
	echo "ClickHouse $version (chDB package @chdb/lib-linux-x64-gnu@$chdb_version)"
	[ "${version%%.*}" -ge 24 ] 2>/dev/null || { echo "FAIL version: '$version' is not a current release"; fail=1; }
fi

ch_capture memwork "$fixtures/workloads/traces/memwork.replay" host-a
ch_capture datawork "$fixtures/workloads/traces/datawork.replay" host-b
run "$gen_bench" "$tmp" 20000 400 40 || { echo "FAIL gen_bench"; exit 1; }
ch_capture bench "$tmp/bench.replay" host-c
mkdir -p "$tmp/g2" && run "$gen_bench" "$tmp/g2" 8000 400 40 || { echo "FAIL gen_bench 2"; exit 1; }
ch_capture bench2 "$tmp/g2/bench.replay" host-e
mkdir -p "$tmp/symfs" "$tmp/symfs2" # bench2's program is bench's, another build: each its own --symfs
cp "$fixtures"/elf/* "$tmp/bench.elf" "$tmp/symfs/"
cp "$fixtures"/elf/* "$tmp/g2/bench.elf" "$tmp/symfs2/"

# ---- four captures, both stores -------------------------------------------------
set -- memwork "$tmp/symfs" "" datawork "$tmp/symfs" --line-budget=1 bench "$tmp/symfs" "" bench2 "$tmp/symfs2" ""
mode=""
while [ $# -gt 0 ]; do
	run "$load" "$tmp/$1.data" --symfs="$2" -o "$db" $mode $3 2>"$tmp/err" || { cat "$tmp/err"; echo "FAIL sqlite load $1"; exit 1; }
	mode=--append
	run "$load" "$tmp/$1.data" --symfs="$2" --clickhouse="$url" $3 2>"$tmp/err"
	expect "load_$1_rc" $? 0
	grep -v '^spe-load: .*: [0-9]* records;\|source [0-9]* in' "$tmp/err"
	shift 3
done
run "$load" "$tmp/memwork.data" --symfs="$tmp/symfs" -o "$tmp/a.db" 2>/dev/null || { echo "FAIL load a.db"; exit 1; }

views="spe_record spe_sample pc_summary symbol_summary hot_symbol hot_pc mem_level_summary latency_histogram
tlb_hotspot hot_data_object data_page numa_traffic cacheline_sharing prefetch branch_mispredict
source cpu thread mapping symbol insn load_stats data_object pc_latency
mem_level_stat latency_bucket branch_stat page_stat numa_stat prefetch_stat"
# the repeated names are LowCardinality here (ch_release.c: from 19.3), the names mostly distinct are not;
# the views and tables below answer as SQLite's with them
expect name_types "$(ch_http "$url" "SELECT table, name, type FROM system.columns WHERE database = currentDatabase() AND (table, name) IN (('_spe_record', 'op_class'), ('_spe_record', 'mem_level'), ('_insn', 'mnemonic'), ('_mapping', 'path'), ('_symbol', 'name')) ORDER BY table, name FORMAT TabSeparated")" \
	"$(printf '_insn\tmnemonic\tLowCardinality(Nullable(String))\n_mapping\tpath\tLowCardinality(String)\n_spe_record\tmem_level\tLowCardinality(Nullable(String))\n_spe_record\top_class\tLowCardinality(Nullable(String))\n_symbol\tname\tString')"
# shellcheck disable=SC2086 # the views are words
out=$(run "$compare" "$query" "$db" "$url" $views)
st=$?
printf '%s\n' "$out"
expect views_identical $st 0
expect views_compared "$(printf '%s\n' "$out" | grep -c '^ok ')" "$(echo $views | wc -w)"

# ---- the HTML page and an annotation -------------------------------------------------
. "$here/page_compare.sh"
src="--symfs=$tmp/symfs --source-dir=$fixtures/workloads"
ids_sed "$db" "$url" "$tmp/ids.sed"
ids_sed "$tmp/a.db" "$url" "$tmp/a_ids.sed" host-a
# shellcheck disable=SC2086 # $src is two options
run "$report" -d "$db" --html="$tmp/sq.html" $src 2>"$tmp/err" || { cat "$tmp/err"; echo "FAIL sqlite page"; exit 1; }
# shellcheck disable=SC2086
run "$report" --clickhouse="$url" --html="$tmp/ch.html" $src 2>"$tmp/err"
expect page_rc $? 0
cat "$tmp/err"
same_page page "$tmp/sq.html" "$tmp/ch.html" "$tmp/ids.sed"
expect page_sections "$(grep -c '^<section id=' "$tmp/ch.lines")" 9
[ "$(grep -c '^<td data-col="symbol"' "$tmp/ch.lines")" -ge 5 ] || { echo "FAIL page_hot_rows"; fail=1; }
[ "$(grep -c '^<svg' "$tmp/ch.lines")" -ge 10 ] || { echo "FAIL page_charts"; fail=1; }
# shellcheck disable=SC2086
run "$report" -d "$tmp/a.db" --html="$tmp/sq_a.html" --top=5 --annotations=2 $src 2>/dev/null || { echo "FAIL sqlite page a"; exit 1; }
# shellcheck disable=SC2086
run "$report" --clickhouse="$url" --host=host-a --html="$tmp/ch_a.html" --top=5 --annotations=2 $src 2>"$tmp/err"
expect host_page_rc $? 0
cat "$tmp/err"
same_page host_page "$tmp/sq_a.html" "$tmp/ch_a.html" "$tmp/a_ids.sed"
for fmt in table json; do
	# shellcheck disable=SC2086
	run "$report" -d "$db" --annotate=chase --format=$fmt $src >"$tmp/sq.ann" 2>/dev/null
	# shellcheck disable=SC2086
	run "$report" --clickhouse="$url" --annotate=chase --format=$fmt $src >"$tmp/ch.ann" 2>"$tmp/err"
	expect "annotate_${fmt}_rc" $? 0
	cat "$tmp/err"
	expect "annotate_$fmt" "$(cat "$tmp/ch.ann")" "$(cat "$tmp/sq.ann")"
done
rep=$(run "$report" --clickhouse="$url" --host=host-a --format=json --top=2 2>"$tmp/err")
expect text_report_rc $? 0
has text_report "$rep" '"hot_symbols": [{"symbol": "chase", "mapping": "/memwork-pie", "samples": 400'

# ---- scoping: every spelling of a view, or refused ------------------------------------------
. "$here/scope_bypass.sh"
scope_bypass "$url" "$tmp/a.db" host-a "${dbname:-spe}"

# ---- the same capture again -------------------------------------------------------------------
before=$(run "$query" --clickhouse="$url" --format=csv "SELECT count() FROM spe_record; SELECT count() FROM source")
run "$load" "$tmp/memwork.data" --symfs="$tmp/symfs" --clickhouse="$url" 2>"$tmp/err"
expect reload_rc $? 65
has reload_msg "$(cat "$tmp/err")" "already loaded"
run "$load" "$tmp/memwork.data" --symfs="$tmp/symfs" --clickhouse="$url" --replace 2>"$tmp/err"
expect replace_rc $? 0
expect replace_not_doubled "$(run "$query" --clickhouse="$url" --format=csv "SELECT count() FROM spe_record; SELECT count() FROM source")" "$before"
out=$(run "$compare" "$query" "$db" "$url" hot_symbol mem_level_summary source)
expect replace_views_identical $? 0

# ---- the query session cannot write ------------------------------------------------------------
before=$(run "$query" --clickhouse="$url" --format=csv "SELECT count() FROM spe_record")
run "$query" --clickhouse="$url" "INSERT INTO _source (id, file, kind, loaded_at, digest, committed_ns) VALUES (1, 'x', 'x', 'x', 'x', 1)" \
	>/dev/null 2>"$tmp/err"
expect readonly_insert_rc $? 65
has readonly_insert_msg "$(cat "$tmp/err")" "readonly"
expect readonly_unchanged "$(run "$query" --clickhouse="$url" --format=csv "SELECT count() FROM spe_record")" "$before"
. "$here/session_limits.sh"
session_limits "$url"
exit $fail
