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
    for process in ${WATCH:-} ${DAEMON:-} ${TIMER:-}; do kill "$process" 2>/dev/null || true; done
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

# Every wait below is bounded; this bounds the whole as well.
( sleep 120; echo "desktop colour scheme test: timed out"; kill -TERM $$ ) &
TIMER=$!

scheme() { gsettings get org.gnome.desktop.interface color-scheme; }
wait_scheme() {  # wait_scheme VALUE: until gsettings reads VALUE, 20 s at most
    for _ in $(seq 200); do
        [ "$(scheme)" = "'$1'" ] && return 0
        sleep 0.1
    done
    echo "color-scheme is $(scheme), wanted '$1'"
    return 1
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
for _ in $(seq 200); do [ -p "$WORK/rt/control" ] && break; sleep 0.1; done

passed=0
for step in invert:prefer-dark regular:default contrast:default invert:prefer-dark contrast:default; do
    "$BIN" override "${step%%:*}" --control "$WORK/rt/control" >/dev/null
    # Read by another process than the one that wrote it: dconf keeps it for the whole session.
    wait_scheme "${step#*:}"
    passed=$((passed + 1))
done
kill "$TIMER"
[ -s "$WORK/config/dconf/user" ] || { echo "nothing in the scratch dconf database"; exit 1; }
echo "desktop colour scheme: $passed steps passed"
