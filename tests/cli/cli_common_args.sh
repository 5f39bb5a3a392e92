#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# What the commands share, spelled and checked the same way in each (the
# mistakes a new user makes first):
#  - --symfs and --source-dir naming no directory: 66 and a message naming
#    the option (they used to load or report with every symbol missing, exit 0);
#  - a spekit database given where a recording is read (spe-load DB, spe-query
#    DB "SQL", spe-export DB): 64 and "is a database" with the option to use
#    (they used to say "not a perf.data file ... raw SPE bytes?");
#  - a perf.data or database where raw SPE bytes are read (--raw, --replay): 64;
#  - spe-load writes ./spe.db without -o, the database the readers default to;
#  - --midr takes a CPU part name in spe-dump and spe-record as in spe-load;
#  - spe-report reads ./spe.db without -d, takes --database and -f as
#    spe-query does, names a stray argument, and --help lists its options;
#  - spe-topdown takes --database as well, and import writes ./spe.db without it.
#  - spe --version names the release of the build (CMake's PROJECT_VERSION).
#   cli_common_args.sh BINDIR FIXTURES VERSION
set -u
. "$(dirname "$0")/../lib/testlib.sh"
bin=$1 fx=$2 version=$3
scratch_dir cli-common-args
# run NAME WANT_RC PROG ARGS...: stdout in $tmp/out, stderr in $tmp/err
run() {
	name=$1 want=$2 prog=$3
	shift 3
	${SPE_RUN:-} "$bin/$prog" "$@" >"$tmp/out" 2>"$tmp/err"
	expect "$name exit" "$?" "$want"
}
err_has() { has "$1" "$(cat "$tmp/err")" "$2"; }

traces=$fx/workloads/traces
run "replay" 0 spe-record --replay="$traces/memwork.replay" -o "$tmp/m.data"
run "load" 0 spe-load "$tmp/m.data" -o "$tmp/m.db" --symfs="$fx/elf"
case "$(cat "$tmp/err")" in *"no binary found"*) echo "FAIL load --symfs: no binary found"; fail=1 ;; esac
# not one sample symbolized: the summary says where binaries are looked for
run "load without --symfs" 0 spe-load "$tmp/m.data" -o "$tmp/nosym.db"
err_has "load without --symfs" "1200 without symbol (no binary found: give --symfs=DIR, the root they are under)"

run "spe --version" 0 spe --version
expect "spe --version" "$(cat "$tmp/out")" "spe (spekit) $version"

# a full disk is named whether the write fails at the end or mid-way (m.data dumps past the 1 MiB
# buffer: the failure was silent, exit 74 only)
${SPE_RUN:-} "$bin/spe-dump" -q "$tmp/m.data" >/dev/full 2>"$tmp/err"
expect "dump >/dev/full exit" "$?" 74
err_has "dump >/dev/full" "spe-dump: error writing standard output: No space left on device"

${SPE_RUN:-} "$bin/spe" --help >/dev/full 2>"$tmp/err"
expect "spe --help >/dev/full exit" "$?" 74
err_has "spe --help >/dev/full" "spe: error writing standard output: No space left on device"

# spe-doctor --root at a capture's directory instead of its root: 66, not a wall of WARNs and 69
run "doctor --root=capture dir" 66 spe-doctor --root="$fx/doctor/all-good-perfmon"
err_has "doctor --root=capture dir" "$fx/doctor/all-good-perfmon: no proc/ or sys/ in it (give the root of a captured tree"
run "doctor --root=capture root" 0 spe-doctor --root="$fx/doctor/all-good-perfmon/root"

# spe help [COMMAND]
run "spe help" 0 spe help
has "spe help lists the commands" "$(cat "$tmp/out")" "  load"
run "spe help load" 0 spe help load
expect "spe help load = spe-load --help" "$(cat "$tmp/out")" "$(${SPE_RUN:-} "$bin/spe-load" --help)"
run "spe help nosuch" 64 spe help nosuch
err_has "spe help nosuch" "spe: 'nosuch' is not a command"

# through the front end a mistyped option is named with the command's program name (was "query: ...")
for c in dump load query; do
	run "spe $c --bogus" 64 spe $c --bogus
	err_has "spe $c --bogus" "spe-$c: unrecognized option '--bogus'"
done

# the readers without -d, where there is no ./spe.db: say it is the default and how to make it
mkdir "$tmp/empty"
no_default_db() { # PROG ARGS...
	prog=$1
	(cd "$tmp/empty" && ${SPE_RUN:-} "$bin/$@" >"$tmp/out" 2>"$tmp/err")
	expect "$prog without ./spe.db exit" "$?" 66
	err_has "$prog without ./spe.db" "$prog: ./spe.db: no such database (the default without -d DB; spe-load FILE"
}
no_default_db spe-query "SELECT 1"
[ -x "$bin/spe-report" ] && no_default_db spe-report
[ -x "$bin/spe-export" ] && no_default_db spe-export --format=folded

