#!/bin/sh
# bench/bench_load.sh BUILD_DIR [SIZES [RUNS]]: the load benchmark.
#
# For each size in SIZES (records; default "1000000 10000000") it generates a
# trace with a realistic spread of PCs (fixtures/workloads/gen_bench.c:
# 200,000 PCs in 20,000 functions of a generated ELF), then prints, in one
# run on the same perf.data:
#   - spe-load (with symbols; its default, two threads where two CPUs are
#     online), spe-load --jobs=1 and `perf script --itrace=i1i` (the
#     baseline), RUNS times each, interleaved so all see the same machine
#     load; their median wall and CPU times, CPU / wall (how much of a second
#     core a load used) and the ratios spe-load / perf script;
#   - the database's bytes per record (the whole file, and _spe_record's own
#     pages) and spe-load's peak RSS;
#   - the time of `SELECT * FROM <view>` (all rows, as CSV) for every view
#     but spe_sample (one row per record), so the growth with size is visible.
# SPE_BENCH_VIEWS=0 leaves the views out.  Needs ~1.5 GB in $TMPDIR at 10M records.  Wall times on a shared machine are
# noisy: compare the ratio, and the load average printed before and after.
set -eu
build=$(cd "$1" && pwd)
sizes=${2:-"1000000 10000000"}
runs=${3:-3}
pcs=200000
functions=20000
work=$(mktemp -d "${TMPDIR:-/tmp}/spe-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
load=$build/cli/spe-load
query=$build/cli/spe-query
views="hot_symbol hot_pc mem_level_summary latency_histogram tlb_hotspot cacheline_sharing branch_mispredict
hot_data_object data_page numa_traffic prefetch"

# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"

has_perf=0
command -v perf >/dev/null && has_perf=1
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs; $runs runs of each, interleaved"
for n in $sizes; do
	"$build/tests/analysis/gen_bench" "$work" "$n" "$pcs" "$functions" >/dev/null
	"$build/cli/spe-record" --replay="$work/bench.replay" -o "$work/trace.data" --aux-size=16M >/dev/null 2>&1
	rm -f "$work"/*.bin
	echo
	echo "== $n records, $pcs PCs in $functions functions, $(($(stat -c %s "$work/trace.data") / 1048576)) MB perf.data"
	lw="" lc="" l1w="" l1c="" pw="" pc="" peak=0
	i=0
	while [ $i -lt "$runs" ]; do
		rm -f "$work/t.db"
		run spe-load "$load" "$work/trace.data" -o "$work/t.db" --symfs="$work"
		lw="$lw $wall" lc="$lc $cpu"
		[ "$rss" -gt "$peak" ] && peak=$rss
		rm -f "$work/t1.db"
		run "spe-load --jobs=1" "$load" --jobs=1 "$work/trace.data" -o "$work/t1.db" --symfs="$work"
		l1w="$l1w $wall" l1c="$l1c $cpu"
		[ "$rss" -gt "$peak" ] && peak=$rss
		rm -f "$work/t1.db"
		if [ $has_perf = 1 ]; then
			run "perf script" perf script -i "$work/trace.data" --symfs="$work" --itrace=i1i -F ip,sym,addr
			pw="$pw $wall" pc="$pc $cpu"
		fi
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	mlw=$(median $lw) mlc=$(median $lc)
	# shellcheck disable=SC2086
	m1w=$(median $l1w) m1c=$(median $l1c)
	printf '%-26s wall %7.2f s  cpu %7.2f s  %5.2f M records/s (wall)  cpu/wall %.2f  peak RSS %d MB\n' \
		"spe-load (symbols)" "$mlw" "$mlc" "$(echo "$n / $mlw / 1000000" | bc -l)" "$(echo "$mlc / $mlw" | bc -l)" "$peak"
	printf '%-26s wall %7.2f s  cpu %7.2f s  %5.2f M records/s (wall)  cpu/wall %.2f\n' "spe-load --jobs=1" \
		"$m1w" "$m1c" "$(echo "$n / $m1w / 1000000" | bc -l)" "$(echo "$m1c / $m1w" | bc -l)"
	if [ $has_perf = 1 ]; then
		# shellcheck disable=SC2086
		mpw=$(median $pw) mpc=$(median $pc)
		printf '%-26s wall %7.2f s  cpu %7.2f s  %5.2f M records/s (wall)\n' "perf script --itrace=i1i" \
			"$mpw" "$mpc" "$(echo "$n / $mpw / 1000000" | bc -l)"
		printf 'ratio spe-load / perf script: wall %.2f, cpu %.2f (goal <= 1.0); --jobs=1: wall %.2f, cpu %.2f\n' \
			"$(echo "$mlw / $mpw" | bc -l)" "$(echo "$mlc / $mpc" | bc -l)" \
			"$(echo "$m1w / $mpw" | bc -l)" "$(echo "$m1c / $mpc" | bc -l)"
	fi
	size=$(stat -c %s "$work/t.db")
	rec=$("$query" -d "$work/t.db" --format=csv \
		"SELECT sum(pgsize) FROM dbstat WHERE name = '_spe_record'" 2>/dev/null | tail -1 | tr -d '\r')
	printf 'database: %d MB, %.1f bytes/record (_spe_record: %s bytes/record; goal <= 64)\n' \
		$((size / 1048576)) "$(echo "$size / $n" | bc -l)" \
		"$( [ -n "$rec" ] && printf '%.1f' "$(echo "$rec / $n" | bc -l)" || echo '?')"
	[ "${SPE_BENCH_VIEWS:-1}" = 0 ] && continue
	for v in $views; do
		run "$v" "$query" -d "$work/t.db" --format=csv "SELECT * FROM $v"
		printf '  view %-20s %6.2f s wall  %6.2f s cpu  %d rows\n' "$v" "$wall" "$cpu" \
			$(($(wc -l <"$work/out") - 1))
	done
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
