#!/usr/bin/env bash
# The benchmark: a release build of gatehouse-bench, which times LoginCore, the session stores
# and argon2id, then drives the real server on loopback. The argument is the seconds per load phase (default 8).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh dbus gnome-keyring wrk
./scripts/release-build.sh gatehouse-bench gatehouse gatehouse-server
# Inside a keyring session, so the Secret Service store is timed too.
./scripts/with-keyring.sh .build/release/gatehouse-bench "${1:-8}"
# The login page in Chromium: its weight and its first contentful paint.
./scripts/setup.sh chromium chromium-driver fonts-dejavu-core python3-venv
[ -x .venv/bin/python ] || { python3 -m venv .venv && .venv/bin/pip install -q -r e2e/requirements.txt; }
GATEHOUSE_BIN="$PWD/.build/release/gatehouse" .venv/bin/python e2e/measure_page.py
./scripts/bench-scale.sh "${1:-8}"
# The hot paths as a new user measures them: wrk against `serve --demo` (issue 25's table).
./scripts/bench-hot.sh "${1:-8}"
