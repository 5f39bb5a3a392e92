# Shared setup of the spe-export tests (POSIX sh; source after testlib.sh).
#   demo_db DB   the memwork fixture trace (fixtures/workloads/traces, described
#                in gen_traces.c) replayed and loaded with symbols from fixtures/elf
#   query DB SQL CSV rows without the header
#   go_pprof ARGS...   go tool pprof with its cache and home in $tmp (no network)
demo_db() {
	${SPE_RUN:-} "$record" --replay="$fixtures/workloads/traces/memwork.replay" -o "$tmp/memwork.data" >/dev/null 2>&1 ||
		{ echo "FAIL replay memwork"; exit 1; }
	${SPE_RUN:-} "$load" "$tmp/memwork.data" -o "$1" --symfs="$fixtures/elf" 2>/dev/null ||
		{ echo "FAIL load memwork"; exit 1; }
}

query() {
	${SPE_RUN:-} "$query" -d "$1" --format=csv "$2" | tr -d '\r' | sed 1d
}

export_() {
	${SPE_RUN:-} "$export" "$@"
}

go_pprof() {
	mkdir -p "$tmp/gohome"
	HOME=$tmp/gohome GOCACHE=$tmp/gohome/cache GOFLAGS=-mod=mod GOPROXY=off go tool pprof "$@"
}
