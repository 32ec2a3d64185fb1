#!/bin/bash
# The Pi's builds (make dist: .build/dist/SUITE-ARCH, bookworm and trixie, arm64 and armhf), each
# checked as a Pi owner would get it, under qemu-user with its suite's sysroot (scripts/sysroot.sh):
#   - every program in Embedded Swift: no Swift runtime, no glibc symbol newer than the suite's;
#   - armhf: ARMv6 code alone (the attributes lld merges from every object it links: v6, Thumb-1,
#     VFPv2; the hard-float ABI), so one package serves the Pi Zero and Pi 1 as well as the 2 to 5;
#   - arm64: no fused multiply-add in the programs' own arithmetic (Tests/dist/fused-arithmetic.sh);
#   - replay, plot and simulate: the same bytes as this host's Embedded build;
#   - the command-line tests (Tests/cli/run.sh) run on it;
#   - its package (scripts/make-deb.sh), lintian clean, installed by apt in a bare root of its
#     suite and architecture, its programs run there, purged.
# Then the pure core's replay (Tests/embedded/main.swift) linked statically with musl for ARMv6
# runs under qemu-arm -cpu arm1176, the Pi Zero's core, where Debian's armhf libc (ARMv7) traps.
#   Tests/dist/run.sh HOST-AMBIENCE     (make dist-test: HOST-AMBIENCE is make embedded's; as root)
# DIST_TARGETS="trixie-arm64 ..." tests fewer.
set -uo pipefail
REFERENCE=$(realpath "${1:?usage: $0 HOST-AMBIENCE}")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
export PATH=/opt/swift/usr/bin:$PATH
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
passed=0 failed=0
# Under emulation a check takes minutes, not seconds.
CHECK_TIMEOUT=${CHECK_TIMEOUT:-900} HARNESS_LOGS=$WORK HARNESS_NAME=dist
# shellcheck source=Tests/lib/harness.sh
source "$ROOT/Tests/lib/harness.sh"
# shellcheck source=scripts/layout.sh
. scripts/layout.sh
programs=(ambience)
for name in $PROGRAMS; do programs+=("ambience-$name"); done

# Runs every program of DIST (a directory) through qemu-user with SYSROOT's libraries.
run_in() {  # run_in SYSROOT COMMAND...
    QEMU_LD_PREFIX=$1 "${@:2}"
}

