#!/bin/bash
# The fleet figure (docs/performance.md, "fleet"): N kiosks, each `ambience simulate`
# and its `ambience mqtt`, on one mosquitto on loopback; a group override's time to the last
# kiosk, and each bridge's CPU and memory. Called by scripts/bench.sh with the release binaries;
# alone: scripts/bench-fleet.sh [AMBIENCE AMBIENCE-MQTT] (default: a release build in .build/bench).
#
# Environment: BENCH_FLEET_KIOSKS (default 20), BENCH_FLEET_ROUNDS (10), BENCH_OUT (bench-out).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=$(realpath -m "${BENCH_OUT:-bench-out}")
mkdir -p "$OUT"
if [ $# -ge 2 ]; then
    ambience=$1 bridge=$2
else
    scripts/release-build.sh --scratch-path .build/bench >"$OUT/fleet-build.log" 2>&1 ||
        { cat "$OUT/fleet-build.log" >&2; exit 1; }
    bin=$(scripts/release-build.sh --scratch-path .build/bench --show-bin-path)
    ambience=$bin/ambience bridge=$bin/ambience-mqtt
fi
for tool in mosquitto mosquitto_sub mosquitto_pub; do
    command -v $tool >/dev/null || { echo "bench-fleet: $tool is missing (make setup installs it)" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 Benchmarks/bench_fleet.py --ambience "$ambience" --bridge "$bridge" \
    --kiosks "${BENCH_FLEET_KIOSKS:-20}" --rounds "${BENCH_FLEET_ROUNDS:-10}" --work "$work" | tee "$OUT/fleet.json"
