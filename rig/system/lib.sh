# shellcheck shell=bash
# Sourced by the system rig's scripts: where the rig of SUITE and ARCH keeps its guest's root
# (outside the repository, shared by clones) and its products (under RIG_DIR, default .rig).
system_rig_root() {  # system_rig_root SUITE ARCH
    echo "${AMBIENCE_ROOTS:-/var/cache/ambience/roots}/$1-$2-system"
}
system_rig_dir() {  # system_rig_dir SUITE ARCH
    local base
    base=$(realpath -m "${RIG_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/.rig}")/system
    if [ "$1-$2" = trixie-amd64 ]; then echo "$base"; else echo "$base-$1-$2"; fi
}
# Runs COMMAND... as root in the root at ROOT, with /proc, /sys and /dev, in a mount namespace of
# its own: the mounts vanish with the command, whatever happens.
in_system_root() {  # in_system_root ROOT COMMAND...
    # shellcheck disable=SC2016 # a script for the new namespace's bash, with its own arguments
    unshare --mount --propagation private /bin/bash -euc '
        root=$1
        shift
        mount -t proc proc "$root/proc"
        mount -t sysfs sysfs "$root/sys"
        mount --rbind /dev "$root/dev"
        exec chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"
    ' in_system_root "$@"
}
