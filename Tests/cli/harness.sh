# shellcheck shell=bash
# The command-line tests' runner, sourced by Tests/cli/run.sh and Tests/cli/harness-test.sh.
# Needs WORK (a scratch directory); counts into `passed` and `failed`.
#
# Each test runs in its own process group, so that a test that hangs (a `cat` on a FIFO nobody
# opens, a simulation that never ends, a `wait` on either) is ended as a whole, children and
# all, after CLI_TEST_TIMEOUT seconds, reported as failed, and the run goes on.
CLI_TEST_TIMEOUT=${CLI_TEST_TIMEOUT:-60}
passed=${passed:-0} failed=${failed:-0}

# A test's checks: `cmd || fail "why"` or `if cmd; then fail "why"; fi`, never `! cmd` nor
# `a && b` as a statement, which set -e lets pass whatever they return (only the last part of
# an && list counts, and a negated command never stops the test).
fail() {  # fail MESSAGE...: says why and returns 1, which stops the test under set -e
    echo "$*"
    return 1
}

check() {  # check NAME COMMAND...: runs COMMAND, counts a pass when it exits 0 in time
    local name=$1 test watchdog code=0
    shift
    rm -f "$WORK/timed-out"
    # Monitor mode only while starting the two jobs: each gets a process group of its own.
    # Inside, it is turned off again so that what a test starts stays in the test's group.
    # Neither inside `if` nor before `||`, where bash ignores set -e: the subshell must stop at
    # the first failing command. Standard input from /dev/null, as a background job without
    # monitor mode would have it: a test never reads the terminal.
    set -m
    (
        set +m -e
        "$@"
    ) </dev/null >"$WORK/log" 2>&1 &
    test=$!
    (
        set +m
        sleep "$CLI_TEST_TIMEOUT"
        : >"$WORK/timed-out"
        kill -TERM -- -"$test"
        sleep 5
        kill -KILL -- -"$test"
    ) </dev/null >/dev/null 2>&1 &
    watchdog=$!
    set +m
    # Quiet: bash would announce a killed job; the report below says it.
    wait "$test" 2>/dev/null || code=$?
    kill -KILL -- -"$watchdog" 2>/dev/null
    wait "$watchdog" 2>/dev/null
    # Whatever the test left running (a reader, a daemon) goes with it.
    kill -KILL -- -"$test" 2>/dev/null
    if [ -e "$WORK/timed-out" ]; then
        failed=$((failed + 1)); echo "FAIL $name: timed out after $CLI_TEST_TIMEOUT s"
        sed 's/^/     /' "$WORK/log"
    elif [ $code = 0 ]; then
        passed=$((passed + 1)); echo "ok   $name"
    else
        failed=$((failed + 1)); echo "FAIL $name"; sed 's/^/     /' "$WORK/log"
    fi
}
