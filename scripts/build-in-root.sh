#!/bin/bash
# Release binaries built by Debian's Swift (swiftlang) inside a Debian root (scripts/debian-root.sh
# makes it when missing), for .deb packages: static Swift runtime, stripped, at
#
#   .build/dist/SUITE-ARCH/ambience (and ambience-kiosk, ambience-serve, ambience-mqtt beside it)
#
#   scripts/build-in-root.sh SUITE ARCH [native|cross]     (as root; ARCH amd64 or arm64)
#
# The flags are scripts/release-build.sh's (lld, packed relocations, ICF, no exported symbols,
# the symbol order), which Debian's toolchain supports: it ships lld in /usr/libexec/swift/bin and
# the static runtime in /usr/libexec/swift/lib/swift_static.
#
# A foreign ARCH builds either natively in its own root under qemu-user (`native`), or (`cross`,
# the default) with the host architecture's compiler in its root, the foreign root serving as the
# sysroot (its Swift runtime, glibc, libstdc++, libgpiod, libi2c; same swiftlang version in both).
# Both give the same binary behaviour; cross is several times faster (docs/debian-swift.md).
# The daemon's binary then needs only libc6, libstdc++6, libgcc-s1, libi2c0 and libgpiod
# (libgpiod3); ambience-serve adds libmicrohttpd, ambience-mqtt libmosquitto.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: $0 SUITE ARCH [native|cross]" >&2
    exit 2
fi
suite=$1 arch=$2
host_arch=$(dpkg --print-architecture)
if [ "$arch" = "$host_arch" ]; then
    mode=native
else
    mode=${3:-cross}
fi
case $arch in
    amd64) triple=x86_64-unknown-linux-gnu multiarch=x86_64-linux-gnu ;;
    arm64) triple=aarch64-unknown-linux-gnu multiarch=aarch64-linux-gnu ;;
    *) echo "$0: unknown ARCH $arch" >&2; exit 2 ;;
esac
dist=${AMBIENCE_DIST:-.build/dist/$suite-$arch}
start=$(date +%s)
scripts/debian-root.sh "$suite" "$arch"
if [ "$mode" = native ]; then
    scratch=.build/$suite-$arch-release
    build=(scripts/in-root.sh "$suite" "$arch" scripts/release-build.sh --scratch-path "$scratch")
else
    # The foreign root at /sysroot inside the host architecture's root; pkg-config reads its .pc
    # files; the Swift runtime (static) and the C libraries come from it.
    scripts/debian-root.sh "$suite" "$host_arch"
    scratch=.build/$suite-$arch-cross-release
    sysroot=/sysroot
    # Without one swiftc warns "Could not read SDKSettings.json for SDK" at every step; it
    # changes no flag (Linux has no SDK versions).
    settings=${AMBIENCE_ROOTS:-/var/cache/ambience/roots}/$suite-$arch/SDKSettings.json
    [ -f "$settings" ] || echo '{"Version":"1.0","CanonicalName":"linux"}' >"$settings"
    build=(env "AMBIENCE_BIND=${AMBIENCE_ROOTS:-/var/cache/ambience/roots}/$suite-$arch:$sysroot"
        scripts/in-root.sh "$suite" "$host_arch" env
        "PKG_CONFIG_SYSROOT_DIR=$sysroot"
        "PKG_CONFIG_LIBDIR=$sysroot/usr/lib/$multiarch/pkgconfig:$sysroot/usr/share/pkgconfig"
        scripts/release-build.sh --scratch-path "$scratch" --triple "$triple" --sdk "$sysroot"
        # SwiftPM 6.0 gives --sdk to clang but not to swiftc; the foreign root's Swift runtime.
        -Xswiftc -sdk -Xswiftc "$sysroot"
        -Xswiftc -resource-dir -Xswiftc "$sysroot/usr/libexec/swift/lib/swift_static")
fi
# The ambience binary and the programs it becomes (scripts/layout.sh), which the package carries.
# shellcheck source=scripts/layout.sh
. scripts/layout.sh
products=(ambience)
for name in $PROGRAMS; do products+=("ambience-$name"); done
for product in "${products[@]}"; do "${build[@]}" --product "$product"; done
mkdir -p "$dist"
bin=$("${build[@]}" --show-bin-path)
for product in "${products[@]}"; do
    # Stripped by the root's own binutils (the host's strip may not know the architecture).
    scripts/in-root.sh "$suite" "$arch" strip -o "$dist/$product" "$bin/$product"
    echo "$dist/$product: $(stat -c %s "$dist/$product") bytes"
    scripts/in-root.sh "$suite" "$arch" sh -c "readelf -d $dist/$product | grep NEEDED"
done
echo "built ($mode) in $(($(date +%s) - start)) s"
