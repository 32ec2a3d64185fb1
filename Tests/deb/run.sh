#!/bin/bash
# The Debian package, on this host: built around the Embedded build for bookworm amd64 (make embedded), linted,
# installed with dpkg, upgraded with a changed configuration, removed and purged. This machine is
# a throwaway CI machine (Debian 12, no systemd or udev running, as in a container), so the
# maintainer scripts run for real; whatever the package and this test added (the ambience user,
# the groups this host did not have) is taken away again at the end.
# Usage: Tests/deb/run.sh PATH-TO-RELEASE-AMBIENCE (as root). Each step is a check with a timeout
# (CHECK_TIMEOUT seconds, default 120) and reports its duration.
set -uo pipefail
BIN=$(realpath "${1:?usage: $0 PATH-TO-AMBIENCE}")
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=$(mktemp -d)
CHECK_TIMEOUT=${CHECK_TIMEOUT:-120} HARNESS_LOGS=$WORK HARNESS_NAME=deb
passed=0 failed=0
# shellcheck source=Tests/lib/harness.sh
source "$ROOT/Tests/lib/harness.sh"

[ "$(id -u)" = 0 ] || { echo "deb: needs root (dpkg -i on this host)"; exit 1; }
if dpkg-query -W -f='${Status}' ambience 2>/dev/null | grep -q installed || [ -e /etc/ambience ] ||
    [ -e /var/lib/ambience ] || getent passwd ambience >/dev/null; then
    echo "deb: this host already has ambience (package, /etc/ambience, /var/lib/ambience or user);"
    echo "     the test installs and purges the package and would clobber it: not run"
    exit 1
fi
# What the host had before, so that the end can leave it as it was.
had_groups=$(for g in i2c gpio ambience; do getent group "$g" >/dev/null && echo "$g"; done)
cleanup() {
    dpkg --purge ambience >/dev/null 2>&1
    getent passwd ambience >/dev/null && userdel ambience
    for g in ambience gpio i2c; do
        if getent group "$g" >/dev/null && ! grep -qx "$g" <<<"$had_groups"; then groupdel "$g"; fi
    done
    rm -rf "$WORK"
}
trap cleanup EXIT

V1=1.0-1~deb12 V2=1.0-2~deb12
DEB1=$WORK/ambience_${V1}_amd64.deb DEB2=$WORK/ambience_${V2}_amd64.deb
CONF=/etc/ambience/ambience.toml
unit_dir=/lib/systemd/system

build_packages() {
    "$ROOT/scripts/make-deb.sh" --suite bookworm --arch amd64 --binary "$BIN" --version "$V1" --out "$WORK"
    "$ROOT/scripts/make-deb.sh" --suite bookworm --arch amd64 --binary "$BIN" --version "$V2" --out "$WORK"
    [ -f "$DEB1" ] || fail "no $DEB1"
    [ -f "$DEB2" ] || fail "no $DEB2"
}

wrong_libgpiod_generation_is_refused() {
    if "$ROOT/scripts/make-deb.sh" --suite trixie --arch amd64 --binary "$BIN" --out "$WORK/wrong" 2>"$WORK/err"; then
        fail "a trixie package was made around a bookworm binary"
    fi
    grep -q 'does not link libgpiod.so.3' "$WORK/err" || fail "trixie refused without the reason: $(cat "$WORK/err")"
    if "$ROOT/scripts/make-deb.sh" --suite bookworm --arch arm64 --binary "$BIN" --out "$WORK/wrong" 2>"$WORK/err"; then
        fail "an arm64 package was made around an amd64 binary"
    fi
    grep -q 'is not an arm64 binary' "$WORK/err" || fail "arm64 refused without the reason: $(cat "$WORK/err")"
}

depends_come_from_the_libraries() {
    local depends
    depends=$(dpkg-deb -f "$DEB1" Depends)
    echo "Depends: $depends"
    for p in 'libc6 (>= 2.' libgpiod2 libi2c0 libmicrohttpd12 libmosquitto1; do
        grep -qF "$p" <<<"$depends" || { echo "no $p"; return 1; }
    done
    # Built in Embedded Swift: no Swift runtime, so none of the C++ one it is written with.
    for p in libstdc++6 libgcc-s1; do
        if grep -qF "$p" <<<"$depends"; then echo "$p: the Swift runtime came along"; return 1; fi
    done
}

