#!/usr/bin/env python3
"""Checks the links of every Markdown file in the repository (make lint).

Every link and image, inline (`[text](target)`) or by reference (`[label]: target`), outside code
blocks and code spans, must stay inside the repository: a relative path to a file or directory
that exists, and an anchor (`#…`) that names a heading of the Markdown file it points to (as
GitHub spells heading anchors) or an explicit `id`/`name` in it. A link to a URL (`http:`,
`https:`, `mailto:`, `//host`) is an error: the documentation does not point outside itself.

A code span that names a repository path (`Sources/…`, `rig/…`: its first word, whose first part
is a top-level directory of the repository) must name a file or directory that exists, or with
a wildcard one that matches, so that a page listing the files to touch cannot name one that was
moved or removed. A path with a placeholder part (`NAME`, `XYZ1234`, … in PLACEHOLDERS) is an
example, not a path, and is not checked.

usage: Tests/docs/check_links.py [ROOT]   (default: the repository holding this script)
Exit status 0 when every link resolves, 1 otherwise, each fault printed as FILE:LINE: message.
"""

import glob
import os
import re
import subprocess
import sys
import unicodedata

SKIP_DIRS = {".build", ".git", ".rig", "bench-out", "node_modules"}

INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ID = re.compile(r"""<[^>]+\b(?:id|name)\s*=\s*["']([^"']+)["']""")
FENCE = re.compile(r"^ {0,3}(```+|~~~+)")
EXTERNAL = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
# The words the documents write in a path for "any such name": the made-up chip of
# adding-a-chip.md, a program's, board's or corpus' name, a line number, an architecture.
PLACEHOLDERS = re.compile(r"XYZ1234|\b(?:NAME|N|LINE|ARCH|SUITE|PROGRAM|FILE|DIR)\b")


def markdown_files(root):
    try:
        out = subprocess.run(
            ["git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard", "*.md"],
            check=True, capture_output=True, text=True).stdout
        files = [os.path.join(root, line) for line in out.splitlines() if line]
        return sorted({f for f in files if os.path.exists(f)})  # once each, even mid-merge
    except (OSError, subprocess.CalledProcessError):
        found = []
        for directory, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
            found += [os.path.join(directory, n) for n in names if n.endswith(".md")]
        return sorted(found)


def unfenced_lines(text):
    """(line number, line) outside fenced code blocks."""
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        match = FENCE.match(line)
        if fence:
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence):
                fence = None
            continue
        if match:
            fence = match.group(1)
            continue
        yield number, line


def prose_lines(text):
    """(line number, line) outside fenced code blocks, with code spans blanked out."""
    for number, line in unfenced_lines(text):
        yield number, CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)


def top_level_directories(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files"], check=True, capture_output=True,
                             text=True).stdout
        return {line.split("/")[0] for line in out.splitlines() if "/" in line}
    except (OSError, subprocess.CalledProcessError):
        return {d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)) and d not in SKIP_DIRS}


def missing_paths(root, text, directories):
    """(line number, path) of each code span naming a repository path that does not exist."""
    for number, line in unfenced_lines(text):
        for span in CODE_SPAN.finditer(line):
            words = span.group(2).split()
            path = words[0].rstrip(",;:.)") if words else ""
            if "/" not in path or path.split("/")[0] not in directories or PLACEHOLDERS.search(path):
                continue
            where = os.path.join(root, path)
            if not (glob.glob(where) if any(c in path for c in "*?[") else os.path.exists(where)):
                yield number, path


def slug(heading):
    """The anchor GitHub gives a heading."""
    text = re.sub(r"<[^>]+>", "", heading)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link's text stays
    text = text.replace("`", "").lower()
    kept = []
    for ch in text:
        if ch in " -_":
            kept.append("-" if ch == " " else ch)
        elif unicodedata.category(ch)[0] in "LN":
            kept.append(ch)
    return "".join(kept)


anchor_cache = {}


def anchors(path):
    if path not in anchor_cache:
        found, seen = set(), {}
        fence = None
        with open(path, encoding="utf-8") as f:
            for line in f.read().split("\n"):
                match = FENCE.match(line)
                if fence:
                    if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence):
                        fence = None
                    continue
                if match:
                    fence = match.group(1)
                    continue
                found.update(HTML_ID.findall(line))
                heading = HEADING.match(line)
                if heading:
                    base = slug(heading.group(2))
                    n = seen.get(base, 0)
                    seen[base] = n + 1
                    found.add(base if n == 0 else f"{base}-{n}")
        anchor_cache[path] = found
    return anchor_cache[path]


def check(root):
    faults = []
    files = markdown_files(root)
    directories = top_level_directories(root)
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        where = os.path.relpath(path, root)
        for number, named in missing_paths(root, text, directories):
            faults.append(f"{where}:{number}: `{named}`: no such file or directory in the repository")
        for number, line in prose_lines(text):
            targets = [m.group(1) for m in INLINE.finditer(line)]
            reference = REFERENCE.match(line)
            if reference:
                targets.append(reference.group(1))
            for target in targets:
                target = target.strip("<>")
                if not target:
                    faults.append(f"{where}:{number}: an empty link")
                    continue
                if EXTERNAL.match(target):
                    faults.append(f"{where}:{number}: {target}: points outside the repository")
                    continue
                file_part, _, anchor = target.partition("#")
                resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
                if os.path.relpath(resolved, root).split(os.sep)[0] == "..":
                    faults.append(f"{where}:{number}: {target}: points outside the repository")
                    continue
                if not os.path.exists(resolved):
                    faults.append(f"{where}:{number}: {target}: no such file or directory")
                    continue
                if anchor:
                    if not resolved.endswith(".md") or os.path.isdir(resolved):
                        faults.append(f"{where}:{number}: {target}: an anchor into a file that is not Markdown")
                    elif anchor not in anchors(resolved):
                        faults.append(f"{where}:{number}: {target}: no heading or id '{anchor}' in "
                                      f"{os.path.relpath(resolved, root)}")
    return files, faults


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(here))
    files, faults = check(root)
    for fault in faults:
        print(fault, file=sys.stderr)
    if faults:
        print(f"check_links: {len(faults)} broken link(s) or path(s) in {len(files)} Markdown files",
              file=sys.stderr)
        return 1
    print(f"check_links: every link and repository path of {len(files)} Markdown files resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
