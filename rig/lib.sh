# shellcheck shell=bash
# Shared by rig/setup.sh and rig/run.sh (sourced, not run): where the rig lives, which
# architecture and which kernel it boots.

RIG_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Absolute, because the guest sees the host's tree at the same paths.
RIG_DIR=$(realpath -m "${RIG_DIR:-$RIG_REPO/.rig}")
# The guest's architecture: amd64 (the default: Debian 12's kernel, the host's / as the guest's
# root), or arm64 or armhf (Debian 13's kernel for it, a Debian 13 root of that architecture as
# the guest's root, on QEMU's virt board).
RIG_ARCH=${RIG_ARCH:-amd64}
case $RIG_ARCH in
x86_64 | amd64) RIG_ARCH=amd64 ;;
aarch64 | arm64) RIG_ARCH=arm64 ;;
arm | armhf) RIG_ARCH=armhf ;;
*) echo "rig: RIG_ARCH must be amd64, arm64 or armhf, not $RIG_ARCH" >&2; exit 1 ;;
esac
# arm64 and armhf: the Debian 13 root the guest runs, to which rig/setup.sh adds what the rig
# needs: a bare one of the rig's own, made on first use (AMBIENCE_ROOTS=/var/cache/ambience/roots/rig
# scripts/debian-root.sh --bare trixie ARCH), apart from the bare roots make dist-test installs
# the package in. The guest needs no Swift: its programs come from make dist.
case $RIG_ARCH in
arm64 | armhf) RIG_ROOT=$(realpath -m "${RIG_ROOT:-/var/cache/ambience/roots/rig/bare/trixie-$RIG_ARCH}") ;;
esac
# Debian's kernel flavour for the Arm guests: arm64, and armmp for ARMv7 boards (QEMU's virt
# board with a Cortex-A15; the Pi's 32-bit kernels are Raspberry Pi OS's own).
case $RIG_ARCH in
arm64) RIG_KERNEL_FLAVOUR=arm64 ;;
armhf) RIG_KERNEL_FLAVOUR=armmp ;;
*) RIG_KERNEL_FLAVOUR=amd64 ;;
esac
export RIG_REPO RIG_DIR RIG_ARCH RIG_ROOT RIG_KERNEL_FLAVOUR

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

# The kernel file QEMU boots: the uncompressed vmlinux on amd64 (no decompression, which costs
# seconds under emulation), Debian's arm64 Image, armmp's zImage.
rig_kernel_image() {
    case $RIG_ARCH in
    amd64) echo vmlinux ;;
    arm64) echo Image ;;
    armhf) echo zImage ;;
    esac
}

# Runs COMMAND and says how long it took, under NAME; its exit status is COMMAND's.
rig_phase() {  # rig_phase NAME COMMAND...
    local name=$1
    local start=$SECONDS status=0
    shift
    "$@" || status=$?
    echo "rig: $name took $((SECONDS - start))s"
    return "$status"
}
