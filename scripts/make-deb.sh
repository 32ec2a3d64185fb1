#!/bin/bash
# Builds the Debian package of ambience around a binary built elsewhere (the binary is an input:
# make deb builds what the host can, other machines or roots build the rest).
#
#   scripts/make-deb.sh --suite trixie|bookworm --arch amd64|arm64|armhf --binary PATH
#                       [--version V] [--out DIR]
#
# V is the whole Debian version (default 0~gitDATE.HASH-1~deb12 or ~deb13, so that the trixie
# package is newer than the bookworm one of the same commit). The package is written to
# DIR/ambience_V_ARCH.deb (default DIR: .build/deb) and its path printed last.
#
# What goes where is scripts/layout.sh (shared with make install); the maintainer scripts and
# the lintian overrides are in packaging/debian. Depends is computed by dpkg-shlibdeps from the
# binary's NEEDED entries against the symbols files of the target suite's own library packages
# for the target architecture, fetched from the Debian mirror by scripts/deb-libs.sh (cached in
# .build/deb/libs/SUITE-ARCH), so a foreign-architecture binary gets exact Depends too.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export PATH=/opt/swift/usr/bin:$PATH
suite="" arch="" binary="" version="" out=$ROOT/.build/deb
usage() { sed -n '5,6p' "$0" | sed 's/^#  */usage: /' >&2; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
    --suite) suite=${2:?}; shift 2 ;;
    --arch) arch=${2:?}; shift 2 ;;
    --binary) binary=${2:?}; shift 2 ;;
    --version) version=${2:?}; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    *) usage ;;
    esac
done
if [ -z "$suite" ] || [ -z "$arch" ] || [ -z "$binary" ]; then usage; fi
[ -f "$binary" ] || { echo "make-deb: no binary at $binary" >&2; exit 1; }

# The suite decides the library generation and the locations its own packages use (bookworm
# ships units and rules in /lib, trixie in /usr/lib).
case $suite in
bookworm) gpiod=libgpiod.so.2 tag=deb12 libprefix=/lib microhttpd=libmicrohttpd12 ;;
trixie) gpiod=libgpiod.so.3 tag=deb13 libprefix=/usr/lib microhttpd=libmicrohttpd12t64 ;;
*) echo "make-deb: suite must be bookworm or trixie" >&2; exit 2 ;;
esac
case $arch in
amd64) machine="Advanced Micro Devices X86-64" ;;
arm64) machine=AArch64 ;;
armhf) machine=ARM ;;
*) echo "make-deb: arch must be amd64, arm64 or armhf" >&2; exit 2 ;;
esac

# The binary must be what it is said to be. Each answer is read whole before it is searched:
# under pipefail, a grep -q that stops at its match can leave the writer a SIGPIPE, and the
# pipeline then fails although the match was found.
header=$(LC_ALL=C readelf -h "$binary")
if ! grep -q "Machine: *$machine\$" <<<"$header"; then
    echo "make-deb: $binary is not an $arch binary ($(grep Machine <<<"$header"))" >&2
    exit 1
fi
if [ "$arch" = armhf ] && ! grep -q 'Flags:.*hard-float ABI' <<<"$header"; then
    echo "make-deb: $binary is not built for the hard-float ABI armhf is" >&2
    exit 1
fi
mapfile -t daemon_needed < <(LC_ALL=C readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
case " ${daemon_needed[*]} " in
*" $gpiod "*) ;;
*)
    echo "make-deb: $binary does not link $gpiod, the libgpiod of $suite: ${daemon_needed[*]}" >&2
    exit 1
    ;;
esac
# The programs ambience becomes come from beside the binary (scripts/layout.sh says which).
# shellcheck source=scripts/layout.sh
. "$ROOT/scripts/layout.sh"
programs=("$binary")
for name in $PROGRAMS; do programs+=("$(dirname "$binary")/ambience-$name"); done
for program in "${programs[@]}"; do
    [ -f "$program" ] || { echo "make-deb: no $program (build every product)" >&2; exit 1; }
done
mapfile -t needed < <(for program in "${programs[@]}"; do
    LC_ALL=C readelf -d "$program" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
done | sort -u)

# The packages that provide the binary's libraries, named by SONAME.
packages=()
for soname in "${needed[@]}"; do
    case $soname in
    libc.so.6 | libm.so.6 | libdl.so.2 | libpthread.so.0 | librt.so.1 | ld-linux-*.so.*) p=libc6 ;;
    libstdc++.so.6) p=libstdc++6 ;;
    libgcc_s.so.1) p=libgcc-s1 ;;
    libi2c.so.0) p=libi2c0 ;;
    libgpiod.so.2) p=libgpiod2 ;;
    libgpiod.so.3) p=libgpiod3 ;;
    libmicrohttpd.so.12) p=$microhttpd ;;
    libmosquitto.so.1) p=libmosquitto1 ;;
    *) echo "make-deb: no Debian package known for $soname (add it to scripts/make-deb.sh)" >&2; exit 1 ;;
    esac
    case " ${packages[*]} " in
    *" $p "*) ;;
    *) packages+=("$p") ;;
    esac
done

commit=$(git -C "$ROOT" rev-parse --short HEAD)
epoch=$(git -C "$ROOT" log -1 --format=%ct)
export SOURCE_DATE_EPOCH=$epoch
if [ -z "$version" ]; then
    version="0~git$(date -u -d "@$epoch" +%Y%m%d).$commit-1~$tag"
