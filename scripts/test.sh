#!/usr/bin/env bash
# Every test:
#  1. the Swift suites (LoginCore; the pipeline and its services on real SQLite with no HTTP
#     framework; the server through HummingbirdTesting on real SQLite files; the client SDK and
#     the CLI against the real server on loopback), inside a private D-Bus session with a real
#     GNOME Keyring for the Secret Service store; the storage contract on SQLite and on a private
#     PostgreSQL; then the HTTP suites again on that PostgreSQL;
#  2. beside them, the Python suite (e2e/) against the real gatehouse binary on three
#     pytest-xdist workers: real headless Chromium, and third-party clients (supabase-auth, gql,
#     schemathesis over docs/openapi.yaml); its tests that compare answer times after all that,
#     alone.
# Each phase's time is printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
phases=()
phase_at() { # name, start time, end time
  phases+=("$(printf '%-44s %4ds' "$1" $(( $3 - $2 )))")
}
phase() { # name, start time; it ends now
  phase_at "$1" "$2" "$(date +%s)"
}
print_phases() {
  echo "phases:"
  for line in "${phases[@]}"; do echo "  $line"; done
  printf '  %-44s %4ds\n' "total" $(( $(date +%s) - started ))
}

at=$(date +%s)
# PostgreSQL here, before two private servers (the Swift suites' and the Python suite's) start
# at once and would both install it.
./scripts/setup.sh dbus gnome-keyring libsecret-tools postgresql
phase "setup (system packages)" "$at"

# The Python suite's packages, venvs and axe-core download while Swift compiles.
prepare_log=$(mktemp)
./e2e/prepare.sh >"$prepare_log" 2>&1 &
prepare_pid=$!

at=$(date +%s)
swift build --build-tests
phase "swift build (everything, once)" "$at"

at=$(date +%s)
if ! wait "$prepare_pid"; then
  cat "$prepare_log"
  echo "e2e/prepare.sh failed"
  exit 1
fi
rm -f "$prepare_log"
phase "wait for the Python suite's setup" "$at"

# The OpenID provider the Google suites sign in with (oidc-provider-mock, Python 3.12).
OIDC_MOCK_PYTHON=$(./scripts/oidc-provider.sh)
export OIDC_MOCK_PYTHON GATEHOUSE_REQUIRE_OIDC=1

# The Python suite, but for its timing tests, starts now and runs beside the Swift suites: they
# keep the two cores about half busy, the Python suite's browsers fill the rest. Its output is
# printed after theirs. The binaries the build made are the ones it runs: no second build.
rm -f .build-e2e/chromium-restarts.txt
python_log=$(mktemp)
python_end=$(mktemp)
python_at=$(date +%s)
(
  E2E_PREBUILT=1 E2E_PART=rest ./e2e/run.sh >"$python_log" 2>&1
  echo "$? $(date +%s)" >"$python_end"
) &
python_pid=$!

log=$(mktemp)
set +e
# One test at a time in each Swift run: on a two-core machine parallel tests only contend for
# the same cores (argon2id at OWASP cost in most of them) and push requests past the SDK's 10 s
# silence timeout. A private PostgreSQL serves the storage contract suite (both engines) and a
# second run of the HTTP suites on PostgreSQL. The two runs go side by side: each one alone
# keeps the two cores under half busy (measured: 105 CPU-seconds in a 123 s SQLite run). The
# PostgreSQL run calls the test binary itself, as `swift test` would, because two `swift test`
# processes wait for each other's lock on .build.
tests_binary="$(swift build --show-bin-path)/GatehousePackageTests.xctest"
GATEHOUSE_REQUIRE_POSTGRES=1 ./scripts/with-postgres.sh bash -c '
  echo "phase-mark start $(date +%s)"
  postgres_log=$(mktemp)
  (
    GATEHOUSE_TEST_ENGINE=postgres NO_COLOR=1 "$1" --testing-library swift-testing --no-parallel --filter "$0" >"$postgres_log" 2>&1
    echo "postgres-status $?" >>"$postgres_log"
    echo "phase-mark postgres $(date +%s)" >>"$postgres_log"
  ) &
  postgres_pid=$!
  ./scripts/with-keyring.sh swift test --skip-build --no-parallel
  sqlite_status=$?
  echo "phase-mark sqlite $(date +%s)"
  wait "$postgres_pid"
  echo "swift: the HTTP suites again, on PostgreSQL (run beside the SQLite run)"
  grep -v "^postgres-status " "$postgres_log"
  postgres_status=$(sed -n "s/^postgres-status //p" "$postgres_log")
  rm -f "$postgres_log"
  [ "$sqlite_status" -eq 0 ] && [ "${postgres_status:-1}" -eq 0 ]
