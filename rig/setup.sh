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
#
# RIG_ARCH=arm64 (or --arch arm64) prepares the arm64 rig instead: Debian 13's arm64 kernel
# booted by qemu-system-aarch64, with the Debian 13 arm64 root at $RIG_ROOT as the guest's
# root. The packages the guest needs go into that root (apt-get in a chroot, through
# qemu-user), the modules are built in it (its gcc-14, its kernel headers), and the products
# go under $RIG_DIR/arm64 (see main_arm below). RIG_ARCH=armhf does the same with Debian 13's
# armmp kernel, for qemu-system-arm, under $RIG_DIR/armhf.
set -euo pipefail
if [ "${1:-}" = --arch ]; then
    export RIG_ARCH=${2:?--arch needs amd64, arm64 or armhf}
    shift 2
fi
# shellcheck source=rig/lib.sh
source "$(dirname "$0")/lib.sh"
# One setup at a time per architecture (make test starts one in the background,
# scripts/prepare-tests.sh): the second finds the first one's work done.
mkdir -p "$RIG_DIR"
exec 8>"$RIG_DIR/setup-$RIG_ARCH.lock"
flock 8

PACKAGES=(
    qemu-system-x86 linux-image-amd64 linux-headers-amd64 linux-source-6.1
    busybox-static kmod cpio xz-utils build-essential i2c-tools gpiod python3 ddcutil v4l-utils
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

# Copies the boot modules and their dependencies, uncompressed, in load order, from the module
# tree of the root at ROOT ("" for the host's own; the host's modprobe reads another with -d).
copy_boot_modules() {  # copy_boot_modules KVER INTO ROOT MODULE...
    local kver=$1 into=$2 root=$3 module path name
    shift 3
    mkdir -p "$into/modules"
    for module in "$@"; do
        modprobe -d "${root:-/}" --set-version "$kver" --show-depends "$module"
    done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }' | while read -r path; do
        [ -e "$path" ] || path=$root$path
        name=$(basename "$path")
        case $name in
        *.ko.xz) xz -dc "$path" >"$into/modules/${name%.xz}" ;;
        *.ko.zst) zstd -qdc "$path" >"$into/modules/${name%.zst}" ;;
        *) cp "$path" "$into/modules/" ;;
        esac
        basename "$name" | sed 's/\.\(xz\|zst\)$//' >>"$into/modules/order"
    done
    [ -s "$into/modules/order" ] || rig_die "found none of $* for $kver in ${root:-/}"
}

# The initramfs: the root's static busybox, rig/guest/init and the boot modules.
build_initramfs() {  # build_initramfs KVER KDIR ROOT MODULE...
    local kver=$1 kdir=$2 root=$3 init=$RIG_REPO/rig/guest/init staging
    shift 3
    out_of_date "$kdir/initrd.gz" "$init" "$root/bin/busybox" "$root/lib/modules/$kver/modules.dep" || return 0
    log "building the initramfs for $kver"
    staging=$(mktemp -d)
    mkdir -p "$staging/bin"
    cp "$root/bin/busybox" "$staging/bin/"
    cp "$init" "$staging/init"
    chmod 755 "$staging/init"
    copy_boot_modules "$kver" "$staging" "$root" "$@"
    (cd "$staging" && find . | cpio -o -H newc --quiet) | gzip -1 >"$kdir/initrd.gz.partial"
    mv "$kdir/initrd.gz.partial" "$kdir/initrd.gz"
    rm -rf "$staging"
}

# ---- arm64, armhf: Debian 13's kernel, with a Debian 13 root as the guest's root ----

