#!/bin/bash
# Run in the rig's guest by scripts/bench.sh (rig/run.sh Benchmarks/rig-guest.sh ...): the
# daemon figures of `ambience run` and of the Python peer, alternately, on the same BH1750 (the
# test adapter) and gpio-sim lines, at 10 Hz, the light stepping from 300 to 8000 lux halfway.
# Prints one `rig-result ours|peer {json}` line per run: measure_daemon.py's line as it is (CPU,
# context switches, first event, and RSS, PSS and anonymous memory from the guest's /proc).
#
#   Benchmarks/rig-guest.sh AMBIENCE VENV SECONDS RUNS
set -euo pipefail
ambience=$1 venv=$2 seconds=$3 runs=$4
# shellcheck source=rig/guest/fixtures.sh
source rig/guest/fixtures.sh

work=/tmp/bench
mkdir -p "$work"
cat >"$work/ours.toml" <<EOF
state_file = "$work/ours/state.json"
control_pipe = "$work/ours/control"
state_directory = "$work/ours/lib"
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
paths = ["$work/ours/state"]
EOF

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
    rm -rf "$work/ours" "$work/peer"
    echo "rig-result ours $(measure "$work/ours/state" "$ambience" run --config "$work/ours.toml")"
    echo "rig-result peer $(measure "$work/peer/state" "$venv/bin/python3" Benchmarks/peer/ambience_peer.py \
        --bus "$BH1750_BUS" --chip "/dev/$GPIO_CHIP" --lines 0,1,2 --dir "$work/peer")"
    echo "rig: run $run of $runs done" >&2
done
