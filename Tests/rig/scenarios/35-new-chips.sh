# shellcheck shell=bash
# The VEML7700 (0x10), TSL2591 (0x29) and OPT3001 (0x44) the test adapter emulates at register
# level: `probe` names each by its ID registers and reads the light it was given within 3 % at
# 5, 300 and 20 000 lx, the drivers ranging automatically; `ambience run` takes each through
# dark → indoor → sunlight → dark; a VEML7700 unplugged mid-run is set up again when replugged.

# The lux `probe` printed for ADDRESS on the test adapter, as "NAME LUX" ("" if not identified
# as NAME with a reading: "at least" readings, saturated, do not match).
probe_lux_at() {  # probe_lux_at ADDRESS NAME
    sed -n "s|^/dev/i2c-$BH1750_BUS $1: $2 (by its [a-zA-Z ]* registers\{0,1\}): \([0-9.]*\) lux (.*|\1|p" \
        "$RIG_WORK/out"
}

probe_reads_the_new_chips_at() {  # probe_reads_the_new_chips_at LUX
    local lux=$1 address name read report='' wrong=''
    ambience_is_built
    veml7700_set_lux "$lux"
    tsl2591_set_lux "$lux"
    opt3001_set_lux "$lux"
    expect_exit 0 "$AMBIENCE" probe --bus "$BH1750_BUS"
    for address in 0x10:VEML7700 0x29:TSL2591 0x44:OPT3001; do
        name=${address#*:}
        read=$(probe_lux_at "${address%:*}" "$name")
        report+="${report:+, }$name ${read:-none}"
        within_percent 3 "${read:-0}" "$lux" || wrong+=" $name"
    done
    echo "# $lux lx: $report lx"
    [ -z "$wrong" ] || { echo "not within 3 % of $lux lx:$wrong"; cat "$RIG_WORK/out"; return 1; }
}

# Its first reading in the dark takes three integrations while it ranges (100 ms, the 800 ms
# the light needs: 1.0 s), longer than the fault_after of 1 s the other sequences use.
veml7700_sequence() {
    DAEMON_FAULT_AFTER=2
    light_sequence veml7700 veml7700 "$BH1750_BUS" 0x10 "" "$VEML7700_DELAY" veml7700_light 5 300 20000
}

tsl2591_sequence() {
    light_sequence tsl2591 tsl2591 "$BH1750_BUS" 0x29 "" "$TSL2591_DELAY" tsl2591_light 5 300 20000
}

# At its default 800 ms a sample comes every conversion or two (the driver looks every
# 0.88 s), and a rise into a higher range leaves up to 3.5 s without one (OPT3001_DELAY):
# fault_after 1 s would call that a fault.
opt3001_sequence() {
    # shellcheck disable=SC2034 # read by daemon_config (Tests/rig/daemon.sh)
    DAEMON_FAULT_AFTER=4
    light_sequence opt3001 opt3001 "$BH1750_BUS" 0x44 "" "$OPT3001_DELAY" opt3001_light 5 300 20000
}

# Replugged, the VEML7700 is shut down at its defaults, ALS_WH back to 0x0000 instead of the
# driver's 0xFFFF marker: the driver checks the ID (a command-code write 07 for the read),
# then writes ALS_CONF_0 shut down, power saving off, the marker, ALS_CONF_0 on.
veml7700_unplugged_then_back() {
    local dir=$RIG_WORK/fault-veml7700 writes
    local init='(^| )07 00:([0-9a-f]{2}):([0-9a-f]{2}) 03:00:00 01:ff:ff 00:([0-9a-f]{2}):([0-9a-f]{2})( |$)'
    ambience_is_built
    veml7700_set_lux 300
    daemon_config "$dir" veml7700 "$BH1750_BUS" 0x10
    daemon_start "$dir"
    wait_for 5 daemon_shows "$dir" regular || { daemon_describe "$dir"; return 1; }
    unplug_and_replug "$dir" regular veml7700_unplug veml7700_replug veml7700_clear_log
    writes=$(veml7700_log)
    [[ $writes =~ $init ]] || { echo "writes since the replug: $writes"; return 1; }
    # The same configuration both times, with ALS_SD (bit 0) set, then clear.
    expect_equal "$((0x${BASH_REMATCH[3]}${BASH_REMATCH[2]} & ~1))" \
        "$((0x${BASH_REMATCH[5]}${BASH_REMATCH[4]}))" "ALS_CONF_0 switched on"
    [ $((0x${BASH_REMATCH[2]} & 1)) = 1 ] || { echo "not shut down first: $writes"; return 1; }
    daemon_stop "$dir"
}

check "probe names the VEML7700, TSL2591 and OPT3001 by ID and reads 5 lx within 3 %" probe_reads_the_new_chips_at 5
check "probe reads 300 lx on the VEML7700, TSL2591 and OPT3001 within 3 %" probe_reads_the_new_chips_at 300
check "probe reads 20000 lx on the VEML7700, TSL2591 and OPT3001 within 3 %" probe_reads_the_new_chips_at 20000
check "VEML7700 (test adapter): dark → indoor → sunlight → dark on lines, pipe and state file" veml7700_sequence
check "TSL2591 (test adapter): dark → indoor → sunlight → dark" tsl2591_sequence
check "OPT3001 (test adapter): dark → indoor → sunlight → dark" opt3001_sequence
check "VEML7700 unplugged mid-run: fault held and lit; replugged: re-initialised, recovered" veml7700_unplugged_then_back
