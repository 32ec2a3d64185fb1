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
#   RIG_TIMEOUT    seconds before a guest is given up on (default 600)
#   RIG_SMP        virtual CPUs (default 2)
#   RIG_ACCEL      kvm or tcg (default: kvm where the host really has hardware KVM)
# The guest's command sees RIG_DIR and RIG_REPO too.
set -euo pipefail
# shellcheck source=rig/lib.sh
source "$(dirname "$0")/lib.sh"

RIG_TIMEOUT=${RIG_TIMEOUT:-600}
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
    encoded=$(printf 'export RIG_DIR=%q RIG_REPO=%q\ncd "$RIG_REPO"\n%s\n' \
        "$RIG_DIR" "$RIG_REPO" "$command" | base64 -w0)
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
        -bios /usr/share/qemu/qboot.rom -m 1G -smp "$RIG_SMP" \
        -display none -no-reboot -nodefaults -serial stdio -monitor none \
        -fsdev local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap \
        -device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot \
        -kernel "$kdir/vmlinux" -initrd "$kdir/initrd.gz" \
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
    kver=$(rig_prepared_kernel)
    kdir=$(rig_kernel_dir "$kver")
    if [ ! -r "$kdir/vmlinux" ] || [ ! -r "$kdir/initrd.gz" ]; then
        rig_die "$kdir is incomplete: run rig/setup.sh"
    fi
    command -v qemu-system-x86_64 >/dev/null || rig_die "no qemu-system-x86_64: run rig/setup.sh"
    accelerator=$(pick_accelerator)
    nonce=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
    # panic=-1 and -no-reboot: a kernel panic ends QEMU at once instead of hanging.
    append="console=ttyS0 quiet loglevel=1 panic=-1 rig.nonce=$nonce"
    append+=" rig.cmd=$(encoded_guest_script "$command")"
    echo "rig: booting $kver ($accelerator, $RIG_SMP CPUs, timeout ${RIG_TIMEOUT}s)" >&2
    set +e
    boot_guest "$kdir" "$accelerator" "$append" | relay_output "$nonce"
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
