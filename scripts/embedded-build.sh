#!/bin/bash
# Builds programs in Embedded Swift from the same sources as the SwiftPM build: each module a
# static library (whole-module, -Osize), the program linked against them, the C shims and the
# system's libraries. Which modules, shims and libraries a program takes is read from Package.swift
# (scripts/embedded-plan.py): no second list. Embedded Swift has no Glibc overlay: embedded/Glibc
# is the module `import Glibc` finds here, embedded/strtod.c the one runtime hook Double(String)
# needs, and embedded/bridge-object-retain.c a fix to the embedded runtime (see there).
#   scripts/embedded-build.sh [--lint] [PROGRAM...]    default: every program the package installs
#   scripts/embedded-build.sh --fuzz                   every fuzz target under Fuzz/, each linked
#       with embedded/fuzz-main.c, which gives its entry every file named on its command line
#       (Tests/embedded/run.sh replays the corpora through them)
# Products in .build/embedded/x86_64 (OUT to change): PROGRAM, and PROGRAM.stripped beside it.
# ARCH=aarch64 or ARCH=armv6 with SYSROOT=DIR cross-builds for a Pi (make dist, scripts/dist.sh):
# Swift compiled for the toolchain's bare-metal triple of that core, with the target's Linux
# macros and the sysroot's headers (its glibc and the four libraries); C with the toolchain's
# clang for the Linux triple; linked by zig (scripts/zig.sh), which compiles glibc's start files
# and the compiler's runtime for the same core (Debian's armhf ones are ARMv7 and Thumb-2, which
# a Pi Zero traps on) and links against the sysroot's shared libraries, as a PIE bound at load.
# DEFINES: the target's C macros for Swift's view of the headers and the C shims alike (dist.sh:
# 64-bit file offsets, and trixie's 64-bit time_t on armhf); a change of them rebuilds everything.
# --lint builds the same modules unoptimised, with line tables, into .build/embedded/lint, links
# nothing, and fails naming each interpolation Embedded Swift cannot print
# (scripts/embedded-interpolation-lint.py): the compiler does not warn of them.
set -euo pipefail
lint='' fuzz=''
if [ "${1:-}" = --lint ]; then lint=1 && shift; fi
if [ "${1:-}" = --fuzz ]; then fuzz=1 && shift; fi
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
SWIFTC=${SWIFTC:-swiftc}
SWIFT=${SWIFT:-$(dirname "$(command -v "$SWIFTC")")/swift}
ARCH=${ARCH:-x86_64}
OUT=${OUT:-$ROOT/.build/embedded/$([ -n "$lint" ] && echo lint || echo x86_64)}
# The C compiler, the libraries' pkg-config and the link: the host's, or the target's in SYSROOT.
cc=(cc) link=()
case $ARCH in
x86_64) TARGET=x86_64-unknown-linux-gnu ;;
aarch64) TARGET=aarch64-none-none-elf gnu=aarch64-linux-gnu cpu=(-mcpu=cortex-a53) zig=aarch64-linux-gnu:cortex_a53 ;;
# One 32-bit build for every 32-bit Pi: the Pi Zero's and Pi 1's ARM1176 (ARMv6, VFPv2).
armv6) TARGET=armv6-none-none-eabi gnu=arm-linux-gnueabihf cpu=(-mcpu=arm1176jzf-s -mfpu=vfpv2 -mfloat-abi=hard)
    zig=arm-linux-gnueabihf:arm1176jzf_s ;;
*) echo "embedded-build: ARCH must be x86_64, aarch64 or armv6" >&2; exit 2 ;;
esac
EMBEDDED_LIB=$(dirname "$(dirname "$(command -v "$SWIFTC")")")/lib/swift/embedded/$TARGET
mkdir -p "$OUT/modulemaps"
# A scratch path of its own: the manifest is read while a swift build holds .build. The fuzz
# targets are in it only when asked for (Package.swift).
if [ -n "$fuzz" ]; then export AMBIENCE_FUZZ=1; else unset AMBIENCE_FUZZ; fi
"$SWIFT" package --scratch-path "$OUT/manifest${fuzz:+-fuzz}" dump-package >"$OUT/package.json"

