# shellcheck shell=bash
# apt on a temporary state for one Debian suite and architecture, from the system's Debian
# mirror: the system's own apt lists, cache and status are never touched. Sourced, not run:
#   debian_apt_begin SUITE ARCH    makes the state in DEBIAN_APT_WORK and reads the suite's lists
#   debian_apt ARGS...             apt-get on it (download, install --download-only, ...)
#   debian_apt_unpack [--exact] DIR PACKAGE...  the packages and what they depend on (with
#                                  --exact, the packages named alone), unpacked (not installed:
#                                  no maintainer script runs) into DIR, /usr merged
#   debian_apt_end                 removes the state
DEBIAN_APT_WORK=
debian_apt_begin() {
    local suite=$1 arch=$2 sources=/etc/apt/sources.list.d/debian.sources mirror keyring
    mirror=$(awk '/^URIs:/ { print $2; exit }' "$sources" 2>/dev/null || true)
    keyring=$(awk '/^Signed-By:/ { print $2; exit }' "$sources" 2>/dev/null || true)
    DEBIAN_APT_WORK=$(mktemp -d)
    DEBIAN_APT_ARCH=$arch
    mkdir -p "$DEBIAN_APT_WORK/lists/partial" "$DEBIAN_APT_WORK/cache/archives/partial" "$DEBIAN_APT_WORK/download"
    # Nothing installed, and apt's locks beside it.
    : >"$DEBIAN_APT_WORK/status"
    echo "deb [arch=$arch signed-by=${keyring:-/usr/share/keyrings/debian-archive-keyring.gpg}]" \
        "${mirror:-http://deb.debian.org/debian} $suite main" >"$DEBIAN_APT_WORK/sources.list"
    debian_apt update >/dev/null
}

debian_apt() {
    apt-get -q \
        -o Dir::Etc::SourceList="$DEBIAN_APT_WORK/sources.list" -o Dir::Etc::SourceParts=/dev/null \
        -o Dir::State::Lists="$DEBIAN_APT_WORK/lists" -o Dir::Cache="$DEBIAN_APT_WORK/cache" \
        -o Dir::State::Status="$DEBIAN_APT_WORK/status" \
        -o APT::Architecture="$DEBIAN_APT_ARCH" -o APT::Architectures="$DEBIAN_APT_ARCH" \
        -o APT::Sandbox::User=root "$@"
}

debian_apt_unpack() {
    local exact='' dir deb directory
    if [ "$1" = --exact ]; then exact=1 && shift; fi
    dir=$1
    shift
    if [ -n "$exact" ]; then
        (cd "$DEBIAN_APT_WORK/cache/archives" && debian_apt download "$@") >"$DEBIAN_APT_WORK/install.log" 2>&1
    else
        debian_apt install -y --download-only --no-install-recommends "$@" >"$DEBIAN_APT_WORK/install.log" 2>&1
    fi || { cat "$DEBIAN_APT_WORK/install.log" >&2; return 1; }
    # A merged /usr, as the suites' own roots are: a file packaged under /lib lands in /usr/lib.
    mkdir -p "$dir/usr/lib" "$dir/usr/bin" "$dir/usr/sbin"
    for directory in lib bin sbin; do [ -e "$dir/$directory" ] || ln -s "usr/$directory" "$dir/$directory"; done
    for deb in "$DEBIAN_APT_WORK"/cache/archives/*.deb; do
        dpkg-deb --fsys-tarfile "$deb" | tar -x --keep-directory-symlink -C "$dir"
    done
    echo "debian-apt: $# packages and their dependencies, $(find "$DEBIAN_APT_WORK"/cache/archives -name '*.deb' | wc -l) in all, into $dir" >&2
}

debian_apt_end() {
    [ -z "$DEBIAN_APT_WORK" ] || rm -rf "$DEBIAN_APT_WORK"
    DEBIAN_APT_WORK=
}
