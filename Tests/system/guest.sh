#!/bin/bash
# The system rig's checks (docs/rig.md, "The system rig"): run as root in the Debian 13 guest by
# rig-checks.service once systemd has brought the system up, from the rig's disk, mounted at
# /mnt/rig with the two packages (old/, new/) and the unit files as built (units/).
# Boot 1 installs the package and follows the README's "Installing on a Raspberry Pi" as
# written, then runs the scenarios; its power is cut while an override is written. Boot 2 checks
# what the cut kept and what a boot brings up; its power is cut during a record flush. Boot 3
# checks that cut, and its power is cut while a brightness override is written. Boot 4 checks
# that one, then removes and purges the package and powers off. The cuts are make
# test-powercut's actions (Tests/system/powercut-guest.sh); rig/system/run.sh cuts the power.
# Boot 4 has the root as Raspberry Pi OS's overlay file system makes it (read-only, the changes in
# RAM), and checks the daemon there. One line per check on the console: "rig: ok NAME" or
# "rig: FAIL NAME", each check bounded by its own timeout: the checks of the one test harness,
# Tests/lib/harness.sh (on the rig's disk as lib/harness.sh), without set -e: each check ends in
# `|| fail` or is a `wait_for`, and `fail` ends the check.
#
#   guest.sh                        what rig-checks.service runs
set -uo pipefail
R=/mnt/rig
CONFIG=/etc/ambience/ambience.toml
LIGHT=/sys/module/ambience_test_i2c/parameters/bh1750_millilux
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8

# Only the lines starting "rig: " reach the host's log (rig/system/run.sh): the harness's own,
# and a passing check's lines of that kind; a failing check's last 15 lines; each check's whole
# output stays in out/NAME.log on the rig's disk. Its counts are kept there too, for the next boot.
# Waits poll every half second: under emulation systemctl and journalctl take a while.
HARNESS_ERREXIT=0 HARNESS_PREFIX="rig: " HARNESS_SHOW="rig: " HARNESS_FAIL_LINES=15 HARNESS_POLL=0.5
HARNESS_LOGS=$R/out HARNESS_COUNTS=$R/counts
# shellcheck source=Tests/lib/harness.sh
. "$R/lib/harness.sh"
# Seconds any single expected change may take: the daemon promises 12 s (latency), under
# emulation systemd's and the companions' answers take a few more.
WAIT=60

say() { echo "rig: $*"; }
# Seconds since the kernel started.
now() { cut -d' ' -f1 /proc/uptime; }
main_pid() { systemctl show -P MainPID "${1:-ambience}"; }
state() { sed -n 's/.*"state":"\([a-z]*\)".*/\1/p' /run/ambience/state.json 2>/dev/null; }
state_is() { [ "$(state)" = "$1" ]; }
lux() { echo $(($1 * 1000)) >"$LIGHT"; }
active() { [ "$(systemctl is-active "$1")" = active ]; }
# The room at 300 lx and the state regular: where every check starts from.
regular_room() { lux 300; wait_for "$WAIT" state_is regular; }
# As a user, in one process (setpriv executes the command itself: its PID is the command's, and
# a timeout or kill reaches it).
as_user() { local user=$1; shift; setpriv --reuid="$user" --regid="$user" --init-groups --reset-env "$@"; }
as_pi() { as_user pi "$@"; }
as_visitor() { as_user visitor "$@"; }
# The journal of the daemon's unit since a cursor (the journal's own, from cursor_now).
cursor_now() { journalctl -n 0 --show-cursor -q | sed -n 's/^-- cursor: //p'; }
journal_since() { journalctl --no-pager -q --after-cursor="$1" "${@:2}"; }
# The daemon's messages since CURSOR whose priority matches PRIORITY (a number or a bracket
# expression), one a line. Filtered here, from the JSON: bookworm's journalctl (systemd 252)
# gave nothing for -p warning..warning after a cursor, where the entry was at 4.
messages_at() {  # messages_at CURSOR PRIORITY
    journal_since "$1" -u ambience -o json | grep "\"PRIORITY\":\"$2\"" |
        sed -n 's/.*"MESSAGE":"\(\([^"\\]\|\\.\)*\)".*/\1/p'
}

# ---- the checks: bodies run by check NAME TIMEOUT FUNCTION, in a shell of their own ----

# Step 3 of the README: the package from the rig's disk, Depends resolved by apt from what the
# image has (no network).
install_package() {
    # As the README says, from the directory the package was copied to.
    cp "$R"/old/ambience_*.deb /home/pi/
    cd /home/pi || fail "no /home/pi"
    as_pi sudo DEBIAN_FRONTEND=noninteractive apt install -y ./ambience_*.deb || fail "apt install"
    getent passwd ambience || fail "no user ambience"
    id ambience | grep -q '(i2c)' || fail "the user ambience is not in i2c: $(id ambience)"
    id ambience | grep -q '(gpio)' || fail "the user ambience is not in gpio: $(id ambience)"
    if active ambience; then fail "the package started the daemon"; fi
    stat -c '%G %a %n' /dev/i2c-1 /dev/gpiochip0
    [ "$(stat -c '%G %a' /dev/i2c-1)" = "i2c 660" ] || fail "/dev/i2c-1 not i2c 0660 after the rules were applied"
    [ "$(stat -c '%G %a' /dev/gpiochip0)" = "gpio 660" ] || fail "/dev/gpiochip0 not gpio 0660"
}

# Step 4: board and [sensor] kind, then probe and check as the pi user.
configure() {
    sed -i 's/^board = .*/board = "raspberry-pi-4"/; s/^kind = "[a-z0-9]*"/kind = "bh1750"/' "$CONFIG"
    grep -n '^board\|^kind' "$CONFIG"
    lux 300
    as_pi ambience probe || fail "ambience probe as pi"
    as_pi ambience probe | grep -qi 'bh1750' || fail "probe did not name the BH1750"
    as_pi ambience check >/tmp/check.out || { cat /tmp/check.out; fail "ambience check as pi"; }
    grep -q 'raspberry-pi-4\|pinctrl-bcm2711' /tmp/check.out || fail "check does not show the board"
}

# Step 5, and the companions (docs/serve.md, docs/mqtt.md).
start() {
    systemctl enable --now ambience || {
        journalctl -u ambience -b --no-pager -o cat | tail -n 5
        fail "enable --now"
    }
    active ambience || fail "not active"
    usermod -aG ambience pi
    sed -i 's|^paths = .*|paths = ["/run/ambience/state", "/run/ambience/kiosk", "/run/ambience/serve", "/run/ambience/mqtt"]|' "$CONFIG"
    printf '\n[mqtt]\nbroker = "mqtt://localhost"\n' >>"$CONFIG"
    as_pi ambience check >/dev/null || fail "check after adding [mqtt]"
    systemctl restart ambience
    systemctl enable --now ambience-serve ambience-mqtt || fail "companions"
    active ambience-serve || fail "ambience-serve not active"
    active ambience-mqtt || fail "ambience-mqtt not active"
}

