#!/bin/bash
# The main job: a compressed day of light (examples/day.csv, one minute of the day per second)
# through the filter and the engine, with the events as the pipe would carry them.
set -euo pipefail
BIN=${1:-.build/debug/ambience}
cd "$(dirname "$0")/.."
echo "== ambience replay examples/day.csv (D = 5 s, L = 12 s, fault after 10 s; 1 s = 1 minute of the day)"
"$BIN" replay examples/day.csv --interval 1 --fault-after 10
echo "== the same day in the plain format a shell consumer reads"
"$BIN" replay examples/day.csv --interval 1 --fault-after 10 --format plain | paste -sd' '
