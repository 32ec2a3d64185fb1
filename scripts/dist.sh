#!/bin/bash
# make dist: every program cross-built in Embedded Swift on this host for the Pi, one directory per
# Debian suite and architecture, .build/dist/SUITE-ARCH (what make deb packages):
#   arm64   AArch64 (Pi 3, 4, 5, Zero 2 on a 64-bit OS)
#   armhf   ARMv6 hard-float code (ARM1176, VFPv2): every 32-bit Pi, the Zero and the Pi 1 too
# each against its suite's sysroot (scripts/sysroot.sh): bookworm's glibc 2.36 and libgpiod 1.6,
# trixie's glibc 2.41 and libgpiod 2; 64-bit file offsets everywhere, and on trixie the 64-bit
# time_t its armhf libraries are built with (Debian's time_t transition; bookworm's are 32-bit).
# On arm64 neither changes a thing, so trixie's build starts from a copy of bookworm's Swift
# modules (times kept) and makes only its C shims and links; armhf's are built twice.
#   scripts/dist.sh [ARCH...]      default: arm64 armhf
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
export PATH=/opt/swift/usr/bin:$PATH
arches=("$@")
[ ${#arches[@]} -gt 0 ] || arches=(arm64 armhf)
for arch in "${arches[@]}"; do
    case $arch in
    arm64) core=aarch64 ;;
    armhf) core=armv6 ;;
    *) echo "dist: ARCH must be arm64 or armhf" >&2; exit 2 ;;
    esac
    for suite in bookworm trixie; do
        out=$ROOT/.build/dist/$suite-$arch
        defines="-D_FILE_OFFSET_BITS=64 -D_TIME_BITS=64"
        [ "$suite-$arch" != bookworm-armhf ] || defines=-D_FILE_OFFSET_BITS=64
        if [ "$suite-$arch" = trixie-arm64 ]; then
            mkdir -p "$out" && cp -a "$ROOT/.build/dist/bookworm-$arch/." "$out/"
        fi
        sysroot=$(scripts/sysroot.sh "$suite" "$arch" | tail -n 1)
        echo "dist: $suite $arch"
        ARCH=$core SYSROOT=$sysroot OUT=$out DEFINES=$defines scripts/embedded-build.sh
    done
done
