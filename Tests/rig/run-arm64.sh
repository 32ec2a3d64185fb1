#!/bin/bash
# The rig's scenarios on arm64: prepares the arm64 rig (RIG_ARCH=arm64 rig/setup.sh: Debian
# 13's arm64 kernel, the Debian 13 arm64 root at RIG_ROOT), stages the arm64 binary under test
# (or its .deb) in $RIG_DIR/arm64/stage, then boots the arm64 guest ONCE to run
# Tests/rig/guest-package.sh, which installs the .deb with dpkg if there is one and runs
# Tests/rig/guest.sh with AMBIENCE pointing at the binary. Fails loudly: no binary, no boot, a
# crash or a timeout all exit non-zero. Run as root on Debian 12.
#
#   Tests/rig/run-arm64.sh          (make rig-test-arm64)
#
# Environment:
#   AMBIENCE_ARM64   the arm64 binary (default .build/dist/trixie-arm64/ambience, where the
#                    trixie arm64 build puts it)
#   RIG_DEB          an arm64 .deb of ambience: installed in the guest (dpkg -i, in the
#                    throw-away overlay) and its binary tested instead of AMBIENCE_ARM64
#   RIG_SCENARIOS    globs of scenario files (default all), RIG_TIMEOUT (default 1500 s here)
#   RIG_ROOT, RIG_DIR as for rig/run.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export RIG_ARCH=arm64
export RIG_TIMEOUT=${RIG_TIMEOUT:-1500}
AMBIENCE_ARM64=${AMBIENCE_ARM64:-$ROOT/.build/dist/trixie-arm64/ambience}
RIG_DEB=${RIG_DEB:-}
started=$SECONDS

phase() {  # phase NAME COMMAND...: runs COMMAND and says how long it took
    local name=$1
    local start=$SECONDS status=0
    shift
    "$@" || status=$?
    echo "rig: $name took $((SECONDS - start))s"
    return "$status"
}

# The ELF machine of FILE must be AArch64: an amd64 binary would fail every check obscurely.
is_arm64() {  # is_arm64 FILE
    LC_ALL=C readelf -h "$1" 2>/dev/null | grep -q 'Machine: *AArch64$'
}

# Copies what is tested into $RIG_DIR/arm64/stage, which the guest sees at the same path.
# Sets GUEST_ARGUMENT: the staged .deb, or the staged binary.
stage() {
    local stage_dir
    # shellcheck source=rig/lib.sh
    stage_dir=$(source "$ROOT/rig/lib.sh" && rig_arch_dir)/stage
    rm -rf "$stage_dir"
    mkdir -p "$stage_dir"
    if [ -n "$RIG_DEB" ]; then
        [ -f "$RIG_DEB" ] || { echo "rig: no .deb at $RIG_DEB" >&2; return 1; }
        [ "$(dpkg-deb -f "$RIG_DEB" Architecture)" = arm64 ] ||
            { echo "rig: $RIG_DEB is not an arm64 package" >&2; return 1; }
        cp "$RIG_DEB" "$stage_dir/"
        GUEST_ARGUMENT=$stage_dir/$(basename "$RIG_DEB")
    else
        [ -f "$AMBIENCE_ARM64" ] ||
            { echo "rig: no arm64 binary at $AMBIENCE_ARM64 (set AMBIENCE_ARM64 or RIG_DEB)" >&2; return 1; }
        is_arm64 "$AMBIENCE_ARM64" || { echo "rig: $AMBIENCE_ARM64 is not an arm64 binary" >&2; return 1; }
        cp "$AMBIENCE_ARM64" "$stage_dir/ambience"
        GUEST_ARGUMENT=$stage_dir/ambience
    fi
    echo "rig: testing $GUEST_ARGUMENT (from ${RIG_DEB:-$AMBIENCE_ARM64})"
}

phase setup "$ROOT/rig/setup.sh"
stage
status=0
phase boot_and_scenarios "$ROOT/rig/run.sh" \
    "RIG_SCENARIOS='${RIG_SCENARIOS:-}' Tests/rig/guest-package.sh '$GUEST_ARGUMENT'" || status=$?
echo "rig: wall time $((SECONDS - started))s, exit status $status"
exit "$status"
