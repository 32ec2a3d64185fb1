#!/usr/bin/env python3
"""A real Home Assistant against a real broker and a simulated kiosk (make ha-test).

Usage: Tests/ha/run.py DIRECTORY-WITH-ambience-AND-ambience-mqtt VENV

VENV is Home Assistant's venv inside Debian trixie's root (Tests/ha/venv.sh prints it). Started
here, on loopback, on ports the kernel picks, and stopped at the end: Debian's mosquitto (the
host's binary, a scratch configuration), Home Assistant in the root (scripts/in-root.sh; the
loopback network is the host's) with a scratch configuration directory holding the MQTT
integration's config entry, the recorder and one automation, `ambience simulate` (the light
typed into a FIFO) and `ambience-mqtt` between the daemon and the broker.

Every check reads Home Assistant's own state: its registries (.storage/core.device_registry,
core.entity_registry), its recorder's SQLite database and its log; the daemon's side is read on
its state pipe. Each step looks only at what happened after it acted. Every wait has a deadline
and fails rather than hangs; a failed step ends the run (the later ones build on it), and all
that was started is stopped either way.
"""
from contextlib import closing
from datetime import datetime
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import Checks, Failure, free_port, wait_for  # noqa: E402 - found through the path set above

BIN = os.path.realpath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug")
VENV = sys.argv[2] if len(sys.argv) > 2 else "/opt/homeassistant-2026.2.3"
AMBIENCE = os.path.join(BIN, "ambience")
BRIDGE = os.path.join(BIN, "ambience-mqtt")
REPO = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
IN_ROOT = os.path.join(REPO, "scripts", "in-root.sh")
INSIDE = "/ha-test"  # the scratch directory, as Home Assistant sees it in the root

HA_START = int(os.environ.get("HA_START_TIMEOUT", "300"))  # two busy cores: its start is slow
WAIT = 60  # anything else; the registries are saved up to 10 s after a change
DEVICE = "ambience_lobby"
GROUP = "ambience_all"
COMPONENTS = {  # unique id: (domain, device class, unit)
    f"{DEVICE}_lux": ("sensor", "illuminance", "lx"),
    f"{DEVICE}_theme": ("sensor", "enum", None),
    f"{DEVICE}_override": ("select", None, None),
    f"{DEVICE}_fault": ("binary_sensor", "problem", None),
    # The kiosk has a backlight: its brightness, and the way back to the light sensor.
    f"{DEVICE}_brightness": ("number", None, "%"),
    f"{DEVICE}_brightness_auto": ("button", None, None),
    # It has a [display]: the display's switch, and the way back to the room.
    f"{DEVICE}_display": ("switch", None, None),
    f"{DEVICE}_display_auto": ("button", None, None),
    # It has a [whitepoint]: the room's colour temperature, the display's white, and the way back.
    f"{DEVICE}_cct": ("sensor", None, "K"),
    f"{DEVICE}_whitepoint": ("number", None, "K"),
    f"{DEVICE}_whitepoint_auto": ("button", None, None),
}
# A button has no state of its own: unknown until pressed, then the time it was. The kiosk's
# sensor (a BH1750) has no colour, so the room's colour temperature is unknown, and so is the
# display's white until something holds it.
STATELESS = {f"{DEVICE}_brightness_auto", f"{DEVICE}_display_auto", f"{DEVICE}_whitepoint_auto",
             f"{DEVICE}_cct", f"{DEVICE}_whitepoint"}
# The brightness the curve gives at 300 lx, the light the kiosk starts in.
CURVE_AT_300_LX = 62
# A Home Assistant log line: "2026-01-01 00:00:00.000 WARNING (MainThread) [logger.name] text".
LOG_LINE = re.compile(r"^\S+ \S+ (DEBUG|INFO|WARNING|ERROR|CRITICAL) \(\w+\) \[([\w.]+)\] (.*)$")


def eventually(condition, what, seconds=WAIT):
    return wait_for(condition, seconds, what, interval=0.2)


