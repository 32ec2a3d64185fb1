#!/bin/bash
# Prepares the system rig (docs/rig.md, "The system rig"), as root: a Debian guest that boots
# Debian's kernel with systemd as PID 1 and udevd, where the stand-ins for a Raspberry Pi's I2C
# bus and GPIO header come up at boot as the Pi's do:
#   - the project's test adapter (rig/kmod/ambience-test-i2c, a BH1750 at 0x23 among others) as
#     /dev/i2c-1 and i2c-stub (a second bus), loaded through /etc/modules-load.d as
#     dtparam=i2c_arm=on makes the Pi's bus appear;
#   - gpio-sim as a 58-line chip labelled pinctrl-bcm2711, the Pi 4's GPIO controller, made by a
#     unit of the rig's (the Pi's chip is there from the kernel's start).
# So the README's configuration for a Raspberry Pi 4 works unchanged in the guest.
#
#   rig/system/setup.sh [SUITE ARCH]   (as root; trixie amd64, the default, trixie arm64 or
#                                       armhf, or bookworm arm64; idempotent, about a second
#                                       when nothing changed)
#
# The root is rig/system/root.sh's (cached outside the repository). Debian 13's amd64 kernel has
# i2c-stub but not gpio-sim: gpio-sim and the test adapter are built against that kernel's exact
# headers in the trixie build root of scripts/debian-root.sh, into $RIG_DIR/system/KVER. On Arm
# the real-kernel rig's setup of that architecture (RIG_ARCH=ARCH rig/setup.sh) builds them,
# and i2c-stub, which Debian's Arm kernels lack, for the kernel of its root; the system root
# gets that same kernel. A bookworm root gets it too, copied from the rig's root: Raspberry Pi
# OS bookworm boots the Raspberry Pi kernels of later years (6.6, 6.12), not Debian 12's 6.1,
# so bookworm's userland on a 6.12 kernel is what a Pi on bookworm runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=rig/system/lib.sh
. "$here/lib.sh"
suite=${1:-trixie}
arch=${2:-amd64}
case $suite-$arch in
    trixie-amd64 | trixie-arm64 | trixie-armhf | bookworm-arm64 | bookworm-armhf) ;;
    *) echo "system rig setup: no system rig for $suite $arch" >&2; exit 2 ;;
esac
root=$(system_rig_root "$suite" "$arch")
adapter=$repo/rig/kmod/ambience-test-i2c
log() { echo "system rig setup: $*"; }

rig_dir=$(realpath -m "${RIG_DIR:-$repo/.rig}")
out=$(system_rig_dir "$suite" "$arch")
# One setup at a time (make test starts one in the background, scripts/prepare-tests.sh).
mkdir -p "$out"
exec 8>"$out/setup.lock"
flock 8

