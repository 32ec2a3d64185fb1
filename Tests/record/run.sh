#!/bin/bash
# The record of the light, `plot` and `replay --summary` through the built binary: a record fetched
# from a running simulation replays to the events the daemon logged; a simulated day's persistent
# record is at most 2 MB and replays to the daemon's event lines byte for byte; the SVG is well-formed XML with an element per event, and headless
# Chromium renders it. Usage: Tests/record/run.sh PATH-TO-AMBIENCE
set -uo pipefail
BIN=$(realpath "${1:-.build/debug/ambience}")
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT="$ROOT/.build/record-test"   # the rendered pictures stay here to be looked at
mkdir -p "$OUT"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
passed=0 failed=0
# A day at 10 Hz takes a while to simulate and plot in a debug build on a loaded machine: no
# timing is asserted.
CHECK_TIMEOUT=${CHECK_TIMEOUT:-400} HARNESS_LOGS=$WORK HARNESS_NAME=record
# shellcheck source=Tests/lib/harness.sh
source "$ROOT/Tests/lib/harness.sh"

# events_match SVG EVENTS-JSONL PREFIX: the SVG parses, and has one element PREFIX-event-N per event
# line, at the same time and state.
events_match() {
    python3 - "$@" <<'PY'
import json, sys, xml.etree.ElementTree as ET
svg, events, prefix = sys.argv[1], sys.argv[2], sys.argv[3]
root = ET.parse(svg).getroot()
marks = {e.get("id"): e for e in root.iter() if (e.get("id") or "").startswith(prefix + "-event-")}
lines = [json.loads(line) for line in open(events)]
assert len(lines) >= 3, lines
assert len(marks) == len(lines), (len(marks), len(lines))
for index, event in enumerate(lines):
    mark = marks[f"{prefix}-event-{index}"]
    assert f"event-{event['event']}" in mark.get("class").split(), (index, mark.attrib, event)
    assert abs(float(mark.get("data-time")) - float(event["time"])) < 1e-9, (index, mark.attrib, event)
    assert mark.get("data-state") == (event["state"] or ""), (index, mark.attrib, event)
PY
}

plot_has_an_element_per_event() {
    "$BIN" plot "$ROOT/examples/day.csv" --interval 1 --fault-after 10 --out "$OUT/day.svg"
    "$BIN" replay "$ROOT/examples/day.csv" --interval 1 --fault-after 10 >"$WORK/day.jsonl"
    grep -q '"event":"fault"' "$WORK/day.jsonl"
    events_match "$OUT/day.svg" "$WORK/day.jsonl" a
    python3 - "$OUT/day.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
ids = {e.get("id") for e in ET.parse(sys.argv[1]).getroot().iter()}
for wanted in ["raw", "filtered", "a-band-invert-regular", "a-rise-regular-contrast", "a-fall-invert-regular",
               "fault-span-0", "a-state-0", "legend", "summary", "time-axis"]:
    assert wanted in ids, wanted
PY
}

compare_adds_a_second_band_with_its_events() {
    cat >"$WORK/quick.toml" <<'TOML'
[sensor]
kind = "bh1750"
interval = 1
[thresholds]
invert_regular = { fall = 100, rise = 200 }
[timing]
dwell = 2
latency = 6
fault_after = 10
TOML
    "$BIN" plot "$ROOT/examples/day.csv" --interval 1 --fault-after 10 --compare "$WORK/quick.toml" \
        --out "$OUT/day-compare.svg"
    "$BIN" replay "$ROOT/examples/day.csv" --interval 1 --fault-after 10 --invert-regular 100,200 \
        --dwell 2 --latency 6 >"$WORK/quick.jsonl"
    events_match "$OUT/day-compare.svg" "$WORK/quick.jsonl" b
    grep -q 'id="b-state-0"' "$OUT/day-compare.svg"
    grep -q "$WORK/quick.toml" "$OUT/day-compare.svg"  # the table's second column
}

chromium_renders_the_plot() {
    "$BIN" plot "$ROOT/examples/day.csv" --interval 1 --fault-after 10 --out "$OUT/day.svg"
    rm -f "$OUT/day.png"
    timeout 90 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$WORK/chromium" \
        --screenshot="$OUT/day.png" --window-size=1200,720 "file://$OUT/day.svg" >"$WORK/chromium.log" 2>&1 \
        || { cat "$WORK/chromium.log"; return 1; }
    python3 - "$OUT/day.png" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
width, height = struct.unpack(">II", data[16:24])
assert (width, height) == (1200, 720), (width, height)
# The picture is drawn, not blank: many distinct bytes in the pixel data.
chunks, offset = b"", 8
while offset < len(data):
    length, kind = struct.unpack(">I4s", data[offset:offset + 8])
    if kind == b"IDAT":
        chunks += data[offset + 8:offset + 8 + length]
    offset += 12 + length
pixels = zlib.decompress(chunks)
assert len(set(pixels)) > 50, "a blank picture"
PY
}

