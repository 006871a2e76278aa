#!/usr/bin/env bash
# Every test: the Swift suites (LoginCore, the server through HummingbirdTesting on real
# SQLite files, the client SDK and the CLI against the real server on loopback), inside a
# private D-Bus session with a real GNOME Keyring for the Secret Service store.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh dbus gnome-keyring libsecret-tools

swift build --build-tests
log=$(mktemp)
set +e
./scripts/with-keyring.sh swift test 2>&1 | tee "$log"
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
