#!/bin/bash
# The daemon's footprint on this host, no sensor needed: the release build's daemon executable
# stripped, then run at 10 Hz for SECONDS against an IIO light sensor made of plain files (the
# kernel's sysfs layout, in a scratch directory), with a pipe reader attached: its stripped size,
# peak RSS (VmHWM) and anonymous memory (RssAnon) at the end, and the CPU it used over the run
# after its first second. Figures only; nothing fails.
#
#   scripts/footprint.sh [RELEASE-BIN-DIR] [SECONDS]   (default: scripts/release-build.sh's, 30 s)
#
# RELEASE-BIN-DIR holds ambience-run (or, for a build from before it existed, ambience).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-$(scripts/release-build.sh --show-bin-path)}
seconds=${2:-30}
work=$(mktemp -d)
trap 'kill "$daemon" "$reader" 2>/dev/null; rm -rf "$work"' EXIT
if [ -x "$dir/ambience-run" ]; then program=("$work/daemon"); cp "$dir/ambience-run" "$work/daemon"
else program=("$work/daemon" run); cp "$dir/ambience" "$work/daemon"; fi
strip "$work/daemon"
# shellcheck source=scripts/scratch-daemon.sh
. scripts/scratch-daemon.sh
scratch_daemon "$work"
"${program[@]}" --config "$work/run.toml" 2>"$work/log" &
daemon=$!
for _ in $(seq 50); do [ -p "$work/run/state" ] && break; sleep 0.1; done
cat "$work/run/state" >/dev/null &
reader=$!
sleep 1
ticks() { awk '{ print $14 + $15 }' "/proc/$daemon/stat"; }
start_ticks=$(ticks)
sleep "$seconds"
end_ticks=$(ticks)
status=/proc/$daemon/status
[ -r "$status" ] || { echo "the daemon exited:"; cat "$work/log"; exit 1; }
kb() { awk -v key="$1:" '$1 == key { print $2 }' "$status"; }
printf 'size %.2f MB (%s bytes stripped), peak RSS %.2f MB, anonymous %.2f MB, CPU %.3f %% over %s s at 10 Hz\n' \
    "$(echo "$(stat -c %s "$work/daemon") / 1000000" | bc -l)" "$(stat -c %s "$work/daemon")" \
    "$(echo "$(kb VmHWM) / 1024" | bc -l)" "$(echo "$(kb RssAnon) / 1024" | bc -l)" \
    "$(echo "($end_ticks - $start_ticks) * 100 / $(getconf CLK_TCK) / $seconds" | bc -l)" "$seconds"
