#!/usr/bin/env bash
# Release builds of the named products, linked stripped (no symbol table or debug info: the
# server binary goes from about 160 MB to about 41 MB). The demo and the benchmark both build
# through here, so they share one set of flags and never relink each other's binaries.
set -euo pipefail
cd "$(dirname "$0")/.."
for product in "$@"; do
  swift build -c release -Xlinker --strip-all --product "$product"
done
