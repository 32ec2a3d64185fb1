#!/bin/bash
# make test-system: the trixie amd64 package, as installed, in a Debian 13 guest booted with
# systemd and udevd under QEMU (docs/rig.md, "The system rig"). Builds two versions of the package
# from the release binary (an upgrade needs a newer one), lays out the rig's disk (the packages,
# the unit files as built, Tests/system/guest.sh) and boots the guest (rig/system/run.sh).
#
#   Tests/system/run.sh BINARY        BINARY: the trixie amd64 release build (libgpiod.so.3)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
binary=${1:?usage: Tests/system/run.sh BINARY}
out=$(realpath -m "${RIG_DIR:-$repo/.rig}")/system
started=$(date +%s)

"$repo/rig/system/setup.sh"
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
        "$repo/scripts/make-deb.sh" --suite trixie --arch amd64 --binary "$binary" \
            --version "0~rig$v-1~deb13" --out "$debs/$v" >/dev/null
    done
    touch "$debs/.complete"
fi
mkdir -p "$payload/old" "$payload/new"
cp "$debs"/1/ambience_*.deb "$payload/old/"
cp "$debs"/2/ambience_*.deb "$payload/new/"
# The units as the package installs them, to compare with what systemd loaded.
dpkg-deb --fsys-tarfile "$payload"/old/ambience_*.deb | tar -x -C "$payload/units" --wildcards --strip-components=5 \
    './usr/lib/systemd/system/*.service'
cp "$repo/Tests/system/guest.sh" "$payload/guest.sh"
echo "rig: packages and disk ready in $(($(date +%s) - started)) s"
status=0
"$repo/rig/system/run.sh" "$payload" || status=$?
echo "rig: make test-system took $(($(date +%s) - started)) s"
exit $status
