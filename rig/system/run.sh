#!/bin/bash
# Boots the system rig's guest (rig/system/setup.sh first) with a fresh copy of its root as
# /dev/vda and PAYLOAD, a directory holding guest.sh (and what it needs), as /dev/vdb; the
# guest's rig-checks.service runs /dev/vdb's guest.sh once the system is up. The guest may
# reboot (QEMU boots it again, same disks) and ends by powering off. A guest that prints
# "rig: cut-now", or "rig: cut-after MIN MAX" (a delay between MIN and MAX seconds, picked here),
# has its power cut: QEMU killed, no shutdown, no sync, the guest's page cache gone; then it is
# booted again on the same disks; after "rig: next-boot overlay-root" that boot has its root as
# Raspberry Pi OS's overlay file system makes it (rig/system/guest/etc/rig/overlay-init). Each
# line the guest writes to its console goes to RIG_LOG; the lines starting with "rig: " are shown
# as they come.
# Exits 0 when the guest printed "rig: N passed, 0 failed", 1 otherwise, or when SYSTEM_RIG_TIMEOUT
# seconds (default 2700 on amd64, 3600 on Arm) pass first.
#
#   rig/system/run.sh PAYLOAD-DIR [SUITE ARCH]      trixie amd64 the default (rig/system/setup.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
payload=${1:?usage: rig/system/run.sh PAYLOAD-DIR [SUITE ARCH]}
suite=${2:-trixie}
arch=${3:-amd64}
# shellcheck source=rig/system/lib.sh
. "$here/lib.sh"
root=$(system_rig_root "$suite" "$arch")
out=$(system_rig_dir "$suite" "$arch")
[ "$arch" = amd64 ] && timeout=${SYSTEM_RIG_TIMEOUT:-2700} || timeout=${SYSTEM_RIG_TIMEOUT:-3600}
kver=$(cat "$out/kernel-version" 2>/dev/null) || { echo "rig: run rig/system/setup.sh first" >&2; exit 1; }
run=$out/run
rm -rf "$run"
mkdir -p "$run"
log=${RIG_LOG:-$run/console.log}

started=$(date +%s.%N)
elapsed() { awk -v now="$(date +%s.%N)" -v then="$started" 'BEGIN { printf "%.0f", now - then }'; }
# The disks, without a loop mount: mke2fs copies the directory's tree into the image.
size=$(($(du -sm "$root" | cut -f1) + 768))
mke2fs -q -t ext4 -L root -d "$root" "$run/root.img" "${size}M" >/dev/null
mke2fs -q -t ext4 -L rig -d "$payload" "$run/rig.img" "$(($(du -sm "$payload" | cut -f1) + 64))M" >/dev/null
echo "rig: disks made in $(elapsed) s" >&2

# Software emulation (this host's /dev/kvm cannot run a stock kernel). No -no-reboot: a reboot
# in the guest boots it again; its power-off ends QEMU.
set +e
memory=3072M
if [ "$arch" = arm64 ]; then
    # QEMU's arm64 board; pauth-impdef: the same pointer authentication, far cheaper to emulate.
    # shellcheck disable=SC2054 # -cpu takes one word, its options after commas
    machine=(qemu-system-aarch64 -M virt -accel tcg -cpu max,pauth-impdef=on)
    console=ttyAMA0
elif [ "$arch" = armhf ]; then
    # The armhf rig's board (rig/run.sh): 32-bit virt, its RAM below 4 GB, an ARMv7 core.
    machine=(qemu-system-arm -M "virt,highmem=off" -accel tcg -cpu cortex-a15)
    console=ttyAMA0 memory=2048M
else
    # A standard VGA card (bochs-drm): the DRM device and virtual terminals the kiosk's
    # compositor takes, as a Pi's HDMI output gives them.
    machine=(qemu-system-x86_64 -M pc -accel tcg -cpu max -device VGA)
    console=ttyS0
fi
# The console's "rig: " lines shown, and the cuts the guest asks for made.
watch_console() {
    local line delay qemu min max
    while IFS= read -r line; do
        [[ $line == *"rig: "* ]] || continue
        line="rig: ${line#*rig: }"
        case $line in
            "rig: cut-now" | "rig: cut-after "*)
                [ ! -e "$run/cut" ] || continue
                read -r _ _ min max <<<"$line"
                delay=$(awk -v a="${min:-0}" -v b="${max:-0}" 'BEGIN { srand(); printf "%.2f", a + rand() * (b - a) }')
                echo "rig: power cut $delay s after the guest asked ($line), at $(elapsed) s"
                touch "$run/cut"
                qemu=$(cat "$run/qemu.pid")
                (sleep "$delay" && kill -KILL "$qemu") &
                ;;
            "rig: next-boot overlay-root") touch "$run/overlay-next" ;;
            *) echo "$line" ;;
        esac
    done
}
: >"$log"
deadline=$(($(date +%s) + timeout))
cuts=0
while :; do
    rm -f "$run/cut" "$run/qemu.pid"
    append="root=/dev/vda rw console=$console quiet loglevel=3 panic=-1 systemd.show_status=error"
    if [ -e "$run/overlay-next" ]; then
        rm "$run/overlay-next"
        # Everything after "--" is init's: the initramfs runs the script on the disk's root.
        append+=" init=/bin/sh -- /etc/rig/overlay-init"
        echo "rig: this boot with the overlay root"
    fi
    timeout --kill-after=10 "$((deadline - $(date +%s)))" "${machine[@]}" -m "$memory" -smp 2 \
        -display none -nodefaults -serial stdio -monitor none -pidfile "$run/qemu.pid" \
        -drive "file=$run/root.img,format=raw,if=virtio" -drive "file=$run/rig.img,format=raw,if=virtio" \
        -kernel "$root/boot/vmlinuz-$kver" -initrd "$root/boot/initrd.img-$kver" \
        -append "$append" </dev/null | sed -u 's/\r$//' | tee -a "$log" | watch_console
    statuses=("${PIPESTATUS[@]}")
    if [ ! -e "$run/cut" ] || [ "$(date +%s)" -ge "$deadline" ]; then break; fi
    cuts=$((cuts + 1))
done
set -e
if [ "${statuses[0]}" = 124 ] || [ "${statuses[0]}" = 137 ]; then
    echo "rig: FAIL the guest did not finish within ${timeout}s (console: $log)"
    exit 1
fi
echo "rig: guest ran for $(elapsed) s in all, $cuts power cuts (console: $log)" >&2
summary=$(grep -ao 'rig: [0-9]* passed, [0-9]* failed' "$log" | tail -n 1)
[ -n "$summary" ] || { echo "rig: FAIL the guest reported no result (console: $log)"; exit 1; }
[[ $summary =~ ,\ 0\ failed ]]
