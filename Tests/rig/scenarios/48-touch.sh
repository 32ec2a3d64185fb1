# shellcheck shell=bash
# A touch wakes the sleeping display at once and presses nothing (docs/display-sleep.md, "Touch"),
# through the real kernel: a virtual touchscreen made through uinput (rig/guest/touchscreen.py:
# INPUT_PROP_DIRECT, BTN_TOUCH, ABS_X/ABS_Y and multi-touch, as udev's input_id calls a
# touchscreen), `ambience run` as nobody with [display] on the test module's backlight, and a
# second reader of the same event node beside it, as a compositor would be (the same script,
# recording every event it gets). While `ambience display off` holds the display asleep the
# daemon grabs the screen (EVIOCGRAB): a tap wakes it (backlight_power 0, "awake (a touch)") and
# the second reader gets nothing of it; once awake with no finger down the grab is let go and
# the next tap reaches the reader. A finger held down while waking keeps the grab until it lifts.
# With touch = false a tap leaves the display asleep and reaches the reader. Each tap is at an X
# of its own, so the reader's frames say which taps it got. Every wait is bounded.
# (The display helpers are in Tests/rig/daemon.sh, shared with 47-display-sleep.sh.)

TOUCH_SCREEN=rig/guest/touchscreen.py
# The helper's python starting under emulation (a few seconds), and a frame's way to the reader.
TOUCH_WAIT=20
# How long the display must stay asleep after a tap the daemon must not see: a touch wakes it at
# once (well under a second in the first check), so this is many times that.
TOUCH_STAYS=6

# Counts the lines of FILE starting with PREFIX into COUNT (no process: polled).
touch_count() {  # touch_count FILE PREFIX
    local line
    COUNT=0
    while IFS= read -r line; do
        [[ $line == "$2"* ]] && COUNT=$((COUNT + 1))
    done <"$1"
    return 0
}

touch_said() {  # touch_said FILE PREFIX [COUNT]: FILE has at least COUNT (default 1) such lines
    touch_count "$1" "$2"
    [ "$COUNT" -ge "${3:-1}" ]
}

# FRAMES: the frames the second reader got (its lines after "ready"), a word each: dX a finger
# down at X, mX a finger moved to X, u a finger lifted, ! events dropped (SYN_DROPPED), ? anything
# else. No process: polled.
touch_reader_frames() {  # touch_reader_frames DIR
    local kind code value down='' x='' word ready=''
    FRAMES=
    while read -r kind code value; do
        [ -n "$ready" ] || { [ "$kind" = ready ] && ready=1; continue; }
        case $kind:$code in
        1:330) down=$value ;;
        3:0) x=$value ;;
        0:3) FRAMES+=${FRAMES:+ }! ;;
        0:0)
            if [ "$down" = 1 ]; then word=d$x; elif [ "$down" = 0 ]; then word=u
            elif [ -n "$x" ]; then word=m$x; else word='?'; fi
            FRAMES+=${FRAMES:+ }$word
            down='' x='' ;;
        esac
    done <"$1/reader.out"
}

touch_reader_got() {  # touch_reader_got DIR FRAMES: the reader got exactly these frames
    touch_reader_frames "$1"
    [ "$FRAMES" = "$2" ]
}

# The reader got exactly FRAMES, waiting for them at most TOUCH_WAIT seconds.
touch_reader_gets() {  # touch_reader_gets DIR FRAMES WHAT
    wait_for "$TOUCH_WAIT" touch_reader_got "$1" "$2" ||
        { touch_reader_frames "$1"; echo "the second reader got frames '$FRAMES', wanted '$2': $3"; touch_describe "$1"; return 1; }
}

