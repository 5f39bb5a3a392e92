#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# The option tables (cli/common/cli_options.h) on the built commands:
#  - --version on every command and subcommand ("PROG (spekit) VERSION", CMake's
#    project version); `spe help` lists the commands in the order of the work;
#  - a mistyped long option, on every command and subcommand: 64 and "did you
#    mean" the option (each one's first long option with a letter dropped);
#    a mistyped command or subcommand too;
#  - integers through the one parser, on real options: out of range,
#    garbage, overflow (64, the option, the value and the range);
#  - the old spellings do what the new names do (spe-load --cpu, spe-record
#    --cpu=MODEL, --cpu=N with --replay, --cpus, --period, spe-doctor --cpus,
#    spe-report --db, spe-topdown import --cpu);
#  - perf's names: spe-record -t/--type and --ldlat give the attr of the filter
#    terms they stand for; -i FILE on spe-dump, spe-load, spe-query and
#    spe-export reads the file the operand would;
#  - spe-export -C LIST, --pid and --tid keep the records perf script shows for
#    those CPUs, processes and threads (perf 6.1, --itrace=i1i: one sample per
#    record, the independent count).
#   cli_options.sh BINDIR FIXTURES VERSION
set -u
. "$(dirname "$0")/../lib/testlib.sh"
bin=$1 fx=$2 version=$3
scratch_dir cli-options
traces=$fx/workloads/traces
# run NAME WANT_RC PROG ARGS...: stdout in $tmp/out, stderr in $tmp/err
run() {
	name=$1 want=$2 prog=$3
	shift 3
	${SPE_RUN:-} "$bin/$prog" "$@" >"$tmp/out" 2>"$tmp/err"
	expect "$name exit" "$?" "$want"
}
err_has() { has "$1" "$(cat "$tmp/err")" "$2"; }
# same NAME PROG ARGS_A... -- ARGS_B...: both exit 0 with the same, non-empty, standard output
same() {
	name=$1 prog=$2
	shift 2
	a=
	while [ "$1" != -- ]; do a="$a '$1'"; shift; done
	shift
	eval "${SPE_RUN:-} \"\$bin/\$prog\" $a" >"$tmp/a" 2>"$tmp/a.err"
	expect "$name (first) exit" "$?" 0
	${SPE_RUN:-} "$bin/$prog" "$@" >"$tmp/b" 2>"$tmp/b.err"
	expect "$name (second) exit" "$?" 0
	[ -s "$tmp/a" ] || { echo "FAIL $name: no output"; fail=1; }
	expect "$name" "$(cat "$tmp/b")" "$(cat "$tmp/a")"
}

# the commands of this build, from spe's own list, in its order
run "spe help" 0 spe help
cmds=$(awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }' "$tmp/out")
order=" doctor record dump load query report export topdown facts "
last=-1
for c in $cmds; do
	pos=${order%% $c *}
	pos=$(printf '%s' "$pos" | wc -w)
	[ "$pos" -gt "$last" ] || { echo "FAIL spe help: $c out of the workflow order ($cmds)"; fail=1; }
	last=$pos
	has "spe help: a summary for $c" "$(grep "^  $c " "$tmp/out")" "  $c "
done
[ "$(echo $cmds | wc -w)" -ge 5 ] || { echo "FAIL spe help lists $cmds"; fail=1; }

# --version, and a mistyped option, on every command and subcommand
for c in $cmds; do
	subs=
	[ "$c" = topdown ] && subs="decode import stat"
	for s in ${subs:-""}; do
		what="spe-$c${s:+ $s}"
		run "$what --version" 0 spe-$c $s --version
		expect "$what --version" "$(cat "$tmp/out")" "$what (spekit) $version"
		# its first long option but --help and --version, one letter short
		opt=$(${SPE_RUN:-} "$bin/spe-$c" $s --help | sed -n 's/^  \(-[a-zA-Z], \|    \)--\([a-z][a-z0-9-]*\).*/\2/p' |
			grep -v -x -e help -e version | head -1)
		[ -n "$opt" ] || { echo "FAIL $what --help lists no option"; fail=1; continue; }
		typo=$(printf '%s' "$opt" | sed 's/.\(.\)$/\1/')
		run "$what --$typo" 64 spe-$c $s "--$typo"
		err_has "$what --$typo" "$what: unrecognized option '--$typo'; did you mean "
		err_has "$what --$typo" "'--$opt'"
	done
