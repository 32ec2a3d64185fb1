#!/bin/bash
# Runs in the guest, as root, from the repo (through Tests/rig/run.sh): sets up the fixtures,
# then sources every Tests/rig/scenarios/*.sh in name order. Each scenario file defines shell
# functions and registers them with `check NAME FUNCTION [ARGS...]`, which runs them at once.
# Prints `ok NAME (S s)` (with its lines starting "# ") or `FAIL NAME (S s)` (with all its
# output) per check, then exactly `rig: N passed, M failed`; exits 1 if anything failed.
#
# Scenario functions run in a subshell with set -e: the first failing command fails the check.
# They may use everything rig/guest/fixtures.sh and Tests/rig/daemon.sh define, plus RIG_WORK
# (a scratch directory) and AMBIENCE (the binary under test: .build/debug/ambience unless set).
# RIG_SCENARIOS (globs) runs only some scenario files, e.g. while writing one.
# RIG_SKIP_GPIOD2=REASON reports the `with_gpiod2` checks as skipped, with REASON: for a binary
# under test that is itself the libgpiod 2.x build (arm64, Debian 13), where they would only
# repeat the checks before them. Each scenario file's time is printed after its checks.
set -uo pipefail
CHECK_TIMEOUT=${CHECK_TIMEOUT:-60}
RIG_WORK=$(mktemp -d)
AMBIENCE=${AMBIENCE:-$PWD/.build/debug/ambience}
export RIG_WORK AMBIENCE
passed=0 failed=0 skipped=0

summary() {
    if [ "$skipped" = 0 ]; then
        echo "rig: $passed passed, $failed failed"
    else
        echo "rig: $passed passed, $failed failed, $skipped skipped (each says why)"
    fi
}

# A check this guest cannot make: reported, with why, and counted apart.
skip_check() {  # skip_check NAME REASON
    skipped=$((skipped + 1))
    echo "skip $1: $2"
}

# A passing check shows its "# " lines (measurements); a failing one all its output.
report() {  # report NAME STATUS LOG SECONDS
    if [ "$2" = 0 ]; then
        passed=$((passed + 1))
        echo "ok   $1 ($4 s)"
        sed -n 's/^# /     /p' "$3"
    else
        failed=$((failed + 1))
        echo "FAIL $1 ($4 s)"
        sed 's/^/     /' "$3"
    fi
}

# The ERR trap of checks: the command that failed and the functions it was in, innermost first.
check_failed() {
    local status=$? frame where=
    for ((frame = 1; frame < ${#FUNCNAME[@]} - 1; frame++)); do
        where+=" ${FUNCNAME[frame]}@${BASH_SOURCE[frame]#"$PWD/"}:${BASH_LINENO[frame - 1]}"
    done
    echo "failed (status $status): $BASH_COMMAND in$where"
}

# Runs one check in a subshell, which a watchdog ends after CHECK_TIMEOUT seconds so that one
# hung check cannot eat the whole boot's time. The check runs in a process group of its own and
# the watchdog kills the group: a daemon or a pipe reader the check started goes with it (a
# SIGKILLed check runs no EXIT trap to clean up), so the next check finds its lines free.
check() {  # check NAME FUNCTION [ARGS...]
    local name=$1 log=$RIG_WORK/check.log pid watchdog status started
    shift
    if [ "$1" = with_gpiod2 ] && [ -n "${RIG_SKIP_GPIOD2:-}" ]; then
        skip_check "$name" "$RIG_SKIP_GPIOD2"
        return 0
    fi
    read_uptime
    started=$UPTIME_CS
    # Monitor mode only while starting the two jobs, each in a group of its own; off inside,
    # so what a check starts stays in its group. Standard input from /dev/null, as a
    # background job without monitor mode would have it.
    set -m
    # -E and the ERR trap: a failing command says where it is, even one that prints nothing.
    (
        set +m -eE
        trap check_failed ERR
        "$@"
    ) </dev/null >"$log" 2>&1 &
    pid=$!
    (
        set +m
        sleep "$CHECK_TIMEOUT"
        echo "timed out after ${CHECK_TIMEOUT}s" >>"$log"
        kill -KILL -- -"$pid"
    ) </dev/null 2>/dev/null &
    watchdog=$!
    set +m
    # Quiet: bash would announce a killed job ("Killed ( set +m -eE; … )"); the report says it.
    wait "$pid" 2>/dev/null
    status=$?
    kill -KILL -- -"$watchdog" 2>/dev/null
    wait "$watchdog" 2>/dev/null
    read_uptime
    report "$name" "$status" "$log" "$(((UPTIME_CS - started) / 100)).$(printf %02d $(((UPTIME_CS - started) % 100)))"
}

# ---- Helpers for scenarios ----

# Polls until COMMAND succeeds, for at most SECONDS (decimals allowed). COMMAND runs anew
# each time, so poll a function (gpio_sim_reads 3 1), not an expanded $(...). The loop itself
# starts no process (under emulation each one costs milliseconds the daemon needs too).
eventually() {  # eventually SECONDS COMMAND...
    local deadline
    read_uptime
    deadline=$((UPTIME_CS + $(awk -v wait="$1" 'BEGIN { printf "%d", wait * 100 }')))
    shift
    until "$@"; do
        read_uptime
        [ "$UPTIME_CS" -le "$deadline" ] || { echo "still failing after the wait: $*"; return 1; }
        pause 0.05
    done
}

# UPTIME_CS: seconds since boot in hundredths (/proc/uptime has two decimals), no process.
read_uptime() {
    local uptime
    read -r uptime _ </proc/uptime
    UPTIME_CS=$((10#${uptime/./}))
}

# Sleeps SECONDS without starting a process: a read that times out on a pipe nobody writes.
pause() {  # pause SECONDS
    read -r -t "$1" -u "$PAUSE_FD" _ || true
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

# A check's own test: `cmd || fail "why"` or `if cmd; then fail "why"; fi`, never `! cmd` nor
# `a && b` as a statement, which set -e lets pass whatever they return.
fail() {  # fail MESSAGE...: says why and returns 1 (the ERR trap then says where)
    echo "$*"
    return 1
}

# Fails with both values shown unless they are equal.
expect_equal() {  # expect_equal WANT GOT [WHAT]
    [ "$1" = "$2" ] && return 0
    echo "${3:-value}: got '$2', wanted '$1'"
    return 1
}

main() {
    local scenarios file_started
    echo "guest up after $(cut -d' ' -f1 /proc/uptime)s"
    # shellcheck source=rig/guest/fixtures.sh
    if ! source rig/guest/fixtures.sh; then
        failed=1
        echo "FAIL fixtures"
        summary
        exit 1
    fi
    rig_describe_fixtures | sed 's/^/# /'
    # shellcheck source=Tests/rig/daemon.sh
    source Tests/rig/daemon.sh
    mkfifo "$RIG_WORK/never"
    exec {PAUSE_FD}<>"$RIG_WORK/never"
    # shellcheck disable=SC2086 # RIG_SCENARIOS is a list of globs (to run a few while developing)
    for scenarios in ${RIG_SCENARIOS:-Tests/rig/scenarios/*.sh}; do
        read_uptime
        file_started=$UPTIME_CS
        # shellcheck source=/dev/null
        source "$scenarios"
        read_uptime
        echo "rig: $(basename "$scenarios") took $(((UPTIME_CS - file_started) / 100)) s"
    done
    summary
    [ "$failed" = 0 ] && [ "$passed" -gt 0 ]
}

main
