#!/bin/bash
# Runs inside the raspi guest (rig/raspi/run.sh) as /guest.sh, under Debian's bash-static (the
# initramfs has busybox and no bash of its own), with the one test harness beside it as
# /harness.sh (Tests/lib/harness.sh): the board profile against what the kernel and the upstream
# device tree name, the daemon's indicator lines through the real pin controller, read back with
# the kernel's own GPIO debug view, and `ambience probe` on the real BSC controller's driver.
# Prints "ok   NAME", "FAIL NAME" with why, or "skip NAME: why" per check, then
# "N passed, N failed[, N skipped]"; exits 1 when a check failed.
set -uo pipefail
# Under emulation each process costs: the waits poll once a second.
HARNESS_LOGS=$(mktemp -d) HARNESS_POLL=1
# shellcheck source=Tests/lib/harness.sh
source /harness.sh
# What the host's run.sh says of the board, on the kernel's command line.
setting() { sed -n "s/.*ambience\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
board=$(setting board) controller=$(setting i2c) line_count=$(setting lines) program=$(setting program)
profile=/usr/share/ambience/boards/$board.toml

for module in /modules/*.ko; do check "$(basename "$module") loads" insmod "$module"; done
sleep 1

# The profile's chip: the label gpiodetect shows, and its size.
chip=$(sed -n 's/^chip = "\(.*\)".*/\1/p' "$profile")
profile_chip_is_there() {
    gpiodetect >/tmp/chips || { cat /tmp/chips; fail "gpiodetect failed"; }
    grep -q "\[$chip\] ($line_count lines)" /tmp/chips || { cat /tmp/chips; fail "no [$chip] of $line_count lines"; }
}
check "gpiodetect shows the profile's chip, [$chip], $line_count lines" profile_chip_is_there

# The profile's lines, by offset: the device tree names each GPIO<offset> on the header.
lines=$(sed -n 's/^lines = { invert = \([0-9]*\), regular = \([0-9]*\), contrast = \([0-9]*\) }.*/\1 \2 \3/p' "$profile")
fault=$(sed -n 's/^fault = \([0-9]*\).*/\1/p' "$profile")
# gpioinfo takes the chip by its name, not its label: libgpiod 2's after -c, 1.6's (raspi0) alone.
name=$(sed -n "s/^\(gpiochip[0-9]*\) \[$chip\].*/\1/p" /tmp/chips)
gpioinfo -c "$name" >/tmp/lines 2>&1 || gpioinfo "$name" >/tmp/lines 2>&1
named_on_the_header() {  # named_on_the_header OFFSET
    grep -Eq "line +$1:[[:space:]]+\"GPIO$1\"" /tmp/lines || { head -n 30 /tmp/lines; fail "line $1 is not GPIO$1"; }
}
for offset in $lines $fault; do
    check "line $offset of $chip is named GPIO$offset" named_on_the_header "$offset"
done

# The header's I2C (GPIO2/GPIO3, i2c1 in the device tree at 0x7e804000) is the profile's bus.
bus=$(sed -n 's/^bus = \([0-9]*\).*/\1/p' "$profile")
adapter=$(cat "/sys/bus/i2c/devices/i2c-$bus/name" 2>/dev/null)
the_headers_controller() {
    [ -e "/dev/i2c-$bus" ] || { ls -l /sys/bus/i2c/devices/; fail "no /dev/i2c-$bus"; }
    readlink "/sys/bus/i2c/devices/i2c-$bus" | grep -q "$controller" ||
        { ls -l /sys/bus/i2c/devices/; fail "/dev/i2c-$bus is not the header's controller"; }
}
check "/dev/i2c-$bus is the header's BSC controller ($controller: '$adapter')" the_headers_controller

# QEMU's BCM2838 (raspi4b) wires no interrupt of its BSC controllers to the GIC, and the driver
# waits for one on every transfer: after one read, the controller's count in /proc/interrupts
# says whether transfers can complete on this machine at all.
i2cget -y "$bus" 0x49 0 >/dev/null 2>&1
interrupts=$(grep "$controller" /proc/interrupts | awk '{ n = 0; for (i = 2; $i ~ /^[0-9]+$/; i++) n += $i; print n }')
no_program="the package's programs need Debian's armhf libc, ARMv7 code this core cannot run"
reason="no interrupt from $controller: this machine wires no BSC interrupt to the CPU"
finds_the_tmp105() {
    # What answers decides, not i2cdetect's exit status.
    i2cdetect -y "$bus" >/tmp/i2cdetect 2>&1 || true
    grep -q ' 49 ' /tmp/i2cdetect || { cat /tmp/i2cdetect; fail "no 0x49"; }
}
# ambience probe on the real controller: 0x49 is one of the TSL2561's addresses; what answers
# there is QEMU's TMP105, which probe must not take for one.
probe_tells_0x49_apart() {
    # What it says of 0x49 decides, not its exit status.
    ambience probe --bus "$bus" >/tmp/probe 2>&1 || true
    cat /tmp/probe
    grep -q '0x49: answers.*not a TSL2560/TSL2561$' /tmp/probe || fail "probe did not tell 0x49 apart"
}
if [ "${interrupts:-0}" = 0 ]; then
    skip "i2cdetect finds QEMU's TMP105 at 0x49" "$reason"
else
    check "i2cdetect finds QEMU's TMP105 at 0x49" finds_the_tmp105
fi
probe_name="ambience probe sees what answers at 0x49 and takes it for no TSL2560/TSL2561"
if [ "$program" = no ]; then
    skip "$probe_name" "$no_program"
elif [ "${interrupts:-0}" = 0 ]; then
    skip "$probe_name" "$reason"
else
    check "$probe_name" probe_tells_0x49_apart
fi

# The Pi Zero's core: the pure core's replay, static, on its kernel; run.sh compares the sum.
an_armv6_core() { [ "$(uname -m)" = armv6l ] || fail "uname -m is $(uname -m)"; }
replays_the_day() {
    /replay-armv6 </day.csv >/tmp/replay || fail "the static replay failed"
    echo "# $(wc -l </tmp/replay) lines"
}
if [ "$program" = no ]; then
    check "the kernel runs on an ARMv6 core (uname -m: armv6l)" an_armv6_core
    if check "the static replay ran the day" replays_the_day; then
        echo "replay-sha256 $(sha256sum </tmp/replay | cut -d' ' -f1)"
    fi
    skip "the daemon drives the profile's lines" "$no_program"
    summary
    exit
fi

# The daemon on the profile: no sensor answers at 0x23, so the fault line lights; the pin
# controller holds it high, as the kernel's debug view of requested lines shows. Started here, not
# in a check, so that it outlives the checks that read its lines.
cat >/tmp/ambience.toml <<TOML
board = "$board"
[sensor]
kind = "bh1750"
TOML
ambience run --config /tmp/ambience.toml >/tmp/run.log 2>&1 &
daemon=$!
held() { grep -Eq "\(GPIO$1 +\|ambience +\) out $2" /sys/kernel/debug/gpio; }  # held OFFSET hi|lo
fault_held_high() {
    wait_for 120 held "$fault" hi || { cat /tmp/run.log /sys/kernel/debug/gpio; fail "the fault line is not high"; }
    grep ambience /sys/kernel/debug/gpio
}
held_low() {  # held_low OFFSET
    held "$1" lo || fail "GPIO$1 is not held low"
}
released() {
    if grep -q '|ambience' /sys/kernel/debug/gpio; then fail "the daemon kept its lines after SIGTERM"; fi
}
check --timeout 150 "the daemon holds the fault line GPIO$fault high through $chip" fault_held_high
for offset in $lines; do
    check "the daemon holds GPIO$offset low (no reading, no state)" held_low "$offset"
done
kill "$daemon"
wait "$daemon"
check "SIGTERM released the lines" released
summary
