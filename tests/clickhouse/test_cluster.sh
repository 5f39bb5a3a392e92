#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# spe-load / spe-query / spe-report --clickhouse against a real 2-shard
# cluster: two clickhouse-server processes on loopback ports
# (tests/clickhouse/cluster.sh), data in a temporary directory, both stopped
# at the end.  Skips (77) with the reason only when clickhouse-server is not
# installed or cannot start here.
#   - four captures from four "hosts" (the memwork demo fixture, the
#     datawork fixture loaded past its cache-line budget, two generated
#     traces of one program, whose functions hot_symbol merges across
#     captures), loaded into SQLite and into the cluster: every view and
#     summary table answers the same, row by row (ch_compare);
#   - --host / --source: the views of one capture only, however a view is
#     spelled (scope_bypass.sh), and what cannot be scoped refused;
#   - the same capture again: refused (65), nothing doubled; --replace: in
#     place of the first;
#   - a capture cut short: its records before the cut committed, exit 1, the cut in load_stats;
#   - kill -9 of the shard a load is writing to, mid-load: the load fails
#     (69) saying what to run, and once the shard is back no row of that
#     capture is visible while the rows it sent are on disk; the load run
#     again commits it;
#   - Ctrl-C (SIGINT) mid-load: exit 130, nothing visible;
#   - the query session cannot write (readonly=1): INSERT, CREATE, DROP and
#     ALTER ... DELETE are refused and change nothing;
#   - a URL parameter is checked by its decoded name, an answer past the
#     result cap refused (session_limits.sh);
#   - the password of the URL appears in no message.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/testlib.sh"
record=$1 load=$2 query=$3 report=$4 gen_bench=$5 compare=$6 fixtures=$7
scratch_dir clickhouse
ch_conf_dir=$here
. "$here/cluster.sh"
cl=$tmp/cluster
CH_HTTP_PORTS=split # server 2 answers HTTP on another port than the URL's: spe-load is told (--cluster-http)
ch_cluster_start "$cl"
rc=$?
if [ $rc -ne 0 ]; then
	exit 77
fi
trap 'ch_cluster_stop "$cl"; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

secret=spe-test-secret-7f3a # the `spe` user's password in users.xml
url="http://spe:$secret@127.0.0.1:$CH_PORT/?database=spe"
db=$tmp/all.db

ch_capture memwork "$fixtures/workloads/traces/memwork.replay" host-a
ch_capture datawork "$fixtures/workloads/traces/datawork.replay" host-b
${SPE_RUN:-} "$gen_bench" "$tmp" 20000 400 40 || { echo "FAIL gen_bench"; exit 1; }
ch_capture bench "$tmp/bench.replay" host-c
cp "$tmp/bench.elf" "$tmp/bench/"
# the same program again, another run: its functions are in two captures (hot_symbol merges their histograms)
mkdir -p "$tmp/g2" && ${SPE_RUN:-} "$gen_bench" "$tmp/g2" 8000 400 40 || { echo "FAIL gen_bench 2"; exit 1; }
ch_capture bench2 "$tmp/g2/bench.replay" host-e
cp "$tmp/g2/bench.elf" "$tmp/bench2/"

chq() { # SQL: one answer from the cluster (the `spe` user, read-only)
	${SPE_RUN:-} "$query" --clickhouse="$url" --format=csv "$1" | tr -d '\r'
}
sq() { # SQL over the SQLite database
	${SPE_RUN:-} "$query" -d "$db" --format=csv "$1" | tr -d '\r'
}
cluster_http="--cluster-http=:$CH_PORT2,127.0.0.1:$CH_PORT" # server 2 by the ":PORT for the others" entry
ch_load() { # FILE SYMFS [options]: into the cluster, stderr in $tmp/err
	f=$1 s=$2
	shift 2
	${SPE_RUN:-} "$load" "$f" --symfs="$s" --clickhouse="$url" --cluster=spe_test "$cluster_http" "$@" 2>"$tmp/err"
}
# Every message of a command run here goes through this: the password must not be in it.
all_messages=$tmp/messages
note() { cat "$tmp/err" >>"$all_messages"; }