lintian_is_clean() {
    "$HERE/lintian.sh" "$DEB1" || fail "lintian is not clean"
}

accounts_without_systemd_sysusers() {
    # postinst's fallback where systemd-sysusers is missing (no systemd in a container): the
    # same user and groups from groupadd/useradd/usermod, twice without harm. Taken away again,
    # so that the installation below makes them with systemd-sysusers.
    mkdir -p "$WORK/fallback"
    for tool in getent groupadd useradd usermod; do ln -sf "$(command -v $tool)" "$WORK/fallback/"; done
    { sed -n '/^accounts() {/,/^}/p' "$ROOT/packaging/debian/postinst"; echo accounts; } >"$WORK/accounts.sh"
    PATH=$WORK/fallback /bin/sh -e "$WORK/accounts.sh"
    PATH=$WORK/fallback /bin/sh -e "$WORK/accounts.sh"
    user_and_groups_exist
    userdel ambience
    for g in ambience gpio i2c; do
        if getent group "$g" >/dev/null && ! grep -qx "$g" <<<"$had_groups"; then groupdel "$g"; fi
    done
    if getent passwd ambience; then fail "the user ambience is still there"; fi
}

install_on_the_host() {
    dpkg -i "$DEB1" 2>&1 | tee "$WORK/install"
    grep -q 'systemctl enable --now ambience' "$WORK/install"
    [ "$(dpkg-query -W -f='${Status} ${Version}' ambience)" = "install ok installed $V1" ]
}

