#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# A page made from a database someone crafted: every name the page shows
# (functions, files, mappings, threads, data objects, hosts, instructions),
# and the numbers it prints from columns of the database (sizes, pids), set
# to markup that would run script in each context of the page (element
# text, attribute, a tag of its own, a closing </script>), and the source
# files of the line table pointed at /etc/passwd (absolute, and climbing out
# of --source-dir through ../ and a symbolic link).
# The page must stay data: it parses as XML with one script element (its
# own) and no event-handler attribute; the names are there, escaped; no line
# of /etc/passwd is in it, nor in --annotate's text; and in Debian's chromium
# the injected script does not run (the title stays) and nothing is logged.
# Then the page's Content-Security-Policy is checked to block what escaping
# would miss: the same page with a script element inserted by hand loads in
# chromium without running it, and chromium says it refused it.
# Skips (77) without sqlite3 or chromium for the browser part only.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
record=$1 load=$2 report=$3 fx=$4
scratch_dir report-hostile
run() { ${SPE_RUN:-} "$@"; }

run "$record" --replay="$fx/workloads/traces/datawork.replay" -o "$tmp/d.data" >/dev/null 2>&1 ||
	{ echo "FAIL replay"; exit 1; }
run "$load" "$tmp/d.data" -o "$tmp/d.db" --symfs="$fx/elf" 2>/dev/null || { echo "FAIL load"; exit 1; }
command -v sqlite3 >/dev/null || { echo "SKIP: sqlite3 not installed"; exit 77; }

# markup for each context; document.title = 'PWNED' is what would show it ran
tag='<img src=x onerror="document.title=`PWNED`">'
attr='" onmouseover="document.title=`PWNED`" x="'
close='</script><script>document.title=`PWNED`</script>'
sq="''onfocus=''document.title=1"  # SQL-quoted: ' onfocus='...
mkdir -p "$tmp/src/sub" "$tmp/elsewhere"
cp "$fx/workloads/datawork.c" "$tmp/src/"
ln -s /etc/passwd "$tmp/src/sub/passwd-link"
sqlite3 "$tmp/d.db" "
	UPDATE symbol SET name = '$tag' || name;
	UPDATE insn SET mnemonic = '$attr', operands = '$close', inline_function = '$sq';
	UPDATE mapping SET path = '$close' || path;
	UPDATE thread SET comm = '$attr';
	UPDATE data_object SET name = '$attr' || name, type = '$tag';
	UPDATE source SET host = '$tag', command_line = '$close';
	UPDATE insn SET file = CASE id % 3 WHEN 0 THEN '/etc/passwd' WHEN 1 THEN '../../../../../../etc/passwd'
	                              ELSE 'sub/passwd-link' END, line = 1 + id % 2;
	UPDATE symbol SET file = '/etc/passwd';
	-- text where the page expects numbers (SQLite keeps a string a column cannot convert)
	UPDATE data_object SET size = '$attr';
	UPDATE page_stat SET pid = '$attr';
	UPDATE cacheline_stat SET pid = '$tag';" || { echo "FAIL sqlite3"; exit 1; }

page=$tmp/page.html
# without --symfs the annotations take their source lines from the database's insn rows
err=$(run "$report" -d "$tmp/d.db" --html="$page" --source-dir="$tmp/src" --annotations=5 2>&1)
expect html_rc $? 0
has html_msg "$err" "wrote $page"
xmllint --noout "$page" 2>"$tmp/xml.err"
expect well_formed "$?,$(head -3 "$tmp/xml.err")" "0,"
# one script to run; every other script element is a JSON data block (the tables' rows, the flame graphs)
expect one_script "$(xmllint --xpath "count(//script[not(@type='application/json')])" "$page")" 1
expect data_blocks_json "$(xmllint --xpath "count(//script[@type='application/json'])" "$page")" \
	"$(grep -c '<script type="application/json"' "$page")"
expect no_img "$(xmllint --xpath 'count(//img)' "$page")" 0
expect no_handlers "$(xmllint --xpath "count(//@*[starts-with(name(), 'on')])" "$page")" 0
# the crafted names are in the page, as text
has name_escaped "$(cat "$page")" '&lt;img src=x onerror=&quot;document.title=`PWNED`&quot;&gt;'
has close_escaped "$(cat "$page")" '&lt;/script&gt;&lt;script&gt;'
# and in the JSON data blocks, where '<' is \u003c: nothing in them can close the block
has json_name_escaped "$(cat "$page")" '\u003cimg src=x onerror=\"document.title=`PWNED`\"\u003e'
has json_close_escaped "$(cat "$page")" '\u003c/script\u003e\u003cscript\u003e'
# no line of this machine's /etc/passwd: the line table names it, but sources are read under --source-dir only
first=$(head -1 /etc/passwd)
expect no_passwd "$(grep -cF "$first" "$page")" 0
has passwd_said "$(cat "$page")" "/etc/passwd: not"
ann=$(run "$report" -d "$tmp/d.db" --annotate="$(sqlite3 "$tmp/d.db" "SELECT name FROM symbol LIMIT 1")" \
	--source-dir="$tmp/src" 2>&1)
expect no_passwd_annotate "$(printf '%s\n' "$ann" | grep -cF "$first")" 0

chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || { echo "SKIP browser part: $chromium not installed"; exit $fail; }
. "$(dirname "$0")/../lib/chromium.sh"
browse "$tmp/page.dom" "$tmp/page.log" "file://$page" --dump-dom
expect browser_rc $? 0
expect title_kept "$(grep -c 'PWNED</title>' "$tmp/page.dom")" 0
has title_is_ours "$(grep -o '<title>[^<]*' "$tmp/page.dom")" "SPE report"
expect no_console "$(console "$tmp/page.log")" 0
# the script drew the tables' rows and the flame graph from the data blocks: the names stay text there too
has drawn_ready "$(grep -o '<body[^>]*>' "$tmp/page.dom")" 'data-ready="1"'
expect no_img_drawn "$(grep -c '<img' "$tmp/page.dom")" 0
has flame_drawn "$(cat "$tmp/page.dom")" 'class="partition d3-flame-graph"'
grep ':CONSOLE' "$tmp/page.log" | head -3

# what escaping would miss, the policy stops: a script element put in by hand does not run
sed 's|<main>|<main><script>document.title="PWNED"</script>|' "$page" >"$tmp/forged.html"
browse "$tmp/forged.dom" "$tmp/forged.log" "file://$tmp/forged.html" --dump-dom
expect forged_not_run "$(grep -c 'PWNED</title>' "$tmp/forged.dom")" 0
has csp_refused "$(grep ':CONSOLE' "$tmp/forged.log")" "Content Security Policy"
exit $fail