# Scenario 1: the daemon as installed.
running_as_shipped() {
    local pid shipped fragment
    pid=$(main_pid)
    [ "$(ps -o user= -p "$pid")" = ambience ] || fail "MainPID $pid runs as $(ps -o user= -p "$pid")"
    # The unit where the package put it (bookworm's under /lib, trixie's under /usr/lib).
    shipped=$(dpkg -L ambience | grep '/systemd/system/ambience\.service$')
    fragment=$(systemctl show -P FragmentPath ambience)
    if [ -z "$shipped" ] || [ "$fragment" != "$shipped" ]; then
        fail "unit path $fragment, the package's ${shipped:-none}"
    fi
    [ -z "$(systemctl show -P DropInPaths ambience)" ] || fail "drop-ins: $(systemctl show -P DropInPaths ambience)"
    cmp "$fragment" "$R/units/ambience.service" || fail "unit differs from the repository's"
    grep -q '^NoNewPrivs:[[:space:]]*1' "/proc/$pid/status" || fail "NoNewPrivs"
    grep -q '^CapEff:[[:space:]]*0000000000000000' "/proc/$pid/status" || fail "capabilities"
    local groups
    groups=$(sed -n 's/^Groups:\s*//p' "/proc/$pid/status")
    for g in i2c gpio; do
        echo " $groups " | grep -q " $(getent group $g | cut -d: -f3) " || fail "not in group $g ($groups)"
    done
    [ "$(systemctl show -P SubState ambience)" = running ] || fail "not running (READY=1 never came?)"
    systemctl show ambience -p Type -p NotifyAccess -p WatchdogUSec -p PrivateNetwork -p DevicePolicy -p ProtectSystem
}

# The sandbox docs/daemon.md's "Running unprivileged" describes, as systemd runs it (whatever the file
# says): a unit loosened or stripped of what it needs fails here even when the daemon still runs.
sandbox_as_documented() {
    local want property value bad=
    while IFS='|' read -r property want; do
        value=$(systemctl show -P "$property" ambience)
        echo "$property=$value"
        if [ -z "$want" ]; then
            [ -z "$value" ] || bad+=" $property (want none)"
        else
            [[ $value == *"$want"* ]] || bad+=" $property (want $want)"
        fi
    done <<'PROPERTIES'
User|ambience
SupplementaryGroups|i2c gpio video
Type|notify
WatchdogUSec|10s
NoNewPrivileges|yes
CapabilityBoundingSet|
ProtectSystem|strict
ProtectHome|yes
PrivateTmp|yes
PrivateNetwork|yes
RestrictAddressFamilies|AF_UNIX
DevicePolicy|closed
ReadWritePaths|/sys/devices
DeviceAllow|char-i2c
DeviceAllow|char-gpiochip
DeviceAllow|char-input
DeviceAllow|char-cec
RuntimeDirectory|ambience
StateDirectory|ambience
MemoryDenyWriteExecute|yes
Restart|on-failure
RestartPreventExitStatus|78
PROPERTIES
    systemd-analyze security ambience --no-pager | tail -n 1
    local exposure
    exposure=$(systemd-analyze security ambience --no-pager | sed -n 's/.*exposure level for ambience.service: \([0-9.]*\).*/\1/p')
    awk -v e="$exposure" 'BEGIN { exit !(e != "" && e <= 0.6) }' || bad+=" exposure $exposure (docs/daemon.md: 0.6)"
    [ -z "$bad" ] || fail "not as documented:$bad"
}

reads_sensor() {
    local pid
    pid=$(main_pid)
    lux 3
    wait_for "$WAIT" state_is invert
    lux 300
    wait_for "$WAIT" state_is regular
    local fd open=no
    for fd in "/proc/$pid/fd"/*; do
        if [ "$(readlink "$fd")" = /dev/i2c-1 ]; then open=yes; fi
    done
    [ "$open" = yes ] || fail "the daemon has no /dev/i2c-1 open"
}

drives_gpio() {
    local chips=(/sys/devices/platform/gpio-sim.*/gpiochip*)
    local chip=${chips[0]}
    wait_for "$WAIT" state_is regular
    # raspberry-pi-4: invert 17, regular 27, contrast 22.
    [ "$(cat "$chip/sim_gpio27/value")" = 1 ] || fail "line 27 (regular) is not high"
    [ "$(cat "$chip/sim_gpio17/value")" = 0 ] || fail "line 17 (invert) is not low"
    gpioinfo -c pinctrl-bcm2711 2>/dev/null | grep -E 'line +(17|22|23|27):' || true
}

journal_notice() {
    journalctl -u ambience -b -p notice --no-pager -o cat | grep . || fail "nothing at notice"
}

# The display follows the room (docs/backlight.md): the test adapter's backlight class device,
# then its DDC/CI monitor on /dev/i2c-1, driven by the daemon as the package's unit runs it, with
# the defaults a Pi owner gets from `device = "auto"` alone.
BACKLIGHT=/sys/class/backlight/ambience-test
ADAPTER=/sys/module/ambience_test_i2c/parameters
brightness() { sed -n 's/.*"brightness":\([0-9]*\).*/\1/p' /run/ambience/state.json 2>/dev/null; }
brightness_is() { [ "$(brightness)" = "$1" ]; }
has_brightness() { [ -n "$(brightness)" ]; }
# The device's raw value for PERCENT: the class device's maximum is 255, the monitor's 100.
sysfs_shows() { [ "$(cat "$BACKLIGHT/brightness")" = $((($1 * 255 + 50) / 100)) ]; }
monitor_shows() { [ "$(cat "$ADAPTER/ddc_brightness")" = "$1" ]; }
backlight_follows() {  # backlight_follows SHOWS: the curve's 62 % at 300 lx, 100 % in sunlight, an override
    regular_room
    wait_for "$WAIT" brightness_is 62
    wait_for "$WAIT" "$1" 62
    echo "300 lx: 62 %"
    lux 30000
    wait_for "$WAIT" brightness_is 100
    wait_for "$WAIT" "$1" 100
    echo "30 klx: 100 %"
    ambience brightness 40 || fail "ambience brightness 40"
    wait_for "$WAIT" "$1" 40
    ambience brightness auto || fail "ambience brightness auto"
    wait_for "$WAIT" "$1" 100
    echo "held at 40 %, then the light again"
    regular_room
    wait_for "$WAIT" "$1" 62
}
backlight_under_systemd() {
    local cursor
    stat -c '%G %a %n' "$BACKLIGHT/brightness"
    # The module was there before the package: its postinst had udev apply the rule.
    [ "$(stat -c %G "$BACKLIGHT/brightness")" = video ] || fail "brightness is not group video"
    id ambience | grep -q '(video)' || fail "ambience is not in video"
    cp "$CONFIG" /root/before-backlight.toml
    cursor=$(cursor_now)
    printf '\n[backlight]\ndevice = "auto"\n' >>"$CONFIG"
    systemctl reload ambience
    backlight_follows sysfs_shows
    sed -i 's/^device = "auto"/device = "ddc:1"/' "$CONFIG"
    systemctl reload ambience
    backlight_follows monitor_shows
    echo "the monitor took $(cat "$ADAPTER/ddc_sets") Set VCP messages"
    if journal_since "$cursor" -u ambience -o cat | grep -i 'backlight\|ddc'; then
        if journal_since "$cursor" -u ambience -o cat | grep -i 'read-only\|permission denied\|not answering'; then
            fail "the unit kept the daemon from its display"
        fi
    fi
    cp /root/before-backlight.toml "$CONFIG"
    systemctl reload ambience
}

# Scenario 2: a bus that comes late, then a typo.
late_bus() {
    systemctl stop ambience ambience-serve ambience-mqtt
    modprobe -r ambience-test-i2c || fail "rmmod"
    [ ! -e /dev/i2c-1 ] || fail "/dev/i2c-1 still there"
    local before
    before=$(systemctl show -P NRestarts ambience)
    systemctl start --no-block ambience
    sleep 20
    echo "after 20 s: $(systemctl is-active ambience), $(($(systemctl show -P NRestarts ambience) - before)) restarts"
    modprobe ambience-test-i2c
    lux 300
    wait_for "$WAIT" active ambience
    wait_for "$WAIT" test -e /run/ambience/state.json
    wait_for "$WAIT" state_is regular
    echo "running after $(($(systemctl show -P NRestarts ambience) - before)) restarts"
    systemctl start ambience-serve ambience-mqtt
    [ "$(stat -c '%G %a' /dev/i2c-1)" = "i2c 660" ] || fail "the new /dev/i2c-1 is not i2c 0660"
}