# ---- the servers' HTTP ports --------------------------------------------------------
# server 2 is not at the URL's port: without --cluster-http the load says which server and what to give
${SPE_RUN:-} "$load" "$tmp/memwork.data" --symfs="$fixtures/elf" --clickhouse="$url" --cluster=spe_test 2>"$tmp/err"
expect http_port_unknown_rc $? 69
note
has http_port_unknown_msg "$(cat "$tmp/err")" "creating the tables on server 127.0.0.2 of cluster spe_test (127.0.0.2, HTTP port $CH_PORT, the URL's)"
has http_port_unknown_hint "$(cat "$tmp/err")" "--cluster-http=HOST:PORT,... or :PORT for all"
expect http_port_schema_incomplete "$(ch_http "$CH_URL1" "SELECT count() FROM spe.meta")" 0 # meta is filled last
for bad in "127.0.0.2|is not HOST:PORT" "127.0.0.2:0|is not HOST:PORT" "127.0.0.9:$CH_PORT2|names no server of cluster 'spe_test'"; do
	${SPE_RUN:-} "$load" "$tmp/memwork.data" --symfs="$fixtures/elf" --clickhouse="$url" --cluster=spe_test \
		--cluster-http="${bad%%|*}" 2>"$tmp/err"
	expect "cluster_http_bad_rc (${bad%%|*})" $? 64
	note
	has "cluster_http_bad_msg (${bad%%|*})" "$(cat "$tmp/err")" "${bad#*|}"
done
${SPE_RUN:-} "$load" "$tmp/memwork.data" --clickhouse="$url" --cluster-http=127.0.0.2:1 2>"$tmp/err"
expect cluster_http_without_cluster_rc $? 64
has cluster_http_without_cluster "$(cat "$tmp/err")" "--cluster-http goes with --cluster"

# ---- four captures, both stores ----------------------------------------------
# datawork with a line budget of 1: its shared cache lines come from its records on both stores
set -- memwork "$fixtures/elf" "" datawork "$fixtures/elf" --line-budget=1 bench "$tmp/bench" "" bench2 "$tmp/bench2" ""
mode=""
while [ $# -gt 0 ]; do
	${SPE_RUN:-} "$load" "$tmp/$1.data" --symfs="$2" -o "$db" $mode $3 2>"$tmp/err" || { cat "$tmp/err"; echo "FAIL sqlite load $1"; exit 1; }
	mode=--append
	ch_load "$tmp/$1.data" "$2" $3
	expect "load_$1_rc" $? 0
	note
	shift 3
done
expect line_budget_scan "$(chq "SELECT cacheline_scan, count() AS n FROM load_stats GROUP BY cacheline_scan ORDER BY cacheline_scan")" \
"cacheline_scan,n
0,3
1,1"
expect shared_functions "$(chq "SELECT count() > 0 AS shared FROM (SELECT name, path FROM function_stat GROUP BY name, path HAVING count() > 1)")" \
"shared
1"
has load_names_source "$(cat "$all_messages")" "source "
expect sources "$(chq "SELECT host, count() FROM source GROUP BY host ORDER BY host")" \
"host,count()
host-a,1
host-b,1
host-c,1
host-e,1"
# Rows of every table on the shard of their capture: one capture's rows on one shard.
for n in 1 2; do
	split=$(ch_http "http://127.0.0.$n:$(ch_http_port $n)/?database=spe" \
		"SELECT count() FROM (SELECT source_id FROM _spe_record_shard GROUP BY source_id HAVING source_id NOT IN (SELECT id FROM _source_shard))")
	expect "shard${n}_rows_with_their_source" "$split" 0
	# 18.16: the repeated names as the tables were always made (LowCardinality is from 19.3: ch_release.c)
	expect "shard${n}_name_types" "$(ch_http "http://127.0.0.$n:$(ch_http_port $n)/?database=spe" \
		"SELECT name, type FROM system.columns WHERE database = 'spe' AND table = '_spe_record_shard' AND name IN ('op_class', 'op', 'mem_level') ORDER BY name FORMAT TabSeparated")" \
		"$(printf 'mem_level\tNullable(String)\nop\tNullable(String)\nop_class\tNullable(String)')"
done

