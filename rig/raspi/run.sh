#!/bin/bash
# The Pi's own SoC under emulation (make test-raspi): QEMU's raspi3b machine (trixie's
# qemu-system-aarch64, from a bare trixie amd64 root) boots Debian 13's arm64 kernel with the
# upstream device tree of the Raspberry Pi 3 B (bcm2837-rpi-3-b.dtb, from the same kernel package),
# so the real pinctrl-bcm2835 GPIO driver runs, and i2c-bcm2835 on QEMU's model of the BSC
# controller, with a TMP105 that QEMU puts on the header's bus (0x49). The guest is an initramfs:
# busybox, the gpiod tools and i2c-tools of trixie, and the trixie arm64 package of make dist
# unpacked; its /init runs rig/raspi/guest.sh, which checks the board profile against what the
# kernel names and drives the indicator lines through the pin controller, then powers off.
#   rig/raspi/run.sh        (as root; RIG_DIR as for the rig, RASPI_TIMEOUT default 900 s,
#                            RASPI_MACHINE raspi3b (default), raspi4b: the Pi 4 B's, or raspi0:
#                            the Pi Zero's, below)
# raspi0 boots Debian 12's ARMv6 kernel for the Pi Zero and Pi 1 (armel's rpi flavour; the
# mirror has no Debian 13 one, nor Debian 13's armel libc) on QEMU's ARM1176, with the Pi Zero's
# device tree, and Debian 12's armel busybox and tools (ARMv5 code, which the ARM1176 runs; the
# gpiod tools of libgpiod 1.6). The armhf package is unpacked for its board profiles, but
# its programs cannot run there: their libc would be Debian's armhf one, ARMv7 code. What runs is
# the pure core's replay, linked statically with musl (Tests/embedded/replay-armv6.sh), whose
# output on the Pi Zero's kernel is compared with the host's.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
export PATH=/opt/swift/usr/bin:$PATH
MACHINE=${RASPI_MACHINE:-raspi3b}
OUT=$(realpath -m "${RIG_DIR:-$ROOT/.rig}")/$MACHINE
TIMEOUT=${RASPI_TIMEOUT:-900}
# The board: its device tree, the profile the package ships for it, the header's BSC controller
# (i2c1) as the kernel names its device, and the GPIO controller's size; the kernel and the
# guest's tools (suite and architecture), the package, QEMU and its console.
kernel_suite=trixie guest_suite=trixie exact='' guest_arch=arm64 package=trixie-arm64 qemu=qemu-system-aarch64 program=yes
# The guest's tools and the package's libraries: unpacked, not installed.
# bash-static: the guest script and the one test harness are bash (busybox's sh runs /init).
GUEST_PACKAGES="busybox-static bash-static gpiod i2c-tools libgpiod3 libi2c0 libmicrohttpd12t64 libmosquitto1"
case $MACHINE in
raspi3b) dtb=bcm2837-rpi-3-b.dtb board=raspberry-pi-3 controller=3f804000.i2c lines=54 quirks= ;;
# QEMU's Pi 4 leaves out hardware its device tree names, and the kernel panics within 6 s, before
# the console is up, in each driver that reads it: the brcmstb L2 interrupt controllers and I2C
# controllers (the HDMI block's), and the clock gates that the unused-clock sweep reads. Those
# drivers' initcalls are skipped and the sweep is not made.
raspi4b) dtb=bcm2711-rpi-4-b.dtb board=raspberry-pi-4 controller=fe804000.i2c lines=58
    quirks="clk_ignore_unused initcall_blacklist=brcmstb_l2_driver_init,brcmstb_i2c_driver_init" ;;
# The Zero's tree, not the Zero W's: QEMU models the Zero, and the W's gives its PL011 (the
# console here) to the Bluetooth chip. The two are one SoC and one header.
# Debian 12's rpi kernel oopses on this machine in the power-management driver's probe (a NULL
# pointer while it adds its watchdog and power domains), before the console is up; that driver,
# which nothing checked here uses, is skipped.
raspi0) dtb=bcm2835-rpi-zero.dtb board=raspberry-pi-zero controller=20804000.i2c lines=54
    quirks=initcall_blacklist=bcm2835_pm_driver_init
    kernel_suite=bookworm guest_suite=bookworm guest_arch=armel package=trixie-armhf qemu=qemu-system-arm program=no
    # The tools alone (exact): their Depends would bring udev, perl and more for nothing.
    GUEST_PACKAGES="busybox-static bash-static gpiod libgpiod2 i2c-tools libi2c0 libc6" exact=--exact ;;
*) echo "raspi: RASPI_MACHINE is raspi3b, raspi4b or raspi0" >&2; exit 2 ;;
esac
case $guest_arch in
arm64) KERNEL_PACKAGES=linux-image-arm64 ;;
*) KERNEL_PACKAGES=linux-image-rpi ;;
esac
mkdir -p "$OUT"
scripts/host-packages.sh cpio xz-utils
[ -x ".build/dist/$package/ambience" ] || { echo "raspi: no .build/dist/$package/ambience (make dist)" >&2; exit 1; }

# QEMU 10 from trixie: raspi3b with its BSC (I2C) model.
scripts/debian-root.sh --bare trixie amd64 qemu-system-arm >"$OUT/qemu-root.log" 2>&1 ||
    { cat "$OUT/qemu-root.log" >&2; exit 1; }

