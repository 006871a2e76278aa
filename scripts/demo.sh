#!/usr/bin/env bash
# The main job: the auth server on SQLite (./gatehouse.sqlite) with the demo account
# user@example.com / password123, on http://127.0.0.1:8080. Extra arguments go to `serve`.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
swift build -c release --product gatehouse
exec .build/release/gatehouse serve --demo "$@"
