#!/usr/bin/env python3
"""The help is declared once, in each command's usage (Sources/ambience/*Command.swift and the
companions' main.swift); the man pages' SYNOPSIS and NAME and the command table of
docs/commands.md say the same. Usage: Tests/cli/help-agreement.py PATH-TO-AMBIENCE (the companions beside it)."""
import os
import re
import subprocess
import sys

BIN = os.path.realpath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/ambience")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
COMPANIONS = ["kiosk", "serve", "mqtt"]
problems = []


def run(*words):
    result = subprocess.run(words, capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, (words, result)
    return result.stdout


def normal(text):
    return " ".join(text.split())


def overview():
    """`ambience --help`: each command's name and summary, in order."""
    lines = run(BIN, "--help").split("\n")
    start = lines.index("commands:") + 1
    entries = []
    for line in lines[start:]:
        if not line.strip():
            break
        name, summary = line.split(None, 1)
        entries.append((name, summary.strip()))
    return entries


def synopsis(help_text):
    """The usage forms of a command's --help: the lines before the first blank one, a form
    starting at each `ambience` word."""
    forms = []
    for line in help_text.split("\n"):
        if not line.strip():
            break
        text = line.removeprefix("usage: ").strip()
        if text.startswith("ambience "):
            forms.append(text)
        else:
            forms[-1] += " " + text
    return [normal(form) for form in forms]


def troff_text(line):
    """One line of a synopsis as man shows it, fonts dropped."""
    match = re.match(r"^\.(B|I|R|BR|RB|IR|RI|BI|IB)(?:\s+(.*))?$", line)
    if match:
        words = [quoted if quoted else bare for quoted, bare in re.findall(r'"([^"]*)"|(\S+)', match.group(2) or "")]
        line = (" " if len(match.group(1)) == 1 else "").join(words)
    elif line.startswith("."):
        raise ValueError(f"unexpected request in a synopsis: {line}")
    line = re.sub(r"\\f[BIRP]", "", line)
    return line.replace("\\-", "-").replace("\\&", "").replace("\\e", "\\")


def man_page(path):
    """A man page's NAME line, its SYNOPSIS forms (separated by .br) and its sections' lines."""
    sections, current = {}, None
    for line in open(path, encoding="utf-8").read().split("\n"):
        if line.startswith(".SH "):
            current = line[4:].strip('"')
            sections[current] = []
        elif current is not None and not line.startswith('.\\"'):
            sections[current].append(line)
    forms, words = [], []
    for line in sections["SYNOPSIS"] + [".br"]:
        if line == ".br":
            if words:
                forms.append(normal(" ".join(words)))
            words = []
        elif line.strip():
            words.append(troff_text(line))
    name = normal(troff_text(" ".join(sections["NAME"])))
    return name, forms, sections


def readme_rows():
    """docs/commands.md's command table: each row's first cell, its code spans being usage forms."""
    text = open(os.path.join(ROOT, "docs/commands.md"), encoding="utf-8").read()
    table = text.split("\n## ", 1)[0]
    rows = []
    for line in table.split("\n"):
        if not line.startswith("| `"):
            continue
        cell = re.split(r"(?<!\\)\|", line)[1]
        rows.append([normal(span.replace("\\|", "|")) for span in re.findall(r"`([^`]*)`", cell)])
    return rows


def compare(what, declared, documented):
    missing = [form for form in declared if form not in documented]
    extra = [form for form in documented if form not in declared]
    for form in missing:
        problems.append(f"{what} lacks: {form}")
    for form in extra:
        problems.append(f"{what} has what no --help says: {form}")


entries = overview()
names = [name for name, _ in entries]
for companion in COMPANIONS:
    if companion not in names:
        problems.append(f"ambience --help does not list {companion}")
forms = {name: synopsis(run(BIN, name, "--help")) for name in names}
for name in names:
    if not forms[name] or not all(form.startswith(f"ambience {name}") for form in forms[name]):
        problems.append(f"ambience {name} --help: no synopsis of its own: {forms[name]}")
every_form = [form for name in names for form in forms[name]]

# The whole manual's synopsis: every command's forms, and `ambience COMMAND --help`.
_, man_forms, sections = man_page(os.path.join(ROOT, "docs/man/ambience.1"))
compare("ambience(1) SYNOPSIS", every_form + ["ambience COMMAND --help"], man_forms)
# and an entry (.TP, then the command in bold) in COMMANDS for each.
lines = sections["COMMANDS"]
described = [lines[i + 1].split()[1] for i, line in enumerate(lines[:-1])
             if line == ".TP" and lines[i + 1].startswith(".B ")]
if sorted(described) != sorted(names):
    problems.append(f"ambience(1) COMMANDS describes {described}, ambience --help lists {names}")

# Each companion's own page: its summary as NAME, its forms as SYNOPSIS; the program itself
# prints the same help as `ambience NAME --help`.
summaries = dict(entries)
for companion in COMPANIONS:
    program = os.path.join(os.path.dirname(BIN), f"ambience-{companion}")
    if run(program, "--help") != run(BIN, companion, "--help"):
        problems.append(f"ambience-{companion} --help differs from ambience {companion} --help")
    name, page_forms, _ = man_page(os.path.join(ROOT, f"docs/man/ambience-{companion}.1"))
    want = f"ambience-{companion} - {summaries.get(companion)}"
    if name != want:
        problems.append(f"ambience-{companion}(1) NAME is '{name}', not '{want}'")
    compare(f"ambience-{companion}(1) SYNOPSIS", forms[companion], page_forms)

# docs/commands.md: one row per command, its first cell the forms without `ambience `.
rows = readme_rows()
readme_forms = ["ambience " + form for row in rows for form in row]
compare("docs/commands.md's command table", every_form, readme_forms)
for name in names:
    if not any(row and row[0].split()[0] == name for row in rows):
        problems.append(f"docs/commands.md's command table has no row for {name}")

for problem in problems:
    print(problem)
print(f"help agreement: {len(names)} commands, {len(every_form)} usage forms; {len(problems)} problems")
sys.exit(1 if problems else 0)