files_are_in_place() {
    for f in /usr/bin/ambience $unit_dir/ambience.service /lib/udev/rules.d/99-ambience.rules \
        /usr/lib/sysusers.d/ambience.conf /usr/share/ambience/boards/raspberry-pi-4.toml \
        /usr/share/man/man1/ambience.1.gz /usr/share/man/man5/ambience.toml.5.gz \
        /usr/share/doc/ambience/copyright /usr/share/doc/ambience/changelog.Debian.gz $CONF; do
        [ -f "$f" ] || { echo "missing $f"; return 1; }
    done
    grep -qx 'ExecStart=/usr/bin/ambience run --config /etc/ambience/ambience.toml' $unit_dir/ambience.service
    # The README's pages and pictures are beside it, so that its links work on the Pi too; the
    # manual pages it links are installed as manual pages.
    local target
    grep -o '](docs/[^)#]*' /usr/share/doc/ambience/README.md | cut -c3- | sort -u >"$WORK/links"
    [ -s "$WORK/links" ] || fail "the installed README links no docs/ page"
    while read -r target; do
        case $target in
        docs/man/*)
            target=$(basename "$target")
            man -w "${target##*.}" "${target%.*}" >/dev/null || { echo "no manual page $target"; return 1; }
            ;;
        *) [ -f "/usr/share/doc/ambience/$target" ] || { echo "the README links $target, not installed"; return 1; } ;;
        esac
    done <"$WORK/links"
    dpkg-query -W -f='${Conffiles}\n' ambience | grep -q "^ $CONF "
    /usr/bin/ambience --help | grep -q '^commands:'
    # The installed binaries find every library they need; the companions run through ambience.
    for program in ambience ambience-run ambience-kiosk ambience-serve ambience-mqtt; do
        [ -x /usr/bin/$program ] || { echo "missing /usr/bin/$program"; return 1; }
        ldd /usr/bin/$program >"$WORK/ldd"
        if grep 'not found' "$WORK/ldd"; then fail "/usr/bin/$program misses libraries"; fi
    done
    for command in kiosk serve mqtt; do
        /usr/bin/ambience $command --help >"$WORK/help" 2>&1 || { cat "$WORK/help"; return 1; }
        grep -q "ambience $command" "$WORK/help"
        # Each companion has its own page, a file (not a link to ambience.1) named for it.
        page=/usr/share/man/man1/ambience-$command.1.gz
        if [ -L "$page" ] || [ ! -f "$page" ]; then echo "$page is not a page of its own"; return 1; fi
        [ "$(man -w ambience-$command)" = "$page" ]
        zcat "$page" | grep -qF "ambience\\-$command \\- "
    done
    grep -qx 'ExecStart=/usr/bin/ambience serve --config /etc/ambience/ambience.toml' $unit_dir/ambience-serve.service
    grep -q '^ExecStart=/usr/bin/ambience mqtt' $unit_dir/ambience-mqtt.service
    man -w ambience.toml | grep -q /usr/share/man/man5/ambience.toml.5.gz
}

# One restart policy in the three units: a configuration error (78) fails the unit at once, so
# `systemctl --failed` shows the typo; other failures are retried, and a start that keeps failing
# reaches the start limit with a margin (systemd counts starts in a window opened by the first).
units_fail_on_a_configuration_error_and_stop_retrying() {
    python3 - $unit_dir/ambience.service $unit_dir/ambience-serve.service $unit_dir/ambience-mqtt.service <<'PY'
import sys
policies = set()
for path in sys.argv[1:]:
    keys = {}
    for line in open(path):
        if "=" in line and not line.startswith("#"):
            key, value = line.strip().split("=", 1)
            keys[key] = value
    assert keys.get("RestartPreventExitStatus") == "78", (path, "RestartPreventExitStatus")
    assert keys.get("Restart") == "on-failure", (path, "Restart")
    interval, burst, delay = (float(keys[k]) for k in ("StartLimitIntervalSec", "StartLimitBurst", "RestartSec"))
    # The start the limit refuses comes after `burst` failed starts and delays: with starts that
    # fail at once it must fall well inside the window (twice over), and not before a minute.
    refused_at = burst * delay
    assert 2 * refused_at <= interval, (path, "the limit is reached only by the starts' own time")
    assert refused_at >= 60, (path, "a bus that comes within a minute must still be waited for")
    policies.add((keys["Restart"], interval, burst, delay))
assert len(policies) == 1, policies
PY
}

user_and_groups_exist() {
    id ambience
    id -nG ambience | tr ' ' '\n' | grep -qx i2c
    id -nG ambience | tr ' ' '\n' | grep -qx gpio
    id -nG ambience | tr ' ' '\n' | grep -qx video
    [ "$(getent passwd ambience | cut -d: -f7)" = /usr/sbin/nologin ]
    [ "$(getent passwd ambience | cut -d: -f3)" -lt 1000 ]
}

check_reads_the_conffile_and_the_packaged_board() {
    [ ! -e /usr/local/share/ambience/boards ] || { echo "make install's boards are in the way"; return 1; }
    env -u AMBIENCE_BOARDS /usr/bin/ambience check --config $CONF >"$WORK/check"
    # raspberry-pi-4's chip, from /usr/share/ambience/boards/raspberry-pi-4.toml.
    grep -q 'pinctrl-bcm2711' "$WORK/check"
    grep -q 'kind = "bh1750"' "$WORK/check"
    # A configuration without a sensor kind is refused with the key named (exit 78).
    sed 's/^kind = "bh1750".*//' $CONF >"$WORK/nokind.toml"
    local code=0
    /usr/bin/ambience check --config "$WORK/nokind.toml" 2>"$WORK/err" >/dev/null || code=$?
    [ $code = 78 ] || fail "no sensor kind: exited $code, wanted 78"
    grep -q 'sensor.kind' "$WORK/err" || fail "the error does not name sensor.kind: $(cat "$WORK/err")"
}

# What the package could have started runs /usr/bin/ambience or a companion beside it (shown as
# deleted once an upgrade replaced the file). A developer's own `ambience simulate` or a build's
# tests on this machine are not the package's doing.
package_started_nothing() {
    local process exe
    for process in /proc/[0-9]*; do
        exe=$(readlink "$process/exe" 2>/dev/null) || continue
        if [[ $exe =~ ^/usr/bin/ambience(-[a-z]+)?( \(deleted\))?$ ]]; then
            echo "the package's $exe runs as ${process#/proc/}"
            return 1
        fi
    done
}