optimisation=(-Osize)
[ -z "$lint" ] || optimisation=(-Onone -g)
# Swift 6, as Package.swift's tools version makes the SwiftPM build.
flags=(-enable-experimental-feature Embedded -enable-experimental-feature Extern -wmo -swift-version 6 "${optimisation[@]}"
    -target "$TARGET" -package-name ambience -I "$OUT" -I "$ROOT/embedded/Glibc")
# shellcheck disable=SC2206 # DEFINES is a list of -D words
defines=(${DEFINES:-})
for flag in "${defines[@]}"; do flags+=(-Xcc "$flag"); done
cc+=("${defines[@]}")
# What the flags were: a build made with others is stale as a whole.
if [ ! -f "$OUT/defines" ] || [ "$(cat "$OUT/defines")" != "${defines[*]}" ]; then echo "${defines[*]}" >"$OUT/defines"; fi
if [ "$ARCH" != x86_64 ]; then
    [ -f "${SYSROOT:?a cross build needs SYSROOT}/usr/include/$gnu/bits/types.h" ] ||
        { echo "embedded-build: $SYSROOT is no $gnu sysroot (scripts/sysroot.sh)" >&2; exit 1; }
    glibc=$(sed -n 's/^#define[[:space:]]*__GLIBC_MINOR__[[:space:]]*\([0-9]*\)/2.\1/p' "$SYSROOT/usr/include/features.h")
    # The bare-metal triple lacks what glibc's headers test for Linux.
    for flag in "${cpu[@]}" -D__linux__ -D__gnu_linux__ -D__unix__ -isystem "$SYSROOT/usr/include/$gnu" \
        -isystem "$SYSROOT/usr/include"; do flags+=(-Xcc "$flag"); done
    cc=(clang "--target=$gnu" "--sysroot=$SYSROOT" "${cpu[@]}" "${defines[@]}")
    # zig's glibc is the suite's version: no symbol newer than the target's libc is linked.
    link=("$ROOT/scripts/zig.sh" cc -target "${zig%:*}.$glibc" -mcpu="${zig#*:}" -fPIE -pie
        -L "$SYSROOT/usr/lib/$gnu")
    export PKG_CONFIG_SYSROOT_DIR=$SYSROOT PKG_CONFIG_LIBDIR=$SYSROOT/usr/lib/$gnu/pkgconfig:$SYSROOT/usr/share/pkgconfig
fi

"${cc[@]}" -c -O2 "$ROOT/embedded/strtod.c" -o "$OUT/strtod.o"
"${cc[@]}" -c -O2 "$ROOT/embedded/bridge-object-retain.c" -o "$OUT/bridge-object-retain.o"
# stale OUTPUT INPUT...: OUTPUT is missing, or an input (a file, or a directory's files) is newer.
stale() { [ ! -f "$1" ] || [ -n "$(find "${@:2}" -newer "$1" -print -quit)" ]; }

if stale "$OUT/libGlibc.a" embedded/Glibc "$0" "$OUT/defines"; then
    "$SWIFTC" "${flags[@]}" -parse-as-library -module-name Glibc -emit-module -emit-library -static \
        "$ROOT/embedded/Glibc/Glibc.swift" -o "$OUT/libGlibc.a"
