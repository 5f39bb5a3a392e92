#!/bin/sh
# Score one real-capture case (tests/realcap/README.md):
#   score.sh NAME CASE_DIR SYSROOT SPLICE SPE_LOAD SPE_QUERY SCORE [--plan=FILE]
#            [--kallsyms] [--perf-map] [--expected-failure]
# Splices CASE_DIR/input.data with CASE_DIR/plan (or CASE_DIR/FILE) into an arm64 capture, runs
# perf script and spe-load + spe-query on it with the same --symfs (and,
# with --kallsyms, CASE_DIR/kallsyms for both), and lets realcap_score
# compare both with the truth spe-splice wrote.  --perf-map puts
# CASE_DIR/perf-PID.map where perf reads it (/tmp on this host) and in a
# copy of the symfs (its tmp/), for the duration of the run.
# Exit: realcap_score's (0 pass, 1 fail), 77 without perf 6.x (or under an
# emulator), 70 when a tool fails to run.  With --expected-failure (the test
# is in expected_failures.txt) a fail exits 0 and a pass exits 1 with a
# message saying to take the test off the list; other statuses stay.
# Files are kept in $REALCAP_KEEP/NAME when that is set.
set -u
name=$1 case_dir=$2 sysroot=$3 splice=$4 spe_load=$5 spe_query=$6 score=$7
shift 7
# absolute paths: what both tools are given must not depend on where this runs
case_dir=$(cd "$case_dir" && pwd) sysroot=$(cd "$sysroot" && pwd)
kallsyms= perf_map= plan=plan expected_failure=
for opt in "$@"; do
	case $opt in
	--plan=*) plan=${opt#--plan=} ;;
	--expected-failure) expected_failure=1 ;;
	--kallsyms) kallsyms=$case_dir/kallsyms ;;
	--perf-map) perf_map=$(ls "$case_dir"/perf-*.map) ;;
	*) echo "score.sh: unknown option $opt" >&2; exit 64 ;;
	esac
done
if ! command -v perf >/dev/null || [ -n "${SPE_RUN:-}" ]; then
	echo "SKIP: no perf (or cross-compiled: SPE_RUN is set)"
	exit 77
fi
case $(perf --version 2>/dev/null) in
"perf version 6."*) ;;
*) echo "SKIP: perf 6.x needed, found: $(perf --version 2>&1)"; exit 77 ;;
esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/realcap-$name-XXXXXX")
installed_map=
cleanup() {
	[ -n "$installed_map" ] && rm -f "$installed_map"
	if [ -n "${REALCAP_KEEP:-}" ]; then
		mkdir -p "$REALCAP_KEEP/$name" && cp -r "$tmp"/. "$REALCAP_KEEP/$name/"
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
# no network, no build-id cache of this machine's user
export DEBUGINFOD_URLS= HOME=$tmp/home PAGER=cat
mkdir -p "$HOME"

run() { # what, then the command; its stderr goes to $tmp/what.err
	what=$1; shift
	"$@" 2>"$tmp/$what.err"
}

if ! run splice "$splice" --sysroot="$sysroot" --truth="$tmp/truth.tsv" "$case_dir/input.data" "$case_dir/$plan" "$tmp/case.data"; then
	cat "$tmp/splice.err"
	exit 70
fi

symfs=$sysroot
if [ -n "$perf_map" ]; then
	# a symfs that is the sysroot plus tmp/perf-PID.map, and the map in this host's /tmp for perf
	symfs=$tmp/symfs
	mkdir -p "$symfs/tmp"
	for e in "$sysroot"/*; do ln -s "$(cd "$(dirname "$e")" && pwd)/$(basename "$e")" "$symfs/"; done
	cp "$perf_map" "$symfs/tmp/"
	host_map=/tmp/$(basename "$perf_map")
	if [ -e "$host_map" ] && ! cmp -s "$host_map" "$perf_map"; then
		echo "SKIP: $host_map exists with other content (another process's map?)"
		exit 77
	fi
	if [ ! -e "$host_map" ]; then
		cp "$perf_map" "$host_map" && installed_map=$host_map
	fi
fi

set -- --symfs="$symfs"
[ -n "$kallsyms" ] && set -- "$@" --kallsyms="$kallsyms"
# A pipe-format file goes to perf on stdin: perf 6.1 reading one with -i FILE
# seeks to AUXTRACE data 16 bytes early (a stream offset taken for a file
# offset: the pipe header is not counted) and decodes garbage.
if [ "$(od -An -tu8 -j8 -N8 "$tmp/case.data" | tr -d ' ')" = 16 ]; then
	run perf sh -c 'f=$1; shift; cat "$f" | perf script -i - "$@"' sh "$tmp/case.data" \
		--itrace=i1i --ns -F event,cpu,time,pid,tid,ip,sym,dso "$@" >"$tmp/perf.txt"
	prc=$?
else
	run perf perf script -i "$tmp/case.data" --itrace=i1i --ns -F event,cpu,time,pid,tid,ip,sym,dso "$@" >"$tmp/perf.txt"
	prc=$?
fi
if [ $prc != 0 ]; then
	echo "perf script failed (exit $prc):"
	head -20 "$tmp/perf.err"
	exit 70
fi
run load "$spe_load" "$tmp/case.data" -o "$tmp/spe.db" "$@"
lrc=$?
if [ $lrc != 0 ] && [ $lrc != 1 ]; then
	# a load that fails is scored as no rows: every record missing
	echo "spe-load failed (exit $lrc): $(head -5 "$tmp/load.err")"
	printf 'cpu,ts,pc,pid,tid,path,name\n' >"$tmp/spe.csv"
else
	if ! run query "$spe_query" -d "$tmp/spe.db" --format=csv \
		"SELECT r.cpu, r.ts, printf('0x%x', r.pc), r.pid, r.tid, m.path, s.name
		 FROM spe_record r LEFT JOIN mapping m ON m.id = r.mapping_id LEFT JOIN symbol s ON s.id = r.symbol_id
		 ORDER BY r.id" >"$tmp/spe.csv"; then
		cat "$tmp/query.err"
		exit 70
	fi
fi
"$score" --name="$name" --truth="$tmp/truth.tsv" --perf="$tmp/perf.txt" --spe="$tmp/spe.csv"
src=$?
if [ -n "$expected_failure" ]; then
	case $src in
	0) echo "realcap $name: PASSES now -- take it off tests/realcap/expected_failures.txt"; exit 1 ;;
	1) echo "realcap $name: fails as expected (tests/realcap/expected_failures.txt)"; exit 0 ;;
	esac
fi
exit $src
