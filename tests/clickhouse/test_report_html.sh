#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# spe-report --clickhouse --html / --annotate against a real 2-shard cluster
# (tests/clickhouse/cluster.sh): the same three captures loaded into SQLite
# and into the cluster give the same page.
#   - the page of every capture, and of one host (--host) against the
#     SQLite database of that capture alone, compared cell by cell after the
#     normalisations below; the annotation of a function, text and JSON,
#     byte for byte;
#   - every request of the report carried readonly=1 (the server's
#     query_log), and no message or page holds the password;
#   - the page renders in headless chromium with no console message, its
#     script ran and all its sections are there;
#   - a shard killed while the page is being written (the report stopped
#     with SIGSTOP after its first queries, the shard killed, the report
#     continued): exit 69, a message naming the server, and the file that
#     was there before untouched, no temporary left; the server of the URL
#     down: the same.
# What the two pages may differ by, and why (everything else must be the
# same text):
#   - source ids: ClickHouse's are random per capture (key << 32), SQLite's
#     count from 1: each ClickHouse id is replaced by the SQLite id of the
#     capture with the same host and file;
#   - the title and heading: the database file name, or the server and
#     database (spe-report names what it read);
#   - loaded_at: each store's load ran at its own time;
#   - the order of names in a list cell (symbols, data_objects): SQLite's
#     group_concat lists them in scan order, ClickHouse's groupUniqArray in
#     its hash order, so they are sorted;
#   - the Queries appendix: its SQL is each engine's dialect and its times
#     and row counts each engine's (ClickHouse counts histogram buckets on
#     the server where SQLite streams records), so it is left out;
#   - the Flame graph: drawn from SQLite only (ClickHouse's page says so in
#     its place), so it is left out of both;
#   - the drill-down lists (data object to functions, function to data
#     objects, a shared line to its functions and threads: <script
#     class="drill"> blocks; any function's annotation and an instruction's
#     data: class="ann-data" and "pc-data"): from SQLite only, so left out,
#     and the line ClickHouse's page says so in (<p class="none ch-only">).
# Skips (77) only when clickhouse-server is not installed or cannot start.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/testlib.sh"
record=$1 load=$2 query=$3 report=$4 gen_bench=$5 fixtures=$6
chromium=${CHROMIUM:-/usr/bin/chromium}
scratch_dir clickhouse-html
ch_conf_dir=$here
. "$here/cluster.sh"
. "$here/../lib/chromium.sh"
cl=$tmp/cluster
ch_cluster_start "$cl" || exit 77
trap 'ch_cluster_stop "$cl"; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

secret=spe-test-secret-7f3a # the `spe` user's password in users.xml
ch_url="http://spe:$secret@127.0.0.1:$CH_PORT/?database=spe"
run() { ${SPE_RUN:-} "$@"; }
messages=$tmp/messages # every message of spe-report here: none may hold the password

