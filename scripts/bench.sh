#!/usr/bin/env bash
# The benchmark: a release build of gatehouse-bench, which times LoginCore, the session stores
# and argon2id, then drives the real server on loopback. The argument is the seconds per load phase (default 8).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh dbus gnome-keyring
swift build -c release --product gatehouse-bench
# Inside a keyring session, so the Secret Service store is timed too.
exec ./scripts/with-keyring.sh .build/release/gatehouse-bench "${1:-8}"