fi
maintainer=${DEBFULLNAME:-$(git -C "$ROOT" log -1 --format=%an)}" <${DEBEMAIL:-$(git -C "$ROOT" log -1 --format=%ae)}>"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage=$work/ambience

# The files: the one list, with the package's layout.
strip_binary() {
    # llvm-objcopy knows every architecture; as dh_strip does. The RUNPATH swiftc writes
    # ($ORIGIN, for a toolchain's shared runtime; the stdlib here is static) goes too.
    llvm-objcopy --strip-unneeded --remove-section=.comment --remove-section=.note "$1"
    chrpath -d "$1" >/dev/null
}
DEST=$stage BINDIR=/usr/bin SHAREDIR=/usr/share/ambience DOCDIR=/usr/share/doc/ambience \
    MANDIR=/usr/share/man UNITDIR=$libprefix/systemd/system UDEVDIR=$libprefix/udev/rules.d \
    SYSUSERSDIR=/usr/lib/sysusers.d CONFIG=conffile STRIP=strip_binary \
    place_files "$binary"

# Debian's own: man pages and changelog compressed, the copyright, the lintian overrides.
doc=$stage/usr/share/doc/ambience
gzip -9n "$stage"/usr/share/man/man1/ambience*.1 "$stage"/usr/share/man/man5/ambience.toml.5
install -m 0644 "$ROOT/packaging/copyright" "$doc/copyright"
cat >"$work/changelog.Debian" <<CHANGELOG
ambience ($version) $suite; urgency=medium

  * Built from git commit $commit by scripts/make-deb.sh.

 -- $maintainer  $(LC_ALL=C date -u -R -d "@$epoch")
CHANGELOG
gzip -9n <"$work/changelog.Debian" >"$doc/changelog.Debian.gz"
chmod 0644 "$doc/changelog.Debian.gz"
install -D -m 0644 "$ROOT/packaging/debian/lintian-overrides" "$stage/usr/share/lintian/overrides/ambience"

# Depends: dpkg-shlibdeps, against the target suite's and architecture's library packages.
libs=$ROOT/.build/deb/libs/$suite-$arch
"$ROOT/scripts/deb-libs.sh" "$suite" "$arch" "$libs" "${packages[@]}"
shlibdeps=()
for p in "${packages[@]}"; do
    shlibdeps+=("-S$libs/$p")
    while IFS= read -r dir; do shlibdeps+=("-l$dir"); done < <(
        find "$libs/$p" -name '*.so*' -type f -printf '%h\n' | sort -u)
done
mkdir -p "$work/shlibs/debian"
printf 'Source: ambience\n\nPackage: ambience\nArchitecture: any\n' >"$work/shlibs/debian/control"
executables=()
for program in "${programs[@]}"; do executables+=("-e$stage/usr/bin/$(basename "$program")"); done
depends=$(cd "$work/shlibs" && DEB_HOST_ARCH=$arch dpkg-shlibdeps -O "${executables[@]}" \
    "${shlibdeps[@]}" 2>"$work/shlibdeps.log" | sed -n 's/^shlibs:Depends=//p') ||
    { cat "$work/shlibdeps.log" >&2; exit 1; }
grep -v 'binaries to analyze should already be installed' "$work/shlibdeps.log" >&2 || true
[ -n "$depends" ] || { echo "make-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

# The control area.
mkdir -p "$stage/DEBIAN"
# The maintainer scripts act on every unit of the layout.
for script in postinst prerm postrm; do
    sed "s/@UNITS@/$UNITS/" "$ROOT/packaging/debian/$script" >"$stage/DEBIAN/$script"
    chmod 0755 "$stage/DEBIAN/$script"
done
echo /etc/ambience/ambience.toml >"$stage/DEBIAN/conffiles"
cat >"$stage/DEBIAN/control" <<CONTROL
Package: ambience
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: $depends
Section: misc
Priority: optional
Description: ambient light to kiosk theme daemon for single-board computers
 Ambience reads an ambient light sensor (BH1750, TSL2561, VEML7700, TSL2591,
 OPT3001 or TCS34725 on I2C through /dev/i2c-N, or any that a kernel driver
 has, through IIO), smooths the light level and picks one of three display
 states (invert for a dark room, regular, contrast for sunlight on the screen)
 with a latency-bounded hysteresis engine. The state lights GPIO indicator
 lines (libgpiod), is written as JSON lines to named pipes a kiosk reads, and
 is kept in a state file; a control pipe lets an operator override it.
 .
 The package carries the daemon and its tools (probe, check, override, status,
 watch, simulate, replay, record, plot), the programs that carry the state
 further, each a process of its own (kiosk: a Chromium whose pages follow the
 room; serve: the state over loopback HTTP for web pages; mqtt: a bridge to an
 MQTT broker and Home Assistant), hardened systemd units, udev rules for the
 i2c, gpio and video groups, board profiles for Raspberry Pi models and a
 configuration in /etc/ambience. Nothing is started until it is configured and
 enabled.
CONTROL
(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z |
    xargs -0 md5sum >DEBIAN/md5sums)
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/conffiles" "$stage/DEBIAN/md5sums"
find "$stage" -type d -exec chmod 0755 {} +
find "$stage" -newermt "@$epoch" -exec touch --no-dereference -d "@$epoch" {} +

mkdir -p "$out"
deb=$out/ambience_${version}_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "$deb"
