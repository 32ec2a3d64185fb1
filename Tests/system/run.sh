#!/bin/bash
# make test-system: the trixie amd64 package, as installed, in a Debian 13 guest booted with
# systemd and udevd under QEMU (docs/rig.md, "The system rig"), its power cut three times.
# Builds two versions of the package
# from the binary (an upgrade needs a newer one), lays out the rig's disk (the packages,
# the unit files as built, Tests/system/guest.sh) and boots the guest (rig/system/run.sh).
#
#   Tests/system/run.sh BINARY [SUITE]    BINARY: a build for SUITE (trixie, the default, or
#                                         bookworm), amd64 (the guest is a PC: make
#                                         embedded-gpiod2), arm64 or armhf (QEMU's virt board:
#                                         make dist, for make test-arm64 and make test-armhf)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
binary=${1:?usage: Tests/system/run.sh BINARY [SUITE]}
suite=${2:-trixie}
case $(LC_ALL=C readelf -h "$binary" | sed -n 's/^ *Machine: *//p') in
    AArch64) arch=arm64 ;;
    ARM) arch=armhf ;;
    *X86-64) arch=amd64 ;;
    *) echo "rig: $binary is neither amd64, arm64 nor armhf" >&2; exit 1 ;;
esac
case $suite in trixie) release=deb13 ;; bookworm) release=deb12 ;; *) echo "rig: no suite $suite" >&2; exit 2 ;; esac
# shellcheck source=rig/system/lib.sh
. "$repo/rig/system/lib.sh"
out=$(system_rig_dir "$suite" "$arch")
started=$(date +%s)

"$repo/rig/system/setup.sh" "$suite" "$arch"
payload=$out/payload
rm -rf "$payload"
mkdir -p "$payload/units"
# Two versions of the same build: the older one installed first, then upgraded to the newer.
# Made again only when the binaries or what make-deb.sh packages changed.
# (Versions of their own: a commit that changes none of that reuses them.)
debs=$out/debs
inputs=("$binary" "$(dirname "$binary")"/ambience-* "$repo"/scripts/make-deb.sh "$repo"/scripts/layout.sh
    "$repo"/packaging "$repo"/systemd "$repo"/udev "$repo"/config "$repo"/boards "$repo"/docs/man)
if [ ! -f "$debs/.complete" ] || [ -n "$(find "${inputs[@]}" -newer "$debs/.complete" -print -quit)" ]; then
    rm -rf "$debs"
    for v in 1 2; do
        "$repo/scripts/make-deb.sh" --suite "$suite" --arch "$arch" --binary "$binary" \
            --version "0~rig$v-1~$release" --out "$debs/$v" >/dev/null
    done
    touch "$debs/.complete"
fi
mkdir -p "$payload/old" "$payload/new"
cp "$debs"/1/ambience_*.deb "$payload/old/"
cp "$debs"/2/ambience_*.deb "$payload/new/"
# The units as the package installs them, to compare with what systemd loaded (bookworm's
# package puts them under /lib, trixie's under /usr/lib).
dpkg-deb --fsys-tarfile "$payload"/old/ambience_*.deb | tar -x -C "$payload/units" --wildcards \
    --transform='s|.*/||' './*lib/systemd/system/*.service'
cp "$repo/Tests/system/guest.sh" "$repo/Tests/system/powercut-guest.sh" "$repo/Tests/system/page-server.py" \
    "$repo/Tests/system/check-shots.py" "$repo/rig/guest/touchscreen.py" "$payload/"
# The one test harness, which guest.sh and powercut-guest.sh source from the disk.
mkdir -p "$payload/lib"
cp "$repo/Tests/lib/harness.sh" "$payload/lib/"
mkdir -p "$payload/browser"
cp "$repo"/Tests/browser/{observer.py,page1.html,page2.html,outer.html,report.js} "$payload/browser/"
# For working on the rig: SYSTEM_RIG_ONLY="NAME TIMEOUT FUNCTION;…" runs those checks of
# Tests/system/guest.sh alone after the install and setup steps, in one boot.
[ -z "${SYSTEM_RIG_ONLY:-}" ] || tr ';' '\n' <<<"$SYSTEM_RIG_ONLY" >"$payload/only"
# SYSTEM_RIG_LONG_INTERVAL=SECONDS: how long long-interval-watchdog runs (make watchdog-soak).
[ -z "${SYSTEM_RIG_LONG_INTERVAL:-}" ] || echo "$SYSTEM_RIG_LONG_INTERVAL" >"$payload/long-interval-seconds"
# The Arm roots have no kiosk (rig/system/root.sh): its checks are left out there.
[ "$arch" = amd64 ] || touch "$payload/no-kiosk"
echo "rig: packages and disk ready in $(($(date +%s) - started)) s"
# make test-powercut (Tests/system/powercut.sh) boots this payload its own way.
[ -z "${SYSTEM_RIG_PAYLOAD_ONLY:-}" ] || exit 0
status=0
"$repo/rig/system/run.sh" "$payload" "$suite" "$arch" || status=$?
# The kiosk's pictures, from the rig's disk as the guest left it (debugfs reads the image
# without mounting it), each checked to show the page in its state. SYSTEM_RIG_SAVE_SHOTS=DIR
# copies them there as system-*.png (docs/images: make system-screenshots).
shots=$out/shots
rm -rf "$shots"
mkdir -p "$shots"
debugfs -R "rdump /out/shots $shots" "$out/run/rig.img" >/dev/null 2>&1 || true
if { [ -z "${SYSTEM_RIG_ONLY:-}" ] && [ "$arch" = amd64 ]; } || ls "$shots"/shots/*.png >/dev/null 2>&1; then
    python3 "$repo/Tests/system/check-shots.py" "$shots/shots" ${SYSTEM_RIG_SAVE_SHOTS:+--save "$SYSTEM_RIG_SAVE_SHOTS"} ||
        status=1
fi
echo "rig: make test-system took $(($(date +%s) - started)) s"
exit $status
