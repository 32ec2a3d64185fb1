#!/bin/bash
# Fetches the shared-library packages a binary links against, for one Debian suite and
# architecture, from the system's Debian mirror, and unpacks each (files and DEBIAN/ control
# files, symbols and shlibs included) into DIR/PACKAGE, so that dpkg-shlibdeps can compute the
# Depends of a binary built for that suite and architecture on any host (make-deb.sh).
# The system's apt state is not touched: apt runs on a temporary sources list, lists and cache.
#
#   scripts/deb-libs.sh SUITE ARCH DIR PACKAGE...
set -euo pipefail
suite=${1:?suite} arch=${2:?arch} dir=${3:?directory}
shift 3
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
sources=/etc/apt/sources.list.d/debian.sources
mirror=$(awk '/^URIs:/ { print $2; exit }' "$sources" 2>/dev/null || true)
keyring=$(awk '/^Signed-By:/ { print $2; exit }' "$sources" 2>/dev/null || true)
mirror=${mirror:-http://deb.debian.org/debian}
keyring=${keyring:-/usr/share/keyrings/debian-archive-keyring.gpg}

missing=()
for package in "$@"; do [ -f "$dir/$package/DEBIAN/control" ] || missing+=("$package"); done
[ ${#missing[@]} -gt 0 ] || exit 0

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/download"
echo "deb [arch=$arch signed-by=$keyring] $mirror $suite main" >"$work/sources.list"
apt_temporary() {
    apt-get -q \
        -o Dir::Etc::SourceList="$work/sources.list" -o Dir::Etc::SourceParts=/dev/null \
        -o Dir::State::Lists="$work/lists" -o Dir::Cache="$work/cache" \
        -o Dir::State::Status=/dev/null \
        -o APT::Architecture="$arch" -o APT::Architectures="$arch" \
        -o APT::Sandbox::User=root "$@"
}
apt_temporary update >/dev/null
(cd "$work/download" && apt_temporary download "${missing[@]}" >/dev/null)
for package in "${missing[@]}"; do
    deb=$(ls "$work"/download/"${package}"_*.deb)
    rm -rf "${dir:?}/$package"
    dpkg-deb -R "$deb" "$dir/$package"
    echo "deb-libs: $suite/$arch $package $(dpkg-deb -f "$deb" Version)"
done
