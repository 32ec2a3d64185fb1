#!/bin/bash
# Runs in the guest, as root, from the repo (through Tests/rig/run.sh): sets up the fixtures,
# then sources every Tests/rig/scenarios/*.sh in name order. Each scenario file defines shell
# functions and registers them with `check NAME FUNCTION [ARGS...]` (Tests/lib/harness.sh, the
# one test harness), which runs them at once, each within CHECK_TIMEOUT (60 s).
# Prints `ok   NAME (S s)` (with its lines starting "# ") or `FAIL NAME (S s)` (with all its
# output) per check, then `rig: N passed, M failed`; exits 1 if anything failed.
#
# Scenario functions run in a subshell with set -e: the first failing command fails the check.
# They may use what the harness defines (fail, wait_for, skip, pause, read_uptime, expect_exit),
# everything rig/guest/fixtures.sh and Tests/rig/daemon.sh define, plus RIG_WORK (a scratch
# directory) and AMBIENCE (the binary under test: .build/debug/ambience unless set).
# RIG_SCENARIOS (globs) runs only some scenario files, e.g. while writing one.
# RIG_SKIP_GPIOD2=REASON reports the `check_gpiod2` checks as skipped, with REASON: for a binary
# under test that is itself the libgpiod 2.x build (arm64, Debian 13), where they would only
# repeat the checks before them. Each scenario file's time is printed after its checks.
set -uo pipefail
RIG_WORK=$(mktemp -d)
AMBIENCE=${AMBIENCE:-$PWD/.build/debug/ambience}
export RIG_WORK AMBIENCE
passed=0 failed=0 skipped=0
# A passing check shows its "# " lines (measurements), a failing one all its output; waits poll
# every 50 ms, without starting a process (under emulation each one costs the daemon time).
HARNESS_LOGS=$RIG_WORK HARNESS_NAME=rig HARNESS_POLL=0.05
# shellcheck source=Tests/lib/harness.sh
source Tests/lib/harness.sh

# The checks of the libgpiod 2.x build, skipped with RIG_SKIP_GPIOD2's reason where the binary
# under test is that build.
check_gpiod2() {  # check_gpiod2 NAME FUNCTION [ARGS...]
    local name=$1
    shift
    if [ -n "${RIG_SKIP_GPIOD2:-}" ]; then
        skip "$name" "$RIG_SKIP_GPIOD2"
    else
        check "$name" with_gpiod2 "$@"
    fi
}

# ---- Helpers for scenarios ----

# Fails with both values shown unless they are equal.
expect_equal() {  # expect_equal WANT GOT [WHAT]
    [ "$1" != "$2" ] || return 0
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
}

main
