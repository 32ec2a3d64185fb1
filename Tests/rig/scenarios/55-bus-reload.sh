# shellcheck shell=bash
# The whole adapter goes away mid-run, as a USB adapter unplugged does: its module unloaded,
# its /dev/i2c-N gone, then loaded again under another bus number. The daemon, configured with
# the adapter's name, reports a fault, lets go of the dead bus (or the module could not be
# unloaded at all), and when the adapter is back opens it under its new number and sets the
# chip up again: the same process throughout.

adapter_unloaded_then_back() {
    local dir=$RIG_WORK/bus-reload old=$BH1750_BUS new=$((BH1750_BUS + 7)) pid
    ambience_is_built
    bh1750_set_lux 300
    daemon_config "$dir" bh1750 "\"$TEST_ADAPTER_NAME\"" 0x23
    daemon_start "$dir"
    wait_for 5 daemon_shows "$dir" regular || { daemon_describe "$dir"; return 1; }
    pid=$(daemon_pid "$dir")
    log_has "$dir" "on the I2C adapter named '$TEST_ADAPTER_NAME'"
    # The chip stops answering first, as an unplugged adapter's transfers fail; the daemon must
    # then let go of /dev/i2c-N, or the module stays in use and cannot be unloaded.
    bh1750_unplug
    wait_for 10 sh -c "rmmod ambience_test_i2c 2>/dev/null" ||
        { echo "the adapter stayed in use"; daemon_describe "$dir"; return 1; }
    [ ! -e "/dev/i2c-$old" ] || { echo "/dev/i2c-$old is still there"; return 1; }
    wait_for "$(fault_bound)" shows_a_held_fault "$dir" regular || { daemon_describe "$dir"; return 1; }
    rig_insmod ambience-test-i2c nr="$new" || return 1
    [ "$(i2c_bus_by_name "$TEST_ADAPTER_NAME")" = "$new" ] || { echo "the adapter is not on bus $new"; return 1; }
    bh1750_set_lux 300
    # The cooldown may have reached its ceiling while the adapter was away.
    wait_for $((RECOVERY_BOUND + 2)) shows_recovered "$dir" regular || { daemon_describe "$dir"; return 1; }
    expect_equal "$pid" "$(daemon_pid "$dir")" "the daemon's process"
    # A new adapter holds a chip in its power-on state: set up again from power on.
    [[ "$(bh1750_log)" == "01 07 "* ]] || { echo "writes on the new bus: $(bh1750_log)"; return 1; }
    expect_equal regular "$(pipe_states "$dir")" "states the reader was told"
    daemon_stop "$dir"
    # Back where the other scenarios expect the adapter, its new node with the fixtures' groups
    # (devtmpfs makes it root's, 0600; nothing here runs udev).
    rmmod ambience_test_i2c
    rig_insmod ambience-test-i2c nr="$old"
    rig_grant_device_groups
}

check "the adapter unloaded and loaded again under another bus number: fault, then recovered in the same process" \
    adapter_unloaded_then_back
