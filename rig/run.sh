#!/bin/bash
# Boots Debian's kernel in QEMU with the host's root shared read-only, runs COMMAND as root in
# the guest (a bash command line; working directory: the repo), streams its output, and exits
# with COMMAND's exit status: 255 if the guest never reported one (it did not boot, crashed,
# or ran out of time). Needs rig/setup.sh first.
#
#   rig/run.sh [COMMAND]          default: set up the fixtures and describe them
#
# Environment:
#   RIG_DIR        build products (default <repo>/.rig)
#   RIG_TIMEOUT    seconds before a guest is given up on (default 1200: a hang guard; the
#                  scenarios take 6 to 10 minutes here, more beside other emulated guests)
#   RIG_SMP        virtual CPUs (default 2)
#   RIG_ACCEL      kvm or tcg (default: kvm where the host really has hardware KVM)
#   RIG_ARCH       amd64 (default), arm64 or armhf: Debian 13's kernel for it on QEMU's virt
#                  board (qemu-system-aarch64, or qemu-system-arm with a Cortex-A15; always
#                  software emulation), with the Debian 13 root of that architecture at RIG_ROOT
#                  as the guest's root (one throw-away overlay over all of it) and the repo and
#                  RIG_DIR shared at their host paths (RIG_ARCH=arm64 rig/setup.sh)
#   RIG_MEMORY     guest memory (default 1G on amd64, 1536M on arm64 and armhf: the overlay
#                  lives in it)
#   RIG_OVERLAY    root: on amd64 too, one throw-away overlay over the whole shared root, so a
#                  package can be installed in the guest (the Arm guests always have it)
# The guest's command sees RIG_DIR, RIG_REPO and RIG_ARCH too.
set -euo pipefail
# shellcheck source=rig/lib.sh
source "$(dirname "$0")/lib.sh"

RIG_TIMEOUT=${RIG_TIMEOUT:-1200}
RIG_SMP=${RIG_SMP:-2}
# The kernel command line holds at most 2048 bytes; leave room for the rest of it.
MAX_ENCODED_COMMAND=1700

# Hardware KVM only: this kind of builder has a /dev/kvm (a paravirtual one) that cannot run a
# stock kernel, so the device alone proves nothing; the vendor module being loaded does.
pick_accelerator() {
    if [ -n "${RIG_ACCEL:-}" ]; then
        echo "$RIG_ACCEL"
    elif [ -r /dev/kvm ] && [ -w /dev/kvm ] &&
        { [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]; }; then
        echo kvm
    else
        echo tcg
    fi
}

accelerator_options() {
    case $1 in
    kvm) echo "-accel kvm -cpu host" ;;
    tcg) echo "-accel tcg -cpu max" ;;
    *) rig_die "RIG_ACCEL must be kvm or tcg, not $1" ;;
    esac
}

