#!/bin/bash
# The desktop colour scheme recipe (examples/desktop-color-scheme.sh under `ambience watch
# --exec`) against real GSettings: dconf in a private D-Bus session (dbus-run-session), with a
# scratch dconf database, so the machine's own settings are never touched. What this machine
# cannot show: a portal (xdg-desktop-portal-gtk needs a graphical session) and a browser
# reacting to it.
# Usage: Tests/desktop/color-scheme.sh PATH-TO-AMBIENCE
set -euo pipefail
BIN=$(realpath "${1:-.build/debug/ambience}")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# Made once, before the private D-Bus session, and removed by the run inside it.
WORK=${AMBIENCE_DESKTOP_WORK:-$(mktemp -d)}
cleanup() {
    # Whatever is still running; one that ended already is no error.
    for process in ${WATCH:-} ${DAEMON:-}; do kill "$process" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
if [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ] || [ -z "${AMBIENCE_IN_DBUS:-}" ]; then
    export AMBIENCE_IN_DBUS=1 AMBIENCE_DESKTOP_WORK=$WORK XDG_CONFIG_HOME=$WORK/config XDG_RUNTIME_DIR=$WORK/run GSETTINGS_BACKEND=dconf
    mkdir -p "$XDG_CONFIG_HOME" "$XDG_RUNTIME_DIR"
    chmod 700 "$XDG_RUNTIME_DIR"
    trap - EXIT
    exec dbus-run-session -- "$0" "$BIN"
fi

# Every wait below is bounded, and each step is a check with a timeout.
CHECK_TIMEOUT=30 HARNESS_LOGS=$WORK HARNESS_NAME="desktop colour scheme"
# shellcheck source=Tests/lib/harness.sh
source "$ROOT/Tests/lib/harness.sh"

scheme() { gsettings get org.gnome.desktop.interface color-scheme; }
scheme_is() { [ "$(scheme)" = "'$1'" ]; }
# The override sent, then read back by another process than the one that wrote it: dconf keeps
# it for the whole session.
override_sets_the_scheme() {  # override_sets_the_scheme STATE SCHEME
    "$BIN" override "$1" --control "$WORK/rt/control" >/dev/null
    wait_for 20 scheme_is "$2" || fail "color-scheme is $(scheme), wanted '$2'"
}
in_the_scratch_database() {
    [ -s "$WORK/config/dconf/user" ] || fail "nothing in the scratch dconf database"
}

cat >"$WORK/ambience.toml" <<TOML
state_file = "$WORK/rt/state.json"
control_pipe = "$WORK/rt/control"
state_directory = "$WORK/lib"
[sensor]
kind = "bh1750"
[pipes]
paths = ["$WORK/rt/desktop"]
TOML
mkdir -p "$WORK/rt"
gsettings set org.gnome.desktop.interface color-scheme default
"$BIN" simulate --config "$WORK/ambience.toml" --profile noise:300:0 >"$WORK/daemon.log" 2>&1 &
DAEMON=$!
"$BIN" watch --pipe "$WORK/rt/desktop" --exec "$ROOT/examples/desktop-color-scheme.sh" >"$WORK/watch.log" 2>&1 &
WATCH=$!
wait_for 20 test -p "$WORK/rt/control" || { cat "$WORK/daemon.log"; exit 1; }

for step in invert:prefer-dark regular:default contrast:default invert:prefer-dark contrast:default; do
    # Each step starts from the one before: after a failure the rest would only fail too.
    check "override ${step%%:*}: color-scheme ${step#*:}" override_sets_the_scheme "${step%%:*}" "${step#*:}" || break
done
# A failed check is counted, and summary then fails the run.
check "the scheme is in the session's dconf database" in_the_scratch_database || true
summary