# spe-load writes ./spe.db without -o (what spe-query, spe-report and spe-export read), keeps one
mkdir "$tmp/cwd"
(cd "$tmp/cwd" && ${SPE_RUN:-} "$bin/spe-load" "$tmp/m.data" >"$tmp/out" 2>"$tmp/err")
expect "load without -o exit" "$?" 0
(cd "$tmp/cwd" && ${SPE_RUN:-} "$bin/spe-query" --format=csv "SELECT count(*) FROM spe_record" >"$tmp/out" 2>"$tmp/err")
expect "load without -o wrote ./spe.db" "$(tail -1 "$tmp/out" | tr -d "\r")" 1200
(cd "$tmp/cwd" && ${SPE_RUN:-} "$bin/spe-load" "$tmp/m.data" >"$tmp/out" 2>"$tmp/err")
expect "load without -o, spe.db exists: exit" "$?" 64

# one file named twice would be loaded twice, every count doubled
ln -s m.data "$tmp/again.data"
run "load same file twice" 64 spe-load "$tmp/m.data" "$tmp/again.data" -o "$tmp/twice.db"
err_has "load same file twice" "spe-load: $tmp/m.data and $tmp/again.data are the same file"
[ -e "$tmp/twice.db" ] && { echo "FAIL load same file twice created the database"; fail=1; }

# an output that is the command's own input: refused before the input is read, the input kept
# (each replaced the recording or database it was made from, exit 0)
cp "$tmp/m.data" "$tmp/in.data"
cp "$tmp/m.db" "$tmp/in.db"
ln -s in.db "$tmp/in-link.db"
run "load -o input" 64 spe-load "$tmp/in.data" -o "$tmp/in.data" --force
err_has "load -o input" "spe-load: -o $tmp/in.data: is the input $tmp/in.data; give another output file"
cp "$fx/kallsyms/arm64-small.kallsyms" "$tmp/kallsyms"
cp "$tmp/kallsyms" "$tmp/kallsyms.orig"
run "load -o --kallsyms" 64 spe-load "$tmp/m.data" --kallsyms="$tmp/kallsyms" -o "$tmp/kallsyms" --force
cmp -s "$tmp/kallsyms" "$tmp/kallsyms.orig" || { echo "FAIL load -o --kallsyms replaced it"; fail=1; }
if [ -x "$bin/spe-export" ]; then
	run "export -o FILE.data" 64 spe-export --format=folded -o "$tmp/in.data" "$tmp/in.data"
	err_has "export -o FILE.data" "spe-export: -o $tmp/in.data: is the input $tmp/in.data"
	run "export -o DB" 64 spe-export -d "$tmp/in.db" --format=folded -o "$tmp/in-link.db"
	err_has "export -o DB" "spe-export: -o $tmp/in-link.db: is the input $tmp/in.db"
fi
if [ -x "$bin/spe-report" ]; then
	run "report -o DB" 64 spe-report -d "$tmp/in.db" -o "$tmp/in.db"
	err_has "report -o DB" "spe-report: -o $tmp/in.db: is the input $tmp/in.db"
	run "report --html=DB" 64 spe-report -d "$tmp/in.db" --html="$tmp/in.db"
	run "report --annotate -o DB" 64 spe-report -d "$tmp/in.db" --annotate=chase -o "$tmp/in.db"
	run "report --diff -o DB_B" 64 spe-report --diff "$tmp/m.db" "$tmp/in.db" -o "$tmp/in.db"
	err_has "report --diff -o DB_B" "spe-report: -o $tmp/in.db: is the input $tmp/in.db"
fi
cmp -s "$tmp/m.data" "$tmp/in.data" || { echo "FAIL the recording was replaced"; fail=1; }
cmp -s "$tmp/m.db" "$tmp/in.db" || { echo "FAIL the database was replaced"; fail=1; }

if [ -x "$bin/spe-report" ]; then
	run "report without symbols" 0 spe-report -d "$tmp/nosym.db"
	has "report without symbols" "$(cat "$tmp/out")" "(no symbols: spe-load found none of the binaries; load again with --symfs=DIR"
	run "report with symbols" 0 spe-report -d "$tmp/m.db"
	case "$(cat "$tmp/out")" in *"no symbols"*) echo "FAIL report with symbols: says no symbols"; fail=1 ;; esac
fi