# The kernel, its modules for the header's bus, the device tree; the guest's files.
# shellcheck source=scripts/debian-apt.sh
. scripts/debian-apt.sh
trap 'debian_apt_end' EXIT
stage=$OUT/initramfs
rm -rf "$stage" "$OUT/kernel"
debian_apt_begin "$kernel_suite" "$guest_arch"
debian_apt_unpack "$OUT/kernel" $KERNEL_PACKAGES
debian_apt_end
debian_apt_begin "$guest_suite" "$guest_arch"
# shellcheck disable=SC2086 # a list of package names, and an option or none
debian_apt_unpack $exact "$stage" $GUEST_PACKAGES
debian_apt_end
deb=$(scripts/make-deb.sh --suite trixie --arch "${package#*-}" --binary ".build/dist/$package/ambience" --out "$OUT" |
    tail -n 1)
dpkg-deb -x "$deb" "$stage"
kver=$(ls "$OUT/kernel/usr/lib/modules")
# i2c-bcm2835 and i2c-dev, where they are modules (the rpi flavour builds the first in), plain.
mkdir -p "$stage/modules"
find "$OUT/kernel/usr/lib/modules/$kver/kernel/drivers/i2c" \( -name 'i2c-bcm2835.ko*' -o -name 'i2c-dev.ko*' \) |
    while read -r module; do
        case $module in
        *.xz) xz -dc "$module" >"$stage/modules/$(basename "$module" .xz)" ;;
        *) cp "$module" "$stage/modules/" ;;
        esac
    done
cp rig/raspi/guest.sh "$stage/guest.sh"
cp Tests/lib/harness.sh "$stage/harness.sh"
if [ "$program" = no ]; then
    Tests/embedded/replay-armv6.sh "$OUT/replay" >"$OUT/replay.log" 2>&1 || { cat "$OUT/replay.log" >&2; exit 1; }
    cp "$OUT/replay/replay-armv6" examples/day.csv "$stage/"
fi

cat >"$stage/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs dev /dev
mount -t debugfs debugfs /sys/kernel/debug; mount -t tmpfs tmp /tmp; mkdir -p /run /var/lib/ambience
bash-static /guest.sh
echo "raspi-guest: exit $?"
poweroff -f
INIT
chmod +x "$stage/init"
mkdir -p "$stage/proc" "$stage/sys" "$stage/dev" "$stage/tmp"
(cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) >"$OUT/initramfs.gz"
cp "$OUT/kernel/boot/vmlinuz-$kver" "$OUT/vmlinuz"
# (arm64's trees are under broadcom/, armel's at the top.)
cp "$(find "$OUT/kernel/usr/lib/linux-image-$kver" -name "$dtb" | head -n 1)" "$OUT/board.dtb"
echo "raspi: kernel $kver, initramfs $(stat -c %s "$OUT/initramfs.gz") bytes"

# In the trixie root (its QEMU), the repository at /src. The raspi3b machine cannot power off (the
# guest halts), so the guest's last line ends QEMU.
guest=/src/${OUT#"$ROOT"/}
AMBIENCE_ROOTS=/var/cache/ambience/roots/bare timeout "$TIMEOUT" scripts/in-root.sh trixie amd64 \
    "$qemu" -M "$MACHINE" -accel tcg -display none -monitor none -serial stdio \
    -kernel "$guest/vmlinuz" -dtb "$guest/board.dtb" -initrd "$guest/initramfs.gz" \
    -append "console=ttyAMA0 rdinit=/init quiet $quirks ambience.board=$board ambience.i2c=$controller ambience.lines=$lines ambience.program=$program" \
    -device tmp105,bus=i2c-bus.1,address=0x49 </dev/null >"$OUT/console.log" 2>&1 &
qemu=$!
until grep -aqs '^raspi-guest: exit' "$OUT/console.log" || ! kill -0 "$qemu" 2>/dev/null; do sleep 1; done
kill "$qemu" 2>/dev/null || true
wait "$qemu" 2>/dev/null || true
# The checks' verdicts, a failure's why (indented under it), the closing count.
grep -aE '^(ok|FAIL|skip|raspi-guest|     |[0-9]+ passed)' "$OUT/console.log" || true
if ! grep -aq '^raspi-guest: exit' "$OUT/console.log"; then
    tail -n 40 "$OUT/console.log"
    echo "raspi: the guest did not finish within ${TIMEOUT}s"
    exit 1
fi
grep -aq '^raspi-guest: exit 0' "$OUT/console.log" || exit 1
# raspi0: the ARM1176's replay of the day against the host's (RASPI_REFERENCE: make embedded's).
if [ "$program" = no ]; then
    host=$("${RASPI_REFERENCE:-.build/embedded/x86_64/ambience}" replay - <examples/day.csv | sha256sum | cut -d' ' -f1)
    [ -n "$host" ] || { echo "raspi: no replay from the host's build"; exit 1; }
    if tr -d '\r' <"$OUT/console.log" | grep -aq "^replay-sha256 $host\$"; then
        echo "ok   the pure core's replay of the day, on the Pi Zero's kernel and core, is the host's"
    else
        echo "FAIL the Pi Zero's replay differs from the host's ($host)"
        exit 1
    fi
fi
