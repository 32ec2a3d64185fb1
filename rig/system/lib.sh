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
