#!/usr/bin/env python3
"""Checks one discovery document of `ambience mqtt` field by field against Home Assistant's
documented MQTT discovery schema (the options each platform takes, their types and values).

Usage: check_discovery.py device|group|sensor|select|binary_sensor|number|button|switch FILE DEVICE_ID NAME
       [backlight] [display]
(backlight: the kiosk has one, and so a brightness number and button; display: it has a
[display], and so a display switch and button)
"""
import json
import sys

# Options of the platforms used, as Home Assistant documents them (a subset: those the bridge may
# send). Anything else in a document is an error, as is a wrong type.
COMMON = {
    "unique_id": str, "name": str, "availability_topic": str, "state_topic": str, "qos": int,
    "value_template": str, "icon": str, "device": dict, "origin": dict,
}
PLATFORMS = {
    "sensor": {**COMMON, "device_class": str, "unit_of_measurement": str, "state_class": str,
               "expire_after": int, "options": list},
    "select": {**COMMON, "command_topic": str, "options": list},
    "binary_sensor": {**COMMON, "device_class": str, "expire_after": int},
    "number": {**COMMON, "command_topic": str, "min": (int, float), "max": (int, float),
               "step": (int, float), "mode": str, "unit_of_measurement": str},
    # A button has no state: the shared state_topic of a device's document is dropped for it.
    "button": {**COMMON, "command_topic": str, "payload_press": str},
    "switch": {**COMMON, "command_topic": str, "payload_on": str, "payload_off": str, "state_on": str,
               "state_off": str},
}
DEVICE_KEYS = {"ids": list, "name": str, "mf": str, "mdl": str, "sw": str}
ORIGIN_KEYS = {"name": str, "sw": str}
SENSOR_DEVICE_CLASSES = {"illuminance", "enum"}
STATE_CLASSES = {"measurement", "total", "total_increasing"}


def fail(message):
    sys.exit(f"discovery: {message}")


def check_types(where, document, schema):
    for key, value in document.items():
        if key not in schema:
            fail(f"{where}: '{key}' is not an option Home Assistant takes here")
        expected = schema[key]
        if isinstance(value, bool) and expected is not bool or not isinstance(value, expected):
            name = getattr(expected, "__name__", "a number")
            fail(f"{where}: '{key}' must be {name}, not {value!r}")


def check_device(where, device, device_id, name):
    check_types(where + ".device", device, DEVICE_KEYS)
    if device.get("ids") != [f"ambience_{device_id}"]:
        fail(f"{where}: device ids {device.get('ids')!r}")
    if device.get("name") != name:
        fail(f"{where}: device name {device.get('name')!r}, wanted {name!r}")


def check_origin(where, origin):
    check_types(where + ".origin", origin, ORIGIN_KEYS)
    if not origin.get("name"):
        fail(f"{where}: the origin needs a name")


def check_component(where, platform, options, device_id, shared):
    config = {**shared, **options}
    check_types(where, options, PLATFORMS[platform])
    prefix = f"ambience/{device_id}"
    if not config.get("unique_id", "").startswith(f"ambience_{device_id}_"):
        fail(f"{where}: unique_id {config.get('unique_id')!r}")
    if config.get("state_topic") != f"{prefix}/state":
        fail(f"{where}: state_topic {config.get('state_topic')!r}")
    if config.get("availability_topic") != f"{prefix}/status":
        fail(f"{where}: availability_topic {config.get('availability_topic')!r}")
    if platform != "button" and "{{" not in config.get("value_template", ""):
        fail(f"{where}: no value_template")
    if platform == "sensor":
        if config.get("device_class") not in SENSOR_DEVICE_CLASSES:
            fail(f"{where}: device_class {config.get('device_class')!r}")
        if config["device_class"] == "illuminance":
            if config.get("unit_of_measurement") != "lx":
                fail(f"{where}: illuminance is in lx")
            if config.get("state_class") not in STATE_CLASSES or config["state_class"] != "measurement":
                fail(f"{where}: state_class {config.get('state_class')!r}")
            if not isinstance(config.get("expire_after"), int) or config["expire_after"] <= 60:
                fail(f"{where}: expire_after must outlast the 60 s republication")
        else:
            if config.get("options") != ["invert", "regular", "contrast"]:
                fail(f"{where}: an enum sensor lists its options: {config.get('options')!r}")
            if "unit_of_measurement" in config or "state_class" in config:
                fail(f"{where}: an enum sensor takes no unit or state class")
    elif platform == "select":
        if config.get("options") != ["auto", "invert", "regular", "contrast"]:
            fail(f"{where}: select options {config.get('options')!r}")
        if config.get("command_topic") != f"{prefix}/override/set":
            fail(f"{where}: command_topic {config.get('command_topic')!r}")
    elif platform == "binary_sensor":
        if config.get("device_class") != "problem":
            fail(f"{where}: device_class {config.get('device_class')!r}")
    elif platform == "number":
        check_brightness_number(where, config, f"{prefix}/brightness/set")
        if config.get("value_template") != "{{ value_json.brightness }}":
            fail(f"{where}: value_template {config.get('value_template')!r}")
    elif platform == "button":
        topic = "display" if config["unique_id"].endswith("_display_auto") else "brightness"
        check_automatic_button(where, config, f"{prefix}/{topic}/set")
    elif platform == "switch":
        check_display_switch(where, config, f"{prefix}/display/set")
    return config["unique_id"]