ARM_HOST_PACKAGES=(qemu-system-arm qemu-user-static binfmt-support cpio xz-utils kmod)
# Into the root: the kernel and its exact headers (the metapackages keep them in step), the
# kernel source for i2c-stub and gpio-sim (Debian's Arm kernels have neither), the compiler,
# the initramfs's busybox, what the fixtures and the scenarios run in the guest, and the
# libraries the package depends on (the guest's dpkg has no network to fetch them).
ARM_ROOT_PACKAGES=(
    "linux-image-$RIG_KERNEL_FLAVOUR" "linux-headers-$RIG_KERNEL_FLAVOUR" linux-source-6.12
    build-essential busybox-static
    kmod i2c-tools gpiod python3 udev procps pkg-config util-linux ddcutil v4l-utils
    libgpiod3 libi2c0 libmicrohttpd12t64 libmosquitto1
)
ARM_LINUX_SOURCE=/usr/src/linux-source-6.12.tar.xz # in the root
ARM_SOURCE_FILES=(
    drivers/gpio/gpio-sim.c drivers/gpio/gpiolib.h kernel/irq/irq_sim.c drivers/i2c/i2c-stub.c
)
# virtio-pci is built in (armmp's with the virt board's PCI host bridge); netfs and the rest
# come along as dependencies.
ARM_BOOT_MODULES=(9pnet_virtio 9p overlay)
# qemu-user's name for the architecture, for binfmt_misc.
case $RIG_ARCH in
armhf) QEMU_USER=qemu-arm ;;
*) QEMU_USER=qemu-aarch64 ;;
esac

