#!/bin/bash
# The release build, defined once: `make release` (and so `make install`) and `make bench` build
# through this script. Extra arguments go to `swift build` (bench: --scratch-path, --show-bin-path).
# Why each flag: its comment below. What each saved, measured, was docs/performance.md's "The
# release build" until the packages shipped Embedded Swift (git show 9fb8a9a:docs/performance.md).
#
#   scripts/release-build.sh [SWIFT-BUILD-ARGUMENTS...]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH
flags=(
    -c release --static-swift-stdlib
    # Optimised for size: the daemon spends microseconds a sample, and what it keeps resident is
    # mostly its own code (ambience-run: 6.52 MB stripped against 6.64 MB with -O).
    -Xswiftc -Osize
    # lld instead of gold (the Swift toolchain ships it), so that the two below are available.
    -Xswiftc -use-ld=lld
    # Relative relocations packed (DT_RELR, glibc 2.36 on): ~400 kB fewer bytes the loader reads.
    -Xlinker -z -Xlinker pack-relative-relocs
    # Identical functions folded.
    -Xlinker --icf=all
    # Only what the dynamic loader needs in the dynamic symbol table (swiftc asks for every
    # symbol, which also keeps them all from --gc-sections).
    -Xlinker --no-export-dynamic
    # The functions the daemon runs first and together (scripts/release-order.sh made the list).
    -Xlinker "--symbol-ordering-file=$PWD/scripts/release-order.txt" -Xlinker --no-warn-symbol-ordering
)
exec "${SWIFT:-swift}" build "${flags[@]}" "$@"