# The daemon has NODE open (its /proc/PID/fd; -ef compares the device nodes, no process).
daemon_holds() {  # daemon_holds DIR NODE
    local fd pid
    pid=$(daemon_pid "$1") || return 1
    for fd in "/proc/$pid/fd"/*; do
        [ "$fd" -ef "$2" ] && return 0
    done
    return 1
}

touch_describe() {  # touch_describe DIR
    display_describe "$1"
    touch_reader_frames "$1"
    echo "second reader's frames: '$FRAMES'; touchscreen helper:"
    sed 's/^/  /' "$1/touch.out"
}

# Sends COMMAND (down X, move X, up, tap X) and waits until its frames are written: the kernel has
# then handed them to every reader of the node (or to the grabbing one alone).
touch_send() {  # touch_send DIR COMMAND
    local count
    touch_count "$1/touch.out" "done "
    count=$((COUNT + 1))
    echo "$2" >"$1/touch.in"
    wait_for "$TOUCH_WAIT" touch_said "$1/touch.out" "done " "$count" ||
        { echo "the touchscreen did not do '$2'"; touch_describe "$1"; return 1; }
}

touch_stop() {  # touch_stop DIR: ends the touchscreen and the reader (the EXIT trap)
    local file
    for file in touch.job reader.job; do
        [ -s "$1/$file" ] || continue
        kill -KILL "$(cat "$1/$file")" 2>/dev/null || true
        wait "$(cat "$1/$file")" 2>/dev/null || true
    done
}

# The touchscreen, the second reader and `ambience run` as nobody with [display] on the test
# module's backlight and LINES in [display]; the display awake at start. TOUCH_NODE: its node.
touch_start() {  # touch_start DIR LINES
    local dir=$1 video_gid bl_power=$TEST_BACKLIGHT/bl_power
    ambience_is_built
    # Debian's kernel has both as modules.
    modprobe uinput
    modprobe evdev
    video_gid=$(getent group video | cut -d: -f3)
    rig_grant_device_groups
    chgrp "$video_gid" "$bl_power"
    chmod g+w "$bl_power"
    echo 0 >"$bl_power"
    bh1750_light "$DISPLAY_LIT"
    display_sleep_config "$dir" ambience-test "$2"
    # shellcheck disable=SC2064 # DIR is fixed now
    trap "touch_stop '$dir'; echo 0 >'$bl_power'" EXIT
    mkfifo "$dir/touch.in"
    python3 "$TOUCH_SCREEN" device "$dir/touch.in" >"$dir/touch.out" 2>&1 &
    echo $! >"$dir/touch.job"
    wait_for "$TOUCH_WAIT" touch_said "$dir/touch.out" "node /dev/input/event" ||
        { echo "no touchscreen:"; cat "$dir/touch.out"; return 1; }
    TOUCH_NODE=$(sed -n 's/^node //p' "$dir/touch.out")
    [ -c "$TOUCH_NODE" ] || fail "no device node $TOUCH_NODE"
    # The package's udev rule makes the ambience user the owner of touchscreens (OWNER, group and
    # mode left as they are); here the daemon's user, nobody, is made the node's owner.
    chown "$NOBODY_UID" "$TOUCH_NODE"
    python3 "$TOUCH_SCREEN" read "$TOUCH_NODE" >"$dir/reader.out" 2>&1 &
    echo $! >"$dir/reader.job"
    wait_for "$TOUCH_WAIT" touch_said "$dir/reader.out" ready ||
        { echo "no second reader:"; cat "$dir/reader.out"; return 1; }
    daemon_start "$dir" as_user "$I2C_GID,$GPIO_GID,$video_gid" --
    # shellcheck disable=SC2064 # DIR is fixed now
    trap "daemon_kill '$dir'; touch_stop '$dir'; echo 0 >'$bl_power'" EXIT
    expect_equal "$NOBODY_UID" "$(stat -c %u "/proc/$(daemon_pid "$dir")")" "the daemon's user"
    display_becomes "$dir" backlight_power_is 0 on "lit at start"
}

# `ambience display off`: asleep, and the override said once in the log.
touch_display_off() {  # touch_display_off DIR
    display_command "$1" off
    display_becomes "$1" backlight_power_is 4 off "display off"
    log_says "$1" 1 "display ambience-test: asleep (an override)"
}

a_touch_wakes_the_display_and_presses_nothing() {
    local dir=$RIG_WORK/touch-grab start
    touch_start "$dir" "touch = true"
    daemon_holds "$dir" "$TOUCH_NODE" || { echo "the daemon has not opened $TOUCH_NODE"; touch_describe "$dir"; return 1; }
    touch_display_off "$dir"
    start=$(uptime_now)
    touch_send "$dir" "tap 10"
    display_becomes "$dir" backlight_power_is 0 on "a tap while asleep"
    echo "# awake $(seconds_since "$start")s after the tap was written"
    log_says "$dir" 1 "display ambience-test: awake (a touch)"
    # Awake, no finger down: the grab is let go, and the next tap reaches the second reader.
    # Its frames alone: the reader got nothing of the tap that woke the display.
    touch_send "$dir" "tap 20"
    touch_reader_gets "$dir" "d20 u" "the waking tap (10) grabbed, the next (20) let through"
    backlight_power_is 0 || { echo "asleep after a tap while awake"; touch_describe "$dir"; return 1; }
    log_says "$dir" 1 "display ambience-test: awake (a touch)"
    log_says "$dir" 0 "touchscreen"
}

the_grab_lasts_until_the_finger_lifts() {
    local dir=$RIG_WORK/touch-held
    touch_start "$dir" "touch = true"
    touch_display_off "$dir"
    touch_send "$dir" "down 30"
    display_becomes "$dir" backlight_power_is 0 on "a finger down while asleep"
    log_says "$dir" 1 "display ambience-test: awake (a touch)"
    # Awake, the finger still down: its move and its lift are still the daemon's alone.
    touch_send "$dir" "move 35"
    touch_send "$dir" "up"
    touch_send "$dir" "tap 40"
    touch_reader_gets "$dir" "d40 u" "the held finger (down 30, move 35, up) grabbed, the next tap (40) let through"
    backlight_power_is 0 || { echo "asleep after a tap while awake"; touch_describe "$dir"; return 1; }
}

touch_false_leaves_the_screen_alone() {
    # shellcheck disable=SC2034 # display_stays reads it (bash's dynamic scope)
    local dir=$RIG_WORK/touch-off DISPLAY_STAYS=$TOUCH_STAYS
    touch_start "$dir" "touch = false"
    touch_display_off "$dir"
    touch_send "$dir" "tap 50"
    touch_reader_gets "$dir" "d50 u" "touch = false: nothing grabbed"
    display_stays "$dir" backlight_power_is 4 "a tap with touch = false"
    log_says "$dir" 0 "a touch"
    if daemon_holds "$dir" "$TOUCH_NODE"; then echo "touch = false, yet the daemon opened $TOUCH_NODE"; touch_describe "$dir"; return 1; fi
}

# Three daemons, three touchscreens and their python helpers under emulation: more than a minute.
touch_saved_timeout=$CHECK_TIMEOUT
CHECK_TIMEOUT=120
check "display off grabs the touchscreen: a tap wakes the backlight (bl_power 0, 'awake (a touch)') and a second reader gets none of it; awake, the next tap reaches it" \
    a_touch_wakes_the_display_and_presses_nothing
check "a finger held down wakes the display, and the grab lasts until it lifts: its move and lift reach no other reader, the next tap does" \
    the_grab_lasts_until_the_finger_lifts
check "touch = false: a tap leaves the display asleep and reaches the other reader" \
    touch_false_leaves_the_screen_alone
CHECK_TIMEOUT=$touch_saved_timeout