# Sets kver, kdir and modules (the .ko files the guest loads beside Debian's).
amd64_kernel_and_modules() {
    "$here/root.sh" trixie amd64
    kver=$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Depends}' linux-image-amd64 |
        grep -o 'linux-image-[^ ,]*' | head -n 1 | sed 's/^linux-image-//')
    [ -n "$kver" ] || { log "no kernel in $root"; exit 1; }
    kdir=$out/$kver
    mkdir -p "$kdir"
    modules=("$kdir/gpio-sim.ko" "$kdir/ambience-test-i2c.ko")
    local m stale='' build version build_root=${AMBIENCE_ROOTS:-/var/cache/ambience/roots}/trixie-amd64
    for m in "${modules[@]}"; do
        [ -f "$m" ] && [ ! "$adapter/ambience-test-i2c.c" -nt "$m" ] || stale=1
    done
    [ -n "$stale" ] || return 0
    "$repo/scripts/debian-root.sh" trixie amd64 "linux-headers-$kver" linux-source-6.12 build-essential
    log "building gpio-sim and ambience-test-i2c for $kver"
    build=$kdir/build
    rm -rf "$build"
    mkdir -p "$build/gpio-sim" "$build/ambience-test-i2c" "$build/src"
    version=$(basename "$build_root"/usr/src/linux-source-6.12.tar.xz .tar.xz)
    tar -C "$build/src" --strip-components=1 -xJf "$build_root/usr/src/$version.tar.xz" \
        "$version/drivers/gpio/gpio-sim.c" "$version/drivers/gpio/gpiolib.h" "$version/kernel/irq/irq_sim.c"
    cp "$build/src/drivers/gpio/gpio-sim.c" "$build/gpio-sim/gpio-sim-main.c"
    cp "$build/src/drivers/gpio/gpiolib.h" "$build/src/kernel/irq/irq_sim.c" "$build/gpio-sim/"
    # As in rig/setup.sh: Debian's kernel has CONFIG_IRQ_SIM=n, so irq_sim.c comes along, and
    # irq_to_desc is not exported to modules; generic_handle_irq does the same here.
    sed -i 's/handle_simple_irq(irq_to_desc(\([a-z_]*\)))/generic_handle_irq(\1)/' "$build/gpio-sim/irq_sim.c"
    grep -q 'generic_handle_irq(' "$build/gpio-sim/irq_sim.c" || { log "irq_sim.c workaround no longer applies"; exit 1; }
    printf 'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-main.o irq_sim.o\n' >"$build/gpio-sim/Kbuild"
    cp "$adapter"/* "$build/ambience-test-i2c/"
    # shellcheck disable=SC2016 # a script for the root's sh, its $1 its own
    AMBIENCE_ROOT_NO_SRC=1 AMBIENCE_BIND="$build:/mnt/rig-build" "$repo/scripts/in-root.sh" trixie amd64 \
        /bin/sh -c 'for m in gpio-sim ambience-test-i2c; do
            make -s -C "/usr/src/linux-headers-$1" M="/mnt/rig-build/$m" modules || exit 1
        done' sh "$kver"
    cp "$build/gpio-sim/gpio-sim.ko" "$build/ambience-test-i2c/ambience-test-i2c.ko" "$kdir/"
}

# The Arm rig's root, kernel and modules first (i2c-stub too); the system root takes that kernel.
arm_kernel_and_modules() {
    local rig_root=/var/cache/ambience/roots/rig/bare/trixie-$arch m
    RIG_ARCH=$arch RIG_ROOT=$rig_root "$repo/rig/setup.sh"
    kver=$(cat "$rig_dir/$arch/kernel-version")
    if [ "$suite" = trixie ]; then
        "$here/root.sh" trixie "$arch" "linux-image-$kver"
    else
        "$here/root.sh" "$suite" "$arch" none
        [ -r "$root/boot/vmlinuz-$kver" ] || copy_kernel "$rig_root"
    fi
    # The guest's root is a virtio disk, and initramfs-tools' "most" takes no virtio_blk for
    # Debian's armmp kernel, where it is a module.
    if ! grep -qx virtio_blk "$root/etc/initramfs-tools/modules"; then
        echo virtio_blk >>"$root/etc/initramfs-tools/modules"
        rm -f "$root/boot/initrd.img-$kver"
    fi
    [ -r "$root/boot/initrd.img-$kver" ] || make_initrd
    kdir=$out/$kver
    mkdir -p "$kdir"
    modules=()
    for m in i2c-stub gpio-sim ambience-test-i2c; do
        modules+=("$rig_dir/$arch/kernels/$kver/modules/$m.ko")
    done
}

# Trixie's kernel $kver, from the rig's root FROM, into a root of another suite.
copy_kernel() {  # copy_kernel FROM
    local f
    log "copying kernel $kver from $1 into $root"
    for f in vmlinuz config System.map; do
        install -D -m 0644 "$1/boot/$f-$kver" "$root/boot/$f-$kver"
    done
    rm -rf "$root/usr/lib/modules/$kver"
    mkdir -p "$root/usr/lib/modules"
    cp -a "$1/usr/lib/modules/$kver" "$root/usr/lib/modules/"
    rm -f "$root/usr/lib/modules/$kver/build" "$root/usr/lib/modules/$kver/source"
    depmod -b "$root" "$kver"
}

# The root's initrd for $kver, by its own initramfs-tools (under qemu-user: a few minutes).
make_initrd() {
    log "making the initrd of $kver in $root"
    in_system_root "$root" update-initramfs -c -k "$kver"
}

case $arch in
    amd64) amd64_kernel_and_modules; console=ttyS0 ;;
    *) arm_kernel_and_modules; console=ttyAMA0 ;;
esac
if [ ! -r "$root/boot/vmlinuz-$kver" ] || [ ! -r "$root/boot/initrd.img-$kver" ]; then
    log "no kernel $kver with its initrd in $root"
    exit 1
fi

# ---- into the guest's root (cheap; done on every run so the root follows the repository) ----
install_file() {  # install_file MODE SOURCE DEST (in the root), only when it differs
    cmp -s "$2" "$root$3" 2>/dev/null || install -D -m "$1" "$2" "$root$3"
}
for m in "${modules[@]}"; do
    install_file 0644 "$m" "/usr/lib/modules/$kver/updates/ambience-rig/$(basename "$m")"
done
if [ ! -f "$root/usr/lib/modules/$kver/.ambience-depmod" ] ||
    [ -n "$(find "$root/usr/lib/modules/$kver/updates" -newer "$root/usr/lib/modules/$kver/.ambience-depmod")" ]; then
    depmod -b "$root" "$kver"
    touch "$root/usr/lib/modules/$kver/.ambience-depmod"
fi
while IFS= read -r f; do
    case $f in */sudoers.d/*) mode=0440 ;; *) mode=0644 ;; esac
    install_file "$mode" "$here/guest/etc/$f" "/etc/$f"
done < <(cd "$here/guest/etc" && find . -type f -printf '%P\n')
# The results go to the serial console: ttyS0 on a PC, ttyAMA0 (PL011) on QEMU's arm64 virt.
sed -i "s|^TTYPath=.*|TTYPath=/dev/$console|" "$root/etc/systemd/system/rig-checks.service"
ln -sf /etc/systemd/system/rig-checks.service "$root/etc/systemd/system/multi-user.target.wants/rig-checks.service"
ln -sf /etc/systemd/system/rig-gpio-header.service "$root/etc/systemd/system/sysinit.target.wants/rig-gpio-header.service"
# The serial console carries the results: no login prompt on it.
ln -sf /dev/null "$root/etc/systemd/system/serial-getty@$console.service"
# Where rig/overlay-init makes the overlay root, and where it puts the two layers.
mkdir -p "$root/mnt/rig" "$root/mnt/overlay-root" "$root/media/root-ro" "$root/media/root-rw"
echo kiosk >"$root/etc/hostname"
# As an installed system has it (debootstrap writes none): the broker is at localhost.
printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n127.0.1.1\tkiosk\n' >"$root/etc/hosts"
if [ ! -s "$root/etc/machine-id" ] || [ "$(cat "$root/etc/machine-id")" = uninitialized ]; then
    od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$root/etc/machine-id"
fi
# Raspberry Pi OS's groups and first user: i2c and gpio exist before the package comes (its
# sysusers.d then finds them), and pi is in them and in sudo, without a password. And a user
# outside every group the package makes.
for g in i2c gpio; do
    grep -q "^$g:" "$root/etc/group" || chroot "$root" groupadd --system "$g"
done
grep -q '^pi:' "$root/etc/passwd" || chroot "$root" useradd -m -s /bin/bash pi
chroot "$root" usermod -aG sudo,i2c,gpio,video,render,input pi
grep -q '^visitor:' "$root/etc/passwd" || chroot "$root" useradd -m -s /bin/bash visitor
echo "$kver" >"$out/kernel-version"
log "ready: $root, kernel $kver"