typo() {
    cp "$CONFIG" /root/good.toml
    sed -i 's/^interval = /intervall = /' "$CONFIG"
    local line
    line=$(grep -n '^intervall' "$CONFIG" | cut -d: -f1)
    local cursor
    cursor=$(cursor_now)
    systemctl restart ambience
    wait_for "$WAIT" systemctl is-failed --quiet ambience
    [ "$(systemctl show -P ExecMainStatus ambience)" = 78 ] || fail "exit $(systemctl show -P ExecMainStatus ambience)"
    systemctl --failed --no-legend | grep ambience.service || fail "systemctl --failed does not list it"
    journalctl -p err -u ambience -b --no-pager -o cat | grep -F "$CONFIG:$line:" || fail "no $CONFIG:$line: at err"
    cp /root/good.toml "$CONFIG"
    systemctl restart ambience
    active ambience || fail "not active after the fix"
}

# Scenario 3.
reload_applies() {
    local pid
    pid=$(main_pid)
    wait_for "$WAIT" state_is regular
    cp "$CONFIG" /root/good.toml
    sed -i 's/^regular_contrast = .*/regular_contrast = { fall = 100, rise = 200 }/' "$CONFIG"
    systemctl reload ambience
    wait_for "$WAIT" state_is contrast
    [ "$(main_pid)" = "$pid" ] || fail "MainPID changed"
}

reload_broken() {
    local pid cursor
    pid=$(main_pid)
    cursor=$(cursor_now)
    sed -i 's/^dwell = [0-9.]*/dwell = "five"/' "$CONFIG"
    local line
    line=$(grep -n '^dwell = "five"' "$CONFIG" | cut -d: -f1)
    [ -n "$line" ] || fail "no dwell line to break"
    systemctl reload ambience
    wait_for "$WAIT" sh -c "journalctl --no-pager -q -u ambience --after-cursor='$cursor' -o cat | grep -F '$CONFIG:$line: timing.dwell'"
    sleep 2
    active ambience || fail "the daemon did not go on: not active"
    [ "$(main_pid)" = "$pid" ] || fail "the daemon did not go on: MainPID $(main_pid), was $pid"
    state_is contrast || fail "the running configuration was not kept"
    cp /root/good.toml "$CONFIG"
    systemctl reload ambience
    wait_for "$WAIT" state_is regular
}

# Scenario 4.
restart_follows() {
    local serve mqtt inode watcher
    regular_room
    serve=$(main_pid ambience-serve) mqtt=$(main_pid ambience-mqtt) inode=$(stat -c %i /run/ambience)
    rm -f /tmp/watch.out
    # Not through as_pi: $! must be the watch itself (the pipe has one reader at a time, and a
    # watch left behind would keep the next one from getting the current state).
    setpriv --reuid=pi --regid=pi --init-groups --reset-env ambience watch >/tmp/watch.out 2>&1 &
    watcher=$!
    wait_for "$WAIT" grep -q regular /tmp/watch.out
    echo "watch follows"
    timeout 30 mosquitto_sub -t 'ambience/+/state' -v >/tmp/sub.out 2>&1 &
    systemctl restart ambience
    [ "$(stat -c %i /run/ambience)" != "$inode" ] || fail "/run/ambience was not made again"
    lux 3
    wait_for "$WAIT" state_is invert
    echo "the daemon: invert"
    wait_for "$WAIT" grep -q invert /tmp/watch.out
    echo "watch: invert"
    wait_for "$WAIT" sh -c 'curl -s http://127.0.0.1:8470/state | grep -q invert'
    echo "serve: invert"
    wait_for "$WAIT" grep -q invert /tmp/sub.out
    echo "mqtt: invert"
    [ "$(main_pid ambience-serve)" = "$serve" ] || fail "serve restarted"
    [ "$(main_pid ambience-mqtt)" = "$mqtt" ] || fail "mqtt restarted"
    kill "$watcher"
    wait "$watcher"
    lux 300
    wait_for "$WAIT" state_is regular
}

# Scenario 5.
crash_keeps_override() {
    local pid
    regular_room
    ambience override invert || fail "override"
    wait_for "$WAIT" state_is invert
    pid=$(main_pid)
    kill -9 "$pid"
    wait_for "$WAIT" sh -c "[ \"\$(systemctl show -P MainPID ambience)\" != $pid ] && [ \"\$(systemctl show -P MainPID ambience)\" != 0 ]"
    wait_for "$WAIT" active ambience
    sleep 2
    state_is invert || fail "override lost: $(state)"
    grep -o '"override[^,}]*' /run/ambience/state.json || true
}

hang_watchdog() {
    local pid
    pid=$(main_pid)
    kill -STOP "$pid"
    local t0
    t0=$(now)
    wait_for "$WAIT" sh -c "[ \"\$(systemctl show -P MainPID ambience)\" != $pid ] && [ \"\$(systemctl show -P MainPID ambience)\" != 0 ]"
    wait_for "$WAIT" active ambience
    echo "restarted $(awk -v a="$(now)" -v b="$t0" 'BEGIN { printf "%.0f", a - b }') s after SIGSTOP"
    journalctl -u ambience -b --no-pager -o cat | grep -i watchdog | tail -n 2
    ambience override auto
    wait_for "$WAIT" state_is regular
}

# [sensor] interval = 15 under the unit's WatchdogSec=10: the loop feeds the watchdog on a deadline
# of its own, whatever the sample interval (docs/daemon.md, "systemd notification"). 45 s (three
# samples, four watchdog periods, each gap between samples longer than one) of real time with the
# same MainPID and no restart; then a SIGSTOP with the long interval still ends in a restart
# (hang_watchdog).
# make watchdog-soak sets it longer on the rig's disk.
LONG_INTERVAL_SECONDS=$(cat "$R/long-interval-seconds" 2>/dev/null || echo 45)
watchdog_age() {  # seconds since the daemon's last WATCHDOG=1, as systemd saw it
    awk -v up="$(now)" -v t="$(systemctl show -P WatchdogTimestampMonotonic ambience)" 'BEGIN { printf "%.1f", up - t / 1e6 }'
}
long_interval_watchdog() {
    local pid restarts t0 age oldest=0
    cp "$CONFIG" /root/before-long-interval.toml
    # However the check ends, the checks after it get the configuration as it was.
    trap 'cp /root/before-long-interval.toml "$CONFIG"; systemctl restart ambience' EXIT
    sed -i 's/^interval = .*/interval = 15/; s/^latency = .*/latency = 30/; s/^fault_after = .*/fault_after = 45/' "$CONFIG"
    grep -n '^interval\|^latency\|^fault_after' "$CONFIG"
    ambience check >/dev/null || fail "ambience check refuses interval = 15"
    regular_room
    systemctl restart ambience || fail "restart"
    active ambience || fail "not active"
    pid=$(main_pid) restarts=$(systemctl show -P NRestarts ambience) t0=$(now)
    while awk -v a="$(now)" -v b="$t0" -v s="$LONG_INTERVAL_SECONDS" 'BEGIN { exit !(a - b < s) }'; do
        [ "$(main_pid)" = "$pid" ] || fail "MainPID $pid is now $(main_pid), $(awk -v a="$(now)" -v b="$t0" 'BEGIN { printf "%.0f", a - b }') s in"
        age=$(watchdog_age)
        awk -v a="$age" -v o="$oldest" 'BEGIN { exit !(a > o) }' && oldest=$age
        sleep 5
    done
    echo "$LONG_INTERVAL_SECONDS s with interval = 15: MainPID $pid, NRestarts $(systemctl show -P NRestarts ambience), the last WATCHDOG=1 at most $oldest s old when looked at"
    [ "$(systemctl show -P NRestarts ambience)" = "$restarts" ] || fail "NRestarts went from $restarts to $(systemctl show -P NRestarts ambience)"
    active ambience || fail "not active"
    # Half of WatchdogSec, with slack for the emulated guest's own delays.
    awk -v o="$oldest" 'BEGIN { exit !(o <= 8) }' || fail "a WATCHDOG=1 $oldest s old (the loop's deadline is 5 s)"
    hang_watchdog
    trap - EXIT
    cp /root/before-long-interval.toml "$CONFIG"
    systemctl restart ambience || fail "restart with the configuration as it was"
    regular_room
}

