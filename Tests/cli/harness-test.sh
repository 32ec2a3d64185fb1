#!/bin/bash
# The test harness (Tests/lib/harness.sh) tested on itself; Tests/cli/run.sh runs this as one of
# its tests. A check that hangs is reported as failed within its timeout, with what it started
# killed, and the run goes on; a wait_for whose condition never comes fails within its time,
# naming it; a skip says why; the summary counts all of it and fails when a check failed; the
# system rig's way (no set -e, fail ending the check) and counts kept in a file work too.
#   Tests/cli/harness-test.sh
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
CHECK_TIMEOUT=2 HARNESS_LOGS=$WORK
# shellcheck source=Tests/lib/harness.sh
source "$HERE/../lib/harness.sh"

passes() { true; }
fails() { false; echo "not reached"; }
says_why() { [ -e "$WORK/nothing" ] || fail "no $WORK/nothing"; echo "not reached"; }
measures() { echo "# 42 lx"; echo "not shown"; }
never() { false; }
waits_in_vain() { wait_for 1 never; echo "not reached"; }
waits_until_there() {
    (pause 0.3; : >"$WORK/there") &
    wait_for 5 test -e "$WORK/there"
}

# Hangs the ways a test can: a reader on a FIFO that no one writes, behind a `wait`, with a
# long-running sibling; their pids are kept to check that the timeout ended them too.
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
    check says-why says_why
    check measures measures
    check waits-in-vain waits_in_vain
    check waits-until-there waits_until_there
    skip cannot "no such device here"
    check passes-after passes
    summary
    echo "summary status $?"
} >"$WORK/report"
took=$((SECONDS - started))
cat "$WORK/report"

# The system rig's way: no set -e, so `fail` must end the check; counts kept in a file that the
# next boot reads. In functions whose locals stand in for the settings and counts above.
goes_on() { false; echo "# went on"; }
stops() { false || fail "stopped"; echo "not reached"; }
system_rig_boot() {
    local HARNESS_ERREXIT=0 HARNESS_PREFIX="rig: " HARNESS_COUNTS=$WORK/counts
    local passed=0 failed=0 skipped=0 failed_names=
    # shellcheck source=Tests/lib/harness.sh
    source "$HERE/../lib/harness.sh"
    check goes-on goes_on
    check stops stops
}
system_rig_next_boot() {
    local HARNESS_ERREXIT=0 HARNESS_PREFIX="rig: " HARNESS_COUNTS=$WORK/counts
    local passed=0 failed=0 skipped=0 failed_names=
    # shellcheck source=Tests/lib/harness.sh
    source "$HERE/../lib/harness.sh"
    summary
}
main_counts=$passed/$failed/$skipped
system_rig_boot >"$WORK/system-report"
cat "$WORK/system-report"
system_rig_next_boot >"$WORK/next-boot"
cat "$WORK/next-boot"

problems=0
expect() {  # expect WHAT CONDITION...
    local what=$1
    shift
    "$@" || { echo "harness: $what"; problems=$((problems + 1)); }
}
expect "a hanging check fails with the reason" grep -qE '^FAIL hangs \([0-9.]+ s\): timed out after 2 s$' "$WORK/report"
expect "an ordinary failure is no timeout" grep -qE '^FAIL fails \([0-9.]+ s\)$' "$WORK/report"
expect "the ERR trap says where" grep -q 'failed (status 1): false in fails@' "$WORK/report"
expect "fail says why and stops the check" grep -qx "     no $WORK/nothing" "$WORK/report"
expect "a passing check shows its # lines alone" grep -qx '     42 lx' "$WORK/report"
expect "wait_for names what never came" grep -qx '     timed out after 1 s waiting for: never' "$WORK/report"
expect "wait_for returns when the condition comes" grep -qE '^ok   waits-until-there ' "$WORK/report"
expect "a skip says why" grep -qx 'skip cannot: no such device here' "$WORK/report"
expect "nothing after a failure runs" test "$(grep -c 'not reached' "$WORK/report")" = 0
expect "nor is an unmarked line shown" test "$(grep -c 'not shown' "$WORK/report")" = 0
expect "checks before and after run" test "$(grep -cE '^ok   passes(-after)? ' "$WORK/report")" = 2
expect "the failed ones are named" grep -qx 'failed: hangs fails says-why waits-in-vain' "$WORK/report"
expect "the closing line counts" grep -qx '4 passed, 4 failed, 1 skipped' "$WORK/report"
expect "the summary fails" grep -qx 'summary status 1' "$WORK/report"
expect "counts" test "$main_counts" = 4/4/1
expect "within the bound (took $took s)" test "$took" -lt 15
expect "without set -e a check goes on" grep -qx 'rig:      went on' "$WORK/system-report"
expect "without set -e fail ends the check" grep -qE '^rig: FAIL stops ' "$WORK/system-report"
expect "the settings are the caller's" test "$passed/$failed/$HARNESS_ERREXIT" = 4/4/1
expect "the counts outlive the shell" grep -qx 'rig: 1 passed, 1 failed' "$WORK/next-boot"
gone() {  # gone PID: no such process, or only a zombie its new parent has yet to reap
    [ ! -e "/proc/$1" ] || grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null
}
while read -r pid; do
    expect "process $pid of the hung check is gone" gone "$pid"
done <"$WORK/pids"
[ "$problems" = 0 ]
