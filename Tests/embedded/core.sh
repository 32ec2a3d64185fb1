#!/bin/bash
# The pure core (JSON, AmbienceCore), the record (AmbienceRecord) and the replay made of them
# (Tests/embedded/main.swift), compiled in Embedded Swift without Glibc for one target into DIR:
# libJSON.a, libAmbienceCore.a, libAmbienceRecord.a and replay.o. The caller links them: Tests/embedded/run.sh for the host,
# Tests/embedded/replay-armv6.sh statically with musl for the Pi Zero's ARMv6.
#   Tests/embedded/core.sh DIR TARGET [SWIFTC-FLAG...]
set -euo pipefail
dir=$1 target=$2
shift 2
root=$(cd "$(dirname "$0")/../.." && pwd)
swiftc=${SWIFTC:-swiftc}
flags=(-enable-experimental-feature Embedded -enable-experimental-feature Extern -wmo -Osize -target "$target" "$@"
    -I "$dir")
cd "$dir"
for module in JSON AmbienceCore AmbienceRecord; do
    mapfile -t sources < <(find "$root/Sources/$module" -name '*.swift' | sort)  # folders too
    "$swiftc" "${flags[@]}" -parse-as-library -module-name "$module" -emit-module -emit-library -static \
        "${sources[@]}" -o "lib$module.a"
done
"$swiftc" "${flags[@]}" -c "$root/Tests/embedded/main.swift" -o replay.o
