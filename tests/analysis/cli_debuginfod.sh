#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# spe-load and debuginfod, against loopback servers this test starts and stops:
#   - Debian's debuginfod serving fixtures/elf/.debug/memwork-stripped.debug: the
#     stripped memwork at its recorded path gets its names and lines from it (and
#     none without the server, or with --no-debuginfod); --debuginfod=URL does
#     what DEBUGINFOD_URLS does; the file lands in DEBUGINFOD_CACHE_PATH; a line
#     per fetch when stderr is a terminal (script(1) gives it one), none else;
#   - a server that accepts and never answers (silent_server): the load ends
#     within DEBUGINFOD_TIMEOUT (and within the default 5 s without it), exit 0,
#     with one line naming the fetch that timed out; the client's cache keeps no
#     mark of it; with --no-debuginfod no fetch is tried at all;
#   - SIGTERM during a hung fetch: spe-load exits 130 at once, the database
#     not created, nothing in the cache.
#   cli_debuginfod.sh RECORD LOAD QUERY SILENT_SERVER FIXTURES_DIR
# Exit 77 (skip) without Debian's debuginfod server.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
record=$1 load=$2 query=$3 silent=$4 fx=$5
if ! command -v debuginfod >/dev/null; then
	echo "SKIP: the debuginfod server is not installed (Debian package debuginfod)"
	exit 77
fi
scratch_dir cli-debuginfod
export HOME="$tmp/home" DEBUGINFOD_CACHE_PATH="$tmp/cache"
mkdir -p "$HOME"
unset DEBUGINFOD_URLS DEBUGINFOD_TIMEOUT DEBUGINFOD_PROGRESS DEBUGINFOD_VERBOSE PERF_BUILDID_DIR
server_pids=""
trap 'for p in $server_pids; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
query() { ${SPE_RUN:-} "$query" -d "$1" --format=csv "$2" | tr -d '\r' | tail -n +2; }
now_ms() { date +%s%3N; }
id=1a466382803aa50298bdd65d5121800874950ac3 # memwork-pie's, memwork-stripped's and its debug file's

# The memwork trace; its /memwork-pie is, under the root, the stripped build (no symbols, a debuglink
# to a file that is not there).
${SPE_RUN:-} "$record" --replay="$fx/workloads/traces/memwork.replay" -o "$tmp/mw.data" >/dev/null 2>&1 ||
	{ echo "FAIL replay"; exit 1; }
mkdir -p "$tmp/root" "$tmp/srv"
cp "$fx/elf/memwork-stripped" "$tmp/root/memwork-pie"
cp "$fx/elf/.debug/memwork-stripped.debug" "$tmp/srv/"
symbols() { query "$1" "SELECT group_concat(name, ' ') FROM (SELECT name FROM symbol ORDER BY name)"; }

# Debian's debuginfod on a free loopback port: up to 5 ports tried, ready once its scan indexed the file.
port=""
for try in 1 2 3 4 5; do
	p=$((20000 + ($$ * 7 + try * 1009) % 20000))
	: >"$tmp/srv.log" # before the child's own redirection: the loop below reads it at once
	debuginfod -F -d "$tmp/srv.sqlite" -p $p -t 0 -g 0 -c 1 "$tmp/srv" >"$tmp/srv.log" 2>&1 &
	pid=$!
	for i in $(seq 50); do
		grep -q 'buildids 1' "$tmp/srv.log" && { port=$p; break; }
		kill -0 $pid 2>/dev/null || break
		sleep 0.2
	done
	[ -n "$port" ] && { server_pids="$pid"; break; }
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
done
if [ -z "$port" ]; then
	echo "FAIL debuginfod did not start:"
	cat "$tmp/srv.log"
	exit 1
fi
url=http://127.0.0.1:$port

# Without a server: no names (and the time a load takes here, emulated or not).  With one: the
# debuginfo fetched, names and lines.
t0=$(now_ms)
${SPE_RUN:-} "$load" "$tmp/mw.data" -o "$tmp/none.db" --symfs="$tmp/root" 2>"$tmp/none.err"
expect none_rc $? 0
base=$(($(now_ms) - t0))
expect none_symbols "$(symbols "$tmp/none.db")" ""
DEBUGINFOD_URLS=$url ${SPE_RUN:-} "$load" "$tmp/mw.data" -o "$tmp/fetched.db" --symfs="$tmp/root" 2>"$tmp/fetched.err"
expect fetched_rc $? 0
expect fetched_symbols "$(symbols "$tmp/fetched.db")" "branchy bump_shared chase stream_sum"
expect fetched_lines "$(query "$tmp/fetched.db" "SELECT count(*) FROM insn WHERE line > 0")" \
	"$(query "$tmp/fetched.db" "SELECT count(*) FROM insn")"
expect fetched_cached "$(cmp "$tmp/cache/$id/debuginfo" "$fx/elf/.debug/memwork-stripped.debug" && echo same)" same
# stderr is no terminal here: no line for a fetch that went well
expect fetched_quiet "$(grep -c 'spe-load: debuginfod:' "$tmp/fetched.err")" 0
has fetched_server_log "$(cat "$tmp/srv.log")" "GET /buildid/$id/debuginfo 200"
# on a terminal (util-linux's script gives one): a line for the fetch
if command -v script >/dev/null; then
	rm -rf "$tmp/cache"
	DEBUGINFOD_URLS=$url script -qec "${SPE_RUN:-} '$load' '$tmp/mw.data' -o '$tmp/tty.db' --symfs='$tmp/root'" \
		/dev/null </dev/null >"$tmp/tty.out" 2>&1
	expect tty_line "$(tr -d '\r' <"$tmp/tty.out" | grep -c "^spe-load: debuginfod: debuginfo of /memwork-pie (build-id $id) \.\.\. fetched in [0-9.]* s$")" 1
