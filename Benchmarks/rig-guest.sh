#!/bin/bash
# Run in the rig's guest by scripts/bench.sh (rig/run.sh Benchmarks/rig-guest.sh ...): the
# daemon figures of the static build's `ambience run`, the Embedded `ambience-run`, the C floor
# (Benchmarks/peer/ambience_peer.c) and the Python peer, in turn, on the same BH1750 (the test
# adapter) and gpio-sim lines, at 10 Hz, the light stepping from 300 to 8000 lux halfway.
# Prints one `rig-result ours|embedded|c|peer {json}` line per run: measure_daemon.py's line as
# it is (CPU, context switches, first event, and RSS, PSS and anonymous memory from the guest's
# /proc).
#
#   Benchmarks/rig-guest.sh AMBIENCE VENV SECONDS RUNS AMBIENCE-RUN PEER-C
set -euo pipefail
ambience=$1 venv=$2 seconds=$3 runs=$4 ambience_run=$5 peer_c=$6
# shellcheck source=rig/guest/fixtures.sh
source rig/guest/fixtures.sh

work=/tmp/bench
mkdir -p "$work"
for name in ours embedded; do
    cat >"$work/$name.toml" <<EOF
state_file = "$work/$name/state.json"
control_pipe = "$work/$name/control"
state_directory = "$work/$name/lib"
[sensor]
kind = "bh1750"
bus = $BH1750_BUS
interval = 0.1
[sensor.bh1750]
mode = "high"
[gpio]
chip = "$GPIO_CHIP"
lines = { invert = 0, regular = 1, contrast = 2 }
[pipes]
paths = ["$work/$name/state"]
EOF
done

knob=/sys/module/ambience_test_i2c/parameters/bh1750_millilux
half=$((seconds / 2))
measure() {  # measure PIPE COMMAND...
    local pipe=$1
    shift
    bh1750_set_lux 300
    python3 Benchmarks/measure_daemon.py --seconds "$seconds" --pipe "$pipe" --conversion 0.181 \
        --at "$half:$knob:8000000" -- "$@"
}

for run in $(seq "$runs"); do
    rm -rf "$work/ours" "$work/embedded" "$work/c" "$work/peer"
    echo "rig-result ours $(measure "$work/ours/state" "$ambience" run --config "$work/ours.toml")"
    echo "rig-result embedded $(measure "$work/embedded/state" "$ambience_run" --config "$work/embedded.toml")"
    echo "rig-result c $(measure "$work/c/state" "$peer_c" --bus "$BH1750_BUS" --chip "/dev/$GPIO_CHIP" \
        --lines 0,1,2 --dir "$work/c")"
    echo "rig-result peer $(measure "$work/peer/state" "$venv/bin/python3" Benchmarks/peer/ambience_peer.py \
        --bus "$BH1750_BUS" --chip "/dev/$GPIO_CHIP" --lines 0,1,2 --dir "$work/peer")"
    echo "rig: run $run of $runs done" >&2
done
