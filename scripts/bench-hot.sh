#!/usr/bin/env bash
# The hot paths as a new user measures them: a release `gatehouse serve --demo` on SQLite, loaded
# by wrk on loopback, with the limits raised so one address can load it. Prints one table of
# figures and ratios against their physical bounds (issue 25): logins against the two-thread
# (`cores`-thread) argon2id bound measured right before and after each login phase, as
# gatehouse-bench's rounds do (issue 41); each phase runs once, so read it beside those rounds.
# Run by scripts/bench.sh after the release builds; the argument is seconds per phase (default 8).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh wrk curl
seconds=${1:-8}
bin=.build/release/gatehouse
bench=.build/release/gatehouse-bench
scratch=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$scratch"' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
cores=$(nproc)

rss() { awk '/^VmRSS:/ { printf "%.1f", $2 / 1024 }' "/proc/$server/status"; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$server/stat"; }
# wrk's requests per second, and a latency percentile in ms from its --latency table.
rate() { awk '/^Requests\/sec:/ { print $2 }' "$1"; }
percentile() {
  awk -v p="$2%" '$1 == p { v = $2; u = v; sub(/[0-9.]+/, "", u); sub(/[a-z]+$/, "", v);
    if (u == "us") v /= 1000; else if (u == "s") v *= 1000; printf "%.2f", v }' "$1"
}
non2xx() { awk '/Non-2xx/ { print $4 } END { }' "$1" | grep . || echo 0; }
login() { curl -sf -X POST "$base/api/auth/login" -H 'Content-Type: application/json' -H "X-Forwarded-For: 10.9.9.$1" \
  -d '{"email":"user@example.com","password":"password123"}'; }
field() { python3 -c "import json, sys; print(json.load(sys.stdin)['$1'])"; }

# 1. The fastest argon2id implementation on this machine, one thread, same parameters.
$bench hashes | tee "$scratch/hashes"
# The logins' bound: that implementation on `cores` threads at once, hashes/s, for 3 s (the
# machine's speed drifts from minute to minute, so it is taken around each login phase).
bound() {
  local rate
  rate=$($bench bound 3 | awk '{ print $2 }')
  [ -n "$rate" ] || { echo "bench-hot: gatehouse-bench bound printed no rate" >&2; return 1; }
  echo "$rate"
}

# 2. The server, as the README's demo starts it, with the limits out of the way.
# The binary as a deployed server sees it: written back, not dirty in the page cache (a
# just-linked binary maps fewer pages per fault, so its RSS would read about 6 MiB low).
sync
$bin serve --demo --port "$port" --database "$scratch/demo.sqlite" --log-level error \
  --address-limit 1000000 --backoff-after 1000000 --account-failures-per-hour 1000000 \
  --trusted-proxy 127.0.0.1 >"$scratch/serve.out" 2>&1 &
server=$!
for _ in $(seq 200); do curl -sf "$base/health" >/dev/null && break; sleep 0.1; done
[ -d "/proc/$server" ] || { server=$(pgrep -n -f "gatehouse-server.*$port" || true); }
# `gatehouse serve` runs the server binary in its place (exec), so the pid stays the same.
# Idle means 35 s on (issue 41): the demo account's hash keeps each hashing thread's 19 MiB of
# argon2 memory for 30 s after its last hash, so at 3 s the RSS read about 63 MiB.
sleep 35
rss_start=$(rss)

bound0=$(bound)
wrk -t2 -c2 -d"${seconds}s" -s scripts/wrk/login.lua "$base" >"$scratch/login2"
bound1=$(bound)
wrk -t2 -c16 -d"${seconds}s" -s scripts/wrk/login.lua "$base" >"$scratch/login16"
bound2=$(bound)
sleep 35
rss_flood=$(rss)

