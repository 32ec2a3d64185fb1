#!/bin/bash
# Runs in the guest, as root, from the repo (through Tests/rig/run.sh): sets up the fixtures,
# then sources every Tests/rig/scenarios/*.sh in name order. Each scenario file defines shell
# functions and registers them with `check NAME FUNCTION [ARGS...]`, which runs them at once.
# Prints `ok NAME` or `FAIL NAME` (with the check's output) per check, then exactly
# `rig: N passed, M failed`; exits 1 if anything failed.
#
# Scenario functions run in a subshell with set -e: the first failing command fails the check.
# They may use everything rig/guest/fixtures.sh defines, plus RIG_WORK (a scratch directory)
# and AMBIENCE (the binary under test: .build/debug/ambience unless set).
set -uo pipefail
CHECK_TIMEOUT=${CHECK_TIMEOUT:-60}
RIG_WORK=$(mktemp -d)
AMBIENCE=${AMBIENCE:-$PWD/.build/debug/ambience}
export RIG_WORK AMBIENCE
passed=0 failed=0

summary() {
    echo "rig: $passed passed, $failed failed"
}

report() {  # report NAME STATUS LOG
    if [ "$2" = 0 ]; then
        passed=$((passed + 1))
        echo "ok   $1"
    else
        failed=$((failed + 1))
        echo "FAIL $1"
        sed 's/^/     /' "$3"
    fi
}

# Runs one check in a subshell, which a watchdog ends after CHECK_TIMEOUT seconds so that one
# hung check cannot eat the whole boot's time.
check() {  # check NAME FUNCTION [ARGS...]
    local name=$1 log=$RIG_WORK/check.log pid watchdog status
    shift
    ( set -e; "$@" ) >"$log" 2>&1 &
    pid=$!
    (
        sleep "$CHECK_TIMEOUT"
        echo "timed out after ${CHECK_TIMEOUT}s" >>"$log"
        pkill -KILL -P "$pid"
        kill -KILL "$pid"
    ) 2>/dev/null &
    watchdog=$!
    wait "$pid"
    status=$?
    kill "$watchdog" 2>/dev/null
    wait "$watchdog" 2>/dev/null
    report "$name" "$status" "$log"
}

# ---- Helpers for scenarios ----

# Polls until COMMAND succeeds, for at most SECONDS (decimals allowed). COMMAND runs anew
# each time, so poll a function (gpio_sim_reads 3 1), not an expanded $(...).
eventually() {  # eventually SECONDS COMMAND...
    local deadline
    deadline=$(awk -v now="$(cut -d' ' -f1 /proc/uptime)" -v wait="$1" 'BEGIN { print now + wait }')
    shift
    until "$@"; do
        awk -v now="$(cut -d' ' -f1 /proc/uptime)" -v end="$deadline" 'BEGIN { exit !(now > end) }' &&
            { echo "still failing after the wait: $*"; return 1; }
        sleep 0.05
    done
}

# Runs COMMAND, expecting exit status WANT; its output is in $RIG_WORK/out and .../err.
expect_exit() {  # expect_exit WANT COMMAND...
    local want=$1 got=0
    shift
    "$@" >"$RIG_WORK/out" 2>"$RIG_WORK/err" || got=$?
    [ "$got" = "$want" ] && return 0
    echo "$* exited $got, wanted $want; stdout and stderr:"
    cat "$RIG_WORK/out" "$RIG_WORK/err"
    return 1
}

# Fails with both values shown unless they are equal.
expect_equal() {  # expect_equal WANT GOT [WHAT]
    [ "$1" = "$2" ] && return 0
    echo "${3:-value}: got '$2', wanted '$1'"
    return 1
}

main() {
    local scenarios
    echo "guest up after $(cut -d' ' -f1 /proc/uptime)s"
    # shellcheck source=rig/guest/fixtures.sh
    if ! source rig/guest/fixtures.sh; then
        failed=1
        echo "FAIL fixtures"
        summary
        exit 1
    fi
    rig_describe_fixtures | sed 's/^/# /'
    for scenarios in Tests/rig/scenarios/*.sh; do
        # shellcheck source=/dev/null
        source "$scenarios"
    done
    summary
    [ "$failed" = 0 ] && [ "$passed" -gt 0 ]
}

main
