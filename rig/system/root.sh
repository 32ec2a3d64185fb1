#!/bin/bash
# The system rig's guest root: a Debian system of SUITE (trixie or bookworm) and ARCH with
# systemd as PID 1, udevd, and the packages the scenarios use, made once and cached outside the
# repository: ${AMBIENCE_ROOTS:-/var/cache/ambience/roots}/SUITE-ARCH-system.
#
#   rig/system/root.sh SUITE ARCH [KERNEL-PACKAGE]
#       (as root; ARCH amd64, arm64 or armhf; idempotent: returns at once when complete)
#
# KERNEL-PACKAGE is Debian's kernel the guest boots, from the suite's archive; "none" installs
# none (a bookworm root boots trixie's kernel, which rig/system/setup.sh copies in: Raspberry
# Pi OS bookworm runs the Raspberry Pi kernels of later years, not Debian 12's 6.1).
# Everything the guest needs is in the root before it boots: the guest has no network. That
# includes the libraries the package depends on, so `apt install ./ambience_….deb` in the guest
# resolves its Depends from what is installed. A foreign root is made and set up under qemu-user.
set -euo pipefail
suite=${1:?usage: rig/system/root.sh SUITE ARCH [KERNEL-PACKAGE]}
arch=${2:?usage: rig/system/root.sh SUITE ARCH [KERNEL-PACKAGE]}
kernel=${3:-linux-image-$arch}
roots=${AMBIENCE_ROOTS:-/var/cache/ambience/roots}
# shellcheck source=rig/system/lib.sh
. "$(dirname "$0")/lib.sh"
root=$(system_rig_root "$suite" "$arch")
mirror=${AMBIENCE_MIRROR:-http://deb.debian.org/debian}
# The package's Depends, as each suite names its libraries.
case $suite in
    trixie) libraries=(libgpiod3 libi2c0 libmicrohttpd12t64 libmosquitto1) ;;
    bookworm) libraries=(libgpiod2 libi2c0 libmicrohttpd12 libmosquitto1) ;;
    *) echo "system root: SUITE must be trixie or bookworm, not $suite" >&2; exit 2 ;;
esac
# systemd, udev and the kernel (with initramfs-tools, which makes its initrd); the package's
# Depends; the programs the README's steps and the checks use; mosquitto for ambience-mqtt.
PACKAGES=(
    systemd systemd-sysv udev dbus kmod initramfs-tools
    "${libraries[@]}" libstdc++6 libgcc-s1
    sudo i2c-tools gpiod procps iproute2 curl mosquitto mosquitto-clients less
)
[ "$kernel" = none ] || PACKAGES+=("$kernel")
# The kiosk's compositors (cage for Pi OS Lite, labwc for its desktop), Chromium, grim for the
# pictures, wlopm and swayidle (Pi OS's screen blanking: the outputs' power, and the session's
# idleness, which says when labwc has seen input), and python3 for the test page's server
# (Tests/browser/observer.py). amd64 only: on Arm under emulation the kiosk's checks would take
# longer than the rest together.
[ "$arch" = amd64 ] && PACKAGES+=(cage labwc chromium grim wlopm swayidle fonts-dejavu-core python3)
stamp=$root/.ambience-system
want=$(printf '%s\n' "${PACKAGES[@]}" | sort -u)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    exit 0
fi
mkdir -p "$roots"
exec 9>"$roots/$suite-$arch-system.lock"
flock 9
[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && exit 0

started=$(date +%s)
host_packages=(debootstrap e2fsprogs qemu-system-x86)
[ "$arch" = amd64 ] || host_packages+=(qemu-system-arm qemu-user-static binfmt-support)
"$(dirname "$0")/../../scripts/host-packages.sh" "${host_packages[@]}"
if [ ! -f "$root/.ambience-base" ]; then
    rm -rf "$root.partial"
    if [ "$arch" != "$(dpkg --print-architecture)" ]; then
        mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
        case $arch in arm64) emulator=qemu-aarch64 ;; *) emulator=qemu-arm ;; esac
        [ -e "/proc/sys/fs/binfmt_misc/$emulator" ] || update-binfmts --enable "$emulator"
    fi
    debootstrap --arch="$arch" --variant=minbase "$suite" "$root.partial" "$mirror"
    touch "$root.partial/.ambience-base"
    rm -rf "$root"
    mv "$root.partial" "$root"
fi
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
# No service may start in the chroot while installing (removed again below: in the guest, the
# package's scripts must start and restart units for real).
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod +x "$root/usr/sbin/policy-rc.d"
# shellcheck disable=SC2016 # a script for the root's sh, with its own arguments
in_system_root "$root" /bin/sh -c 'apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
    --no-install-recommends "$@" && apt-get clean' sh "${PACKAGES[@]}"
# Without the package lists (88 MB): the guest installs only the local .deb, whose Depends are
# installed already, and apt under emulation spends seconds on each start reading lists it has
# no use for. (The next change to PACKAGES fetches them again.)
rm -f "$root/usr/sbin/policy-rc.d" "$root/etc/resolv.conf"
rm -rf "$root"/var/lib/apt/lists/*
echo "$want" >"$stamp"
echo "system root: made in $(($(date +%s) - started)) s ($(du -sh "$root" | cut -f1))"
