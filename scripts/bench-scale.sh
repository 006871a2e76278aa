#!/usr/bin/env bash
# Scale-out figures: logins/s, GET /api/me/s and refreshes/s through nginx in front of one, two
# and three `gatehouse serve` instances on one PostgreSQL, against one instance on SQLite behind
# the same nginx. Run by scripts/bench.sh (release builds); the argument is seconds per phase.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${GATEHOUSE_TEST_POSTGRES_URL:-}" ]; then exec ./scripts/with-postgres.sh "$0" "$@"; fi
./scripts/setup.sh nginx-light postgresql-client
seconds=${1:-8}
bin=.build/release/gatehouse
scratch=$(mktemp -d)
pids=()
stop_all() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; pids=(); }
trap 'stop_all; rm -rf "$scratch"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
export GATEHOUSE_KEY_ENCRYPTION_KEY=$($bin keys new-kek)
limits=(--address-limit 1000000 --backoff-after 1000000 --account-failures-per-hour 1000000 --trusted-proxy 127.0.0.1)

# $1: the database; $2: how many instances. Prints the target line of gatehouse-bench.
measure() {
  local database=$1 count=$2 ports=() servers=""
  $bin migrate --database "$database" >/dev/null
  printf 'bench-password-1' | $bin users create --email bench@example.com --name Bench --password-stdin --database "$database" >/dev/null
  for _ in $(seq "$count"); do
    local port; port=$(free_port)
    $bin serve --database "$database" --port "$port" --log-level warning "${limits[@]}" >/dev/null 2>"$scratch/serve-$port.log" &
    pids+=($!)
    ports+=("$port")
    servers+="server 127.0.0.1:$port; "
  done
  for port in "${ports[@]}"; do
    for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
  done
  local front; front=$(free_port)
  local user=""; [ "$(id -u)" -eq 0 ] && user="user root;"
  cat >"$scratch/nginx.conf" <<CONF
$user
worker_processes 1;
pid $scratch/nginx.pid;
error_log $scratch/nginx-error.log;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $scratch/body; proxy_temp_path $scratch/proxy; fastcgi_temp_path $scratch/fcgi;
  uwsgi_temp_path $scratch/uwsgi; scgi_temp_path $scratch/scgi;
  upstream gatehouse { $servers keepalive 64; }
  server {
    listen 127.0.0.1:$front;
    location / {
      proxy_pass http://gatehouse; proxy_http_version 1.1; proxy_set_header Connection "";
      proxy_set_header X-Forwarded-For \$remote_addr; proxy_set_header X-Forwarded-Proto \$scheme;
    }
  }
}
CONF
  nginx -p "$scratch" -c "$scratch/nginx.conf" -g 'daemon off;' &
  pids+=($!)
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$front/health" >/dev/null && break; sleep 0.1; done
  .build/release/gatehouse-bench target "http://127.0.0.1:$front" "$seconds" "${pids[@]:0:$count}"
  stop_all
}

new_pg() {
  local name="bench_$RANDOM$RANDOM"
  psql "$GATEHOUSE_TEST_POSTGRES_URL" -qc "CREATE DATABASE $name"
  echo "${GATEHOUSE_TEST_POSTGRES_URL%/gatehouse*}/$name?sslmode=disable"
}

rate() { sed -E "s/.*$1=([0-9.]+).*/\\1/" <<<"$2"; }
sqlite=$(measure "$scratch/bench.sqlite" 1)
echo "scale-out, SQLite, 1 instance behind nginx: $sqlite"
for count in 1 2 3; do
  line=$(measure "$(new_pg)" "$count")
  ratios=$(python3 -c "import sys; a=sys.argv[1:]; print('logins %.2f×, me %.2f×, refreshes %.2f× the SQLite instance' % tuple(float(a[i+3])/float(a[i]) for i in range(3)))" \
    "$(rate logins "$sqlite")" "$(rate me "$sqlite")" "$(rate refreshes "$sqlite")" "$(rate logins "$line")" "$(rate me "$line")" "$(rate refreshes "$line")")
  echo "scale-out, PostgreSQL, $count instance(s) behind nginx: $line ($ratios)"
done
cores=$(nproc)
echo "refreshes floor: 10 × Keycloak's 120 per vCPU = 1200 per vCPU-second of the server (refreshes_per_cpu_s above);"
echo "  on all $cores cores at once that is $((1200 * cores))/s, which this machine cannot show while the load generator,"
echo "  nginx and PostgreSQL share the same cores (server_cores says how much of them the instances got)"
