#!/bin/sh
# The desktop's colour scheme follows the room, for browsers the kiosk does not start: run it with
#   ambience watch --pipe /run/ambience/desktop --exec /path/to/desktop-color-scheme.sh
# in the user's graphical session (the daemon's pipes.paths must list /run/ambience/desktop).
# It sets GNOME's org.gnome.desktop.interface color-scheme, which xdg-desktop-portal-gtk (or
# -gnome) reports to applications as the portal's color-scheme; Chromium ≥ 114 and Firefox then
# switch prefers-color-scheme live. Only light and dark: contrast is light here.
case "$AMBIENCE_STATE" in
invert) scheme=prefer-dark ;;
*) scheme=default ;;
esac
exec gsettings set org.gnome.desktop.interface color-scheme "$scheme"