# An ambience of the developer's own running meanwhile: a replay waiting on a FIFO.
start_a_bystander() {
    mkfifo "$WORK/bystander"
    "$BIN" replay "$WORK/bystander" >/dev/null 2>&1 &
    BYSTANDER=$!
    pgrep -x ambience | grep -qx $BYSTANDER
}
stop_the_bystander() {
    [ -n "${BYSTANDER:-}" ] && kill "$BYSTANDER" 2>/dev/null
    rm -f "$WORK/bystander"
}

the_daemon_was_not_started_nor_enabled() {
    start_a_bystander && package_started_nothing
    local code=$?
    stop_the_bystander
    [ $code = 0 ]
    [ ! -e /run/ambience ]
    [ ! -e /etc/systemd/system/multi-user.target.wants/ambience.service ]
    # The unit is recorded, so that purge can clean up after an administrator's enable.
    [ -e /var/lib/systemd/deb-systemd-helper-enabled/ambience.service.dsh-also ]
}

upgrade_keeps_the_changed_configuration() {
    sed -i 's/^interval = 0.1 /interval = 0.25/' $CONF
    echo '# changed by Tests/deb' >>$CONF
    grep -q '^interval = 0.25' $CONF
    DEBIAN_FRONTEND=noninteractive dpkg -i "$DEB2" </dev/null
    [ "$(dpkg-query -W -f='${Version}' ambience)" = "$V2" ]
    grep -q '^# changed by Tests/deb' $CONF
    /usr/bin/ambience check --config $CONF | grep -q 'interval = 0.25'
    for f in $CONF.dpkg-dist $CONF.dpkg-new; do
        [ ! -e "$f" ] || fail "the upgrade left $f"
    done
    package_started_nothing
}

remove_keeps_the_configuration() {
    mkdir -p /var/lib/ambience
    echo '{"override":"invert"}' >/var/lib/ambience/override
    dpkg -r ambience
    for f in /usr/bin/ambience $unit_dir/ambience.service /usr/share/ambience /usr/bin/ambience-serve \
        $unit_dir/ambience-mqtt.service /lib/udev/rules.d/99-ambience.rules /usr/lib/sysusers.d/ambience.conf; do
        [ ! -e "$f" ] || fail "removal left $f"
    done
    grep -q '^# changed by Tests/deb' $CONF
    [ -e /var/lib/ambience/override ]
    # Masked while only the configuration is left, as debhelper's scripts do.
    [ "$(readlink /etc/systemd/system/ambience.service)" = /dev/null ]
    [ "$(readlink /etc/systemd/system/ambience-serve.service)" = /dev/null ]
    [ "$(dpkg-query -W -f='${Status}' ambience)" = "deinstall ok config-files" ]
}

purge_removes_what_the_package_added() {
    dpkg --purge ambience
    for f in /etc/ambience /var/lib/ambience /etc/systemd/system/ambience.service \
        /etc/systemd/system/ambience-mqtt.service /var/lib/systemd/deb-systemd-helper-enabled/ambience.service.dsh-also; do
        [ ! -e "$f" ] || fail "purge left $f"
    done
    if dpkg-query -W ambience 2>&1; then fail "dpkg still knows the package after purge"; fi
    # The user and groups are kept, as Debian keeps system accounts (the end of this test
    # removes them from this host).
    id ambience
}

for test in build_packages wrong_libgpiod_generation_is_refused depends_come_from_the_libraries \
    lintian_is_clean accounts_without_systemd_sysusers install_on_the_host files_are_in_place \
    units_fail_on_a_configuration_error_and_stop_retrying user_and_groups_exist \
    check_reads_the_conffile_and_the_packaged_board the_daemon_was_not_started_nor_enabled \
    upgrade_keeps_the_changed_configuration remove_keeps_the_configuration \
    purge_removes_what_the_package_added; do
    check "$test" "$test"
done
summary
