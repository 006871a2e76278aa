#!/usr/bin/env bash
# Issue 40's soak, on an idle machine (not part of the test command): three instances on a
# private PostgreSQL behind nginx for SOAK_SECONDS (600 by default) under sign-ups with mail,
# logins, refreshes, /api/me and passkey options, one instance killed with SIGKILL halfway and
# started again. Prints each kind's answers and times, the mail count and each instance's RSS.
#   scripts/soak.sh               # ten minutes
#   SOAK_SECONDS=120 scripts/soak.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${GATEHOUSE_TEST_POSTGRES_URL:-}" ]; then exec ./scripts/with-postgres.sh "$0" "$@"; fi
./e2e/prepare.sh >/dev/null
./scripts/setup.sh nginx >/dev/null
swift build --product gatehouse
export GATEHOUSE_BIN="$PWD/.build/debug/gatehouse"
cd e2e && exec ../.venv/bin/python soak.py
