#!/bin/bash
# Fetches the shared-library packages a binary links against, for one Debian suite and
# architecture, from the system's Debian mirror, and unpacks each (files and DEBIAN/ control
# files, symbols and shlibs included) into DIR/PACKAGE, so that dpkg-shlibdeps can compute the
# Depends of a binary built for that suite and architecture on any host (make-deb.sh).
# The system's apt state is not touched (scripts/debian-apt.sh).
#
#   scripts/deb-libs.sh SUITE ARCH DIR PACKAGE...
set -euo pipefail
suite=${1:?suite} arch=${2:?arch} dir=${3:?directory}
shift 3
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
missing=()
for package in "$@"; do [ -f "$dir/$package/DEBIAN/control" ] || missing+=("$package"); done
[ ${#missing[@]} -gt 0 ] || exit 0

# shellcheck source=scripts/debian-apt.sh
. "$(dirname "$0")/debian-apt.sh"
trap debian_apt_end EXIT
debian_apt_begin "$suite" "$arch"
(cd "$DEBIAN_APT_WORK/download" && debian_apt download "${missing[@]}" >/dev/null)
for package in "${missing[@]}"; do
    deb=$(ls "$DEBIAN_APT_WORK"/download/"${package}"_*.deb)
    rm -rf "${dir:?}/$package"
    dpkg-deb -R "$deb" "$dir/$package"
    echo "deb-libs: $suite/$arch $package $(dpkg-deb -f "$deb" Version)"
done