# A state directory that cannot be written (a read-only root, Raspberry Pi OS's overlay): the
# daemon runs with its state in RAM, /run/ambience/lib (docs/daemon.md, "The state directory"),
# says so once at warning, and an override still works. Undone at the end, however it ends.
read_only_state() {
    local cursor notices
    regular_room
    # Stopped first: the daemon that stops writes its record where it could.
    systemctl stop ambience
    # A read-only bind of the directory over itself: StateDirectory= finds it as it was (owner
    # and mode), and the unit sees it read-only as the host does.
    mount --bind /var/lib/ambience /var/lib/ambience || fail "bind /var/lib/ambience"
    trap 'systemctl stop ambience; umount /var/lib/ambience; systemctl start ambience' EXIT
    mount -o remount,bind,ro /var/lib/ambience || fail "remount /var/lib/ambience read-only"
    if touch /var/lib/ambience/.probe 2>/dev/null; then fail "/var/lib/ambience is still writable"; fi
    cursor=$(cursor_now)
    systemctl start ambience || fail "start with /var/lib/ambience read-only: $(journal_since "$cursor" -o cat | tail -n 5)"
    active ambience || fail "not active"
    ambience override contrast || fail "override contrast"
    wait_for "$WAIT" state_is contrast
    [ "$(cat /run/ambience/lib/override 2>/dev/null)" = contrast ] || fail "no override in /run/ambience/lib: $(ls -l /run/ambience)"
    # A reload and another override do not say it again.
    systemctl reload ambience
    wait_for "$WAIT" sh -c "journalctl --no-pager -q -u ambience --after-cursor='$cursor' -o cat | grep -q 'configuration reloaded'"
    ambience override auto || fail "override auto"
    wait_for "$WAIT" state_is regular
    sleep 1
    messages_at "$cursor" 4 | tee /tmp/read-only.warnings
    notices=$(grep -c 'in RAM' /tmp/read-only.warnings)
    if [ "$notices" != 1 ]; then
        fail "$notices notices of the state in RAM at warning, not 1; the unit's journal since its start:
$(journal_since "$cursor" -u ambience -o verbose | sed -n 's/^ *\(PRIORITY\|MESSAGE\)=//p' | paste - -)"
    fi
    grep -q '^cannot write in /var/lib/ambience: Read-only file system: .*/run/ambience/lib.*reboot' /tmp/read-only.warnings ||
        fail "the notice does not say where the state lives and that a reboot loses it"
    if messages_at "$cursor" '[0-3]' | grep .; then fail "errors logged"; fi
    trap - EXIT
    systemctl stop ambience
    umount /var/lib/ambience || fail "umount"
    systemctl start ambience || fail "start with /var/lib/ambience writable again"
    active ambience || fail "not active after the undo"
    regular_room
}

# Scenario 6.
serve_answers() {
    regular_room
    curl -sf http://127.0.0.1:8470/state | tee /dev/stderr | grep -q '"state":"regular"' || fail "GET /state"
}

serve_refuses_remote() {
    ip link add rig0 type dummy 2>/dev/null
    ip addr add 192.0.2.1/24 dev rig0 2>/dev/null
    ip link set rig0 up
    cp "$CONFIG" /root/good.toml
    printf '\n[serve]\nlisten = "0.0.0.0:8470"\nallow_remote = true\n' >>"$CONFIG"
    systemctl restart ambience-serve
    wait_for "$WAIT" active ambience-serve
    wait_for "$WAIT" sh -c 'curl -s http://127.0.0.1:8470/state | grep -q state'
    if curl -s --max-time 5 http://192.0.2.1:8470/state; then fail "answered on 192.0.2.1"; fi
    echo "192.0.2.1:8470 refused (curl exit $?)"
    # What docs/serve.md says to do for remote access: the network allowed in a drop-in.
    mkdir -p /etc/systemd/system/ambience-serve.service.d
    printf '[Service]\nIPAddressAllow=192.0.2.0/24\n' >/etc/systemd/system/ambience-serve.service.d/remote.conf
    systemctl daemon-reload
    systemctl restart ambience-serve
    wait_for "$WAIT" sh -c 'curl -s --max-time 5 http://192.0.2.1:8470/state | grep -q state'
    echo "with the drop-in, 192.0.2.1:8470 answers"
    rm -r /etc/systemd/system/ambience-serve.service.d
    systemctl daemon-reload
    cp /root/good.toml "$CONFIG"
    systemctl restart ambience-serve
    wait_for "$WAIT" sh -c 'curl -s http://127.0.0.1:8470/state | grep -q state'
}

# Scenario 7.
mqtt_publishes() {
    active mosquitto || fail "mosquitto is not running"
    systemctl is-enabled mosquitto
    timeout 10 mosquitto_sub -C 1 -t 'ambience/+/state' -v | tee /tmp/state.msg | grep . || fail "no state"
}

mqtt_override() {
    local id pid
    regular_room
    id=$(timeout 10 mosquitto_sub -C 1 -t 'ambience/+/state' -v | cut -d/ -f2)
    [ -n "$id" ] || fail "no device id"
    mosquitto_pub -t "ambience/$id/override/set" -m invert
    wait_for "$WAIT" state_is invert
    pid=$(main_pid ambience-mqtt)
    systemctl restart mosquitto
    sleep 3
    mosquitto_pub -t "ambience/$id/override/set" -m contrast
    wait_for "$WAIT" state_is contrast
    active ambience-mqtt || fail "ambience-mqtt not active"
    echo "ambience-mqtt: PID $pid before, $(main_pid ambience-mqtt) after the broker's restart"
    mosquitto_pub -t "ambience/$id/override/set" -m auto
    wait_for "$WAIT" state_is regular
}

# Scenario 8.
group_member() {
    regular_room
    id pi
    as_pi ambience status | grep -q regular || fail "status as pi"
    timeout 5 setpriv --reuid=pi --regid=pi --init-groups --reset-env ambience watch >/tmp/w.out 2>&1
    grep -q regular /tmp/w.out || { cat /tmp/w.out; fail "watch as pi"; }
    cp /var/lib/ambience/record.csv /tmp/ 2>/dev/null || true
    as_pi cp /var/lib/ambience/record.csv /tmp/pi-record.csv || fail "pi cannot copy the persistent record"
    # The control pipe is the daemon's user's alone by default (control_mode 0o600): record
    # and override are refused, saying who may, and work through sudo.
    as_pi ambience record --out /tmp/r.csv 2>&1 | tee /tmp/r.err
    grep -q 'only ambience and root may write it' /tmp/r.err || fail "record as pi: no clear refusal"
    as_pi sudo ambience record --out - >/tmp/r.csv || fail "sudo ambience record"
    [ "$(wc -l </tmp/r.csv)" -gt 10 ] || fail "record: $(wc -l </tmp/r.csv) lines"
}

