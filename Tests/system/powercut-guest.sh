#!/bin/bash
# make test-powercut's guest side (docs/rig.md, "Power cuts"): run by rig-checks.service at each
# boot, with the plan on the kernel's command line (rig.action=ACTION rig.cycle=N), from the rig's
# disk at /mnt/rig. The first boot (rig.action=install) installs the package, sets it up and
# powers off cleanly; every later boot first checks what the previous cut left, then prepares
# ACTION, saves what each persisted file may hold after the cut (the old content and the new),
# syncs, and tells the host when to cut (Tests/system/powercut.py kills QEMU: no shutdown, no
# sync):
#   rig: cut-now               at once
#   rig: cut-after MIN MAX     after a random delay between MIN and MAX seconds, the host's pick
# Results: the checks of the one test harness (Tests/lib/harness.sh, on the rig's disk as
# lib/harness.sh): "rig: ok   NAME" and "rig: FAIL NAME" lines, the latter followed by why;
# "rig: figure ..." numbers.
set -uo pipefail
R=/mnt/rig
CONFIG=/etc/ambience/ambience.toml
STATE=/var/lib/ambience
SAVED=/var/lib/rig-cut
DEMO=/var/lib/rig-demo
LIGHT=/sys/module/ambience_test_i2c/parameters/bh1750_millilux
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8
exec 2>&1

HARNESS_PREFIX="rig: " HARNESS_LOGS=$(mktemp -d) HARNESS_POLL=0.5
# shellcheck source=Tests/lib/harness.sh
. "$R/lib/harness.sh"

