# shellcheck shell=bash
# Shared by rig/setup.sh and rig/run.sh (sourced, not run): where the rig lives, which
# architecture and which kernel it boots.

RIG_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Absolute, because the guest sees the host's tree at the same paths.
RIG_DIR=$(realpath -m "${RIG_DIR:-$RIG_REPO/.rig}")
# The guest's architecture: amd64 (the default: Debian 12's kernel, the host's / as the guest's
# root) or arm64 (Debian 13's arm64 kernel, a Debian 13 arm64 root as the guest's root).
RIG_ARCH=${RIG_ARCH:-amd64}
case $RIG_ARCH in
x86_64 | amd64) RIG_ARCH=amd64 ;;
aarch64 | arm64) RIG_ARCH=arm64 ;;
*) echo "rig: RIG_ARCH must be amd64 or arm64, not $RIG_ARCH" >&2; exit 1 ;;
esac
# arm64 only: the Debian 13 arm64 root the guest runs (scripts/debian-root.sh trixie arm64
# makes one; rig/setup.sh adds what the rig needs to it).
RIG_ROOT=$(realpath -m "${RIG_ROOT:-/var/cache/ambience/roots/trixie-arm64}")
export RIG_REPO RIG_DIR RIG_ARCH RIG_ROOT

rig_die() {
    echo "rig: $*" >&2
    exit 1
}

# Where one architecture's products go: amd64's at the top of $RIG_DIR (the layout before
# arm64 came), the others' under $RIG_DIR/ARCH.
rig_arch_dir() {
    if [ "$RIG_ARCH" = amd64 ]; then
        echo "$RIG_DIR"
    else
        echo "$RIG_DIR/$RIG_ARCH"
    fi
}

# The kernel setup.sh last prepared; run.sh boots that one.
rig_prepared_kernel() {
    local file
    file=$(rig_arch_dir)/kernel-version
    [ -s "$file" ] || rig_die "not set up for $RIG_ARCH: run RIG_ARCH=$RIG_ARCH rig/setup.sh (as root) first"
    cat "$file"
}

# Where the build products for one kernel version go.
rig_kernel_dir() {
    echo "$(rig_arch_dir)/kernels/$1"
}
