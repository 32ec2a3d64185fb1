#!/bin/bash
# The MQTT bridge against a real broker: Debian's mosquitto, started here on loopback with a
# generated configuration (an anonymous listener, one with a password file, one with TLS and a CA
# made here), `ambience simulate` as the daemon (its lux typed into a FIFO), and `ambience mqtt`
# between them. Observed with mosquitto_sub and mosquitto_pub; every wait has a timeout.
# Usage: Tests/mqtt/run.sh [DIRECTORY-WITH-ambience-AND-ambience-mqtt]
set -uo pipefail
BIN_DIR=$(realpath "${1:-.build/debug}")
BIN=$BIN_DIR/ambience
BRIDGE=$BIN_DIR/ambience-mqtt
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
chmod 755 "$WORK"  # mosquitto, if it drops root, still reads its files
[ -z "${MQTT_KEEP:-}" ] || echo "mqtt: keeping $WORK"
trap '[ -n "${MQTT_KEEP:-}" ] || rm -rf "$WORK"' EXIT
passed=0 failed=0
for tool in mosquitto mosquitto_sub mosquitto_pub mosquitto_passwd openssl; do
    command -v $tool >/dev/null || { echo "mqtt: $tool is missing (make setup installs it)"; exit 1; }
done
[ -x "$BRIDGE" ] || { echo "mqtt: no $BRIDGE (swift build --product ambience-mqtt)"; exit 1; }

# A test waits out reconnections with backoff: longer than the command-line tests' default.
CHECK_TIMEOUT=${CHECK_TIMEOUT:-150} HARNESS_LOGS=$WORK HARNESS_NAME=mqtt
# shellcheck source=Tests/lib/harness.sh
source "$HERE/../lib/harness.sh"

free_port() {
    python3 "$HERE/../lib/harness.py" free-port
}