class Rig:
    def __init__(self):
        self.work = tempfile.mkdtemp(prefix="ha-test.")
        os.chmod(self.work, 0o755)  # mosquitto drops root and still reads its configuration
        self.config = os.path.join(self.work, "config")
        self.run_dir = os.path.join(self.work, "run")
        os.makedirs(os.path.join(self.config, ".storage"))
        os.makedirs(self.run_dir)
        self.broker_port, self.http_port = free_port(), free_port()
        self.processes = {}
        self.ha = None
        self.ha_log = os.path.join(self.work, "home-assistant.out")
        self.pipe_lines, self.pipe_partial, self.pipe = [], b"", None
        self.lux_fifo = None

    # --- processes

    def spawn(self, name, command, log, **options):
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=open(log, "a"),
                                   stderr=subprocess.STDOUT, **options)
        self.processes[name] = process
        return process

    def start_broker(self):
        """The broker on a free port. A port found free can be taken by another program's outgoing
        connection before mosquitto binds it: then a new one is picked. Mosquitto says "running"
        only once its listener is bound; "Opening ... socket" comes before the bind."""
        log = os.path.join(self.work, "broker.log")
        conf = os.path.join(self.work, "broker.conf")
        for _ in range(5):
            open(log, "w").close()
            os.chmod(log, 0o666)
            with open(conf, "w") as file:
                file.write(f"persistence false\nlog_dest file {log}\nlog_type all\n"
                           f"listener {self.broker_port} 127.0.0.1\nallow_anonymous true\n")
            broker = self.spawn("broker", ["mosquitto", "-c", conf], os.path.join(self.work, "broker.err"))
            eventually(lambda: broker.poll() is not None or " running" in read(log), "the broker to start", 10)
            if broker.poll() is None:
                return
            if "Address already in use" not in read(log):
                break
            self.broker_port = free_port()
        raise Failure(f"the broker did not start: {read(log)}")

    def publish(self, topic, payload):
        subprocess.run(["mosquitto_pub", "-p", str(self.broker_port), "-q", "1", "-t", topic, "-m", payload],
                       check=True, timeout=10)

    def write_ha_configuration(self):
        with open(os.path.join(self.config, "configuration.yaml"), "w") as file:
            file.write(f"""homeassistant:
  name: Ambience test
  latitude: 52.5
  longitude: 13.4
  elevation: 30
  unit_system: metric
  time_zone: UTC
  currency: EUR
  country: DE
http:
  server_host: 127.0.0.1
  server_port: {self.http_port}
logger:
  default: warning
  logs:
    homeassistant.bootstrap: info
    homeassistant.core: info
    homeassistant.components.mqtt: info
    homeassistant.components.mqtt.discovery: debug
recorder:
  commit_interval: 1
automation:
  - id: ambience_test_number
    alias: A number set over MQTT
    triggers:
      - trigger: mqtt
        topic: ambience-test/number
    actions:
      - action: number.set_value
        target:
          entity_id: "{{{{ trigger.payload_json.entity_id }}}}"
        data:
          value: "{{{{ trigger.payload_json.value }}}}"
  - id: ambience_test_button
    alias: A button pressed over MQTT
    triggers:
      - trigger: mqtt
        topic: ambience-test/button
    actions:
      - action: button.press
        target:
          entity_id: "{{{{ trigger.payload_json.entity_id }}}}"
  - id: ambience_test_switch_on
    alias: A switch turned on over MQTT
    triggers:
      - trigger: mqtt
        topic: ambience-test/switch-on
    actions:
      - action: switch.turn_on
        target:
          entity_id: "{{{{ trigger.payload_json.entity_id }}}}"
  - id: ambience_test_switch_off
    alias: A switch turned off over MQTT
    triggers:
      - trigger: mqtt
        topic: ambience-test/switch-off
    actions:
      - action: switch.turn_off
        target:
          entity_id: "{{{{ trigger.payload_json.entity_id }}}}"
  - id: ambience_test_select
    alias: An option chosen over MQTT
    triggers:
      - trigger: mqtt
        topic: ambience-test/select
    actions:
      - action: select.select_option
        target:
          entity_id: "{{{{ trigger.payload_json.entity_id }}}}"
        data:
          option: "{{{{ trigger.payload_json.option }}}}"
""")
        # The MQTT integration is a config entry (what the UI's flow would store): the broker,
        # discovery on under the default prefix.
        now = "2026-01-01T00:00:00+00:00"
        entry = {
            "created_at": now, "modified_at": now, "entry_id": "ambiencetestmqtt", "domain": "mqtt",
            "title": "127.0.0.1", "source": "user", "unique_id": None, "version": 1, "minor_version": 2,
            "data": {"broker": "127.0.0.1", "port": self.broker_port},
            "options": {"discovery": True, "discovery_prefix": "homeassistant"},
            "discovery_keys": {}, "disabled_by": None, "pref_disable_new_entities": False,
            "pref_disable_polling": False, "subentries": [],
        }
        with open(os.path.join(self.config, ".storage", "core.config_entries"), "w") as file:
            json.dump({"version": 1, "minor_version": 5, "key": "core.config_entries",
                       "data": {"entries": [entry]}}, file, indent=2)

    def start_ha(self):
        """Home Assistant in the root, its output appended to home-assistant.out; returns once its
        MQTT client is connected (its birth message sent)."""
        mark = self.ha_log_size()
        environment = dict(os.environ, AMBIENCE_BIND=f"{self.work}:{INSIDE}")
        self.ha = self.spawn(
            "home-assistant",
            [IN_ROOT, "trixie", "amd64", "sh", "-c",
             f'echo $$ >{INSIDE}/hass.pid; exec {VENV}/bin/hass --config {INSIDE}/config --skip-pip'],
            self.ha_log, env=environment, start_new_session=True)
        started = time.monotonic()
        eventually(lambda: self.ha.poll() is not None or "birth message sent" in self.ha_output(mark),
                   "Home Assistant to start and connect to the broker", HA_START)
        if self.ha.poll() is not None:
            raise Failure(f"Home Assistant exited ({self.ha.returncode})")
        return time.monotonic() - started

    def stop_ha(self):
        pid = int(read(os.path.join(self.work, "hass.pid")))
        os.kill(pid, signal.SIGTERM)
        try:
            self.ha.wait(WAIT)
        except subprocess.TimeoutExpired:
            os.killpg(self.ha.pid, signal.SIGKILL)
            self.ha.wait(10)
            raise Failure("Home Assistant did not stop on SIGTERM")

    def write_kiosk_configuration(self, *mqtt_lines):
        run = self.run_dir
        # A backlight class device as sysfs has it, named by its path.
        backlight = os.path.join(self.work, "backlight")
        os.makedirs(backlight, exist_ok=True)
        for name, value in (("max_brightness", 255), ("brightness", 128)):
            if not os.path.exists(os.path.join(backlight, name)):
                with open(os.path.join(backlight, name), "w") as file:
                    file.write(f"{value}\n")
        with open(os.path.join(self.work, "ambience.toml"), "w") as file:
            file.write(f"""state_file = "{run}/state.json"
control_pipe = "{run}/control"
state_directory = "{self.work}/lib"
[sensor]
kind = "bh1750"
[timing]
dwell = 0.5
latency = 2
fault_after = 1
[pipes]
paths = ["{run}/state", "{run}/mqtt"]
[mqtt]
broker = "mqtt://127.0.0.1:{self.broker_port}"
device_id = "lobby"
name = "Lobby"
pipe = "{run}/mqtt"
keepalive = 5
""" + "".join(line + "\n" for line in mqtt_lines) + f"""[backlight]
device = "{backlight}"
[display]
[whitepoint]
""")

    def start_daemon(self):
        fifo = os.path.join(self.work, "lux")
        os.mkfifo(fifo)
        self.lux_fifo = os.open(fifo, os.O_RDWR)  # held open: the daemon never sees an end
        self.processes["daemon"] = subprocess.Popen(
            [AMBIENCE, "simulate", "--config", os.path.join(self.work, "ambience.toml"), "--profile", "stdin"],
            stdin=self.lux_fifo, stdout=open(os.path.join(self.work, "daemon.log"), "a"), stderr=subprocess.STDOUT)
        state_pipe = os.path.join(self.run_dir, "state")
        eventually(lambda: os.path.exists(state_pipe), "the daemon's state pipe", 10)
        self.pipe = os.open(state_pipe, os.O_RDONLY | os.O_NONBLOCK)

    def lux(self, value):
        os.write(self.lux_fifo, f"{value}\n".encode())

    def daemon_events(self, since=0):
        """The daemon's event lines read so far on its state pipe, from index `since`."""
        while True:
            try:
                chunk = os.read(self.pipe, 65536)
            except BlockingIOError:
                break
            if not chunk:
                break
            *lines, self.pipe_partial = (self.pipe_partial + chunk).split(b"\n")
            self.pipe_lines += [json.loads(line) for line in lines if line.strip()]
        return self.pipe_lines[since:]

    def start_bridge(self, *mqtt_lines):
        self.write_kiosk_configuration(*mqtt_lines)
        self.spawn("bridge", [BRIDGE, "--config", os.path.join(self.work, "ambience.toml")],
                   os.path.join(self.work, "bridge.log"))
        eventually(lambda: "connected" in read(os.path.join(self.work, "bridge.log")).split("ambience mqtt lobby")[-1],
                   "the bridge to connect")

    def stop_bridge(self, sig=signal.SIGTERM):
        bridge = self.processes.pop("bridge")
        bridge.send_signal(sig)
        bridge.wait(WAIT)

    def close(self):
        if self.ha is not None and self.ha.poll() is None:
            try:
                self.stop_ha()
            except Exception:  # noqa: BLE001 - whatever happened, it is killed below
                pass
        for process in self.processes.values():
            if process.poll() is None:
                process.kill()
                process.wait(10)
        if self.ha is not None and self.ha.poll() is None:
            os.killpg(self.ha.pid, signal.SIGKILL)

    # --- Home Assistant's state

    def ha_log_size(self):
        return os.path.getsize(self.ha_log) if os.path.exists(self.ha_log) else 0

    def ha_output(self, since=0):
        with open(self.ha_log, "rb") as file:
            file.seek(since)
            return file.read().decode(errors="replace")

    def registry(self, name):
        path = os.path.join(self.config, ".storage", name)
        try:
            with open(path) as file:
                return json.load(file)["data"]
        except (FileNotFoundError, json.JSONDecodeError):
            return None

    def entities(self):
        """The kiosk's entities in the entity registry, by unique id (a list each: duplicates show)."""
        data = self.registry("core.entity_registry") or {"entities": []}
        found = {}
        for entity in data["entities"]:
            if entity["platform"] == "mqtt" and entity["unique_id"].startswith(DEVICE + "_"):
                found.setdefault(entity["unique_id"], []).append(entity)
        return found

    def device(self, identifier):
        data = self.registry("core.device_registry") or {"devices": []}
        matches = [d for d in data["devices"] if ["mqtt", identifier] in d["identifiers"]]
        return matches[0] if matches else None

    def states(self, entity_id, since):
        """The recorder's states of `entity_id` from time `since` on: [(state, attributes)]."""
        database = os.path.join(self.config, "home-assistant_v2.db")
        if not os.path.exists(database):
            return []
        try:
            with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5)) as connection:
                rows = connection.execute(
                    "SELECT s.state, a.shared_attrs FROM states s"
                    " JOIN states_meta m ON s.metadata_id = m.metadata_id"
                    " LEFT JOIN state_attributes a ON s.attributes_id = a.attributes_id"
                    " WHERE m.entity_id = ? AND s.last_updated_ts >= ? ORDER BY s.last_updated_ts, s.state_id",
                    (entity_id, since)).fetchall()
        except sqlite3.OperationalError:  # not made yet, or busy: asked again
            return []
        return [(state, json.loads(attributes) if attributes else {}) for state, attributes in rows]

    def recorded(self, entity_id, since, wanted):
        """The first state from `since` on for which wanted(state) holds."""
        return next(((s, a) for s, a in self.states(entity_id, since) if s is not None and wanted(s)), None)

    def mqtt_log(self):
        """The lines of the mqtt component's loggers, in every run so far: [(level, line)]."""
        lines = []
        for line in self.ha_output().splitlines():
            match = LOG_LINE.match(line)
            if match and match[2].startswith("homeassistant.components.mqtt"):
                lines.append((match[1], line))
        return lines


