# shellcheck shell=bash
# Shared by rig/setup.sh and rig/run.sh (sourced, not run): where the rig lives and which
# kernel it boots.

RIG_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Absolute, because the guest sees the host's tree at the same paths.
RIG_DIR=$(realpath -m "${RIG_DIR:-$RIG_REPO/.rig}")
export RIG_REPO RIG_DIR

rig_die() {
    echo "rig: $*" >&2
    exit 1
}

# The kernel setup.sh last prepared; run.sh boots that one.
rig_prepared_kernel() {
    [ -s "$RIG_DIR/kernel-version" ] || rig_die "not set up: run rig/setup.sh (as root) first"
    cat "$RIG_DIR/kernel-version"
}

# Where the build products for one kernel version go.
rig_kernel_dir() {
    echo "$RIG_DIR/kernels/$1"
}
