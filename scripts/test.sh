#!/usr/bin/env bash
# Every test: the Swift suites (LoginCore, the server through HummingbirdTesting on real
# SQLite files, the CLI as a real process on loopback).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

swift build --build-tests
log=$(mktemp)
set +e
swift test 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e

# One closing line with the counts, read from Swift Testing's own summary.
summary=$(grep -E "Test run with [0-9]+ tests" "$log" | tail -n 1)
total=$(sed -E 's/.*Test run with ([0-9]+) tests.*/\1/' <<<"$summary")
failed=$(grep -cE "^✘ Test .*(failed|recorded an issue)" "$log" || true)
rm -f "$log"
if [ "$status" -ne 0 ] || [ -z "$total" ]; then
  echo "swift: tests failed (exit $status)"
  exit 1
fi
echo "swift: $total passed, $failed failed"
