#!/bin/bash
# Prepares the real-kernel test rig on a Debian 12 host, as root: Debian's packages, then under
# $RIG_DIR (default <repo>/.rig) for the kernel that `linux-image-amd64` installs:
#   kernels/KVER/vmlinux            the uncompressed kernel (QEMU boots it directly: no
#                                   decompression, which costs seconds under emulation)
#   kernels/KVER/initrd.gz          busybox, the virtio/9p/overlay modules, rig/guest/init
#   kernels/KVER/modules/*.ko       gpio-sim (Debian's kernel lacks it) and the project's
#                                   ambience-test-i2c adapter, built out of tree
#   kernel-version                  KVER, read by rig/run.sh
#   setup-times.log                 one line per run: date, kernel, seconds
# Idempotent: each product is rebuilt only when missing or older than its sources, so a run on
# a prepared machine takes well under a second.
set -euo pipefail
# shellcheck source=rig/lib.sh
source "$(dirname "$0")/lib.sh"

PACKAGES=(
    qemu-system-x86 linux-image-amd64 linux-headers-amd64 linux-source-6.1
    busybox-static kmod cpio xz-utils build-essential i2c-tools gpiod python3
)
LINUX_SOURCE=/usr/src/linux-source-6.1.tar.xz
# From the kernel source: what gpio-sim needs, and the script that unpacks a vmlinuz.
SOURCE_FILES=(
    drivers/gpio/gpio-sim.c drivers/gpio/gpiolib.h kernel/irq/irq_sim.c scripts/extract-vmlinux
)
BOOT_MODULES=(virtio_pci 9pnet_virtio 9p overlay)

log() {
    echo "rig setup: $*"
}

# $1 is out of date when missing or older than any of the other arguments.
out_of_date() {
    local target=$1 source
    shift
    [ -e "$target" ] || return 0
    for source in "$@"; do
        [ "$source" -nt "$target" ] && return 0
    done
    return 1
}