install_host_packages() {
    local missing=() package
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed' ||
            missing+=("$package")
    done
    [ ${#missing[@]} = 0 ] && return
    log "installing on the host: ${missing[*]}"
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        -o DPkg::Lock::Timeout=900 "${missing[@]}"
}

# The root's programs run on this host through qemu-user (binfmt_misc).
enable_qemu_user() {
    mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    [ -e "/proc/sys/fs/binfmt_misc/$QEMU_USER" ] || update-binfmts --enable "$QEMU_USER"
    [ -e "/proc/sys/fs/binfmt_misc/$QEMU_USER" ] || rig_die "cannot run $RIG_ARCH programs (binfmt_misc)"
}

# Runs COMMAND... as root in $RIG_ROOT, with /proc, /sys and /dev, and BIND (a host directory,
# if given) at /mnt/rig-build. The mounts live in a private mount namespace: they vanish with
# the command, whatever happens, and the other users of the root never see them.
in_root() {  # in_root BIND|"" COMMAND...
    local bind=$1
    shift
    # shellcheck disable=SC2016 # a script for the new namespace's bash, with its own arguments
    unshare --mount --propagation private /bin/bash -euc '
        root=$1 bind=$2
        shift 2
        mount -t proc proc "$root/proc"
        mount -t sysfs sysfs "$root/sys"
        mount --rbind /dev "$root/dev"
        if [ -n "$bind" ]; then
            mkdir -p "$root/mnt/rig-build"
            mount --bind "$bind" "$root/mnt/rig-build"
        fi
        exec chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
            PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
    ' in_root "$RIG_ROOT" "$bind" "$@"
}

# The root is shared (other tools build in it): apt waits for their dpkg lock instead of failing.
install_root_packages() {
    local missing=() package
    for package in "${ARM_ROOT_PACKAGES[@]}"; do
        dpkg-query --admindir="$RIG_ROOT/var/lib/dpkg" -W -f='${Status}' "$package" 2>/dev/null |
            grep -q 'ok installed' || missing+=("$package")
    done
    [ ${#missing[@]} = 0 ] && return
    log "installing into $RIG_ROOT: ${missing[*]}"
    cp -L /etc/resolv.conf "$RIG_ROOT/etc/resolv.conf" 2>/dev/null || true
    # INITRD=No: the kernel's postinst makes no initramfs (the rig brings its own; making one
    # under qemu-user takes minutes).
    in_root "" /bin/sh -c 'apt-get update -q -o DPkg::Lock::Timeout=900 &&
        INITRD=No DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
            -o DPkg::Lock::Timeout=900 "$@" && apt-get clean' sh "${missing[@]}"
}

root_kernel_version() {
    dpkg-query --admindir="$RIG_ROOT/var/lib/dpkg" -W -f='${Depends}' "linux-image-$RIG_KERNEL_FLAVOUR" |
        grep -o 'linux-image-[^ ,]*' | head -n 1 | sed 's/^linux-image-//'
}

extract_arm_sources() {
    local into=$1 tarball=$RIG_ROOT$ARM_LINUX_SOURCE version
    out_of_date "$into/drivers/i2c/i2c-stub.c" "$tarball" || return 0
    version=$(basename "$tarball" .tar.xz)
    log "extracting i2c-stub and gpio-sim from $tarball"
    rm -rf "$into"
    mkdir -p "$into"
    tar -C "$into" --strip-components=1 --touch -xJf "$tarball" "${ARM_SOURCE_FILES[@]/#/$version/}"
}

# Lays out one module's sources in BUILD/NAME (a Kbuild file and its .c files), for
# build_arm_modules to build in the root.
stage_module() {  # stage_module BUILD NAME KBUILD FILE...
    local dir=$1/$2 kbuild=$3
    shift 3
    rm -rf "$dir"
    mkdir -p "$dir"
    cp "$@" "$dir/"
    printf '%s\n' "$kbuild" >"$dir/Kbuild"
}

# i2c-stub, gpio-sim (with irq_sim, as on amd64) and the test adapter, built in the root with
# its gcc-14 against the kernel's own headers (the compiler the kernel was built with).
build_arm_modules() {
    local kver=$1 kdir=$2 sources=$3 build=$2/build/modules adapter=$RIG_REPO/rig/kmod/ambience-test-i2c
    local want=("$kdir/modules/i2c-stub.ko" "$kdir/modules/gpio-sim.ko" "$kdir/modules/ambience-test-i2c.ko")
    local module stale=
    for module in "${want[@]}"; do
        out_of_date "$module" "$RIG_ROOT$ARM_LINUX_SOURCE" "$adapter"/* \
            "$RIG_ROOT/usr/src/linux-headers-$kver/.config" && stale=1
    done
    [ -n "$stale" ] || return 0
    log "building i2c-stub, gpio-sim and ambience-test-i2c for $kver (in $RIG_ROOT, under qemu-user)"
    rm -rf "$build"
    mkdir -p "$build" "$kdir/modules"
    stage_module "$build" i2c-stub 'obj-m := i2c-stub.o' "$sources/drivers/i2c/i2c-stub.c"
    stage_module "$build" gpio-sim $'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-main.o irq_sim.o' \
        "$sources/drivers/gpio/gpiolib.h" "$sources/kernel/irq/irq_sim.c"
    cp "$sources/drivers/gpio/gpio-sim.c" "$build/gpio-sim/gpio-sim-main.c"
    # Debian's kernel has CONFIG_IRQ_SIM=n: the same workaround as on amd64 (see build_gpio_sim).
    sed -i 's/handle_simple_irq(irq_to_desc(\([a-z_]*\)))/generic_handle_irq(\1)/' "$build/gpio-sim/irq_sim.c"
    grep -q 'generic_handle_irq(' "$build/gpio-sim/irq_sim.c" ||
        rig_die "the irq_sim.c workaround no longer applies: check $build/gpio-sim/irq_sim.c"
    mkdir -p "$build/ambience-test-i2c"
    cp "$adapter"/* "$build/ambience-test-i2c/"
    # shellcheck disable=SC2016 # a script for the root's sh, its $1 its own
    in_root "$build" /bin/sh -c 'for module in i2c-stub gpio-sim ambience-test-i2c; do
        make -s -C "/lib/modules/$1/build" M="/mnt/rig-build/$module" modules || exit 1
    done' sh "$kver"
    for module in i2c-stub gpio-sim ambience-test-i2c; do
        cp "$build/$module/$module.ko" "$kdir/modules/"
    done
}

# Debian's arm64 vmlinuz is an uncompressed Image, armmp's a zImage: QEMU boots either as it is.
copy_arm_kernel() {
    local kver=$1 kdir=$2 image
    image=$(rig_kernel_image)
    out_of_date "$kdir/$image" "$RIG_ROOT/boot/vmlinuz-$kver" || return 0
    log "copying the kernel $image $kver"
    cp "$RIG_ROOT/boot/vmlinuz-$kver" "$kdir/$image.partial"
    mv "$kdir/$image.partial" "$kdir/$image"
}

main_arm() {
    local started kver kdir seconds arch_dir
    started=$(date +%s.%N)
    [ "$(id -u)" = 0 ] || rig_die "setup needs root (apt-get, chroot, kernel module builds)"
    # The root at its default place is made on first use (idempotent).
    case $RIG_ROOT in
    */bare/trixie-"$RIG_ARCH")
        AMBIENCE_ROOTS=${RIG_ROOT%/bare/trixie-"$RIG_ARCH"} "$RIG_REPO/scripts/debian-root.sh" --bare trixie "$RIG_ARCH" ;;
    esac
    [ -x "$RIG_ROOT/usr/bin/apt-get" ] ||
        rig_die "no Debian 13 $RIG_ARCH root at $RIG_ROOT: make one (as rig/lib.sh says, or debootstrap --arch=$RIG_ARCH trixie DIR) and point RIG_ROOT at it"
    install_host_packages "${ARM_HOST_PACKAGES[@]}"
    enable_qemu_user
    install_root_packages
    kver=$(root_kernel_version)
    [ -n "$kver" ] || rig_die "cannot tell which kernel linux-image-$RIG_KERNEL_FLAVOUR installed in $RIG_ROOT"
    [ -r "$RIG_ROOT/boot/vmlinuz-$kver" ] || rig_die "no $RIG_ROOT/boot/vmlinuz-$kver"
    # (Not lib/modules/KVER/build: that link is absolute, right only inside the root.)
    [ -d "$RIG_ROOT/usr/src/linux-headers-$kver" ] ||
        rig_die "no headers for $kver in $RIG_ROOT (linux-headers-$RIG_KERNEL_FLAVOUR and linux-image-$RIG_KERNEL_FLAVOUR disagree?)"
    arch_dir=$(rig_arch_dir)
    kdir=$(rig_kernel_dir "$kver")
    mkdir -p "$kdir"
    extract_arm_sources "$kdir/build/linux-source"
    build_arm_modules "$kver" "$kdir" "$kdir/build/linux-source"
    copy_arm_kernel "$kver" "$kdir"
    build_initramfs "$kver" "$kdir" "$RIG_ROOT" "${ARM_BOOT_MODULES[@]}"
    echo "$kver" >"$arch_dir/kernel-version"
    seconds=$(awk -v now="$(date +%s.%N)" -v then="$started" 'BEGIN { printf "%.1f", now - then }')
    echo "$(date -u +%FT%TZ) $kver ${seconds}s" >>"$arch_dir/setup-times.log"
    log "ready for $RIG_ARCH $kver in ${seconds}s (products in $kdir, root $RIG_ROOT)"
}

main() {
    local started kver kdir sources seconds
    if [ "$RIG_ARCH" != amd64 ]; then
        main_arm
        return
    fi
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
    build_initramfs "$kver" "$kdir" "" "${BOOT_MODULES[@]}"
    echo "$kver" >"$RIG_DIR/kernel-version"
    seconds=$(awk -v now="$(date +%s.%N)" -v then="$started" 'BEGIN { printf "%.1f", now - then }')
    echo "$(date -u +%FT%TZ) $kver ${seconds}s" >>"$RIG_DIR/setup-times.log"
    log "ready for $kver in ${seconds}s (products in $RIG_DIR)"
}

main "$@"