summary_prints_the_table() {
    "$BIN" replay --summary "$ROOT/examples/day.csv" --interval 1 --fault-after 10 >"$WORK/summary"
    grep -q '^switches per day  *360.3 (6 in all)$' "$WORK/summary"
    grep -q '^switches within 60 s of the one before  *1$' "$WORK/summary"
    grep -q '^longest wait, clear level to its state  *5.00 s (L = 12.0 s)$' "$WORK/summary"
    if grep -q '"event"' "$WORK/summary"; then fail "the summary has event lines"; fi
}

# The light of a short simulation: regular, dark, the sensor unplugged, sunlight, regular again.
write_profile() {
    python3 - "$1" <<'PY'
import sys
with open(sys.argv[1], "w") as out:
    out.write("seconds,lux\n")
    for second in range(0, 400):
        lux = 300 if second < 60 else 3 if second < 120 else "nan" if second < 150 else 8000 if second < 240 else 400
        out.write(f"{second},{lux}\n")
PY
}

record_rows_replay_to_the_daemons_events() {
    write_profile "$WORK/profile.csv"
    "$BIN" simulate --profile "csv:$WORK/profile.csv" --speed 20 --end 1h --runtime-dir "$WORK/rt" \
        >/dev/null 2>"$WORK/daemon.err" &
    local daemon=$!
    # The last switch (contrast → regular) comes a dwell after 240 s of simulated time.
    wait_for 60 grep -q 'state contrast → regular' "$WORK/daemon.err"
    "$BIN" record --control "$WORK/rt/control" --out "$WORK/record.csv"
    kill -TERM $daemon
    wait $daemon
    head -n 1 "$WORK/record.csv" | grep -qx 'seconds,lux,filtered,state,fault,override,brightness'
    "$BIN" replay "$WORK/record.csv" >"$WORK/replayed.jsonl"
    "$BIN" simulate --profile "csv:$WORK/record.csv" --end 1 --runtime-dir "$WORK/rt2" >/dev/null 2>&1  # a profile too
    python3 - "$WORK/daemon.err" "$WORK/replayed.jsonl" <<'PY'
import json, re, sys
logged = []
for line in open(sys.argv[1]):
    if m := re.match(r"(?:<\d>)?state (\w+) → (\w+) \((\w+), lux ([\d.]+), filtered ([\d.]+)\)", line):
        logged.append(("change", None if m[1] == "none" else m[1], m[2], m[3], m[4], m[5]))
    elif re.match(r"(?:<\d>)?sensor fault:", line):
        logged.append(("fault",))
    elif m := re.match(r"(?:<\d>)?sensor recovered \(lux ([\d.]+)\)", line):
        logged.append(("recovered", m[1]))
def rounded(value):  # as the daemon's log rounds lux: two decimals, shortest digits
    text = repr(round(value * 100) / 100)
    return text[:-2] if text.endswith(".0") else text
replayed = []
for event in map(json.loads, open(sys.argv[2])):
    if event["event"] == "change":
        replayed.append(("change", event["previous"], event["state"], event["reason"],
                         rounded(event["lux"]), rounded(event["filtered"])))
    elif event["event"] == "fault":
        replayed.append(("fault",))
    else:
        replayed.append(("recovered", rounded(event["lux"])))
# Everything the daemon did up to the record is in it, in order (the simulation ran on after).
assert len(logged) >= 6, logged
assert replayed == logged[:len(replayed)] and len(replayed) == len(logged), (replayed, logged)
PY
}

record_without_a_daemon_says_so() {
    if "$BIN" record --control "$WORK/nobody/control" --out "$WORK/none.csv" 2>"$WORK/err"; then
        fail "record without a daemon exited 0"
    fi
    grep -q 'the daemon is not running' "$WORK/err" || fail "record without a daemon: $(cat "$WORK/err")"
    [ ! -e "$WORK/none.csv" ] || fail "record without a daemon left $WORK/none.csv"
}