views="spe_record spe_sample pc_summary symbol_summary hot_symbol hot_pc mem_level_summary latency_histogram
tlb_hotspot hot_data_object data_page numa_traffic cacheline_sharing prefetch branch_mispredict
source cpu thread mapping symbol insn load_stats data_object pc_latency
mem_level_stat latency_bucket branch_stat page_stat numa_stat prefetch_stat"
# shellcheck disable=SC2086 # the views are words
out=$(${SPE_RUN:-} "$compare" "$query" "$db" "$url" $views)
st=$?
printf '%s\n' "$out"
expect views_identical $st 0
expect views_compared "$(printf '%s\n' "$out" | grep -c '^ok ')" "$(echo $views | wc -w)"

# ---- per host, per source ------------------------------------------------------
expect host_records "$(${SPE_RUN:-} "$query" --clickhouse="$url" --host=host-b --format=csv "SELECT count() AS n FROM spe_record" | tr -d '\r')" \
	"$(sq "SELECT count(*) AS n FROM spe_record r JOIN source s ON s.id = r.source_id WHERE s.host = 'host-b'")"
expect host_hot_symbol "$(${SPE_RUN:-} "$query" --clickhouse="$url" --host=host-a --format=csv \
	"SELECT symbol, samples, total_latency, p50, p90, p99, latency_share FROM hot_symbol h ORDER BY symbol" | tr -d '\r')" \
	"$(${SPE_RUN:-} "$load" "$tmp/memwork.data" --symfs="$fixtures/elf" -o "$tmp/a.db" 2>/dev/null &&
		${SPE_RUN:-} "$query" -d "$tmp/a.db" --format=csv \
		"SELECT symbol, samples, total_latency, p50, p90, p99, latency_share FROM hot_symbol h ORDER BY symbol" | tr -d '\r')"
# one host's summaries: what SQLite has for that capture alone (a.db), not the cluster's four
host_sums="SELECT sum(loads) AS loads, sum(total_latency) AS latency, max(latency_share) AS share FROM mem_level_summary;
SELECT sum(samples) AS samples, sum(total_latency) AS latency FROM latency_histogram;
SELECT sum(branches) AS branches, sum(mispredicted) AS mispredicted FROM branch_mispredict;
SELECT sum(accesses) AS accesses, sum(tlb_walks) AS walks FROM tlb_hotspot;
SELECT count() AS lines, sum(accesses) AS accesses FROM cacheline_sharing"
expect host_summaries "$(${SPE_RUN:-} "$query" --clickhouse="$url" --host=host-a --format=csv "$host_sums" | tr -d '\r')" \
	"$(${SPE_RUN:-} "$query" -d "$tmp/a.db" --format=csv "$(printf '%s\n' "$host_sums" | sed 's/count()/count(*)/')" | tr -d '\r')"
# every spelling of a view scoped (spe.hot_symbol, `hot_symbol` and a comment read every capture before), or refused
run() { ${SPE_RUN:-} "$@"; }
. "$here/scope_bypass.sh"
scope_bypass "$url" "$tmp/a.db" host-a spe
. "$here/session_limits.sh"
session_limits "$url"
bench_id=$(chq "SELECT id FROM source WHERE host = 'host-c'" | tail -n 1)
expect source_records "$(${SPE_RUN:-} "$query" --clickhouse="$url" --source="$bench_id" --format=csv \
	"SELECT count() AS n FROM spe_record; SELECT count() AS n FROM source" | tr -d '\r')" "n
20000
n
1"
rep=$(${SPE_RUN:-} "$report" --clickhouse="$url" --host=host-a --top=3 2>"$tmp/err")
expect report_rc $? 0
note
has report_hot "$(printf '%s\n' "$rep" | sed -n '/^Hot functions/,/^$/p')" chase
has report_levels "$rep" "Where the loads were served from"
repj=$(${SPE_RUN:-} "$report" --clickhouse="$url" --host=host-a --format=json --top=2)
${SPE_RUN:-} "$report" --clickhouse="$url" --host=host-a --format=json --top=2 -o "$tmp/report.json"
expect report_file "$?:$(cat "$tmp/report.json")" "0:$repj"
has report_json "$repj" '"hot_symbols": [{"symbol": "chase", "mapping": "/memwork-pie", "samples": 400'

