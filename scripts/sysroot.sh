#!/bin/bash
# A sysroot for cross-building the Embedded programs (scripts/embedded-build.sh, ARCH and SYSROOT):
# one Debian suite's headers and libraries for one architecture, the packages below and what they
# depend on unpacked (not installed: nothing runs), outside the repository so CI runs share it:
# ${AMBIENCE_ROOTS:-/var/cache/ambience/roots}/sysroot-SUITE-ARCH. Prints its path last.
#
#   scripts/sysroot.sh SUITE ARCH        (bookworm|trixie, arm64|armhf|amd64)
#
# Made once (about 30 MB, 10 s from the mirror); remade when this list changes.
set -euo pipefail
suite=${1:?suite} arch=${2:?arch}
here=$(cd "$(dirname "$0")" && pwd)
roots=${AMBIENCE_ROOTS:-/var/cache/ambience/roots}
root=$roots/sysroot-$suite-$arch
# glibc's headers, start files and the compiler's libgcc (the suite's gcc), and the four libraries.
case $suite in bookworm) gcc=libgcc-12-dev ;; trixie) gcc=libgcc-14-dev ;; *) echo "sysroot: no suite $suite" >&2; exit 2 ;; esac
packages=(libc6-dev "$gcc" libgpiod-dev libi2c-dev libmicrohttpd-dev libmosquitto-dev)
stamp=$root/.ambience-packages
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "${packages[*]}" ]; then echo "$root"; exit 0; fi

mkdir -p "$roots"
exec 9>"$roots/sysroot-$suite-$arch.lock"
flock 9
# shellcheck source=scripts/debian-apt.sh
. "$here/debian-apt.sh"
trap 'debian_apt_end; rm -rf "$root.new"' EXIT
debian_apt_begin "$suite" "$arch"
rm -rf "$root.new"
debian_apt_unpack "$root.new" "${packages[@]}"
echo "${packages[*]}" >"$root.new/.ambience-packages"
rm -rf "$root"
mv "$root.new" "$root"
echo "$root"