def check_display_switch(where, config, command_topic):
    """The display's switch: its state read from the state payload, never assumed."""
    wanted = {"command_topic": command_topic, "payload_on": "on", "payload_off": "off", "state_on": "on",
              "state_off": "off", "value_template": "{{ value_json.display }}"}
    for key, value in wanted.items():
        if config.get(key) != value:
            fail(f"{where}: {key} {config.get(key)!r}, wanted {value!r}")


def check_brightness_number(where, config, command_topic):
    wanted = {"min": 0, "max": 100, "step": 1, "mode": "slider", "unit_of_measurement": "%",
              "command_topic": command_topic}
    for key, value in wanted.items():
        if config.get(key) != value:
            fail(f"{where}: {key} {config.get(key)!r}, wanted {value!r}")


def check_automatic_button(where, config, command_topic):
    if config.get("command_topic") != command_topic or config.get("payload_press") != "auto":
        fail(f"{where}: the button sends auto to {command_topic}: {config!r}")


def main():
    kind, path, device_id, name = sys.argv[1:5]
    backlight = "backlight" in sys.argv[5:]
    display = "display" in sys.argv[5:]
    document = json.load(open(path))
    if kind == "group":
        # The fleet's device: one optimistic select on the group topic.
        check_types("group", document, {"dev": dict, "o": dict, "cmps": dict, "qos": int})
        check_types("group.dev", document["dev"], DEVICE_KEYS)
        if document["dev"].get("ids") != ["ambience_all"]:
            fail(f"group: device ids {document['dev'].get('ids')!r}")
        check_origin("group", document["o"])
        components = document["cmps"]
        wanted_components = ["override", "brightness", "brightness_auto", "display_on", "display_off",
                             "display_auto"]
        if list(components) != wanted_components:
            fail(f"group: components {list(components)!r}")
        # The fleet's displays: buttons, each sending its word to the group's display topic.
        for key in ("display_on", "display_off", "display_auto"):
            button = dict(components[key])
            if button.pop("p", None) != "button":
                fail(f"group: {key} is a button")
            check_types(f"group.{key}", button, PLATFORMS["button"])
            payload = key.removeprefix("display_")
            if button.get("command_topic") != "ambience/all/display/set" or button.get("payload_press") != payload:
                fail(f"group: {key} sends {payload} to ambience/all/display/set: {button!r}")
            if "state_topic" in button:
                fail(f"group: {key} keeps no state")
        number, button = dict(components["brightness"]), dict(components["brightness_auto"])
        if number.pop("p", None) != "number" or button.pop("p", None) != "button":
            fail("group: the brightness is a number, its way back to auto a button")
        check_types("group.brightness", number, PLATFORMS["number"])
        check_brightness_number("group.brightness", number, "ambience/all/brightness/set")
        if "state_topic" in number:
            fail("group: the fleet's number is optimistic")
        check_types("group.brightness_auto", button, PLATFORMS["button"])
        check_automatic_button("group.brightness_auto", button, "ambience/all/brightness/set")
        select = dict(components["override"])
        if select.pop("p", None) != "select":
            fail("group: the override is a select")
        check_types("group.override", select, PLATFORMS["select"])
        if select.get("command_topic") != "ambience/all/override/set":
            fail(f"group: command_topic {select.get('command_topic')!r}")
        if select.get("options") != ["auto", "invert", "regular", "contrast"]:
            fail(f"group: options {select.get('options')!r}")
        if select.get("unique_id") != "ambience_all_override":
            fail(f"group: unique_id {select.get('unique_id')!r}")
    elif kind == "device":
        # Device-based discovery: dev, o and cmps (abbreviated), shared topics at the top.
        shared_schema = {"dev": dict, "o": dict, "cmps": dict, "availability_topic": str,
                         "state_topic": str, "qos": int}
        check_types("document", document, shared_schema)
        for required in ("dev", "o", "cmps"):
            if required not in document:
                fail(f"document: '{required}' is required")
        check_device("document", document["dev"], device_id, name)
        check_origin("document", document["o"])
        shared = {k: v for k, v in document.items() if k in ("availability_topic", "state_topic", "qos")}
        platforms, ids = {}, set()
        for key, component in document["cmps"].items():
            component = dict(component)
            platform = component.pop("p", None)
            if platform not in PLATFORMS:
                fail(f"cmps.{key}: platform 'p' {platform!r}")
            ids.add(check_component(f"cmps.{key}", platform, component, device_id, shared))
            platforms[key] = (platform, component.get("device_class"))
        wanted = {"lux": ("sensor", "illuminance"), "theme": ("sensor", "enum"),
                  "override": ("select", None), "fault": ("binary_sensor", "problem")}
        if backlight:
            wanted |= {"brightness": ("number", None), "brightness_auto": ("button", None)}
        if display:
            wanted |= {"display": ("switch", None), "display_auto": ("button", None)}
        if platforms != wanted:
            fail(f"components {platforms!r}, wanted {wanted!r}")
        if len(ids) != len(wanted):
            fail("unique_ids are not unique")
    else:
        for required in ("device", "origin"):
            if required not in document:
                fail(f"{kind}: '{required}' is required")
        check_device(kind, document["device"], device_id, name)
        check_origin(kind, document["origin"])
        check_component(kind, kind, document, device_id, {})


main()