# ---- the same capture again ------------------------------------------------------
before=$(chq "SELECT count() FROM spe_record")
ch_load "$tmp/memwork.data" "$fixtures/elf"
expect reload_rc $? 65
note
has reload_msg "$(cat "$tmp/err")" "already loaded"
has reload_hint "$(cat "$tmp/err")" "--replace"
expect reload_not_doubled "$(chq "SELECT count() FROM spe_record")" "$before"
ch_load "$tmp/memwork.data" "$fixtures/elf" --replace
expect replace_rc $? 0
note
expect replace_not_doubled "$(chq "SELECT count() FROM spe_record")" "$before"
expect replace_sources "$(chq "SELECT count() FROM source")" "count()
4"
out=$(${SPE_RUN:-} "$compare" "$query" "$db" "$url" hot_symbol mem_level_summary source)
expect replace_views_identical $? 0

# ---- atomicity: a shard killed mid-load, and Ctrl-C -------------------------------
mkdir -p "$tmp/gen"
${SPE_RUN:-} "$gen_bench" "$tmp/gen" 300000 3000 300 || { echo "FAIL gen_bench big"; exit 1; }
ch_capture big "$tmp/gen/bench.replay" host-d
cp "$tmp/gen/bench.elf" "$tmp/big/"
visible=$(chq "SELECT count() FROM spe_record")

# Rows on server N's shard table of captures not committed.
uncommitted() {
	ch_http "http://127.0.0.$1:$(ch_http_port $1)/?database=spe" \
		"SELECT count() FROM _spe_record_shard WHERE source_id NOT IN (SELECT id FROM _source_shard)" 2>/dev/null
}
# Start a load of the big capture in small blocks; wait until its first block is on a shard ($shard, 0: none).
start_big_load() {
	base1=$(uncommitted 1) base2=$(uncommitted 2)
	SPE_CLICKHOUSE_BLOCK_BYTES=262144 ${SPE_RUN:-} "$load" "$tmp/big.data" --symfs="$tmp/big" \
		--clickhouse="$url" --cluster=spe_test 2>"$tmp/err" &
	load_pid=$!
	i=0 shard=0
	while [ $i -lt 600 ] && [ "$shard" = 0 ] && kill -0 $load_pid 2>/dev/null; do
		sleep 0.05
		[ "$(uncommitted 1)" -gt "$base1" ] 2>/dev/null && shard=1
		[ "$(uncommitted 2)" -gt "$base2" ] 2>/dev/null && shard=2
		i=$((i + 1))
	done
}

start_big_load
if [ "$shard" = 0 ]; then
	echo "FAIL kill_shard: no block of the load reached a shard before it ended"
	fail=1
else
	echo "kill -9 of server $shard, whose shard holds the first blocks of the load"
	ch_server_kill "$cl" "$shard"
	wait $load_pid
	expect kill_load_rc $? 69
	note
	msg=$(cat "$tmp/err")
	printf "the load said:\n%s\n" "$msg"
	has kill_msg_nothing "$msg" "nothing of $tmp/big.data is visible"
	has kill_msg_what_to_run "$msg" "to load it, run spe-load $tmp/big.data --clickhouse=URL --cluster=spe_test again"
	ch_server_start "$cl" "$shard" || { echo "FAIL restart shard $shard"; exit 1; }
	expect kill_nothing_visible "$(chq "SELECT count() FROM spe_record")" "$visible"
	expect kill_sources "$(chq "SELECT count() FROM source")" "count()
4"
	sent=$(ch_http "http://127.0.0.$shard:$(ch_http_port $shard)/?database=spe" \
		"SELECT count() > 0 FROM _spe_record_shard WHERE source_id NOT IN (SELECT id FROM _source_shard)")
	expect kill_rows_were_sent "$sent" 1
	out=$(${SPE_RUN:-} "$compare" "$query" "$db" "$url" hot_symbol hot_pc mem_level_summary latency_histogram)
	expect kill_views_unchanged $? 0
fi

start_big_load
[ "$shard" != 0 ] || { echo "FAIL sigint: no block of the load reached a shard before it ended"; fail=1; }
kill -INT $load_pid
wait $load_pid
expect sigint_rc $? 130
note
expect sigint_msg "$(cat "$tmp/err")" "spe-load: interrupted
spe-load: nothing of $tmp/big.data is visible in http://127.0.0.1:$CH_PORT database spe (its capture was not committed); to load it, run spe-load $tmp/big.data --clickhouse=URL --cluster=spe_test again"
expect sigint_nothing_visible "$(chq "SELECT count() FROM spe_record")" "$visible"

ch_load "$tmp/big.data" "$tmp/big"
expect big_load_rc $? 0
note
expect big_visible "$(chq "SELECT count() - $(echo "$visible" | tail -n 1) AS n FROM spe_record")" "n
300000"

