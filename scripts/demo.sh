#!/usr/bin/env bash
# The main job: the auth server on SQLite with the demo account user@example.com / password123,
# on http://127.0.0.1:8080. Its data (the database and the signing key) live in ./gatehouse-data/,
# a folder git ignores, so no `git add .` can pick up the private key. Extra arguments go to `serve`.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
# Stripped; `serve` runs in gatehouse-server (no client HTTP stack mapped).
./scripts/release-build.sh gatehouse gatehouse-server
mkdir -p -m 700 gatehouse-data
exec .build/release/gatehouse serve --demo --database gatehouse-data/gatehouse.sqlite "$@"
