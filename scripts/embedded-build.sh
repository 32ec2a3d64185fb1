#!/bin/bash
# Builds programs in Embedded Swift from the same sources as the SwiftPM build: each module a
# static library (whole-module, -Osize), the program linked against them, the C shims and the
# system's libraries. Embedded Swift has no Glibc overlay: embedded/Glibc is the module `import
# Glibc` finds here, and embedded/strtod.c the one runtime hook Double(String) needs.
#   scripts/embedded-build.sh [PROGRAM...]    default: ambience-run
# Products in .build/embedded/x86_64 (OUT to change): PROGRAM, and PROGRAM.stripped beside it.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SWIFTC=${SWIFTC:-swiftc}
TARGET=x86_64-unknown-linux-gnu
OUT=${OUT:-$ROOT/.build/embedded/x86_64}
EMBEDDED_LIB=$(dirname "$(dirname "$(command -v "$SWIFTC")")")/lib/swift/embedded/$TARGET
S=$ROOT/Sources
mkdir -p "$OUT/modulemaps"

# The modules each program is made of, in the order they are built (each after its imports),
# its C shims and the libraries it links.
modules() {
    case $1 in
    ambience-run)
        echo Glibc JSON TOML AmbienceCore AmbienceSystem AmbienceCommandLine AmbienceConfig \
            AmbienceClient AmbienceSensors AmbienceOutputs AmbienceDaemon
        ;;
    *) echo "embedded-build: no Embedded build of $1 yet" >&2; return 1 ;;
    esac
}
shims() { case $1 in ambience-run) echo CGPIODShim ;; esac; }
libraries() { case $1 in ambience-run) echo -lgpiod -li2c -lm ;; esac; }

# SwiftPM makes a module map for a C target's include directory; so does this, for the same name.
for shim in CGPIODShim CMicroHTTPDShim; do
    mkdir -p "$OUT/modulemaps/$shim"
    printf 'module %s {\n    header "%s"\n    export *\n}\n' "$shim" "$(ls "$S/$shim"/include/*.h)" \
        >"$OUT/modulemaps/$shim/module.modulemap"
done

flags=(-enable-experimental-feature Embedded -enable-experimental-feature Extern -wmo -Osize
    -target "$TARGET" -package-name ambience -I "$OUT" -I "$ROOT/embedded/Glibc"
    -I "$S/CLinux" -I "$S/CI2C" -I "$S/CGPIOD" -I "$S/CMicroHTTPD" -I "$S/CMosquitto"
    -I "$OUT/modulemaps/CGPIODShim" -I "$OUT/modulemaps/CMicroHTTPDShim")

build_module() {
    local module=$1 sources
    if [ "$module" = Glibc ]; then
        sources=("$ROOT/embedded/Glibc/Glibc.swift")
    else
        mapfile -t sources < <(find "$S/$module" -name '*.swift' | sort)
    fi
    "$SWIFTC" "${flags[@]}" -parse-as-library -module-name "$module" -emit-module -emit-library -static \
        "${sources[@]}" -o "$OUT/lib$module.a"
}

built=" "
for program in "${@:-ambience-run}"; do
    wanted=$(modules "$program")
    for module in $wanted; do
        case $built in *" $module "*) continue ;; esac
        echo "embedded-build: $module"
        build_module "$module"
        built+="$module "
    done
    objects=()
    for shim in $(shims "$program"); do
        # shellcheck disable=SC2046 # pkg-config's flags are words
        cc -c -O2 -I "$S/$shim/include" $(pkg-config --cflags libgpiod 2>/dev/null) "$S/$shim/shim.c" \
            -o "$OUT/$shim.o"
        objects+=("$OUT/$shim.o")
    done
    cc -c -O2 "$ROOT/embedded/strtod.c" -o "$OUT/strtod.o"
    links=()
    for module in $wanted; do links+=("-l$module"); done
    echo "embedded-build: $program"
    # --gc-sections: the Unicode tables are one object, and most of it (the scalars' names, 230 kB)
    # nothing here reads; without it ambience-run is 1.47 MB stripped, with it 0.81 MB.
    # shellcheck disable=SC2046 # the libraries are words
    "$SWIFTC" "${flags[@]}" "$S/$program/main.swift" "${objects[@]}" "$OUT/strtod.o" -L "$OUT" \
        -Xlinker --gc-sections -Xlinker --start-group "${links[@]}" -Xlinker --end-group \
        -L "$EMBEDDED_LIB" -lswiftUnicodeDataTables $(libraries "$program") -o "$OUT/$program"
    strip -o "$OUT/$program.stripped" "$OUT/$program"
    echo "embedded-build: $OUT/$program ($(stat -c %s "$OUT/$program.stripped") bytes stripped)"
done