# ---- a capture cut short: loaded up to the cut, committed (a sixth source), exit 1, load_stats says where ----
head -c 30000 "$tmp/memwork.data" >"$tmp/cut.data"
ch_load "$tmp/cut.data" "$fixtures/elf"
expect cut_rc $? 1
has cut_msg "$(cat "$tmp/err")" "the file is cut short at offset 0x"
expect cut_stats "$(chq "SELECT records > 0 AND records < 1200 AS r, cut_offset > 0 AS o, cut_bytes > 0 AS b,
	cut LIKE '%AUXTRACE record%' AS w FROM load_stats WHERE cut_offset IS NOT NULL")" "r,o,b,w
1,1,1,1"

# ---- a database of an earlier spekit (this schema version, without the summary tables or mapping.build_id_status): refused for loading
for u in "$CH_URL1" "$CH_URL2"; do
	ch_http "$u" "CREATE DATABASE IF NOT EXISTS olddb"
	ch_http "$u" "CREATE TABLE IF NOT EXISTS olddb.meta(key String, value String) ENGINE = MergeTree ORDER BY key"
done
# this spekit's schema version (SQLite's meta says it), without clickhouse_version: made before the summaries
schema=$(${SPE_RUN:-} "$query" -d "$db" --format=csv "SELECT value FROM meta WHERE key = 'schema_version'" | tail -n 1 | tr -d '\r')
ch_http "$CH_URL1" "INSERT INTO olddb.meta VALUES ('schema_version', '$schema'), ('application', 'spekit'), ('layout', 'cluster spe_test')"
${SPE_RUN:-} "$load" "$tmp/memwork.data" --symfs="$fixtures/elf" --clickhouse="http://spe:$secret@127.0.0.1:$CH_PORT/?database=olddb" \
	--cluster=spe_test "$cluster_http" 2>"$tmp/err"
expect old_database_rc $? 65
note
has old_database_msg "$(cat "$tmp/err")" "was made by an earlier spekit, without tables or columns this one writes"

# ---- the query session cannot write ----------------------------------------------
before=$(chq "SELECT count() FROM spe_record; SELECT count() FROM source")
for sql in "INSERT INTO _source_shard (id, file, kind, loaded_at, digest, committed_ns) VALUES (1, 'x', 'x', 'x', 'x', 1)" \
	"CREATE TABLE spe.evil (x Int8) ENGINE = Memory" "DROP TABLE _spe_record" \
	"ALTER TABLE _spe_record_shard DELETE WHERE 1" "TRUNCATE TABLE _source_shard"; do
	${SPE_RUN:-} "$query" --clickhouse="$url" "$sql" >/dev/null 2>"$tmp/err"
	st=$?
	note
	[ $st -eq 65 ] || { echo "FAIL readonly: '$sql': exit $st, expected 65 (refused, as on SQLite)"; fail=1; }
	case "$(cat "$tmp/err")" in *readonly* | *"read-only"* | *"Cannot execute query in readonly mode"*) ;;
	*) echo "FAIL readonly: '$sql': $(cat "$tmp/err")"; fail=1 ;; esac
done
expect readonly_unchanged "$(chq "SELECT count() FROM spe_record; SELECT count() FROM source")" "$before"
expect readonly_no_table "$(ch_http "$CH_URL1" "EXISTS TABLE spe.evil")" 0

# ---- credentials ---------------------------------------------------------------
${SPE_RUN:-} "$query" --clickhouse="http://spe:wrong-$secret@127.0.0.1:$CH_PORT/?database=spe" "SELECT 1" >/dev/null 2>"$tmp/err"
expect bad_password_rc $? 77
note
SPE_CLICKHOUSE_USER=spe SPE_CLICKHOUSE_PASSWORD=$secret ${SPE_RUN:-} "$query" \
	--clickhouse="http://127.0.0.1:$CH_PORT/?database=spe" --format=csv "SELECT count() AS n FROM source" >"$tmp/out" 2>"$tmp/err"
expect env_credentials "$(tr -d '\r' <"$tmp/out")" "n
6"
note
if grep -q "$secret" "$all_messages"; then
	echo "FAIL a message printed the password:"
	grep "$secret" "$all_messages"
	fail=1
fi
exit $fail
