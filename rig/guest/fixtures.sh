# shellcheck shell=bash
# Sourced in the guest (as root, by bash): loads the drivers, creates the fixtures, exports
# where they are, and defines helpers for scenarios. Safe to source more than once.
#
# Fixtures:
#   TSL2561_BUS     i2c-stub (SMBus only): TSL2561 register files at 0x39 and 0x49
#   BH1750_BUS      the project's ambience-test-i2c adapter (plain I2C): a VEML7700 at 0x10,
#                   a BH1750 at 0x23, a TSL2591 at 0x29, a TSL2561 at 0x39 and an OPT3001 at
#                   0x44, with knobs (see rig/kmod/ambience-test-i2c); a DDC/CI monitor at
#                   0x37 with its EDID at 0x50; the module's backlight $TEST_BACKLIGHT
#   GPIO_CHIP       gpio-sim's chip, gpiochipN: 8 lines, label $GPIO_SIM_LABEL
#   GPIO_SIM_SYSFS  /sys/devices/platform/gpio-sim.N/gpiochipN: line K's level is
#                   $GPIO_SIM_SYSFS/sim_gpioK/value, its pull .../sim_gpioK/pull
#   I2C_GID, GPIO_GID   numeric groups rig_grant_device_groups gives the device nodes
#   NOBODY_UID      an unprivileged user (nobody) for as_user
#   GPIOD_TOOLS     1 or 2: the major version of the gpiod command-line tools (Debian 12 has
#                   1.6, Debian 13 2.x, with another syntax); use the gpio_* helpers below
#                   (gpio_hold, gpio_get, gpio_line_info, gpioinfo_chip), not the tools directly
[ -n "${RIG_DIR:-}" ] || { echo "fixtures.sh: RIG_DIR is not set (run through rig/run.sh)" >&2; return 1; }

TEST_ADAPTER_NAME=ambience-test-i2c
TEST_ADAPTER_PARAMETERS=/sys/module/ambience_test_i2c/parameters
STUB_ADAPTER_NAME="SMBus stub driver"
STUB_ADDRESSES=0x39,0x49
GPIO_SIM_LABEL=ambience-sim
GPIO_SIM_LINES=8
GPIO_SIM_CONFIG=/sys/kernel/config/gpio-sim/ambience
# Groups that need not exist in the (read-only) host's /etc/group: numbers are enough.
I2C_GID=64001
GPIO_GID=64002
NOBODY_UID=65534
export I2C_GID GPIO_GID NOBODY_UID GPIO_SIM_LABEL

# The modules rig/setup.sh built for the running kernel (arm64's under $RIG_DIR/arm64).
rig_module_dir() {
    if [ "${RIG_ARCH:-amd64}" = amd64 ]; then
        echo "$RIG_DIR/kernels/$(uname -r)/modules"
    else
        echo "$RIG_DIR/$RIG_ARCH/kernels/$(uname -r)/modules"
    fi
}

# insmod, unless the module is loaded already (sourcing twice must not fail). The kernel's own
# modules it depends on are loaded first (modprobe: they are in /lib/modules).
rig_insmod() {  # rig_insmod NAME [PARAMETER=VALUE...]
    local name=$1 file dependency
    shift
    file=$(rig_module_dir)/$name.ko
    [ -d "/sys/module/${name//-/_}" ] && return 0
    for dependency in $(modinfo -F depends "$file" | tr ',' ' '); do
        modprobe "$dependency" || return
    done
    insmod "$file" "$@"
}

# A module of the kernel's own when it has one (Debian 12's amd64 i2c-stub), else the one
# rig/setup.sh built (Debian 13's arm64 kernel lacks i2c-stub).
rig_load() {  # rig_load NAME [PARAMETER=VALUE...]
    if [ -e "$(rig_module_dir)/$1.ko" ]; then
        rig_insmod "$@"
    else
        modprobe "$@"
    fi
}

# The number N of the /dev/i2c-N whose adapter has this name (bus numbers vary by machine).
i2c_bus_by_name() {  # i2c_bus_by_name NAME
    local name_file
    for name_file in /sys/class/i2c-dev/i2c-*/name; do
        if [ "$(cat "$name_file")" = "$1" ]; then
            basename "$(dirname "$name_file")" | cut -d- -f2
            return 0
        fi
    done
    echo "no I2C adapter named '$1'" >&2
    return 1
}

