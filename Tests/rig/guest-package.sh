#!/bin/bash
# Runs in the guest, as root, from the repo (through Tests/rig/run-arm.sh, or Tests/rig/run.sh
# with RIG_DEB): installs the package under test with dpkg when given a .deb (the guest's root is
# then one throw-away overlay: the installation vanishes at power-off), then runs
# Tests/rig/guest.sh with AMBIENCE pointing at the installed (or given) binary.
#
#   Tests/rig/guest-package.sh PACKAGE.deb|BINARY
set -uo pipefail
target=${1:?usage: Tests/rig/guest-package.sh PACKAGE.deb|BINARY}
[ -n "${RIG_SCENARIOS:-}" ] || unset RIG_SCENARIOS
HARNESS_NAME=rig
# shellcheck source=Tests/lib/harness.sh
source Tests/lib/harness.sh
# Nothing can be checked without the binary: the reason, and the closing line the host reads.
cannot_start() {  # cannot_start WHY
    echo "FAIL $1"
    failed=1
    summary
    exit 1
}
echo "guest: $(uname -m), kernel $(uname -r), $(. /etc/os-release && echo "$PRETTY_NAME")"

case $target in
*.deb)
    started=$(cut -d' ' -f1 /proc/uptime)
    # man-db's trigger reindexes every manual page, a minute under emulation; the root is a
    # throw-away overlay, so skipping it here costs nothing (the host's deb test runs it).
    rm -f /var/lib/man-db/auto-update
    dpkg -i "$target" || cannot_start "dpkg -i $target"
    package=$(dpkg-deb -f "$target" Package)
    AMBIENCE=$(dpkg -L "$package" | grep -m 1 -E '/s?bin/ambience$')
    echo "guest: $package installed in $(awk -v s="$started" '{ printf "%.1f", $1 - s }' /proc/uptime)s; binary $AMBIENCE"
    ;;
*) AMBIENCE=$target ;;
esac
[ -x "$AMBIENCE" ] || cannot_start "no binary at $AMBIENCE"
export AMBIENCE

# Built against Debian 13's libgpiod (2.x), the binary under test is already what the amd64
# rig's second, libgpiod 2.x build is there for: its repeated checks would prove nothing new.
# (A bookworm package links libgpiod 1.6: the repeats then run with .build/gpiod2's build.)
if ldd "$AMBIENCE" | grep -q 'libgpiod\.so\.3 '; then
    RIG_SKIP_GPIOD2="the $(uname -m) binary under test is itself the libgpiod 2.x build"
    export RIG_SKIP_GPIOD2
fi
exec Tests/rig/guest.sh