def available(unique_id):
    """A real state of the entity: any but unavailable for a button, which stays unknown."""
    return lambda s: s != "unavailable" if unique_id in STATELESS else s not in ("unknown", "unavailable")


def number_is(percent):
    def wanted(state):
        try:
            return float(state) == percent
        except ValueError:  # unknown, unavailable
            return False
    return wanted


def near(state, lux):
    try:
        return abs(float(state) - lux) <= lux * 0.1
    except ValueError:  # unknown, unavailable
        return False


def read(path):
    try:
        with open(path) as file:
            return file.read()
    except FileNotFoundError:
        return ""


# --- the steps, in order; each gets the rig and what earlier steps learnt

def device_and_entities_appear(rig, seen):
    def complete():
        entities = rig.entities()
        device = rig.device(DEVICE)
        return device and set(entities) == set(COMPONENTS) and rig.device(GROUP) and (device, entities)
    device, entities = eventually(complete, "the device and its entities in the registries")
    assert device["name"] == "Lobby" and device["manufacturer"] == "Ambience", device
    for unique_id, (domain, device_class, unit) in COMPONENTS.items():
        assert len(entities[unique_id]) == 1, entities[unique_id]
        entity = entities[unique_id][0]
        assert entity["entity_id"].startswith(domain + "."), entity
        assert entity["device_id"] == device["id"], entity
        assert entity["original_device_class"] == device_class, entity
        assert entity.get("unit_of_measurement") == unit, entity
        seen[unique_id] = entity["entity_id"]
        # Its first real state in the recorder, with the class and unit Home Assistant gave it.
        state, attributes = eventually(
            lambda: rig.recorded(entity["entity_id"], 0, available(unique_id)),
            f"a state of {entity['entity_id']} in the recorder")
        assert attributes.get("device_class") == device_class, (entity["entity_id"], attributes)
        assert attributes.get("unit_of_measurement") == unit, (entity["entity_id"], attributes)
    assert entities[f"{DEVICE}_lux"][0]["capabilities"] == {"state_class": "measurement"}
    assert entities[f"{DEVICE}_theme"][0]["capabilities"] == {"options": ["invert", "regular", "contrast"]}
    assert entities[f"{DEVICE}_override"][0]["capabilities"] == {"options": ["auto", "invert", "regular", "contrast"]}
    brightness_capabilities = {"min": 0, "max": 100, "step": 1, "mode": "slider"}
    assert entities[f"{DEVICE}_brightness"][0]["capabilities"] == brightness_capabilities, \
        entities[f"{DEVICE}_brightness"][0]["capabilities"]
    assert rig.recorded(seen[f"{DEVICE}_brightness"], 0, number_is(CURVE_AT_300_LX))
    lux, _ = rig.recorded(seen[f"{DEVICE}_lux"], 0, lambda s: s not in ("unknown", "unavailable"))
    assert near(lux, 300), lux
    assert rig.recorded(seen[f"{DEVICE}_theme"], 0, lambda s: s == "regular")
    assert rig.recorded(seen[f"{DEVICE}_fault"], 0, lambda s: s == "off")
    assert rig.recorded(seen[f"{DEVICE}_override"], 0, lambda s: s == "auto")
    registry = (rig.registry("core.entity_registry") or {"entities": []})["entities"]
    assert rig.recorded(seen[f"{DEVICE}_display"], 0, lambda s: s == "on")
    for key, domain in (("override", "select"), ("brightness", "number"), ("brightness_auto", "button"),
                        ("display_on", "button"), ("display_off", "button"), ("display_auto", "button")):
        group = [e for e in registry if e["unique_id"] == f"{GROUP}_{key}"]
        assert len(group) == 1 and group[0]["device_id"] == rig.device(GROUP)["id"], group
        assert group[0]["entity_id"].startswith(domain + "."), group
        seen["group" if key == "override" else f"group_{key}"] = group[0]["entity_id"]