' "$(cat scripts/postgres-suites.txt | paste -sd'|')" "$tests_binary" 2>&1 | tee "$log"
swift_status=${PIPESTATUS[0]}
swift_done=$(date +%s)
started_at=$(sed -n 's/^phase-mark start \([0-9]*\)$/\1/p' "$log")
sqlite_at=$(sed -n 's/^phase-mark sqlite \([0-9]*\)$/\1/p' "$log")
postgres_at=$(sed -n 's/^phase-mark postgres \([0-9]*\)$/\1/p' "$log")
if [ -n "$started_at" ] && [ -n "$sqlite_at" ] && [ -n "$postgres_at" ]; then
  phase_at "swift tests on SQLite (all suites)" "$started_at" "$sqlite_at"
  phase_at "swift tests on PostgreSQL (beside SQLite)" "$started_at" "$postgres_at"
fi
# Both runs' totals: all suites on SQLite, then the HTTP suites on PostgreSQL.
swift_total=0
swift_runs=0
for count in $(grep -E "Test run with [0-9]+ tests.* passed" "$log" | sed -E 's/.*Test run with ([0-9]+) tests.*/\1/'); do
  swift_total=$((swift_total + count))
  swift_runs=$((swift_runs + 1))
done
[ "$swift_runs" -eq 2 ] || swift_total=""
swift_passed=1
swift_failures=""
if [ "$swift_status" -ne 0 ] || [ -z "$swift_total" ]; then
  swift_passed=0
  swift_failures=$(grep -E "✘|recorded an issue|Fatal error|error:" "$log" | grep -v "Test run with" | head -60 || true)
fi

wait "$python_pid"
read -r browser_status python_done <"$python_end"
browser_status=${browser_status:-1}
python_done=${python_done:-$(date +%s)}
echo "python: the suite but its timing tests (run beside the Swift suites)"
cat "$python_log"
phase_at "python suite but timing (beside the Swift)" "$python_at" "$python_done"
at=$(date +%s)
phase_at "python: waited for after the Swift suites" "$swift_done" "$at"
# The tests that compare answer times, alone on the machine once everything else is done.
E2E_PREBUILT=1 E2E_PART=timing ./e2e/run.sh 2>&1 | tee -a "$python_log"
timing_status=${PIPESTATUS[0]}
set -e
phase "python timing tests (alone, after)" "$at"
# Two pytest runs (the suite, then the timing tests alone): their summary lines add up.
summaries=$(grep -E "^[0-9]+ (passed|failed|deselected|skipped).* in [0-9.]+s" "$python_log" || true)
failures=$(grep -E "^(FAILED|ERROR) " "$python_log" | head -40 || true)
# (grep finds no "failed" in a good run: `|| true`, or `set -e` would end the script here.)
browser_passed=$(echo "$summaries" | { grep -oE "[0-9]+ passed" || true; } | awk '{n += $1} END {if (NR) print n}')
browser_failed=$(echo "$summaries" | { grep -oE "[0-9]+ failed" || true; } | awk '{n += $1} END {if (NR) print n}')
rm -f "$log" "$python_log" "$python_end"
print_phases
if [ "$swift_passed" -eq 0 ]; then
  echo "swift: tests failed (exit $swift_status)"
else
  echo "swift: $swift_total passed, 0 failed"
fi
echo "python (browser + third-party clients): ${browser_passed:-0} passed, ${browser_failed:-0} failed"
if [ -s .build-e2e/schemathesis.txt ]; then echo "schemathesis: $(cat .build-e2e/schemathesis.txt)"; fi
if [ -s .build-e2e/chromium-restarts.txt ]; then
  # A browser that died starting, before its test did anything (e2e/conftest.py's `started`).
  echo "chromium: $(grep -c '^--- ' .build-e2e/chromium-restarts.txt) restart(s) at start; the first one's log:"
  awk '/^--- /{n++} n==1' .build-e2e/chromium-restarts.txt
else
  echo "chromium: no restart at start"
fi
# The failures again, last, where a log that keeps only its tail still shows them.
status=0
if [ "$swift_passed" -eq 0 ]; then
  echo "swift: what failed"
  echo "$swift_failures"
  status=1
fi
if [ "$browser_status" -ne 0 ] || [ "$timing_status" -ne 0 ] || [ -z "$browser_passed" ]; then
  [ -z "$failures" ] || { echo "python: what failed"; echo "$failures"; }
  echo "python: tests failed (exit $browser_status, timing tests $timing_status)"
  status=1
fi
[ "$status" -eq 0 ] || exit 1
echo "all: $((swift_total + browser_passed)) passed, 0 failed"