fi
# --debuginfod=URL instead of the environment; from the cache, --no-debuginfod asks nothing
rm -rf "$tmp/cache"
${SPE_RUN:-} "$load" "$tmp/mw.data" -o "$tmp/option.db" --symfs="$tmp/root" --debuginfod="$url" 2>/dev/null
expect option_symbols "$(symbols "$tmp/option.db")" "branchy bump_shared chase stream_sum"
DEBUGINFOD_URLS=$url ${SPE_RUN:-} "$load" "$tmp/mw.data" -o "$tmp/off.db" --symfs="$tmp/root" --no-debuginfod 2>/dev/null
expect no_debuginfod_symbols "$(symbols "$tmp/off.db")" ""
${SPE_RUN:-} "$load" "$tmp/mw.data" -o "$tmp/usage.db" --debuginfod= 2>"$tmp/usage.err"
expect debuginfod_empty_rc $? 64
has debuginfod_empty "$(cat "$tmp/usage.err")" "--debuginfod=: no server given"

# A server that never answers.
: >"$tmp/silent.port"
${SPE_RUN:-} "$silent" 60 >"$tmp/silent.port" &
server_pids="$server_pids $!"
for i in $(seq 50); do [ -s "$tmp/silent.port" ] && break; sleep 0.1; done
hung=http://127.0.0.1:$(cat "$tmp/silent.port")
rm -rf "$tmp/cache"
t0=$(now_ms)
DEBUGINFOD_URLS=$hung DEBUGINFOD_TIMEOUT=2 ${SPE_RUN:-} "$load" "$tmp/mw.data" -o "$tmp/hung.db" --symfs="$tmp/root" \
	2>"$tmp/hung.err"
rc=$? t1=$(now_ms)
expect hung_rc $rc 0
[ $((t1 - t0)) -lt $((base + 4000)) ] ||
	{ echo "FAIL hung_bounded: $((t1 - t0)) ms with DEBUGINFOD_TIMEOUT=2 (a load without: $base ms)"; fail=1; }
expect hung_said_once "$(grep -c 'no byte within' "$tmp/hung.err")" 1
has hung_said "$(cat "$tmp/hung.err")" \
	"spe-load: debuginfod: debuginfo of /memwork-pie (build-id $id): no byte within 2 s (DEBUGINFOD_TIMEOUT; no server answered); no further fetches"
expect hung_symbols "$(symbols "$tmp/hung.db")" ""
expect hung_no_cache_entry "$(ls "$tmp/cache" 2>/dev/null | grep -c "$id")" 0
# the default: 5 s
t0=$(now_ms)
DEBUGINFOD_URLS=$hung ${SPE_RUN:-} "$load" "$tmp/mw.data" -o "$tmp/hung5.db" --symfs="$tmp/root" 2>"$tmp/hung5.err"
rc=$? t1=$(now_ms)
expect hung_default_rc $rc 0
[ $((t1 - t0)) -ge 4500 ] && [ $((t1 - t0)) -lt $((base + 7500)) ] ||
	{ echo "FAIL hung_default_timeout: $((t1 - t0)) ms, not about 5 s (a load without: $base ms)"; fail=1; }
has hung_default_said "$(cat "$tmp/hung5.err")" "no byte within 5 s"
# --no-debuginfod: not even tried
t0=$(now_ms)
DEBUGINFOD_URLS=$hung ${SPE_RUN:-} "$load" "$tmp/mw.data" -o "$tmp/hung-off.db" --symfs="$tmp/root" --no-debuginfod \
	2>"$tmp/hung-off.err"
t1=$(now_ms)
[ $((t1 - t0)) -lt $((base + 1500)) ] || { echo "FAIL no_debuginfod_fast: $((t1 - t0)) ms (a load: $base ms)"; fail=1; }
expect no_debuginfod_quiet "$(grep -c 'spe-load: debuginfod:' "$tmp/hung-off.err")" 0

# SIGTERM while a fetch hangs: out at once, nothing left behind.
rm -rf "$tmp/cache"
DEBUGINFOD_URLS=$hung DEBUGINFOD_TIMEOUT=60 ${SPE_RUN:-} "$load" "$tmp/mw.data" -o "$tmp/term.db" --symfs="$tmp/root" \
	2>"$tmp/term.err" &
lpid=$!
sleep 1.5
t0=$(now_ms)
kill -TERM $lpid
wait $lpid
rc=$? t1=$(now_ms)
expect term_rc $rc 143 # 128 + SIGTERM (cli/common/cli_signals.h)
[ $((t1 - t0)) -lt 2000 ] || { echo "FAIL term_prompt: $((t1 - t0)) ms after SIGTERM"; fail=1; }
has term_said "$(cat "$tmp/term.err")" "interrupted; $tmp/term.db not created"
expect term_no_database "$(ls "$tmp" | grep -c '^term\.db')" 0
expect term_no_cache_entry "$(ls "$tmp/cache" 2>/dev/null | grep -c "$id")" 0

exit $fail