def values_follow_the_light(rig, seen):
    for lux, theme in ((3, "invert"), (30000, "contrast"), (300, "regular")):
        since = time.time()
        rig.lux(lux)
        eventually(lambda: rig.recorded(seen[f"{DEVICE}_theme"], since, lambda s: s == theme),
                   f"the theme to be recorded as {theme} at {lux} lx")
        eventually(lambda: rig.recorded(seen[f"{DEVICE}_lux"], since, lambda s: near(s, lux)),
                   f"the illuminance to be recorded near {lux} lx")


def the_fault_goes_on_and_off(rig, seen):
    since = time.time()
    rig.lux("nan")  # the sensor gives no valid reading
    eventually(lambda: rig.recorded(seen[f"{DEVICE}_fault"], since, lambda s: s == "on"), "the fault on")
    since = time.time()
    rig.lux(300)
    eventually(lambda: rig.recorded(seen[f"{DEVICE}_fault"], since, lambda s: s == "off"), "the fault off")


def select_options_reach_the_daemon(rig, seen):
    """select.select_option (by an automation an MQTT message triggers: no login needed) on the
    kiosk's select, then on the fleet's: the daemon's own event lines show the override."""
    for entity_id, option, override in ((seen[f"{DEVICE}_override"], "invert", "invert"),
                                        (seen["group"], "contrast", "contrast"),
                                        (seen["group"], "auto", None)):
        since, first = time.time(), len(rig.daemon_events())
        rig.publish("ambience-test/select", json.dumps({"entity_id": entity_id, "option": option}))
        eventually(lambda: any(e.get("override") == override and (override is None or e.get("state") == override)
                               for e in rig.daemon_events(first)),
                   f"the daemon's pipe to show the override {override} from {entity_id}")
        eventually(lambda: rig.recorded(seen[f"{DEVICE}_override"], since, lambda s: s == (override or "auto")),
                   f"the kiosk's select recorded as {override or 'auto'}")