# --symfs / --source-dir
run "load --symfs missing" 66 spe-load "$tmp/m.data" -o "$tmp/x.db" --symfs="$tmp/nope"
err_has "load --symfs missing" "spe-load: --symfs=$tmp/nope: No such file or directory"
[ -e "$tmp/x.db" ] && { echo "FAIL load --symfs missing created the database"; fail=1; }
run "load --symfs file" 66 spe-load "$tmp/m.data" -o "$tmp/x.db" --symfs="$tmp/m.data"
err_has "load --symfs file" "spe-load: --symfs=$tmp/m.data: not a directory"
run "query FILE.data --symfs missing" 66 spe-query --symfs="$tmp/nope" "$tmp/m.data" "SELECT 1"
err_has "query --symfs missing" "spe-query: --symfs=$tmp/nope: No such file or directory"
if [ -x "$bin/spe-export" ]; then
	run "export --symfs missing" 66 spe-export -d "$tmp/m.db" --format=folded --symfs="$tmp/nope"
	err_has "export --symfs missing" "spe-export: --symfs=$tmp/nope: No such file or directory"
fi
if [ -x "$bin/spe-report" ]; then
	run "report --source-dir missing" 66 spe-report -d "$tmp/m.db" --annotate=chase --source-dir="$tmp/nope"
	err_has "report --source-dir missing" "spe-report: --source-dir=$tmp/nope: No such file or directory"
	run "report --symfs missing" 66 spe-report -d "$tmp/m.db" --html="$tmp/r.html" --symfs="$tmp/nope"
	[ -e "$tmp/r.html" ] && { echo "FAIL report --symfs missing wrote the page"; fail=1; }
fi

# a database where a recording is read
run "load DB" 64 spe-load "$tmp/m.db" -o "$tmp/y.db"
err_has "load DB" "spe-load: $tmp/m.db is a database, not a recording"
run "query DB SQL" 64 spe-query "$tmp/m.db" "SELECT 1"
err_has "query DB SQL" "spe-query: $tmp/m.db is a database, not a recording: give it as -d $tmp/m.db"
if [ -x "$bin/spe-export" ]; then
	run "export DB" 64 spe-export --format=folded "$tmp/m.db"
	err_has "export DB" "is a database, not a recording: give it as -d"
fi

# "-" where only files are read: say so (was "-: cannot open: No such file or directory", 66)
run "load -" 64 spe-load - -o "$tmp/stdin.db" </dev/null
err_has "load -" "spe-load: -: standard input is not read here; save it to a file first (spe-dump reads a pipe-mode"
run "query -" 64 spe-query - "SELECT 1" </dev/null
err_has "query -" "spe-query: -: standard input is not read here"

# a recording where a database (-d) is read: 64 and what to do (was "not an SQLite database", 65)
run "query -d perf.data" 64 spe-query -d "$tmp/m.data" "SELECT 1"
err_has "query -d perf.data" "spe-query: $tmp/m.data is a perf.data file, not a database: give it without -d"
if [ -x "$bin/spe-report" ]; then
	run "report -d perf.data" 64 spe-report -d "$tmp/m.data"
	err_has "report -d perf.data" "spe-report: $tmp/m.data is a perf.data file, not a database: load it first"
	run "report --diff perf.data" 64 spe-report --diff "$tmp/m.db" "$tmp/m.data"
	err_has "report --diff perf.data" "spe-report: $tmp/m.data is a perf.data file, not a database"
fi
if [ -x "$bin/spe-export" ]; then
	run "export -d perf.data" 64 spe-export -d "$tmp/m.data" --format=folded
	err_has "export -d perf.data" "spe-export: $tmp/m.data is a perf.data file, not a database: give it without -d"
fi

# a perf.data or a database where raw SPE bytes are read: refused before any output (they decoded
# with errors, exit 1, or replayed into a recording of garbage, exit 0)
run "dump --raw perf.data" 64 spe-dump --raw "$tmp/m.data"
err_has "dump --raw perf.data" "spe-dump: $tmp/m.data is a perf.data file, not raw SPE bytes: drop --raw"
expect "dump --raw perf.data: no output" "$(wc -c <"$tmp/out")" 0
run "load --raw perf.data" 64 spe-load --raw "$tmp/m.data" -o "$tmp/raw.db"
err_has "load --raw perf.data" "spe-load: $tmp/m.data is a perf.data file, not raw SPE bytes: drop --raw"
[ -e "$tmp/raw.db" ] && { echo "FAIL load --raw perf.data created the database"; fail=1; }
echo precious >"$tmp/keep.data"
run "record --replay=perf.data" 64 spe-record --replay="$tmp/m.data" -o "$tmp/keep.data"
err_has "record --replay=perf.data" "spe-record: $tmp/m.data is a perf.data file, not raw SPE bytes: --replay takes"
expect "record --replay=perf.data kept -o" "$(cat "$tmp/keep.data")" precious
run "record --replay=DB" 64 spe-record --replay="$tmp/m.db" -o "$tmp/keep.data"
err_has "record --replay=DB" "spe-record: $tmp/m.db is a database, not a recording: query it with spe-query -d $tmp/m.db"
if [ -x "$bin/spe-export" ]; then
	run "export --raw perf.data" 64 spe-export --format=folded --raw --midr=neoverse-n1 "$tmp/m.data"
	err_has "export --raw perf.data" "spe-export: $tmp/m.data is a perf.data file, not raw SPE bytes: drop --raw"
