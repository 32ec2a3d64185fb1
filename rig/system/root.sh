#!/bin/bash
# The system rig's guest root: a Debian 13 (trixie) amd64 system with systemd as PID 1, udevd,
# Debian's kernel, and the packages the scenarios use, made once and cached outside the
# repository: ${AMBIENCE_ROOTS:-/var/cache/ambience/roots}/trixie-amd64-system.
#
#   rig/system/root.sh        (as root; idempotent: returns at once when the root is complete)
#
# Everything the guest needs is in the root before it boots: the guest has no network. That
# includes the libraries the package depends on, so `apt install ./ambience_….deb` in the guest
# resolves its Depends from what is installed.
set -euo pipefail
roots=${AMBIENCE_ROOTS:-/var/cache/ambience/roots}
root=$roots/trixie-amd64-system
mirror=${AMBIENCE_MIRROR:-http://deb.debian.org/debian}
# systemd, udev and the kernel (with initramfs-tools, which makes its initrd); the package's
# Depends; the programs the README's steps and the checks use; mosquitto for ambience-mqtt; the
# kiosk's compositors (cage for Pi OS Lite, labwc for its desktop), Chromium, grim for the
# pictures, and python3 for the test page's server (Tests/browser/observer.py).
PACKAGES=(
    systemd systemd-sysv udev dbus kmod linux-image-amd64 initramfs-tools
    libgpiod3 libi2c0 libmicrohttpd12t64 libmosquitto1 libstdc++6 libgcc-s1
    sudo i2c-tools gpiod procps iproute2 curl mosquitto mosquitto-clients less
    cage labwc chromium grim fonts-dejavu-core python3
)
stamp=$root/.ambience-system
want=$(printf '%s\n' "${PACKAGES[@]}" | sort -u)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    exit 0
fi
mkdir -p "$roots"
exec 9>"$roots/trixie-amd64-system.lock"
flock 9
[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && exit 0

started=$(date +%s)
for p in debootstrap e2fsprogs qemu-system-x86; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ -n "${missing[*]:-}" ]; then
    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
if [ ! -f "$root/.ambience-base" ]; then
    rm -rf "$root.partial"
    debootstrap --variant=minbase trixie "$root.partial" "$mirror"
    touch "$root.partial/.ambience-base"
    rm -rf "$root"
    mv "$root.partial" "$root"
fi
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
# No service may start in the chroot while installing (removed again below: in the guest, the
# package's scripts must start and restart units for real).
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod +x "$root/usr/sbin/policy-rc.d"
unshare --mount --propagation private /bin/bash -euc '
    root=$1
    shift
    mount -t proc proc "$root/proc"
    mount -t sysfs sysfs "$root/sys"
    mount --rbind /dev "$root/dev"
    chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 PATH=/usr/sbin:/usr/bin:/sbin:/bin \
        /bin/sh -c "apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
            --no-install-recommends \"\$@\" && apt-get clean" sh "$@"
' sh "$root" "${PACKAGES[@]}"
rm -f "$root/usr/sbin/policy-rc.d" "$root/etc/resolv.conf"
echo "$want" >"$stamp"
echo "system root: made in $(($(date +%s) - started)) s ($(du -sh "$root" | cut -f1))"
