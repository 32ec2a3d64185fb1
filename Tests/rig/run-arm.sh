#!/bin/bash
# The rig's scenarios on a Pi's architecture, arm64 or armhf: prepares that rig (RIG_ARCH=ARCH
# rig/setup.sh: Debian 13's kernel for it, the Debian 13 root of it at RIG_ROOT), stages the
# binary under test (or its .deb) in $RIG_DIR/ARCH/stage, then boots the guest ONCE to run
# Tests/rig/guest-package.sh, which installs the .deb with dpkg if there is one and runs
# Tests/rig/guest.sh with AMBIENCE pointing at the binary. Fails loudly: no binary, no boot, a
# crash or a timeout all exit non-zero. Run as root on Debian 12.
#
#   Tests/rig/run-arm.sh ARCH          (make rig-test-arm64, make test-armhf)
#
# Environment:
#   AMBIENCE_ARM     the binary (default .build/dist/trixie-ARCH/ambience, where the trixie
#                    build for ARCH puts it)
#   RIG_DEB          a .deb of ambience for ARCH: installed in the guest (dpkg -i, in the
#                    throw-away overlay) and its binary tested instead of AMBIENCE_ARM
#   RIG_SCENARIOS    globs of scenario files (default all), RIG_TIMEOUT (default 1500 s here)
#   RIG_ROOT, RIG_DIR as for rig/run.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
case ${1:-} in
arm64) machine=AArch64 ;;
armhf) machine=ARM ;;
*) echo "usage: $0 arm64|armhf" >&2; exit 2 ;;
esac
guest_arch=$1
export RIG_ARCH=$guest_arch
export RIG_TIMEOUT=${RIG_TIMEOUT:-1500}
AMBIENCE_ARM=${AMBIENCE_ARM:-$ROOT/.build/dist/trixie-$guest_arch/ambience}
RIG_DEB=${RIG_DEB:-}
started=$SECONDS

# shellcheck source=rig/lib.sh
source "$ROOT/rig/lib.sh"

# The ELF machine of FILE must be the guest's: another would fail every check obscurely.
is_for_guest() {  # is_for_guest FILE
    LC_ALL=C readelf -h "$1" 2>/dev/null | grep -q "Machine: *$machine\$"
}

# Copies what is tested into $RIG_DIR/ARCH/stage, which the guest sees at the same path.
# Sets GUEST_ARGUMENT: the staged .deb, or the staged binary.
stage() {
    local stage_dir
    stage_dir=$(rig_arch_dir)/stage
    rm -rf "$stage_dir"
    mkdir -p "$stage_dir"
    if [ -n "$RIG_DEB" ]; then
        [ -f "$RIG_DEB" ] || { echo "rig: no .deb at $RIG_DEB" >&2; return 1; }
        [ "$(dpkg-deb -f "$RIG_DEB" Architecture)" = "$guest_arch" ] ||
            { echo "rig: $RIG_DEB is not an $guest_arch package" >&2; return 1; }
        cp "$RIG_DEB" "$stage_dir/"
        GUEST_ARGUMENT=$stage_dir/$(basename "$RIG_DEB")
    else
        [ -f "$AMBIENCE_ARM" ] ||
            { echo "rig: no $guest_arch binary at $AMBIENCE_ARM (set AMBIENCE_ARM or RIG_DEB)" >&2; return 1; }
        is_for_guest "$AMBIENCE_ARM" || { echo "rig: $AMBIENCE_ARM is not an $guest_arch binary" >&2; return 1; }
        cp "$AMBIENCE_ARM" "$stage_dir/ambience"
        GUEST_ARGUMENT=$stage_dir/ambience
    fi
    echo "rig: testing $GUEST_ARGUMENT (from ${RIG_DEB:-$AMBIENCE_ARM})"
}

rig_phase setup "$ROOT/rig/setup.sh"
stage
status=0
rig_phase boot_and_scenarios "$ROOT/rig/run.sh" \
    "RIG_SCENARIOS='${RIG_SCENARIOS:-}' Tests/rig/guest-package.sh '$GUEST_ARGUMENT'" || status=$?
echo "rig: wall time $((SECONDS - started))s, exit status $status"
exit "$status"
