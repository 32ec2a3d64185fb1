#!/bin/bash
# Home Assistant from PyPI for make ha-test: a venv inside Debian trixie's root (the one
# scripts/debian-root.sh keeps outside the repository, shared with make test-swift6.0), at
# /opt/homeassistant-VERSION in the root, made once per version and reused (the stamp
# .ambience-complete in the venv says it is whole). Prints the venv's path inside the root.
#
#   Tests/ha/venv.sh [VERSION]     (as root; VERSION defaults to the pinned one)
#
# Home Assistant starts with --skip-pip in the test, so every requirement of what it sets up is
# installed here: the integrations it always loads and those the test configures (mqtt,
# recorder, automation…), read from the manifests of the installed package and pinned by its
# package_constraints.txt. lru-dict is built from source: gcc and python3-dev in the root.
set -euo pipefail
version=${1:-2026.2.3}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
roots=${AMBIENCE_ROOTS:-/var/cache/ambience/roots}
root=$roots/trixie-amd64
venv=/opt/homeassistant-$version
stamp=$root$venv/.ambience-complete

"$repo/scripts/debian-root.sh" trixie amd64 python3-venv python3-dev gcc >&2
if [ ! -f "$stamp" ]; then
    exec 9>"$roots/trixie-amd64-homeassistant.lock"
    flock 9
fi
if [ ! -f "$stamp" ]; then
    start=$SECONDS
    rm -rf "${root:?}$venv"
    # pip in the root trusts what the host trusts (a local CA included) and uses the host's
    # index, if one is set.
    cp -L /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/host-ca-certificates.crt"
    pip_env=(PIP_CERT=/etc/ssl/host-ca-certificates.crt PIP_DISABLE_PIP_VERSION_CHECK=1
        PIP_DEFAULT_TIMEOUT=120 PIP_PROGRESS_BAR=off)
    for name in PIP_INDEX_URL PIP_EXTRA_INDEX_URL; do
        [ -z "${!name:-}" ] || pip_env+=("$name=${!name}")
    done
    # shellcheck disable=SC2016 # a script for the root's sh, with its own arguments
    "$repo/scripts/in-root.sh" trixie amd64 env "${pip_env[@]}" sh -euc '
        venv=$1 version=$2
        python3 -m venv "$venv"
        "$venv/bin/pip" install -q "homeassistant==$version"
        constraints=$("$venv/bin/python" -c "import homeassistant, os; print(os.path.join(os.path.dirname(homeassistant.__file__), \"package_constraints.txt\"))")
        "$venv/bin/python" Tests/ha/requirements.py >"$venv/requirements.txt"
        "$venv/bin/pip" install -q -c "$constraints" -r "$venv/requirements.txt"
    ' sh "$venv" "$version" >&2
    echo "homeassistant==$version" >"$stamp"
    printf '%s trixie-amd64 Home Assistant %s venv: %d s\n' "$(date -u +%FT%TZ)" "$version" \
        $((SECONDS - start)) | tee -a "$roots/trixie-amd64.log" >&2
fi
echo "$venv"
