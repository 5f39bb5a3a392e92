#!/bin/sh
# bench/bench_jit.sh BUILD_DIR [ENTRIES [RECORDS [RUNS]]]: what JIT symbols add to a load.
#
# fixtures/workloads/gen_jit_bench.c writes a process with ENTRIES compiled functions (default
# 100000) as a perf-PID.map and as a jitdump (each with a DEBUG_INFO, a tenth compiled twice at
# one address), and two captures of RECORDS SPE loads (default 1000000) on them: one with the
# //anon mapping only, one with the jitdump's marker too (perf record -k 1).  Then, RUNS times
# each (default 3), interleaved, medians printed:
#   - spe-load of the map capture with the map (--jit-maps) and without (an empty directory):
#     the difference is what naming the PCs costs, reading included;
#   - spe-load of the dump capture with the dump and without;
#   - the same four loads of a capture of 1000 records: what reading the map and the dump
#     costs, whatever the records;
#   - perf script --itrace=i1i with the map in /tmp (a pid above PID_MAX_LIMIT: no process,
#     no other file), and perf inject --jit then perf script on the dump capture: the baselines.
# Wall times on a shared machine are noisy: compare CPU times and ratios.
set -eu
build=$(cd "$1" && pwd)
entries=${2:-100000}
records=${3:-1000000}
runs=${4:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/spe-bench-jit-XXXXXX")
pid=$((4194305 + $$ % 1000000))
trap 'rm -rf "$work"; rm -f /tmp/perf-$pid.map' EXIT
load=$build/cli/spe-load

run() { # sets wall, cpu (user + sys), rss (MB)
	/usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" >"$work/out" 2>"$work/err" ||
		{ echo "$* failed:"; cat "$work/err"; exit 1; }
	read -r wall user sys rss <"$work/time"
	cpu=$(echo "$user + $sys" | bc)
	rss=$((rss / 1024))
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

"$build/tests/analysis/gen_jit_bench" "$work" "$pid" "$entries" "$records"
mkdir "$work/none" "$work/small"
"$build/tests/analysis/gen_jit_bench" "$work/small" "$pid" "$entries" 1000
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs; $runs runs of each, interleaved"
echo "$entries functions: perf-$pid.map $(($(stat -c %s "$work/perf-$pid.map") / 1024)) KiB," \
	"jit-$pid.dump $(($(stat -c %s "$work/jit-$pid.dump") / 1048576)) MiB; $records records"
has_perf=0
command -v perf >/dev/null && [ -z "${SPE_RUN:-}" ] && has_perf=1
[ -e "/tmp/perf-$pid.map" ] && { echo "/tmp/perf-$pid.map exists: not ours"; exit 1; }
cp "$work/perf-$pid.map" "/tmp/perf-$pid.map"
find "$work" -maxdepth 1 -name "jitted-*.so" -delete
i=0
mw="" mc="" nw="" nc="" dw="" dc="" ow="" oc="" pw="" pc="" iw="" ic="" mr=0 dr=0 nr=0
while [ "$i" -lt "$runs" ]; do
	rm -f "$work"/*.db
	run "$load" "$work/map.data" -o "$work/m.db" --jit-maps="$work"
	mw="$mw $wall" mc="$mc $cpu"; [ "$rss" -gt "$mr" ] && mr=$rss
	run "$load" "$work/map.data" -o "$work/n.db" --jit-maps="$work/none"
	nw="$nw $wall" nc="$nc $cpu"; [ "$rss" -gt "$nr" ] && nr=$rss
	run "$load" "$work/dump.data" -o "$work/d.db" --jit-maps="$work"
	dw="$dw $wall" dc="$dc $cpu"; [ "$rss" -gt "$dr" ] && dr=$rss
	run "$load" "$work/dump.data" -o "$work/o.db" --jit-maps="$work/none"
	ow="$ow $wall" oc="$oc $cpu"
	for k in map dump; do
		run "$load" "$work/small/$k.data" -o "$work/s1.db" --jit-maps="$work/small"
		eval "s_${k}_with=\"\${s_${k}_with:-} $cpu\""
		run "$load" "$work/small/$k.data" -o "$work/s2.db" --jit-maps="$work/none"
		eval "s_${k}_without=\"\${s_${k}_without:-} $cpu\""
		rm -f "$work/s1.db" "$work/s2.db"
	done
	if [ $has_perf = 1 ]; then
		run perf script -i "$work/map.data" --itrace=i1i -F ip,sym
		pw="$pw $wall" pc="$pc $cpu"
		find "$work" -maxdepth 1 -name "jitted-*.so" -delete
		run perf inject --jit -i "$work/dump.data" -o "$work/dump.jit.data"
		w1=$wall c1=$cpu
		run perf script -i "$work/dump.jit.data" --itrace=i1i -F ip,sym
		iw="$iw $(echo "$w1 + $wall" | bc)" ic="$ic $(echo "$c1 + $cpu" | bc)"
	fi
	i=$((i + 1))
done
# shellcheck disable=SC2086
{
	mw=$(median $mw) mc=$(median $mc) nw=$(median $nw) nc=$(median $nc)
	dw=$(median $dw) dc=$(median $dc) ow=$(median $ow) oc=$(median $oc)
}
row() { printf '%-44s wall %7.2f s  cpu %7.2f s%s\n' "$1" "$2" "$3" "${4:-}"; }
row "spe-load, //anon without names" "$nw" "$nc" "  peak RSS $nr MB"
row "spe-load, //anon named from perf-PID.map" "$mw" "$mc" "  peak RSS $mr MB"
printf '%-44s %+.2f s of CPU (%+.0f %%)\n' "  the map adds" "$(echo "$mc - $nc" | bc)" \
	"$(echo "($mc - $nc) * 100 / $nc" | bc -l)"
row "spe-load, the marker's dump absent" "$ow" "$oc"
row "spe-load, the jitdump's code loads" "$dw" "$dc" "  peak RSS $dr MB"
printf '%-44s %+.2f s of CPU (%+.0f %%)\n' "  the dump adds" "$(echo "$dc - $oc" | bc)" \
	"$(echo "($dc - $oc) * 100 / $oc" | bc -l)"
# shellcheck disable=SC2086
printf '%-44s %+.3f s of CPU (map), %+.3f s (dump)\n' "  reading them (1000 records)" \
	"$(echo "$(median $s_map_with) - $(median $s_map_without)" | bc)" \
	"$(echo "$(median $s_dump_with) - $(median $s_dump_without)" | bc)"
if [ $has_perf = 1 ]; then
	# shellcheck disable=SC2086
	pw=$(median $pw) pc=$(median $pc) iw=$(median $iw) ic=$(median $ic)
	row "perf script, the map" "$pw" "$pc" "  spe-load / perf: cpu $(printf '%.2f' "$(echo "$mc / $pc" | bc -l)")"
	row "perf inject --jit + perf script, the dump" "$iw" "$ic" \
		"  spe-load / perf: cpu $(printf '%.2f' "$(echo "$dc / $ic" | bc -l)")"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
