# shellcheck shell=bash
# The sensor disappears mid-run (its address stops acknowledging): after fault_after the
# daemon reports a fault (pipe, log, fault line) and holds the state; when the chip comes back,
# powered down with its settings lost, the daemon initialises it again (the adapter's write log
# shows it) and reports it recovered.

bh1750_unplugged_then_back() {
    local dir=$RIG_WORK/fault-bh1750
    ambience_is_built
    bh1750_set_lux 300
    daemon_config "$dir" bh1750 "$BH1750_BUS" 0x23
    daemon_start "$dir"
    wait_for 5 daemon_shows "$dir" regular || { daemon_describe "$dir"; return 1; }
    # 300 lx: automatic ranging's most sensitive range, H-res2 at MTreg 254 (0xFE).
    expect_equal 254 "$(bh1750_mtreg)" "MTreg before the unplug"
    unplug_and_replug "$dir" regular bh1750_unplug bh1750_replug bh1750_clear_log
    # Replugged, the chip was powered down with MTreg 69: power on, reset, MTreg 0xFE (0x47,
    # 0x7E), H-res2 (0x11) were sent again, in that order, before anything else.
    [[ "$(bh1750_log)" == "01 07 47 7e 11"* ]] || { echo "writes since the replug: $(bh1750_log)"; return 1; }
    expect_equal 254 "$(bh1750_mtreg)" "MTreg after recovery"
    daemon_stop "$dir"
}

tsl2561_unplugged_then_back() {
    local dir=$RIG_WORK/fault-tsl2561
    ambience_is_built
    tsl2561_set_counts 200 20
    daemon_config "$dir" tsl2561 "$BH1750_BUS" 0x39 "$TSL2561_SETTINGS"
    daemon_start "$dir"
    wait_for 5 daemon_shows "$dir" regular || { daemon_describe "$dir"; return 1; }
    unplug_and_replug "$dir" regular tsl2561_unplug tsl2561_replug tsl2561_clear_log
    # Replugged, the chip was off with its default timing: TIMING 101 ms at 1x (0x81 ← 0x01)
    # and power-up (0x80 ← 0x03) were sent again.
    local writes
    writes=$(tsl2561_log)
    [[ " $writes " == *" 81:01 "*"80:03 "* ]] ||
        { echo "writes since the replug: $writes"; od -c <<<"$writes"; return 1; }
    daemon_stop "$dir"
}

check "BH1750 unplugged mid-run: fault held and lit; replugged: re-initialised, recovered" bh1750_unplugged_then_back
check "TSL2561 unplugged mid-run: fault held and lit; replugged: re-initialised, recovered" tsl2561_unplugged_then_back
check_gpiod2 "libgpiod 2.x build: BH1750 unplugged and replugged" bh1750_unplugged_then_back