# (Sourced, so no set -e here: each step stops the loader on failure by hand.)
load_i2c_fixtures() {
    modprobe i2c-dev || return
    rig_load i2c-stub chip_addr="$STUB_ADDRESSES" || return
    rig_insmod ambience-test-i2c || return
    TSL2561_BUS=$(i2c_bus_by_name "$STUB_ADAPTER_NAME") || return
    BH1750_BUS=$(i2c_bus_by_name "$TEST_ADAPTER_NAME") || return
    export TSL2561_BUS BH1750_BUS
}

# gpio-sim is configured through configfs: a chip directory with banks, then live=1.
load_gpio_fixtures() {
    modprobe configfs || return
    mountpoint -q /sys/kernel/config || mount -t configfs configfs /sys/kernel/config || return
    rig_insmod gpio-sim || return
    if [ ! -d "$GPIO_SIM_CONFIG" ]; then
        mkdir -p "$GPIO_SIM_CONFIG/bank0" &&
            echo "$GPIO_SIM_LINES" >"$GPIO_SIM_CONFIG/bank0/num_lines" &&
            echo "$GPIO_SIM_LABEL" >"$GPIO_SIM_CONFIG/bank0/label" &&
            echo 1 >"$GPIO_SIM_CONFIG/live" || return
    fi
    GPIO_CHIP=$(cat "$GPIO_SIM_CONFIG/bank0/chip_name") || return
    GPIO_SIM_SYSFS=/sys/devices/platform/$(cat "$GPIO_SIM_CONFIG/dev_name")/$GPIO_CHIP || return
    export GPIO_CHIP GPIO_SIM_SYSFS
}

# ---- TSL2561 on i2c-stub ----
# i2c-stub keeps one 16-bit word per SMBus command code, and byte accesses use its low byte.
# So the TSL2561's registers live at the command codes a driver sends: 0x80|reg for byte
# access (ID at 0x8A), 0xA0|reg for word access (DATA0 at 0xAC, DATA1 at 0xAE). i2c-stub
# knows nothing of the chip: CONTROL reads back what was written, data never changes.

# Power-on state: CONTROL 0x00, TIMING 0x02, ID (default 0x50: TSL2561T/FN/CL rev 0).
tsl2561_stub_reset() {  # tsl2561_stub_reset [ADDRESS [ID]]
    local address=${1:-0x39} id=${2:-0x50}
    i2cset -y "$TSL2561_BUS" "$address" 0x80 0x00 b
    i2cset -y "$TSL2561_BUS" "$address" 0x81 0x02 b
    i2cset -y "$TSL2561_BUS" "$address" 0x8a "$id" b
}

# Channel counts, readable by word (0xAC/0xAE) and by byte (0x8C-0x8F).
tsl2561_stub_set_counts() {  # tsl2561_stub_set_counts CH0 CH1 [ADDRESS]
    local ch0=$(($1)) ch1=$(($2)) address=${3:-0x39}
    i2cset -y "$TSL2561_BUS" "$address" 0xac "$ch0" w
    i2cset -y "$TSL2561_BUS" "$address" 0xae "$ch1" w
    i2cset -y "$TSL2561_BUS" "$address" 0x8c $((ch0 & 0xff)) b
    i2cset -y "$TSL2561_BUS" "$address" 0x8d $((ch0 >> 8)) b
    i2cset -y "$TSL2561_BUS" "$address" 0x8e $((ch1 & 0xff)) b
    i2cset -y "$TSL2561_BUS" "$address" 0x8f $((ch1 >> 8)) b
}

# ---- The test adapter's chips (knobs in $TEST_ADAPTER_PARAMETERS) ----

