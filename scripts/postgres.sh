#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and demos: a temp folder, a free loopback port, trust
# login for the user "pulldown", no fsync. Nothing outside the folder is touched; stopped by PID.
#
#   scripts/postgres.sh start             start one; prints export lines for
#                                         PULLDOWN_TEST_POSTGRES_URL and PULLDOWN_TEST_POSTGRES_DIR
#   scripts/postgres.sh stop DIR          stop it and delete the folder
#   scripts/postgres.sh halt DIR          stop the server only (fast shutdown), keep data and port
#   scripts/postgres.sh resume DIR        start a halted server again on the same port
#   scripts/postgres.sh run -- CMD...     start, run CMD with the variables set, stop (even on failure)
#   scripts/postgres.sh demo [PORT]       a cluster and two pulldown instances on PORT and PORT+1,
#                                         serving the bundled page (.build/public)
#
# As root, the server runs as the "postgres" user (PostgreSQL refuses to run as root).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"

bindir() {
  if command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then
    dirname "$(readlink -f "$(command -v pg_ctl)")"
    return
  fi
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$found" ] || { echo "postgres.sh: PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }
  echo "$found"
}

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

server_start() {
  local dir=$1 bin port
  bin=$(bindir)
  port=$(cat "$dir/port")
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 -o \
    "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    start >/dev/null
}

# Stops the postmaster by the PID in its pid file (SIGINT = fast shutdown) and waits for it.
server_stop() {
  local dir=$1 pid
  [ -f "$dir/data/postmaster.pid" ] || return 0
  pid=$(head -n 1 "$dir/data/postmaster.pid")
  kill -INT "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 300); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
}

cmd_start() {
  local bin dir port
  bin=$(bindir)
  dir=$(mktemp -d "${TMPDIR:-/tmp}/pulldown-pg.XXXXXX")
  [ "$(id -u)" -ne 0 ] || chown postgres: "$dir"
  port=$(free_port)
  echo "$port" > "$dir/port"
  as_owner "$bin/initdb" -D "$dir/data" -U pulldown -A trust -E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; rm -rf "$dir"; exit 1; }
  server_start "$dir" || { cat "$dir/server.log" >&2; server_stop "$dir"; rm -rf "$dir"; exit 1; }
  as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U pulldown pulldown \
    || { server_stop "$dir"; rm -rf "$dir"; exit 1; }
  echo "export PULLDOWN_TEST_POSTGRES_URL=postgresql://pulldown@127.0.0.1:$port/pulldown"
  echo "export PULLDOWN_TEST_POSTGRES_DIR=$dir"
}

cmd_stop() {
  local dir=${1:?usage: postgres.sh stop DIR}
  [ -f "$dir/port" ] || { echo "postgres.sh: $dir is not a cluster made by this script" >&2; exit 1; }
  server_stop "$dir"
  rm -rf "$dir"
}

cmd_run() {
  [ "${1:-}" = "--" ] && shift
  local env_lines status=0
  env_lines=$(cmd_start)
  eval "$env_lines"
  trap 'server_stop "$PULLDOWN_TEST_POSTGRES_DIR"; rm -rf "$PULLDOWN_TEST_POSTGRES_DIR"' EXIT
  echo "PostgreSQL for the tests at $PULLDOWN_TEST_POSTGRES_URL"
  "$@" || status=$?
  return $status
}

cmd_demo() {
  local port=${1:-8080}
  cd "$here"
  [ -x .build/release/pulldown ] || { echo "no release build: run make postgres-demo" >&2; exit 2; }
  [ -d .build/public ] || { echo "no bundled page: run make postgres-demo" >&2; exit 2; }
  cmd_run -- bash -c '
    pids=()
    trap "kill \${pids[*]} 2>/dev/null; wait" EXIT INT TERM
    for p in '"$port"' '"$((port + 1))"'; do
      .build/release/pulldown --port $p --db "$PULLDOWN_TEST_POSTGRES_URL" --public .build/public & pids+=($!)
    done
    echo "Two instances on one PostgreSQL database: http://127.0.0.1:'"$port"' and http://127.0.0.1:'"$((port + 1))"' (Ctrl-C stops both)"
    wait'
}

case "${1:-}" in
  start) cmd_start ;;
  stop) shift; cmd_stop "$@" ;;
  halt) shift; server_stop "${1:?usage: postgres.sh halt DIR}" ;;
  resume) shift; server_start "${1:?usage: postgres.sh resume DIR}" ;;
  run) shift; cmd_run "$@" ;;
  demo) shift; cmd_demo "$@" ;;
  *) sed -n '2,14p' "$0" >&2; exit 2 ;;
esac
