# shellcheck shell=bash
# A daemon's scratch world with no sensor needed, for the scripts that run the release daemon on
# this host (footprint.sh, release-order.sh). Sourced, not run.
#
# scratch_daemon DIR: an IIO light sensor made of plain files in DIR/iio (the kernel's sysfs
# layout, reading 312.5 lx), and DIR/run.toml: that sensor at 10 Hz, the runtime files in DIR/run
# and one pipe, DIR/run/state.
scratch_daemon() {
    local dir=$1
    mkdir -p "$dir/iio" "$dir/run"
    echo 312.5 >"$dir/iio/in_illuminance_input"
    echo scratch >"$dir/iio/name"
    cat >"$dir/run.toml" <<TOML
state_file = "$dir/run/state.json"
control_pipe = "$dir/run/control"
state_directory = "$dir/run/lib"
[sensor]
kind = "iio"
device = "$dir/iio"
interval = 0.1
[pipes]
paths = ["$dir/run/state"]
TOML
}
