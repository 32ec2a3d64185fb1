#!/bin/bash
# The real-kernel rig tests: prepares the rig (rig/setup.sh, under a second once done), then
# boots the guest ONCE to run Tests/rig/guest.sh, which runs every scenario. Fails loudly, never
# skips: no QEMU, no boot, a crash or a timeout all exit non-zero. Run as root on Debian 12.
#
#   Tests/rig/run.sh          (make rig-test builds the binary first)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
started=$SECONDS

"$ROOT/rig/setup.sh"
status=0
"$ROOT/rig/run.sh" Tests/rig/guest.sh || status=$?
echo "rig: wall time $((SECONDS - started))s, exit status $status"
exit "$status"
