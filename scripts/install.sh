#!/bin/bash
# make install / make uninstall. Usage: scripts/install.sh install PREFIX BINARY
#                                       scripts/install.sh uninstall PREFIX
# Installs the binary and its companion programs (stripped), board profiles, README, the man
# pages, the udev rules, the systemd units and a default configuration (never overwriting one),
# and creates the i2c and gpio groups and the ambience user the units run as (in those and video). Uninstall removes what install put in place, except the
# configuration in /etc/ambience and the user, which may hold a site's own choices.
set -euo pipefail
ACTION=${1:?install or uninstall} PREFIX=${2:?prefix}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/layout.sh
. "$ROOT/scripts/layout.sh"
UNIT=/etc/systemd/system/ambience.service
RULES=/etc/udev/rules.d/99-ambience.rules
SHARE=$PREFIX/share/ambience
DOC=$PREFIX/share/doc/ambience

running_systemd() { [ -d /run/systemd/system ]; }
running_udev() { command -v udevadm >/dev/null && udevadm control --ping >/dev/null 2>&1; }

strip_quietly() { strip "$1" 2>/dev/null || true; }

install_files() {
    # The list itself: scripts/layout.sh, shared with the Debian packages (scripts/make-deb.sh).
    DEST="" BINDIR=$PREFIX/bin SHAREDIR=$SHARE DOCDIR=$DOC MANDIR=$PREFIX/share/man \
        UNITDIR=$(dirname "$UNIT") UDEVDIR=$(dirname "$RULES") SYSUSERSDIR="" CONFIG=keep STRIP=strip_quietly \
        place_files "$1"
}

create_accounts() {
    # The groups Raspberry Pi OS already has; plain Debian needs them made.
    for group in i2c gpio video; do getent group "$group" >/dev/null || groupadd --system "$group"; done
    if ! id ambience >/dev/null 2>&1; then
        useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin \
            --groups i2c,gpio,video --comment "Ambience light daemon" ambience
    fi
    # An older install's user gains the groups it lacks (video came with [backlight]).
    usermod --append --groups i2c,gpio,video ambience
}

case $ACTION in
install)
    install_files "${3:?binary}"
    create_accounts
    if running_udev; then
        udevadm control --reload-rules && udevadm trigger --subsystem-match=i2c-dev --subsystem-match=gpio
        # The backlight rule acts on add only (a change comes with every write of brightness).
        udevadm trigger --action=add --subsystem-match=backlight
    fi
    if running_systemd; then systemctl daemon-reload; fi
    cat <<EOM
installed ambience in $PREFIX/bin. Next:
  edit /etc/ambience/ambience.toml (board, sensor), then: ambience check
  systemctl enable --now ambience      # then: journalctl -u ambience -f
  kiosk users read /run/ambience/state: add them to the ambience group (usermod -aG ambience USER)
EOM
    ;;
uninstall)
    for unit in $UNITS; do
        if running_systemd; then systemctl disable --now "$unit" 2>/dev/null || true; fi
        rm -f "$(dirname "$UNIT")/$unit"
    done
    for name in $PROGRAMS; do rm -f "$PREFIX/bin/ambience-$name"; done
    for name in $COMPANIONS; do rm -f "$PREFIX/share/man/man1/ambience-$name.1"; done
    rm -f "$PREFIX/bin/ambience" "$RULES" "$PREFIX/share/man/man1/ambience.1" \
        "$PREFIX/share/man/man5/ambience.toml.5"
    rm -rf "$SHARE" "$DOC"
    if running_systemd; then systemctl daemon-reload; fi
    if running_udev; then udevadm control --reload-rules; fi
    echo "removed ambience; kept /etc/ambience and the ambience user (userdel ambience; rm -r /etc/ambience)"
    ;;
*) echo "usage: $0 install PREFIX BINARY | uninstall PREFIX" >&2; exit 2 ;;
esac
