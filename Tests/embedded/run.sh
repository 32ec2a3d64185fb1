#!/bin/bash
# The pure core (AmbienceCore and JSON) and the record (AmbienceRecord) built in Embedded Swift,
# and `ambience replay` made of them (Tests/embedded/main.swift) checked against the portable build byte for byte: events and
# summaries of the example day, of seeded traces at 10 Hz around every threshold, with failed
# reads and overrides, and of a persistent record in its compact format. Prints the embedded program's size and peak RSS.
# Every program, as make embedded builds them into EMBEDDED-DIR, is checked to be there;
# make embedded-lint (scripts/embedded-build.sh --lint) checks that they interpolate only what
# Embedded Swift prints.
# Usage: Tests/embedded/run.sh PATH-TO-AMBIENCE [EMBEDDED-DIR]
set -uo pipefail
BIN=$(realpath "${1:-.build/debug/ambience}")
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=$ROOT/.build/embedded
SWIFTC=${SWIFTC:-swiftc}
TARGET=x86_64-unknown-linux-gnu
EMBEDDED_LIB=$(dirname "$(dirname "$(command -v "$SWIFTC")")")/lib/swift/embedded/$TARGET
mkdir -p "$OUT"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# The builds take minutes on a loaded machine; each has a limit of its own below.
CHECK_TIMEOUT=${CHECK_TIMEOUT:-300} HARNESS_LOGS=$WORK HARNESS_NAME=embedded
BUILD_TIMEOUT=${BUILD_TIMEOUT:-1800}
# shellcheck source=Tests/lib/harness.sh
source "$ROOT/Tests/lib/harness.sh"
rm -f "$OUT"/*.out

build() {
    SWIFTC=$SWIFTC "$HERE/core.sh" "$OUT" "$TARGET" &&
        cc -c -O2 "$ROOT/embedded/strtod.c" -o "$OUT/strtod.o" &&
        cc "$OUT/replay.o" "$OUT/strtod.o" -L "$OUT" -lAmbienceRecord -lAmbienceCore -lJSON -L "$EMBEDDED_LIB" \
            -lswiftUnicodeDataTables -lm -o "$OUT/replay"
}

# Seeded traces: 10 Hz for two hours, light crossing both bands and back, noise, runs of failed
# reads, and (in the record's format) overrides coming and going.
traces() {
    python3 - "$OUT" <<'PY'
import math, random, sys
out = sys.argv[1]
for seed in (1, 2, 3):
    rng = random.Random(seed)
    record = seed == 3
    with open(f"{out}/trace-{seed}.csv", "w") as f:
        f.write("seconds,lux,filtered,state,fault,override\n" if record else "seconds,lux\n")
        override, outage = "", 0
        for step in range(72000):
            t = step / 10
            # Between 2 and 20,000 lux and back every 20 minutes, lingering near each threshold.
            phase = math.sin(2 * math.pi * t / (1200 + 100 * seed))
            level = 10 ** (2.3 + 2 * phase + 0.3 * math.sin(t / 7)) * math.exp(rng.gauss(0, 0.05))
            if outage == 0 and rng.random() < 0.0002:
                outage = rng.randint(5, 150)  # failed reads for up to 15 s: faults and recoveries
            lux = "nan" if outage > 0 else f"{level:.3f}"
            outage = max(outage - 1, 0)
            if record:
                if rng.random() < 0.0005:
                    override = rng.choice(["", "invert", "regular", "contrast"])
                f.write(f"{t:.1f},{lux},,,0,{override}\n")
            else:
                f.write(f"{t:.1f},{lux}\n")
PY
}

# The exit statuses are not compared, only the output: the comparison below says what differs.
same_output() {  # same_output NAME TRACE [--summary]
    local name=$1 trace=$2 summary=${3:-}
    if [ -n "$summary" ]; then
        SUMMARY=1 "$OUT/replay" <"$trace" >"$OUT/$name.embedded.out" || true
        "$BIN" replay --summary - <"$trace" >"$OUT/$name.portable.out" || true
    else
        "$OUT/replay" <"$trace" >"$OUT/$name.embedded.out" || true
        "$BIN" replay - <"$trace" >"$OUT/$name.portable.out" || true
    fi
    [ -s "$OUT/$name.portable.out" ] || fail "the portable build printed nothing"
    if ! cmp "$OUT/$name.embedded.out" "$OUT/$name.portable.out"; then
        diff "$OUT/$name.embedded.out" "$OUT/$name.portable.out" | head -5
        fail "the Embedded replay differs"
    fi
    echo "# $(wc -l <"$OUT/$name.portable.out") lines alike"
}
compare() {  # compare NAME TRACE [--summary]
    check "$1" same_output "$@"
}

if ! check --timeout "$BUILD_TIMEOUT" "the core builds in Embedded Swift" build; then
    summary
    exit 1
fi
traces
compare day "$ROOT/examples/day.csv"
compare day-summary "$ROOT/examples/day.csv" --summary
for seed in 1 2 3; do
    compare trace-$seed "$OUT/trace-$seed.csv"
    compare trace-$seed-summary "$OUT/trace-$seed.csv" --summary
done
# The persistent record's compact format, as a simulated daemon wrote it (eight hours of the day
# profile at 10 Hz: dawn's switch and its lux, the table's references, runs).
rm -rf "$OUT/simulated"
"$BIN" simulate --profile day --speed 1e9 --end 8h --runtime-dir "$OUT/simulated" >/dev/null 2>&1
compare compact-record "$OUT/simulated/lib/record.csv"
compare compact-record-summary "$OUT/simulated/lib/record.csv" --summary
# The seeded random corpus (Tests/lib/random_traces.py), which make dist-test replays on every
# Pi's architecture, replayed here by the program the package installs with glibc's choice of
# code for this processor and with the choice an amd64 without FMA gets (the same as 32-bit
# Arm's): the engines' arithmetic is their own (PortableMath), so nothing differs. With libm's
# exp in the moving average, 6 of the 20 traces differed in a digit of "filtered".
mkdir -p "$OUT/corpus"
python3 "$ROOT/Tests/lib/random_traces.py" "$OUT/corpus"
whichever_libm_code() {  # whichever_libm_code PROGRAM
    local trace flags differing=0
    for trace in "$OUT"/corpus/random-*.csv; do
        for flags in "" "--tau 0.7 --dwell 2 --latency 6"; do
            # shellcheck disable=SC2086 # the flags are words
            "$1" replay $flags "$trace" >"$trace.out" || fail "replay $flags $trace failed"
            # shellcheck disable=SC2086
            GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA,-AVX2 "$1" replay $flags "$trace" >"$trace.without-fma.out" ||
                fail "replay $flags $trace failed without FMA"
            [ -s "$trace.out" ] || fail "replay of $trace wrote nothing"
            if ! cmp -s "$trace.out" "$trace.without-fma.out"; then
                diff "$trace.out" "$trace.without-fma.out" | head -3
                differing=$((differing + 1))
            fi
        done
    done
    [ "$differing" = 0 ] || fail "$differing of the corpus's replays differ without FMA"
    echo "# $(cat "$OUT"/corpus/random-*.csv | wc -l) rows, twice, the same events either way"
}
if grep -qw fma /proc/cpuinfo; then
    check "the random corpus replays alike whichever code glibc would pick for its maths (FMA or not)" \
        whichever_libm_code "$(realpath "${2:-$ROOT/.build/embedded/x86_64}")/ambience"
else
    skip "the random corpus replays alike with and without FMA" "this processor has no FMA"
fi
# Every program the package installs, built in Embedded Swift (make embedded).
EMBEDDED_DIR=$(realpath "${2:-$ROOT/.build/embedded/x86_64}")
# shellcheck source=scripts/layout.sh
. "$ROOT/scripts/layout.sh"
# The Swift runtime: its libraries, the C++ ones it is written with, or its type metadata
# lookups linked in statically (what --static-swift-stdlib does).
without_the_swift_runtime() {  # without_the_swift_runtime PROGRAM
    [ -x "$1" ] || fail "no $1 (make embedded)"
    if ldd "$1" | grep -E 'libswift|libstdc\+\+|libgcc_s'; then fail "it links the Swift runtime"; fi
    if nm "$1" | grep -qE 'swift_conformsToProtocol|swift_getTypeByMangledName'; then
        fail "it has the Swift runtime's type metadata lookups"
    fi
}
for program in ambience $(for name in $PROGRAMS; do echo "ambience-$name"; done); do
    check "$program built in Embedded Swift, no Swift runtime linked" \
        without_the_swift_runtime "$EMBEDDED_DIR/$program"
done
# Every fuzz target built in Embedded Swift beside the programs (their modules are the same), each
# given its corpus, Fuzz/corpus/NAME: the inputs libFuzzer starts from (make fuzz), through the
# build the packages ship. An input a target finds wrong traps it.
fuzz_targets_build() {
    OUT=$EMBEDDED_DIR "$ROOT/scripts/embedded-build.sh" --fuzz >"$OUT/fuzz-build.log" 2>&1 || {
        grep -E 'error' "$OUT/fuzz-build.log" | head -10
        fail "the fuzz targets do not build in Embedded Swift"
    }
}
takes_its_corpus() {  # takes_its_corpus NAME CORPUS
    local inputs=("$2"/*)
    [ -f "${inputs[0]}" ] || fail "no inputs in $2"
    "$EMBEDDED_DIR/Fuzz$1" "${inputs[@]}" >"$OUT/fuzz-$1.out" 2>&1 || {
        tail -n 5 "$OUT/fuzz-$1.out"
        fail "Fuzz$1 failed on $2"
    }
    echo "# ${#inputs[@]} inputs"
}
if check --timeout "$BUILD_TIMEOUT" "the fuzz targets build in Embedded Swift" fuzz_targets_build; then
    for directory in "$ROOT"/Fuzz/*/; do
        name=$(basename "$directory")
        [ "$name" != corpus ] || continue
        corpus=$ROOT/Fuzz/corpus/$(echo "$name" | sed -E 's/([a-z])([A-Z])/\1-\2/g' | tr '[:upper:]' '[:lower:]')
        check "Fuzz$name in Embedded Swift takes its corpus" takes_its_corpus "$name" "$corpus"
    done
