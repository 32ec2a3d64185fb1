#!/bin/bash
# make deb: every Debian package this host can make, each through scripts/make-deb.sh, into
# .build/deb (or $DEB_OUT):
#   bookworm amd64  the release build made here (scripts/release-build.sh; libgpiod 1.6)
#   trixie amd64    .build/dist/trixie-amd64/ambience when a trixie root built it (Debian's
#                   Swift), else the release build made here against Debian 13's libgpiod 2.2
#                   unpacked into $GPIOD2_PREFIX (.ci/libgpiod2.sh), which links libgpiod.so.3
#   SUITE ARCH      every other .build/dist/SUITE-ARCH/ambience (trixie-arm64 from the roots)
# Extra arguments go to make-deb.sh (--version V).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH
GPIOD2_PREFIX=${GPIOD2_PREFIX:-/opt/libgpiod2}
out=${DEB_OUT:-.build/deb}
made=()

package() {  # package SUITE ARCH BINARY [MAKE-DEB ARGUMENTS]
    local suite=$1 arch=$2 binary=$3
    shift 3
    made+=("$(scripts/make-deb.sh --suite "$suite" --arch "$arch" --binary "$binary" --out "$out" "$@" | tail -n 1)")
}

scripts/release-build.sh
package bookworm amd64 "$(scripts/release-build.sh --show-bin-path)/ambience" "$@"

if [ ! -f .build/dist/trixie-amd64/ambience ]; then
    [ -f "$GPIOD2_PREFIX/lib/pkgconfig/libgpiod.pc" ] || .ci/libgpiod2.sh "$GPIOD2_PREFIX"
    export PKG_CONFIG_PATH=$GPIOD2_PREFIX/lib/pkgconfig
    scripts/release-build.sh --scratch-path .build/gpiod2-release
    package trixie amd64 \
        "$(scripts/release-build.sh --scratch-path .build/gpiod2-release --show-bin-path)/ambience" "$@"
fi

for binary in .build/dist/*-*/ambience; do
    [ -f "$binary" ] || continue
    target=$(basename "$(dirname "$binary")")
    package "${target%-*}" "${target#*-}" "$binary" "$@"
done

for deb in "${made[@]}"; do
    echo "$deb: Depends: $(dpkg-deb -f "$deb" Depends)"
done
