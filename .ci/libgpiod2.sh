#!/bin/sh
# Fetches libgpiod 2.x (Debian 13's libgpiod3 + libgpiod-dev, 2.2.x) into PREFIX on a Debian 12
# host, which ships only libgpiod 1.6, so CI can build and test against both API generations.
# Run as root (apt-get needs it). The system's apt state is left untouched: apt runs against a
# temporary sources list and temporary lists/cache, reusing the mirror of the system's own
# /etc/apt/sources.list.d/debian.sources with suite trixie.
#
# Build and test against 2.x (the generation is picked by the headers found, no flag needed):
#
#   sudo .ci/libgpiod2.sh /opt/libgpiod2
#   export PKG_CONFIG_PATH=/opt/libgpiod2/lib/pkgconfig
#   export LD_LIBRARY_PATH=$(pkg-config --variable=libdir libgpiod)
#   swift build --scratch-path /tmp/build-gpiod2
#   swift test --scratch-path /tmp/build-gpiod2 --filter AmbienceOutputsTests
#
# Only the library is usable from the prefix (it needs glibc 2.34, Debian 12 has 2.36); the
# gpioset/gpioget tools of libgpiod-tools are not fetched.
set -eu

if [ $# -ne 1 ]; then
    echo "usage: $0 PREFIX" >&2
    exit 2
fi
mkdir -p "$1"
prefix=$(cd "$1" && pwd)

sources=/etc/apt/sources.list.d/debian.sources
codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
# The URI of the stanza serving the release's own suite (not -security or -updates).
mirror=$(awk -v suite="$codename" '
    /^[[:space:]]*$/ { uri = ""; found = 0 }
    /^URIs:/ { uri = $2 }
    /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == suite) found = 1 }
    uri != "" && found { print uri; exit }
' "$sources")
if [ -z "$mirror" ]; then
    echo "$0: no mirror for suite $codename in $sources" >&2
    exit 1
fi
keyring=$(awk '/^Signed-By:/ { print $2; exit }' "$sources")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/download"
echo "deb [signed-by=${keyring:-/usr/share/keyrings/debian-archive-keyring.gpg}] $mirror trixie main" \
    >"$work/sources.list"

apt_temporary() {
    apt-get -q \
        -o Dir::Etc::SourceList="$work/sources.list" \
        -o Dir::Etc::SourceParts=/dev/null \
        -o Dir::State::Lists="$work/lists" \
        -o Dir::Cache="$work/cache" \
        -o APT::Sandbox::User=root \
        "$@"
}

apt_temporary update
(cd "$work/download" && apt_temporary download libgpiod3 libgpiod-dev)

for package in "$work"/download/*.deb; do
    dpkg -x "$package" "$prefix"
done

libdir=$(dirname "$(find "$prefix/usr/lib" -name 'libgpiod.so.3*' | head -n 1)")
version=$(dpkg-deb -f "$(ls "$work"/download/libgpiod-dev_*.deb)" Version | sed 's/-.*//')
mkdir -p "$prefix/lib/pkgconfig"
cat >"$prefix/lib/pkgconfig/libgpiod.pc" <<PC
prefix=$prefix/usr
includedir=\${prefix}/include
libdir=$libdir

Name: libgpiod
Description: Library and tools for the Linux GPIO chardev (Debian 13's, unpacked)
Version: $version
Libs: -L\${libdir} -lgpiod
Cflags: -I\${includedir}
PC
echo "libgpiod $version in $prefix; PKG_CONFIG_PATH=$prefix/lib/pkgconfig LD_LIBRARY_PATH=$libdir"
