# shellcheck shell=bash
# The displays the test module brings: its backlight class device takes writes through sysfs,
# and its DDC/CI monitor on the test adapter (0x37, EDID at 0x50) is one that Debian's ddcutil
# and `ambience probe` both find and agree about; unplugged it is gone for both, replugged back.

the_backlight_class_device_takes_writes() {
    [ -d "$TEST_BACKLIGHT" ] || { echo "no $TEST_BACKLIGHT"; ls /sys/class/backlight; return 1; }
    expect_equal raw "$(cat "$TEST_BACKLIGHT/type")" "type"
    expect_equal 255 "$(cat "$TEST_BACKLIGHT/max_brightness")" "max_brightness"
    echo 200 >"$TEST_BACKLIGHT/brightness"
    expect_equal 200 "$(cat "$TEST_BACKLIGHT/actual_brightness")" "actual_brightness"
    expect_equal 200 "$(test_backlight_applied)" "what the driver applied"
    # Beyond the maximum the backlight class refuses the write.
    if echo 256 >"$TEST_BACKLIGHT/brightness" 2>/dev/null; then fail "the backlight took 256 of 255"; fi
    expect_equal 200 "$(test_backlight_applied)" "after a refused write"
}

# udev/99-ambience.rules gives the brightness attribute to `video` with g+w: `udevadm test`
# shows the commands it would run, which are run here as udev would; then a user in `video`
# may write the brightness, one outside it may not.
the_udev_rule_gives_video_the_brightness() {
    local video_gid
    video_gid=$(getent group video | cut -d: -f3)
    mkdir -p /run/udev/rules.d
    cp udev/99-ambience.rules /run/udev/rules.d/
    udevadm test --action=add "$TEST_BACKLIGHT" >"$RIG_WORK/udev.log" 2>&1 || { cat "$RIG_WORK/udev.log"; return 1; }
    # The commands udev would run: "run: 'CMD'" (systemd 252, Debian 12), "RUN{program} : CMD"
    # under "Queued commands:" (systemd 257, Debian 13's arm64 root).
    sed -n -e "s/^run: '\(.*\)'$/\1/p" -e 's/^ *RUN{program} : \(.*\)$/\1/p' "$RIG_WORK/udev.log" >"$RIG_WORK/udev.run"
    {
        grep -qx "/bin/chgrp video $TEST_BACKLIGHT/brightness" "$RIG_WORK/udev.run" &&
            grep -qx "/bin/chmod g+w $TEST_BACKLIGHT/brightness" "$RIG_WORK/udev.run"
    } || { echo "the rule's commands are not in udev's plan:"; cat "$RIG_WORK/udev.log"; return 1; }
    grep -F "$TEST_BACKLIGHT/brightness" "$RIG_WORK/udev.run" | sh -e
    expect_equal "$video_gid" "$(stat -Lc %g "$TEST_BACKLIGHT/brightness")" "the attribute's group"
    as_user "$video_gid" -- sh -c "echo 30 >$TEST_BACKLIGHT/brightness"
    expect_equal 30 "$(test_backlight_applied)" "written by a member of video"
    if as_user -- sh -c "echo 31 >$TEST_BACKLIGHT/brightness" 2>/dev/null; then
        fail "a user outside video wrote the brightness"
    fi
    expect_equal 30 "$(test_backlight_applied)" "after a write by a non-member"
}

ddcutil_detects_the_monitor_by_its_edid() {
    expect_exit 0 ddcutil detect
    if ! grep -q "/dev/i2c-$BH1750_BUS" "$RIG_WORK/out" || ! grep -q "Ambience DDC" "$RIG_WORK/out"; then
        cat "$RIG_WORK/out" "$RIG_WORK/err"
        fail "ddcutil detect did not find 'Ambience DDC' on /dev/i2c-$BH1750_BUS"
    fi
}

ddcutil_reads_what_it_wrote() {
    local sets
    sets=$(ddc_sets)
    expect_exit 0 ddcutil --bus "$BH1750_BUS" setvcp 10 73
    expect_equal 73 "$(ddc_brightness)" "the monitor's brightness"
    [ "$(ddc_sets)" -gt "$sets" ] || { echo "no Set VCP reached the monitor"; return 1; }
    expect_exit 0 ddcutil --bus "$BH1750_BUS" getvcp 10
    grep -Eq "current value = +73, max value = +100" "$RIG_WORK/out" || { cat "$RIG_WORK/out"; return 1; }
    # Set on the monitor's side (its buttons): ddcutil sees it.
    test_adapter_knob ddc_brightness 41
    expect_exit 0 ddcutil --bus "$BH1750_BUS" getvcp 10
    grep -Eq "current value = +41, max value = +100" "$RIG_WORK/out" || { cat "$RIG_WORK/out"; return 1; }
}

probe_lists_the_backlight_and_the_monitor() {
    ambience_is_built
    echo 100 >"$TEST_BACKLIGHT/brightness"
    test_adapter_knob ddc_brightness 64
    expect_exit 0 "$AMBIENCE" probe
    {
        grep -q "^backlight 'ambience-test' (/sys/class/backlight/ambience-test): brightness 100 of 255" \
            "$RIG_WORK/out" &&
            grep -q "^ddc:$BH1750_BUS (0x37): monitor 'Ambience DDC' (AMB 0x0037, by its EDID at 0x50): brightness 64 of 100 through DDC/CI" \
                "$RIG_WORK/out"
    } || { echo "probe printed:"; cat "$RIG_WORK/out"; return 1; }
    # ddcutil reads the same value probe did.
    expect_exit 0 ddcutil --bus "$BH1750_BUS" getvcp 10
    grep -Eq "current value = +64," "$RIG_WORK/out" || { cat "$RIG_WORK/out"; return 1; }
}

an_unplugged_monitor_is_gone_and_comes_back() {
    ambience_is_built
    trap ddc_replug EXIT
    test_adapter_knob ddc_brightness 55
    ddc_unplug
    expect_exit 0 "$AMBIENCE" probe --bus "$BH1750_BUS"
    if grep -q "^ddc:" "$RIG_WORK/out"; then cat "$RIG_WORK/out"; fail "probe lists the unplugged monitor"; fi
    if ddcutil --bus "$BH1750_BUS" getvcp 10 >"$RIG_WORK/out" 2>&1; then
        cat "$RIG_WORK/out"
        fail "ddcutil read the unplugged monitor"
    fi
    ddc_replug
    expect_exit 0 "$AMBIENCE" probe --bus "$BH1750_BUS"
    grep -q "^ddc:$BH1750_BUS (0x37): monitor 'Ambience DDC'.*brightness 55 of 100" "$RIG_WORK/out" ||
        { cat "$RIG_WORK/out"; return 1; }
    expect_exit 0 ddcutil --bus "$BH1750_BUS" getvcp 10
    grep -Eq "current value = +55," "$RIG_WORK/out" || { cat "$RIG_WORK/out"; return 1; }
}

check "the module's backlight class device exists and takes writes" the_backlight_class_device_takes_writes
check "the udev rule gives the brightness attribute to video, g+w" the_udev_rule_gives_video_the_brightness
check "ddcutil detect finds the test adapter's monitor by its EDID name" ddcutil_detects_the_monitor_by_its_edid
check "ddcutil getvcp 10 reads what setvcp 10 wrote" ddcutil_reads_what_it_wrote
check "ambience probe lists the backlight and the DDC/CI monitor, as ddcutil reads it" probe_lists_the_backlight_and_the_monitor
check "an unplugged monitor is gone for probe and ddcutil, and back when replugged" an_unplugged_monitor_is_gone_and_comes_back
