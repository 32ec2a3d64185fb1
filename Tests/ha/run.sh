#!/bin/bash
# make ha-test: a real Home Assistant (from PyPI, in a venv inside Debian trixie's root, which is
# made or extended first and kept outside the repository) against Debian's mosquitto and a
# simulated kiosk: `ambience simulate` and `ambience-mqtt`. Tests/ha/run.py has the steps.
# Usage: Tests/ha/run.sh [DIRECTORY-WITH-ambience-AND-ambience-mqtt]   (as root)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin_dir=${1:-.build/debug}
for tool in mosquitto mosquitto_pub python3; do
    command -v $tool >/dev/null || { echo "ha: $tool is missing (make setup installs it)"; exit 1; }
done
venv=$("$here/venv.sh")
exec python3 "$here/run.py" "$bin_dir" "$venv"
