#!/usr/bin/env bash
# Release builds of the named products, linked stripped (no symbol table or debug info) and with
# Swift's runtime and Foundation linked in statically (`--static-swift-stdlib`): the linker keeps
# only the parts a binary uses, so a running server maps about 12 MiB less than with Swift's
# shared libraries (issue 41: 42 to 28 MiB resident when idle), and the binary needs no Swift
# toolchain where it runs, only Debian's libraries. The demo and the benchmark both build
# through here, so they share one set of flags and never relink each other's binaries. Static
# Foundation's networking links libcurl (Swift's Linux prerequisites list its -dev package).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh libcurl4-openssl-dev
for product in "$@"; do
  swift build -c release -Xlinker --strip-all --static-swift-stdlib --product "$product"
done