embedded_and_suites_glibc() {  # DIST SYSROOT
    local program newest suite_glibc
    suite_glibc=$(sed -n 's/^#define[[:space:]]*__GLIBC_MINOR__[[:space:]]*\([0-9]*\)/2.\1/p' "$2/usr/include/features.h")
    for program in "${programs[@]}"; do
        [ -x "$1/$program" ] || fail "no $1/$program"
        if LC_ALL=C readelf -d "$1/$program" | grep -qE 'NEEDED.*(libswift|libstdc\+\+|libgcc_s)'; then
            fail "$program links a Swift or C++ runtime"
        fi
        if nm "$1/$program" | grep -qE 'swift_conformsToProtocol|swift_getTypeByMangledName'; then
            fail "$program carries the Swift runtime's metadata lookups"
        fi
        newest=$(LC_ALL=C readelf -V "$1/$program" | grep -o 'GLIBC_2\.[0-9]*' | sort -uV | tail -n 1)
        [ "$(printf '%s\n' "${newest#GLIBC_}" "$suite_glibc" | sort -V | tail -n 1)" = "$suite_glibc" ] ||
            fail "$program needs $newest, the suite has glibc $suite_glibc"
    done
}

armv6_code_alone() {  # DIST
    local program attributes
    for program in "${programs[@]}"; do
        attributes=$(LC_ALL=C readelf -A "$1/$program")
        for wanted in 'Tag_CPU_arch: v6$' 'Tag_THUMB_ISA_use: Thumb-1$' 'Tag_FP_arch: VFPv2$'; do
            grep -q "$wanted" <<<"$attributes" || { echo "$attributes"; fail "$program: no '$wanted'"; }
        done
        LC_ALL=C readelf -h "$1/$program" | grep -q 'hard-float ABI' || fail "$program is not hard-float"
    done
}

# What the host's build writes, this one writes: stdout, stderr, exit status, and the file it
# leaves (@OUT@: the plot's SVG, simulate's runtime directory and its state file).
same_bytes_as_the_host() {  # DIST SYSROOT
    local dist=$1 sysroot=$2 sensor
    compare() {  # compare NAME ARGUMENTS...
        local name=$1 status side
        shift
        # One directory for both, in turn: the programs name it in what they print.
        for side in host pi; do
            rm -rf "$WORK/out"
            mkdir -p "$WORK/out"
            status=0
            if [ "$side" = host ]; then
                "$REFERENCE" "${@//@OUT@/$WORK/out}" >"$WORK/$name.$side" 2>"$WORK/$name.$side-err" || status=$?
            else
                run_in "$sysroot" "$dist/ambience" "${@//@OUT@/$WORK/out}" >"$WORK/$name.$side" \
                    2>"$WORK/$name.$side-err" || status=$?
            fi
            echo "exit $status" >>"$WORK/$name.$side"
            find "$WORK/out" -type f \( -name '*.json' -o -name '*.svg' \) | sort | xargs -r cat >>"$WORK/$name.$side"
        done
        [ "$(wc -l <"$WORK/$name.host")" -gt 1 ] || fail "$name: the host's build wrote nothing"
        cmp -s "$WORK/$name.host" "$WORK/$name.pi" || { diff "$WORK/$name.host" "$WORK/$name.pi" | head; fail "$name differs"; }
        cmp -s "$WORK/$name.host-err" "$WORK/$name.pi-err" ||
            { diff "$WORK/$name.host-err" "$WORK/$name.pi-err" | head; fail "$name: its errors differ"; }
        echo "$name: $(wc -l <"$WORK/$name.host") lines alike"
    }
    compare replay-day replay examples/day.csv --interval 1 --fault-after 10
    compare replay-day-plain replay examples/day.csv --interval 1 --fault-after 10 --format plain
    compare replay-day-tuned replay examples/day.csv --interval 0.1 --fault-after 5 --tau 2 --dwell 5 \
        --latency 12 --regular-contrast 2500,5000
    compare replay-summary replay --summary examples/day.csv
    compare plot plot examples/day.csv --out @OUT@/day.svg
    for trace in "$WORK"/corpus/random-*.csv; do
        compare "$(basename "$trace" .csv)" replay "$trace"
        compare "$(basename "$trace" .csv)-tau-0.7" replay "$trace" --tau 0.7 --dwell 2 --latency 6
    done
    for sensor in bh1750 tsl2561 veml7700; do
        compare "simulate-$sensor" simulate --sensor "$sensor" --profile day --end 24h --speed 100000 \
            --runtime-dir @OUT@
    done
}

cli_tests_pass() {  # DIST SYSROOT
    run_in "$2" Tests/cli/run.sh "$1/ambience" >"$WORK/cli.log" 2>&1 || { cat "$WORK/cli.log"; fail "Tests/cli/run.sh failed"; }
    tail -n 1 "$WORK/cli.log"
}

package_is_lintian_clean() {  # SUITE ARCH DIST
    local deb
    deb=$(scripts/make-deb.sh --suite "$1" --arch "$2" --binary "$3/ambience" --out "$WORK/deb-$1-$2" | tail -n 1)
    [ -f "$deb" ] || fail "no package made"
    Tests/deb/lintian.sh "$deb" || fail "lintian is not clean"
    echo "$(basename "$deb"): $(stat -c %s "$deb") bytes, Depends: $(dpkg-deb -f "$deb" Depends)"
}

# apt installs the package in a copy of a bare root of its suite and architecture (debootstrap's
# minbase, under qemu-user), its dependencies from the mirror; its programs run there as
# installed; purge takes it away.
installs_and_purges_in_its_suite() {  # SUITE ARCH (after package_is_lintian_clean)
    local suite=$1 arch=$2 deb roots=$WORK/roots
    deb=$(ls "$WORK/deb-$suite-$arch"/ambience_*.deb)
    scripts/debian-root.sh --bare "$suite" "$arch" >"$WORK/root.log" 2>&1 ||
        { cat "$WORK/root.log"; fail "no bare $suite $arch root"; }
    rm -rf "$roots"
    mkdir -p "$roots"
    cp -a "${AMBIENCE_ROOTS:-/var/cache/ambience/roots}/bare/$suite-$arch" "$roots/"
    cp "$deb" "$roots/$suite-$arch/tmp/ambience.deb"
    cp examples/day.csv "$roots/$suite-$arch/tmp/day.csv"
    inside() { AMBIENCE_ROOTS=$roots AMBIENCE_ROOT_NO_SRC=1 scripts/in-root.sh "$suite" "$arch" "$@"; }
    inside sh -c 'apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q /tmp/ambience.deb' \
        >"$WORK/apt.log" 2>&1 || { tail -n 30 "$WORK/apt.log"; fail "apt could not install it"; }
    # shellcheck disable=SC2016 # dpkg-query's format
    inside dpkg-query -W -f='${Status} ${Version}\n' ambience
    inside ambience replay /tmp/day.csv >"$WORK/installed-replay" 2>&1 ||
        { cat "$WORK/installed-replay"; fail "the installed ambience did not replay the day"; }
    "$REFERENCE" replay examples/day.csv >"$WORK/host-replay"
    cmp "$WORK/installed-replay" "$WORK/host-replay" || fail "the installed replay differs from the host's"
    inside ambience-run --help >/dev/null || fail "the installed ambience-run did not answer --help"
    for companion in $COMPANIONS; do
        inside "ambience-$companion" --help >/dev/null || fail "the installed ambience-$companion did not answer --help"
    done
    inside apt-get purge -y -q ambience >"$WORK/purge.log" 2>&1 || { cat "$WORK/purge.log"; fail "purge failed"; }
    # shellcheck disable=SC2016 # dpkg-query's format
    if inside dpkg-query -W -f='${Status}\n' ambience 2>/dev/null | grep -q '^install ok'; then
        fail "purge left the package installed"
    fi
    [ ! -e "$roots/$suite-$arch/usr/bin/ambience" ] || fail "purge left /usr/bin/ambience"
    [ ! -e "$roots/$suite-$arch/etc/ambience" ] || fail "purge left /etc/ambience"
    rm -rf "$roots"
}

# The pure core's replay for ARMv6 with musl, static: no libc of Debian's in it. The core, the record
# and JSON are built by Tests/embedded/core.sh, as for the host's replay, without Glibc.
static_armv6_replay_runs_on_the_pi_zeros_core() {
    Tests/embedded/replay-armv6.sh "$WORK" || fail "the core does not build for ARMv6"
    LC_ALL=C readelf -A "$WORK/replay-armv6" | grep -q 'Tag_CPU_arch: v6$' || fail "the static replay is not ARMv6 code"
    qemu-arm-static -cpu arm1176 "$WORK/replay-armv6" <examples/day.csv >"$WORK/replay-armv6.out" ||
        fail "the static replay failed under qemu-arm -cpu arm1176"
    "$REFERENCE" replay - <examples/day.csv >"$WORK/replay-host.out"
    [ -s "$WORK/replay-host.out" ] || fail "the host's replay wrote nothing"
    cmp "$WORK/replay-armv6.out" "$WORK/replay-host.out" || fail "the ARM1176's replay differs from the host's"
    echo "$(wc -l <"$WORK/replay-host.out") event lines alike, on an emulated ARM1176"
    local trace
    for trace in "$WORK"/corpus/random-*.csv; do
        qemu-arm-static -cpu arm1176 "$WORK/replay-armv6" <"$trace" >"$WORK/replay-armv6.out" ||
            fail "the static replay of $trace failed under qemu-arm -cpu arm1176"
        "$REFERENCE" replay - <"$trace" >"$WORK/replay-host.out"
        cmp "$WORK/replay-armv6.out" "$WORK/replay-host.out" ||
            { diff "$WORK/replay-armv6.out" "$WORK/replay-host.out" | head -3; fail "$trace: the ARM1176's replay differs"; }
    done
    echo "the random corpus (Tests/lib/random_traces.py) alike too"
}

# Seeded random traces: uneven spacing, gaps, steps, ramps, noise, failed reads (the issue of
# libm's last bits, docs/every-pi.md "Same bits").
mkdir -p "$WORK/corpus"
python3 Tests/lib/random_traces.py "$WORK/corpus"
targets=${DIST_TARGETS:-bookworm-arm64 bookworm-armhf trixie-arm64 trixie-armhf}
for target in $targets; do
    suite=${target%-*} arch=${target#*-} dist=$ROOT/.build/dist/$target
    sysroot=$(scripts/sysroot.sh "$suite" "$arch" | tail -n 1)
    scripts/qemu-user.sh "$arch" >/dev/null
    check "$target: every program Embedded, for $suite's glibc" embedded_and_suites_glibc "$dist" "$sysroot"
    if [ "$arch" = armhf ]; then check "$target: ARMv6 code alone, hard-float" armv6_code_alone "$dist"; fi
    if [ "$arch" = arm64 ]; then
        check "$target: no fused multiply-add in the programs' own arithmetic" \
            Tests/dist/fused-arithmetic.sh "$dist/ambience"
    fi
    check "$target: replay, plot and simulate write what the host's build writes" same_bytes_as_the_host "$dist" "$sysroot"
    check "$target: the command-line tests pass" cli_tests_pass "$dist" "$sysroot"
    check "$target: its package is lintian clean" package_is_lintian_clean "$suite" "$arch" "$dist"
    check "$target: apt installs it in $suite $arch, its programs run, purge removes it" \
        installs_and_purges_in_its_suite "$suite" "$arch"
done
check "the pure core, static for ARMv6, replays the day on an ARM1176" static_armv6_replay_runs_on_the_pi_zeros_core
summary
