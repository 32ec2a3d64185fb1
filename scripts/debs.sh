#!/bin/bash
# make deb: every Debian package this host can make, each through scripts/make-deb.sh, into
# .build/deb (or $DEB_OUT):
#   bookworm amd64  the Embedded Swift build (make embedded, .build/embedded/x86_64; libgpiod 1.6)
#   trixie amd64    the same against Debian 13's libgpiod 2.2 (make embedded-gpiod2,
#                   .build/embedded/x86_64-gpiod2), which links libgpiod.so.3
#   SUITE ARCH      every other .build/dist/SUITE-ARCH/ambience (trixie-arm64 from the roots)
# make deb builds the two Embedded builds first. Extra arguments go to make-deb.sh (--version V).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH
out=${DEB_OUT:-.build/deb}
made=()

package() {  # package SUITE ARCH BINARY [MAKE-DEB ARGUMENTS]
    local suite=$1 arch=$2 binary=$3
    shift 3
    made+=("$(scripts/make-deb.sh --suite "$suite" --arch "$arch" --binary "$binary" --out "$out" "$@" | tail -n 1)")
}

package bookworm amd64 .build/embedded/x86_64/ambience "$@"
package trixie amd64 .build/embedded/x86_64-gpiod2/ambience "$@"

for binary in .build/dist/*-*/ambience; do
    [ -f "$binary" ] || continue
    target=$(basename "$(dirname "$binary")")
    [ "${target#*-}" != amd64 ] || continue  # the Embedded builds above are amd64's
    package "${target%-*}" "${target#*-}" "$binary" "$@"
done

for deb in "${made[@]}"; do
    echo "$deb: Depends: $(dpkg-deb -f "$deb" Depends)"
done
