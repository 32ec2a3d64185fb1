#!/usr/bin/env python3
"""Every module a target imports is one Package.swift declares for it (make lint): SwiftPM builds
an undeclared import only by luck of the build order. Reads `swift package dump-package`, with the
fuzz targets included (AMBIENCE_FUZZ=1)."""
import glob
import json
import os
import re
import subprocess
import sys

package = json.loads(subprocess.run(
    [os.environ.get("SWIFT", "swift"), "package", "dump-package"], check=True, capture_output=True,
    text=True, env=dict(os.environ, AMBIENCE_FUZZ="1")).stdout)
local = {target["name"] for target in package["targets"]}
faults = 0
for target in package["targets"]:
    if target["type"] == "system":
        continue
    path = target.get("path") or ("Tests/" if target["type"] == "test" else "Sources/") + target["name"]
    declared = {d[kind][0] for d in target["dependencies"] for kind in ("byName", "target", "product") if kind in d}
    for source in glob.glob(path + "/**/*.swift", recursive=True):
        for number, line in enumerate(open(source, encoding="utf-8"), 1):
            match = re.match(r"\s*(?:@testable\s+)?import\s+(\w+)", line)
            if match and match.group(1) in local and match.group(1) not in declared:
                print(f"{source}:{number}: {target['name']} imports {match.group(1)}, not in its Package.swift dependencies")
                faults += 1
print(f"imports: {len(package['targets'])} targets, {faults} undeclared")
sys.exit(1 if faults else 0)