say() { echo "rig: $*"; }
now() { cut -d' ' -f1 /proc/uptime; }
arg() { sed -n "s/.*\brig\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
active() { [ "$(systemctl is-active "$1")" = active ]; }
# The content a file must have after the cut: the saved old one (or its absence), or the new one,
# given as an extended regular expression its whole content must match (one line).
expect_file() {  # expect_file PATH NEW-REGEX
    local name
    name=$(basename "$1")
    mkdir -p "$SAVED/old"
    if [ -e "$1" ]; then cp -p "$1" "$SAVED/old/$name"; else rm -f "$SAVED/old/$name"; fi
    printf '%s\n' "$2" >"$SAVED/new-$name"
}
# old, new, absent (when the old was absent too: counted as old), or what else it holds.
judge_file() {  # judge_file PATH -> prints old|new|EMPTY|TORN...
    local name
    name=$(basename "$1")
    if [ ! -e "$1" ]; then
        [ -e "$SAVED/old/$name" ] && echo MISSING || echo old
    elif [ -e "$SAVED/old/$name" ] && cmp -s "$1" "$SAVED/old/$name"; then
        echo old
    elif [ ! -s "$1" ]; then
        echo EMPTY
    elif [ "$(wc -l <"$1")" = 1 ] && [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ] &&
        grep -Eqx -f "$SAVED/new-$name" "$1"; then
        echo new
    else
        echo "OTHER($(head -c 60 "$1" | od -An -c | tr -s ' ' | head -c 120))"
    fi
}
save_all() {  # save_all OVERRIDE-REGEX BRIGHTNESS-REGEX CONFIG-REGEX: what each file may become
    expect_file "$STATE/override" "$1"
    expect_file "$STATE/brightness-override" "$2"
    expect_file "$CONFIG" "$3"
    # The record: its rows up to the last flush must stay; the rows of the batch being written
    # when the power went may be lost.
    if [ -e "$STATE/record.csv" ]; then cp "$STATE/record.csv" "$SAVED/record.csv"; else rm -f "$SAVED/record.csv"; fi
    sync
}
# A pattern no content matches (a line cannot hold text after its end).
# shellcheck disable=SC2016 # the $ is the pattern's end of line, not an expansion
NEVER='^$never^'
# The record FILE replayed as a whole: each daemon's run in it (a `!` line, its times starting
# again with each boot's clock) from an engine of its own.
record_reads() {
    ambience replay "$1" >/tmp/replay.out 2>&1
}

# ---- after a cut: what the boot finds ----

daemon_is_active() {  # daemon_is_active PREVIOUS
    wait_for 150 active ambience || {
        journalctl -b -u ambience --no-pager -o cat | tail -n 10
        fail "ambience is $(systemctl is-active ambience) after the cut during $1"
    }
}
holds_old_or_new() {  # holds_old_or_new FILE PREVIOUS
    local verdict
    verdict=$(judge_file "$1")
    echo "# $verdict"
    case $verdict in
        old | new) ;;
        *) fail "$verdict after the cut during $2" ;;
    esac
}
reads_whole() {  # reads_whole RECORD
    ambience replay "$1" >/tmp/replay.out 2>&1 ||
        fail "ambience replay $1: $(tail -n 2 /tmp/replay.out | tr '\n' ' ')"
    echo "# $(grep -c '^!' "$1") runs"
}
# The copy was synced (save_all), so every whole line of it was on the disk before the cut: all of
# them must still be there, byte for byte; only a last line the copy caught half written may have
# gone (cut at the next start).
record_kept() {
    local size kept
    size=$(wc -c <"$SAVED/record.csv")
    kept=$size
    if [ "$(tail -c 1 "$SAVED/record.csv" | od -An -c | tr -d ' ')" != '\n' ]; then
        kept=$((size - $(tail -n 1 "$SAVED/record.csv" | wc -c)))
    fi
    cmp -s -n "$kept" "$SAVED/record.csv" "$STATE/record.csv" ||
        fail "the record's first $kept bytes, synced before the cut, differ"
    [ "$(wc -c <"$STATE/record.csv")" -ge "$kept" ] || fail "the record is shorter than its first $kept bytes"
    echo "# $kept of $size bytes compared, $(wc -l <"$SAVED/record.csv") lines"
}
dpkg_recovers() {
    dpkg --configure -a >/tmp/dpkg.out 2>&1 || fail "$(tail -n 2 /tmp/dpkg.out)"
}
# Ours: the daemon, its companions, and the rig's own units.
no_failed_unit() {
    if systemctl --failed --no-legend --plain | grep -E 'ambience|rig-'; then
        fail "$(systemctl --failed --no-legend --plain | tr '\n' ' ')"
    fi
}

check_boot() {
    local previous=$1 cycle=$2 f
    check "daemon-active-$cycle" daemon_is_active "$previous"
    for f in "$STATE/override" "$STATE/brightness-override" "$CONFIG"; do
        check "$(basename "$f")-$cycle is old or new" holds_old_or_new "$f" "$previous"
    done
    # The record reads as a trace, whole rows only, across the boots it holds; what was on disk
    # before the last flush is kept.
    for f in "$STATE/record.csv" "$STATE/record.csv.1"; do
        [ -e "$f" ] || continue
        check "record-reads-$cycle $(basename "$f")" reads_whole "$f"
    done
    if [ -e "$SAVED/record.csv" ] && [ ! -e "$STATE/record.csv.1" ]; then
        check "record-kept-$cycle" record_kept
    fi
    if [ "$previous" = demo ]; then check_demo "$cycle"; fi
    if [ "$previous" = upgrade ]; then
        say "figure: upgrade-cut-$cycle dpkg left: $(dpkg-query -W -f='${Status} ${Version}' ambience)"
        check "dpkg-recovers-$cycle" dpkg_recovers
    fi
    # The units as the boot left them, once it has (a timeout is said, and the check made anyway).
    # shellcheck disable=SC2016 # expanded by the sh it runs, at each try
    wait_for 120 sh -c '[ "$(systemctl is-system-running)" != starting ]'
    check "no-failed-unit-$cycle" no_failed_unit
}

# ---- the actions: each ends with the line that has the host cut ----

