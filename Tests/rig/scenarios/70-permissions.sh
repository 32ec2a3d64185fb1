# shellcheck shell=bash
# The daemon unprivileged: the device nodes get the groups and modes the project's udev rules
# give them (udev/99-ambience.rules, applied by udev itself through `udevadm test`), and the
# daemon works as nobody in those groups; without one of them it stops with the hint (exit 1).

RULES=udev/99-ambience.rules

# /etc is the host's, read-only, and may lack the rules' groups: a copy of /etc/group with
# them at the rig's numbers, bind-mounted over it for the rest of the boot.
rig_define_device_groups() {
    mountpoint -q /etc/group && return 0
    sed -e '/^i2c:/d' -e '/^gpio:/d' /etc/group >/run/rig-group
    printf 'i2c:x:%s:\ngpio:x:%s:\n' "$I2C_GID" "$GPIO_GID" >>/run/rig-group
    mount --bind /run/rig-group /etc/group
}

# udev applies the rules to each node (`udevadm test` sets the permissions it computes); its
# log must show the project's rule setting them, not only another package's.
udev_rules_grant_the_groups() {
    local node device rule sysfs
    rig_define_device_groups
    mkdir -p /run/udev/rules.d
    cp "$RULES" /run/udev/rules.d/
    for node in /dev/i2c-* /dev/gpiochip*; do
        device=$(basename "$node")
        case $device in
        i2c-*) rule="99-ambience.rules:[0-9]+ GROUP $I2C_GID" sysfs=/sys/class/i2c-dev/$device ;;
        *) rule="99-ambience.rules:[0-9]+ GROUP $GPIO_GID" sysfs=/sys/bus/gpio/devices/$device ;;
        esac
        udevadm test --action=add "$sysfs" >"$RIG_WORK/udev.log" 2>&1 || { cat "$RIG_WORK/udev.log"; return 1; }
        if ! grep -Eq "$rule" "$RIG_WORK/udev.log" ||
            ! grep -Eq '99-ambience.rules:[0-9]+ MODE 0660' "$RIG_WORK/udev.log"; then
            echo "$device: the project's rule did not apply"
            cat "$RIG_WORK/udev.log"
            return 1
        fi
    done
    expect_equal "660 $I2C_GID" "$(stat -c '%a %g' "/dev/i2c-$BH1750_BUS")" "/dev/i2c-$BH1750_BUS"
    expect_equal "660 $I2C_GID" "$(stat -c '%a %g' "/dev/i2c-$TSL2561_BUS")" "/dev/i2c-$TSL2561_BUS"
    expect_equal "660 $GPIO_GID" "$(stat -c '%a %g' "/dev/$GPIO_CHIP")" "/dev/$GPIO_CHIP"
}

# What the rig's own rig_grant_device_groups gives must be what the rules say.
rig_grant_matches_the_rules() {
    grep -q '^SUBSYSTEM=="i2c-dev", KERNEL=="i2c-\[0-9\]\*", GROUP="i2c", MODE="0660"$' "$RULES"
    grep -q '^SUBSYSTEM=="gpio", KERNEL=="gpiochip\[0-9\]\*", GROUP="gpio", MODE="0660"$' "$RULES"
    rig_grant_device_groups
    expect_equal "660 $I2C_GID" "$(stat -c '%a %g' "/dev/i2c-$BH1750_BUS")" "/dev/i2c-$BH1750_BUS"
    expect_equal "660 $GPIO_GID" "$(stat -c '%a %g' "/dev/$GPIO_CHIP")" "/dev/$GPIO_CHIP"
}

# As nobody in both groups: the whole pipeline works (startup state, a change, clean stop).
unprivileged_daemon_works() {
    local dir=$RIG_WORK/unprivileged-$RANDOM
    ambience_is_built
    bh1750_set_lux 5
    daemon_config "$dir" bh1750 "$BH1750_BUS" 0x23
    daemon_start "$dir" as_user "$I2C_GID,$GPIO_GID" --
    wait_for 5 daemon_shows "$dir" invert || { daemon_describe "$dir"; return 1; }
    expect_equal "$NOBODY_UID" "$(stat -c %u "/proc/$(daemon_pid "$dir")")" "the daemon's user"
    light_step "$dir" regular "$BH1750_DELAY" bh1750_light 300
    daemon_stop "$dir"
}

# Without the gpio group: exit 1, naming the chip and the group to join.
without_the_gpio_group_it_stops_with_the_hint() {
    local dir=$RIG_WORK/no-gpio-$RANDOM
    ambience_is_built
    daemon_config "$dir" bh1750 "$BH1750_BUS" 0x23
    expect_exit 1 as_user "$I2C_GID" -- timeout 20 "$AMBIENCE" run --config "$dir/ambience.toml"
    grep -q "/dev/gpiochip[0-9]*: permission denied; add the daemon's user to the gpio group" "$RIG_WORK/err" ||
        { cat "$RIG_WORK/err"; return 1; }
}

# Without the i2c group: exit 1, naming the bus and the group to join.
without_the_i2c_group_it_stops_with_the_hint() {
    local dir=$RIG_WORK/no-i2c-$RANDOM
    ambience_is_built
    daemon_config "$dir" bh1750 "$BH1750_BUS" 0x23
    expect_exit 1 as_user "$GPIO_GID" -- timeout 20 "$AMBIENCE" run --config "$dir/ambience.toml"
    grep -q "/dev/i2c-$BH1750_BUS: permission denied.*add the user to the i2c group" "$RIG_WORK/err" ||
        { cat "$RIG_WORK/err"; return 1; }
}

check "udev rules give /dev/i2c-* and /dev/gpiochip* their groups, mode 0660 (udevadm test)" udev_rules_grant_the_groups
check "the rig's rig_grant_device_groups matches the rules' GROUP and MODE" rig_grant_matches_the_rules
check "the daemon as nobody in the i2c and gpio groups works" unprivileged_daemon_works
check "without the gpio group: exit 1 with the hint" without_the_gpio_group_it_stops_with_the_hint
check "without the i2c group: exit 1 with the hint" without_the_i2c_group_it_stops_with_the_hint
check_gpiod2 "libgpiod 2.x build: the daemon as nobody in both groups works" unprivileged_daemon_works
check_gpiod2 "libgpiod 2.x build: without the gpio group, exit 1 with the hint" without_the_gpio_group_it_stops_with_the_hint