# A simulated day of the day profile at 10 Hz (as fast as the machine goes: the simulated clock
# never waits), its event lines taken from the pipe from the first one on.
simulate_a_day() {
    mkdir -p "$WORK/day"
    mkfifo "$WORK/day/state"
    # The reader is on the pipe before the daemon starts (a reader that comes later is told the
    # state as `current`, not the startup `change`): opened without waiting for a writer, it says
    # so by a file, and reads until the daemon's end closes the pipe.
    python3 - "$WORK/day/state" "$WORK/day/reading" "$WORK/day/events.jsonl" <<'PY' &
import os, select, sys
pipe = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)
open(sys.argv[2], "w").close()
poller = select.poll()
poller.register(pipe, select.POLLIN)
with open(sys.argv[3], "wb") as out:
    while True:
        poller.poll()
        try:
            data = os.read(pipe, 1 << 16)
        except BlockingIOError:
            continue
        if not data:
            break
        out.write(data)
PY
    local reader=$!
    wait_for 10 test -e "$WORK/day/reading" || { echo "the pipe's reader did not start"; return 1; }
    "$BIN" simulate --profile day --speed 1e9 --end 24h --runtime-dir "$WORK/day" >/dev/null 2>"$WORK/day/err" \
        || { cat "$WORK/day/err"; return 1; }
    wait $reader
}

persistent_record_of_a_day_is_under_two_megabytes() {
    [ -s "$WORK/day/events.jsonl" ] || simulate_a_day || return 1
    python3 - "$WORK/day/lib/record.csv" <<'PY'
import os, sys
path = sys.argv[1]
size = os.path.getsize(path)
print(f"persistent record: {size} bytes in a simulated day at 10 Hz")
assert open(path).readline() == "ambience-record 2\n"
assert size <= 2_000_000, size
PY
}

persistent_record_of_a_day_replays_to_the_daemons_events() {
    [ -s "$WORK/day/events.jsonl" ] || simulate_a_day || return 1
    "$BIN" replay "$WORK/day/lib/record.csv" >"$WORK/day/replayed.jsonl"
    "$BIN" replay --summary "$WORK/day/lib/record.csv" | grep -q '^switches per day  *8.0 (8 in all)$'
    # The pipe's times are the simulated day's wall clock from midnight, with milliseconds;
    # the record's are seconds from the start, whole milliseconds. As seconds, every line is the
    # replay's, byte for byte.
    python3 - "$WORK/day/events.jsonl" "$WORK/day/replayed.jsonl" <<'PY'
import datetime, re, sys
daemon, replayed = open(sys.argv[1]).read().splitlines(), open(sys.argv[2]).read().splitlines()
midnight = None
def seconds(match):
    global midnight
    moment = datetime.datetime.fromisoformat(match[1].replace("Z", "+00:00"))
    midnight = midnight or moment.replace(hour=0, minute=0, second=0, microsecond=0)
    value = round((moment - midnight).total_seconds() * 1000) / 1000
    return '"time":' + (str(int(value)) if value == int(value) else repr(value))
as_seconds = [re.sub(r'"time":"([^"]+)"', seconds, line) for line in daemon]
assert len(daemon) >= 10, daemon
assert as_seconds == replayed, "\n".join(f"{a}\n{b}\n" for a, b in zip(as_seconds, replayed) if a != b)
PY
}

plot_of_a_day_at_ten_hertz() {
    python3 - "$WORK/day864k.csv" <<'PY'
import math, sys
with open(sys.argv[1], "w") as out:
    out.write("seconds,lux\n")
    for row in range(864_000):
        t = row / 10
        hour = t / 3600
        if 16.5 < hour < 16.52:
            lux = "nan"
        elif hour < 6 or hour > 21:
            lux = 2 + (row % 7) / 10
        elif 11 < hour < 13:
            lux = 30000 + (row % 13) * 100
        else:
            lux = round(300 + 200 * math.sin(hour) + (row % 11), 1)
        out.write(f"{t:.1f},{lux}\n")
PY
    "$BIN" plot "$WORK/day864k.csv" --out "$OUT/day864k.svg"
    "$BIN" replay "$WORK/day864k.csv" >"$WORK/day864k.jsonl"
    events_match "$OUT/day864k.svg" "$WORK/day864k.jsonl" a
    [ "$(stat -c %s "$OUT/day864k.svg")" -lt 300000 ]  # decimated: about a point per pixel column
    grep -q '>hours)<\|(hours)' "$OUT/day864k.svg"
}

for test in plot_has_an_element_per_event compare_adds_a_second_band_with_its_events chromium_renders_the_plot \
    summary_prints_the_table record_rows_replay_to_the_daemons_events record_without_a_daemon_says_so \
    persistent_record_of_a_day_is_under_two_megabytes persistent_record_of_a_day_replays_to_the_daemons_events \
    plot_of_a_day_at_ten_hertz; do
    check "$test" "$test"
done
summary
