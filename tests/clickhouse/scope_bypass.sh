# tests/clickhouse/scope_bypass.sh: --host scopes every spelling of a view, or
# refuses the statement; never reads other captures (sourced, POSIX sh, after
# testlib.sh; uses $tmp, $query and run()).
#
#   scope_bypass URL SQLITE_DB HOST DATABASE   spe-query --clickhouse=URL --host=HOST
#                   must answer what SQLITE_DB (HOST's capture alone) answers,
#                   for the view named bare, qualified by the database
#                   (DATABASE, the URL's),
#                   quoted, behind a comment, in a FROM list, after JOIN and
#                   IN (the three spellings the old text rewrite let through:
#                   spe.hot_symbol, `hot_symbol`, a comment); and refuse (65,
#                   saying why) a storage table, a table function, another
#                   database, a comment inside a comment
scope_bypass() {
	sb_want=$(run "$query" -d "$2" --format=csv "SELECT count(*) AS n FROM spe_record;
		SELECT sum(samples) AS n FROM hot_symbol" | tr -d '\r')
	sb_all=$(run "$query" --clickhouse="$1" --format=csv "SELECT count() AS n FROM spe_record;
		SELECT sum(samples) AS n FROM hot_symbol" | tr -d '\r')
	[ "$sb_want" != "$sb_all" ] || { echo "FAIL scope_bypass: $3 alone answers as every capture does"; fail=1; }
	sb_i=0
	sed "s/@DB@/$4/g" >"$tmp/sb.spellings" <<'SPELLINGS'
spe_record|hot_symbol
@DB@.spe_record|@DB@.hot_symbol
`spe_record`|`hot_symbol`
/* c */ spe_record|-- c\n hot_symbol
"@DB@" . `spe_record`|@DB@.`hot_symbol` AS h
(SELECT * FROM @DB@.spe_record) AS r|(SELECT samples FROM `@DB@`.hot_symbol)
(SELECT id AS source_id FROM @DB@.source) AS s ALL INNER JOIN `spe_record` USING source_id|(SELECT 1 AS k) AS o ALL INNER JOIN (SELECT 1 AS k, samples FROM @DB@.hot_symbol) AS h USING k
spe_record WHERE source_id GLOBAL IN (SELECT id FROM @DB@.source)|hot_symbol WHERE symbol IN (SELECT symbol FROM `hot_symbol`) OR symbol IS NULL
SPELLINGS
	while IFS='|' read -r sb_records sb_symbols; do
		sb_i=$((sb_i + 1))
		sb_sql="SELECT count() AS n FROM $(printf '%b' "$sb_records"); SELECT sum(samples) AS n FROM $(printf '%b' "$sb_symbols")"
		sb_got=$(run "$query" --clickhouse="$1" --host="$3" --format=csv "$sb_sql" 2>"$tmp/sb.err" </dev/null | tr -d '\r')
		expect "scope_spelling_$sb_i ($sb_records)" "$sb_got" "$sb_want"
		cat "$tmp/sb.err"
	done <"$tmp/sb.spellings"
	# what cannot be scoped is refused, saying why
	sed "s/@DB@/$4/g" >"$tmp/sb.refused" <<'REFUSED'
_spe_record|the storage table _spe_record holds every capture
@DB@._source|the storage table _source holds every capture
merge(currentDatabase(), '^_spe_record$')|the table function merge() could read outside the chosen captures
system.one AS o, merge(currentDatabase(), '^_spe_record$')|the table function merge()
spe_other.hot_symbol|a table of another database (spe_other) cannot be scoped
/* /* */ spe_record --*/|cannot be read the same way by every ClickHouse release
REFUSED
	while IFS='|' read -r sb_from sb_why; do
		run "$query" --clickhouse="$1" --host="$3" --format=csv "SELECT count() FROM $sb_from" >"$tmp/sb.out" 2>"$tmp/sb.err" </dev/null
		expect "scope_refused_rc ($sb_from)" $? 65
		has "scope_refused_msg ($sb_from)" "$(cat "$tmp/sb.err")" "$sb_why"
		expect "scope_refused_nothing ($sb_from)" "$(cat "$tmp/sb.out")" ""
	done <"$tmp/sb.refused"
}
