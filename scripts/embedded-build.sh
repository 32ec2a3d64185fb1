#!/bin/bash
# Builds programs in Embedded Swift from the same sources as the SwiftPM build: each module a
# static library (whole-module, -Osize), the program linked against them, the C shims and the
# system's libraries. Which modules, shims and libraries a program takes is read from Package.swift
# (scripts/embedded-plan.py): no second list. Embedded Swift has no Glibc overlay: embedded/Glibc
# is the module `import Glibc` finds here, and embedded/strtod.c the one runtime hook
# Double(String) needs.
#   scripts/embedded-build.sh [--lint] [PROGRAM...]    default: every program the package installs
# Products in .build/embedded/x86_64 (OUT to change): PROGRAM, and PROGRAM.stripped beside it.
# --lint builds the same modules unoptimised, with line tables, into .build/embedded/lint, links
# nothing, and fails naming each interpolation Embedded Swift cannot print
# (scripts/embedded-interpolation-lint.py): the compiler does not warn of them.
set -euo pipefail
lint=
if [ "${1:-}" = --lint ]; then lint=1 && shift; fi
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
SWIFTC=${SWIFTC:-swiftc}
SWIFT=${SWIFT:-$(dirname "$(command -v "$SWIFTC")")/swift}
TARGET=x86_64-unknown-linux-gnu
OUT=${OUT:-$ROOT/.build/embedded/$([ -n "$lint" ] && echo lint || echo x86_64)}
EMBEDDED_LIB=$(dirname "$(dirname "$(command -v "$SWIFTC")")")/lib/swift/embedded/$TARGET
mkdir -p "$OUT/modulemaps"
# A scratch path of its own: the manifest is read while a swift build holds .build.
"$SWIFT" package --scratch-path "$OUT/manifest" dump-package >"$OUT/package.json"

optimisation=(-Osize)
[ -z "$lint" ] || optimisation=(-Onone -g)
# Swift 6, as Package.swift's tools version makes the SwiftPM build.
flags=(-enable-experimental-feature Embedded -enable-experimental-feature Extern -wmo -swift-version 6 "${optimisation[@]}"
    -target "$TARGET" -package-name ambience -I "$OUT" -I "$ROOT/embedded/Glibc")

cc -c -O2 "$ROOT/embedded/strtod.c" -o "$OUT/strtod.o"
# stale OUTPUT INPUT...: OUTPUT is missing, or an input (a file, or a directory's files) is newer.
stale() { [ ! -f "$1" ] || [ -n "$(find "${@:2}" -newer "$1" -print -quit)" ]; }

if stale "$OUT/libGlibc.a" embedded/Glibc "$0"; then
    "$SWIFTC" "${flags[@]}" -parse-as-library -module-name Glibc -emit-module -emit-library -static \
        "$ROOT/embedded/Glibc/Glibc.swift" -o "$OUT/libGlibc.a"
fi
programs=("$@")
if [ ${#programs[@]} = 0 ]; then
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
            cc -c -O2 -I "$directory/include" "${cflags[@]}" "$directory"/*.c -o "$OUT/$name.o"
            objects+=("$OUT/$name.o")
            ;;
        swift)
            modules+=("-l$name")
            case $built in *" $name "*) continue ;; esac
            mapfile -t sources < <(find "$directory" -name '*.swift' | sort)
            # Up to date: built before from sources (and by this script) no newer, and nothing
            # below it rebuilt now.
            if [ -z "$rebuilt" ] && ! stale "$OUT/lib$name.a" "${sources[@]}" embedded/Glibc "$0"; then
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
            if stale "$object" "${sources[@]}" "${libraries_built[@]}" embedded/Glibc "$0"; then
                echo "embedded-build: $program"
                "$SWIFTC" "${flags[@]}" "${sources[@]}" -emit-object -o "$object"
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
            "$SWIFTC" "${flags[@]}" "$object" "${objects[@]}" "$OUT/strtod.o" -L "$OUT" \
                -Xlinker --gc-sections -Xlinker --start-group -lGlibc "${modules[@]}" -Xlinker --end-group \
                -L "$EMBEDDED_LIB" -lswiftUnicodeDataTables "${libraries[@]}" -lm -o "$OUT/$program"
            strip -o "$OUT/$program.stripped" "$OUT/$program"
            echo "embedded-build: $OUT/$program ($(stat -c %s "$OUT/$program.stripped") bytes stripped)"
            ;;
        esac
    done <<<"$plan"
done
