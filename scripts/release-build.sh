#!/usr/bin/env bash
# Release builds of the named products, linked stripped (no symbol table or debug info) and with
# Swift's runtime and Foundation linked in statically (`--static-swift-stdlib`): the linker keeps
# only the parts a binary uses, so a running server maps about 12 MiB less than with Swift's
# shared libraries (issue 41: 42 to 28 MiB resident when idle), and the binary needs no Swift
# toolchain where it runs, only Debian's libraries. The demo and the benchmark both build
# through here, so they share one set of flags and never relink each other's binaries. Static
# Foundation's networking links libcurl (Swift's Linux prerequisites list its -dev package).
#
# Code is laid out by use: every function gets its own section (Swift's `-function-sections`,
# clang's `-ffunction-sections`), and the linker places the functions a server runs from start
# through its first sign-ins (scripts/hot-functions.txt.gz) first, together. The kernel maps
# code 64 KiB around each page a process touches, so code scattered over the 40 MB of the
# binary's text made a server that had signed a few people in map about 20 MiB of it; packed
# together it maps a few. scripts/hot-functions.sh regenerates the list; a function missing from
# it only costs a little memory, never correctness.
#   SYMBOLS=1 scripts/release-build.sh P  # the same code with its symbol table, in .build/symbols
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh libcurl4-openssl-dev
flags=(-c release --static-swift-stdlib
  -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections -Xcxx -ffunction-sections)
if [ -n "${SYMBOLS:-}" ]; then
  # Debug info dropped (valgrind's reader does not take Swift's), names kept.
  flags+=(--scratch-path .build/symbols -Xlinker --strip-debug)
else
  order=.build/hot-functions.txt
  mkdir -p .build
  gunzip -c scripts/hot-functions.txt.gz | sed 's/^/.text./' > "$order.new"
  # SwiftPM does not see the list as a link input: when it changed, drop the binaries so they relink.
  if cmp -s "$order.new" "$order"; then
    rm "$order.new"
  else
    mv "$order.new" "$order"
    rm -f .build/release/gatehouse .build/release/gatehouse-server .build/release/gatehouse-bench
  fi
  flags+=(-Xlinker --strip-all -Xlinker "--section-ordering-file=$PWD/$order")
fi
# `serve --hashing-helpers` and the benchmark's second bound run gatehouse-hasher, found beside them.
for product in "$@" gatehouse-hasher; do
  swift build "${flags[@]}" --product "$product"
done
