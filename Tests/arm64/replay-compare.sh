#!/bin/bash
# The arm64 release binary (run under qemu-user in its Debian root) and the amd64 one (in its
# root: both link trixie's libgpiod3) replay the same day and must write the same bytes: same
# events, same times, same numbers to the last digit (the JSON lines carry the filtered lux in
# full precision). Then `simulate` of the day with each emulated chip (register values → lux
# formulas → filter → engine → the indicator lines and the state file), same bytes too. Usage (as root, after
# scripts/build-in-root.sh trixie amd64 and trixie arm64):
#
#   Tests/arm64/replay-compare.sh [SUITE]
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
suite=${1:-trixie}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

for arch in amd64 arm64; do
    [ -x ".build/dist/$suite-$arch/ambience" ] || {
        echo "no .build/dist/$suite-$arch/ambience: run scripts/build-in-root.sh $suite $arch" >&2
        exit 1
    }
done

# compare NAME ARGUMENTS...: `ambience ARGUMENTS` on both: stdout, stderr, exit status, and the
# state file `simulate --runtime-dir /tmp/ambience-compare` leaves (inside each root's own /tmp).
compare() {
    local name=$1 arch
    shift
    for arch in amd64 arm64; do
        local status=0
        # shellcheck disable=SC2016 # a script for the root's sh, its "$@" its own
        scripts/in-root.sh "$suite" "$arch" sh -c '
            rm -rf /tmp/ambience-compare
            "$0" "$@"
            status=$?
            [ -f /tmp/ambience-compare/state.json ] && cat /tmp/ambience-compare/state.json
            exit $status' ".build/dist/$suite-$arch/ambience" "$@" \
            >"$work/$name.$arch.out" 2>"$work/$name.$arch.err" || status=$?
        echo "$status" >"$work/$name.$arch.status"
    done
    if cmp -s "$work/$name.amd64.out" "$work/$name.arm64.out" &&
        cmp -s "$work/$name.amd64.err" "$work/$name.arm64.err" &&
        cmp -s "$work/$name.amd64.status" "$work/$name.arm64.status"; then
        echo "ok   $name: $(wc -l <"$work/$name.amd64.out") lines, exit $(cat "$work/$name.amd64.status"), identical"
    else
        echo "FAIL $name: amd64 and arm64 differ"
        diff "$work/$name.amd64.out" "$work/$name.arm64.out" | head -20
        diff "$work/$name.amd64.err" "$work/$name.arm64.err" | head -5
        failed=1
    fi
    [ -s "$work/$name.amd64.out" ] || { echo "FAIL $name: no output"; failed=1; }
}

compare replay-day replay examples/day.csv --interval 1 --fault-after 10
compare replay-day-plain replay examples/day.csv --interval 1 --fault-after 10 --format plain
compare replay-day-tuned replay examples/day.csv --interval 0.1 --fault-after 5 --tau 2 --dwell 5 \
    --latency 12 --regular-contrast 2500,5000
for sensor in bh1750 tsl2561; do
    compare "simulate-$sensor" simulate --sensor "$sensor" --profile day --end 24h --speed 100000 \
        --runtime-dir /tmp/ambience-compare
done
exit $failed
