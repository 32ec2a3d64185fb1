#!/bin/bash
# scripts/beside.sh LOG BACKGROUND -- FOREGROUND...
# Runs the shell line BACKGROUND with its output into LOG while FOREGROUND... runs as usual; then
# waits for BACKGROUND, prints LOG, and fails if either failed. make test runs steps beside the
# emulated guests, whose waits on emulated time leave the host's cores mostly idle
# (docs/tests.md, "What make test runs").
#
# The guests' checks time what happens in them, so FOREGROUND gets the CPU first: as root it runs
# at nice -10 and BACKGROUND at 0, else BACKGROUND at nice 10. Either way BACKGROUND keeps a share
# beside other busy processes, so its own checks' timeouts are not starved out.
set -uo pipefail
log=${1:?LOG}
background=${2:?BACKGROUND}
[ "${3:-}" = -- ] || { echo "usage: $0 LOG BACKGROUND -- FOREGROUND..." >&2; exit 2; }
shift 3
mkdir -p "$(dirname "$log")"
if [ "$(id -u)" = 0 ]; then
    first=(nice -n -10) beside_nice=0
else
    first=() beside_nice=10
fi
nice -n "$beside_nice" bash -c "$background" >"$log" 2>&1 </dev/null &
beside=$!
echo "beside: '$background' started at nice $beside_nice, its output in $log"
"${first[@]}" "$@"
status=$?
wait "$beside"
beside_status=$?
echo "beside: '$background' ended with status $beside_status; its output:"
cat "$log"
[ "$beside_status" = 0 ] || { echo "beside: '$background' failed (status $beside_status)"; exit 1; }
exit "$status"
