#!/usr/bin/env bash
# Regenerates scripts/hot-functions.txt.gz, the functions scripts/release-build.sh asks the linker
# to place first and together in the binary's code (issue 41). It runs the release server under
# valgrind's callgrind, which names every function that executes (a sampling profiler misses
# the ones that run once or twice, and each of those would map its 64 KiB of neighbours): start,
# a few idle seconds, 16 concurrent sign-ins, then `/api/me`, a refresh and the login screen. The
# list is the set of names, sorted; re-run it when the sign-in path changes much (a function
# missing from the list costs a little memory, never correctness), then rebuild.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh valgrind curl
SYMBOLS=1 ./scripts/release-build.sh gatehouse-server
bin=$(readlink -f .build/symbols/release/gatehouse-server)  # callgrind names objects by their real path
scratch=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$scratch"' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
valgrind --tool=callgrind --demangle=no --dump-instr=no --callgrind-out-file="$scratch/callgrind.out" \
  "$bin" serve --demo --port "$port" --database "$scratch/demo.sqlite" --log-level error \
  --address-limit 1000000 --backoff-after 1000000 --account-failures-per-hour 1000000 \
  --trusted-proxy 127.0.0.1 >"$scratch/serve.out" 2>&1 &
server=$!
for _ in $(seq 600); do curl -sf "$base/health" >/dev/null && break; kill -0 "$server" || exit 1; sleep 0.2; done
sleep 5
login() { curl -sf -X POST "$base/api/auth/login" -H 'Content-Type: application/json' -H "X-Forwarded-For: 10.7.7.$1" \
  -d '{"email":"user@example.com","password":"password123"}'; }
logins=()
for i in $(seq 16); do login "$i" >"$scratch/login$i" & logins+=($!); done
wait "${logins[@]}"
field() { python3 -c "import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$@"; }
curl -sf "$base/api/me" -H "Authorization: Bearer $(field "$scratch/login1" access_token)" >/dev/null
curl -sf -X POST "$base/api/auth/refresh" -H 'Content-Type: application/json' \
  -d "{\"refresh_token\":\"$(field "$scratch/login2" refresh_token)\"}" >/dev/null
curl -sf "$base/login" >/dev/null
sleep 5
kill -TERM "$server"; wait "$server" || true; server=""
# Callgrind names each object and function once (`ob=(id) path`, `fn=(id) name`, or the same
# as a callee, `cob=`, `cfn=`), then by id alone; a function's costs follow the `ob=` of the
# object it belongs to. Keep the server binary's.
python3 - "$scratch/callgrind.out" "$bin" <<'PY' >"$scratch/hot"
import re, sys
objects, functions, current, hot = {}, {}, None, set()
for line in open(sys.argv[1], errors="replace"):
    match = re.match(r"(c?ob|c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
    if not match:
        continue
    kind, key, name = match.groups()
    table = objects if kind.endswith("ob") else functions
    if name:
        table[key] = name
    if kind == "ob":
        current = objects.get(key)
    elif kind == "fn" and current == sys.argv[2] and not functions[key].startswith("0x"):
        hot.add(functions[key])
print("\n".join(sorted(hot)))
PY
# A run that went wrong names a handful of functions; never replace the list with that.
count=$(wc -l <"$scratch/hot")
[ "$count" -ge 5000 ] || { echo "hot-functions: callgrind named only $count functions; list kept" >&2; exit 1; }
gzip -n -9 <"$scratch/hot" >scripts/hot-functions.txt.gz
echo "scripts/hot-functions.txt.gz: $count functions (scripts/release-build.sh relinks with it)"
