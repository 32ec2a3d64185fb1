#!/bin/bash
# scripts/beside.sh LOG BACKGROUND -- FOREGROUND...
# Runs the shell line BACKGROUND, niced, with its output into LOG, while FOREGROUND... runs as
# usual; then waits for BACKGROUND, prints LOG, and fails if either failed. make test runs its
# builds beside the emulated guests, whose waits on emulated time leave the host's cores mostly
# idle (docs/tests.md, "What make test runs"): niced, they take what the guests leave. When
# FOREGROUND ends, what is left of BACKGROUND is given its share again (as root), so that beside
# other busy processes it is not starved.
set -uo pipefail
log=${1:?LOG}
background=${2:?BACKGROUND}
[ "${3:-}" = -- ] || { echo "usage: $0 LOG BACKGROUND -- FOREGROUND..." >&2; exit 2; }
shift 3
mkdir -p "$(dirname "$log")"
nice -n 19 bash -c "$background" >"$log" 2>&1 </dev/null &
beside=$!
echo "beside: '$background' started, its output in $log"
"$@"
status=$?
# Every process under the background's, itself included, back to nice 0.
descendants() {  # descendants PID
    local table queue=("$1") pid
    table=$(ps -e -o pid=,ppid=)
    while [ ${#queue[@]} -gt 0 ]; do
        pid=${queue[0]}
        queue=("${queue[@]:1}")
        echo "$pid"
        mapfile -t -O "${#queue[@]}" queue < <(awk -v parent="$pid" '$2 == parent { print $1 }' <<<"$table")
    done
}
mapfile -t remaining < <(descendants "$beside")
renice -n 0 -p "${remaining[@]}" >/dev/null 2>&1 || true
wait "$beside"
beside_status=$?
echo "beside: '$background' ended with status $beside_status; its output:"
cat "$log"
[ "$beside_status" = 0 ] || { echo "beside: '$background' failed (status $beside_status)"; exit 1; }
exit "$status"
