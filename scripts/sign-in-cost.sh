#!/usr/bin/env bash
# The CPU a password sign-in costs besides its hash, counted in instructions rather than timed
# (issue 41): on this noisy machine a sign-in's CPU time moved by a fifth between runs of the
# same binary, an instruction count by about 2 %. It runs the release server under valgrind's
# callgrind, one profile per thread, with counting off until the server is warm; it counts 10 s
# idle (the background's rate), then 20 s of wrk at 2 connections signing in the demo account,
# and prints, per sign-in, libsodium's instructions (the hash) and every other function's on
# every thread, less the idle rate. (The hashing threads run the rest of a password sign-in too,
# on SQLite with its lanes, so whole threads are not the split.)
# Usage: scripts/sign-in-cost.sh [binary] (default: the stripped release server, built
# by scripts/release-build.sh). With USER_AGENT set, every sign-in sends it (a browser's costs
# the session's device label read from it; without one the label is "Unknown device").
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh valgrind wrk curl
bin=${1:-.build/release/gatehouse-server}
[ -x "$bin" ] || ./scripts/release-build.sh gatehouse-server
seconds=20
scratch=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$scratch"' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
valgrind --tool=callgrind --separate-threads=yes --instr-atstart=no --callgrind-out-file="$scratch/cg" \
  "$bin" serve --demo --port "$port" --database "$scratch/demo.sqlite" --log-level error \
  --address-limit 1000000 --backoff-after 1000000 --account-failures-per-hour 1000000 \
  --trusted-proxy 127.0.0.1 >"$scratch/serve.out" 2>&1 &
server=$!
for _ in $(seq 600); do curl -sf "$base/health" >/dev/null && break; kill -0 "$server" || exit 1; sleep 0.2; done
wrk -t1 -c2 -d5s -s scripts/wrk/login.lua "$base" >/dev/null  # warm: every path run once
sleep 1
count() { callgrind_control -i on "$server" >/dev/null; "$@"; callgrind_control -i off "$server" >/dev/null
  callgrind_control -d "$server" >/dev/null; }
count sleep 10
count wrk -t1 -c2 -d"${seconds}s" -s scripts/wrk/login.lua "$base" >"$scratch/wrk"
grep -q "Non-2xx" "$scratch/wrk" && { echo "sign-in-cost: a sign-in failed" >&2; cat "$scratch/wrk" >&2; exit 1; }
kill "$server"; wait "$server" 2>/dev/null || true; server=""
python3 - "$scratch" "$(awk '/requests in/ { print $1 }' "$scratch/wrk")" "$seconds" <<'PY'
import glob, re, subprocess, sys
scratch, sign_ins, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
line = re.compile(r"^\s*([\d,]+) \(.*\[(.*)\]\s*$")
def dump(number):
    """Instructions in libsodium (the hash) and everywhere else, over every thread of one dump.

    The hashing threads also run the rest of a password sign-in (its limits, account, session
    and answer), so a thread is split by the object each function lives in, not counted whole.
    """
    hashing = others = 0
    for path in glob.glob(f"{scratch}/cg.{number}-*"):
        listing = subprocess.run(["callgrind_annotate", "--threshold=100", path], capture_output=True, text=True).stdout
        for found in map(line.match, listing.splitlines()):
            if not found:
                continue
            count = int(found.group(1).replace(",", ""))
            if "libsodium" in found.group(2):
                hashing += count
            else:
                others += count
    return hashing, others
_, idle = dump(1)
hashing, others = dump(2)
besides = others - idle / 10 * seconds
print(f"sign-ins: {sign_ins} in {seconds:.0f} s under callgrind")
print(f"hash (libsodium): {hashing / sign_ins / 1e6:.1f} M instructions per sign-in")
print(f"besides the hash, every thread: {besides / sign_ins / 1e6:.3f} M instructions per sign-in "
      f"(the idle background, {idle / 10 / 1e6:.2f} M/s, taken out)")
PY
