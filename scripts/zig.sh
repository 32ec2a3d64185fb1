#!/bin/bash
# zig's C compiler, for linking the cross builds (scripts/embedded-build.sh): PyPI's ziglang, pinned,
# in a venv outside the repository (${AMBIENCE_ROOTS:-/var/cache/ambience/roots}/ziglang), made on
# first use (python3-venv installed when missing). Runs zig with the arguments given:
#   scripts/zig.sh cc -target arm-linux-gnueabihf.2.36 ...
set -euo pipefail
ZIGLANG_VERSION=0.17.1
venv=${AMBIENCE_ROOTS:-/var/cache/ambience/roots}/ziglang
if [ "$(cat "$venv/.ambience-version" 2>/dev/null)" != "$ZIGLANG_VERSION" ]; then
    mkdir -p "$(dirname "$venv")"
    exec 9>"$venv.lock"
    flock 9
    if [ "$(cat "$venv/.ambience-version" 2>/dev/null)" != "$ZIGLANG_VERSION" ]; then
        if ! /usr/bin/python3 -c 'import venv, ensurepip' 2>/dev/null; then
            apt-get install -y -q --no-install-recommends python3-venv >/dev/null 2>&1 ||
                { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends python3-venv >/dev/null; }
        fi
        rm -rf "$venv"
        /usr/bin/python3 -m venv "$venv"
        "$venv/bin/pip" install -q "ziglang==$ZIGLANG_VERSION" >&2
        echo "$ZIGLANG_VERSION" >"$venv/.ambience-version"
    fi
    exec 9>&-
fi
exec "$venv/bin/python3" -m ziglang "$@"