# One CA and server certificate for the TLS listener, and another CA the server's is not from.
make_certificates() {
    local dir=$WORK/tls
    mkdir -p "$dir"
    (
        cd "$dir" || exit 1
        for ca in ca wrong-ca; do
            openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=ambience test $ca" \
                -keyout $ca.key -out $ca.pem 2>/dev/null
        done
        openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout server.key -out server.csr 2>/dev/null
        printf 'subjectAltName=IP:127.0.0.1\n' >san.ext
        openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
            -extfile san.ext -out server.pem 2>/dev/null
        chmod 644 ./*.key
    )
    [ -s "$dir/server.pem" ]
}

# start_broker: a broker in $T (the test's directory) on ports $PORT (anonymous), $AUTH_PORT
# (user kiosk, password right), $TLS_PORT; pid in $T/broker.pid, log in $T/broker.log. The first
# start picks free ports; one can be taken by another program's outgoing connection before the
# broker binds it, so a first start that finds a port taken picks new ones. A restart keeps its
# ports: the bridge is configured with them.
start_broker() {
    local attempt
    if [ ! -e "$T/ports" ]; then
        mosquitto_passwd -b -c "$T/passwords" kiosk right 2>/dev/null
        chmod 644 "$T/passwords"
        for attempt in 1 2 3 4 5; do
            PORT=$(free_port) AUTH_PORT=$(free_port) TLS_PORT=$(free_port)
            echo "$PORT $AUTH_PORT $TLS_PORT" >"$T/ports"
            write_broker_conf
            launch_broker && return
            broker_says 'Address already in use' || break
            echo "a port of $PORT $AUTH_PORT $TLS_PORT was taken (attempt $attempt): new ones"
        done
        echo "the broker did not start:"; cat "$T/broker.log" "$T/broker.err"; return 1
    fi
    read -r PORT AUTH_PORT TLS_PORT <"$T/ports"
    launch_broker || { echo "the broker did not start again:"; cat "$T/broker.log" "$T/broker.err"; return 1; }
}

write_broker_conf() {
    cat >"$T/broker.conf" <<CONF
per_listener_settings true
persistence false
log_dest file $T/broker.log
log_type all
listener $PORT 127.0.0.1
allow_anonymous true
listener $AUTH_PORT 127.0.0.1
allow_anonymous false
password_file $T/passwords
listener $TLS_PORT 127.0.0.1
allow_anonymous true
cafile $WORK/tls/ca.pem
certfile $WORK/tls/server.pem
keyfile $WORK/tls/server.key
CONF
}

# launch_broker: starts mosquitto on $T/broker.conf and succeeds once it says it runs, which it
# says after binding every listener ("Opening ... socket" comes before the bind, and an error
# after it ends the broker). A restart appends to the log: only what follows is read.
launch_broker() {
    local pid
    # Started as root, mosquitto becomes the user mosquitto: its log must be writable for it.
    touch "$T/broker.log"
    chmod 666 "$T/broker.log"
    BROKER_LOG_FROM=$(($(wc -l <"$T/broker.log") + 1))
    mosquitto -c "$T/broker.conf" >>"$T/broker.err" 2>&1 &
    pid=$!
    echo $pid >"$T/broker.pid"
    wait_for 10 broker_settled $pid || return 1
    broker_says ' mosquitto version .* running$'
}

broker_says() { tail -n +"$BROKER_LOG_FROM" "$T/broker.log" | grep -q -- "$1"; }
broker_settled() { broker_says ' mosquitto version .* running$' || ! kill -0 "$1" 2>/dev/null; }

stop_broker() {
    local pid; pid=$(cat "$T/broker.pid")
    kill -TERM "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; true
}

# start_daemon: `ambience simulate` on $T/ambience.toml, lux typed into $T/lux (fd 7 holds it open).
start_daemon() {
    [ -p "$T/lux" ] || mkfifo "$T/lux"
    exec 7<>"$T/lux"
    "$BIN" simulate --config "$T/ambience.toml" --profile stdin <"$T/lux" >>"$T/daemon.log" 2>&1 &
    daemon=$!
    wait_for 10 test -p "$T/run/mqtt"
}

lux() { echo "$1" >&7; }

# write_config [EXTRA-MQTT-LINES...]: the scratch configuration, broker on $PORT unless given;
# $EXTRA_TABLES, when set, after the [mqtt] table.
write_config() {
    mkdir -p "$T/run" "$T/lib"
    {
        cat <<CONF
state_file = "$T/run/state.json"
control_pipe = "$T/run/control"
state_directory = "$T/lib"
[sensor]
kind = "bh1750"
[timing]
dwell = 0.5
latency = 2
fault_after = 1
[pipes]
paths = ["$T/run/state", "$T/run/mqtt"]
[mqtt]
device_id = "kiosk1"
pipe = "$T/run/mqtt"
keepalive = 5
CONF
        local line has_broker=no
        for line in "$@"; do echo "$line"; case $line in broker*) has_broker=yes ;; esac; done
        [ $has_broker = yes ] || echo "broker = \"mqtt://127.0.0.1:$PORT\""
        [ -z "${EXTRA_TABLES:-}" ] || printf '%s\n' "$EXTRA_TABLES"
    } >"$T/ambience.toml"
}

start_bridge() {
    "$BRIDGE" --config "$T/ambience.toml" >>"$T/bridge.log" 2>&1 &
    bridge=$!
}

# watch_topics: everything under ambience/# and homeassistant/#, as "RETAIN TOPIC PAYLOAD" lines
# in $T/seen, for the rest of the test (its process group ends with it).
watch_topics() {
    mosquitto_sub -p "$PORT" -F '%r %t %p' -t 'ambience/#' -t 'homeassistant/#' >>"$T/seen" 2>&1 &
    # Subscribed once a probe comes back.
    wait_for 10 probe_seen
}

probe_seen() {
    mosquitto_pub -p "$PORT" -t ambience/probe -m probe
    sleep 0.2
    grep -q '^0 ambience/probe probe' "$T/seen"
}

seen() { grep -qE -- "$1" "$T/seen"; }
logged() { grep -qE -- "$1" "$T/bridge.log"; }

# The latest retained payload of TOPIC on the anonymous listener (empty when there is none).
retained() {
    mosquitto_sub -p "$PORT" -t "$1" -C 1 -W 2 -F '%r %p' 2>/dev/null | sed -n 's/^1 //p'
}

has_retained() { [ -n "$(retained "$1")" ]; }
retained_is() { [ "$(retained "$1")" = "$2" ]; }

state_is() { retained ambience/kiosk1/state | grep -q "\"state\":\"$1\""; }

# Every test: its directory, a broker, a configuration, the daemon.
setup() {
    T=$WORK/$1
    mkdir -p "$T"
    start_broker
    shift
    write_config "$@"
    : >"$T/seen"
    start_daemon
    lux 300
}

explain() { echo "--- bridge log"; cat "$T/bridge.log"; echo "--- seen"; tail -n 30 "$T/seen"; return 1; }

# --- the tests

discovery_payloads_match_home_assistants_schema() {
    setup discovery 'name = "Lobby"'
    watch_topics
    start_bridge
    wait_for 20 seen '^. homeassistant/device/ambience_kiosk1/config \{' || explain
    retained homeassistant/device/ambience_kiosk1/config >"$T/device.json"
    python3 "$HERE/check_discovery.py" device "$T/device.json" kiosk1 Lobby
    retained homeassistant/device/ambience_all/config >"$T/group.json"
    python3 "$HERE/check_discovery.py" group "$T/group.json" kiosk1 Lobby
    # Nothing was published at the other style's topics, where nothing was retained (an empty
    # document there makes Home Assistant warn of a conflicting discovery message).
    ! seen '^. homeassistant/(sensor|select|binary_sensor|number|button)/' || explain
    # Per-entity discovery for older Home Assistant: the device document goes, four come.
    kill -TERM $bridge; wait $bridge
    write_config 'name = "Lobby"' 'discovery_per_entity = true'
    start_bridge
    for entity in sensor/ambience_kiosk1/lux sensor/ambience_kiosk1/theme select/ambience_kiosk1/override \
        binary_sensor/ambience_kiosk1/fault; do
        wait_for 20 has_retained "homeassistant/$entity/config" || explain
        retained "homeassistant/$entity/config" >"$T/entity.json"
        python3 "$HERE/check_discovery.py" "${entity%%/*}" "$T/entity.json" kiosk1 Lobby
    done
    [ -z "$(retained homeassistant/device/ambience_kiosk1/config)" ]
    logged 'homeassistant/device/ambience_kiosk1/config: removing the retained discovery document' || explain
    # Back to device-based: the four go, the device document comes.
    kill -TERM $bridge; wait $bridge
    write_config 'name = "Lobby"'
    start_bridge
    wait_for 20 has_retained homeassistant/device/ambience_kiosk1/config || explain
    for entity in sensor/ambience_kiosk1/lux select/ambience_kiosk1/override; do
        [ -z "$(retained "homeassistant/$entity/config")" ] || explain
    done
    kill -TERM $bridge; wait $bridge
    write_config 'name = "Lobby"' 'discovery_per_entity = true'
    start_bridge
    wait_for 20 has_retained homeassistant/sensor/ambience_kiosk1/lux/config || explain
    # Discovery off: every config emptied, so Home Assistant removes the entities.
    kill -TERM $bridge; wait $bridge
    write_config 'discovery = false'
    : >"$T/seen"
    start_bridge
    wait_for 20 seen '^. ambience/kiosk1/status online' || explain
    wait_for 10 seen '^0 homeassistant/select/ambience_kiosk1/override/config $' || explain
    [ -z "$(retained homeassistant/select/ambience_kiosk1/override/config)" ]
    [ -z "$(retained homeassistant/sensor/ambience_kiosk1/lux/config)" ]
}

state_is_published_on_every_change() {
    setup state
    watch_topics
    start_bridge
    wait_for 20 seen '^. ambience/kiosk1/status online$' || explain
    wait_for 20 seen 'ambience/kiosk1/state \{"state":"regular","lux":[0-9.]+,"filtered":[0-9.]+,"override":null,"override_remaining_s":null,"fault":false,"brightness":null\}$' || explain
    lux 3
    wait_for 20 seen 'ambience/kiosk1/state \{"state":"invert",' || explain
    lux 30000
    wait_for 20 seen 'ambience/kiosk1/state \{"state":"contrast",' || explain
    # An unplugged sensor: the fault is published, then its end.
    lux nan
    wait_for 20 seen 'ambience/kiosk1/state \{"state":"contrast",.*"fault":true,"brightness":null\}$' || explain
    lux 30000
    wait_for 20 seen 'ambience/kiosk1/state \{"state":"contrast",.*"fault":false,"brightness":null\}$' || explain
    [ "$(grep -c '"fault":true' "$T/seen")" -ge 1 ]
}

overrides_from_the_device_and_group_topics_reach_the_daemon() {
    setup overrides
    watch_topics
    start_bridge
    wait_for 20 state_is regular || explain
    mosquitto_pub -p "$PORT" -t ambience/kiosk1/override/set -m invert
    wait_for 20 seen '"state":"invert",.*"override":"invert","override_remaining_s":null' || explain
    # The daemon itself, not only the bridge: its state file may be written after its pipe's line.
    wait_for 10 grep -q '"state":"invert"' "$T/run/state.json" || { cat "$T/run/state.json"; explain; }
    mosquitto_pub -p "$PORT" -t ambience/all/override/set -m "contrast for 10m"
    wait_for 20 seen '"state":"contrast",.*"override":"contrast","override_remaining_s":(600|59[0-9])' || explain
    wait_for 10 grep -q '"override":"contrast"' "$T/run/state.json" || { cat "$T/run/state.json"; explain; }
    mosquitto_pub -p "$PORT" -t ambience/all/override/set -m auto
    wait_for 20 seen '"state":"regular",.*"override":null' || explain
    # Home Assistant's select sends the option itself; a state the kiosk already shows is held too.
    mosquitto_pub -p "$PORT" -t ambience/kiosk1/override/set -m regular
    wait_for 20 seen '"state":"regular",.*"override":"regular"' || explain
    # Malformed: logged, ignored, the bridge carries on.
    mosquitto_pub -p "$PORT" -t ambience/kiosk1/override/set -m "dark please"
    wait_for 10 logged "ignored 'dark please'" || explain
    mosquitto_pub -p "$PORT" -t ambience/kiosk1/override/set -m auto
    wait_for 20 seen '"state":"regular",.*"override":null.*' || explain
    kill -0 $bridge || { echo "the bridge ended"; explain; }
}

# A backlight class device as sysfs has it, in the test's directory: `device` names it by path.
make_backlight() {
    mkdir -p "$1"
    echo 255 >"$1/max_brightness"
    echo 128 >"$1/brightness"
}

brightness_of() { grep -qE "\"brightness\":$1\}" "$T/run/state.json"; }

brightness_from_home_assistant_reaches_the_daemon() {
    local backlight=$WORK/brightness/backlight
    make_backlight "$backlight"
    EXTRA_TABLES=$(printf '[backlight]\ndevice = "%s"' "$backlight") setup brightness
    watch_topics
    start_bridge
    wait_for 20 seen 'ambience/kiosk1/state \{"state":"regular",.*"brightness":[0-9]+\}$' || explain
    # A kiosk with a backlight: its number and button are announced.
    wait_for 20 seen '^. homeassistant/device/ambience_kiosk1/config \{.*"brightness_auto"' || explain
    retained homeassistant/device/ambience_kiosk1/config >"$T/device.json"
    python3 "$HERE/check_discovery.py" device "$T/device.json" kiosk1 "Ambience kiosk1" backlight
    retained homeassistant/device/ambience_all/config >"$T/group.json"
    python3 "$HERE/check_discovery.py" group "$T/group.json" kiosk1 "Ambience kiosk1"
    # Home Assistant's number sends the percent; the daemon holds it, persists it, says it.
    mosquitto_pub -p "$PORT" -t ambience/kiosk1/brightness/set -m 40
    wait_for 20 seen 'ambience/kiosk1/state \{.*"brightness":40\}$' || explain
    wait_for 10 brightness_of 40 || explain  # the daemon itself, not only the bridge
    grep -qx 40 "$T/lib/brightness-override"
    mosquitto_pub -p "$PORT" -t ambience/all/brightness/set -m "20 for 10m"
    wait_for 20 seen 'ambience/kiosk1/state \{.*"brightness":20\}$' || explain
    grep -q '^20 until [0-9]' "$T/lib/brightness-override"
    # The button's `auto`: the curve again, nothing persisted.
    mosquitto_pub -p "$PORT" -t ambience/kiosk1/brightness/set -m auto
    wait_for 20 test ! -e "$T/lib/brightness-override" || explain
    wait_for 20 seen 'ambience/kiosk1/state \{.*"brightness":62\}$' || explain  # the curve's at 300 lx
    mosquitto_pub -p "$PORT" -t ambience/kiosk1/brightness/set -m "bright"
    wait_for 10 logged "ambience/kiosk1/brightness/set: ignored 'bright': .*whole percent" || explain
    # Per entity: the number and the button have documents of their own, the device's goes.
    kill -TERM $bridge; wait $bridge
    # A retained command, found on subscribing: ignored, as the theme's are.
    mosquitto_pub -p "$PORT" -r -t ambience/all/brightness/set -m 5
    write_config 'discovery_per_entity = true'
    start_bridge
    wait_for 10 logged "ignored the retained command '5'" || explain
    mosquitto_pub -p "$PORT" -r -t ambience/all/brightness/set -n
    for entity in number/ambience_kiosk1/brightness button/ambience_kiosk1/brightness_auto; do
        wait_for 20 has_retained "homeassistant/$entity/config" || explain
        retained "homeassistant/$entity/config" >"$T/entity.json"
        python3 "$HERE/check_discovery.py" "${entity%%/*}" "$T/entity.json" kiosk1 "Ambience kiosk1"
    done
    [ -z "$(retained homeassistant/device/ambience_kiosk1/config)" ] || explain
    # And back: theirs emptied, as the other entities'.
    kill -TERM $bridge; wait $bridge
    write_config
    start_bridge
    wait_for 20 has_retained homeassistant/device/ambience_kiosk1/config || explain
    [ -z "$(retained homeassistant/number/ambience_kiosk1/brightness/config)" ] || explain
    [ -z "$(retained homeassistant/button/ambience_kiosk1/brightness_auto/config)" ] || explain
    ! brightness_of 5 || explain
    kill -0 $bridge || { echo "the bridge ended"; explain; }
}

retained_commands_are_ignored() {
    setup retained
    mosquitto_pub -p "$PORT" -r -t ambience/all/override/set -m invert
    mosquitto_pub -p "$PORT" -r -t ambience/kiosk1/override/set -m contrast
    watch_topics
    start_bridge
    wait_for 20 logged "ignored the retained command 'invert'" || explain
    wait_for 20 logged "ignored the retained command 'contrast'" || explain
    wait_for 20 state_is regular || explain
    if grep -q '"state":"invert"\|"state":"contrast"' "$T/run/state.json"; then
        fail "a retained command changed the state: $(cat "$T/run/state.json")"
    fi
    mosquitto_pub -p "$PORT" -r -t ambience/all/override/set -n
    mosquitto_pub -p "$PORT" -r -t ambience/kiosk1/override/set -n
}

broker_restarted_reconnects_and_announces_again() {
    setup restart
    start_bridge
    wait_for 20 has_retained homeassistant/device/ambience_kiosk1/config || explain
    stop_broker
    wait_for 20 logged 'broker 127.0.0.1:[0-9]+: .*retrying' || explain
    lux 3  # a change while offline: not queued, the fresh state after reconnecting says it
    sleep 1
    start_broker  # no persistence: it comes back empty
    wait_for 90 logged 'connected again' || explain
    wait_for 20 has_retained homeassistant/device/ambience_kiosk1/config || explain
    wait_for 20 retained_is ambience/kiosk1/status online || explain
    wait_for 20 state_is invert || explain
}

broker_down_at_start_is_waited_for() {
    setup down-at-start
    stop_broker
    start_bridge
    wait_for 20 logged 'Connection refused; retrying' || explain
    lux 3  # the kiosk goes on without the broker
    wait_for 20 grep -q '"state":"invert"' "$T/run/state.json"
    start_broker
    wait_for 90 logged 'connected$' || explain
    wait_for 20 state_is invert || explain
}

frozen_broker_is_noticed_by_the_keepalive() {
    setup frozen
    start_bridge
    wait_for 20 logged 'connected$' || explain
    local pid; pid=$(cat "$T/broker.pid")
    kill -STOP "$pid"
    # keepalive = 5: a PINGREQ after 5 s of silence, its answer missing 5 s later.
    wait_for 40 logged 'keepalive' || { kill -CONT "$pid"; explain; }
    kill -CONT "$pid"
    wait_for 90 logged 'connected again' || explain
    wait_for 20 retained_is ambience/kiosk1/status online || explain
}

refusals_at_least() { [ "$(grep -c 'disconnected, not authorised' "$T/broker.log")" -ge "$1" ]; }

wrong_password_is_a_clear_error_and_retried() {
    setup password
    read -r PORT AUTH_PORT TLS_PORT <"$T/ports"
    write_config "broker = \"mqtt://127.0.0.1:$AUTH_PORT\"" 'username = "kiosk"' 'password = "wrong"'
    start_bridge
    wait_for 20 logged 'refused the connection: .*not authori[sz]ed' || explain
    # Retried: the broker sees more than one attempt, and the refusal is logged once.
    wait_for 30 refusals_at_least 2 || { cat "$T/broker.log"; explain; }
    [ "$(grep -c 'refused the connection' "$T/bridge.log")" = 1 ]
    kill -TERM $bridge; wait $bridge
    # The right one, from a password file.
    printf 'right\n' >"$T/password"
    write_config "broker = \"mqtt://127.0.0.1:$AUTH_PORT\"" 'username = "kiosk"' "password_file = \"$T/password\""
    : >"$T/bridge.log"
    start_bridge
    wait_for 20 logged 'connected$' || explain
    wait_for 20 retained_is ambience/kiosk1/status online || explain
}

tls_with_the_right_ca_connects_and_a_wrong_ca_is_refused() {
    setup tls
    read -r PORT AUTH_PORT TLS_PORT <"$T/ports"
    write_config "broker = \"mqtts://127.0.0.1:$TLS_PORT\"" "ca_file = \"$WORK/tls/ca.pem\""
    start_bridge
    wait_for 20 logged 'connected$' || explain
    wait_for 20 retained_is ambience/kiosk1/status online || explain
    kill -TERM $bridge; wait $bridge
    write_config "broker = \"mqtts://127.0.0.1:$TLS_PORT\"" "ca_file = \"$WORK/tls/wrong-ca.pem\""
    : >"$T/bridge.log"
    start_bridge
    wait_for 20 logged 'certificate verify failed' || explain
    if logged 'connected'; then echo "connected through a wrong CA"; explain; fi
    kill -0 $bridge  # still there, retrying
}

daemon_restarted_under_the_bridge() {
    setup daemon-restart
    watch_topics
    start_bridge
    wait_for 20 state_is regular || explain
    kill -TERM $daemon; wait $daemon
    exec 7>&-
    rm -rf "$T/run"  # as systemd's RuntimeDirectory= does: a new FIFO at the same path
    mkdir -p "$T/run"
    start_daemon
    lux 3
    wait_for 30 seen '"state":"invert"' || explain
    kill -0 $bridge || { echo "the bridge ended"; explain; }
}

clean_shutdown_says_offline_and_a_crash_leaves_the_will() {
    setup offline
    start_bridge
    wait_for 20 retained_is ambience/kiosk1/status online || explain
    kill -TERM $bridge
    local code=0; wait $bridge || code=$?
    [ $code = 0 ] || { echo "exit $code"; explain; }
    [ "$(retained ambience/kiosk1/status)" = offline ] || explain
    start_bridge
    wait_for 20 retained_is ambience/kiosk1/status online || explain
    kill -KILL $bridge; wait $bridge 2>/dev/null || true
    wait_for 20 retained_is ambience/kiosk1/status offline || explain
}

configuration_errors_name_file_line_and_key() {
    T=$WORK/config; mkdir -p "$T"
    printf '[mqtt]\nbroker = "http://x"\nkeepalive = 1\n' >"$T/bad.toml"
    local code=0
    "$BRIDGE" --config "$T/bad.toml" 2>"$T/err" || code=$?
    [ $code = 78 ] || { echo "exit $code"; cat "$T/err"; return 1; }
    grep -q "$T/bad.toml:2: mqtt.broker: \"http://x\" must start with mqtt:// or mqtts://" "$T/err"
    grep -q "$T/bad.toml:3: mqtt.keepalive: must be seconds from 5 to 3600, not 1" "$T/err"
    code=0; "$BRIDGE" --frobnicate 2>/dev/null || code=$?
    [ $code = 2 ]
    # The daemon takes a file with an [mqtt] table.
    printf '[sensor]\nkind = "bh1750"\n[mqtt]\nbroker = "mqtt://localhost"\n' >"$T/ok.toml"
    "$BIN" check --config "$T/ok.toml" >/dev/null
    "$BIN" mqtt --help | grep -q 'override/set'
}

make_certificates || { echo "mqtt: cannot make the test certificates"; exit 1; }
for test in ${MQTT_TESTS:-configuration_errors_name_file_line_and_key discovery_payloads_match_home_assistants_schema \
    state_is_published_on_every_change overrides_from_the_device_and_group_topics_reach_the_daemon \
    brightness_from_home_assistant_reaches_the_daemon \
    retained_commands_are_ignored broker_down_at_start_is_waited_for broker_restarted_reconnects_and_announces_again \
    frozen_broker_is_noticed_by_the_keepalive wrong_password_is_a_clear_error_and_retried \
    tls_with_the_right_ca_connects_and_a_wrong_ca_is_refused daemon_restarted_under_the_bridge \
    clean_shutdown_says_offline_and_a_crash_leaves_the_will}; do
    check "$test" "$test"
done
summary