done
if [ -x "$bin/spe-topdown" ]; then
	run "spe-topdown --version" 0 spe-topdown --version
	expect "spe-topdown --version" "$(cat "$tmp/out")" "spe-topdown (spekit) $version"
fi
run "spe lod" 64 spe lod
err_has "spe lod" "spe: 'lod' is not a command; did you mean 'load'?"
if [ -x "$bin/spe-topdown" ]; then
	run "topdown imprt" 64 spe-topdown imprt x
	err_has "topdown imprt" "spe-topdown: unknown subcommand 'imprt'; did you mean 'import'?"
fi

# integers: one parser, one message, the range of each option
run "load --jobs=0" 64 spe-load --jobs=0 "$traces/memwork-cpu0.bin" -o "$tmp/j.db"
err_has "load --jobs=0" "spe-load: --jobs=0: out of range (1 to 256) (see spe-load --help)"
run "load --jobs=x" 64 spe-load --jobs=two "$traces/memwork-cpu0.bin" -o "$tmp/j.db"
err_has "load --jobs=x" "spe-load: --jobs=two: not an integer (1 to 256)"
run "load --jobs overflow" 64 spe-load --jobs 18446744073709551617 "$traces/memwork-cpu0.bin" -o "$tmp/j.db"
err_has "load --jobs overflow" "spe-load: --jobs=18446744073709551617: out of range (1 to 256)"
[ ! -e "$tmp/j.db" ] || { echo "FAIL a usage error created the database"; fail=1; }
run "record --paranoid=5" 64 spe-record --dry-run --cpu-model=neoverse-n1 --paranoid=5
err_has "record --paranoid=5" "spe-record: --paranoid=5: out of range (-1 to 4) (see spe-record --help)"
run "record -m x" 64 spe-record --dry-run --cpu-model=neoverse-n1 -m 1k
err_has "record -m x" "spe-record: -m 1k: not an integer (2 to 16777216)"
if [ -x "$bin/spe-topdown" ]; then
	run "topdown stat -I 5" 64 spe-topdown stat -I 5 -- true
	err_has "topdown stat -I 5" "spe-topdown stat: -I 5: out of range (10 to 2147483647) (see spe-topdown stat --help)"
fi

# a recording, loaded: for the readers below
run "replay memwork" 0 spe-record --replay="$traces/memwork.replay" -o "$tmp/m.data"
run "load memwork" 0 spe-load "$tmp/m.data" -o "$tmp/m.db"

# old spellings
run "load --raw --cpu=3" 0 spe-load --raw --midr=neoverse-n1 --cpu=3 "$traces/memwork-cpu0.bin" -o "$tmp/c-old.db"
run "load --raw --raw-cpu=3" 0 spe-load --raw --midr=neoverse-n1 --raw-cpu=3 "$traces/memwork-cpu0.bin" -o "$tmp/c-new.db"
same "load --cpu=3 = --raw-cpu=3" spe-query -d "$tmp/c-old.db" --format=csv "SELECT cpu, count(*) FROM spe_record GROUP BY cpu" -- \
	-d "$tmp/c-new.db" --format=csv "SELECT cpu, count(*) FROM spe_record GROUP BY cpu"
has "load --raw-cpu=3: every row on CPU 3" "$(tail -1 "$tmp/b")" "3,"
same "record --cpu=MODEL = --cpu-model=MODEL" spe-record --dry-run --cpu=neoverse-n1 --kernel=6.8 -- \
	--dry-run --cpu-model=neoverse-n1 --kernel=6.8
same "record --period = --count = -c" spe-record --dry-run --cpu-model=neoverse-n1 --period=2048 -- \
	--dry-run --cpu-model=neoverse-n1 --count=2048
