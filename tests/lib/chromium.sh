# Debian's chromium, headless, for the tests of spe-report's pages (POSIX sh;
# source after testlib.sh and scratch_dir, with $chromium set):
#   browse OUT LOG URL [ARGS...]  one headless run with a profile of its own:
#                                 what ARGS ask for (--dump-dom, --screenshot=)
#                                 in OUT, the browser's log (with the page's
#                                 console messages) in LOG
#   console LOG                   the number of console messages in LOG
#   page_loads PREFIX PAGE N      PAGE (a file) loaded: no console message
#                                 (those there are printed), its script ran
#                                 (body[data-ready]), N sections in the DOM;
#                                 checks PREFIX_dom_rc, _console_dom,
#                                 _script_ran, _dom_sections
browse() { # out-file log-file url extra-args...
	out=$1 log=$2 url=$3
	shift 3
	profile=$(mktemp -d "$tmp/profile.XXXXXX")
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" --enable-logging=stderr --v=0 --hide-scrollbars "$@" "$url" \
		>"$out" 2>"$log"
	status=$?
	rm -rf "$profile"
	return $status
}
console() { grep -c ':CONSOLE' "$1"; }

page_loads() { # prefix page sections
	browse "$2.dom" "$2.dom.log" "file://$2" --dump-dom
	expect "$1_dom_rc" $? 0
	expect "$1_console_dom" "$(console "$2.dom.log")" 0
	grep ':CONSOLE' "$2.dom.log" | head -5
	has "$1_script_ran" "$(grep -o '<body[^>]*>' "$2.dom")" 'data-ready="1"'
	expect "$1_dom_sections" "$(grep -o '<section id=' "$2.dom" | wc -l | tr -d ' ')" "$3"
}