token=$(login 1 | field access_token)
wrk -t2 -c16 -d"${seconds}s" "$base/health" >"$scratch/health"
TOKEN=$token wrk -t2 -c16 -d"${seconds}s" -s scripts/wrk/me.lua "$base/api/me" >"$scratch/me"
TOKEN=$token wrk -t1 -c1 -d"${seconds}s" --latency -s scripts/wrk/me.lua "$base/api/me" >"$scratch/me-idle"
wrk -t1 -c8 -d"$((seconds + 2))s" -s scripts/wrk/login.lua "$base" >"$scratch/flood" &
flood=$!
sleep 1
TOKEN=$token wrk -t1 -c1 -d"${seconds}s" --latency -s scripts/wrk/me.lua "$base/api/me" >"$scratch/me-flood"
wait $flood

tokens=""
for i in $(seq 32); do tokens+="$(login $((i + 1)) | field refresh_token) "; done
before=$(cpu_ticks)
TOKENS=$tokens THREADS=2 wrk -t2 -c16 -d"${seconds}s" -s scripts/wrk/refresh.lua "$base" >"$scratch/refresh"
after=$(cpu_ticks)
ticks=$(getconf CLK_TCK)

python3 - "$cores" "$bound0 $bound1 $bound2" "$scratch" "$rss_start" "$rss_flood" "$((after - before))" "$ticks" <<'PY'
import re, sys
cores, bounds, scratch, rss_start, rss_flood, ticks, hz = sys.argv[1:]
cores, rss_start, rss_flood = int(cores), float(rss_start), float(rss_flood)
bounds = [float(b) for b in bounds.split()]
def text(name): return open(f"{scratch}/{name}").read()
def rate(name): return float(re.search(r"Requests/sec:\s+([\d.]+)", text(name)).group(1))
def errors(name):
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", text(name)); return int(m.group(1)) if m else 0
def requests(name): return int(re.search(r"(\d+) requests in", text(name)).group(1))
def p99(name):
    v, unit = re.search(r"\s99%\s+([\d.]+)(us|ms|s)", text(name)).groups()
    return float(v) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
rows = []
for index, (name, label) in enumerate((("login2", "2"), ("login16", "16"))):
    r, bound = rate(name), (bounds[index] + bounds[index + 1]) / 2
    rows.append((f"logins/s, {label} clients", f"{r:.1f}",
                 f"{r / bound:.2f} × the {cores}-thread bound around it, {bound:.1f} (≥ 0.90)", errors(name)))
health, me = rate("health"), rate("me")
rows.append(("GET /health/s, 16 connections", f"{health:.0f}", "", errors("health")))
rows.append(("GET /api/me/s, 16 connections", f"{me:.0f}", f"{me / health:.2f} × /health (≥ 0.50)", errors("me")))
idle, flood = p99("me-idle"), p99("me-flood")
rows.append(("GET /api/me p99 idle, ms", f"{idle:.2f}", "", errors("me-idle")))
rows.append(("GET /api/me p99 during a login flood, ms", f"{flood:.2f}", f"{flood / 5:.2f} × 5 ms, {flood / idle:.2f} × idle (< 1, < 2)", errors("me-flood")))
cpu = int(ticks) / int(hz)
done = requests("refresh") - errors("refresh")
rows.append(("refreshes per server CPU-second", f"{done / cpu:.0f}", f"{done / cpu / 1200:.2f} × 1,200 ({done} in {cpu:.2f} CPU-s)", errors("refresh")))
rows.append(("idle RSS after start, MiB", f"{rss_start:.1f}", f"{rss_start / 40:.2f} × 40 MiB", ""))
rows.append(("idle RSS after the login floods, MiB", f"{rss_flood:.1f}", f"{rss_flood / 40:.2f} × 40 MiB", ""))
print(f"\nhot paths ({cores} cores, wrk on loopback, serve --demo on SQLite):")
print(f"| figure | value | ratio (target) | non-2xx |\n|---|---|---|---|")
for row in rows: print("| " + " | ".join(str(c) for c in row) + " |")
PY
ls -l "$(readlink -f .build/release/gatehouse-server)" | awk '{ printf "gatehouse-server binary: %.1f MB\n", $5 / 1e6 }'
