#!/bin/bash
# The pure core's replay for the Pi Zero's and Pi 1's ARMv6 core (ARM1176JZF-S, VFPv2,
# hard-float), linked statically with musl by zig: no libc of Debian's in it, since Debian's
# armhf libc is ARMv7. Into DIR/replay-armv6, for make dist-test (under qemu-arm -cpu arm1176)
# and the Pi Zero W's own kernel (rig/raspi/run.sh with RASPI_MACHINE=raspi0).
#   Tests/embedded/replay-armv6.sh DIR
set -euo pipefail
dir=${1:?usage: Tests/embedded/replay-armv6.sh DIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
export PATH=/opt/swift/usr/bin:$PATH
mkdir -p "$dir"
lib=$(dirname "$(dirname "$(command -v swiftc)")")/lib/swift/embedded/armv6-none-none-eabi
"$root/Tests/embedded/core.sh" "$dir" armv6-none-none-eabi -Xcc -mcpu=arm1176jzf-s -Xcc -mfpu=vfpv2 \
    -Xcc -mfloat-abi=hard
"$root/scripts/zig.sh" cc -target arm-linux-musleabihf -mcpu=arm1176jzf_s -O2 -c "$root/embedded/strtod.c" \
    -o "$dir/strtod.o"
"$root/scripts/zig.sh" cc -target arm-linux-musleabihf -mcpu=arm1176jzf_s -static "$dir/replay.o" "$dir/strtod.o" \
    -L "$dir" -lAmbienceRecord -lAmbienceCore -lJSON -L "$lib" -lswiftUnicodeDataTables -lm -o "$dir/replay-armv6"
