# tests/clickhouse/cluster.sh: a 2-shard ClickHouse cluster on loopback for
# the tests and the benchmark (sourced, POSIX sh).  Two servers with the
# configuration of server.xml.in and users.xml: server 1 on 127.0.0.1,
# server 2 on 127.0.0.2, the same free ports on both (as a fleet's servers
# all answer HTTP on one port), data under DIR/s1 and DIR/s2.  The cluster
# is `spe_test`: shard 1 is server 1, shard 2 server 2.
#
#   ch_cluster_start DIR   start both; sets CH_PORT (HTTP), CH_URL1, CH_URL2
#                          (http://127.0.0.1:PORT/, http://127.0.0.2:PORT/);
#                          returns 77 with the reason on stderr when no
#                          clickhouse-server can run here
#   ch_server_start DIR N  start server N again (its config and data kept) and wait for it
#   ch_server_stop DIR N   stop server N (SIGTERM, then SIGKILL)
#   ch_server_kill DIR N   kill -9 server N
#   ch_cluster_stop DIR    stop both (for trap ... EXIT)
#   ch_http URL SQL        run SQL over HTTP (for the test's own checks)
#   ch_capture NAME MANIFEST HOST   the replay trace MANIFEST recorded (with
#                          $record, spe-record) as $tmp/NAME.data, its host
#                          name HOST; its AUX files copied to $tmp/NAME/

# The caller sets ch_conf_dir to this directory (server.xml.in, users.xml) before sourcing.
: "${ch_conf_dir:?set ch_conf_dir to tests/clickhouse before sourcing cluster.sh}"

# An HTTP POST with bash's /dev/tcp when there is no curl (a fresh Debian has neither for sure).
ch_http() {
	if command -v curl >/dev/null 2>&1; then
		curl -sS --max-time 60 --data-binary "$2" "$1"
		return
	fi
	bash -c '
		url=$1 sql=$2
		hostport=${url#http://}; hostport=${hostport%%/*}; path=/${url#http://*/}
		exec 3<>"/dev/tcp/${hostport%:*}/${hostport#*:}" || exit 1
		printf "POST %s HTTP/1.0\r\nContent-Length: %d\r\n\r\n%s" "$path" "${#sql}" "$sql" >&3
		sed "1,/^\r$/d" <&3' ch_http "$1" "$2"
}

ch_port_free() { # PORT: nothing listens on it at either address
	! (bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null) && ! (bash -c "exec 3<>/dev/tcp/127.0.0.2/$1" 2>/dev/null)
}

ch_cluster_start() {
	dir=$1
	server=$(command -v clickhouse-server || echo /usr/sbin/clickhouse-server)
	if [ ! -x "$server" ]; then
		echo "SKIP: clickhouse-server is not installed (scripts/deps.sh installs Debian's)" >&2
		return 77
	fi
	attempt=0
	while [ $attempt -lt 5 ]; do
		attempt=$((attempt + 1))
		base=$(( (($$ * 7919 + attempt * 104729 + $(date +%N | sed 's/^0*//;s/^$/0/')) % 20000) + 30000 ))
		ch_port_free $base && ch_port_free $((base + 1)) && ch_port_free $((base + 2)) && ch_port_free $((base + 3)) ||
			continue
		CH_PORT=$base
		CH_PORT2=$base
		[ "${CH_HTTP_PORTS:-}" = split ] && CH_PORT2=$((base + 3))
		for n in 1 2; do
			d=$dir/s$n
			rm -rf "$d"
			mkdir -p "$d/data" "$d/tmp" "$d/user_files" "$d/format_schemas"
			http=$CH_PORT
			[ $n = 2 ] && http=$CH_PORT2
			sed -e "s|@DIR@|$d|g" -e "s|@HOST@|127.0.0.$n|g" -e "s|@HTTP_PORT@|$http|g" \
				-e "s|@TCP_PORT@|$((base + 1))|g" -e "s|@INTERSERVER_PORT@|$((base + 2))|g" \
				"$ch_conf_dir/server.xml.in" >"$d/config.xml"
			cp "$ch_conf_dir/users.xml" "$d/users.xml"
			ch_server_spawn "$dir" $n
		done
		CH_URL1=http://127.0.0.1:$CH_PORT/
		CH_URL2=http://127.0.0.2:$CH_PORT2/
		waited=0
		while [ $waited -lt 60 ]; do
			if [ "$(ch_http "$CH_URL1" "SELECT 1" 2>/dev/null)" = 1 ] &&
				[ "$(ch_http "$CH_URL2" "SELECT 1" 2>/dev/null)" = 1 ]; then
				return 0
			fi
			for n in 1 2; do
				kill -0 "$(cat "$dir/s$n/pid")" 2>/dev/null || waited=60 # it exited: another port
			done
			sleep 0.5
			waited=$((waited + 1))
		done
		ch_cluster_stop "$dir"
	done
	echo "SKIP: clickhouse-server did not start (logs: $dir/s1, $dir/s2):" >&2
	tail -n 5 "$dir/s1/stdout" "$dir/s1/server.err.log" >&2 2>/dev/null
	return 77
}

ch_http_port() { # N
	if [ "$1" = 2 ]; then echo "$CH_PORT2"; else echo "$CH_PORT"; fi
}

ch_server_spawn() { # DIR N
	$(command -v clickhouse-server || echo /usr/sbin/clickhouse-server) --config-file="$1/s$2/config.xml" \
		>"$1/s$2/stdout" 2>&1 &
	echo $! >"$1/s$2/pid"
}

ch_server_start() { # DIR N
	ch_server_spawn "$1" "$2"
	waited=0
	while [ $waited -lt 120 ]; do
		[ "$(ch_http "http://127.0.0.$2:$(ch_http_port "$2")/" "SELECT 1" 2>/dev/null)" = 1 ] && return 0
		kill -0 "$(cat "$1/s$2/pid")" 2>/dev/null || return 1
		sleep 0.25
		waited=$((waited + 1))
	done
	return 1
}

ch_server_stop() { # DIR N
	pidf=$1/s$2/pid
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

ch_server_kill() { # DIR N
	pidf=$1/s$2/pid
	[ -f "$pidf" ] || return 0
	kill -9 "$(cat "$pidf")" 2>/dev/null || :
	while kill -0 "$(cat "$pidf")" 2>/dev/null; do sleep 0.05; done
	rm -f "$pidf"
}

ch_cluster_stop() {
	ch_server_stop "$1" 1
	ch_server_stop "$1" 2
}

ch_capture() { # NAME MANIFEST HOST
	mkdir -p "$tmp/$1"
	src=$(dirname "$2")
	for f in $(sed -n 's/^aux //p' "$2"); do cp "$src/$f" "$tmp/$1/"; done
	sed "1a hostname $3" "$2" >"$tmp/$1/trace.replay"
	${SPE_RUN:-} "$record" --replay="$tmp/$1/trace.replay" -o "$tmp/$1.data" >/dev/null 2>&1 ||
		{ echo "FAIL replay $1"; exit 1; }
}
