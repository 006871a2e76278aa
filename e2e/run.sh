#!/usr/bin/env bash
# The Python suites against the real gatehouse binary: the browser suite in real Chromium
# (Debian's chromium-headless-shell + chromium-driver; E2E_CHROMIUM=/usr/bin/chromium for the
# full browser), and third-party clients (supabase-auth, gql, schemathesis). Installs what it
# needs (e2e/prepare.sh); pytest arguments pass through.
# GATEHOUSE_BIN picks the binary under test (the debug build by default; the release build
# from scripts/release-build.sh passes the same suite).
#
# The suite runs on E2E_WORKERS pytest-xdist workers (3 by default, at most 4; 1 runs it
# serially in one process), one file per worker at a time, so a file's tests keep their order
# and share its fixtures; the longest files first (e2e/conftest.py's LONGEST_FIRST, in the order
# collected: --no-loadscope-reorder, or xdist would order files by their number of tests). Each
# worker starts its own servers, browsers and providers on ports of its own range
# (conftest.free_port), and the scale-out tests make a database of their own on the one
# private PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."
# E2E_PART=rest runs all but the tests that compare answer times, E2E_PART=timing only those
# (scripts/test.sh runs the rest beside the Swift suites, and the timing tests once both are done).
part=${E2E_PART:-all}
case "$part" in all | rest | timing) ;; *) echo "E2E_PART must be all, rest or timing, not $part" >&2; exit 2 ;; esac
# The scale-out tests need a private PostgreSQL; start one unless a caller already did (the
# timing tests need none).
if [ -z "${GATEHOUSE_TEST_POSTGRES_URL:-}" ] && [ "$part" != timing ]; then exec ./scripts/with-postgres.sh "$0" "$@"; fi
./e2e/prepare.sh
# scripts/test.sh built everything already (E2E_PREBUILT=1); run alone, build what the suite runs.
if [ -z "${E2E_PREBUILT:-}" ] || [ ! -x .build/debug/gatehouse ] || [ ! -x .build/debug/gatehouse-server ]; then
  swift build --product gatehouse
  swift build --product gatehouse-server
fi
OIDC_MOCK_PYTHON=$(./scripts/oidc-provider.sh)
export OIDC_MOCK_PYTHON
export GATEHOUSE_BIN="${GATEHOUSE_BIN:-$PWD/.build/debug/gatehouse}" AXE_JS="$PWD/.build-e2e/axe.min.js"
workers=${E2E_WORKERS:-3}
parallel=()
[ "$workers" -gt 1 ] && parallel=(-n "$workers" --dist loadfile --no-loadscope-reorder)
# Without a test file among the arguments, the whole suite; with one (e2e/test_x.py), just that.
for argument in "$@"; do
  case "$argument" in e2e/*) exec .venv/bin/pytest -q -p no:cacheprovider "${parallel[@]}" "$@" ;; esac
done
# The tests that compare answer times (marked `timing`, e2e/timing.py) run after the rest, one
# at a time: beside browsers on other workers their few milliseconds drown in the machine's noise.
set +e
status=5
if [ "$part" != timing ]; then
  .venv/bin/pytest -q -p no:cacheprovider --durations=25 "${parallel[@]}" -m "not timing" e2e "$@"
  status=$?
fi
timing_status=5
if [ "$part" != rest ]; then
  echo "the timing tests, alone:"
  .venv/bin/pytest -q -p no:cacheprovider -m timing e2e "$@"
  timing_status=$?
fi
# pytest's 5 is "no test selected", which one of the two runs may well be.
[ "$status" -eq 5 ] && [ "$timing_status" -ne 5 ] && status=0
[ "$timing_status" -eq 5 ] && [ "$status" -ne 5 ] && timing_status=0
[ "$status" -ne 0 ] && exit "$status"
exit "$timing_status"
