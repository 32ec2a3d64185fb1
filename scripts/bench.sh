#!/bin/bash
# make bench: the release build's figures in one table (see docs/performance.md).
# In process: engine throughput, replay of a 1 M-row CSV, the per-sample cost of the pipeline,
# the longest sample while a pipe reader is stopped. The daemon (`simulate` here, `run` in the
# rig) over BENCH_SECONDS at 10 Hz: CPU, peak RSS, PSS and anonymous memory, context switches,
# start to first event; the same in the same rig boot for the Python peer (smbus2 + gpiod from
# PyPI). Then the time from the daemon's event to a page's media query through `ambience kiosk`
# and headless Chromium (scripts/bench-kiosk.sh). Each figure is the median of its runs with
# the min–max spread. Figures only: nothing here fails on a slow machine.
#
# A fleet on MQTT (scripts/bench-fleet.sh): a group override's time to the last of N kiosks.
#
# Environment: BENCH_RUNS (default 7), BENCH_DAEMON_RUNS (3), BENCH_SECONDS (60),
# BENCH_BUILD (.build/bench), BENCH_OUT (bench-out), BENCH_RIG=0 to skip the rig, BENCH_FLEET=0
# to skip the fleet (BENCH_FLEET_KIOSKS, BENCH_FLEET_ROUNDS).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH
RUNS=${BENCH_RUNS:-7}
DAEMON_RUNS=${BENCH_DAEMON_RUNS:-3}
DAEMON_SECONDS=${BENCH_SECONDS:-60}
BUILD=${BENCH_BUILD:-.build/bench}
OUT=$(realpath -m "${BENCH_OUT:-bench-out}")
VENV=$(realpath -m .build/bench-venv)
mkdir -p "$OUT"
results=$OUT/results.txt
: >"$results"
say() { echo "bench: $*" >&2; }

say "release build (scripts/release-build.sh, as make release) in $BUILD"
scripts/release-build.sh --scratch-path "$BUILD" >"$OUT/build.log" 2>&1 || { cat "$OUT/build.log" >&2; exit 1; }
bin=$(scripts/release-build.sh --scratch-path "$BUILD" --show-bin-path)
strip=$(command -v strip || command -v llvm-strip) || { echo "no strip (binutils)" >&2; exit 1; }
"$strip" -o "$OUT/ambience" "$bin/ambience"
echo "size $(stat -c %s "$OUT/ambience")" >>"$results"
say "the Embedded ambience-run (scripts/embedded-build.sh, as make embedded) and the C floor"
scripts/embedded-build.sh ambience-run >"$OUT/embedded-build.log" 2>&1 ||
    { cat "$OUT/embedded-build.log" >&2; exit 1; }
cp .build/embedded/x86_64/ambience-run.stripped "$OUT/ambience-run"
echo "size-embedded $(stat -c %s "$OUT/ambience-run")" >>"$results"
cc -O2 -Wall -o "$OUT/ambience-peer-c" Benchmarks/peer/ambience_peer.c -lgpiod -lm
"$strip" "$OUT/ambience-peer-c"
echo "size-c $(stat -c %s "$OUT/ambience-peer-c")" >>"$results"

dpkg -s python3-venv >/dev/null 2>&1 ||
    { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-venv; }
if [ ! -x "$VENV/bin/python3" ] || ! "$VENV/bin/python3" -c 'import gpiod, smbus2' 2>/dev/null; then
    say "the Python peer's venv: smbus2 and gpiod from PyPI in $VENV"
    /usr/bin/python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q smbus2 gpiod
fi

say "in process: engine, pipeline, stall ($RUNS runs each)"
for what in engine pipeline stall; do "$bin/AmbienceBench" "$what" "$RUNS" >>"$results"; done

say "replay of a 1 M-row CSV ($RUNS runs)"
csv=$OUT/million.csv
[ -s "$csv" ] || python3 -c '
import math
with open("'"$csv"'", "w") as f:
    f.write("seconds,lux\n")
    for i in range(1_000_000):
        t = i / 10
        f.write(f"{t:.1f},{[8, 300, 9000, 300][int(t / 40) % 4] * (1 + 0.05 * math.sin(t * 7.3)):.2f}\n")'
