#!/bin/bash
# Runs COMMAND inside the Debian root scripts/debian-root.sh made, with /proc, /sys, /dev and
# this repository (at /src, the working directory) mounted; AMBIENCE_BIND=HOST-DIR:ROOT-DIR binds
# one more directory (the cross build binds the arm64 root into the amd64 one). The mounts live in a private mount
# namespace, so they vanish with the command whatever happens; a trap unmounts them too.
#
#   scripts/in-root.sh SUITE ARCH COMMAND...     (as root)
set -euo pipefail

if [ $# -lt 3 ]; then
    echo "usage: $0 SUITE ARCH COMMAND..." >&2
    exit 2
fi
suite=$1 arch=$2
shift 2
root=${AMBIENCE_ROOTS:-/var/cache/ambience/roots}/$suite-$arch
repo=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -d "$root/usr" ]; then
    echo "$0: no root at $root: make it with scripts/debian-root.sh $suite $arch" >&2
    exit 1
fi

# Into a private mount namespace first (mounts made there are never seen by the host).
if [ -z "${AMBIENCE_IN_NAMESPACE:-}" ]; then
    AMBIENCE_IN_NAMESPACE=1 exec unshare --mount --propagation private "$0" "$suite" "$arch" "$@"
fi

mounted=()
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
    local i
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
        umount -l "${mounted[i]}" 2>/dev/null || true
    done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mount -t proc proc "$root/proc" && mounted+=("$root/proc")
mount -t sysfs sysfs "$root/sys" && mounted+=("$root/sys")
mount --rbind /dev "$root/dev" && mounted+=("$root/dev")
mkdir -p "$root/src"
if [ -z "${AMBIENCE_ROOT_NO_SRC:-}" ]; then
    mount --bind "$repo" "$root/src" && mounted+=("$root/src")
fi
if [ -n "${AMBIENCE_BIND:-}" ]; then
    mkdir -p "$root/${AMBIENCE_BIND#*:}"
    mount --bind "${AMBIENCE_BIND%%:*}" "$root/${AMBIENCE_BIND#*:}" && mounted+=("$root/${AMBIENCE_BIND#*:}")
fi

# Not exec: the trap runs after the command.
status=0
chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    /bin/sh -c 'cd /src && exec "$@"' sh "$@" || status=$?
exit $status
