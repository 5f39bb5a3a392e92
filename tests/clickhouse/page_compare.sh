# tests/clickhouse/page_compare.sh: the HTML page (spe-report --html) of
# SQLite and of ClickHouse compared cell by cell (sourced, POSIX sh, after
# testlib.sh; uses $tmp, $query and run()).  What the two may differ by is
# said in test_report_html.sh; everything else must be the same text.
#
#   ids_sed SQLITE_DB CH_URL OUT [HOST]  OUT: sed commands replacing each
#                        ClickHouse source id by the SQLite id of the capture
#                        with the same host and file (of HOST only when
#                        given); checks that both stores hold the same
#                        captures; $tmp/ch.ids keeps ClickHouse's host,file,id
#   same_page CHECK SQLITE-PAGE CLICKHOUSE-PAGE IDS-SED  the pages' lines
#                        compared, the differences printed (at most 40 lines);
#                        $tmp/sq.lines and $tmp/ch.lines keep them

ids_sed() {
	run "$query" -d "$1" --format=csv "SELECT host, file, id FROM source ORDER BY host, file" | tr -d '\r' |
		tail -n +2 >"$tmp/sq.ids"
	run "$query" --clickhouse="$2" --format=csv "SELECT host, file, id FROM source ORDER BY host, file" |
		tr -d '\r' | tail -n +2 | grep "^${4:-}" >"$tmp/ch.ids"
	expect "captures${4:+_$4}" "$(cut -d, -f1,2 "$tmp/ch.ids")" "$(cut -d, -f1,2 "$tmp/sq.ids")"
	paste -d, "$tmp/sq.ids" "$tmp/ch.ids" | awk -F, '{ print "s/\\<" $6 "\\>/" $3 "/g" }' >"$3"
}

# The page as lines (a row, a cell, a section, a chart each), with the normalisations above.
norm() { # PAGE IDS-SED
	sed -f "$2" "$1" | sed -e 's|<title>.*</title>|<title>TITLE</title>|' -e 's|<h1>[^<]*</h1>|<h1>TITLE</h1>|' \
		-e 's|<td data-col="loaded_at">[^<]*</td>|<td data-col="loaded_at">LOADED_AT</td>|g' \
		-e 's/<tr/\n<tr/g; s/<section/\n<section/g; s/<svg/\n<svg/g; s/<table/\n<table/g; s/<td/\n<td/g' |
		awk '
		/<section id="queries"/ || /<section id="flame"/ { skip = 1 }
		skip && /<\/section>/ { sub(/.*<\/section>/, ""); skip = 0 }
		skip { next }
		/^<script type="application\/json" class="(drill|ann-data|pc-data)"/ { drill = 1 }
		/^<p class="none ch-only">/ { next }
		drill { if (/<\/script>/) drill = 0; next }
		/^<td data-col="(symbols|data_objects)"/ {
			match($0, />[^<]*</)
			n = split(substr($0, RSTART + 1, RLENGTH - 2), item, ",")
			for (i = 2; i <= n; i++) {
				v = item[i]
				for (j = i - 1; j > 0 && item[j] > v; j--)
					item[j + 1] = item[j]
				item[j + 1] = v
			}
			s = item[1]
			for (i = 2; i <= n; i++)
				s = s "," item[i]
			$0 = substr($0, 1, RSTART) s substr($0, RSTART + RLENGTH - 1)
		}
		{ print }'
}
# Both pages of one comparison, the differences printed (at most 40 lines).
same_page() { # CHECK SQLITE-PAGE CLICKHOUSE-PAGE IDS-SED
	norm "$2" "$4" >"$tmp/sq.lines"
	norm "$3" "$4" >"$tmp/ch.lines"
	if ! diff "$tmp/sq.lines" "$tmp/ch.lines" >"$tmp/diff"; then
		echo "FAIL $1: the pages differ (< SQLite, > ClickHouse):"
		head -40 "$tmp/diff"
		fail=1
	fi
}