python3 - "$OUT/ambience" "$csv" "$RUNS" >>"$results" <<'PY'
import statistics, subprocess, sys, time
binary, csv, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
rates = []
for _ in range(runs):
    start = time.monotonic()
    subprocess.run([binary, "replay", csv], stdout=subprocess.DEVNULL, check=True)
    rates.append(1_000_000 / (time.monotonic() - start))
print("replay", statistics.median(rates), min(rates), max(rates), "rows/s", runs)
PY

# `simulate` at 10 Hz with a fixed H-res mode, so the first event waits exactly one conversion
# (181 ms, subtracted), and a step from 300 to 8000 lux halfway.
host=$OUT/host
mkdir -p "$host"
cat >"$host/simulate.toml" <<TOML
state_file = "$host/run/state.json"
control_pipe = "$host/run/control"
state_directory = "$host/run/lib"
[sensor]
kind = "bh1750"
interval = 0.1
[sensor.bh1750]
mode = "high"
[pipes]
paths = ["$host/run/state"]
TOML
simulate() {  # simulate SECONDS
    rm -rf "$host/run"
    python3 Benchmarks/measure_daemon.py --seconds "$1" --pipe "$host/run/state" --conversion 0.181 -- \
        "$OUT/ambience" simulate --config "$host/simulate.toml" --profile "step:300:8000:$((DAEMON_SECONDS / 2))"
}
say "start to first event on the host ($RUNS runs)"
for _ in $(seq "$RUNS"); do echo "first $(simulate 1)" >>"$results"; done
say "daemon steady state on the host: $DAEMON_RUNS runs of ${DAEMON_SECONDS}s"
for _ in $(seq "$DAEMON_RUNS"); do echo "host $(simulate "$DAEMON_SECONDS")" >>"$results"; done

say "kiosk: daemon event to the page's media query, headless Chromium (scripts/bench-kiosk.sh)"
scripts/bench-kiosk.sh "$bin" >"$OUT/kiosk.txt"
if [ "${BENCH_FLEET:-1}" != 0 ]; then
    say "a fleet on MQTT: ${BENCH_FLEET_KIOSKS:-20} kiosks (simulate + ambience mqtt), one broker"
    BENCH_OUT=$OUT scripts/bench-fleet.sh "$OUT/ambience" "$bin/ambience-mqtt" >/dev/null
fi

if [ "${BENCH_RIG:-1}" != 0 ]; then
    say "the rig: ours (static and Embedded), the C floor and the Python peer, $DAEMON_RUNS runs of ${DAEMON_SECONDS}s each"
    rig/setup.sh >"$OUT/rig-setup.log" 2>&1 || { cat "$OUT/rig-setup.log" >&2; exit 1; }
    RIG_TIMEOUT=$((DAEMON_RUNS * 4 * (DAEMON_SECONDS + 20) + 120)) \
        rig/run.sh "Benchmarks/rig-guest.sh $OUT/ambience $VENV $DAEMON_SECONDS $DAEMON_RUNS $OUT/ambience-run $OUT/ambience-peer-c" \
        >"$OUT/rig.log" 2>&1 || { cat "$OUT/rig.log" >&2; exit 1; }
    grep '^rig-result ' "$OUT/rig.log" >>"$results" || true
fi

echo
echo "$(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(uname -r)," \
    "load average $(cut -d' ' -f1-3 /proc/loadavg); rig: $(grep -m1 '^rig: booting' "$OUT/rig.log" 2>/dev/null |
        sed 's/^rig: booting //' || echo skipped)"
python3 Benchmarks/bench_table.py "$results"
echo
cat "$OUT/kiosk.txt"
[ ! -s "$OUT/fleet.json" ] || python3 - "$OUT/fleet.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
print(f"\nfleet on MQTT, {f['kiosks']} kiosks, {f['rounds']} group overrides: to the last kiosk"
      f" {f['last_ms_median']:.1f} ms median, {f['last_ms_max']:.1f} ms max (target <= 250 ms);"
      f" per bridge: CPU {f['idle_cpu_percent_median']:.4f} % idle, peak RSS {f['rss_mb_median']:.1f} MB,"
      f" anonymous {f['anon_mb_median']:.2f} MB")
PY
