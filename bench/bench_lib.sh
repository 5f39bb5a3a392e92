# shellcheck shell=sh disable=SC2034,SC2154
# bench/bench_lib.sh: helpers the load benchmarks share (sourced by
# bench_load.sh and bench_shapes.sh, which set $work, their scratch directory;
# run's results are read by its caller).

# run LABEL COMMAND...: time it; sets wall, cpu (user + sys, seconds) and rss
# (peak resident MB); its stdout is in $work/out, its stderr in $work/err.
run() {
	label=$1
	shift
	/usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" >"$work/out" 2>"$work/err" ||
		{ echo "$label failed:"; cat "$work/err"; exit 1; }
	read -r wall user sys rss <"$work/time"
	cpu=$(echo "$user + $sys" | bc)
	rss=$((rss / 1024))
}

median() { # values...
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

loadavg() {
	cut -d' ' -f1-3 /proc/loadavg
}