has "record --count=2048" "$(cat "$tmp/b")" "sample_period=2048"
same "record -c" spe-record --dry-run --cpu-model=neoverse-n1 -c 2048 -- --dry-run --cpu-model=neoverse-n1 --count 2048
run "record --replay --cpu=3" 0 spe-record --replay="$traces/memwork-cpu1.bin" --cpu=3 -o "$tmp/c3-old.data"
run "record --replay --raw-cpu=3" 0 spe-record --replay="$traces/memwork-cpu1.bin" --raw-cpu=3 -o "$tmp/c3-new.data"
same "record --replay --cpu=3 = --raw-cpu=3" spe-dump --format=records -q "$tmp/c3-old.data" -- --format=records -q "$tmp/c3-new.data"
expect "record --raw-cpu=3: every record on CPU 3" "$(grep -c ' cpu=3 ' "$tmp/b")" "$(wc -l <"$tmp/b" | tr -d ' ')"
run "record --raw-cpu without --replay" 64 spe-record --raw-cpu=3 -a
err_has "record --raw-cpu without --replay" "--aux-size, --replay-burst, --midr and --raw-cpu go with --replay"
if command -v perf >/dev/null 2>&1; then
	run "record --replay --cpu-model" 0 spe-record --replay="$traces/memwork-cpu1.bin" --cpu-model=neoverse-n1 -o "$tmp/n1.data"
	has "record --cpu-model: perf reads its MIDR" "$(perf report --header-only -i "$tmp/n1.data" 2>/dev/null | grep cpuid)" \
		"0x00000000410fd0c0"
fi
same "doctor --cpus = -C" spe-doctor --root="$fx/doctor/all-good-perfmon/root" --cpus=0-1 -- \
	--root="$fx/doctor/all-good-perfmon/root" -C 0-1
if [ -x "$bin/spe-report" ]; then
	same "report --db = --database" spe-report --db="$tmp/m.db" -- --database="$tmp/m.db"
fi
if [ -x "$bin/spe-topdown" ]; then
	run "topdown import --cpu" 0 spe-topdown import "$fx/topdown/raw_westmere_libpmc.txt" -d "$tmp/td-old.db" --cpu westmere
	cp "$tmp/out" "$tmp/td-old"
	run "topdown import --cpu-model" 0 spe-topdown import "$fx/topdown/raw_westmere_libpmc.txt" -d "$tmp/td-new.db" \
		--cpu-model westmere
	expect "topdown import --cpu = --cpu-model" "$(cat "$tmp/out")" "$(cat "$tmp/td-old")"
	has "topdown import --cpu-model westmere" "$(cat "$tmp/out")" "cpu westmere, method wsm_approx"
fi

# spe-record -t/--type and --ldlat: the attr of the filter terms perf mem's options stand for
dry="--dry-run --cpu-model=neoverse-n1 --kernel=6.8"
same "record -t load = --load-filter" spe-record $dry -t load -- $dry --load-filter
same "record --type=store = --store-filter" spe-record $dry --type=store -- $dry --store-filter
same "record -t load,store" spe-record $dry -t load,store -- $dry --load-filter --store-filter
${SPE_RUN:-} "$bin/spe-record" $dry >"$tmp/plain" 2>/dev/null
[ "$(cat "$tmp/plain")" != "$(cat "$tmp/b")" ] || { echo "FAIL -t load,store changed nothing"; fail=1; }
run "record -t all" 64 spe-record $dry -t all
err_has "record -t all" "spe-record: --type=all: expected load, store or load,store"
same "record --ldlat = --min-latency" spe-record $dry --ldlat=30 -- $dry --min-latency=30
same "record --ldlat N" spe-record $dry --ldlat 30 -- $dry --min-latency=30
[ "$(cat "$tmp/plain")" != "$(cat "$tmp/b")" ] || { echo "FAIL --ldlat changed nothing"; fail=1; }
run "record --ldlat=x" 64 spe-record $dry --ldlat=x
err_has "record --ldlat=x" "min_latency: 'x' is not a decimal or 0x-hex number"

# -i FILE, as perf names the input
same "dump -i" spe-dump -q --format=records "$tmp/m.data" -- -q --format=records -i "$tmp/m.data"
run "dump -i and FILE" 64 spe-dump -i "$tmp/m.data" "$tmp/m.data"
err_has "dump -i and FILE" "spe-dump: expected one input file"
run "load -i" 0 spe-load -i "$tmp/m.data" -o "$tmp/i.db"
run "load -i and FILE" 0 spe-load "$tmp/c3-new.data" --input "$tmp/m.data" -o "$tmp/i2.db"
same "load -i: the same rows" spe-query -d "$tmp/m.db" --format=csv "SELECT count(*), sum(pc) FROM spe_record" -- \
	-d "$tmp/i.db" --format=csv "SELECT count(*), sum(pc) FROM spe_record"
