#!/bin/bash
# A Debian root for building with Debian's own Swift (swiftlang), outside the repository so that
# CI runs on one machine share it: ${AMBIENCE_ROOTS:-/var/cache/ambience/roots}/SUITE-ARCH.
#
#   scripts/debian-root.sh SUITE ARCH [EXTRA-PACKAGES...]     (as root)
#   scripts/debian-root.sh --bare SUITE ARCH [PACKAGES...]    debootstrap's minbase and only the
#                                                             PACKAGES, in ROOTS/bare/SUITE-ARCH:
#                                                             a system to install ours in by apt,
#                                                             or to run a suite's tool from
#
# Idempotent: the packages installed are recorded in SUITE-ARCH/.ambience-packages; a run that
# asks for nothing new returns at once. A foreign ARCH (arm64 on amd64) runs through qemu-user
# (scripts/qemu-user.sh). Each step's time goes
# to stdout and to ROOTS/SUITE-ARCH.log. Run commands inside with scripts/in-root.sh.
set -euo pipefail

bare=
if [ "${1:-}" = --bare ]; then bare=1 && shift; fi
if [ $# -lt 2 ]; then
    echo "usage: $0 [--bare] SUITE ARCH [EXTRA-PACKAGES...]" >&2
    exit 2
fi
suite=$1 arch=$2
shift 2
roots=${AMBIENCE_ROOTS:-/var/cache/ambience/roots}
[ -z "$bare" ] || roots=$roots/bare
root=$roots/$suite-$arch
stamp=$root/.ambience-packages
log=$roots/$suite-$arch.log
mirror=${AMBIENCE_MIRROR:-http://deb.debian.org/debian}
here=$(cd "$(dirname "$0")" && pwd)

# What the package needs to build and test (Debian trixie's names; libmicrohttpd-dev for
# ambience-serve, libmosquitto-dev for ambience-mqtt; python3 for the TOML tests that compare
# with tomllib); then the caller's extras.
packages=(swiftlang libi2c-dev libgpiod-dev libmicrohttpd-dev libmosquitto-dev pkg-config libc6-dev
    libstdc++-14-dev python3 "$@")
[ -z "$bare" ] || packages=("$@")

# Nothing new asked for: done (the common case, well under a second).
up_to_date() {
    [ -f "$stamp" ] && [ -z "$(printf '%s\n' "${packages[@]}" | sort -u | comm -23 - <(sort -u "$stamp"))" ]
}
up_to_date && exit 0
# One run at a time per root (two CI jobs, make -j); the second finds the first one's work.
mkdir -p "$roots"
exec 9>"$roots/$suite-$arch.lock"
flock 9
up_to_date && exit 0

step() { # step NAME COMMAND...: runs and logs how long it took
    local name=$1 start end
    shift
    start=$(date +%s.%N)
    "$@"
    end=$(date +%s.%N)
    mkdir -p "$roots"
    printf '%s %s-%s %s: %.0f s\n' "$(date -u +%FT%TZ)" "$suite" "$arch" "$name" \
        "$(echo "$end - $start" | bc)" | tee -a "$log"
}

# The host's tools, with one apt-get update when something is missing (kmod: the system rig
# runs the host's depmod over its roots, rig/system/setup.sh).
host_arch=$(dpkg --print-architecture)
"$here/host-packages.sh" debootstrap bc kmod
[ "$arch" = "$host_arch" ] || "$here/qemu-user.sh" "$arch"

# The base system, made in a side directory and moved into place only when complete.
if [ ! -f "$root/.ambience-base" ]; then
    rm -rf "$root.partial"
    mkdir -p "$roots"
    step debootstrap debootstrap --arch="$arch" --variant=minbase "$suite" "$root.partial" "$mirror"
    # No services start inside; the host's resolver for apt.
    printf '#!/bin/sh\nexit 101\n' >"$root.partial/usr/sbin/policy-rc.d"
    chmod +x "$root.partial/usr/sbin/policy-rc.d"
    mkdir -p "$root.partial/src"
    touch "$root.partial/.ambience-base"
    rm -rf "$root"
    mv "$root.partial" "$root"
fi
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true

if [ ${#packages[@]} = 0 ]; then
    touch "$stamp"
    exit 0
fi
AMBIENCE_ROOTS=$roots AMBIENCE_ROOT_NO_SRC=1 step "apt-get install ${packages[*]}" "$here/in-root.sh" "$suite" "$arch" \
    sh -c 'apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=900 "$@" && apt-get clean' \
    sh "${packages[@]}"
{ [ -f "$stamp" ] && cat "$stamp"; printf '%s\n' "${packages[@]}"; } | sort -u >"$stamp.new"
mv "$stamp.new" "$stamp"
