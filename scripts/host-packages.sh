#!/bin/bash
# Installs on this host those of PACKAGES it lacks, with one apt-get update; nothing when it has
# them all (the common case, well under a second).
#   scripts/host-packages.sh PACKAGE...     (as root)
set -euo pipefail
missing=()
for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
[ ${#missing[@]} -gt 0 ] || exit 0
echo "installing on the host: ${missing[*]}"
apt-get update -q
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