# The script the guest runs, base64-encoded for the kernel command line.
encoded_guest_script() {
    local command=$1 encoded
    # shellcheck disable=SC2016 # $RIG_REPO is for the guest's shell to expand
    encoded=$(printf 'export RIG_DIR=%q RIG_REPO=%q RIG_ARCH=%q\ncd "$RIG_REPO"\n%s\n' \
        "$RIG_DIR" "$RIG_REPO" "$RIG_ARCH" "$command" | base64 -w0)
    [ ${#encoded} -le $MAX_ENCODED_COMMAND ] ||
        rig_die "command too long for the kernel command line: put it in a script"
    echo "$encoded"
}

# qboot and the uncompressed vmlinux: the guest reaches /init in a few seconds even under
# emulation. The host's / is shared read-only (multidevs=remap: it spans several filesystems).
boot_guest() {
    local kdir=$1 accelerator=$2 append=$3
    # shellcheck disable=SC2046 # accelerator_options is a list of words
    timeout --kill-after=10 "$RIG_TIMEOUT" \
        qemu-system-x86_64 -M pc $(accelerator_options "$accelerator") \
        -bios /usr/share/qemu/qboot.rom -m "${RIG_MEMORY:-1G}" -smp "$RIG_SMP" \
        -display none -no-reboot -nodefaults -serial stdio -monitor none \
        -fsdev local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap \
        -device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot \
        -kernel "$kdir/vmlinux" -initrd "$kdir/initrd.gz" \
        -append "$append" </dev/null
}

# The directories the Arm guests get besides the root, as TAG:PATH: the repo, and RIG_DIR when
# it is not inside the repo. Mounted at the same paths in the guest (rig.shares).
arm_shares() {
    echo "repo:$RIG_REPO"
    case $RIG_DIR/ in
    "$RIG_REPO"/*) ;;
    *) echo "rigdir:$RIG_DIR" ;;
    esac
}

# arm64 and armhf: -M virt, Debian's kernel image as it is, the console on the PL011 (ttyAMA0).
# Always software emulation (TCG) on this host; arm64's pauth-impdef: QEMU's own
# pointer-authentication algorithm, much cheaper to emulate than the architected one; armhf's
# Cortex-A15, the ARMv7 core armmp's kernel and Debian's armhf userland expect. The root and the
# shares read-only.
boot_arm_guest() {
    local kdir=$1 append=$2 share tag path shares=() machine
    case $RIG_ARCH in
    armhf) machine=(qemu-system-arm -M "virt,highmem=off" -accel tcg -cpu cortex-a15) ;;
    *) machine=(qemu-system-aarch64 -M virt -accel tcg -cpu "max,pauth-impdef=on") ;;
    esac
    while read -r share; do
        tag=${share%%:*} path=${share#*:}
        shares+=(-fsdev "local,id=$tag,path=$path,security_model=none,readonly=on,multidevs=remap"
            -device "virtio-9p-pci,fsdev=$tag,mount_tag=$tag")
    done < <(echo "hostroot:$RIG_ROOT"; arm_shares)
    timeout --kill-after=10 "$RIG_TIMEOUT" \
        "${machine[@]}" \
        -m "${RIG_MEMORY:-1536M}" -smp "$RIG_SMP" \
        -display none -no-reboot -nodefaults -serial stdio -monitor none \
        "${shares[@]}" \
        -kernel "$kdir/$(rig_kernel_image)" -initrd "$kdir/initrd.gz" \
        -append "$append" </dev/null
}

# Copies the guest's output through (without the serial line's carriage returns) and exits
# with the status the guest reported under the nonce's marker.
relay_output() {
    local nonce=$1 line status=255
    while IFS= read -r line || [ -n "$line" ]; do
        line=${line%$'\r'}
        case $line in
        *"rig-exit-$nonce="*) # mid-line when the command's output did not end with one
            [ -z "${line%%rig-exit-*}" ] || printf '%s\n' "${line%%rig-exit-*}"
            status=${line##*"rig-exit-$nonce="} ;;
        *"] reboot: Power down") ;; # the kernel's last word, even when quiet
        *) printf '%s\n' "$line" ;;
        esac
    done
    [[ $status =~ ^[0-9]+$ ]] || status=255
    return "$status"
}

main() {
    local command=${*:-source rig/guest/fixtures.sh && rig_describe_fixtures}
    local kver kdir accelerator nonce append status
    local kernel qemu=qemu-system-x86_64 console=ttyS0 share
    kernel=$(rig_kernel_image)
    case $RIG_ARCH in
    arm64) qemu=qemu-system-aarch64 console=ttyAMA0 ;;
    armhf) qemu=qemu-system-arm console=ttyAMA0 ;;
    esac
    kver=$(rig_prepared_kernel)
    kdir=$(rig_kernel_dir "$kver")
    if [ ! -r "$kdir/$kernel" ] || [ ! -r "$kdir/initrd.gz" ]; then
        rig_die "$kdir is incomplete: run RIG_ARCH=$RIG_ARCH rig/setup.sh"
    fi
    command -v "$qemu" >/dev/null || rig_die "no $qemu: run RIG_ARCH=$RIG_ARCH rig/setup.sh"
    accelerator=$(pick_accelerator)
    nonce=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
    # panic=-1 and -no-reboot: a kernel panic ends QEMU at once instead of hanging.
    append="console=$console quiet loglevel=1 panic=-1 rig.nonce=$nonce"
    if [ "$RIG_ARCH" != amd64 ]; then
        accelerator=tcg
        [ -x "$RIG_ROOT/usr/bin/apt-get" ] || rig_die "no $RIG_ARCH root at $RIG_ROOT"
        for share in $(arm_shares); do
            [[ $share =~ ^[a-z]+:/[A-Za-z0-9._/+-]*$ ]] ||
                rig_die "cannot share ${share#*:} with the guest (commas, colons or spaces in the path)"
        done
        append+=" rig.overlay=root rig.shares=$(arm_shares | paste -sd,)"
    fi
    if [ "$RIG_ARCH" = amd64 ] && [ "${RIG_OVERLAY:-}" = root ]; then
        append+=" rig.overlay=root"
    fi
    append+=" rig.cmd=$(encoded_guest_script "$command")"
    echo "rig: booting $RIG_ARCH $kver ($accelerator, $RIG_SMP CPUs, timeout ${RIG_TIMEOUT}s)" >&2
    set +e
    if [ "$RIG_ARCH" = amd64 ]; then
        boot_guest "$kdir" "$accelerator" "$append"
    else
        boot_arm_guest "$kdir" "$append"
    fi | relay_output "$nonce"
    local statuses=("${PIPESTATUS[@]}")
    set -e
    status=${statuses[1]}
    if [ "${statuses[0]}" = 124 ]; then
        echo "rig: the guest did not finish within ${RIG_TIMEOUT}s" >&2
    fi
    [ "$status" != 255 ] || echo "rig: the guest reported no exit status" >&2
    exit "$status"
}

main "$@"
