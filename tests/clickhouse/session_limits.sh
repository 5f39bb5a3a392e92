# tests/clickhouse/session_limits.sh: what a ClickHouse URL may pass and how
# big an answer may be (sourced, POSIX sh, after testlib.sh; uses $tmp,
# $query, $report and run()).
#
#   session_limits URL   - a URL parameter is checked by its decoded name:
#                          qu%65ry=, read%6Fnly= and an overflow mode of
#                          break are refused (64) saying which; other
#                          settings (max_threads, percent-encoded) are passed;
#                        - SPE_CLICKHOUSE_MAX_RESULT: an answer larger than
#                          the cap fails (65) saying so, printing no row;
#                          a smaller one is printed; spe-report --html
#                          fails the same way and writes no page; a cap
#                          that is not a size is a usage error (64)
session_limits() {
	for sl_param in 'qu%65ry=SELECT%20count()%20FROM%20_spe_record|query' 'read%6Fnly=0|readonly' \
		'result_overflow_mode=break|result_overflow_mode' 'output_format_tsv_crlf_end_of_line=1|output_format_tsv'; do
		run "$query" --clickhouse="$1&${sl_param%%|*}" --format=csv "SELECT count() FROM spe_record" >"$tmp/sl.out" 2>"$tmp/sl.err"
		expect "url_param_refused_rc (${sl_param%%|*})" $? 64
		has "url_param_refused_msg (${sl_param%%|*})" "$(cat "$tmp/sl.err")" "parameter '${sl_param#*|}"
		expect "url_param_refused_nothing (${sl_param%%|*})" "$(cat "$tmp/sl.out")" ""
	done
	sl_count=$(run "$query" --clickhouse="$1" --format=csv "SELECT count() AS n FROM spe_record" | tr -d '\r')
	expect url_setting_passed "$(run "$query" --clickhouse="$1&max%5Fthreads=1" --format=csv \
		"SELECT count() AS n FROM spe_record" 2>&1 | tr -d '\r')" "$sl_count"

	SPE_CLICKHOUSE_MAX_RESULT=64K run "$query" --clickhouse="$1" --format=csv "SELECT * FROM spe_record" \
		>"$tmp/sl.out" 2>"$tmp/sl.err"
	expect result_cap_rc $? 65
	has result_cap_msg "$(cat "$tmp/sl.err")" "the answer is larger than 65536 bytes, the most spekit holds in memory (SPE_CLICKHOUSE_MAX_RESULT raises it"
	expect result_cap_no_rows "$(wc -c <"$tmp/sl.out" | tr -d ' ')" 0
	expect result_under_cap "$(SPE_CLICKHOUSE_MAX_RESULT=64K run "$query" --clickhouse="$1" --format=csv \
		"SELECT count() AS n FROM spe_record" | tr -d '\r')" "$sl_count"
	SPE_CLICKHOUSE_MAX_RESULT=4K run "$report" --clickhouse="$1" --html="$tmp/sl.html" 2>"$tmp/sl.err"
	expect result_cap_page_rc $? 65
	has result_cap_page_msg "$(cat "$tmp/sl.err")" "the answer is larger than 4096 bytes"
	[ ! -e "$tmp/sl.html" ] || { echo "FAIL result_cap_page_not_written: $tmp/sl.html exists"; fail=1; }
	SPE_CLICKHOUSE_MAX_RESULT=lots run "$query" --clickhouse="$1" "SELECT 1" >/dev/null 2>"$tmp/sl.err"
	expect result_cap_usage_rc $? 64
	has result_cap_usage_msg "$(cat "$tmp/sl.err")" "SPE_CLICKHOUSE_MAX_RESULT=lots: expected bytes"
}
