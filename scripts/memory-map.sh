#!/usr/bin/env bash
# What holds the idle server's memory (issue 41): a release `gatehouse serve --demo` on a new
# SQLite file, read from /proc/PID/smaps 35 s after start, then again 35 s after a burst of
# logins. Resident memory is grouped by what maps it: the server binary, each shared library,
# the heap and anonymous memory (malloc's arenas, NIO's buffers, SQLite's page cache, Swift's
# metadata), thread stacks, and the rest.
#   scripts/memory-map.sh            # uses .build/release (scripts/release-build.sh gatehouse gatehouse-server)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release/gatehouse
[ -x "$bin" ] || ./scripts/release-build.sh gatehouse gatehouse-server
# A just-linked binary is dirty in the page cache and maps fewer pages per fault until written
# back; the steady state is what a deployed server shows.
sync
scratch=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$scratch"' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$bin" serve --demo --port "$port" --database "$scratch/demo.sqlite" --log-level error \
  --address-limit 1000000 --backoff-after 1000000 --account-failures-per-hour 1000000 >"$scratch/out" 2>&1 &
server=$!
for _ in $(seq 200); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
report() {
  python3 - "$server" "$1" <<'PY'
import collections, re, sys
pid, label = sys.argv[1], sys.argv[2]
groups, name = collections.Counter(), None
threads = len(__import__("os").listdir(f"/proc/{pid}/task"))
for line in open(f"/proc/{pid}/smaps"):
    head = re.match(r"^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$", line)
    if head:
        perms, path = head.groups()
        if path.endswith("gatehouse-server") or path.endswith("/gatehouse"):
            name = "the server binary (code and data)"
        elif ".so" in path:
            name = "shared library " + path.rsplit("/", 1)[-1].split(".so")[0]
        elif path == "[heap]":
            name = "heap (brk)"
        elif path.startswith("[stack"):
            name = "main thread stack"
        elif path == "":
            name = "anonymous (malloc arenas, thread stacks, buffers)"
        else:
            name = path
    elif line.startswith("Rss:"):
        groups[name] += int(line.split()[1])
total = sum(groups.values())
print(f"{label}: RSS {total / 1024:.1f} MiB, {threads} threads")
for name, kib in groups.most_common(12):
    print(f"  {kib / 1024:7.1f} MiB  {name}")
PY
}
sleep 35
report "35 s after start"
logins=()
for _ in $(seq 1 16); do
  curl -sf -X POST "http://127.0.0.1:$port/api/auth/login" -H 'Content-Type: application/json' \
    -d '{"email":"user@example.com","password":"password123"}' >/dev/null &
  logins+=($!)
done
wait "${logins[@]}"
sleep 35
report "35 s after 16 concurrent logins"
