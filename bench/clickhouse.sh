#!/bin/sh
# bench/clickhouse.sh BUILD_DIR [--current] [RECORDS...]: SQLite against the 2-shard
# ClickHouse cluster of tests/clickhouse (two clickhouse-server processes on
# loopback, started and stopped here) or, with --current, against one current
# ClickHouse (the chDB package's engine behind tests/clickhouse/chdb_http, as
# the test clickhouse_current runs it; the package from $SPE_CHDB_CACHE, else
# build/chdb-* of this checkout) on the same generated traces
# (fixtures/workloads/gen_bench.c; default 1,000,000 and 10,000,000 records,
# PCs and functions in the proportions of fixtures/workloads/bench_load.sh).
# For each size: records/s of spe-load into SQLite (-o) and into the cluster
# (--clickhouse --cluster), and the time of hot_symbol, mem_level_summary,
# latency_histogram, an ad-hoc scan of spe_record (loads over 100 cycles
# by process) and the whole HTML page (spe-report --html) on both (each query
# the best of 3 runs), with the ratio ClickHouse/SQLite measured in the same
# run.  Wall times on a shared machine are noisy: the load average is
# printed.  Then the bytes on disk of each table and of the columns of
# repeated names (system.parts, system.columns; all servers).  Needs about
# 1 GB of $TMPDIR per million records.
set -eu
build=$(cd "$1" && pwd)
shift
current=
[ "${1:-}" = --current ] && { current=1; shift; }
[ $# -gt 0 ] || set -- 1000000 10000000
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/spe-chbench-XXXXXX")
ch_conf_dir=$here/../tests/clickhouse
. "$ch_conf_dir/cluster.sh"
if [ -n "$current" ]; then
	. "$ch_conf_dir/chdb.sh"
	lib=$(ls "${SPE_CHDB_CACHE:-$here/../build/chdb-*}/libchdb.so" 2>/dev/null | tail -1)
	[ -n "$lib" ] || { echo "no libchdb.so: run ctest -R clickhouse_current once, or set SPE_CHDB_CACHE" >&2; exit 69; }
	ch_chdb_start "$work/chdb" "$build/tests/clickhouse/chdb_http" "$lib" || exit 1
	trap '{ ch_chdb_stop "$work/chdb"; } || :; rm -rf "$work"' EXIT
	CH_URL1=$CH_URL
	servers=$CH_URL
	cluster=
	data_dirs=$work/chdb/data
else
	ch_cluster_start "$work/cluster" || exit 1
	trap '{ ch_cluster_stop "$work/cluster"; } || :; rm -rf "$work"' EXIT
	servers="$CH_URL1 $CH_URL2"
	cluster=--cluster=spe_test
	data_dirs="$work/cluster/s1/data $work/cluster/s2/data"
fi
trap 'exit 1' INT TERM

seconds() { # command...: its wall time in seconds (output discarded) in $t, its CPU time in $cpu
	/usr/bin/time -f "%e %U %S" -o "$work/time" "$@" >/dev/null 2>"$work/err" || { cat "$work/err"; exit 1; }
	read -r t user sys <"$work/time"
	cpu=$(echo "$user + $sys" | bc)
}
best() { # command...: the least wall time of 3 runs in $t (a shared machine's noise only ever adds)
	seconds "$@"
	b=$t
	for _ in 2 3; do
		seconds "$@"
		[ "$(echo "$t < $b" | bc)" = 1 ] && b=$t
	done
	t=$b
}
ratio() { # A / B, or - when B rounds to 0
	if [ "$(echo "$2 < 0.005" | bc)" = 1 ]; then echo -; else echo "scale=2; $1 / $2" | bc; fi
}

echo "ClickHouse $(ch_http "$CH_URL1" "SELECT version()"), $([ -n "$current" ] && echo "one server (chDB)" || echo "2 shards") on loopback; $(nproc) CPUs;" \
	"load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %-22s %12s %12s %8s\n' records step SQLite ClickHouse CH/SQLite
for n in "$@"; do
	rm -rf "$work/t" && mkdir "$work/t"
	"$build/tests/analysis/gen_bench" "$work/t" "$n" $((n / 50)) $((n / 500))
	"$build/cli/spe-record" --replay="$work/t/bench.replay" -o "$work/t/trace.data" --aux-size=16M >/dev/null 2>&1
	rm -f "$work"/t/*.bin
	url="http://127.0.0.1:$CH_PORT/?database=bench_$n"
	# the database, tables and views first (a few seconds, once per database): the load times one capture
	mkdir -p "$work/s"
	"$build/tests/analysis/gen_bench" "$work/s" 1000 10 1
	"$build/cli/spe-record" --replay="$work/s/bench.replay" -o "$work/s/small.data" >/dev/null 2>&1
	"$build/cli/spe-load" "$work/s/small.data" --no-symbols --clickhouse="$url" $cluster 2>/dev/null

	seconds "$build/cli/spe-load" "$work/t/trace.data" --symfs="$work/t" -o "$work/t/trace.db"
	sq=$t sq_cpu=$cpu
	seconds "$build/cli/spe-load" "$work/t/trace.data" --symfs="$work/t" --clickhouse="$url" $cluster
	ch=$t ch_cpu=$cpu
	printf '%-10s %-22s %12s %12s %8s\n' "$n" "load (records/s)" "$(echo "$n / $sq" | bc)" "$(echo "$n / $ch" | bc)" \
		"$(ratio "$sq" "$ch")"
	printf '%-10s %-22s %11.2fs %11.2fs %8s\n' "$n" "  spe-load CPU time" "$sq_cpu" "$ch_cpu" "$(ratio "$ch_cpu" "$sq_cpu")"
	# the three views (SQLite reads the summaries spe-load wrote), then a question no summary answers
	adhoc="SELECT pid, count(*) AS loads, sum(total_latency) AS latency FROM spe_record WHERE op_class = 'load' AND total_latency > 100 GROUP BY pid"
	for q in hot_symbol mem_level_summary latency_histogram adhoc; do
		sql="SELECT * FROM $q"
		[ "$q" = adhoc ] && sql=$adhoc
		best "$build/cli/spe-query" -d "$work/t/trace.db" "$sql"
		sq=$t
		best "$build/cli/spe-query" --clickhouse="$url" "$sql"
		ch=$t
		printf '%-10s %-22s %11.2fs %11.2fs %8s\n' "$n" "$([ "$q" = adhoc ] && echo "spe_record scan" || echo "$q")" \
			"$sq" "$ch" "$(ratio "$ch" "$sq")"
	done
	# the whole HTML page (spe-report --html: every section's queries, the sections' drawing)
	seconds "$build/cli/spe-report" -d "$work/t/trace.db" --html="$work/t/sq.html" --symfs="$work/t"
	sq=$t
	seconds "$build/cli/spe-report" --clickhouse="$url" --html="$work/t/ch.html" --symfs="$work/t"
	ch=$t
	printf '%-10s %-22s %11.2fs %11.2fs %8s\n' "$n" "spe-report --html" "$sq" "$ch" "$(ratio "$ch" "$sq")"
	echo "           sizes: SQLite $(($(stat -c %s "$work/t/trace.db") / 1048576)) MB, ClickHouse" \
		"$(($(du -sk $data_dirs | awk '{s += $1} END {print s}') / 1024)) MB" \
		"(all servers, all sizes so far)"
	# bytes on disk by table (active parts), and of the columns of repeated names, summed over the servers
	for s in $servers; do
		ch_http "$s" "SELECT table, sum(bytes_on_disk) FROM system.parts WHERE database = 'bench_$n' AND active GROUP BY table FORMAT TabSeparated"
	done | awk '{b[$1] += $2} END {for (t in b) printf "           %-22s %12d bytes on disk\n", t, b[t]}' | sort
	for s in $servers; do
		ch_http "$s" "SELECT concat(table, '.', name), type, data_compressed_bytes FROM system.columns WHERE database = 'bench_$n' AND table LIKE '%_spe_record%' AND name IN ('op_class', 'op', 'mem_level') FORMAT TabSeparated"
	done | awk -F'\t' '{b[$1 " " $2] += $3} END {for (c in b) printf "           %-50s %10d bytes compressed\n", c, b[c]}' | sort
	rm -rf "$work/t"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
