#!/bin/bash
# Lets this host run ARCH's programs (arm64, armhf) as its own: qemu-user-static and binfmt-support
# installed when missing, binfmt_misc mounted, ARCH's handler enabled. A program linked against a
# root's libraries then runs with QEMU_LD_PREFIX=ROOT, or inside the root by chroot.
#   scripts/qemu-user.sh ARCH      (as root)
set -euo pipefail
case ${1:?arch} in
arm64) qemu=aarch64 ;;
armhf | armel) qemu=arm ;;
*) qemu=$1 ;;
esac
"$(dirname "$0")/host-packages.sh" qemu-user-static binfmt-support
mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
[ -e "/proc/sys/fs/binfmt_misc/qemu-$qemu" ] || update-binfmts --enable "qemu-$qemu"