def brightness_follows_the_kiosk_and_reaches_the_daemon(rig, seen):
    """number.set_value and button.press (by automations MQTT messages trigger) on the kiosk's
    entities, then on the fleet's: the daemon's own event lines show the brightness, and the
    kiosk's number follows them."""
    number = seen[f"{DEVICE}_brightness"]
    for topic, entity_id, value, percent in (
            ("number", number, 40, 40), ("button", seen[f"{DEVICE}_brightness_auto"], None, CURVE_AT_300_LX),
            ("number", seen["group_brightness"], 20, 20),
            ("button", seen["group_brightness_auto"], None, CURVE_AT_300_LX)):
        since, first = time.time(), len(rig.daemon_events())
        payload = {"entity_id": entity_id} | ({} if value is None else {"value": value})
        rig.publish(f"ambience-test/{topic}", json.dumps(payload))
        eventually(lambda: any(e.get("brightness") == percent for e in rig.daemon_events(first)),
                   f"the daemon's pipe to show the brightness {percent} from {entity_id}")
        eventually(lambda: rig.recorded(number, since, number_is(percent)),
                   f"the kiosk's number recorded as {percent}")
    assert not os.path.exists(os.path.join(rig.work, "lib", "brightness-override")), "auto keeps no override"


def display_switch_shows_the_device_and_reaches_the_daemon(rig, seen):
    """switch.turn_off and turn_on, and the buttons, on the kiosk's entities and the fleet's: the
    daemon's own event lines show the display's power as its device reads it back, the switch
    follows those lines, never its own guess, and each override is kept as the daemon keeps it."""
    switch = seen[f"{DEVICE}_display"]
    held = os.path.join(rig.work, "lib", "display-override")
    # Each step: what it sends, the power after it (None: unchanged, so no new line or state),
    # and the override the daemon keeps (None: none).
    for topic, entity_id, power, override in (
            ("switch-off", switch, "off", "off"), ("button", seen[f"{DEVICE}_display_auto"], "on", None),
            ("button", seen["group_display_off"], "off", "off"), ("switch-on", switch, "on", "on"),
            ("button", seen["group_display_auto"], None, None), ("button", seen["group_display_on"], None, "on"),
            ("button", seen[f"{DEVICE}_display_auto"], None, None)):
        since, first = time.time(), len(rig.daemon_events())
        rig.publish(f"ambience-test/{topic}", json.dumps({"entity_id": entity_id}))
        if power:
            eventually(lambda: any(e.get("display") == power for e in rig.daemon_events(first)),
                       f"the daemon's pipe to show the display {power} from {entity_id}")
            eventually(lambda: rig.recorded(switch, since, lambda s: s == power), f"the switch recorded as {power}")
        if override:
            eventually(lambda: read(held).split()[:1] == [override], f"{held} to hold {override}")
        else:
            eventually(lambda: not os.path.exists(held), f"no {held} after auto")