fi
programs=("$@")
if [ -n "$fuzz" ]; then
    for directory in Fuzz/*/; do
        [ "$(basename "$directory")" = corpus ] || programs+=("Fuzz$(basename "$directory")")
    done
    "${cc[@]}" -c -O2 "$ROOT/embedded/fuzz-main.c" -o "$OUT/fuzz-main.o"
elif [ ${#programs[@]} = 0 ]; then
    # shellcheck source=scripts/layout.sh
    . scripts/layout.sh
    programs=(ambience)
    for name in $PROGRAMS; do programs+=("ambience-$name"); done
fi
built=" " rebuilt=
for program in "${programs[@]}"; do
    plan=$(scripts/embedded-plan.py "$program" <"$OUT/package.json")
    modules=() objects=() libraries=() cflags=()
    while read -r kind name directory pkg; do
        case $kind in
        system)
            # A system library: its module map as it is, its library as the map links it, and
            # pkg-config's flags where the manifest names a package (libgpiod 2 in a prefix).
            flags+=(-I "$ROOT/$directory")
            mapfile -t -O "${#libraries[@]}" libraries < <(sed -n 's/^ *link "\(.*\)".*/-l\1/p' "$directory/module.modulemap")
            if [ "$pkg" != - ]; then
                # shellcheck disable=SC2207 # pkg-config's flags are words
                cflags+=($(pkg-config --cflags "$pkg")) libraries=($(pkg-config --libs-only-L "$pkg") "${libraries[@]}")
            fi
            ;;
        c)
            # SwiftPM makes a module map for a C target's include directory; so does this.
            mkdir -p "$OUT/modulemaps/$name"
            printf 'module %s {\n    header "%s"\n    export *\n}\n' "$name" "$(ls "$ROOT/$directory"/include/*.h)" \
                >"$OUT/modulemaps/$name/module.modulemap"
            flags+=(-I "$OUT/modulemaps/$name")
            "${cc[@]}" -c -O2 -I "$directory/include" "${cflags[@]}" "$directory"/*.c -o "$OUT/$name.o"
            objects+=("$OUT/$name.o")
            ;;
        swift)
            modules+=("-l$name")
            case $built in *" $name "*) continue ;; esac
            mapfile -t sources < <(find "$directory" -name '*.swift' | sort)
            # Up to date: built before from sources (and by this script) no newer, and nothing
            # below it rebuilt now. The directory itself counts: a file moved out of it changes
            # its time, and no source left in it.
            if [ -z "$rebuilt" ] && ! stale "$OUT/lib$name.a" "$directory" embedded/Glibc "$0" "$OUT/defines"; then
                built+="$name "
                continue
            fi
            rebuilt=1
            echo "embedded-build: $name"
            # Code generation on every core (a third faster on two); the optimiser stays one thread.
            "$SWIFTC" "${flags[@]}" -num-threads "$(nproc)" -parse-as-library -module-name "$name" -emit-module \
                -emit-library -static "${sources[@]}" -o "$OUT/lib$name.a"
            touch "$OUT/lib$name.a"
            built+="$name "
            ;;
        program)
            mapfile -t sources < <(find "$directory" -name '*.swift' | sort)
            # The program's own module, compiled apart from the link: the gpiod2 build (its
            # modules copied) and a build with nothing changed only link again.
            object=$OUT/$program.o
            libraries_built=()
            for module in "${modules[@]#-l}"; do libraries_built+=("$OUT/lib$module.a"); done
            # A fuzz target has no main of its own: fuzz-main.o is its.
            entry=() main=()
            [ -z "$fuzz" ] || entry=(-parse-as-library) main=("$OUT/fuzz-main.o")
            if stale "$object" "$directory" "${libraries_built[@]}" embedded/Glibc "$0" "$OUT/defines"; then
                echo "embedded-build: $program"
                "$SWIFTC" "${flags[@]}" "${entry[@]}" "${sources[@]}" -emit-object -o "$object"
                # The compiler leaves an output it would write the same untouched: its time is
                # what says it is up to date.
                touch "$object"
            fi
            if [ -n "$lint" ]; then
                # Linted before, and nothing it read changed since: not read again.
                if stale "$object.linted" "$object" "${libraries_built[@]}" scripts/embedded-interpolation-lint.py; then
                    llvm-objdump -d -l -r --no-show-raw-insn "$object" "${libraries_built[@]}" |
                        swift-demangle | scripts/embedded-interpolation-lint.py
                    touch "$object.linted"
                fi
                echo "embedded-build: $program interpolates only what Embedded Swift prints"
                continue
            fi
            # --gc-sections: the Unicode tables are one object, and most of it (the scalars'
            # names, 230 kB) nothing here reads; without it ambience-run is 1.47 MB stripped.
            # The host's link is swiftc's, with the flags the loop has gathered; both take -Xlinker.
            [ "$ARCH" != x86_64 ] || link=("$SWIFTC" "${flags[@]}")
            "${link[@]}" "$object" "${main[@]}" "${objects[@]}" "$OUT/strtod.o" "$OUT/bridge-object-retain.o" -L "$OUT" \
                -Xlinker --gc-sections -Xlinker -z -Xlinker now -Xlinker --start-group -lGlibc "${modules[@]}" \
                -Xlinker --end-group -L "$EMBEDDED_LIB" -lswiftUnicodeDataTables "${libraries[@]}" -lm -o "$OUT/$program"
            llvm-objcopy --strip-all "$OUT/$program" "$OUT/$program.stripped"
            echo "embedded-build: $OUT/$program ($(stat -c %s "$OUT/$program.stripped") bytes stripped)"
            ;;
        esac
    done <<<"$plan"
done
