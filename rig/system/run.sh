#!/bin/bash
# Boots the system rig's guest (rig/system/setup.sh first) with a fresh copy of its root as
# /dev/vda and PAYLOAD, a directory holding guest.sh (and what it needs), as /dev/vdb; the
# guest's rig-checks.service runs /dev/vdb's guest.sh once the system is up. The guest may
# reboot (QEMU boots it again, same disks) and ends by powering off. Each line the guest writes
# to its console goes to RIG_LOG; the lines starting with "rig: " are shown as they come.
# Exits 0 when the guest printed "rig: N passed, 0 failed", 1 otherwise, or when SYSTEM_RIG_TIMEOUT
# seconds (default 1800 on amd64, 3600 on arm64) pass first.
#
#   rig/system/run.sh PAYLOAD-DIR [ARCH]      ARCH: amd64 (the default) or arm64
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
payload=${1:?usage: rig/system/run.sh PAYLOAD-DIR [ARCH]}
arch=${2:-amd64}
roots=${AMBIENCE_ROOTS:-/var/cache/ambience/roots}
root=$roots/trixie-$arch-system
out=$(realpath -m "${RIG_DIR:-$repo/.rig}")/system
[ "$arch" = amd64 ] || out=$out-$arch
[ "$arch" = amd64 ] && timeout=${SYSTEM_RIG_TIMEOUT:-1800} || timeout=${SYSTEM_RIG_TIMEOUT:-3600}
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
if [ "$arch" = arm64 ]; then
    # QEMU's arm64 board; pauth-impdef: the same pointer authentication, far cheaper to emulate.
    # shellcheck disable=SC2054 # -cpu takes one word, its options after commas
    machine=(qemu-system-aarch64 -M virt -accel tcg -cpu max,pauth-impdef=on)
    console=ttyAMA0
else
    # A standard VGA card (bochs-drm): the DRM device and virtual terminals the kiosk's
    # compositor takes, as a Pi's HDMI output gives them.
    machine=(qemu-system-x86_64 -M pc -accel tcg -cpu max -device VGA)
    console=ttyS0
fi
timeout --kill-after=10 "$timeout" "${machine[@]}" -m 2048M -smp 2 \
    -display none -nodefaults -serial stdio -monitor none \
    -drive "file=$run/root.img,format=raw,if=virtio" -drive "file=$run/rig.img,format=raw,if=virtio" \
    -kernel "$root/boot/vmlinuz-$kver" -initrd "$root/boot/initrd.img-$kver" \
    -append "root=/dev/vda rw console=$console quiet loglevel=3 panic=-1 systemd.show_status=error" \
    </dev/null | sed -u 's/\r$//' | tee "$log" | grep --line-buffered -ao 'rig: .*'
statuses=("${PIPESTATUS[@]}")
set -e
if [ "${statuses[0]}" = 124 ] || [ "${statuses[0]}" = 137 ]; then
    echo "rig: FAIL the guest did not finish within ${timeout}s (console: $log)"
    exit 1
fi
echo "rig: guest ran for $(elapsed) s in all (console: $log)" >&2
summary=$(grep -ao 'rig: [0-9]* passed, [0-9]* failed' "$log" | tail -n 1)
[ -n "$summary" ] || { echo "rig: FAIL the guest reported no result (console: $log)"; exit 1; }
[[ $summary =~ ,\ 0\ failed ]]