def the_display_white_reaches_the_daemon_and_comes_back(rig, seen):
    """number.set_value on the display's white, then its button: the daemon's own event lines
    show the white held, the number follows them, the override is kept as the daemon keeps
    them, and `auto` ends it."""
    number, held = seen[f"{DEVICE}_whitepoint"], os.path.join(rig.work, "lib", "whitepoint-override")
    since, first = time.time(), len(rig.daemon_events())
    rig.publish("ambience-test/number", json.dumps({"entity_id": number, "value": 5000}))
    eventually(lambda: any(e.get("whitepoint") == 5000 for e in rig.daemon_events(first)),
               "the daemon's pipe to show the white 5000 K")
    eventually(lambda: rig.recorded(number, since, number_is(5000)), "the white recorded as 5000 K")
    eventually(lambda: read(held).split()[:1] == ["5000"], f"{held} to hold 5000")
    assert rig.recorded(seen[f"{DEVICE}_cct"], 0, lambda s: s == "unknown"), "a sensor without colour"
    rig.publish("ambience-test/button", json.dumps({"entity_id": seen[f"{DEVICE}_whitepoint_auto"]}))
    eventually(lambda: not os.path.exists(held), f"no {held} after auto")


def entities_unavailable_when_the_bridge_is_killed(rig, seen):
    since = time.time()
    rig.stop_bridge(signal.SIGKILL)  # the broker publishes the will: offline
    for unique_id in COMPONENTS:
        eventually(lambda: rig.recorded(seen[unique_id], since, lambda s: s == "unavailable"),
                   f"{seen[unique_id]} unavailable")
    since = time.time()
    rig.start_bridge()
    for unique_id in COMPONENTS:
        eventually(lambda: rig.recorded(seen[unique_id], since, available(unique_id)),
                   f"{seen[unique_id]} available again")


