#!/usr/bin/env bash
# Every test:
#  1. the Swift suites (LoginCore; the server through HummingbirdTesting on real SQLite files;
#     the client SDK and the CLI against the real server on loopback), inside a private D-Bus
#     session with a real GNOME Keyring for the Secret Service store; the storage contract on
#     SQLite and on a private PostgreSQL; then the HTTP suites again on that PostgreSQL;
#  2. the Python suite (e2e/) against the real gatehouse binary: real headless Chromium, and
#     third-party clients (supabase-auth, gql, schemathesis over docs/openapi.yaml).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh dbus gnome-keyring libsecret-tools

swift build --build-tests
# The OpenID provider the Google suites sign in with (oidc-provider-mock, Python 3.12).
OIDC_MOCK_PYTHON=$(./scripts/oidc-provider.sh)
export OIDC_MOCK_PYTHON GATEHOUSE_REQUIRE_OIDC=1
log=$(mktemp)
set +e
# One test at a time: on a two-core machine parallel tests only contend for the same cores
# (argon2id at OWASP cost in most of them) and push requests past the SDK's 10 s silence
# timeout; serial, the whole suite takes about 35 s.
# A private PostgreSQL for the storage contract suite (both engines) and for a second run of
# the HTTP suites on PostgreSQL.
GATEHOUSE_REQUIRE_POSTGRES=1 ./scripts/with-postgres.sh bash -c '
  ./scripts/with-keyring.sh swift test --no-parallel || exit $?
  echo "swift: the HTTP suites again, on PostgreSQL"
  GATEHOUSE_TEST_ENGINE=postgres swift test --no-parallel --filter "$0"
' "$(cat scripts/postgres-suites.txt | paste -sd'|')" 2>&1 | tee "$log"
swift_status=${PIPESTATUS[0]}
set -e
# Both runs' totals: all suites on SQLite, then the HTTP suites on PostgreSQL.
swift_total=0
swift_runs=0
for count in $(grep -E "Test run with [0-9]+ tests.* passed" "$log" | sed -E 's/.*Test run with ([0-9]+) tests.*/\1/'); do
  swift_total=$((swift_total + count))
  swift_runs=$((swift_runs + 1))
done
[ "$swift_runs" -eq 2 ] || swift_total=""
if [ "$swift_status" -ne 0 ] || [ -z "$swift_total" ]; then
  rm -f "$log"
  echo "swift: tests failed (exit $swift_status)"
  exit 1
fi

set +e
./e2e/run.sh 2>&1 | tee "$log"
browser_status=${PIPESTATUS[0]}
set -e
browser_passed=$(grep -oE "[0-9]+ passed" "$log" | tail -n 1 | cut -d' ' -f1 || true)
browser_failed=$(grep -oE "[0-9]+ failed" "$log" | tail -n 1 | cut -d' ' -f1 || true)
rm -f "$log"
echo "swift: $swift_total passed, 0 failed"
echo "python (browser + third-party clients): ${browser_passed:-0} passed, ${browser_failed:-0} failed"
if [ -s .build-e2e/schemathesis.txt ]; then echo "schemathesis: $(cat .build-e2e/schemathesis.txt)"; fi
if [ "$browser_status" -ne 0 ] || [ -z "$browser_passed" ]; then
  exit 1
fi
echo "all: $((swift_total + browser_passed)) passed, 0 failed"