test_adapter_knob() {  # test_adapter_knob NAME [VALUE]: prints the knob, or sets it
    if [ $# = 2 ]; then
        echo "$2" >"$TEST_ADAPTER_PARAMETERS/$1"
    else
        cat "$TEST_ADAPTER_PARAMETERS/$1"
    fi
}

# Every measurement yields exactly these counts, whatever the mode and MTreg.
bh1750_set_counts() {  # bh1750_set_counts COUNTS
    test_adapter_knob bh1750_counts "$(($1))"
}

# Counts follow this light through the datasheet (lux x 1.2 x MTreg/69, x2 in H-res2).
bh1750_set_lux() {  # bh1750_set_lux LUX (decimals allowed)
    test_adapter_knob bh1750_millilux "$(awk -v lux="$1" 'BEGIN { printf "%d", lux * 1000 }')"
    test_adapter_knob bh1750_counts -1
}

# Unplugged, every transfer to the chip NACKs (ENXIO); plugged back in, it is powered down
# with MTreg 69 and data 0, so a driver must initialise it again.
bh1750_unplug() { test_adapter_knob bh1750_present 0; }
bh1750_replug() { test_adapter_knob bh1750_present 1; }

# The opcodes written since the last clear, oldest first (last 32), e.g. "01 07 10".
bh1750_log() { test_adapter_knob bh1750_log; }
bh1750_clear_log() { test_adapter_knob bh1750_log clear; }
bh1750_mtreg() { test_adapter_knob bh1750_mtreg; }

# The adapter's own TSL2561 (plain I2C, unpluggable, integrates with real timing).
tsl2561_set_counts() {  # tsl2561_set_counts CH0 CH1
    test_adapter_knob tsl2561_ch0 "$(($1))"
    test_adapter_knob tsl2561_ch1 "$(($2))"
}
tsl2561_unplug() { test_adapter_knob tsl2561_present 0; }
tsl2561_replug() { test_adapter_knob tsl2561_present 1; }
# Write transfers, bytes joined by ':', e.g. "80:03 81:02 8a".
tsl2561_log() { test_adapter_knob tsl2561_log; }
tsl2561_clear_log() { test_adapter_knob tsl2561_log clear; }

# The adapter's VEML7700 at 0x10. Its linear response reads real light above 1000 lx low,
# which the application note's correction (6.0135e-13 L^4 - 9.3924e-9 L^3 + 8.1488e-5 L^2 +
# 1.0023 L, from 1000 lx) puts right: the knob takes the light the linear response sees, so
# this runs the correction backwards (bisection). Between 1000 lx and the correction's 1075
# lx at 1000 it reads 1000, as the chip would.
veml7700_set_lux() {  # veml7700_set_lux LUX (decimals allowed)
    test_adapter_knob veml7700_millilux "$(awk -v lux="$1" '
        function corrected(l) { return (((6.0135e-13 * l - 9.3924e-9) * l + 8.1488e-5) * l + 1.0023) * l }
        BEGIN {
            linear = lux
            if (lux > 1000) {
                low = 1000; high = lux
                for (i = 0; i < 100; i++) { mid = (low + high) / 2; if (corrected(mid) < lux) low = mid; else high = mid }
                linear = (low + high) / 2
            }
            printf "%d", linear * 1000
        }')"
}
# Unplugged it NACKs; replugged, it is shut down with every register at its power-on value.
veml7700_unplug() { test_adapter_knob veml7700_present 0; }
veml7700_replug() { test_adapter_knob veml7700_present 1; }
# Write transfers, e.g. "00:01:00 03:00:00 01:ff:ff 00:00:00" (code, low byte, high byte).
veml7700_log() { test_adapter_knob veml7700_log; }
veml7700_clear_log() { test_adapter_knob veml7700_log clear; }

# The adapter's TSL2591 at 0x29: counts follow the light through ams' formula, with C1 at
# INFRARED_PERCENT of C0 (default 30, daylight).
tsl2591_set_lux() {  # tsl2591_set_lux LUX [INFRARED_PERCENT]
    test_adapter_knob tsl2591_millilux "$(awk -v lux="$1" 'BEGIN { printf "%d", lux * 1000 }')"
    test_adapter_knob tsl2591_infrared_percent "${2:-30}"
}
# Unplugged it NACKs; replugged, it is off (ENABLE 0x00) at 1x and 100 ms.
tsl2591_unplug() { test_adapter_knob tsl2591_present 0; }
tsl2591_replug() { test_adapter_knob tsl2591_present 1; }
# Write transfers, e.g. "a0:01 a1:10 a0:03 a0 b3" (command byte, then data).
tsl2591_log() { test_adapter_knob tsl2591_log; }
tsl2591_clear_log() { test_adapter_knob tsl2591_log clear; }

# The adapter's OPT3001 at 0x44.
opt3001_set_lux() {  # opt3001_set_lux LUX
    test_adapter_knob opt3001_millilux "$(awk -v lux="$1" 'BEGIN { printf "%d", lux * 1000 }')"
}
# Unplugged it NACKs; replugged, it is shut down (CONFIGURATION 0xC810).
opt3001_unplug() { test_adapter_knob opt3001_present 0; }
opt3001_replug() { test_adapter_knob opt3001_present 1; }
# Write transfers, e.g. "7e 7f 01:cc:10 01 00" (pointer, then the word most significant first).
opt3001_log() { test_adapter_knob opt3001_log; }
opt3001_clear_log() { test_adapter_knob opt3001_log clear; }

# ---- The test adapter's DDC/CI monitor (0x37, EDID at 0x50) and the backlight device ----
# shellcheck disable=SC2034 # for the scenarios (Tests/rig/scenarios), which source this file's user
TEST_BACKLIGHT=/sys/class/backlight/ambience-test
# Unplugged, 0x37 and 0x50 both NACK (an HDMI cable pulled); replugged, it keeps its brightness.
ddc_unplug() { test_adapter_knob ddc_present 0; }
ddc_replug() { test_adapter_knob ddc_present 1; }
# The monitor's brightness (VCP 0x10, 0 to 100) as last set, and the Set messages it took.
ddc_brightness() { test_adapter_knob ddc_brightness; }
ddc_sets() { test_adapter_knob ddc_sets; }
# Its power mode (VCP 0xD6: 1 on, 2 standby, 3 suspend, 4 off, 5 off by the button) and the
# Set messages for it taken; given a mode, the power button is pressed to get there.
ddc_power() { test_adapter_knob ddc_power "$@"; }  # ddc_power [MODE]
ddc_power_sets() { test_adapter_knob ddc_power_sets; }
# How it handles its power mode: 0 honest, 1 deaf at 0x37 while off (4, 5), 2 reads standby
# (2) for off, 3 woken (1) by any Get VCP.
ddc_power_quirk() { test_adapter_knob ddc_power_quirk "$@"; }  # ddc_power_quirk [QUIRK]
# The backlight class device's brightness as its driver last applied it (0 to 255), and its
# power (bl_power: 0 on, 4 powered down).
test_backlight_applied() { test_adapter_knob backlight_brightness; }
test_backlight_power() { test_adapter_knob backlight_power; }

# ---- gpio-sim ----

# The level of line K as the simulator sees it: what a consumer drives while it holds the
# line as an output; the pull once released. So check while the line is held.
gpio_sim_value() {  # gpio_sim_value LINE
    cat "$GPIO_SIM_SYSFS/sim_gpio$1/value"
}

# Succeeds if line K's level is VALUE (a command, for polling: `wait_for 5 gpio_sim_reads 3 1`).
gpio_sim_reads() {  # gpio_sim_reads LINE VALUE
    [ "$(gpio_sim_value "$1")" = "$2" ]
}

# What an input line reads, as if wired to ground or to the supply.
gpio_sim_pull() {  # gpio_sim_pull LINE up|down
    echo "pull-$2" >"$GPIO_SIM_SYSFS/sim_gpio$1/pull"
}

# ---- The gpiod tools, 1.6 (Debian 12) or 2.x (Debian 13) ----

# 1 or 2, from `gpioinfo --version` ("gpioinfo (libgpiod) v1.6.3", "... v2.2.1").
gpiod_tools_version() {
    gpioinfo --version 2>/dev/null | sed -n '1s/.* v\{0,1\}\([0-9]*\)\..*/\1/p'
}

# Drives LINE to VALUE on CHIP and holds it until killed (consumer "gpioset"). It execs the
# tool, so run it in the background (`gpio_hold CHIP 3=1 &`): $! is then the holder itself.
gpio_hold() {  # gpio_hold CHIP LINE=VALUE &
    if [ "$GPIOD_TOOLS" = 1 ]; then
        exec gpioset --mode=signal "$1" "$2"
    else
        exec gpioset --chip "$1" "$2"
    fi
}

# The value (0 or 1) LINE of CHIP reads as an input.
gpio_get() {  # gpio_get CHIP LINE
    if [ "$GPIOD_TOOLS" = 1 ]; then
        gpioget "$1" "$2"
    else
        gpioget --numeric --chip "$1" "$2"
    fi
}

# gpioinfo for one chip, as a command line (for as_user, which runs commands, not functions).
gpioinfo_chip() {  # gpioinfo_chip CHIP: prints the command words, one per line
    if [ "$GPIOD_TOOLS" = 1 ]; then
        printf '%s\n' gpioinfo "$1"
    else
        printf '%s\n' gpioinfo --chip "$1"
    fi
}

# LINE of CHIP as "CONSUMER DIRECTION": "unused input", "gpioset output", "ambience output".
#   1.6: line   3:      unnamed  "gpioset"   output  active-high [used]
#        line   5:      unnamed       unused   input  active-high
#   2.x: line   3:      unnamed                 output consumer="gpioset"
#        line   5:      unnamed                 input
gpio_line_info() {  # gpio_line_info CHIP LINE
    local info command
    # (No process substitution: the guest's /dev has no /dev/fd.)
    mapfile -t command <<<"$(gpioinfo_chip "$1")"
    info=$("${command[@]}") || return
    awk -v line="$2" -v tools="$GPIOD_TOOLS" '
        $1 == "line" && $2 == line ":" {
            consumer = "unused"; direction = "?"
            if (tools == 1) {
                if (match($0, /"[^"]*"/)) { consumer = substr($0, RSTART + 1, RLENGTH - 2); sub(/"[^"]*"/, "") }
                else if ($0 !~ / unused /) consumer = "used"
            } else if (match($0, /consumer=("[^"]*"|[^ \t]+)/)) {
                consumer = substr($0, RSTART + 9, RLENGTH - 9); gsub(/"/, "", consumer)
            } else if ($0 ~ /[ \t]used([ \t]|$)/) consumer = "used"
            if ($0 ~ /[ \t]output([ \t]|$)/) direction = "output"
            else if ($0 ~ /[ \t]input([ \t]|$)/) direction = "input"
            print consumer, direction
            found = 1
        }
        END { exit !found }' <<<"$info"
}

# Succeeds if no process holds LINE of CHIP (whatever direction it was left in).
gpio_line_unused() {  # gpio_line_unused CHIP LINE
    [[ "$(gpio_line_info "$1" "$2")" == "unused "* ]]
}

# ---- Permissions, as the project's udev rules set them ----

# /dev/i2c-* to group I2C_GID, /dev/gpiochip* to GPIO_GID, both 0660.
rig_grant_device_groups() {
    chgrp "$I2C_GID" /dev/i2c-*
    chmod 0660 /dev/i2c-*
    chgrp "$GPIO_GID" /dev/gpiochip*
    chmod 0660 /dev/gpiochip*
}

# Runs COMMAND as nobody, in exactly the given supplementary groups (none by default).
# /etc is the host's, read-only: setpriv takes numbers, so no user or group need exist.
as_user() {  # as_user [GID[,GID...]] -- COMMAND...
    local groups=
    if [ "$1" != -- ]; then
        groups=$1
        shift
    fi
    [ "$1" = -- ] || { echo "usage: as_user [GIDS] -- COMMAND..." >&2; return 2; }
    shift
    if [ -n "$groups" ]; then
        setpriv --reuid="$NOBODY_UID" --regid="$NOBODY_UID" --groups="$groups" -- "$@"
    else
        setpriv --reuid="$NOBODY_UID" --regid="$NOBODY_UID" --clear-groups -- "$@"
    fi
}

rig_describe_fixtures() {
    echo "kernel $(uname -r), guest uptime $(cut -d' ' -f1 /proc/uptime)s"
    echo "TSL2561_BUS=$TSL2561_BUS ($STUB_ADAPTER_NAME, TSL2561 at $STUB_ADDRESSES)"
    echo "BH1750_BUS=$BH1750_BUS ($TEST_ADAPTER_NAME, VEML7700 at 0x10, BH1750 at 0x23, TSL2591 at 0x29, TSL2561 at 0x39, OPT3001 at 0x44, a DDC/CI monitor at 0x37 and 0x50)"
    echo "GPIO_CHIP=$GPIO_CHIP ($GPIO_SIM_LABEL, $GPIO_SIM_LINES lines)"
    echo "GPIO_SIM_SYSFS=$GPIO_SIM_SYSFS"
    echo "GPIOD_TOOLS=$GPIOD_TOOLS ($(gpioinfo --version | head -n 1))"
}

GPIOD_TOOLS=$(gpiod_tools_version)
export GPIOD_TOOLS
if ! { [ -n "$GPIOD_TOOLS" ] || { echo "fixtures.sh: cannot tell the gpiod tools' version" >&2; false; }; } ||
    ! { load_i2c_fixtures && load_gpio_fixtures &&
    tsl2561_stub_reset 0x39 && tsl2561_stub_reset 0x49; }; then
    echo "fixtures.sh: setting up the fixtures failed" >&2
    return 1
fi