def a_restart_of_home_assistant_is_answered_by_an_announcement(rig, seen):
    rig.stop_ha()
    mark = rig.ha_log_size()
    rig.start_ha()
    # The retained document on subscribing, then the bridge's announcement after `online`.
    processed = f"Processing device discovery for '{DEVICE}'"
    eventually(lambda: rig.ha_output(mark).count(processed) >= 2,
               "Home Assistant to process the device's document twice (retained, then announced)")
    since = time.time()
    rig.lux(3)
    eventually(lambda: rig.recorded(seen[f"{DEVICE}_theme"], since, lambda s: s == "invert"),
               "the theme recorded after the restart")
    rig.lux(300)


def switching_discovery_styles_leaves_one_entity_each(rig, seen):
    """Per entity and back: the old documents are emptied before the new ones come, so Home
    Assistant removes the entities and makes them again under the same ids, with no duplicate."""
    for lines, style in ((['discovery_per_entity = true'], "per entity"), ([], "per device")):
        mark = rig.ha_log_size()
        rig.stop_bridge()
        since = time.time()
        rig.start_bridge(*lines)
        eventually(lambda: all(f"Removing component: {seen[u]}" in rig.ha_output(mark) for u in COMPONENTS),
                   f"Home Assistant to remove the entities of the other style ({style} now)")
        for unique_id in COMPONENTS:
            eventually(lambda: rig.recorded(seen[unique_id], since, available(unique_id)),
                       f"{seen[unique_id]} back, discovered {style}")
        # The registry as saved after the entities were made again (it is saved a while later).
        def saved_again():
            entities = rig.entities()
            return set(entities) == set(COMPONENTS) and all(
                datetime.fromisoformat(e["modified_at"]).timestamp() >= since
                for entries in entities.values() for e in entries) and entities
        entities = eventually(saved_again, "the registry saved with the entities made again")
        for unique_id, entries in entities.items():
            assert [e["entity_id"] for e in entries] == [seen[unique_id]], entries