outsider() {
    local failed='' cmd out status
    for cmd in "status" "watch" "record --out -" "override invert"; do
        # shellcheck disable=SC2086
        out=$(timeout 10 setpriv --reuid=visitor --regid=visitor --init-groups --reset-env ambience $cmd 2>&1 >/dev/null)
        status=$?
        echo "visitor: ambience $cmd: exit $status: $out"
        if [ "$status" = 0 ] || [ "$status" = 124 ] || ! echo "$out" | grep -q 'permission denied' ||
            ! echo "$out" | grep -q 'group ambience'; then
            failed+=" $cmd"
        fi
    done
    if as_visitor sh -c 'echo "override invert" >/run/ambience/control' 2>/dev/null; then
        failed+=" control-pipe-writable"
    fi
    [ -z "$failed" ] || fail "not refused clearly:$failed"
}


# Scenario 8: the kiosk. The test page (Tests/browser/page1.html, nothing but media queries)
# reports what it sees to a server on loopback, which appends each report to REPORTS.
REPORTS=/tmp/page-reports
page_server() {
    if systemctl is-active --quiet rig-page; then
        wait_for "$WAIT" test -s /tmp/page-port
        return
    fi
    rm -f "$REPORTS"
    touch "$REPORTS"
    systemd-run --unit=rig-page python3 "$R/page-server.py" /tmp/page-port "$REPORTS" >/dev/null
    wait_for "$WAIT" test -s /tmp/page-port
}
page_url() { echo "http://127.0.0.1:$(cat /tmp/page-port)/page1.html"; }
# What the page saw last (its own report), and how many times it has loaded.
page_state() { tail -n 1 "$REPORTS" 2>/dev/null | sed -n 's/.*"state": "\([a-z]*\)".*/\1/p'; }
page_is() { [ "$(page_state)" = "$1" ]; }
# Seconds the page may take to show a state once the daemon has it: the emulated browser's
# reload and restyle are slow.
PAGE_WAIT=120
# shellcheck disable=SC2002 # through cat, a missing file counts 0 loads (grep -c FILE prints nothing)
page_loads() { cat "$REPORTS" 2>/dev/null | grep -c '"kind": "load"'; }
loads_above() { [ "$(page_loads)" -gt "$1" ]; }
# Waits up to SECONDS for a page load after the LOADS already counted, showing UNIT's session
# when none comes.
page_loads_within() {  # page_loads_within LOADS SECONDS UNIT
    # In a subshell: wait_for's failure ends only that, and the session is shown before the check ends.
    (wait_for "$2" loads_above "$1") || { kiosk_journal "$3"; fail "no page loaded within $2 s"; }
}
# What the kiosk's session did, for a check that failed.
kiosk_journal() {
    journalctl -b --no-pager -o short-monotonic -u "$1" | tail -n 8
    # The session's processes log under its scope, not the unit.
    journalctl -b --no-pager -o short-monotonic _UID="$(id -u pi)" | grep -v 'dbus-daemon\|systemd\[' | tail -n 25
    pgrep -a -u pi | cut -c1-160
}
# A picture of the whole output, as the session's user sees it, into the rig's disk. The page's
# report says what its style is, not that the compositor has shown a frame of it: a picture taken
# at once can still show the frame before (a blank page, on a first load under emulation). So the
# picture is checked here (check-shots.py, the same check the host makes of the saved ones) and
# taken again each second until it shows the page, for at most 120 s.
screenshot() {  # screenshot USER NAME-STATE
    local uid started=$SECONDS
    uid=$(id -u "$1")
    until as_user "$1" env XDG_RUNTIME_DIR="/run/user/$uid" WAYLAND_DISPLAY=wayland-0 grim "/tmp/$2.png" &&
        python3 "$R/check-shots.py" --picture "/tmp/$2.png" >"/tmp/$2.check"; do
        if [ $((SECONDS - started)) -ge 120 ]; then
            cat "/tmp/$2.check"
            fail "no picture of $2 in 120 s showed the page"
        fi
        sleep 1
    done
    say "picture $2 after $((SECONDS - started)) s: $(sed 's/^rig: //' "/tmp/$2.check")"
    mkdir -p "$R/out/shots"
    cp "/tmp/$2.png" "$R/out/shots/$2.png"
}
# The page through each state, as the light changes, with a picture of each.
page_follows() {  # page_follows PREFIX
    regular_room
    wait_for "$PAGE_WAIT" page_is regular
    screenshot pi "$1-regular"
    lux 3
    wait_for "$WAIT" state_is invert
    wait_for "$PAGE_WAIT" page_is invert
    echo "page: invert"
    screenshot pi "$1-invert"
    lux 30000
    wait_for "$WAIT" state_is contrast
    wait_for "$PAGE_WAIT" page_is contrast
    echo "page: contrast"
    screenshot pi "$1-contrast"
    regular_room
    wait_for "$PAGE_WAIT" page_is regular
}
browser_pid() { pgrep -u pi -o -x chromium; }
# `ambience kiosk` executes ambience-kiosk.
kiosk_pid() { pgrep -u pi -o -x ambience-kiosk; }

# cage on tty1, as examples/ambience-kiosk-cage.service says: copied, its URL changed (the
# only line to adapt, the user being pi), the getty moved off tty1.
kiosk_cage() {
    page_server
    local url loads browser
    url=$(page_url)
    sed "s|http://homeassistant.local:8123/|$url|" /usr/share/doc/ambience/examples/ambience-kiosk-cage.service \
        >/etc/systemd/system/ambience-kiosk.service
    diff /usr/share/doc/ambience/examples/ambience-kiosk-cage.service /etc/systemd/system/ambience-kiosk.service
    id -nG pi | tr ' ' '\n' | grep -qx video || fail "pi not in video: $(id -nG pi)"
    id -nG pi | tr ' ' '\n' | grep -qx render || fail "pi not in render: $(id -nG pi)"
    systemctl disable getty@tty1
    # Chromium's first start in this guest, software-emulated on a shared host, can take longer
    # than the 60 s a Pi needs at worst; the kiosk would stop it and start it again, for ever.
    printf '\n[kiosk]\nanswer_timeout = 300\n' >>"$CONFIG"
    loads=$(page_loads)
    systemctl enable --now ambience-kiosk || fail "enable --now ambience-kiosk"
    # Chromium's first start (a new profile) is the slowest step of all under emulation.
    page_loads_within "$loads" 420 ambience-kiosk
    echo "page loaded at $(now) s: $(tail -n 1 "$REPORTS")"
    page_follows cage
    # What a cage kiosk gets of [display] device = "wayland", as ambience probe in its session says.
    in_session ambience probe >/tmp/probe-cage.out 2>&1
    grep 'wayland session' /tmp/probe-cage.out ||
        fail "ambience probe in cage's session names no Wayland session"
    grep -q 'wayland session wayland-0: the compositor offers no output power management' /tmp/probe-cage.out ||
        fail "ambience probe under cage does not say it has no output power management"
    # Scenario 4's kiosk: a restart of the daemon is followed, and the browser stays.
    browser=$(browser_pid)
    [ -n "$browser" ] || fail "no chromium"
    systemctl restart ambience
    lux 3
    wait_for "$PAGE_WAIT" page_is invert
    [ "$(browser_pid)" = "$browser" ] || fail "the browser was restarted ($browser, now $(browser_pid))"
    echo "after the daemon's restart: the page follows, chromium still PID $browser"
    regular_room
    wait_for "$PAGE_WAIT" page_is regular
}

# labwc, Raspberry Pi OS's desktop: a session of pi's whose autostart starts the kiosk, as
# docs/kiosk.md says.
kiosk_labwc() {
    page_server
    local loads
    systemctl stop ambience-kiosk
    wait_for "$WAIT" sh -c '! pgrep -u pi -x chromium >/dev/null'
    as_pi mkdir -p /home/pi/.config/labwc
    echo "ambience kiosk -- chromium --kiosk $(page_url) &" | as_pi tee /home/pi/.config/labwc/autostart
    loads=$(page_loads)
    systemd-run --unit=rig-labwc -p User=pi -p PAMName=login -p TTYPath=/dev/tty1 -p StandardInput=tty-fail \
        -p StandardOutput=journal -p UtmpIdentifier=tty1 -p UtmpMode=user labwc >/dev/null ||
        fail "labwc session"
    page_loads_within "$loads" 240 rig-labwc
    echo "page loaded at $(now) s under labwc"
    pgrep -u pi -a labwc
    page_follows labwc
}

