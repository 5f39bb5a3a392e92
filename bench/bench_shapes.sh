#!/bin/sh
# bench/bench_shapes.sh BUILD_DIR [SHAPES [SIZES [RUNS]]]: the load, the
# views and the reports on captures of different shapes (issue 33: fast
# whatever the capture looks like).
#
# SHAPES (default all but reference), each a trace of fixtures/workloads/gen_bench.c
# written straight to a perf.data (--perf-data):
#   memory_bound    2,000 PCs in 200 functions; loads and stores at random
#                   words of 800,000 pages (3.2 GB, nearly every access a new
#                   cache line), half of them walking the TLB, all in a
#                   [heap] data mapping (a data object each): the work SPE
#                   exists for;
#   many_pcs        500,000 PCs in 20,000 functions;
#   many_functions  100,000 functions (2 PCs each, 80-character names), few
#                   hot and a long tail;
#   busy_host       100,000 PCs in 20,000 functions over 2,000 processes that
#                   each map the binary 40 times;
#   threads_cpus    256 CPUs, 10,000 threads in 10 processes, a context switch
#                   (SWITCH_CPU_WIDE out and in) every 50 records of a CPU,
#                   the thread's tid in each record's CONTEXT; 20,000 PCs;
#   reference       bench_load.sh's trace: 200,000 PCs in 20,000 functions,
#                   the shape on which the speed goals were first met.
# SIZES: records (default "1000000 10000000"; 100000000 on request: a 6.4 GB
# perf.data, and the database and the line spill beside it: the script
# checks the free space of $TMPDIR first).  RUNS (default 3).
#
# Printed for each shape and size, in one run on the same perf.data:
#   - spe-load (its default jobs) and `perf script --itrace=i1i -F ip,sym,addr`,
#     RUNS times each, interleaved so both see the same machine load: median
#     wall and CPU times and the ratios spe-load / perf script, peak RSS;
#   - the database's bytes per record, whole and per table and index (dbstat);
#   - every view read whole (`spe-query --format=csv "SELECT * FROM VIEW"`),
#     but spe_record and spe_sample (a row per record); the text report
#     (spe-report) and the HTML page (spe-report --html) and its size: each
#     RUNS times, interleaved, medians of wall and CPU and the peak RSS;
#   - the page's slowest queries (its Queries appendix, the last run).
# The load average is printed before and after each shape: on a shared
# machine compare CPU times and ratios, not wall times.
# SPE_BENCH_DIR=DIR works in DIR and keeps its files (the last shape's
# perf.data, database and page, and callgrind's profiles), for profiling.
# SPE_BENCH_VIEWS=0 leaves the views and the reports out (the load alone, as
# at 100M records).  SPE_BENCH_CALLGRIND=1 also counts the instructions of
# one spe-load and one perf script under callgrind (about 50 times slower:
# use it at 1M records).
set -eu
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
shapes=${2:-"memory_bound many_pcs many_functions busy_host threads_cpus"}
sizes=${3:-"1000000 10000000"}
runs=${4:-3}
if [ -n "${SPE_BENCH_DIR:-}" ]; then
	work=$SPE_BENCH_DIR
	mkdir -p "$work"
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/spe-shapes-XXXXXX")
	trap 'rm -rf "$work"' EXIT
fi
load=$build/cli/spe-load
query=$build/cli/spe-query
report=$build/cli/spe-report
gen=$build/tests/analysis/gen_bench

# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"

# shape_args NAME: gen_bench's options and PCS FUNCTIONS [PROCESSES MAPS]
shape_args() {
	case $1 in
	memory_bound) echo "--data-pages=800000 --tlb-walk=50 --data-mapping 2000 200" ;;
	many_pcs) echo "500000 20000" ;;
	many_functions) echo "--name-len=80 200000 100000" ;;
	busy_host) echo "100000 20000 2000 40" ;;
	threads_cpus) echo "--cpus=256 --threads=10000 --switch-every=50 20000 2000 10" ;;
	reference) echo "200000 20000" ;;
	*) echo "unknown shape $1" >&2; exit 64 ;;
	esac
}

