#!/usr/bin/env python3
"""docs/architecture.md's module tables agree with the package (make lint).

The libraries table (header `| target | depends on | … |`) has one row per library and system
library target of `swift package dump-package`, none for a target that does not exist, and each
row's "depends on" is that target's Package.swift dependencies, in any order; a parenthesis in the
column is a remark and is not read, `—` is none. The programs' table (header `| program | imports
| … |`) has one row per executable target, each listing exactly the package's modules that the
program's sources import. The fuzz targets (AMBIENCE_FUZZ=1) are left out: they are not built
by default and their dependencies are check-imports.py's business.

usage: scripts/check-architecture.py [ROOT]   (SWIFT names the swift to run, default `swift`)
Each disagreement is printed as docs/architecture.md:LINE: what differs; exit status 1 if any.
"""
import glob
import json
import os
import re
import subprocess
import sys

DOCUMENT = "docs/architecture.md"
DELIMITER = re.compile(r"^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")
IMPORT = re.compile(
    r"\s*(?:@\w+\s+)*import\s+(?:(?:struct|class|enum|protocol|typealias|func|let|var)\s+)?(\w+)")


def package_targets(root):
    environment = {k: v for k, v in os.environ.items() if k != "AMBIENCE_FUZZ"}
    dump = subprocess.run([os.environ.get("SWIFT", "swift"), "package", "dump-package"], cwd=root,
                          check=True, capture_output=True, text=True, env=environment).stdout
    return json.loads(dump)["targets"]


def dependencies(target):
    return {d[kind][0] for d in target["dependencies"] for kind in ("byName", "target", "product")
            if kind in d}


def imports(root, target, local):
    path = target.get("path") or "Sources/" + target["name"]
    found = set()
    for source in glob.glob(os.path.join(root, path, "**", "*.swift"), recursive=True):
        with open(source, encoding="utf-8") as lines:
            for line in lines:
                match = IMPORT.match(line)
                if match and match.group(1) in local:
                    found.add(match.group(1))
    return found


def cells(line):
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def table(lines, first_columns, faults):
    """(header line number, [(line number, cells)]) of the table whose header starts so."""
    for index, line in enumerate(lines):
        if line.startswith("|") and [c.lower() for c in cells(line)[:len(first_columns)]] == first_columns:
            rows = []
            number = index + 2
            while number < len(lines) and lines[number].startswith("|"):
                rows.append((number + 1, cells(lines[number])))
                number += 1
            # A row after a blank line renders as text, not as a row: say so, not only what it lacks.
            while number < len(lines) and not lines[number].startswith("#"):
                if number + 1 < len(lines) and DELIMITER.match(lines[number + 1]):
                    break  # the next table
                if lines[number].startswith("|"):
                    faults.append(f"{DOCUMENT}:{number + 1}: a row after the end of the table that "
                                  f"starts at line {index + 1} (a line between them ends it)")
                    break
                number += 1
            return index + 1, rows
    return None, []


def names(column):
    """The module names of a cell: commas between them, parentheses and backticks not read."""
    column = re.sub(r"\([^)]*\)", "", column).replace("`", "")
    return {name.strip() for name in column.split(",") if name.strip() not in ("", "—", "-")}


def first_name(column):
    match = re.search(r"`([^`]+)`", column)
    return match.group(1) if match else column.strip()


def compare(kind, header, rows, expected, faults):
    """Each row's set against `expected` (name → set of modules); every name once."""
    if header is None:
        faults.append(f"{DOCUMENT}:1: no table of the {kind} (its header starts `| "
                      f"{'target | depends on' if kind == 'libraries' else 'program | imports'} |`)")
        return
    seen = {}
    for number, row in rows:
        name = first_name(row[0])
        if name in seen:
            faults.append(f"{DOCUMENT}:{number}: `{name}` has a row already, line {seen[name]}")
            continue
        seen[name] = number
        if name not in expected:
            faults.append(f"{DOCUMENT}:{number}: `{name}` is not one of the package's {kind}")
            continue
        written = names(row[1]) if len(row) > 1 else set()
        missing, extra = expected[name] - written, written - expected[name]
        if missing:
            faults.append(f"{DOCUMENT}:{number}: `{name}`: {', '.join(sorted(missing))} left out")
        if extra:
            faults.append(f"{DOCUMENT}:{number}: `{name}`: {', '.join(sorted(extra))} named, but "
                          f"{'not in its Package.swift dependencies' if kind == 'libraries' else 'not imported'}")
    for name in sorted(set(expected) - set(seen)):
        faults.append(f"{DOCUMENT}:{header}: `{name}` has no row in the table of the {kind}")


def main():
    root = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))
    targets = package_targets(root)
    local = {target["name"] for target in targets}
    libraries = {t["name"]: dependencies(t) for t in targets if t["type"] in ("regular", "system")}
    programs = {t["name"]: imports(root, t, local) for t in targets if t["type"] == "executable"}
    with open(os.path.join(root, DOCUMENT), encoding="utf-8") as document:
        lines = document.read().split("\n")
    faults = []
    compare("libraries", *table(lines, ["target", "depends on"], faults), libraries, faults)
    compare("programs", *table(lines, ["program", "imports"], faults), programs, faults)
    for fault in faults:
        print(fault)
    if faults:
        return 1
    print(f"architecture: {DOCUMENT} agrees with Package.swift: {len(libraries)} libraries' "
          f"dependencies, {len(programs)} programs' imports")
    return 0


if __name__ == "__main__":
    sys.exit(main())
