# Debian's chromium, headless, for the tests of spe-report's pages (POSIX sh;
# source after testlib.sh and scratch_dir, with $chromium set):
#   browse OUT LOG URL [ARGS...]  one headless run with a profile of its own:
#                                 what ARGS ask for (--dump-dom, --screenshot=)
#                                 in OUT, the browser's log (with the page's
#                                 console messages) in LOG
#   console LOG                   the number of console messages in LOG
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