command -v perf >/dev/null || { echo "bench_shapes: needs perf (the baseline)"; exit 69; }
echo "bench_shapes on $(git -C "$src" describe --always --dirty 2>/dev/null || echo '?'), $(date -u +%Y-%m-%d)," \
	"$(nproc) CPUs; $runs runs of each, interleaved"
for shape in $shapes; do
	args=$(shape_args "$shape")
	echo
	echo "#### $shape (gen_bench $args), load average before: $(loadavg)"
	for n in $sizes; do
		# the perf.data takes 64 bytes a record, the database up to 100, the line spill up to 32
		need=$((n * 200 / 1024))
		avail=$(df -Pk "$work" | awk 'NR == 2 { print $4 }')
		if [ "$avail" -lt "$need" ]; then
			echo "== $n records: skipped, needs ~$((need / 1048576)) GB in $work, $((avail / 1048576)) GB free"
			continue
		fi
		rm -f "$work/trace.data" "$work/t.db" "$work/page.html"
		# shellcheck disable=SC2086
		run gen_bench "$gen" --perf-data="$work/trace.data" "$work" "$n" $args
		echo
		echo "== $shape, $n records, $(($(stat -c %s "$work/trace.data") / 1048576)) MB perf.data (generated in ${wall} s)"

		lw="" lc="" pw="" pc="" peak=0 ppeak=0
		i=0
		while [ $i -lt "$runs" ]; do
			rm -f "$work/t.db"
			run spe-load "$load" "$work/trace.data" -o "$work/t.db" --symfs="$work"
			lw="$lw $wall" lc="$lc $cpu"
			[ "$rss" -gt "$peak" ] && peak=$rss
			run "perf script" perf script -i "$work/trace.data" --symfs="$work" --itrace=i1i -F ip,sym,addr
			pw="$pw $wall" pc="$pc $cpu"
			[ "$rss" -gt "$ppeak" ] && ppeak=$rss
			i=$((i + 1))
		done
		# shellcheck disable=SC2086
		mlw=$(median $lw) mlc=$(median $lc) mpw=$(median $pw) mpc=$(median $pc)
		printf 'spe-load      wall %7.2f s  cpu %7.2f s  %5.2f M records/s  peak RSS %4d MB  (walls:%s)\n' \
			"$mlw" "$mlc" "$(echo "$n / $mlw / 1000000" | bc -l)" "$peak" "$lw"
		printf 'perf script   wall %7.2f s  cpu %7.2f s  %5.2f M records/s  peak RSS %4d MB  (walls:%s)\n' \
			"$mpw" "$mpc" "$(echo "$n / $mpw / 1000000" | bc -l)" "$ppeak" "$pw"
		printf 'ratio spe-load / perf script: wall %.2f, cpu %.2f (goal <= 1.0)\n' \
			"$(echo "$mlw / $mpw" | bc -l)" "$(echo "$mlc / $mpc" | bc -l)"

		if [ "${SPE_BENCH_CALLGRIND:-0}" = 1 ]; then
			# instructions, which the machine's load does not change (valgrind serialises spe-load's threads)
			rm -f "$work/cg.db"
			run "callgrind spe-load" valgrind --tool=callgrind --callgrind-out-file="$work/cg.load" \
				"$load" "$work/trace.data" -o "$work/cg.db" --symfs="$work"
			li=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/err")
			run "callgrind perf script" valgrind --tool=callgrind --callgrind-out-file="$work/cg.perf" \
				perf script -i "$work/trace.data" --symfs="$work" --itrace=i1i -F ip,sym,addr
			pi=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/err")
			rm -f "$work/cg.db"
			printf 'instructions (callgrind): spe-load %.2f G, perf script %.2f G, ratio %.2f\n' \
				"$(echo "$li / 10^9" | bc -l)" "$(echo "$pi / 10^9" | bc -l)" "$(echo "$li / $pi" | bc -l)"
		fi
		size=$(stat -c %s "$work/t.db")
		printf 'database %d MB, %.1f bytes/record (goal <= 64); by table and index, bytes/record:\n' \
			$((size / 1048576)) "$(echo "$size / $n" | bc -l)"
		"$query" -d "$work/t.db" --format=csv \
			"SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC" 2>/dev/null |
			tail -n +2 | tr -d '\r' | awk -F, -v n="$n" '
				{ b = $NF / n; if (b >= 0.1) printf "  %-28s %7.2f\n", $1, b; else rest += b }
				END { printf "  %-28s %7.2f\n", "(the rest)", rest }'
		"$query" -d "$work/t.db" --format=csv "SELECT (SELECT count(*) FROM insn), (SELECT count(*) FROM symbol),
			(SELECT count(*) FROM mapping), (SELECT count(*) FROM thread), (SELECT count(*) FROM page_stat),
			(SELECT count(*) FROM cacheline_stat), (SELECT count(*) FROM data_object)" | tail -1 | tr -d '\r' |
			awk -F, '{ printf "rows: insn %s, symbol %s, mapping %s, thread %s, page_stat %s, cacheline_stat %s, data_object %s\n",
				$1, $2, $3, $4, $5, $6, $7 }'

		[ "${SPE_BENCH_VIEWS:-1}" = 0 ] && continue
		views=$("$query" -d "$work/t.db" --format=csv "SELECT name FROM sqlite_master WHERE type = 'view'
			AND name NOT IN ('spe_record', 'spe_sample') ORDER BY name" | tail -n +2 | tr -d '\r')
		items="$views text_report html_page"
		for it in $items; do eval "w_$it='' c_$it='' r_$it=0 n_$it=0"; done
		i=0
		while [ $i -lt "$runs" ]; do
			for it in $items; do
				case $it in
				text_report) run "$it" "$report" -d "$work/t.db"; rows=$(wc -l <"$work/out") ;;
				html_page) run "$it" "$report" -d "$work/t.db" --html="$work/page.html"
					rows=$(stat -c %s "$work/page.html") ;;
				*) run "$it" "$query" -d "$work/t.db" --format=csv "SELECT * FROM $it"
					rows=$(($(wc -l <"$work/out") - 1)) ;;
				esac
				eval "w_$it=\"\$w_$it $wall\" c_$it=\"\$c_$it $cpu\" n_$it=$rows"
				eval "[ $rss -gt \$r_$it ] && r_$it=$rss || :"
			done
			i=$((i + 1))
		done
		for it in $items; do
			ws="" cs="" r=0
			eval "ws=\$w_$it cs=\$c_$it r=\$r_$it rows=\$n_$it"
			case $it in
			text_report) what="$rows lines; goal < 2 s" ;;
			html_page) what="$((rows / 1024)) KB; goal < 5 s" ;;
			*) what="$rows rows" ;;
			esac
			# shellcheck disable=SC2086
			printf '  %-20s wall %6.2f s  cpu %6.2f s  RSS %4d MB  %s\n' "$it" "$(median $ws)" "$(median $cs)" \
				"$r" "$what"
		done
		echo "  the page's slowest queries (seconds, query, rows; its Queries appendix):"
		awk '/id="queries"/,/<\/tbody>/' "$work/page.html" | sed 's/<tr>/\n/g' |
			sed -n 's/.*data-col="query">\([^<]*\)<.*data-col="rows" class="n">\([0-9]*\)<.*data-col="seconds" class="n">\([0-9.]*\)<.*/\3 \1 \2/p' |
			sort -gr | head -8 | awk '{ printf "    %7.3f  %-22s %s rows\n", $1, $2, $3 }'
	done
	echo "#### $shape: load average after: $(loadavg)"
done