install_packages() {
    local missing=() package
    for package in "${PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed' ||
            missing+=("$package")
    done
    [ ${#missing[@]} = 0 ] && return
    log "installing ${missing[*]}"
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# The version linux-image-amd64 points at (e.g. 6.1.0-57-amd64), not the running kernel's:
# the host may run anything, the guest always runs Debian's.
installed_kernel_version() {
    dpkg-query -W -f='${Depends}' linux-image-amd64 |
        grep -o 'linux-image-[^ ,]*' | head -n 1 | sed 's/^linux-image-//'
}

check_kernel_files() {
    local kver=$1
    [ -r "/boot/vmlinuz-$kver" ] || rig_die "no /boot/vmlinuz-$kver"
    [ -d "/lib/modules/$kver/build" ] ||
        rig_die "no headers for $kver (linux-headers-amd64 and linux-image-amd64 disagree?)"
}

# Unpacks the few files needed from the 140 MB source tarball (one decompression pass).
extract_kernel_sources() {
    local into=$1 version
    version=$(basename "$LINUX_SOURCE" .tar.xz)
    log "extracting gpio-sim and extract-vmlinux from $LINUX_SOURCE"
    rm -rf "$into"
    mkdir -p "$into"
    # --touch: stamp the files now, so out_of_date compares them with the tarball sensibly.
    tar -C "$into" --strip-components=1 --touch -xJf "$LINUX_SOURCE" "${SOURCE_FILES[@]/#/$version/}"
}

# Builds the module in directory $2 (holding a Kbuild file) against kernel $1's headers.
build_module() {
    local kver=$1 dir=$2
    make -s -C "/lib/modules/$kver/build" M="$dir" modules
}

build_gpio_sim() {
    local kver=$1 kdir=$2 sources=$3 dir=$2/build/gpio-sim
    out_of_date "$kdir/modules/gpio-sim.ko" "$LINUX_SOURCE" || return 0
    log "building gpio-sim for $kver"
    rm -rf "$dir"
    mkdir -p "$dir" "$kdir/modules"
    # Renamed so the module (gpio-sim.ko, linking both objects) does not clash with an object.
    cp "$sources/drivers/gpio/gpio-sim.c" "$dir/gpio-sim-main.c"
    cp "$sources/drivers/gpio/gpiolib.h" "$sources/kernel/irq/irq_sim.c" "$dir/"
    # Debian's kernel has CONFIG_IRQ_SIM=n, so irq_sim.c comes along; it calls
    # handle_simple_irq(irq_to_desc()), and irq_to_desc is not exported to modules.
    # generic_handle_irq() does the same for the simple handler irq_sim installs.
    sed -i 's/handle_simple_irq(irq_to_desc(\([a-z_]*\)))/generic_handle_irq(\1)/' "$dir/irq_sim.c"
    grep -q 'generic_handle_irq(' "$dir/irq_sim.c" ||
        rig_die "the irq_sim.c workaround no longer applies: check $dir/irq_sim.c"
    printf 'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-main.o irq_sim.o\n' >"$dir/Kbuild"
    build_module "$kver" "$dir"
    cp "$dir/gpio-sim.ko" "$kdir/modules/"
}

build_test_adapter() {
    local kver=$1 kdir=$2 source=$RIG_REPO/rig/kmod/ambience-test-i2c
    local dir=$2/build/ambience-test-i2c
    out_of_date "$kdir/modules/ambience-test-i2c.ko" "$source"/* || return 0
    log "building ambience-test-i2c for $kver"
    rm -rf "$dir"
    mkdir -p "$dir" "$kdir/modules"
    # Built in a copy, so the repo's tree stays free of build products.
    cp "$source"/* "$dir/"
    build_module "$kver" "$dir"
    cp "$dir/ambience-test-i2c.ko" "$kdir/modules/"
}

extract_vmlinux() {
    local kver=$1 kdir=$2 sources=$3
    out_of_date "$kdir/vmlinux" "/boot/vmlinuz-$kver" || return 0
    log "extracting vmlinux from /boot/vmlinuz-$kver"
    sh "$sources/scripts/extract-vmlinux" "/boot/vmlinuz-$kver" >"$kdir/vmlinux.partial"
    mv "$kdir/vmlinux.partial" "$kdir/vmlinux"
}

# Copies the boot modules and their dependencies, uncompressed, in load order.
copy_boot_modules() {
    local kver=$1 into=$2 module path name
    mkdir -p "$into/modules"
    for module in "${BOOT_MODULES[@]}"; do
        modprobe --set-version "$kver" --show-depends "$module"
    done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }' | while read -r path; do
        name=$(basename "$path")
        case $name in
        *.ko.xz) xz -dc "$path" >"$into/modules/${name%.xz}" ;;
        *.ko.zst) zstd -qdc "$path" >"$into/modules/${name%.zst}" ;;
        *) cp "$path" "$into/modules/" ;;
        esac
        basename "$name" | sed 's/\.\(xz\|zst\)$//' >>"$into/modules/order"
    done
    [ -s "$into/modules/order" ] || rig_die "found none of ${BOOT_MODULES[*]} for $kver"
}

build_initramfs() {
    local kver=$1 kdir=$2 init=$RIG_REPO/rig/guest/init staging
    out_of_date "$kdir/initrd.gz" "$init" /bin/busybox "/lib/modules/$kver/modules.dep" || return 0
    log "building the initramfs for $kver"
    staging=$(mktemp -d)
    mkdir -p "$staging/bin"
    cp /bin/busybox "$staging/bin/"
    cp "$init" "$staging/init"
    chmod 755 "$staging/init"
    copy_boot_modules "$kver" "$staging"
    (cd "$staging" && find . | cpio -o -H newc --quiet) | gzip -1 >"$kdir/initrd.gz.partial"
    mv "$kdir/initrd.gz.partial" "$kdir/initrd.gz"
    rm -rf "$staging"
}

main() {
    local started kver kdir sources seconds
    started=$(date +%s.%N)
    [ "$(id -u)" = 0 ] || rig_die "setup needs root (apt-get, kernel module builds)"
    install_packages
    kver=$(installed_kernel_version)
    [ -n "$kver" ] || rig_die "cannot tell which kernel linux-image-amd64 installed"
    check_kernel_files "$kver"
    kdir=$(rig_kernel_dir "$kver")
    sources=$kdir/build/linux-source
    mkdir -p "$kdir"
    if out_of_date "$sources/scripts/extract-vmlinux" "$LINUX_SOURCE"; then
        extract_kernel_sources "$sources"
    fi
    build_gpio_sim "$kver" "$kdir" "$sources"
    build_test_adapter "$kver" "$kdir"
    extract_vmlinux "$kver" "$kdir" "$sources"
    build_initramfs "$kver" "$kdir"
    echo "$kver" >"$RIG_DIR/kernel-version"
    seconds=$(awk -v now="$(date +%s.%N)" -v then="$started" 'BEGIN { printf "%.1f", now - then }')
    echo "$(date -u +%FT%TZ) $kver ${seconds}s" >>"$RIG_DIR/setup-times.log"
    log "ready for $kver in ${seconds}s (products in $RIG_DIR)"
}

main "$@"