# [display] device = "wayland" in that labwc session (docs/display-sleep.md, "Wayland sessions"):
# the daemon asks in its lines, the kiosk in pi's session puts the outputs to it through
# wlr-output-power-management and tells the daemon what labwc says of them. wlopm, as the
# session's user, reads them back. The desktop's own blanking (what swayidle's timeout runs:
# `wlopm --off '*'`) works beside the kiosk, is what the lines then say, and is not undone.
in_session() { as_pi env XDG_RUNTIME_DIR="/run/user/$(id -u pi)" WAYLAND_DISPLAY=wayland-0 "$@"; }
# wlopm prints each output as "NAME on|off": the modes there are, as "on", "off" or "off,on".
outputs() { in_session wlopm 2>/dev/null | awk '{ print $2 }' | sort -u | paste -sd, -; }
outputs_are() { [ "$(outputs)" = "$1" ]; }
# The state line's display, and what it asks of the session's outputs.
lines_say() {
    [ "$(sed -n 's/.*"display":"\([a-z]*\)","display_asked":"\([a-z]*\)".*/\1 \2/p' /run/ambience/state.json 2>/dev/null)" = "$1" ]
}
display_labwc() {
    local t0
    cp "$CONFIG" /root/before-display.toml
    # The kiosk's user (pi, in the group ambience) writes the control pipe, as ambience check asks.
    sed -i 's/^control_mode = 0o600 .*/control_mode = 0o620\ncontrol_group = "ambience"/' "$CONFIG"
    grep -q '^control_group = "ambience"' "$CONFIG" || fail "no control_mode = 0o600 line to change"
    printf '\n[display]\ndevice = "wayland"\nsleep_after = 0.25\n' >>"$CONFIG"
    as_pi ambience check >/tmp/check-display.out || { cat /tmp/check-display.out; fail "ambience check"; }
    if grep 'device = "wayland": ambience kiosk' /tmp/check-display.out; then
        fail "ambience check says the kiosk cannot do its part"
    fi
    regular_room
    wait_for "$WAIT" outputs_are on
    in_session ambience probe >/tmp/probe-labwc.out 2>&1
    grep 'wayland session' /tmp/probe-labwc.out || fail "ambience probe in labwc's session names no Wayland session"
    grep -q 'wayland session wayland-0: its outputs are on (wlr-output-power-management)' /tmp/probe-labwc.out ||
        fail "ambience probe under labwc does not offer the outputs"
    systemctl restart ambience
    wait_for "$WAIT" lines_say "on on"
    echo "lines: on, asked on; wlopm: $(in_session wlopm)"
    lux 0
    t0=$(now)
    # sleep_after is 15 s of darkness, after the smoothed light has fallen below sleep_below.
    wait_for 150 outputs_are off
    echo "dark at $t0 s: outputs off at $(now) s; wlopm: $(in_session wlopm)"
    wait_for "$WAIT" lines_say "off off"
    lux 300
    t0=$(now)
    wait_for "$WAIT" outputs_are on
    echo "lit at $t0 s: outputs on at $(now) s"
    wait_for "$WAIT" lines_say "on on"
    # What swayidle's timeout runs, as pi: not refused beside the kiosk, which holds no control.
    in_session wlopm --off '*' || fail "wlopm --off refused beside the kiosk"
    wait_for "$WAIT" lines_say "off on"
    echo "wlopm --off at $(now) s: the lines say off, asked on"
    # Two of the kiosk's checks later, still off: the kiosk did not undo the desktop's blanking.
    sleep 12
    outputs_are off || fail "the kiosk undid wlopm --off: $(outputs)"
    in_session wlopm --on '*' || fail "wlopm --on"
    wait_for "$WAIT" lines_say "on on"
    journalctl -b --no-pager -o cat _UID="$(id -u pi)" | grep 'ambience kiosk: .*outputs' | tail -n 8
}

# The waking touch is swallowed under labwc, with display-labwc's configuration: a touchscreen
# made through uinput (the real-kernel rig's, rig/guest/touchscreen.py), which labwc takes
# through libinput and the daemon through the package's udev rule. swayidle in pi's session, with
# a timeout of a second, writes "resumed" whenever labwc sees input after a second without.
# A tap while awake reaches labwc; asleep (by `ambience display off`), a tap wakes the outputs and
# labwc sees none of it; the next tap it sees.
resumes() { grep -c resumed /run/rig/idle.log 2>/dev/null || true; }
resumes_above() { [ "$(resumes)" -gt "$1" ]; }
# Asked again at each try: udev applies the rule a moment after the node appears.
owned_by_ambience() { [ "$(stat -c %U "$1")" = ambience ]; }
tap() {
    echo "tap $1" >/run/rig/touch
    wait_for "$WAIT" grep -q "^done tap $1" /run/rig/touch.out
}
touch_labwc() {
    local node before uid
    uid=$(id -u pi)
    modprobe uinput || fail "no uinput"
    mkdir -p /run/rig
    rm -f "/run/rig/touch" "/run/rig/touch.out"
    mkfifo "/run/rig/touch"
    systemd-run --unit=rig-touch -p StandardOutput=file:/run/rig/touch.out python3 "$R/touchscreen.py" device /run/rig/touch \
        >/dev/null || fail "touchscreen"
    wait_for "$WAIT" grep -q '^node ' /run/rig/touch.out
    node=$(sed -n 's/^node //p' /run/rig/touch.out)
    # The package's rule gives touchscreens to the daemon's user.
    wait_for "$WAIT" owned_by_ambience "$node"
    install -o pi -m 644 /dev/null /run/rig/idle.log
    systemd-run --unit=rig-swayidle -p User=pi -E XDG_RUNTIME_DIR="/run/user/$uid" -E WAYLAND_DISPLAY=wayland-0 \
        swayidle -w timeout 1 'echo idle >>/run/rig/idle.log' resume 'echo resumed >>/run/rig/idle.log' >/dev/null ||
        fail "swayidle"
    wait_for "$WAIT" grep -q idle /run/rig/idle.log
    regular_room
    wait_for "$WAIT" lines_say "on on"
    # Awake, the touchscreen is labwc's.
    tap 100
    wait_for "$WAIT" resumes_above 0
    echo "awake, a tap at $node reached labwc: $(resumes) resumed"
    # Asleep at once by an override (display-labwc waited for the dark room); a touch ends it.
    ambience display off || fail "ambience display off"
    wait_for "$WAIT" lines_say "off off"
    wait_for "$WAIT" outputs_are off
    before=$(resumes)
    tap 200
    wait_for "$WAIT" outputs_are on
    wait_for "$WAIT" lines_say "on on"
    sleep 3
    [ "$(resumes)" = "$before" ] || fail "labwc saw the tap that woke the outputs"
    echo "asleep, a tap woke the outputs at $(now) s, and labwc saw nothing of it"
    tap 300
    wait_for "$WAIT" resumes_above "$before"
    echo "the next tap reached labwc"
    journalctl -b --no-pager -o cat -u ambience | grep -i 'touch' | tail -n 4
}

# What display-labwc and touch-labwc changed, undone.
display_ends() {
    echo quit >/run/rig/touch
    systemctl stop rig-swayidle rig-touch
    cp /root/before-display.toml "$CONFIG"
    systemctl restart ambience
}

# Back to the login prompt on tty1: the kiosk is the owner's unit, not the package's, and the
# second boot, the removal and the purge check the package's alone.
labwc_ends() {
    systemctl stop rig-labwc
    systemctl disable ambience-kiosk
    systemctl enable getty@tty1
}

