#!/bin/bash
# make bench's browser figures: the time from the daemon's event (an override) to the page's
# media query changing, through `ambience kiosk` and Debian's headless Chromium; the kiosk's own
# share (a stand-in browser); and the same event to an ambience.js page's ambiencechange through
# `ambience serve`. Median, min and max over BENCH_SWITCHES (default 60) switches. Figures only:
# nothing here fails on a slow machine.
#
#   scripts/bench-kiosk.sh BIN-DIRECTORY   (holding ambience, ambience-kiosk, ambience-serve)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:?usage: scripts/bench-kiosk.sh BIN-DIRECTORY}
command -v chromium >/dev/null ||
    { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium; }
Tests/browser/bench.py "$bin/ambience" "$bin/ambience-kiosk" "${BENCH_SWITCHES:-60}"