ch_capture memwork "$fixtures/workloads/traces/memwork.replay" host-a
ch_capture datawork "$fixtures/workloads/traces/datawork.replay" host-b
run "$gen_bench" "$tmp" 20000 400 40 || { echo "FAIL gen_bench"; exit 1; }
ch_capture bench "$tmp/bench.replay" host-c
mkdir -p "$tmp/symfs" # one --symfs for the three: the fixtures' binaries and the generated one
cp "$fixtures"/elf/* "$tmp/bench.elf" "$tmp/symfs/"

mode=""
for c in memwork datawork bench; do
	run "$load" "$tmp/$c.data" --symfs="$tmp/symfs" -o "$tmp/all.db" $mode 2>"$tmp/err" ||
		{ cat "$tmp/err"; echo "FAIL sqlite load $c"; exit 1; }
	mode=--append
	run "$load" "$tmp/$c.data" --symfs="$tmp/symfs" --clickhouse="$ch_url" --cluster=spe_test 2>"$tmp/err" ||
		{ cat "$tmp/err"; echo "FAIL clickhouse load $c"; exit 1; }
done
run "$load" "$tmp/memwork.data" --symfs="$tmp/symfs" -o "$tmp/a.db" 2>/dev/null || { echo "FAIL load a.db"; exit 1; }

. "$here/page_compare.sh"
ids_sed "$tmp/all.db" "$ch_url" "$tmp/ids.sed"
cp "$tmp/ch.ids" "$tmp/ch_all.ids"
ids_sed "$tmp/a.db" "$ch_url" "$tmp/a_ids.sed" host-a

src="--symfs=$tmp/symfs --source-dir=$fixtures/workloads"

# ---- every capture: the page from each store --------------------------------------
# shellcheck disable=SC2086 # $src is two options
run "$report" -d "$tmp/all.db" --html="$tmp/sq.html" $src 2>"$tmp/err" || { cat "$tmp/err"; echo "FAIL sqlite page"; exit 1; }
# shellcheck disable=SC2086
SPE_PROGRESS_DELAY=0 run "$report" --clickhouse="$ch_url&log_queries=1" --html="$tmp/ch.html" --progress $src 2>"$tmp/err"
expect page_rc $? 0
cat "$tmp/err" >>"$messages"
# --progress off a terminal: whole lines naming the page's sections, never the URL (it holds the password)
has page_progress "$(cat "$tmp/err")" "spe-report: the ClickHouse page: "
has page_progress_sections "$(grep '^spe-report: the ClickHouse page: ' "$tmp/err")" "memory"
same_page page "$tmp/sq.html" "$tmp/ch.html" "$tmp/ids.sed"
# the drill-downs SQLite's page holds, ClickHouse's leaves out and says so (twice: hot code, shared lines)
expect page_drills_sqlite "$(grep -c 'class="\(ann-data\|pc-data\)"' "$tmp/sq.html")" 2
expect page_drills_clickhouse "$(grep -c 'class="\(ann-data\|pc-data\|drill\)"' "$tmp/ch.html")" 0
expect page_drills_said "$(grep -c '^<p class="none ch-only">' "$tmp/ch.html")" 2
# what was compared holds the report: its sections, ranked rows, charts and annotations
expect page_sections "$(grep -c '^<section id=' "$tmp/ch.lines")" 9 # and the Queries appendix, the Flame graph
expect page_sources "$(grep -c '^<td data-col="source_id"' "$tmp/ch.lines" | tr -d ' ')" \
	"$(( $(grep -c '^<td data-col="source_id"' "$tmp/sq.lines") ))"
[ "$(grep -c '^<td data-col="symbol"' "$tmp/ch.lines")" -ge 5 ] || { echo "FAIL page_hot_rows"; fail=1; }
[ "$(grep -c '^<svg' "$tmp/ch.lines")" -ge 10 ] || { echo "FAIL page_charts"; fail=1; }
has page_annotation "$(cat "$tmp/ch.lines")" 'id="ann-1"'
has page_heading "$(grep -o '<h1>[^<]*</h1>' "$tmp/ch.html")" "<h1>SPE report: http://127.0.0.1:$CH_PORT database spe</h1>"
has page_ids_normalised "$(cat "$tmp/ch.html")" "$(head -1 "$tmp/ch_all.ids" | cut -d, -f3)"

# ---- one host, against the SQLite database of that capture alone -----------------
# shellcheck disable=SC2086
run "$report" -d "$tmp/a.db" --html="$tmp/sq_a.html" --top=5 --annotations=2 $src 2>/dev/null ||
	{ echo "FAIL sqlite page a"; exit 1; }
# shellcheck disable=SC2086
run "$report" --clickhouse="$ch_url" --host=host-a --html="$tmp/ch_a.html" --top=5 --annotations=2 $src 2>"$tmp/err"
expect host_page_rc $? 0
cat "$tmp/err" >>"$messages"
same_page host_page "$tmp/sq_a.html" "$tmp/ch_a.html" "$tmp/a_ids.sed"
expect host_page_sources "$(grep -c '^<td data-col="host"' "$tmp/ch.lines")" 1

# ---- the annotation of one function ------------------------------------------------
for fmt in table json; do
	# shellcheck disable=SC2086
	run "$report" -d "$tmp/all.db" --annotate=chase --format=$fmt $src >"$tmp/sq.ann" 2>/dev/null
	# shellcheck disable=SC2086
	run "$report" --clickhouse="$ch_url" --annotate=chase --format=$fmt $src >"$tmp/ch.ann" 2>"$tmp/err"
	expect "annotate_${fmt}_rc" $? 0
	cat "$tmp/err" >>"$messages"
	expect "annotate_$fmt" "$(cat "$tmp/ch.ann")" "$(cat "$tmp/sq.ann")"
done
has annotate_json "$(cat "$tmp/ch.ann")" '"function":"chase","binary":"/memwork-pie"'
run "$report" --clickhouse="$ch_url" --annotate=no_such_function >/dev/null 2>"$tmp/err"
expect annotate_missing_rc $? 65
cat "$tmp/err" >>"$messages"
has annotate_missing "$(cat "$tmp/err")" "no function named 'no_such_function'"

# ---- readonly=1 on every request of the page ---------------------------------------
ch_http "$CH_URL1" "SYSTEM FLUSH LOGS" >/dev/null
expect readonly_requests "$(ch_http "$CH_URL1" "SELECT count() > 20, countIf(Settings.Values[indexOf(Settings.Names, 'readonly')] != '1')
	FROM system.query_log WHERE user = 'spe' AND is_initial_query AND type = 2")" "1	0"

# ---- in a browser -------------------------------------------------------------------
if [ -x "$chromium" ]; then
	page_loads browser "$tmp/ch.html" 11
else
	echo "note: $chromium not installed: the page is not rendered (scripts/deps.sh installs it)"
fi

# ---- the cluster stops answering while the page is written ----------------------------
printf 'the page of yesterday\n' >"$tmp/keep.html"
attempt=0 caught=0
while [ $attempt -lt 5 ] && [ $caught = 0 ]; do
	attempt=$((attempt + 1))
	# shellcheck disable=SC2086
	${SPE_RUN:-} "$report" --clickhouse="$ch_url" --html="$tmp/keep.html" $src 2>"$tmp/err" &
	pid=$!
	# the temporary beside the target has bytes once the first queries ran: stop the report there
	i=0
	while [ $i -lt 3000 ] && kill -0 $pid 2>/dev/null; do
		set -- "$tmp"/keep.html.*.tmp
		if [ -s "$1" ]; then
			kill -STOP $pid && caught=1
			break
		fi
		sleep 0.005
		i=$((i + 1))
	done
	if [ $caught = 0 ]; then
		wait $pid
		continue
	fi
	ch_server_kill "$cl" 2
	kill -CONT $pid
	wait $pid
	expect shard_down_rc $? 69
	cat "$tmp/err" >>"$messages"
	printf 'the report said:\n%s\n' "$(cat "$tmp/err")"
	has shard_down_msg "$(cat "$tmp/err")" "http://127.0.0.1:$CH_PORT database spe"
	has shard_down_not_written "$(cat "$tmp/err")" "$tmp/keep.html not written"
done
[ $caught = 1 ] || { echo "FAIL shard_down: the report always ended before it could be stopped"; fail=1; }
expect shard_down_file_kept "$(cat "$tmp/keep.html")" "the page of yesterday"
expect shard_down_no_temporary "$(ls "$tmp" | grep -c '\.tmp$')" 0
ch_server_stop "$cl" 1
# shellcheck disable=SC2086
run "$report" --clickhouse="$ch_url" --html="$tmp/keep.html" $src 2>"$tmp/err"
expect server_down_rc $? 69
cat "$tmp/err" >>"$messages"
has server_down_msg "$(cat "$tmp/err")" "http://127.0.0.1:$CH_PORT database spe: "
expect server_down_file_kept "$(cat "$tmp/keep.html")" "the page of yesterday"

if grep -q "$secret" "$messages" "$tmp/ch.html" "$tmp/ch_a.html"; then
	echo "FAIL a message or a page holds the password:"
	grep -l "$secret" "$messages" "$tmp/ch.html" "$tmp/ch_a.html"
	fail=1
fi
[ $fail = 0 ] && echo "clickhouse_report_html: all passed"
exit $fail