fi
run "dump --raw raw" 0 spe-dump --raw --records -q "$traces/memwork-cpu0.bin"

# spe-query FILE.data takes --raw --midr as its own error message advises (it refused --raw)
run "query raw bin" 65 spe-query "$traces/memwork-cpu0.bin" "SELECT 1"
err_has "query raw bin" "(raw SPE bytes? use --raw --midr=PART)"
run "query --raw" 0 spe-query --raw --midr=neoverse-n1 --format=csv "$traces/memwork-cpu0.bin" \
	"SELECT count(*) FROM spe_record"
got=$(tail -1 "$tmp/out" | tr -d "\r")
run "dump --raw records" 0 spe-dump --raw --midr=neoverse-n1 --records -q "$traces/memwork-cpu0.bin"
expect "query --raw records = spe-dump's" "$got" "$(wc -l <"$tmp/out" | tr -d ' ')"
run "query --raw, no --midr" 64 spe-query --raw "$traces/memwork-cpu0.bin" "SELECT 1"
err_has "query --raw, no --midr" "spe-query: --raw needs --midr"
run "query --raw -d" 64 spe-query --raw --midr=neoverse-n1 -d "$tmp/m.db" "SELECT 1"
err_has "query --raw -d" "spe-query: --raw and --midr go with FILE.data"

# --midr=PART
run "dump --midr=part" 0 spe-dump --raw --midr=neoverse-n1 --records -q "$traces/memwork-cpu0.bin"
has "dump --midr=part records" "$(head -1 "$tmp/out")" 'op="LD GP-REG"'
run "dump --midr=bogus" 64 spe-dump --raw --midr=neoverse-x99 "$traces/memwork-cpu0.bin"
err_has "dump --midr=bogus" "--midr=neoverse-x99: expected a 32-bit number such as 0x410fd0c0 or a CPU part"
run "record --midr=part" 0 spe-record --replay="$traces/memwork-cpu0.bin" --midr=neoverse-n1 -o "$tmp/n1.data"

# spe-report: -d's default, --database, -f, a stray argument
if [ -x "$bin/spe-report" ]; then
	run "report --database" 0 spe-report --database="$tmp/m.db" -f json
	has "report -f json" "$(cat "$tmp/out")" '{"spe_records": 1200'
	cp "$tmp/m.db" "$tmp/spe.db"
	(cd "$tmp" && ${SPE_RUN:-} "$bin/spe-report" >"$tmp/out" 2>"$tmp/err")
	expect "report ./spe.db exit" "$?" 0
	has "report ./spe.db" "$(cat "$tmp/out")" "SPE records: 1200"
	run "report DB as argument" 64 spe-report "$tmp/m.db"
	err_has "report DB as argument" "spe-report: $tmp/m.db is a database, not a recording: give it as -d $tmp/m.db"
	run "report --help" 0 spe-report --help
	has "report --help lists -f" "$(cat "$tmp/out")" "-f, --format=table|json|html"
fi
if [ -x "$bin/spe-topdown" ]; then
	run "topdown import --database" 0 spe-topdown import "$fx/topdown/perf-5.x_no-recovery-bubbles-std.txt" \
		--database="$tmp/td.db"
	run "topdown runs in --database" 0 spe-query -d "$tmp/td.db" "SELECT count(*) > 0 FROM topdown_run"
	has "topdown --database wrote a run" "$(cat "$tmp/out")" "1"
	run "topdown stat --sysroot missing" 66 spe-topdown stat --dry-run --sysroot="$tmp/nope" -- true
	err_has "topdown stat --sysroot missing" "spe-topdown stat: --sysroot=$tmp/nope: No such file or directory"
	(cd "$tmp/cwd" && ${SPE_RUN:-} "$bin/spe-topdown" import "$fx/topdown/perf-5.x_no-recovery-bubbles-std.txt" \
		>"$tmp/out" 2>"$tmp/err")
	expect "topdown import without -d exit" "$?" 0
	run "topdown import wrote ./spe.db" 0 spe-query -d "$tmp/cwd/spe.db" --format=csv "SELECT count(*) FROM topdown_run"
	expect "topdown import wrote ./spe.db" "$(tail -1 "$tmp/out" | tr -d "\r")" 1
fi
exit $fail
