#!/usr/bin/env python3
"""Prints the PyPI requirements of what Home Assistant sets up in make ha-test, one a line: the
integrations it always loads (bootstrap's lists) and those the test's configuration names, with
every integration they depend on, as their manifests (manifest.json) list them. Run with the
venv's Python, Home Assistant installed.
"""
import json
import pathlib

import homeassistant
from homeassistant import bootstrap

# What Tests/ha/run.sh configures: the MQTT entry, the recorder, an automation, and the entity
# platforms the bridge's discovery brings.
CONFIGURED = {"http", "logger", "recorder", "mqtt", "automation", "sensor", "binary_sensor", "select"}

components = pathlib.Path(homeassistant.__file__).parent / "components"
domains = set(CONFIGURED) | bootstrap.CORE_INTEGRATIONS | bootstrap.DEFAULT_INTEGRATIONS
seen, requirements = set(), set()
while domains:
    domain = domains.pop()
    if domain in seen:
        continue
    seen.add(domain)
    manifest = components / domain / "manifest.json"
    if not manifest.exists():
        continue
    data = json.loads(manifest.read_text())
    requirements.update(data.get("requirements", []))
    domains.update(data.get("dependencies", []))
print("\n".join(sorted(requirements)))
