# tests/clickhouse/chdb.sh: a current ClickHouse (the engine of the npm
# package @chdb/lib-linux-x64-gnu) behind chdb_http, the tests' HTTP endpoint
# over it, on 127.0.0.1 (sourced, POSIX sh).
#
#   ch_chdb_start DIR HTTP LIB   start chdb_http (the program HTTP) over
#                                LIB (libchdb.so), data under DIR; sets
#                                CH_PORT and CH_URL (http://127.0.0.1:PORT/);
#                                returns 1 with the reason when it does not answer
#   ch_chdb_stop DIR             stop it (SIGTERM, then SIGKILL; for trap ... EXIT)
ch_chdb_start() {
	mkdir -p "$1"
	rm -f "$1/port"
	"$2" "$3" "$1/data" "$1/port" >"$1/log" 2>&1 &
	echo $! >"$1/pid"
	i=0
	while [ $i -lt 600 ] && [ ! -s "$1/port" ]; do
		kill -0 "$(cat "$1/pid")" 2>/dev/null || break
		sleep 0.1
		i=$((i + 1))
	done
	if [ ! -s "$1/port" ]; then
		echo "FAIL: chdb_http did not start:" >&2
		cat "$1/log" >&2
		return 1
	fi
	CH_PORT=$(cat "$1/port")
	CH_URL=http://127.0.0.1:$CH_PORT/
	[ "$(ch_http "$CH_URL" "SELECT 1" 2>/dev/null)" = 1 ] || { echo "FAIL: chdb_http does not answer" >&2; return 1; }
}

ch_chdb_stop() {
	pidf=$1/pid
	[ -f "$pidf" ] || return 0
	pid=$(cat "$pidf")
	kill "$pid" 2>/dev/null || :
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -9 "$pid" 2>/dev/null || :
	rm -f "$pidf"
}
