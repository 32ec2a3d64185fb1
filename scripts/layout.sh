# shellcheck shell=bash
# One list of what ambience installs where: `make install` (scripts/install.sh) and the Debian
# packages (scripts/make-deb.sh) both place the files through place_files. Sourced, not run.
#
# BINARY is the ambience executable; the programs it becomes (PROGRAMS: ambience-run, the daemon
# alone, and the COMPANIONS ambience-kiosk, ambience-serve, ambience-mqtt, each with a man page of
# its own) are taken from the same directory, every one required, and UNITS lists the systemd
# units (the daemon's and those of the companions that are services).
#
# The caller sets the layout, every path absolute, then calls place_files BINARY:
#   DEST        the root the paths are made under: "" for the live system, a staging directory
#               for a package
#   BINDIR      the binaries                    (/usr/local/bin, /usr/bin)
#   SHAREDIR    boards/ and the shipped configuration (…/share/ambience)
#   DOCDIR      README.md and the docs/ pages it links to, with their pictures and the cage kiosk
#               unit of examples/ (…/share/doc/ambience)
#   MANDIR      man1/ambience.1 and each companion's own man1/ambience-NAME.1, man5/ambience.toml.5
#               (…/share/man)
#   UNITDIR     the UNITS, with @BINDIR@ and @DOCDIR@ filled in
#   UDEVDIR     99-ambience.rules
#   SYSUSERSDIR ambience.conf (the user and groups for systemd-sysusers); empty: not installed
#   CONFIG      what to do with /etc/ambience/ambience.toml: "keep" (install it only when
#               missing, the shipped copy in SHAREDIR: make install) or "conffile" (always, as
#               dpkg's conffile; dpkg keeps a changed one)
#   STRIP       the command that strips the binary in place ("strip"; llvm-objcopy for packages)
LAYOUT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck disable=SC2034 # read by the scripts that source this one
COMPANIONS="kiosk serve mqtt"
PROGRAMS="run $COMPANIONS"
UNITS="ambience.service ambience-serve.service ambience-mqtt.service"

place_files() {
    local binary=$1 root=$LAYOUT_ROOT name unit
    local programs=("$binary")
    for name in $PROGRAMS; do
        [ -f "$(dirname "$binary")/ambience-$name" ] || {
            echo "layout: no ambience-$name beside $binary (build every product)" >&2
            return 1
        }
        programs+=("$(dirname "$binary")/ambience-$name")
    done
    install -d "$DEST$BINDIR"
    for name in "${programs[@]}"; do
        install -m 0755 "$name" "$DEST$BINDIR/$(basename "$name")"
        ${STRIP:-strip} "$DEST$BINDIR/$(basename "$name")"
    done
    install -d "$DEST$SHAREDIR/boards" "$DEST$DOCDIR" "$DEST$MANDIR/man1" "$DEST$MANDIR/man5"
    install -m 0644 "$root"/boards/*.toml "$DEST$SHAREDIR/boards/"
    install -m 0644 "$root/README.md" "$DEST$DOCDIR/README.md"
    install -d "$DEST$DOCDIR/docs/images"
    install -m 0644 "$root"/docs/*.md "$DEST$DOCDIR/docs/"
    install -m 0644 "$root"/docs/images/*.png "$DEST$DOCDIR/docs/images/"
    # docs/kiosk.md links it as ../examples/: the unit a cage kiosk copies.
    install -D -m 0644 "$root/examples/ambience-kiosk-cage.service" "$DEST$DOCDIR/examples/ambience-kiosk-cage.service"
    install -m 0644 "$root/docs/man/ambience.1" "$DEST$MANDIR/man1/ambience.1"
    for name in $COMPANIONS; do
        install -m 0644 "$root/docs/man/ambience-$name.1" "$DEST$MANDIR/man1/ambience-$name.1"
    done
    install -m 0644 "$root/docs/man/ambience.toml.5" "$DEST$MANDIR/man5/ambience.toml.5"
    install -D -m 0644 "$root/udev/99-ambience.rules" "$DEST$UDEVDIR/99-ambience.rules"
    install -d "$DEST$UNITDIR"
    for unit in $UNITS; do
        sed -e "s#@BINDIR@#$BINDIR#g" -e "s#@DOCDIR@#$DOCDIR#g" "$root/systemd/$unit" >"$DEST$UNITDIR/$unit"
        chmod 0644 "$DEST$UNITDIR/$unit"
    done
    if [ -n "${SYSUSERSDIR:-}" ]; then
        install -D -m 0644 "$root/packaging/sysusers.conf" "$DEST$SYSUSERSDIR/ambience.conf"
    fi
    case ${CONFIG:?keep or conffile} in
    keep)
        if [ -e "$DEST/etc/ambience/ambience.toml" ]; then
            echo "kept the existing /etc/ambience/ambience.toml (the shipped one is $SHAREDIR/ambience.toml)"
        else
            install -D -m 0644 "$root/config/ambience.toml" "$DEST/etc/ambience/ambience.toml"
        fi
        install -m 0644 "$root/config/ambience.toml" "$DEST$SHAREDIR/ambience.toml"
        ;;
    conffile) install -D -m 0644 "$root/config/ambience.toml" "$DEST/etc/ambience/ambience.toml" ;;
    esac
}