install() {
    cp "$R"/old/ambience_*.deb /root/
    DEBIAN_FRONTEND=noninteractive apt-get install -y /root/ambience_*~deb13_*.deb >/tmp/apt.out 2>&1 ||
        { tail -n 5 /tmp/apt.out; fail "apt-get install"; }
    sed -i 's/^board = .*/board = "raspberry-pi-4"/; s/^kind = "[a-z0-9]*"/kind = "bh1750"/' "$CONFIG"
    # A flush every 10 s (the shortest allowed), so that cuts fall near and during flushes.
    sed -i 's/^flush_interval = .*/flush_interval = 10/' "$CONFIG"
    printf '\n[backlight]\ndevice = "auto"\n' >>"$CONFIG"
    echo 300000 >"$LIGHT"
    ambience check >/tmp/check.out 2>&1 || { cat /tmp/check.out; fail "ambience check"; }
    systemctl enable --now ambience || fail "systemctl enable --now ambience"
    cp "$R"/day.csv /root/day.csv
    mkdir -p "$SAVED" "$DEMO"
    save_all "$NEVER" "$NEVER" "$NEVER"
    echo "# installed $(dpkg-query -W -f='${Version}' ambience)"
}

# The record: cut just after a flush begins (the file grew: its fsync may be under way), or at any
# moment of a flush interval.
record() {
    save_all "$NEVER" "$NEVER" "$NEVER"
    if [ $(($2 % 2)) = 0 ]; then
        local size
        size=$(stat -c %s "$STATE/record.csv" 2>/dev/null || echo 0)
        wait_for 25 sh -c "[ \$(stat -c %s $STATE/record.csv 2>/dev/null || echo 0) != $size ]"
        say "cut-now"
    else
        say "cut-after 0 11"
    fi
}

# The theme's override, through the control pipe, as the README's `ambience override` writes it.
override() {
    local word
    [ "$(cut -d' ' -f1 "$STATE/override" 2>/dev/null)" = invert ] && word=contrast || word=invert
    save_all "$word until [0-9.e+]+" "$NEVER" "$NEVER"
    say "cut-after 0 2.5"
    ambience override "$word" for 1h
}

brightness() {
    local percent
    [ "$(cut -d' ' -f1 "$STATE/brightness-override" 2>/dev/null)" = 40 ] && percent=70 || percent=40
    save_all "$NEVER" "$percent until [0-9.e+]+" "$NEVER"
    say "cut-after 0 2.5"
    ambience brightness "$percent" for 1h
}

# A reload after the configuration was replaced (durably: how it was written is the administrator's
# affair; the cut tests what the daemon does with its files meanwhile).
reload() {
    local new=/etc/ambience/.ambience.toml.rig
    # One comment line tells the two contents apart.
    sed '/^# rig cycle /d' "$CONFIG" | sed "1i # rig cycle $2" >"$new"
    save_all "$NEVER" "$NEVER" "$NEVER"
    mv "$new" "$CONFIG"
    sync
    # The configuration is now the new one for good: the old one is the new.
    cp -p "$CONFIG" "$SAVED/old/ambience.toml"
    sync
    say "cut-after 0 2"
    systemctl reload ambience
}

# apt installing the other version (an upgrade, or back: both unpack the package over itself), cut
# once dpkg says it is unpacking.
upgrade() {
    local deb
    save_all "$NEVER" "$NEVER" "$NEVER"
    case $(dpkg-query -W -f='${Version}' ambience) in
        "$(dpkg-deb -f "$R"/new/ambience_*.deb Version)") deb=$(ls "$R"/old/ambience_*.deb) ;;
        *) deb=$(ls "$R"/new/ambience_*.deb) ;;
    esac
    cp "$deb" /root/next.deb
    sync
    DEBIAN_FRONTEND=noninteractive apt-get install -y --allow-downgrades /root/next.deb 2>&1 |
        while IFS= read -r line; do
            case $line in *"Unpacking ambience"*) say "cut-after 0 3" ;; esac
        done
    local status=${PIPESTATUS[0]}
    check "upgrade-$2: apt-get install $(basename "$deb")" test "$status" = 0
    # Not cut while unpacking (the host's delay outlasted dpkg): cut now, after the upgrade.
    say "cut-now"
}

