#!/bin/bash
# make test-powercut (docs/rig.md, "Power cuts"): the system rig's guest, the trixie amd64 package
# installed by apt once, then cut off its power over and over (Tests/system/powercut.py, the host;
# Tests/system/powercut-guest.sh, the guest), every boot checking what each persisted file holds.
#
#   Tests/system/powercut.sh BINARY    BINARY: a trixie amd64 release build, as make test-system's
#   POWERCUT_CUTS=N (at least 30 for the target), POWERCUT_SEED=S (to repeat a run's moments)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
binary=${1:?usage: Tests/system/powercut.sh BINARY}
out=$(realpath -m "${RIG_DIR:-$repo/.rig}")/system
roots=${AMBIENCE_ROOTS:-/var/cache/ambience/roots}
root=$roots/trixie-amd64-system
started=$(date +%s)
# The packages and the rig's disk as make test-system lays them out, with this guest script.
SYSTEM_RIG_PAYLOAD_ONLY=1 "$repo/Tests/system/run.sh" "$binary"
kver=$(cat "$out/kernel-version")
payload=$out/powercut-payload
rm -rf "$payload"
mkdir -p "$payload"
cp -a "$out/payload/old" "$out/payload/new" "$payload/"
cp "$repo/Tests/system/powercut-guest.sh" "$payload/guest.sh"
cp "$repo/examples/day.csv" "$payload/"
status=0
python3 "$repo/Tests/system/powercut.py" --root "$root" --kernel "$root/boot/vmlinuz-$kver" \
    --initrd "$root/boot/initrd.img-$kver" --payload "$payload" --out "$out/powercut" \
    --cuts "${POWERCUT_CUTS:-30}" ${POWERCUT_SEED:+--seed "$POWERCUT_SEED"} || status=$?
echo "rig: make test-powercut took $(($(date +%s) - started)) s (console: $out/powercut/console.log)"
exit $status
