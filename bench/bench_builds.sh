#!/bin/sh
# bench/bench_builds.sh SIZE RUNS BUILD_DIR...: the same load with several
# builds of spekit, to compare how they were built (e.g. SPE_SQLITE_LINK=
# source, static and shared: docs/performance.md).
#
# Generates one gen_bench trace of SIZE records (as bench/bench_load.sh: 200,000
# PCs in 20,000 functions) with the first build, then loads it with each
# build's spe-load (with symbols, --jobs=2 and --jobs=1), RUNS rounds, the
# builds interleaved within each round so all see the same machine load.
# Prints each build's median wall, user and system time and peak RSS, and the
# ratios of its medians to the first build's.  With SPE_BENCH_VIEWS=1 each
# build's spe-query then reads every view of one of the databases, RUNS
# rounds interleaved, medians of CPU time.  Wall times on a shared machine are
# noisy: the load average is printed before and after.
set -eu
[ $# -ge 3 ] || { echo "usage: bench/bench_builds.sh SIZE RUNS BUILD_DIR..." >&2; exit 64; }
n=$1 runs=$2
shift 2
builds=""
for b in "$@"; do builds="$builds $(cd "$b" && pwd)"; done
first=$(cd "$1" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/spe-bench-builds-XXXXXX")
trap 'rm -rf "$work"' EXIT
views="hot_symbol hot_pc mem_level_summary latency_histogram tlb_hotspot cacheline_sharing branch_mispredict
hot_data_object data_page numa_traffic prefetch"

# run COMMAND...: sets wall, user, sys (s) and rss (MB)
run() {
	/usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" >"$work/out" 2>"$work/err" ||
		{ echo "failed: $*"; cat "$work/err"; exit 1; }
	read -r wall user sys rss <"$work/time"
	rss=$((rss / 1024))
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
key() { echo "$1" | md5sum | cut -c1-8; } # a shell-variable-safe name per build
# add NAME VALUE: append VALUE to the list $NAME
add() { eval "$1=\"\${$1:-} $2\""; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs; $runs rounds, builds interleaved"
"$first/tests/analysis/gen_bench" "$work" "$n" 200000 20000 >/dev/null
"$first/cli/spe-record" --replay="$work/bench.replay" -o "$work/trace.data" --aux-size=16M >/dev/null 2>&1
rm -f "$work"/*.bin
echo "== $n records, $(($(stat -c %s "$work/trace.data") / 1048576)) MB perf.data"
i=0
while [ $i -lt "$runs" ]; do
	for b in $builds; do
		k=$(key "$b")
		for jobs in 2 1; do
			rm -f "$work/t.db"
			run "$b/cli/spe-load" --jobs=$jobs "$work/trace.data" -o "$work/t.db" --symfs="$work"
			add "w_${k}_$jobs" "$wall"
			add "u_${k}_$jobs" "$user"
			add "s_${k}_$jobs" "$sys"
			add "r_${k}_$jobs" "$rss"
		done
	done
	i=$((i + 1))
done
for jobs in 2 1; do
	k0=$(key "$first")
	eval "w0=\$(median \$w_${k0}_$jobs) u0=\$(median \$u_${k0}_$jobs)"
	for b in $builds; do
		k=$(key "$b")
		eval "w=\$(median \$w_${k}_$jobs) u=\$(median \$u_${k}_$jobs) s=\$(median \$s_${k}_$jobs) r=\$(median \$r_${k}_$jobs)"
		printf 'spe-load --jobs=%d %-28s wall %7.2f s  user %7.2f s  sys %5.2f s  RSS %4d MB  wall/first %.3f  user/first %.3f\n' \
			"$jobs" "$(basename "$b")" "$w" "$u" "$s" "$r" "$(echo "$w / $w0" | bc -l)" "$(echo "$u / $u0" | bc -l)"
	done
done
if [ "${SPE_BENCH_VIEWS:-0}" = 1 ]; then
	rm -f "$work/t.db"
	"$first/cli/spe-load" "$work/trace.data" -o "$work/t.db" --symfs="$work" 2>/dev/null
	for v in $views; do
		i=0
		while [ $i -lt "$runs" ]; do
			for b in $builds; do
				run "$b/cli/spe-query" -d "$work/t.db" --format=csv "SELECT * FROM $v"
				add "v_$(key "$b")" "$(echo "$user + $sys" | bc)"
			done
			i=$((i + 1))
		done
		line=$(printf '  view %-18s cpu' "$v")
		for b in $builds; do
			k=$(key "$b")
			eval "c=\$(median \$v_$k)"
			eval "v_$k="
			line="$line $(printf '%-12s %6.2f s ' "$(basename "$b")" "$c")"
		done
		echo "$line"
	done
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