# Scenario 11.
up_a_minute() {
    awk -v up="$(now)" -v since="$(systemctl show -P ActiveEnterTimestampMonotonic "$1")" \
        'BEGIN { exit !(up - since / 1e6 >= 60) }'
}
memory() {
    local total=0 stack=0 unit pid mem rss pss
    # Each service a minute after its start at least.
    local units=(ambience ambience-serve ambience-mqtt)
    [ -e "$R/no-kiosk" ] || units+=(ambience-kiosk)
    for unit in "${units[@]}"; do
        wait_for 90 up_a_minute "$unit"
    done
    for unit in "${units[@]}"; do
        # The kiosk's unit runs cage, cage the kiosk, the kiosk the browser: the kiosk's own
        # process is ours; MemoryCurrent is the whole unit's.
        [ "$unit" = ambience-kiosk ] && pid=$(kiosk_pid) || pid=$(main_pid "$unit")
        mem=$(systemctl show -P MemoryCurrent "$unit")
        rss=$(awk '/^Rss:/ { print $2 }' "/proc/$pid/smaps_rollup")
        pss=$(awk '/^Pss:/ { print $2 }' "/proc/$pid/smaps_rollup")
        [ "$unit" = ambience-kiosk ] || total=$((total + mem))
        stack=$((stack + mem))
        say "memory $unit: MemoryCurrent $((mem / 1024)) KiB, RSS $rss KiB, PSS $pss KiB ($(ps -o comm= -p "$pid"))"
    done
    say "memory total MemoryCurrent of the three services: $((total / 1024)) KiB"
    [ -e "$R/no-kiosk" ] || say "memory total MemoryCurrent with the kiosk's unit (cage, Chromium): $((stack / 1024)) KiB"
    [ -e "$R/no-kiosk" ] && return
    local browser=0
    for pid in $(pgrep -u pi -f chromium); do
        browser=$((browser + $(awk '/^Pss:/ { print $2 }' "/proc/$pid/smaps_rollup" 2>/dev/null || echo 0)))
    done
    say "memory cage: PSS $(awk '/^Pss:/ { print $2 }' "/proc/$(main_pid ambience-kiosk)/smaps_rollup") KiB"
    say "memory the kiosk's Chromium: PSS $browser KiB in $(pgrep -c -u pi -f chromium) processes"
}

# Scenario 9, first half: an upgrade with the services running.
upgrade() {
    local pids before
    ambience override invert
    wait_for "$WAIT" state_is invert
    pids="$(main_pid ambience) $(main_pid ambience-serve) $(main_pid ambience-mqtt)"
    cp "$CONFIG" /root/before-upgrade.toml
    rm -f /home/pi/ambience_*.deb
    cp "$R"/new/ambience_*.deb /home/pi/
    cd /home/pi || fail "no /home/pi"
    as_pi sudo DEBIAN_FRONTEND=noninteractive apt install -y ./ambience_*.deb || fail "apt install (upgrade)"
    dpkg-query -W ambience
    [ "$(dpkg-query -W -f='${Version}' ambience)" = "$(dpkg-deb -f "$R"/new/ambience_*.deb Version)" ] || fail "version"
    for unit in ambience ambience-serve ambience-mqtt; do
        active $unit || fail "$unit not active"
        if [[ " $pids " == *" $(main_pid $unit) "* ]]; then fail "$unit not restarted"; fi
    done
    cmp "$CONFIG" /root/before-upgrade.toml || fail "configuration changed"
    sleep 2
    state_is invert || fail "override lost"
    [ -s /var/lib/ambience/record.csv ] || fail "no record.csv"
    ls -l /var/lib/ambience
}

# Scenario 10: the second boot.
after_reboot() {
    for unit in ambience ambience-serve ambience-mqtt mosquitto; do
        wait_for "$WAIT" active $unit
    done
    wait_for "$WAIT" test -e /run/ambience/state.json
    # The first event line of this boot (the light and the override do not change here).
    local first active_at
    first=$(($(stat -c %Y /run/ambience/state.json) - $(awk '/^btime/ { print $2 }' /proc/stat)))
    active_at=$(awk -v t="$(systemctl show -P ActiveEnterTimestampMonotonic ambience)" 'BEGIN { printf "%.1f", t / 1e6 }')
    say "figure: boot to the first state event: $first s (kernel start to state.json); ambience active at $active_at s"
    # The override the cut left on disk, the old one or the new (the cut's check judges which).
    state_is "$(cut -d' ' -f1 /var/lib/ambience/override)" || fail "override not held: $(state)"
    [ -s /var/lib/ambience/record.csv ] || fail "no record.csv"
    # shellcheck disable=SC2016 # expanded by sh, at each try
    wait_for 110 sh -c '[ "$(systemctl is-system-running)" != starting ]'
    if systemctl --failed --no-legend | grep .; then fail "failed units"; fi
    systemctl is-system-running
}

# Raspberry Pi OS's overlay file system, as rig/system/guest/etc/rig/overlay-init makes it for
# this boot: the daemon runs, says once that its state is in RAM, and writes nothing to the disk.
overlay_root() {
    # Under the unit, StateDirectory= makes /var/lib/ambience a mount of its own (a bind of the
    # overlay), so the notice names that as the overlay's mount point.
    local notice='is in RAM \(an overlay at [^ ]+ whose changes go to tmpfs at /media/root-rw\)'
    [ "$(findmnt -n -o FSTYPE /)" = overlay ] || fail "/ is $(findmnt -n -o FSTYPE /), not an overlay"
    findmnt -n -o OPTIONS /media/root-ro | grep -q '^ro,' || fail "the disk's root is not read-only"
    wait_for "$WAIT" active ambience
    journalctl -b -u ambience -o cat | grep -E "$notice" ||
        fail "no notice that the state is in RAM: $(journalctl -b -u ambience -p warning -o cat | head -n 5)"
    ambience override contrast for 1h || fail "ambience override"
    wait_for "$WAIT" state_is contrast
    grep -q '^contrast until' /var/lib/ambience/override || fail "the override is not in /var/lib/ambience"
    if cmp -s /var/lib/ambience/override /media/root-ro/var/lib/ambience/override; then
        fail "the override reached the disk"
    fi
    systemctl reload ambience || fail "reload"
    ambience override auto || fail "ambience override auto"
    sleep 2
    [ "$(journalctl -b -u ambience -o cat | grep -cE "$notice")" = 1 ] || fail "the notice came more than once"
    if systemctl --failed --no-legend --plain | grep -E 'ambience|rig-'; then fail "failed units"; fi
    active ambience || fail "ambience not active"
}

# Power cuts: ACTION of make test-powercut (Tests/system/powercut-guest.sh) saves what each file
# may hold after it, then asks rig/system/run.sh to cut the power; the next boot's check judges.
cut_power() {  # cut_power ACTION BOOT
    say "boot $2 done at $(now) s; the power cut during: $1"
    sync
    RIG_PREVIOUS=none RIG_CYCLE=$2 bash "$R/powercut-guest.sh" --run "$1" "$1" "$2"
    # Waiting for the cut: rig/system/run.sh's timeout ends a guest that is never cut.
    sleep infinity
}
after_cut() {  # after_cut ACTION BOOT: the daemon active, each file old or new, the record whole
    RIG_PREVIOUS=$1 RIG_CYCLE=$2 bash "$R/powercut-guest.sh" --run check_boot "$1" "$2" | tee /tmp/after-cut
    if grep -q '^rig: FAIL' /tmp/after-cut; then fail "after the cut during $1: $(grep '^rig: FAIL' /tmp/after-cut)"; fi
    grep -q '^rig: ok   record-reads' /tmp/after-cut || fail "no record checked"
}
# A flush every 10 s (the shortest allowed), so that the next cut falls during one.
flush_often() {
    sed -i 's/^flush_interval = .*/flush_interval = 10/' "$CONFIG"
    grep -q '^flush_interval = 10$' "$CONFIG" || fail "no flush_interval in $CONFIG"
    systemctl reload ambience || fail "reload"
}
with_backlight() {
    printf '\n[backlight]\ndevice = "auto"\n' >>"$CONFIG"
    systemctl reload ambience || fail "reload"
    wait_for "$WAIT" has_brightness
}

