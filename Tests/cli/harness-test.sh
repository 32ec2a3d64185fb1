#!/bin/bash
# The CLI tests' runner tested on itself (run.sh runs this as one of its tests): a test that
# hangs is reported as failed within its timeout, with what it started killed, and the run
# goes on to the next test. Usage: Tests/cli/harness-test.sh
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
CLI_TEST_TIMEOUT=2
# shellcheck source=Tests/cli/harness.sh
source "$HERE/harness.sh"

passes() { true; }
fails() { false; echo "not reached"; }

# Hangs the ways a CLI test can: a reader on a FIFO that no one writes, behind a `wait`, with
# a long-running sibling; their pids are kept to check that the timeout ended them too.
hangs() {
    mkfifo "$WORK/fifo"
    sleep 1000 &
    echo $! >"$WORK/pids"
    cat "$WORK/fifo" &
    echo $! >>"$WORK/pids"
    wait
}

started=$SECONDS
{
    check passes passes
    check hangs hangs
    check fails fails
    check passes_after passes
} >"$WORK/report"
took=$((SECONDS - started))
cat "$WORK/report"

problems=0
expect() {  # expect WHAT CONDITION...
    local what=$1
    shift
    "$@" || { echo "harness: $what"; problems=$((problems + 1)); }
}
expect "a hanging test fails with the reason" grep -qx 'FAIL hangs: timed out after 2 s' "$WORK/report"
expect "an ordinary failure is no timeout" grep -qx 'FAIL fails' "$WORK/report"
expect "tests before and after run" test "$(grep -c '^ok   passes' "$WORK/report")" = 2
expect "counts" test "$passed/$failed" = 2/2
expect "within the bound (took $took s)" test "$took" -lt 10
gone() {  # gone PID: no such process, or only a zombie its new parent has yet to reap
    [ ! -e "/proc/$1" ] || grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null
}
while read -r pid; do
    expect "process $pid of the hung test is gone" gone "$pid"
done <"$WORK/pids"
[ "$problems" = 0 ]
