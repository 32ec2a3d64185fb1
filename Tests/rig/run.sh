#!/bin/bash
# The real-kernel rig tests: prepares the rig (rig/setup.sh, under a second once done), builds
# the libgpiod 2.x variant of the binary (the scenarios run the GPIO ones with both), then boots
# the guest ONCE to run Tests/rig/guest.sh, which runs every scenario. Fails loudly, never
# skips: no QEMU, no boot, a crash or a timeout all exit non-zero. Run as root on Debian 12.
#
#   Tests/rig/run.sh          (make rig-test builds the default binary first)
#
# Environment: GPIOD2_PREFIX (default /opt/libgpiod2), where .ci/libgpiod2.sh puts libgpiod 2.x;
# RIG_DEB, an amd64 .deb of ambience for this host's Debian: installed with dpkg in the guest
# (whose root is then one throw-away overlay) and its binary tested instead of the debug build;
# RIG_SCENARIOS, globs of scenario files (default all).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
GPIOD2_PREFIX=${GPIOD2_PREFIX:-/opt/libgpiod2}
export PATH=/opt/swift/usr/bin:$PATH
started=$SECONDS

# shellcheck source=rig/lib.sh
source "$ROOT/rig/lib.sh"

# shellcheck disable=SC2317 # called through phase
setup() {
    "$ROOT/rig/setup.sh"
}

# shellcheck disable=SC2317 # called through phase
# The guest finds it at .build/gpiod2/debug/ambience (which execs ambience-run beside it for
# `run`), and the library through pkg-config.
build_gpiod2() {
    [ -f "$GPIOD2_PREFIX/lib/pkgconfig/libgpiod.pc" ] || "$ROOT/.ci/libgpiod2.sh" "$GPIOD2_PREFIX"
    PKG_CONFIG_PATH=$GPIOD2_PREFIX/lib/pkgconfig swift build --package-path "$ROOT" \
        --scratch-path "$ROOT/.build/gpiod2" --product ambience &&
        PKG_CONFIG_PATH=$GPIOD2_PREFIX/lib/pkgconfig swift build --package-path "$ROOT" \
            --scratch-path "$ROOT/.build/gpiod2" --product ambience-run
}

rig_phase setup setup
rig_phase build_gpiod2 build_gpiod2
status=0
if [ -n "${RIG_DEB:-}" ]; then
    [ "$(dpkg-deb -f "$RIG_DEB" Architecture)" = amd64 ] || { echo "rig: $RIG_DEB is not an amd64 package" >&2; exit 1; }
    deb=$(realpath "$RIG_DEB")
    rig_phase boot_and_scenarios env RIG_OVERLAY=root "$ROOT/rig/run.sh" \
        "GPIOD2_PREFIX=$GPIOD2_PREFIX RIG_SCENARIOS='${RIG_SCENARIOS:-}' Tests/rig/guest-package.sh '$deb'" ||
        status=$?
else
    rig_phase boot_and_scenarios "$ROOT/rig/run.sh" \
        "GPIOD2_PREFIX=$GPIOD2_PREFIX RIG_SCENARIOS='${RIG_SCENARIOS:-}' Tests/rig/guest.sh" || status=$?
fi
echo "rig: wall time $((SECONDS - started))s, exit status $status"
exit "$status"
