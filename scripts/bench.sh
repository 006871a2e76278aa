#!/usr/bin/env bash
# The benchmark: a release build of gatehouse-bench, which times argon2id and then drives the
# real server on loopback. The argument is the seconds per load phase (default 8).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
swift build -c release --product gatehouse-bench
exec .build/release/gatehouse-bench "${1:-8}"