fi
# The daemon, ambience-run: what it says and its exit code, on its own and beside the portable
# build's, at each way a start can end before a device is read: usage, help, a configuration
# refused, no such bus.
EMBEDDED_RUN=$EMBEDDED_DIR/ambience-run
PORTABLE_RUN=$(dirname "$BIN")/ambience-run
printf '[sensor]\nkind = "bh1751"\n' >"$OUT/refused.toml"
printf '[sensor]\nkind = "bh1750"\nbus = 99\n' >"$OUT/no-bus.toml"
daemon_answers() {  # daemon_answers NAME WANTED-EXIT ARGUMENTS...
    local name=$1 wanted=$2 code=0 portable=0
    shift 2
    "$EMBEDDED_RUN" "$@" >"$OUT/$name.embedded.out" 2>&1 || code=$?
    "$PORTABLE_RUN" "$@" >"$OUT/$name.portable.out" 2>&1 || portable=$?
    if [ "$code" != "$wanted" ] || [ "$portable" != "$wanted" ] || [ ! -s "$OUT/$name.portable.out" ] ||
        ! cmp -s "$OUT/$name.embedded.out" "$OUT/$name.portable.out"; then
        diff "$OUT/$name.embedded.out" "$OUT/$name.portable.out" | head -5
        fail "exit $code (portable $portable, wanted $wanted)"
    fi
}
check "ambience-run usage: exit 2, the portable build's words" daemon_answers usage 2 --bogus
check "ambience-run help: exit 0, the portable build's words" daemon_answers help 0 --help
check "ambience-run refused-configuration: exit 78, the portable build's words" \
    daemon_answers refused-configuration 78 --config "$OUT/refused.toml"
check "ambience-run no-such-bus: exit 1, the portable build's words" \
    daemon_answers no-such-bus 1 --config "$OUT/no-bus.toml"
strip -o "$OUT/replay.stripped" "$OUT/replay"
rss=$( { /usr/bin/time -f '%M' "$OUT/replay" <"$OUT/trace-1.csv" >/dev/null; } 2>&1 | tail -n 1)
echo "     embedded replay: $(stat -c %s "$OUT/replay.stripped") bytes stripped, peak RSS ${rss} kB"
/usr/bin/time -f '%M' -o "$OUT/run.rss" "$EMBEDDED_RUN" --config "$OUT/no-bus.toml" >/dev/null 2>&1
rss=$(tail -n 1 "$OUT/run.rss")
echo "     embedded ambience-run: $(stat -c %s "$EMBEDDED_RUN.stripped") bytes stripped, peak RSS ${rss} kB" \
    "until it finds no bus (a measurement at 10 Hz is make bench's)"
summary
