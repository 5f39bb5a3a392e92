#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# The page in a real browser: Debian's chromium, headless, on the memwork
# report (scripts/deps.sh installs it).  Checks that the page loads from disk
# with no console message at all (a script error, a failed fetch or a CSP
# complaint would each log one), that its script ran (the DOM after load
# carries body[data-ready]), and that the screenshot is a drawn page, not a
# blank one: many colours, a fair share of ink, and the memory-level colours
# of the latency bar (DRAM red, peer-core orange, L1D green) on screen.
# The before/after page of the datawork pair (spe-report --diff --html) the
# same way: no console message, the script ran, and on screen the bars of
# the faster rows (green) and the interval whiskers.
# The checks are tried first on pages made to fail them (a script that
# throws, a blank page), so a browser that logs nothing cannot pass.
# Skips (77) when chromium is not installed.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
record=$1 load=$2 report=$3 png_stats=$4 fx=$5
chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || { echo "SKIP: $chromium not installed (scripts/deps.sh installs it)"; exit 77; }
scratch_dir report-browser
run() { ${SPE_RUN:-} "$@"; }

. "$(dirname "$0")/../lib/chromium.sh"

# the checks, on pages that must fail them
printf '<!DOCTYPE html><html><body><p>x</p><script>throw new Error("boom")</script></body></html>\n' \
	>"$tmp/throws.html"
browse "$tmp/throws.dom" "$tmp/throws.log" "file://$tmp/throws.html" --dump-dom
expect selftest_console_seen "$(console "$tmp/throws.log")" 1
printf '<!DOCTYPE html><html><body></body></html>\n' >"$tmp/blank.html"
browse /dev/null "$tmp/blank.log" "file://$tmp/blank.html" --window-size=1280,2000 \
	--screenshot="$tmp/blank.png"
expect selftest_blank "$("$png_stats" "$tmp/blank.png" | head -1 | cut -d' ' -f3-4)" "1 0"

run "$record" --replay="$fx/workloads/traces/memwork.replay" -o "$tmp/memwork.data" >/dev/null 2>&1 ||
	{ echo "FAIL replay"; exit 1; }
run "$load" "$tmp/memwork.data" -o "$tmp/memwork.db" --symfs="$fx/elf" 2>/dev/null || { echo "FAIL load"; exit 1; }
run "$report" -d "$tmp/memwork.db" --html="$tmp/report.html" --symfs="$fx/elf" --source-dir="$fx/workloads" \
	2>/dev/null || { echo "FAIL spe-report"; exit 1; }

page_loads report "$tmp/report.html" 11

browse /dev/null "$tmp/shot.log" "file://$tmp/report.html" --window-size=1280,2400 --screenshot="$tmp/shot.png"
expect shot_rc $? 0
expect console_shot "$(console "$tmp/shot.log")" 0
# colours of the facts table's levels: DRAM e53935, peer-core fb8c00, L1D 43a047 (analysis/report/query/report_ctx.c)
stats=$("$png_stats" "$tmp/shot.png" e53935 fb8c00 43a047)
echo "screenshot: $stats" | head -1
set -- $(printf '%s\n' "$stats" | head -1)
expect shot_size "$1x$2" 1280x2400
[ "$3" -ge 200 ] || { echo "FAIL shot_colours: $3 distinct colours"; fail=1; }
[ "$4" -ge 100 ] || { echo "FAIL shot_ink: $4/1000 of the pixels are not background"; fail=1; }
for c in e53935 fb8c00 43a047; do
	n=$(printf '%s\n' "$stats" | awk -v c=$c '$1 == c { print $2 }')
	[ "${n:-0}" -ge 500 ] || { echo "FAIL shot_level_$c: ${n:-0} pixels"; fail=1; }
done

# ---- the before/after page
for side in datawork datawork-after; do
	run "$record" --replay="$fx/workloads/traces/$side.replay" -o "$tmp/$side.data" >/dev/null 2>&1 ||
		{ echo "FAIL replay $side"; exit 1; }
done
run "$load" "$tmp/datawork.data" "$tmp/datawork-after.data" -o "$tmp/dw.db" --symfs="$fx/elf" 2>/dev/null ||
	{ echo "FAIL load datawork"; exit 1; }
run "$report" -d "$tmp/dw.db" --diff 1 2 --html="$tmp/diff.html" 2>/dev/null || { echo "FAIL spe-report --diff"; exit 1; }
page_loads diff "$tmp/diff.html" 4
browse /dev/null "$tmp/diff-shot.log" "file://$tmp/diff.html" --window-size=1280,1400 --screenshot="$tmp/diff.png"
expect diff_shot_rc $? 0
expect diff_console_shot "$(console "$tmp/diff-shot.log")" 0
# the faster bars 43a047 and the whiskers 263238 of every row (analysis/report/html/diff_page.c)
stats=$("$png_stats" "$tmp/diff.png" 43a047 263238)
echo "diff screenshot: $stats" | head -1
set -- $(printf '%s\n' "$stats" | head -1)
expect diff_shot_size "$1x$2" 1280x1400
[ "$3" -ge 100 ] || { echo "FAIL diff_shot_colours: $3 distinct colours"; fail=1; }
pixels() { printf '%s\n' "$stats" | awk -v c=$1 '$1 == c { print $2 }'; }
[ "$(pixels 43a047)" -ge 1000 ] || { echo "FAIL diff_shot_faster: $(pixels 43a047) green pixels"; fail=1; }
[ "$(pixels 263238)" -ge 300 ] || { echo "FAIL diff_shot_whiskers: $(pixels 263238) whisker pixels"; fail=1; }

[ $fail = 0 ] && echo "report_browser: all passed"
exit $fail
