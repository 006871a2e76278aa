#!/usr/bin/env bash
# Gatehouse against fastapi-users 15.0.5 (issue 41), alternating so both meet the same machine:
# three rounds, each measuring the bound (libsodium's argon2id on every core at once) and then
# logins at 2, 8 and 16 connections, Gatehouse then fastapi-users at each, with wrk on loopback.
# Both hash with argon2id at m=19 MiB, t=2, p=1 on SQLite; fastapi-users runs under uvicorn with
# 2 workers (aiosqlite, pwdlib). Prints every round and the medians. The argument is seconds
# per phase (default 6).
#   scripts/bench-peer.sh
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh wrk curl python3-venv
seconds=${1:-6}
./scripts/release-build.sh gatehouse gatehouse-server gatehouse-bench
venv=.build-peer/venv
if [ ! -x "$venv/bin/uvicorn" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "fastapi-users[sqlalchemy]==15.0.5" aiosqlite uvicorn "pwdlib[argon2]"
fi
scratch=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null; rm -rf "$scratch"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_for() { for _ in $(seq 300); do curl -sf "$1/health" >/dev/null && return; sleep 0.1; done; echo "$1 did not start"; exit 1; }
rate() { awk '/^Requests\/sec:/ { print $2 }' "$1"; }
errors() { awk '/Non-2xx/ { n += $NF } /Socket errors/ { for (i = 4; i <= NF; i += 2) n += $i } END { print n + 0 }' "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# Gatehouse: the demo account, the limits out of the way (one address sends everything).
gh_port=$(free_port)
gatehouse=http://127.0.0.1:$gh_port
.build/release/gatehouse serve --demo --port "$gh_port" --database "$scratch/gatehouse.sqlite" --log-level error \
  --address-limit 1000000 --backoff-after 1000000 --account-failures-per-hour 1000000 --trusted-proxy 127.0.0.1 \
  >"$scratch/gatehouse.out" 2>&1 &
pids+=($!)
wait_for "$gatehouse"

# fastapi-users: its one account, then uvicorn with 2 workers.
peer_port=$(free_port)
peer=http://127.0.0.1:$peer_port
(cd scripts/peer && PEER_DATABASE="sqlite+aiosqlite:///$scratch/peer.sqlite" ../../$venv/bin/python fastapi_users_app.py user@example.com password123)
(cd scripts/peer && PEER_DATABASE="sqlite+aiosqlite:///$scratch/peer.sqlite" exec ../../$venv/bin/uvicorn fastapi_users_app:app \
  --host 127.0.0.1 --port "$peer_port" --workers 2 --log-level warning >"$scratch/peer.out" 2>&1) &
pids+=($!)
wait_for "$peer"

echo "bench-peer: $(nproc) cores, ${seconds} s per phase, logins/s (non-2xx or socket errors in brackets)"
printf '%-6s %-9s %-12s %s\n' round bound connections "Gatehouse (errors) ×bound | fastapi-users (errors)"
declare -A gh pe
for round in 1 2 3; do
  bound=$(.build/release/gatehouse-bench bound 3 | awk '{ print $2 }')
  [ -n "$bound" ] || { echo "bench-peer: gatehouse-bench bound printed no rate" >&2; exit 1; }
  for c in 2 8 16; do
    wrk -t2 -c"$c" -d"${seconds}s" -s scripts/wrk/login.lua "$gatehouse" >"$scratch/g"
    wrk -t2 -c"$c" -d"${seconds}s" -s scripts/wrk/peer-login.lua "$peer" >"$scratch/p"
    gh[$round,$c]=$(rate "$scratch/g"); pe[$round,$c]=$(rate "$scratch/p")
    printf '%-6s %-9s %-12s %s (%s) %sx | %s (%s)\n' "$round" "$bound" "$c" "${gh[$round,$c]}" "$(errors "$scratch/g")" \
      "$(ratio "${gh[$round,$c]}" "$bound")" "${pe[$round,$c]}" "$(errors "$scratch/p")"
    echo "$bound" >>"$scratch/bounds"
  done
done
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
bound_median=$(median <"$scratch/bounds")
for c in 2 8 16; do
  g=$(for r in 1 2 3; do echo "${gh[$r,$c]}"; done | median)
  p=$(for r in 1 2 3; do echo "${pe[$r,$c]}"; done | median)
  printf 'median at %2d connections: Gatehouse %s (%sx the bound %s), fastapi-users %s (Gatehouse %sx it)\n' \
    "$c" "$g" "$(ratio "$g" "$bound_median")" "$bound_median" "$p" "$(ratio "$g" "$p")"
done