# Scenario 9, second half.
remove() {
    DEBIAN_FRONTEND=noninteractive apt-get remove -y ambience || fail "apt remove"
    for unit in ambience ambience-serve ambience-mqtt; do
        if active $unit; then fail "$unit still active"; fi
    done
    if pgrep -l -f '/usr/bin/ambience'; then fail "processes left"; fi
}

purge() {
    DEBIAN_FRONTEND=noninteractive apt-get purge -y ambience || fail "apt purge"
    local left
    left=$(ls -d /etc/ambience /var/lib/ambience /run/ambience /usr/bin/ambience* /usr/share/ambience \
        /usr/lib/systemd/system/ambience* /usr/lib/udev/rules.d/*ambience* /etc/systemd/system/*/ambience* \
        /var/lib/systemd/deb-systemd-helper-*/ambience* /var/lib/systemd/deb-systemd-helper-*/*/ambience* 2>/dev/null)
    [ -z "$left" ] || fail "left: $left"
    getent passwd ambience || fail "the system user went too"
}

# make sd-bench: what the stack as installed (the daemon at 10 Hz with its persistent record on,
# as shipped, serve, mqtt and the broker) writes to the card at steady state, from the guest's own
# counters: the block device's sectors written (/sys/block/vda/stat), each process's write_bytes
# (/proc/PID/io) and the record's growth, over SD_SECONDS of a room whose light changes each
# second by up to ±0.5 % (the sensor's own noise at 300 lx is about that), scaled to a day.
SD_SECONDS=900
written_sectors() { awk '{ print $7 }' /sys/block/vda/stat; }
written_bytes() { awk '/^write_bytes/ { print $2 }' "/proc/$1/io"; }
sd_bench() {
    local units=(ambience ambience-serve ambience-mqtt mosquitto systemd-journald) unit pid
    local -A pids before
    local sectors record lines
    regular_room
    # The record's first flush carries what the ring held before: steady state starts after it.
    sleep 310
    ( while :; do lux $((300 + RANDOM % 3 - 1)); sleep 1; done ) &
    local driver=$!
    sync
    for unit in "${units[@]}"; do
        pid=$(main_pid "$unit")
        [ "$pid" -gt 0 ] || fail "$unit is not running"
        pids[$unit]=$pid
        before[$unit]=$(written_bytes "$pid")
    done
    sectors=$(written_sectors)
    record=$(stat -c %s /var/lib/ambience/record.csv)
    local cursor
    cursor=$(cursor_now)
    sleep "$SD_SECONDS"
    sync
    kill "$driver"
    local day=$((86400 / SD_SECONDS))
    say "sd-bench: $SD_SECONDS s at steady state, scaled by $day to a day:"
    say "sd-bench: /dev/vda: $(( ($(written_sectors) - sectors) * 512 * day )) B/day"
    say "sd-bench: record.csv grew $(( ($(stat -c %s /var/lib/ambience/record.csv) - record) * day )) B/day"
    for unit in "${units[@]}"; do
        [ "$(main_pid "$unit")" = "${pids[$unit]}" ] || fail "$unit restarted during the measurement"
        say "sd-bench: $unit write_bytes $(( ($(written_bytes "${pids[$unit]}") - ${before[$unit]}) * day )) B/day"
    done
    lines=$(journal_since "$cursor" -o cat | wc -l)
    say "sd-bench: journal: $((lines * day)) lines/day ($lines in $SD_SECONDS s)"
}

# ---- running them ----

mkdir -p "$R/out"
exec 2>&1
boot=$(($(cat "$R/boot" 2>/dev/null || echo 0) + 1))
echo "$boot" >"$R/boot"
sync
if [ "$boot" = 1 ]; then
    # shellcheck source=/dev/null # the guest's own
    say "boot 1: $(. /etc/os-release && echo "$PRETTY_NAME"), kernel $(uname -r), up $(now) s"
    # shellcheck disable=SC2016 # expanded by sh, at each try
    wait_for 600 sh -c '[ "$(systemctl is-system-running)" != starting ]'
    say "system up at $(now) s: $(systemctl is-system-running)"
    if ! { check --timeout 300 install install_package && check --timeout 120 configure configure && check --timeout 120 start start; }; then
        # Nothing after these can pass: no second boot.
        summary
        sync
        systemctl poweroff
        exit 0
    fi
    if [ -s "$R/only" ]; then
        # SYSTEM_RIG_ONLY (Tests/system/run.sh): these checks alone after the setup, one boot.
        while read -r name limit function; do
            check --timeout "$limit" "$name" "$function"
        done <"$R/only"
        summary
        sync
        systemctl poweroff
        exit 0
    fi
    {
        check --timeout 60 running-as-shipped running_as_shipped
        check --timeout 60 sandbox-as-documented sandbox_as_documented
        check --timeout 60 reads-sensor reads_sensor
        check --timeout 60 drives-gpio drives_gpio
        check --timeout 30 journal-notice journal_notice
        check --timeout 300 backlight-under-systemd backlight_under_systemd
        check --timeout 150 late-bus late_bus
        check --timeout 60 typo-fails-at-once typo
        check --timeout 60 reload-applies reload_applies
        check --timeout 60 reload-broken-keeps reload_broken
        check --timeout 90 restart-companions-follow restart_follows
        check --timeout 60 crash-keeps-override crash_keeps_override
        check --timeout 90 hang-watchdog hang_watchdog
        check --timeout 360 long-interval-watchdog long_interval_watchdog
        check --timeout 120 read-only-state read_only_state
        check --timeout 30 serve-answers serve_answers
        check --timeout 60 serve-refuses-remote serve_refuses_remote
        check --timeout 30 mqtt-publishes mqtt_publishes
        check --timeout 90 mqtt-override mqtt_override
        check --timeout 60 pi-in-group group_member
        check --timeout 60 outsider-refused outsider
        [ -e "$R/no-kiosk" ] || check --timeout 600 kiosk-cage kiosk_cage
        check --timeout 100 memory memory
        if [ ! -e "$R/no-kiosk" ]; then
            check --timeout 300 kiosk-labwc kiosk_labwc
            check --timeout 240 display-labwc display_labwc
            check --timeout 240 touch-labwc touch_labwc
            check --timeout 60 display-ends display_ends
            check --timeout 60 labwc-ends labwc_ends
        fi
        check --timeout 300 upgrade upgrade
    }
    cut_power override 1
fi
say "boot $boot: up $(now) s"
case $boot in
    2)
        check --timeout 300 after-cut-override after_cut override 1
        check --timeout 120 after-reboot after_reboot
        check --timeout 60 running-as-shipped-after-boot running_as_shipped
        check --timeout 30 journal-notice-after-boot journal_notice
        if check --timeout 60 flush-often flush_often; then cut_power record 2; fi
        ;;
    3)
        check --timeout 300 after-cut-record after_cut record 2
        # The next boot with the overlay root.
        if check --timeout 60 with-backlight with_backlight; then
            say "next-boot overlay-root"
            cut_power brightness 3
        fi
        ;;
    4)
        check --timeout 300 after-cut-brightness after_cut brightness 3
        check --timeout 120 overlay-root overlay_root
        ;;
esac
check --timeout 120 remove remove
check --timeout 120 purge purge
summary
sync
systemctl poweroff
