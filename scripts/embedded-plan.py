#!/usr/bin/env python3
"""What scripts/embedded-build.sh builds for each program, read from Package.swift.

The manifest (`swift package dump-package`, as JSON on standard input) is the one list of which
module imports which: this walks it from each program named, so that a module, a C shim or a
system library added there is built and linked here too, with no second list to keep.

Prints one line per step, each module after the modules it imports:
    swift NAME DIRECTORY      a Swift module, built as a static library
    c NAME DIRECTORY          a C target (a shim), compiled with its include directory
    system NAME DIRECTORY PKG a system library's module map (PKG: its pkg-config name, or -)
    program NAME DIRECTORY    the executable itself
Usage: swift package dump-package | scripts/embedded-plan.py PROGRAM...
"""
import json
import os
import sys


def main() -> int:
    manifest = json.load(sys.stdin)
    targets = {target["name"]: target for target in manifest["targets"]}
    done: list[str] = []

    def visit(name: str) -> None:
        if name in done:
            return
        target = targets.get(name)
        if target is None:
            raise SystemExit(f"embedded-plan: {name} is no target of Package.swift")
        for dependency in target["dependencies"]:
            visit(next(iter(dependency.values()))[0])
        done.append(name)

    programs = sys.argv[1:]
    for program in programs:
        if targets.get(program, {}).get("type") != "executable":
            print(f"embedded-plan: {program} is no executable of Package.swift", file=sys.stderr)
            return 2
        visit(program)
    for name in done:
        target = targets[name]
        directory = target.get("path") or os.path.join("Sources", name)
        if target["type"] == "system":
            print("system", name, directory, target.get("pkgConfig") or "-")
        elif target["type"] == "executable":
            print("program", name, directory)
        elif any(file.endswith(".swift") for _, _, files in os.walk(directory) for file in files):
            print("swift", name, directory)
        else:
            print("c", name, directory)
    return 0


if __name__ == "__main__":
    sys.exit(main())