# The state directory emptied, then the power cut at a random moment of the next boot (the host's
# plan), where the daemon starts without a record or an override: a first boot.
firstboot() {
    systemctl stop ambience
    rm -f "$STATE"/*
    save_all "$NEVER" "$NEVER" "$NEVER"
    say "cut-now"
}

# The same file written the old ways and through the helper (ambience plot --out), then cut once all
# have returned: the old ways first, so they had longer to reach the disk.
demo() {
    local new=$SAVED/demo-new.svg name
    check "demo-plot-$2" ambience plot /root/day.csv --out "$new" --title "cut $2"
    for name in truncated renamed created helper; do echo "old $2" >"$DEMO/$name.svg"; done
    rm -f "$DEMO/created.svg"
    sync
    mkdir -p "$SAVED/demo-old"
    cp "$DEMO"/*.svg "$SAVED/demo-old/"
    rm -f "$SAVED/demo-old/created.svg"
    sync
    # In place: truncate, then write.
    cat "$new" >"$DEMO/truncated.svg"
    # A temporary renamed over, without an fsync.
    cp "$new" "$DEMO/.renamed.svg.tmp" && mv "$DEMO/.renamed.svg.tmp" "$DEMO/renamed.svg"
    # A new file, without an fsync.
    cp "$new" "$DEMO/created.svg"
    check "demo-plot-helper-$2" ambience plot /root/day.csv --out "$DEMO/helper.svg" --title "cut $2"
    say "cut-now"
}
helper_kept() {  # helper_kept VERDICTS
    case $1 in
        *" helper=new"*) ;;
        *) fail "the file written through the helper is not the new one:$1" ;;
    esac
}
check_demo() {
    local name verdict line=
    for name in truncated renamed created helper; do
        if [ ! -e "$DEMO/$name.svg" ]; then
            verdict=missing
        elif cmp -s "$DEMO/$name.svg" "$SAVED/demo-new.svg"; then
            verdict=new
        elif [ -e "$SAVED/demo-old/$name.svg" ] && cmp -s "$DEMO/$name.svg" "$SAVED/demo-old/$name.svg"; then
            verdict=old
        elif [ ! -s "$DEMO/$name.svg" ]; then
            verdict=empty
        else
            verdict=partial
        fi
        line+=" $name=$verdict"
    done
    say "figure: demo-$1$line"
    check "demo-helper-kept-$1" helper_kept "$line"
}

# ---- this boot ----

action=$(arg action)
# make test-system's guest runs an action or check_boot alone (--run FUNCTION ARGS), its cycle and
# the previous action given in RIG_CYCLE and RIG_PREVIOUS.
cycle=${RIG_CYCLE:-$(arg cycle)}
previous=${RIG_PREVIOUS:-$(arg previous)}
[ "${1:-}" = --run ] && { "$2" "${@:3}"; exit; }
say "boot $cycle ($action, after $previous): up $(now) s"
if [ "$action" = install ]; then
    check --timeout 600 install install
    say "install: $failed failed"
    sync
    systemctl poweroff
    exit 0
fi
check_boot "$previous" "$cycle"
say "checked $cycle at $(now) s: $failed failed"
case $action in
    record | override | brightness | reload | upgrade | firstboot | demo) "$action" "$action" "$cycle" ;;
    # boot: the host cuts at its own moment; final: the last check, then a clean power-off.
    final) sync; systemctl poweroff ;;
    *) ;;
esac
# Waiting for the cut (the host's timeout ends a boot that never asked for one).
sleep infinity