run "load -i and FILE: two sources, -i's first" 0 spe-query -d "$tmp/i2.db" --format=csv "SELECT id, file FROM source ORDER BY id"
expect "load -i and FILE: two sources, -i's first" "$(tail -n +2 "$tmp/out" | tr -d '\r')" "1,$tmp/m.data
2,$tmp/c3-new.data"
same "query -i" spe-query --format=csv "$tmp/m.data" "SELECT count(*) FROM spe_record" -- \
	--format=csv "SELECT count(*) FROM spe_record" -i "$tmp/m.data"
if [ -x "$bin/spe-export" ]; then
	same "export -i" spe-export --format=folded "$tmp/m.data" -- --format=folded -i "$tmp/m.data"
fi

# spe-export -C LIST, --pid, --tid: the records perf script shows for them
if [ -x "$bin/spe-export" ] && command -v perf >/dev/null 2>&1; then
	run "replay datawork" 0 spe-record --replay="$traces/datawork.replay" -o "$tmp/d.data"
	run "load datawork" 0 spe-load "$tmp/d.data" -o "$tmp/d.db"
	# "cpu pid tid" of every record, as perf sees them
	perf script -i "$tmp/d.data" --itrace=i1i -F cpu,pid,tid 2>/dev/null |
		sed 's/^ *\([0-9]*\)\/\([0-9]*\) *\[0*\([0-9][0-9]*\)\].*/\3 \1 \2/' >"$tmp/perf"
	[ "$(wc -l <"$tmp/perf")" -gt 1000 ] || { echo "FAIL perf script shows $(wc -l <"$tmp/perf") records"; fail=1; }
	pid=$(awk 'NR == 1 { print $2 }' "$tmp/perf")
	tids=$(awk '{ print $3 }' "$tmp/perf" | sort -u | tr '\n' ' ')
	set -- $tids
	[ $# -ge 3 ] || { echo "FAIL perf shows threads '$tids'"; fail=1; }
	t1=$1 t2=$2 t3=$3
	# exported NAME ARGS...: the records spe-export kept (its summary line)
	exported() {
		${SPE_RUN:-} "$bin/spe-export" -d "$tmp/d.db" --format=folded --weight=samples "$@" >/dev/null 2>"$tmp/err"
		sed -n 's/^spe-export: \([0-9]*\) records, .*/\1/p; s/.*(\([0-9]*\) passed the filters).*/\1/p' "$tmp/err"
	}
	perf_count() { awk "$1" "$tmp/perf" | wc -l | tr -d ' '; }
	expect "export -C 1-2" "$(exported -C 1-2)" "$(perf_count '$1 == 1 || $1 == 2')"
	expect "export --cpu=0" "$(exported --cpu=0)" "$(perf_count '$1 == 0')"
	expect "export -C 2,0" "$(exported -C 2,0)" "$(perf_count '$1 == 2 || $1 == 0')"
	expect "export --tid=$t2,$t3" "$(exported --tid=$t2,$t3)" "$(perf_count "\$3 == $t2 || \$3 == $t3")"
	expect "export --pid=$pid" "$(exported --pid=$pid)" "$(perf_count "\$2 == $pid")"
	expect "export --pid=$pid,1" "$(exported --pid=$pid,1)" "$(perf_count "\$2 == $pid || \$2 == 1")"
	expect "export -C 0-2 --tid=$t1" "$(exported -C 0-2 --tid=$t1)" "$(perf_count "\$3 == $t1")"
	expect "export -C 1 --tid=$t1" "$(exported -C 1 --tid=$t1 --where='1=1 -- a comment')" \
		"$(perf_count "\$1 == 1 && \$3 == $t1")"
	run "export -C 5000" 64 spe-export -d "$tmp/d.db" --format=folded -C 0,5000
	err_has "export -C 5000" "spe-export: -C 0,5000: '5000' is out of range (CPUs from 0 to 4095"
	run "export --tid=1-2" 64 spe-export -d "$tmp/d.db" --format=folded --tid=1-2
	err_has "export --tid=1-2" "spe-export: --tid=1-2: '1-2' is not a number"
fi
exit $fail