def discovery_off_removes_the_entities(rig, seen):
    rig.stop_bridge()
    rig.start_bridge("discovery = false")
    eventually(lambda: not rig.entities() and rig.device(DEVICE) is None,
               "the entities and the device gone from the registries")
    assert rig.device(GROUP), "the fleet's device stays: other kiosks announce it"
    rig.stop_bridge()
    rig.start_bridge()
    eventually(lambda: set(rig.entities()) == set(COMPONENTS), "the entities back with discovery on")


def no_warning_or_error_from_the_mqtt_component(rig, seen):
    lines = rig.mqtt_log()
    # Its log was read (its INFO lines of the steps above are there): the check is not vacuous.
    assert any(level == "INFO" and "Removing component" in line for level, line in lines), \
        "no line of the mqtt component's log was recognised"
    problems = [line for level, line in lines if level in ("WARNING", "ERROR", "CRITICAL")]
    assert not problems, "Home Assistant's mqtt component logged:\n" + "\n".join(problems)


STEPS = [device_and_entities_appear, values_follow_the_light, the_fault_goes_on_and_off,
         select_options_reach_the_daemon, brightness_follows_the_kiosk_and_reaches_the_daemon,
         display_switch_shows_the_device_and_reaches_the_daemon,
         the_display_white_reaches_the_daemon_and_comes_back,
         entities_unavailable_when_the_bridge_is_killed,
         a_restart_of_home_assistant_is_answered_by_an_announcement,
         switching_discovery_styles_leaves_one_entity_each, discovery_off_removes_the_entities,
         no_warning_or_error_from_the_mqtt_component]


def main():
    for program in (AMBIENCE, BRIDGE):
        if not os.access(program, os.X_OK):
            sys.exit(f"ha: no {program} (swift build)")
    rig = Rig()
    checks = Checks("ha")
    started = time.monotonic()

    def set_up():
        rig.start_broker()
        rig.write_ha_configuration()
        rig.write_kiosk_configuration()
        rig.start_daemon()
        rig.lux(300)
        print(f"ha: Home Assistant started in {rig.start_ha():.0f} s", flush=True)
        rig.start_bridge()
    try:
        # A failed step ends the run: the later ones build on it.
        ready = checks.check("setting up", set_up, explain=lambda: explain(rig))
        seen = {}
        for step in STEPS:
            if not ready:
                checks.skip(step.__name__, "a step before it failed")
            elif not checks.check(step.__name__, step, rig, seen, explain=lambda: explain(rig)):
                ready = False
    finally:
        rig.close()
    print(f"ha: {time.monotonic() - started:.0f} s; scratch directory {rig.work}")
    status = checks.summary()
    if not status and not os.environ.get("HA_KEEP"):
        subprocess.run(["rm", "-rf", rig.work])
    return status


def explain(rig):
    for name, path in (("bridge", "bridge.log"), ("daemon", "daemon.log"), ("Home Assistant", "home-assistant.out")):
        lines = read(os.path.join(rig.work, path)).splitlines()
        if name == "Home Assistant":
            lines = [line for line in lines if "components.mqtt" in line or " ERROR " in line][-30:]
        print(f"--- {name} (last lines)")
        print("\n".join(lines[-30:]))


if __name__ == "__main__":
    sys.exit(main())
