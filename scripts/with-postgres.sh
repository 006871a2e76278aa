#!/usr/bin/env bash
# Runs a command with a private PostgreSQL server (Debian's postgresql): initdb into a temporary
# folder on a free loopback port, owned by an unprivileged user because postgres refuses to run
# as root. The command sees GATEHOUSE_TEST_POSTGRES_URL (a superuser URL to the "gatehouse"
# database); the server and its folder go away after.
#   scripts/with-postgres.sh swift test
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh postgresql
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
scratch=$(mktemp -d /tmp/gatehouse-pg.XXXXXX)
runner=()
if [ "$(id -u)" -eq 0 ]; then
  # (Two of these may start at once: whichever loses the race finds the user made.)
  id gatehouse-pg >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin gatehouse-pg \
    || id gatehouse-pg >/dev/null
  chown gatehouse-pg "$scratch"
  runner=(runuser -u gatehouse-pg --)
fi
chmod 700 "$scratch"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cleanup() {
  "${runner[@]}" "$bin/pg_ctl" -D "$scratch/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$scratch"
}
trap cleanup EXIT
"${runner[@]}" "$bin/initdb" -D "$scratch/data" -U gatehouse --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
# Room for many instances and test databases; fsync off: a test server's crash loses nothing.
"${runner[@]}" "$bin/pg_ctl" -D "$scratch/data" -l "$scratch/server.log" -w -t 60 \
  -o "-h 127.0.0.1 -p $port -k $scratch -c max_connections=300 -c fsync=off -c synchronous_commit=off" start >/dev/null
"${runner[@]}" "$bin/createdb" -h 127.0.0.1 -p "$port" -U gatehouse gatehouse
export GATEHOUSE_TEST_POSTGRES_URL="postgres://gatehouse@127.0.0.1:$port/gatehouse?sslmode=disable"
"$@"
