# shellcheck shell=bash
# The kernel's own bh1750 driver bound to the test adapter's BH1750 (new_device, as a
# dtoverlay=i2c-sensor,bh1750 does on a Pi): `probe` lists it and explains the busy address,
# the daemon reads it through IIO with kind = "iio", and agrees with the project's own driver
# on the same light. Unbinding the driver mid-run is a fault; binding it again recovers, in
# the same process.

iio_device_named() {  # iio_device_named NAME: prints the device's sysfs directory
    local name_file
    for name_file in /sys/bus/iio/devices/iio:device*/name; do
        [ "$(cat "$name_file" 2>/dev/null)" = "$1" ] && { dirname "$name_file"; return 0; }
    done
    return 1
}

# The lux of the state file's latest event line.
state_file_lux() {  # state_file_lux DIR
    sed -n 's/.*"lux":\([0-9.e+-]*\).*/\1/p' "$1/state.json"
}

kernel_driver_read_through_iio() {
    local dir=$RIG_WORK/iio client=$BH1750_BUS-0023 iio_lux own_lux pid
    ambience_is_built
    modprobe bh1750 || return 1
    bh1750_set_lux 300
    # Whatever happens below, the address goes back to i2c-dev for the scenarios after this one.
    trap 'echo 0x23 >/sys/bus/i2c/devices/i2c-$BH1750_BUS/delete_device 2>/dev/null' EXIT
    echo bh1750 0x23 >"/sys/bus/i2c/devices/i2c-$BH1750_BUS/new_device"
    wait_for 5 iio_device_named bh1750 >/dev/null || { echo "no IIO device for the bh1750"; return 1; }

    expect_exit 0 "$AMBIENCE" probe
    grep -q "^iio:device[0-9]* 'bh1750' (kernel driver on $client): [0-9.]* lux; read it with kind = \"iio\", device = \"bh1750\"" \
        "$RIG_WORK/out" || { cat "$RIG_WORK/out"; return 1; }
    # The scan of the bus meets the busy address and says what to do.
    "$AMBIENCE" probe --bus "$BH1750_BUS" >"$RIG_WORK/out" 2>&1 || true
    grep -q "^/dev/i2c-$BH1750_BUS 0x23: .*kernel driver 'bh1750' is bound to $client; read the sensor through that driver with kind = \"iio\"" \
        "$RIG_WORK/out" || { cat "$RIG_WORK/out"; return 1; }

    daemon_config "$dir" iio bh1750 ""
    daemon_start "$dir"
    wait_for 5 daemon_shows "$dir" regular || { daemon_describe "$dir"; return 1; }
    pid=$(daemon_pid "$dir")
    iio_lux=$(state_file_lux "$dir")

    # Unbound mid-run: the IIO device goes, a fault; bound again (a new iio:deviceN): recovered.
    echo "$client" >/sys/bus/i2c/drivers/bh1750/unbind
    wait_for "$(fault_bound)" shows_a_held_fault "$dir" regular || { daemon_describe "$dir"; return 1; }
    echo "$client" >/sys/bus/i2c/drivers/bh1750/bind
    wait_for $((RECOVERY_BOUND + 2)) shows_recovered "$dir" regular || { daemon_describe "$dir"; return 1; }
    expect_equal "$pid" "$(daemon_pid "$dir")" "the daemon's process"
    expect_equal regular "$(pipe_states "$dir")" "states the reader was told"
    daemon_stop "$dir"

    # The project's own driver on the same chip and light, once the kernel lets go of it.
    echo 0x23 >"/sys/bus/i2c/devices/i2c-$BH1750_BUS/delete_device"
    expect_exit 0 "$AMBIENCE" probe --bus "$BH1750_BUS"
    own_lux=$(sed -n "s|^/dev/i2c-$BH1750_BUS 0x23: BH1750 .*: \([0-9.]*\) lux.*|\1|p" "$RIG_WORK/out")
    echo "# 300 lx: $iio_lux lx through the kernel's driver, $own_lux lx through the project's"
    if ! within_percent 3 "$iio_lux" 300 || ! within_percent 3 "$own_lux" "$iio_lux"; then
        fail "the readings disagree: IIO $iio_lux, own driver $own_lux"
    fi
}

check "the kernel's bh1750 driver through IIO: probe lists it, the daemon reads it, unbind is a fault, bind recovers" \
    kernel_driver_read_through_iio
