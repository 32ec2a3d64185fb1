#!/bin/bash
# The main job: a simulated day. The whole pipeline runs with an emulated BH1750 on a mock I2C
# bus under a day of light (24 h in 30 s: night, dawn, clouds, sunlight on the screen, a passing
# cloud, the sensor unplugged for twelve minutes, dusk, a lamp). The terminal shows the virtual
# indicator LEDs; a reader on the named pipe, as a kiosk would be, gets the JSON lines.
set -euo pipefail
BIN=$(realpath "${1:-.build/debug/ambience}")
cd "$(dirname "$0")/.."
DIR=/tmp/ambience-demo
rm -rf "$DIR"
"$BIN" simulate --config examples/simulate.toml --profile day --speed 2880 --end 24h &
simulation=$!
trap 'kill $simulation 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -p "$DIR/state" ] && break; sleep 0.05; done
cat "$DIR/state" >"$DIR/reader.jsonl" &   # the kiosk's side: any reader of the FIFO
reader=$!
wait $simulation
trap - EXIT
wait $reader || true
echo
echo "== what 'cat $DIR/state' read during the day:"
cat "$DIR/reader.jsonl"
